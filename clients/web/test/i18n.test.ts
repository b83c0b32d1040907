import { describe, expect, it } from 'vitest';
import { apiErrorText, captureVisibilityText, errorText, paren, reasonText, setLang, warningText } from '../src/i18n';
import { Outcome, type GameResult } from '../src/net/proto';
import { durationText, ratingCounted, resultText, rulesetTag, tcText } from '../src/ui/format';
import { outcomeFor } from '../src/ui/PlayerPage';

describe('result reasons', () => {
  it('a game ended by a ban reads as the opponent banned', () => {
    expect(reasonText('banned')).toBe('opponent banned');
  });
});

describe('a double forfeit (sent as a draw, scored 0–0)', () => {
  it('is not headed as a draw: both sides lost', () => {
    const r = { outcome: Outcome.DRAW, reason: 'double_forfeit' } as GameResult;
    try {
      expect(resultText(r)).toBe('Both forfeited (both lose)');
      setLang('zh');
      expect(resultText(r)).toBe('双方弃权（均判负）');
      expect(resultText({ outcome: Outcome.DRAW, reason: 'agreement' } as GameResult)).toBe('和棋：双方议和');
    } finally {
      setLang('en');
    }
    const g = { id: 'e-r1-b1-g1', result: 'draw', reason: 'double_forfeit', red: { user_id: 'u1', name: 'A' }, black: { user_id: 'u2', name: 'B' } };
    expect(outcomeFor(g as Parameters<typeof outcomeFor>[0], 'u1')).toBe('lost');
    expect(outcomeFor(g as Parameters<typeof outcomeFor>[0], 'u2')).toBe('lost');
    expect(outcomeFor({ ...g, reason: 'agreement' } as Parameters<typeof outcomeFor>[0], 'u1')).toBe('drawn');
  });
});

describe('reasons and rule sets in Chinese', () => {
  it('has a text for the matchmaker\'s reasons and never names the reader (对方)', () => {
    try {
      setLang('zh');
      expect(reasonText('corrected')).toBe('成绩更正');
      expect(reasonText('cancelled')).toBe('比赛取消');
      expect(reasonText('banned')).toBe('负方账号被封禁');
      expect(reasonText('claimed_draw')).not.toContain('对方离线');
      expect(rulesetTag('cxa')).toBe('中国象协');
      expect(rulesetTag('something')).toBe('SOMETHING');
      setLang('en');
      expect(rulesetTag('cxa')).toBe('CXA');
      expect(reasonText('corrected')).toBe('result corrected');
    } finally {
      setLang('en');
    }
  });
});

describe('punctuation built in code', () => {
  it('is full-width in Chinese: brackets, colons, seconds in words', () => {
    try {
      expect(paren('you')).toBe(' (you)');
      expect(tcText({ initialMs: 30000, incrementMs: 0 })).toBe('30s+0');
      expect(captureVisibilityText('capturer')).toBe('Captured dark pieces shown to: the capturer');
      setLang('zh');
      expect(paren('你')).toBe('（你）');
      expect(tcText({ initialMs: 30000, incrementMs: 0 })).toBe('30秒+0');
      expect(tcText({ initialMs: 300000, incrementMs: 3000 })).toBe('5+3');
      expect(captureVisibilityText('nobody')).toBe('被吃暗子对谁可见：均不可见');
      expect(apiErrorText({ status: 400, code: 'bad_request', message: 'rounds must be 1..30' })).toBe('服务器拒绝了请求：rounds must be 1..30');
    } finally {
      setLang('en');
    }
  });
});

describe('rule times', () => {
  it('reads as minutes and seconds, not as a clock', () => {
    expect(durationText(600000)).toBe('10 min');
    expect(durationText(90000)).toBe('1 min 30 s');
    expect(durationText(45000)).toBe('45 s');
    expect(durationText(499)).toBe('0 s');
  });
});

describe('lobby refusals (BAD_REQUEST) in the user\'s language', () => {
  const BAD_REQUEST = 9;
  it('words the reasons a player meets in the lobby, in either language', () => {
    const guest = { code: BAD_REQUEST, message: 'rated games need an account: register or log in' };
    const range = { code: BAD_REQUEST, message: "your rating 1500 is outside this seek's range" };
    try {
      setLang('zh');
      expect(errorText(guest)).toBe('计等级分的对局需要注册账号：请注册或登录。');
      expect(errorText(range)).toBe('你的等级分 1500 不在该邀请的范围内。');
      expect(errorText({ code: BAD_REQUEST, message: 'rated games need an account: 张伟 is a guest' })).toBe('计等级分的对局需要注册账号：张伟 是游客。');
      setLang('en');
      expect(errorText(guest)).toBe('Rated games need an account: register or log in.');
      expect(errorText(range)).toBe("Your rating 1500 is outside this seek's range.");
      expect(errorText({ code: BAD_REQUEST, message: 'too many open seeks (at most 5)' })).toBe('Too many open seeks (at most 5).');
      const fromAddress = { code: BAD_REQUEST, message: 'too many open seeks from your address (at most 30)' };
      expect(errorText(fromAddress)).toBe('Too many open seeks from your network address (at most 30 together). Cancel one first.');
      setLang('zh');
      expect(errorText(fromAddress)).toBe('来自你的网络地址的公开邀请太多（合计最多 30 个），请先取消一个。');
      setLang('en');
    } finally {
      setLang('en');
    }
  });
  it('keeps the server\'s words for a reason it does not know', () => {
    expect(errorText({ code: BAD_REQUEST, message: 'time control out of range' })).toBe('time control out of range');
  });
});

describe('a game counts for ratings', () => {
  const g = { rated: true, reason: 'resign', plies: 2 };
  it('only when rated, not aborted and with both sides having moved', () => {
    expect(ratingCounted(g)).toBe(true);
    expect(ratingCounted({ ...g, rated: false })).toBe(false);
    expect(ratingCounted({ ...g, reason: 'abort', plies: 0 })).toBe(false);
    expect(ratingCounted({ ...g, plies: 1 })).toBe(false);
    expect(ratingCounted({ ...g, plies: 0, reason: 'timeout' })).toBe(false);
  });
});

// The matchmaker's warnings come as English: an organiser reading Chinese reads them in Chinese,
// names and numbers kept; one this client does not know stays as sent.
describe('organiser warnings', () => {
  it('are said in Chinese where known', () => {
    setLang('zh');
    try {
      expect(warningText('rematch: #3 Wang – #8 Li')).toBe('重复对阵：#3 Wang – #8 Li');
      expect(warningText('rematch or forbidden pair: #1 A – #2 B')).toBe('重复对阵或禁配：#1 A – #2 B');
      expect(warningText('nothing changed')).toBe('未做任何修改');
      expect(warningText('round 3 was already paired with the old result; later rounds are paired with the correction')).toBe('第 3 轮已按更正前的成绩编排；此后各轮按更正后的成绩编排');
      expect(warningText('round 3 was already paired with the old result')).toBe('第 3 轮已按更正前的成绩编排');
      expect(warningText('王伟 has 2 fouls in ev-r3-b1-g1: where the regulation makes that a loss, adjudicate the game (the event\'s adjudicate while it is played, correct once it has ended)'))
        .toBe('王伟 在对局 ev-r3-b1-g1 中已犯规 2 次：如规程规定判负，请裁决该局（进行中用“裁决”，结束后用“更正成绩”）');
      expect(warningText('something new')).toBe('something new');
      setLang('en');
      expect(warningText('rematch: #3 Wang – #8 Li')).toBe('rematch: #3 Wang – #8 Li');
    } finally {
      setLang('en');
    }
  });
});
