// FEN for the analysis board: read strictly (a pasted or linked position must say clearly what is
// wrong with it, where rules/board.ts's parseFen only needs to read the server's FENs) and written
// back with the side to move and the move counters.
import { boardFen, fileOf, parseFen, rankOf, type Color, type Position } from '../rules/board';
import { inCheck } from '../rules/movegen';

// Why a FEN was refused: an i18n key ('fen.rows' …) and its parameters.
export class FenError extends Error {
  constructor(
    readonly why: 'fen.rows' | 'fen.piece' | 'fen.faceDown' | 'fen.kings' | 'fen.turn' | 'fen.capture',
    readonly params: Record<string, string> = {},
  ) {
    super(why);
  }
}

export interface FenPosition {
  position: Position;
  halfmove: number; // plies since the last capture
  fullmove: number; // the move number, counted up after Black's move
}

const inPalace = (s: number, c: Color) => fileOf(s) >= 3 && fileOf(s) <= 5 && (c === 'r' ? rankOf(s) <= 2 : rankOf(s) >= 7);

// A full-information Xiangqi position. Throws FenError.
export function readFen(text: string): FenPosition {
  const fields = text.trim().split(/\s+/);
  const rows = (fields[0] ?? '').split('/');
  if (rows.length !== 10) throw new FenError('fen.rows');
  for (const row of rows) {
    let width = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '9') width += Number(ch);
      else if (/[xX]/.test(ch)) throw new FenError('fen.faceDown');
      else if (/[kabnrcpehKABNRCPEH]/.test(ch)) width++;
      else throw new FenError('fen.piece', { ch });
    }
    if (width !== 9) throw new FenError('fen.rows');
  }
  const turn = fields[1] ?? 'w';
  if (!/^[wbr]$/.test(turn)) throw new FenError('fen.turn');
  // parseFen reads a five-field FEN as Jieqi's; the analysis board is Xiangqi.
  const parsed = parseFen(`${fields[0]} ${turn === 'b' ? 'b' : 'w'}`);
  const position: Position = { ...parsed, jieqi: false };
  for (const c of ['r', 'b'] as Color[]) {
    const kings = position.board.flatMap((p, s) => (p?.type === 'K' && p.color === c ? [s] : []));
    if (kings.length !== 1 || !inPalace(kings[0], c)) throw new FenError('fen.kings');
  }
  // The side that just moved cannot have left its general to be taken.
  if (inCheck(position.board, position.turn === 'r' ? 'b' : 'r', false)) throw new FenError('fen.capture');
  const count = (s: string | undefined, dflt: number) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : dflt);
  return { position, halfmove: count(fields[4], 0), fullmove: Math.max(1, count(fields[5], 1)) };
}

export function writeFen({ position, halfmove, fullmove }: FenPosition): string {
  return `${boardFen(position.board)} ${position.turn === 'r' ? 'w' : 'b'} - - ${halfmove} ${fullmove}`;
}

// A game's position after `ply` plies (from the standard start), for the "Analyse" button.
export function gameFen(position: Position, ply: number): string {
  return writeFen({ position: { ...position, jieqi: false }, halfmove: 0, fullmove: 1 + Math.floor(ply / 2) });
}
