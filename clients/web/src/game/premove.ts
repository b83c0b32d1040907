// Premoves: a move chosen while the opponent thinks, sent as soon as the opponent's move arrives if
// it is legal then, else dropped. Pure helpers; the model (game/model.ts) holds the one premove.
import { type Color, type Move, type Position, type Square } from '../rules/board';
import { legalTargets, pseudoTargets } from '../rules/movegen';

// Where a piece of `you` may be premoved: what it could reach in the current position, which the
// opponent's move will change, so only loosely: check is ignored and squares of one's own pieces
// count too (the opponent may take the piece there, and the premove is the recapture). For that,
// the other pieces of `you` are counted as the opponent's; blocking (horse legs, elephant eyes,
// cannon screens, a chariot's path) does not depend on colour.
export function premoveTargets(pos: Position, from: Square, you: Color): Square[] {
  const p = pos.board[from];
  if (!p || p.color !== you) return [];
  const other: Color = you === 'r' ? 'b' : 'r';
  const board = pos.board.map((q, s) => (q && q.color === you && s !== from ? { ...q, color: other } : q));
  return pseudoTargets(board, from, pos.jieqi);
}

// What to do with a premove in the position now: 'wait' while it is still the opponent's move,
// 'play' once it is ours and the move is legal (the ordinary movegen check), else 'drop'.
export function premoveVerdict(pos: Position, pm: Move, you: Color): 'wait' | 'play' | 'drop' {
  if (pos.turn !== you) return 'wait';
  return legalTargets(pos, pm.from).includes(pm.to) ? 'play' : 'drop';
}
