import noticeSource from '../../../matchmaker/service/notice.cpp?raw';
import { describe, expect, it } from 'vitest';
import { byLabel, metric, parsePrometheus } from '../src/admin/prometheus';
import { joinOpen, boardScore, byRoundAndBoard, tiebreakColumns, sortedByName, noticeText, tiebreakCell, eventIdOfGame, nextGameOfMatch, placeOfGame, hasResult, colourLetter, crossCellText, crossCellWords, eventIdFrom, pairingText, pairsFromNumbers, parsePairs, myPlace, playerOf, poolName, roundToStart, sbText, shownStandings, slotsOf } from '../src/tournament/logic';
import type { EventDetail, Standings, StandingsRow } from '../src/tournament/types';
import { setLang } from '../src/i18n';

const ev: EventDetail = {
  config: {} as EventDetail['config'],
  stage: 'running',
  players: [{ name: 'A' }, { name: 'B' }, { name: 'C' }],
  user_ids: ['u-a', 'u-b', 'u-c'],
  rounds: [{ boards: [{ a: 1, b: 0, games: [] }, { a: 2, b: -2, games: [] }] }],
  games: [
    { game_id: 'e-r1-b1-g2', round: 1, board: 0, index: 1, red: 0, black: 1, finished: false, red_points: 0, black_points: 0 },
    { game_id: 'e-r1-b1-g1', round: 1, board: 0, index: 0, red: 1, black: 0, finished: true, red_points: 2, black_points: 0 },
  ],
};

describe('tournament helpers', () => {
  it('counts and orders only placed players: a disqualified one comes last, unranked', () => {
    // Ten players; the one ranked 8th on points is disqualified.
    const rows = Array.from({ length: 10 }, (_, i) => ({
      rank: i + 1, player: i, score: 20 - i, withdrawn: i === 7,
      withdrawn_reason: i === 7 ? 'disqualified' : '', place: i < 7 ? i + 1 : i === 7 ? 0 : i,
    })) as unknown as StandingsRow[];
    const st = { after_round: 7, columns: [], rows, final_ranking: [0, 1, 2, 3, 4, 5, 6, 8, 9] } as Standings;
    const shown = shownStandings(rows);
    expect(shown.map((s) => s.row.player)).toEqual([0, 1, 2, 3, 4, 5, 6, 8, 9, 7]);
    expect(shown.map((s) => s.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, null]);
    const finished = { ...ev, stage: 'finished' };
    expect(myPlace(finished, st, 5)).toMatchObject({ place: 6, of: 9, final: true });
    expect(myPlace(finished, st, 9)).toMatchObject({ place: 9, of: 9 });
    expect(myPlace(finished, st, 7)).toMatchObject({ place: 0, of: 9 });
    expect(myPlace({ ...ev, stage: 'running' }, st, 8)).toMatchObject({ place: 8, of: 9, final: false });
  });
  it('keeps shared ranks shared when closing up over a disqualified player', () => {
    const rows = [
      { rank: 1, player: 0, withdrawn_reason: 'disqualified' },
      { rank: 2, player: 1 },
      { rank: 2, player: 2 },
    ] as unknown as StandingsRow[];
    expect(shownStandings(rows).map((s) => s.rank)).toEqual([1, 1, null]);
  });
  it('offers to start a paired round, or play-off games with no Swiss round to start with', () => {
    const started = { ...ev, rounds: [{ round: 1, started: true, boards: [] }] };
    expect(roundToStart({ ...ev, rounds: [{ round: 1, started: false, boards: [] }] })).toBe(true);
    expect(roundToStart(started)).toBe(false);
    expect(roundToStart({ ...started, knockout_waiting: true })).toBe(true);
  });
  it('keeps late entries open while fewer rounds than the limit are paired, started or not', () => {
    const late = { ...ev, config: { ...ev.config, late_join_until_round: 2 } };
    expect(joinOpen({ ...late, stage: 'registration', rounds: [] })).toBe(true);
    expect(joinOpen({ ...late, rounds: [{ round: 1, started: true, boards: [] }] })).toBe(true);
    expect(joinOpen({ ...late, rounds: [{ round: 1, started: true, boards: [] }, { round: 2, started: false, boards: [] }], rounds_started: 1 }))
      .toBe(false);
    expect(joinOpen({ ...late, stage: 'finished', rounds: [] })).toBe(false);
    expect(joinOpen({ ...ev, rounds: [{ round: 1, started: true, boards: [] }] })).toBe(false);
  });
  it('finds the viewer and the slots of a board in game order', () => {
    expect(playerOf(ev, 'u-c')).toBe(2);
    expect(playerOf(ev, 'nobody')).toBe(-1);
    expect(slotsOf(ev, 1, 0).map((g) => g.game_id)).toEqual(['e-r1-b1-g1', 'e-r1-b1-g2']);
  });
  it('sums board points from finished slots, from the board side a', () => {
    expect(boardScore(ev, 1, 0)).toEqual([2, 0]);
    expect(boardScore(ev, 1, 1)).toBeNull();
    const played = { ...ev, rounds: [{ boards: [{ a: 1, b: 0, games: [{ a: 2, b: 0 }, { a: 1, b: 1 }] }] }] };
    expect(boardScore(played, 1, 0)).toEqual([3, 1]);
    const pub = { ...ev, rounds: [{ round: 1, started: true, boards: [{ board: 1, a: 1, b: 0, games: [{ a_points: 0, b_points: 2 }] }] }] };
    expect(boardScore(pub, 1, 0)).toEqual([0, 2]);
    expect(hasResult(pub, 1, 0)).toBe(true);
    expect(hasResult(ev, 1, 2)).toBe(true); // bye
    const unstarted = { ...ev, rounds: [{ ...ev.rounds[0], started: false }] };
    expect(hasResult(unstarted, 1, 2)).toBe(false); // a bye in a round not started yet
    expect(hasResult({ ...ev, games: [] }, 1, 0)).toBe(false);
  });
  it('reads colours, crosstable cells and SB', () => {
    expect([colourLetter('red'), colourLetter('b'), colourLetter(1), colourLetter(-1), colourLetter('')]).toEqual(['r', 'b', 'r', 'b', '']);
    expect(crossCellText({ opponent: 1, colour: 'black', points: 2 }, (p) => p + 1)).toBe('2b 2');
    expect(crossCellText({ opponent: -2, colour: '', points: 2 }, () => 0)).toBe('+ 2');
    expect(crossCellText({ opponent: -1, colour: '', points: 0 }, () => 0)).toBe('–');
    expect(crossCellText({ opponent: 1, colour: 'red', points: 0 }, (p) => p + 1, false)).toBe('2r');
    // The same cells in words, for a screen reader.
    expect(crossCellWords({ opponent: 1, colour: 'black', points: 2 }, (p) => p + 1)).toBe('against No. 2, Black, 2 points');
    expect(crossCellWords({ opponent: -2, colour: '', points: 2 }, () => 0)).toBe('bye, 2 points');
    expect(crossCellWords({ opponent: -1, colour: '', points: 0 }, () => 0)).toBe('not paired');
    expect(crossCellWords({ opponent: 1, colour: 'red', points: 0 }, (p) => p + 1, false)).toBe('against No. 2, Red');
    expect(crossCellWords({ opponent: 1, colour: 'red', points: 1 }, (p) => p + 1)).toBe('against No. 2, Red, 1 point');
    try {
      setLang('zh'); // 红/黑 in a Chinese crosstable, not r/b
      expect(crossCellText({ opponent: 1, colour: 'black', points: 2 }, (p) => p + 1)).toBe('2黑 2');
      expect(crossCellText({ opponent: 2, colour: 'red', points: 1 }, (p) => p + 1)).toBe('3红 1');
      expect(crossCellWords({ opponent: 2, colour: 'red', points: 1 }, (p) => p + 1)).toBe('对 3 号，红方，得 1 分');
    } finally {
      setLang('en');
    }
    expect(sbText({ sonneborn_berger_x2: 5 } as StandingsRow)).toBe('2.5');
    expect(sbText({ sonneborn_berger_x2: 4 } as StandingsRow)).toBe('2');
  });
  it('parses board lists and makes ids', () => {
    expect(parsePairs('0-1, 2-3;4 bye')).toEqual([[0, 1], [2, 3], [4, -2]]);
    expect(parsePairs('')).toEqual([]);
    expect(() => parsePairs('a-b')).toThrow();
    // As a Chinese input method types them: full-width commas, 、 and ；, full-width dashes and colons.
    expect(parsePairs('1-4，2-3')).toEqual([[1, 4], [2, 3]]);
    expect(parsePairs('1－4、2：3；5—轮空')).toEqual([[1, 4], [2, 3], [5, -2]]);
    // The edit box speaks pairing numbers; the API takes places in the player list.
    const players = [{ name: 'A', number: 2 }, { name: 'B', number: 3 }, { name: 'C', number: 1 }];
    expect(pairingText([{ a: 1, b: 2 }, { a: 0, b: -2 }], players)).toBe('3-1, 2-bye');
    expect(pairsFromNumbers('3-1, 2-bye', players)).toEqual([[1, 2], [0, -2]]);
    expect(() => pairsFromNumbers('3-4', players)).toThrow('#4');
    expect(eventIdFrom('Spring Jieqi Open!', 0)).toBe('spring-jieqi-open-0000');
    expect(eventIdFrom('春季赛', 0)).toBe('event-0000');
    expect(poolName('jieqi', 180000, 2000)).toBe('jieqi:180000+2000');
    expect(eventIdOfGame('spring-open-r2-b1-g2')).toBe('spring-open');
    expect(eventIdOfGame('e2e-ko-ko-final')).toBe('e2e-ko');
    expect(eventIdOfGame('q1764500000-123')).toBeUndefined();
    expect(eventIdOfGame('4d9a759040e86d0c')).toBeUndefined();
    expect(placeOfGame('spring-open-r12-b3-g2')).toEqual({ round: 12, board: 3, game: 2 });
    expect(placeOfGame('e2e-ko-ko-sf2')).toEqual({ knockout: 'sf2' });
    expect(placeOfGame('e2e-ko-ko-sf2-r2')).toEqual({ knockout: 'sf2' }); // played again after an abort
    expect(eventIdOfGame('e2e-ko-ko-final-r3')).toBe('e2e-ko');
    expect(placeOfGame('4d9a759040e86d0c')).toBeUndefined();
    expect(nextGameOfMatch('spring-open-r2-b1-g1')).toBe('spring-open-r2-b1-g2');
    expect(nextGameOfMatch('e2e-ko-ko-final')).toBeUndefined();
  });
});

describe('prometheus text', () => {
  const text = `# HELP xq_connections Open WebSocket connections.
# TYPE xq_connections gauge
xq_connections 3
xq_moves_total 41
xq_move_latency_seconds_bucket{le="0.001"} 2
xq_move_latency_seconds_bucket{le="+Inf"} 41
xq_errors_total{code="ILLEGAL_MOVE"} 2
xq_errors_total{code="RATE_LIMITED"} 5
garbage line here
`;
  it('reads gauges, counters and labelled samples', () => {
    const s = parsePrometheus(text);
    expect(metric(s, 'xq_connections')).toBe(3);
    expect(metric(s, 'xq_moves_total')).toBe(41);
    expect(metric(s, 'xq_live_games')).toBeUndefined();
    expect(byLabel(s, 'xq_errors_total', 'code')).toEqual({ ILLEGAL_MOVE: 2, RATE_LIMITED: 5 });
    expect(byLabel(s, 'xq_move_latency_seconds_bucket', 'le')['+Inf']).toBe(41);
  });
});

describe('noticeText: the matchmaker\'s notices in the page\'s language', () => {
  const n = (code: string, params: Record<string, string> = {}, text = '') => noticeText({ code, params, text });
  it('says each code in Chinese, with the names and numbers kept', () => {
    setLang('zh');
    try {
      expect(n('round_paired', { round: '3' })).toBe('第 3 轮已编排');
      expect(n('round_started', { round: '3' })).toBe('第 3 轮开始');
      expect(n('withdrew', { name: '王伟' })).toBe('王伟 退出比赛');
      expect(n('removed_for_forfeits', { name: 'Wang', round: '4', limit: '3' })).toBe('Wang 第 4 轮后累计弃权 3 轮，达到本次比赛上限，按退赛处理');
      expect(n('event_paused_because', { reason: '场地停电' })).toBe('组织者暂停了比赛：场地停电');
      expect(n('disqualified_because', { name: 'Li', reason: 'engine use' })).toBe('Li 被取消比赛资格：engine use');
      expect(n('event_finished')).toBe('比赛结束');
      // A code this client does not know yet: the server's English.
      expect(n('something_new', {}, 'something new happened')).toBe('something new happened');
    } finally {
      setLang('en');
    }
  });

  // Two parameters are codes ("final", "pairing.rounds, initial_ms"): players read names.
  it('names the play-off game and the settings changed, not their codes', () => {
    try {
      setLang('zh');
      expect(n('knockout_corrected', { knockout: 'final', red: '王伟', black: '李娜', score: '2:0' })).toBe('决赛：王伟 – 李娜 成绩更正为 2:0');
      expect(n('knockout_replayed', { knockout: 'sf2', red: '王伟', black: '李娜' })).toBe('半决赛 2：王伟 – 李娜 的对局已作废，将重赛');
      expect(n('knockout_corrected', { knockout: 'third', red: 'A', black: 'B', score: '1:1' })).toBe('三四名决赛：A – B 成绩更正为 1:1');
      expect(n('settings_changed', { list: 'pairing.rounds, initial_ms, no_show_ms' })).toBe('比赛设置已修改：轮数、基本用时、迟到判负时限');
      expect(n('settings_changed', { list: 'name, something_new' })).toBe('比赛设置已修改：比赛名称、something_new');
      const why = 'round 4 cannot be paired: no legal pairing exists: every pairing repeats a meeting, pairs a forbidden pair or gives a player a second bye (pair it with allow_rematches for the fewest rematches with fresh byes, or edit the pairing)';
      expect(n('paused_pairing_failed', { why })).toBe('比赛暂停：第 4 轮无法编排：任何编排都会重复对阵、遇到禁配或使棋手第二次轮空（可按重复对阵最少编排，或手动修改对阵）；须由组织者编排本轮');
      expect(n('pair_again_by_hand', { round: '4', why: 'round 4 cannot be paired: too many score groups for the weight width' })).toBe('第 4 轮须由组织者重新编排：第 4 轮无法编排：分数组过多');
      expect(n('pair_again_by_hand', { round: '4', why: 'something else' })).toBe('第 4 轮须由组织者重新编排：something else');
      setLang('en');
      expect(n('knockout_corrected', { knockout: 'sf1', red: 'A', black: 'B', score: '2:0' })).toBe('Semi-final 1: A – B corrected to 2:0');
      expect(n('settings_changed', { list: 'pairing.rounds, spectator_delay_ms' })).toBe("settings changed: rounds, spectators' delay");
    } finally {
      setLang('en');
    }
  });

  // The matchmaker's table of codes (matchmaker/service/notice.cpp) is the source: every code has
  // a text in both languages naming the same parameters, and the English is the server's own.
  it('knows every code the matchmaker sends, in both languages', () => {
    const entries = [...noticeSource.matchAll(/\{"(\w+)",\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\}/g)].map(
      ([, code, literals]) => [code, [...literals.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join('')] as const,
    );
    expect(entries.length).toBeGreaterThan(30);
    const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [code, english] of entries) {
      const params = Object.fromEntries(names(english).map((p) => [p, `<${p}>`]));
      setLang('en');
      expect(n(code, params), code).toBe(english.replace(/\{(\w+)\}/g, '<$1>'));
      setLang('zh');
      const zh = n(code, params);
      expect(zh, code).not.toBe(english.replace(/\{(\w+)\}/g, '<$1>'));
      for (const p of names(english)) expect(zh, `${code}: {${p}}`).toContain(`<${p}>`);
    }
    setLang('en');
  });

  // Two kinds the matchmaker is about to send (a banned entrant withdrawn, a play-off drawn while
  // the organiser runs rounds by hand): worded before they arrive, in both languages.
  it('words the banned withdrawal and the drawn play-off', () => {
    try {
      setLang('en');
      expect(n('withdrawn_banned', { name: 'Wang' })).toBe('Wang withdrawn: account banned');
      expect(n('playoff_drawn')).toBe('play-off drawn: its games start with the next round');
      setLang('zh');
      expect(n('withdrawn_banned', { name: '王伟' })).toBe('王伟 账号被封禁，已退赛');
      expect(n('playoff_drawn')).toBe('附加赛对阵已确定：下一轮开始时开赛');
    } finally {
      setLang('en');
    }
  });
});

describe('tiebreak cells', () => {
  it('show the round before for 前一轮名次 and 前一轮积分, the whole list in the title', () => {
    expect(tiebreakCell('prev_round_rank', '3,5,2')).toEqual({ text: '3', title: '3 · 5 · 2' });
    expect(tiebreakCell('prev_round_score', '8,6')).toEqual({ text: '8', title: '8 · 6' });
    expect(tiebreakCell('prev_round_rank', '')).toEqual({ text: '', title: '' });
    expect(tiebreakCell('opp_score', '12')).toEqual({ text: '12', title: '12' });
    expect(tiebreakCell('wins', 3)).toEqual({ text: '3', title: '3' });
  });
});

describe('organiser pick lists', () => {
  it('list players by name in the reader\'s collation, not in registration order', () => {
    const names = (ps: { name: string }[]) => ps.map((p) => p.name);
    const latin = [{ name: 'Zoe' }, { name: 'adam' }, { name: 'Émile' }, { name: 'Bob' }, { name: 'player10' }, { name: 'player9' }];
    expect(names(sortedByName(latin, 'en'))).toEqual(['adam', 'Bob', 'Émile', 'player9', 'player10', 'Zoe']);
    // Chinese names by pinyin: Li, Wang, Zhang.
    expect(names(sortedByName([{ name: '张伟' }, { name: '李娜' }, { name: '王芳' }], 'zh'))).toEqual(['李娜', '王芳', '张伟']);
    const same = [{ name: 'Li', id: 1 }, { name: 'Li', id: 2 }];
    expect(sortedByName(same, 'en').map((p) => p.id)).toEqual([1, 2]);
  });
  it('list games by round, board and game, a play-off game after the boards', () => {
    const g = (round: number, board: number, index = 0, knockout?: string) =>
      ({ game_id: `${round}-${board}-${index}-${knockout ?? ''}`, round, board, index, knockout, red: 0, black: 1, finished: false, red_points: 0, black_points: 0 });
    const out = byRoundAndBoard([g(2, 1), g(1, 0, 1), g(2, -1, 0, 'sf2'), g(2, 0), g(2, -1, 0, 'sf1'), g(1, 0, 0)]);
    expect(out.map((x) => x.game_id)).toEqual(['1-0-0-', '1-0-1-', '2-0-0-', '2-1-0-', '2--1-0-sf1', '2--1-0-sf2']);
  });
});

describe('standings tiebreak columns', () => {
  it('leave out a tiebreak with no value in any row (cut early rounds after round 1), in the event\'s order', () => {
    const row = (tiebreaks: (string | number)[]) => ({ tiebreaks }) as unknown as StandingsRow;
    const cols = ['opp_score', 'drop_early_rounds', 'prev_round_rank', 'wins'];
    const after1 = [row([2, '', '', 1]), row([0, '', '', 0]), row([1])];
    expect(tiebreakColumns(cols, after1)).toEqual({ shown: [['opp_score', 0], ['wins', 3]], empty: [['drop_early_rounds', 1], ['prev_round_rank', 2]] });
    const after3 = [row([5, 3, '2,1', 2]), row([4, '', '', 1])];
    expect(tiebreakColumns(cols, after3).empty).toEqual([]);
  });
});
