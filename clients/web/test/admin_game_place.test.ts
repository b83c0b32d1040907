import { describe, expect, it } from 'vitest';
import { eventPlaceText, poolText } from '../src/admin/game_place';
import { setLang } from '../src/i18n';

describe("the admin's live games say where a game comes from", () => {
  it('names the event, round and board of a tournament game', () => {
    expect(eventPlaceText({ event_id: 'spring-open', round: 2, board: 3, pool: '' })).toBe('event spring-open · round 2 · board 3');
    // A play-off game has no board; a server without the fields sends nothing.
    expect(eventPlaceText({ event_id: 'spring-open', round: 8, board: 0 })).toBe('event spring-open · round 8');
    expect(eventPlaceText({ event_id: '', round: 0, board: 0, pool: '' })).toBe('');
    expect(eventPlaceText({})).toBe('');
  });
  it('names a play-off game and the second game of a two-game match, from the game id', () => {
    expect(eventPlaceText({ id: 'spring-open-ko-sf2', event_id: 'spring-open', round: 8, board: 0 })).toBe('event spring-open · round 8 · Semi-final 2');
    expect(eventPlaceText({ id: 'spring-open-ko-final-r2', event_id: 'spring-open', round: 9, board: 0 })).toBe('event spring-open · round 9 · Final');
    expect(eventPlaceText({ id: 'spring-open-r2-b3-g2', event_id: 'spring-open', round: 2, board: 3 })).toBe('event spring-open · round 2 · board 3 · G2');
    expect(eventPlaceText({ id: 'spring-open-r2-b3-g1', event_id: 'spring-open', round: 2, board: 3 })).toBe('event spring-open · round 2 · board 3');
  });
  it('names the quick-pairing pool, read as a time control', () => {
    expect(poolText({ event_id: '', pool: 'xiangqi:300000+3000' })).toBe('pool Xiangqi 象棋 5+3');
    expect(poolText({ pool: 'club-night' })).toBe('pool club-night');
    expect(poolText({ pool: '' })).toBe('');
    expect(poolText({})).toBe('');
  });
  it('in Chinese', () => {
    try {
      setLang('zh');
      expect(eventPlaceText({ event_id: 'e1', round: 2, board: 3 })).toBe('比赛 e1 · 第 2 轮 · 第 3 台');
      expect(poolText({ pool: 'jieqi:180000+2000' })).toBe('配对池 揭棋 3+2');
    } finally {
      setLang('en');
    }
  });
});
