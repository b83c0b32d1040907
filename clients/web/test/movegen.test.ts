import { describe, expect, it } from 'vitest';
import { JIEQI_START, XIANGQI_START, applyMove, parseFen, parseSquare, squareName, type Position } from '../src/rules/board';
import { illegalReason, legalMoves } from '../src/rules/movegen';

function perft(pos: Position, depth: number): number {
  if (depth === 0) return 1;
  let n = 0;
  for (const m of legalMoves(pos)) n += depth === 1 ? 1 : perft(applyMove(pos, m), depth - 1);
  return n;
}

const names = (fen: string) =>
  legalMoves(parseFen(fen)).map((m) => squareName(m.from) + squareName(m.to)).sort();

describe('legal moves', () => {
  it('xiangqi perft', () => {
    const p = parseFen(XIANGQI_START);
    expect(perft(p, 1)).toBe(44);
    expect(perft(p, 2)).toBe(1920);
    expect(perft(p, 3)).toBe(79666);
  });
  it('jieqi start has 44 moves, dark advisors only to the palace centre', () => {
    const p = parseFen(JIEQI_START);
    expect(p.jieqi).toBe(true);
    const ms = names(JIEQI_START);
    expect(ms.length).toBe(44);
    expect(ms).toContain('d0e1');
    expect(ms).not.toContain('d0c1');
  });
  it('all-revealed jieqi layout: 46 moves (free advisors/elephants)', () => {
    const fen = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - 0 1';
    expect(legalMoves(parseFen(fen)).length).toBe(46);
  });
  it.each([
    ['5k3/9/9/9/9/9/9/9/9/3XK4 w A1 0 1', ['d0e1', 'e0e1']],
    ['5k3/9/9/9/9/9/9/9/9/3AK4 w - 0 1', ['d0c1', 'd0e1', 'e0e1']],
    ['4k4/9/9/9/4B4/9/9/9/9/3K5 w - 0 1', ['d0d1', 'd0e0', 'e5c3', 'e5c7', 'e5g3', 'e5g7']],
    ['4k4/9/9/9/9/9/9/9/9/1B1K5 w - 0 1', ['b0d2', 'd0d1']],
    ['4k4/9/9/9/9/9/9/9/9/P2K5 w - 0 1', ['a0a1', 'd0d1']],
    ['4k4/9/9/9/4P4/9/9/9/9/3K5 w - 0 1', ['d0d1', 'd0e0', 'e5d5', 'e5e6', 'e5f5']],
    ['P3k4/9/9/9/9/9/9/9/9/3K5 w - 0 1', ['a9b9', 'd0d1']],
    ['3k5/9/9/9/9/9/9/9/9/r2XK4 w A1 0 1', ['e0e1', 'e0f0']],
    ['4k4/9/9/9/9/4r4/9/9/9/3XKX3 w A2 0 1', ['d0e1', 'f0e1']],
  ])('rule position %s', (fen, want) => {
    expect(names(fen)).toEqual(want);
  });
  it('parses squares', () => {
    expect(parseSquare('e0')).toBe(4);
    expect(squareName(89)).toBe('i9');
  });
});

describe('why a move is refused', () => {
  // After b0c2 c9e7 b2b9 the cannon on b9 checks the black general through the advisor on d9.
  const inCheck = applyMove(applyMove(applyMove(parseFen(XIANGQI_START), { from: parseSquare('b0')!, to: parseSquare('c2')! }), { from: parseSquare('c9')!, to: parseSquare('e7')! }), { from: parseSquare('b2')!, to: parseSquare('b9')! });
  const why = (pos: Position, m: string) => illegalReason(pos, parseSquare(m.slice(0, 2))!, parseSquare(m.slice(2, 4))!);
  it('a legal move has no reason', () => {
    expect(why(parseFen(XIANGQI_START), 'h2e2')).toBe(null);
    expect(why(inCheck, 'a9b9')).toBe(null); // the rook takes the checker
  });
  it('a square the piece cannot reach is illegal', () => {
    expect(why(parseFen(XIANGQI_START), 'h2a5')).toBe('illegal');
    expect(why(inCheck, 'h9h5')).toBe('illegal');
  });
  it('a move that does not answer check, or that exposes the general, leaves it in check', () => {
    expect(why(inCheck, 'h9g7')).toBe('check');
    // Red's horse on e3 is pinned: moving it opens the e file to the black rook on e7.
    expect(why(parseFen('4k4/9/4r4/9/9/9/4N4/9/9/4K4 w - - 0 1'), 'e3d5')).toBe('check');
  });
});
