// Pure helpers for the tournament pages (unit-tested in test/tournament.test.ts).
import { hasKey, lang, pairingFailureText, settingName, t } from '../i18n';
import { BYE, type CrossCell, type EventDetail, type EventPlayer, type GameSlot, type Standings, type StandingsRow } from './types';

// The player id of a user in the event, or -1.
export function playerOf(ev: EventDetail, userId: string | undefined): number {
  if (!userId) return -1;
  const ids = ev.user_ids ?? ev.players.map((p) => p.user_id ?? '');
  return ids.indexOf(userId);
}

export function playerName(ev: EventDetail, id: number): string {
  if (id === BYE) return '';
  return ev.players[id]?.name ?? `#${id}`;
}

// The game slots of one board of a round, in game order.
export function slotsOf(ev: EventDetail, round: number, board: number): GameSlot[] {
  return ev.games.filter((g) => g.round === round && g.board === board && !g.knockout).sort((a, b) => a.index - b.index);
}

// Board points so far (a, b) summed over its finished games; null while none is finished.
export function boardScore(ev: EventDetail, round: number, board: number): [number, number] | null {
  const b = ev.rounds[round - 1]?.boards[board];
  if (!b) return null;
  if (b.games?.length) return [b.games.reduce((s, g) => s + (g.a_points ?? g.a ?? 0), 0), b.games.reduce((s, g) => s + (g.b_points ?? g.b ?? 0), 0)];
  const done = slotsOf(ev, round, board).filter((g) => g.finished);
  if (!done.length) return null;
  let sa = 0;
  let sb = 0;
  for (const g of done) {
    if (g.red === b.a) (sa += g.red_points), (sb += g.black_points);
    else (sa += g.black_points), (sb += g.red_points);
  }
  return [sa, sb];
}

// "r" / "b" / "" from the API's colour ("red", "r", 1, "black", "b", -1 or 2).
export function colourLetter(c: string | number | undefined | null): 'r' | 'b' | '' {
  if (c === undefined || c === null) return '';
  if (typeof c === 'number') return c === 1 ? 'r' : c === -1 || c === 2 ? 'b' : '';
  const s = c.toLowerCase();
  if (s.startsWith('r') || s === 'w') return 'r';
  if (s.startsWith('b')) return 'b';
  return '';
}

// Whether round r (1-based) has a result for player p: a bye, or a board with played games.
export function hasResult(ev: EventDetail, r: number, p: number): boolean {
  const b = ev.rounds[r - 1]?.boards.find((x) => x.a === p || x.b === p);
  if (!b) return false;
  // A bye's point counts once its round has started (a paired round can still be re-paired).
  if (b.b === BYE) return ev.rounds[r - 1].started !== false;
  return b.games?.length > 0 || slotsOf(ev, r, ev.rounds[r - 1].boards.indexOf(b)).some((g) => g.finished);
}

// "3b 2" = against number 3, with Black, 2 points (Chinese "3黑 2"); "+ 2" a bye; "–" not paired.
// Points are left out while the game is unplayed (played = false).
export function crossCellText(cell: CrossCell | undefined, numberOf: (p: number) => number | undefined, played = true): string {
  if (!cell) return '';
  const pts = !played || cell.points === null || cell.points === undefined ? '' : String(cell.points);
  if (cell.opponent === BYE) return `+ ${pts}`.trim();
  if (cell.opponent < 0) return '–';
  const n = numberOf(cell.opponent) ?? cell.opponent;
  const col = colourLetter(cell.colour);
  return `${n}${col === 'r' ? t('crossRed') : col === 'b' ? t('crossBlack') : ''} ${pts}`.trim();
}

// The same cell in words, for a screen reader ("2b 2" read aloud says nothing): "against No. 2,
// black, 2 points".
export function crossCellWords(cell: CrossCell | undefined, numberOf: (p: number) => number | undefined, played = true): string {
  if (!cell) return '';
  const has = played && cell.points !== null && cell.points !== undefined;
  const points = has ? t(Number(cell.points) === 1 ? 'crossSaidPoint' : 'crossSaidPoints', { points: String(cell.points) }) : '';
  const join = (...parts: string[]) => parts.filter(Boolean).join(t('crossSaidSep'));
  if (cell.opponent === BYE) return join(t('crossSaidBye'), points);
  if (cell.opponent < 0) return t('crossSaidUnpaired');
  const col = colourLetter(cell.colour);
  return join(t('crossSaidOpponent', { n: numberOf(cell.opponent) ?? cell.opponent }), col === 'r' ? t('red') : col === 'b' ? t('black') : '', points);
}

// Sonneborn–Berger (小分) from the doubled value the API sends.
// A tiebreak's cell in the standings. 前轮名次 and 前轮积分 compare the last rounds one after
// another, and the server gives them all ("3,5,2"): the cell shows the round before (which almost
// always decides), the title the whole list, latest first.
export function tiebreakCell(code: string, value: string | number | undefined): { text: string; title: string } {
  const all = String(value ?? '');
  if (code !== 'prev_round_rank' && code !== 'prev_round_score') return { text: all, title: all };
  const list = all.split(',').filter(Boolean);
  return { text: list[0] ?? '', title: list.join(' · ') };
}

// The event's tiebreak columns worth a column: [code, index in the event's order]. One with no
// value in any row (after round 1 "cut early rounds" has no rounds to cut, "earlier rank" no
// earlier round) is left out, and named in a note instead of standing as an empty column.
export function tiebreakColumns(columns: string[], rows: StandingsRow[]): { shown: [string, number][]; empty: [string, number][] } {
  const shown: [string, number][] = [];
  const empty: [string, number][] = [];
  columns.forEach((c, i) => (rows.some((r) => tiebreakCell(c, r.tiebreaks?.[i]).text !== '') ? shown : empty).push([c, i]));
  return { shown, empty };
}

export function sbText(row: StandingsRow): string {
  const v = row.sonneborn_berger_x2 / 2;
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

// An event id from its name when the organiser leaves the id empty: "spring-open-k3f9".
export function eventIdFrom(name: string, rand = Math.random()): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24);
  const suffix = Math.floor(rand * 36 ** 4).toString(36).padStart(4, '0');
  return slug ? `${slug}-${suffix}` : `event-${suffix}`;
}

// "0-1, 2-3" → [[0, 1], [2, 3]] (forbidden pairs, edited boards); throws on anything else. A
// Chinese input method's punctuation is read too: "1-4，2-3", "1－4、2：3", "5—轮空".
export function parsePairs(text: string): [number, number][] {
  const out: [number, number][] = [];
  for (const part of text.split(/[,;\n，、；]+/).map((s) => s.trim()).filter(Boolean)) {
    const m = part.match(/^(\d+)\s*[-–—－:：\s]\s*(\d+|bye|-2|轮空)$/i);
    if (!m) throw new Error(part);
    out.push([Number(m[1]), /^\d+$/.test(m[2]) ? Number(m[2]) : BYE]);
  }
  return out;
}

// The edit-pairing box speaks pairing numbers (#3), as the rest of the page does; the API takes
// players by their place in the list. A number no player holds is refused.
export function pairingText(boards: { a: number; b: number }[], players: EventPlayer[]): string {
  const num = (p: number) => players[p]?.number ?? p + 1;
  return boards.map((b) => `${num(b.a)}-${b.b === BYE ? 'bye' : num(b.b)}`).join(', ');
}

export function pairsFromNumbers(text: string, players: EventPlayer[]): [number, number][] {
  const byNumber = new Map(players.map((p, i) => [p.number ?? i + 1, i]));
  const index = (n: number) => {
    const i = byNumber.get(n);
    if (i === undefined) throw new Error(`#${n}`);
    return i;
  };
  return parsePairs(text).map(([a, b]) => [index(a), b === BYE ? BYE : index(b)]);
}

export function poolName(variant: string, initialMs: number, incrementMs: number): string {
  return `${variant}:${initialMs}+${incrementMs}`;
}

// The event of a matchmaker game id ("<event>-r2-b1-g1", "<event>-ko-final"), else undefined.
export function eventIdOfGame(gameId: string): string | undefined {
  return gameId.match(/^(.+)-(?:r\d+-b\d+-g\d+|ko-(?:sf1|sf2|final|third)(?:-r\d+)?)$/)?.[1]; // -r2: replayed after an abort
}

// Where a matchmaker game sits in its event: a Swiss round's board and game, or a play-off game.
export type GamePlace = { round: number; board: number; game: number } | { knockout: 'sf1' | 'sf2' | 'final' | 'third' };

export function placeOfGame(gameId: string): GamePlace | undefined {
  const swiss = gameId.match(/-r(\d+)-b(\d+)-g(\d+)$/);
  if (swiss) return { round: Number(swiss[1]), board: Number(swiss[2]), game: Number(swiss[3]) };
  const ko = gameId.match(/-ko-(sf1|sf2|final|third)(?:-r\d+)?$/);
  return ko ? { knockout: ko[1] as 'sf1' | 'sf2' | 'final' | 'third' } : undefined;
}

// The id the next game of the same Swiss match would have (two-game rounds), if any could follow.
export function nextGameOfMatch(gameId: string): string | undefined {
  const m = gameId.match(/^(.+-r\d+-b\d+-g)(\d+)$/);
  return m ? `${m[1]}${Number(m[2]) + 1}` : undefined;
}

// The matchmaker's tiebreak presets (matchmaker/pairing/types.cpp, tiebreak_preset), shown in the
// event form so an organiser sees what a preset decides; the browser test compares them with the
// columns of an event created with each.
export const TIEBREAK_PRESETS: Record<string, string[]> = {
  jieqi: ['opp_score', 'progressive', 'fouls', 'prev_round_rank', 'lot'],
  'cxa-14.3.1': ['opp_score', 'wins', 'fouls', 'black_games', 'prev_round_score', 'lot'],
  'cxa-14.3.2': ['progressive', 'wins', 'fouls', 'black_games', 'drop_early_rounds', 'lot'],
  senior: ['opp_score', 'wins', 'fouls', 'head_to_head', 'black_games', 'prev_round_score', 'lot'],
};

// The preset the matchmaker uses when an event names none (docs/tournaments.md).
export function defaultTiebreakPreset(variant: string): string {
  return variant === 'jieqi' ? 'jieqi' : 'cxa-14.3.1';
}

// What a bye counts as its opponent's score in 对手分 (the matchmaker's ByeOppPolicy, in order).
export const BYE_OPP_POLICIES = ['lowest_scoring', 'lowest_all', 'zero', 'virtual', 'own_score'] as const;

// An event notice in the page's language, by its code (docs/protocol.md, Notice.code) and named
// parameters (names and reasons inside stay as given); a code this client does not know is shown
// in the server's English text.
export interface EventNotice {
  code?: string;
  params?: Record<string, string>;
  text?: string;
}

export function noticeText(n: EventNotice): string {
  const key = `notice.${n.code ?? ''}`;
  if (!n.code || !hasKey(key)) return n.text ?? '';
  // Two parameters are codes, not words: a play-off game ("final") and the settings changed
  // ("pairing.rounds, initial_ms"), said in the reader's language; so is the engine's English
  // reason a round could not be paired.
  const params = { ...(n.params ?? {}) };
  if (params.knockout) params.knockout = knockoutName(params.knockout);
  if (n.code === 'settings_changed' && params.list) params.list = settingsList(params.list);
  if ((n.code === 'pair_again_by_hand' || n.code === 'paused_pairing_failed') && params.why) params.why = pairingFailureText(params.why);
  return t(key, params);
}

// A play-off game by its code (sf1, sf2, final, third); an unknown code as it is.
export function knockoutName(code: string): string {
  const sf = /^sf(\d)$/.exec(code);
  if (sf) return t('semifinalN', { n: sf[1] });
  return code === 'final' ? t('final') : code === 'third' ? t('thirdPlace') : code;
}

// The server's ", "-separated setting names as a list in the reader's language.
function settingsList(list: string): string {
  return list.split(/,\s*/).filter(Boolean).map(settingName).join(t('listSep'));
}

// Whether the organiser has a round to start: the paired, unstarted Swiss round, or (auto_rounds
// off) play-off games after the last Swiss round, which have no Swiss round to start with.
export function roundToStart(ev: EventDetail): boolean {
  const paired = ev.rounds.length;
  const last = ev.rounds[paired - 1];
  const unstarted = last ? last.started === false || (last.started === undefined && paired > (ev.rounds_started ?? paired)) : false;
  return unstarted || ev.knockout_waiting === true;
}

// Whether a newcomer may still register: in registration, or (late entries) while fewer rounds
// than `late_join_until_round` are paired, started or not, as the matchmaker counts (a round
// paired and not yet started already closed them: the page offered a join the server refused).
export function joinOpen(ev: EventDetail): boolean {
  if (ev.stage === 'registration') return true;
  return (ev.stage === 'running' || ev.stage === 'paused') && ev.rounds.length < (ev.config.late_join_until_round ?? 0);
}

// The standings as shown: a disqualified player has no place, so they come last and unranked
// (shown '–'), and the others' ranks close up over them (ties stay ties). The server's rank counts
// them where their points put them.
export function shownStandings(rows: StandingsRow[]): { row: StandingsRow; rank: number | null }[] {
  const out = (r: StandingsRow) => r.withdrawn_reason === 'disqualified';
  const placed = rows.filter((r) => !out(r));
  return [
    ...placed.map((row) => ({ row, rank: row.rank - rows.filter((d) => out(d) && d.rank < row.rank).length })),
    ...rows.filter(out).map((row) => ({ row, rank: null })),
  ];
}

// The viewer's place: the final order once the event is over, else the rank after the last
// complete round, both among placed players only; 0 for a disqualified player (no place). Null
// before round 1 is over, or for a viewer not in the standings.
export function myPlace(ev: EventDetail, st: Standings | null, me: number): { place: number; of: number; score: number; after: number; final: boolean } | null {
  if (me < 0 || !st?.after_round) return null;
  const shown = shownStandings(st.rows ?? []);
  const mine = shown.find((s) => s.row.player === me);
  if (!mine) return null;
  const final = ev.stage === 'finished';
  const of = shown.filter((s) => s.rank !== null).length;
  const fromFinal = final && st.final_ranking?.length ? st.final_ranking.indexOf(me) + 1 : 0;
  const place = mine.rank === null ? 0 : fromFinal || mine.row.place || mine.rank;
  return { place, of, score: mine.row.score, after: st.after_round, final };
}

// Players for an organiser's pick list, by name in the reader's collation (Chinese names by
// pinyin, Latin ones ignoring case and accents): a name is found faster so than in the order of
// registration. Equal names keep their order.
export function sortedByName<T extends { name: string }>(players: T[], language: string = lang): T[] {
  const collator = new Intl.Collator(language === 'zh' ? 'zh' : 'en', { sensitivity: 'base', numeric: true });
  return players.map((p, i) => [p, i] as const).sort((a, b) => collator.compare(a[0].name, b[0].name) || a[1] - b[1]).map(([p]) => p);
}

// Game slots in round, board and game order, a round's play-off games after its boards (the API
// lists them as they were created).
export function byRoundAndBoard(games: GameSlot[]): GameSlot[] {
  const board = (g: GameSlot) => (g.board >= 0 && !g.knockout ? g.board : 1e6);
  return [...games].sort((a, b) => a.round - b.round || board(a) - board(b) || (a.knockout ?? '').localeCompare(b.knockout ?? '') || a.index - b.index);
}
