import { describe, expect, it } from 'vitest';
import { fenAt, goTo, play, positionAt, startAnalysis, type Analysis } from '../src/analysis/analysis';
import { FenError, gameFen, readFen, writeFen } from '../src/analysis/fen';
import { parseFen, parseIccs, XIANGQI_START } from '../src/rules/board';
import { chineseMove } from '../src/rules/notation';

const playAll = (a: Analysis, line: string[]) =>
  line.reduce((acc, iccs) => {
    const next = play(acc, parseIccs(iccs)!);
    if (!next) throw new Error(`illegal: ${iccs}`);
    return next;
  }, a);

const refusal = (fen: string) => {
  try {
    readFen(fen);
    return null;
  } catch (e) {
    return e instanceof FenError ? e.why : String(e);
  }
};

describe('analysis board', () => {
  it('plays legal moves for both sides, refuses others, names them in Chinese', () => {
    const a = playAll(startAnalysis(XIANGQI_START), ['h2e2', 'h9g7', 'h0g2']);
    expect(a.ply).toBe(3);
    expect(a.moves.map((m) => m.chinese)).toEqual(['炮二平五', '马８进７', '马二进三']);
    expect(positionAt(a).turn).toBe('b');
    expect(play(a, parseIccs('e6e4')!)).toBeNull(); // a pawn does not move two
    expect(play(a, parseIccs('e2e3')!)).toBeNull(); // not Red's move
    expect(fenAt(a)).toBe('rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2');
  });

  it('steps back and forward; a move from an earlier ply replaces the rest, the same move keeps it', () => {
    let a = playAll(startAnalysis(XIANGQI_START), ['h2e2', 'h9g7', 'h0g2', 'i9h9']);
    a = goTo(a, 2);
    expect(fenAt(a)).toBe(fenAt(playAll(startAnalysis(XIANGQI_START), ['h2e2', 'h9g7'])));
    const same = play(a, parseIccs('h0g2')!)!;
    expect(same.moves.length).toBe(4); // the line's own next move: kept, one step on
    expect(same.ply).toBe(3);
    a = play(a, parseIccs('b0c2')!)!;
    expect(a.moves.map((m) => m.iccs)).toEqual(['h2e2', 'h9g7', 'b0c2']);
    expect(a.ply).toBe(3);
    expect(goTo(a, -5).ply).toBe(0);
    expect(goTo(a, 99).ply).toBe(3);
    expect(fenAt(goTo(a, 0))).toBe(XIANGQI_START);
  });

  it('FEN round trip: a FEN read and written again is the same; a capture resets the half-move clock', () => {
    const fen = '3k5/4a4/9/9/2b6/9/9/4C4/4A4/3AK4 b - - 7 31';
    expect(writeFen(readFen(fen))).toBe(fen);
    const a = startAnalysis(fen);
    expect(fenAt(a)).toBe(fen);
    const after = playAll(startAnalysis('4k4/9/9/9/4p4/9/9/4R4/9/3K5 w - - 5 10'), ['e2e5']);
    expect(fenAt(after)).toBe('4k4/9/9/9/4R4/9/9/9/9/3K5 b - - 0 10');
    // A board and side alone are enough; the counters default.
    expect(writeFen(readFen('4k4/9/9/9/9/9/9/9/9/3K5 b'))).toBe('4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1');
  });

  it('says what is wrong with a bad FEN', () => {
    expect(refusal('rnbakabnr/9/1c5c1 w')).toBe('fen.rows');
    expect(refusal('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w')).toBe('fen.rows');
    expect(refusal('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNZ w')).toBe('fen.piece');
    expect(refusal('xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - 0 1')).toBe('fen.faceDown');
    expect(refusal('9/9/9/9/9/9/9/9/9/4K4 w')).toBe('fen.kings');
    expect(refusal('4k4/9/9/9/9/9/9/9/9/K8 w')).toBe('fen.kings'); // outside the palace
    expect(refusal(`${XIANGQI_START.split(' ')[0]} x`)).toBe('fen.turn');
    expect(refusal('4k4/9/9/9/9/9/9/9/9/4K4 w')).toBe('fen.capture'); // the generals face each other, Black to be taken
    expect(() => startAnalysis('nonsense')).toThrow(FenError);
  });

  it('a game\'s position opens as a FEN with the move number', () => {
    const pos = parseFen(XIANGQI_START);
    expect(gameFen(pos, 0)).toBe(XIANGQI_START);
    expect(gameFen({ ...pos, turn: 'b' }, 3)).toMatch(/ b - - 0 2$/);
  });
});

describe('Chinese notation (as gameserver/rules/notation.cpp)', () => {
  const zh = (fen: string, iccs: string) => chineseMove(parseFen(fen), parseIccs(iccs)!);
  it('names tandem pieces and retreats as the server does', () => {
    expect(zh('4k4/9/9/9/9/R8/9/9/9/R2K5 w', 'a4a5')).toBe('前车进一');
    expect(zh('4k4/9/9/9/9/R8/9/9/9/R2K5 w', 'a0a1')).toBe('后车进一');
    expect(zh('4k4/9/9/9/9/R8/9/9/9/R2K5 b', 'e9e8')).toBe('将５进１');
    expect(zh('4k4/9/9/9/9/9/9/9/4A4/3K4R w', 'e1f0')).toBe('仕五退四');
    expect(zh(XIANGQI_START, 'c0e2')).toBe('相七进五');
  });
  it('tandem soldiers on two files name their file', () => {
    const fen = '3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w';
    expect(zh(fen, 'c6c7')).toBe('前七进一');
    expect(zh(fen, 'g6g7')).toBe('前三进一');
    expect(zh(fen, 'c5d5')).toBe('后七平六');
    expect(zh('3k5/9/9/2P6/2P3P2/9/9/9/9/4K4 w', 'c6c7')).toBe('前兵进一');
  });
});

describe('the #/analysis route', () => {
  it('carries the FEN as a query (it holds slashes and spaces)', async () => {
    const { parseRoute } = await import('../src/app');
    expect(parseRoute('#/analysis')).toEqual({ page: 'analysis', fen: undefined });
    expect(parseRoute(`#/analysis?fen=${encodeURIComponent(XIANGQI_START)}`)).toEqual({ page: 'analysis', fen: XIANGQI_START });
    expect(parseRoute('#/game/abc')).toEqual({ page: 'game', id: 'abc' });
  });
});
