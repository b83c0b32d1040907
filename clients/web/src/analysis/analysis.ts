// The analysis board's state: a start position and one line of moves played from it by either
// side (legal moves only, client movegen), and the ply on view. Playing a move from an earlier
// ply replaces the rest of the line (a simple linear list, no variation tree). Immutable: each
// step returns a new state, so the page can keep it in useState.
import { applyMove, iccsOf, type Move, type Position } from '../rules/board';
import { legalTargets } from '../rules/movegen';
import { chineseMove } from '../rules/notation';
import { readFen, writeFen, type FenPosition } from './fen';

export interface AnalysisMove {
  ply: number; // 1 = the first move of the line
  iccs: string;
  chinese: string;
  after: FenPosition;
}

export interface Analysis {
  start: FenPosition;
  moves: AnalysisMove[];
  ply: number; // the position on view: after this many moves of the line
}

// Throws FenError for a FEN the board cannot use.
export function startAnalysis(fen: string): Analysis {
  return { start: readFen(fen), moves: [], ply: 0 };
}

export function fenPositionAt(a: Analysis, ply = a.ply): FenPosition {
  return ply <= 0 ? a.start : a.moves[Math.min(ply, a.moves.length) - 1].after;
}

export const positionAt = (a: Analysis, ply = a.ply): Position => fenPositionAt(a, ply).position;
export const fenAt = (a: Analysis, ply = a.ply): string => writeFen(fenPositionAt(a, ply));

export function goTo(a: Analysis, ply: number): Analysis {
  return { ...a, ply: Math.max(0, Math.min(ply, a.moves.length)) };
}

// Plays a move in the position on view; null if it is not legal there. The same move as the line's
// next one just steps forward, keeping the rest of the line.
export function play(a: Analysis, m: Move): Analysis | null {
  const before = fenPositionAt(a);
  if (!legalTargets(before.position, m.from).includes(m.to)) return null;
  const iccs = iccsOf(m);
  if (a.moves[a.ply]?.iccs === iccs) return { ...a, ply: a.ply + 1 };
  const capture = !!before.position.board[m.to];
  const position = applyMove(before.position, m);
  const after: FenPosition = {
    position,
    halfmove: capture ? 0 : before.halfmove + 1,
    fullmove: before.fullmove + (position.turn === 'r' ? 1 : 0),
  };
  const move: AnalysisMove = { ply: a.ply + 1, iccs, chinese: chineseMove(before.position, m), after };
  return { ...a, moves: [...a.moves.slice(0, a.ply), move], ply: a.ply + 1 };
}
