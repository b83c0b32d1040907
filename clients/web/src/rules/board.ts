// Board model shared by the board view, the legal-move hints and the replay: a 9×10 array parsed
// from the server's FEN (Pikafish style; 'X'/'x' = a face-down Jieqi piece). The server stays the
// authority; this only draws and hints.

export type Color = 'r' | 'b';
// K king, A advisor, B elephant, N horse, R chariot, C cannon, P pawn, X face-down (identity unknown).
export type PieceType = 'K' | 'A' | 'B' | 'N' | 'R' | 'C' | 'P' | 'X';

export interface Piece {
  color: Color;
  type: PieceType;
}

// Square index = rank * 9 + file; file 0..8 = a..i, rank 0..9 from Red's side (ICCS).
export type Square = number;
export type Board = (Piece | null)[];

export interface Position {
  board: Board;
  turn: Color;
  jieqi: boolean;
}

export const XIANGQI_START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
export const JIEQI_START = 'xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1';

export const fileOf = (s: Square) => s % 9;
export const rankOf = (s: Square) => Math.floor(s / 9);
export const sq = (file: number, rank: number): Square => rank * 9 + file;

export function squareName(s: Square): string {
  return 'abcdefghi'[fileOf(s)] + String(rankOf(s));
}

export function parseSquare(name: string): Square | null {
  const f = 'abcdefghi'.indexOf(name[0] ?? '');
  const r = Number(name[1]);
  if (f < 0 || name.length < 2 || !(r >= 0 && r <= 9)) return null;
  return sq(f, r);
}

// Accepts the letter variants the server accepts (E = elephant, H = horse).
function normalType(letter: string): PieceType | null {
  const u = letter.toUpperCase();
  if (u === 'E') return 'B';
  if (u === 'H') return 'N';
  return 'KABNRCPX'.includes(u) && u.length === 1 ? (u as PieceType) : null;
}

export function parseFen(fen: string): Position {
  const fields = fen.trim().split(/\s+/);
  const rows = (fields[0] ?? '').split('/');
  if (rows.length !== 10) throw new Error(`bad FEN board: ${fen}`);
  const board: Board = new Array(90).fill(null);
  let jieqi = false;
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '9') {
        file += Number(ch);
        continue;
      }
      const type = normalType(ch);
      if (!type || file > 8) throw new Error(`bad FEN board: ${fen}`);
      if (type === 'X') jieqi = true;
      board[sq(file, rank)] = { color: ch === ch.toUpperCase() ? 'r' : 'b', type };
      file++;
    }
  });
  // A Jieqi FEN has a pool field (or '-') where Xiangqi has two dashes; only the X marks matter here.
  return { board, turn: fields[1] === 'b' ? 'b' : 'r', jieqi: jieqi || fields.length === 5 };
}

export function boardFen(board: Board): string {
  const rows: string[] = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const p = board[sq(file, rank)];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) row += String(empty);
      empty = 0;
      row += p.color === 'r' ? p.type : p.type.toLowerCase();
    }
    if (empty) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
}

// The xiangqi piece that starts on a square: a face-down Jieqi piece moves as this type.
export function positionalType(s: Square, color: Color): PieceType | null {
  const f = fileOf(s);
  const r = color === 'r' ? rankOf(s) : 9 - rankOf(s);
  if (r === 0) return (['R', 'N', 'B', 'A', 'K', 'A', 'B', 'N', 'R'] as PieceType[])[f];
  if (r === 2 && (f === 1 || f === 7)) return 'C';
  if (r === 3 && f % 2 === 0) return 'P';
  return null;
}

export interface Move {
  from: Square;
  to: Square;
}

export function parseIccs(iccs: string): (Move & { reveal: PieceType | null }) | null {
  const from = parseSquare(iccs.slice(0, 2));
  const to = parseSquare(iccs.slice(2, 4));
  if (from === null || to === null) return null;
  const reveal = iccs.length > 4 ? normalType(iccs[4]) : null;
  return { from, to, reveal };
}

export const iccsOf = (m: Move) => squareName(m.from) + squareName(m.to);

// Plays a move on a copy (no legality check): used for replay and for the optimistic local move.
// A moved face-down piece turns face up as `reveal` when known, else stays 'X' until the server says.
export function applyMove(pos: Position, m: Move, reveal: PieceType | null = null): Position {
  const board = pos.board.slice();
  const p = board[m.from];
  if (!p) return pos;
  board[m.to] = p.type === 'X' && reveal ? { color: p.color, type: reveal } : p;
  board[m.from] = null;
  return { board, turn: pos.turn === 'r' ? 'b' : 'r', jieqi: pos.jieqi };
}
