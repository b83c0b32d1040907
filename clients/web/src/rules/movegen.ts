// Legal destinations for the move hints, Xiangqi and Jieqi. A face-down piece moves as the
// piece that starts on its square (a dark advisor only to the palace centre); revealed Jieqi
// advisors and elephants are free of palace and river. Legality never depends on hidden
// identities, so the hints are exact for every viewer.
import { type Board, type Color, type Move, type PieceType, type Position, type Square, fileOf, positionalType, rankOf, sq } from './board';

const inBoard = (f: number, r: number) => f >= 0 && f < 9 && r >= 0 && r < 10;
const inPalace = (f: number, r: number, c: Color) => f >= 3 && f <= 5 && (c === 'r' ? r <= 2 : r >= 7);
const ownHalf = (r: number, c: Color) => (c === 'r' ? r <= 4 : r >= 5);

function moveType(board: Board, s: Square): PieceType | null {
  const p = board[s];
  if (!p) return null;
  return p.type === 'X' ? positionalType(s, p.color) : p.type;
}

// Destinations ignoring whether the own king is left in check (also the premove candidates,
// game/premove.ts).
export function pseudoTargets(board: Board, s: Square, jieqi: boolean): Square[] {
  const p = board[s];
  const t = moveType(board, s);
  if (!p || !t) return [];
  const dark = p.type === 'X';
  const f = fileOf(s);
  const r = rankOf(s);
  const out: Square[] = [];
  const add = (nf: number, nr: number) => {
    if (!inBoard(nf, nr)) return;
    const q = board[sq(nf, nr)];
    if (!q || q.color !== p.color) out.push(sq(nf, nr));
  };
  // Revealed Jieqi advisors/elephants ignore palace and river; everything else keeps them.
  const free = jieqi && !dark;
  switch (t) {
    case 'K':
      for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]])
        if (inPalace(f + df, r + dr, p.color)) add(f + df, r + dr);
      break;
    case 'A':
      for (const [df, dr] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
        const nf = f + df;
        const nr = r + dr;
        if (free || inPalace(nf, nr, p.color)) add(nf, nr);
      }
      break;
    case 'B':
      for (const [df, dr] of [[2, 2], [2, -2], [-2, 2], [-2, -2]]) {
        const nf = f + df;
        const nr = r + dr;
        if (!inBoard(nf, nr) || board[sq(f + df / 2, r + dr / 2)]) continue;
        if (free || ownHalf(nr, p.color)) add(nf, nr);
      }
      break;
    case 'N':
      for (const [df, dr, lf, lr] of [
        [1, 2, 0, 1], [-1, 2, 0, 1], [1, -2, 0, -1], [-1, -2, 0, -1],
        [2, 1, 1, 0], [2, -1, 1, 0], [-2, 1, -1, 0], [-2, -1, -1, 0],
      ]) {
        if (inBoard(f + df, r + dr) && !board[sq(f + lf, r + lr)]) add(f + df, r + dr);
      }
      break;
    case 'R':
    case 'C':
      for (const [df, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        let nf = f + df;
        let nr = r + dr;
        let screened = false;
        while (inBoard(nf, nr)) {
          const q = board[sq(nf, nr)];
          if (t === 'R') {
            if (!q) out.push(sq(nf, nr));
            else {
              if (q.color !== p.color) out.push(sq(nf, nr));
              break;
            }
          } else if (!screened) {
            if (!q) out.push(sq(nf, nr));
            else screened = true;
          } else if (q) {
            if (q.color !== p.color) out.push(sq(nf, nr));
            break;
          }
          nf += df;
          nr += dr;
        }
      }
      break;
    case 'P': {
      const fwd = p.color === 'r' ? 1 : -1;
      add(f, r + fwd);
      if (!ownHalf(r, p.color)) {
        add(f + 1, r);
        add(f - 1, r);
      }
      break;
    }
  }
  return out;
}

function kingSquare(board: Board, c: Color): Square | null {
  for (let s = 0; s < 90; s++) if (board[s]?.type === 'K' && board[s]?.color === c) return s;
  return null;
}

export function inCheck(board: Board, c: Color, jieqi: boolean): boolean {
  const k = kingSquare(board, c);
  if (k === null) return false;
  // Flying general: kings facing on an open file.
  const other = kingSquare(board, c === 'r' ? 'b' : 'r');
  if (other !== null && fileOf(other) === fileOf(k)) {
    const lo = Math.min(rankOf(k), rankOf(other));
    const hi = Math.max(rankOf(k), rankOf(other));
    let open = true;
    for (let r = lo + 1; r < hi; r++) if (board[sq(fileOf(k), r)]) open = false;
    if (open) return true;
  }
  for (let s = 0; s < 90; s++) {
    const p = board[s];
    if (p && p.color !== c && p.type !== 'K' && pseudoTargets(board, s, jieqi).includes(k)) return true;
  }
  return false;
}

export function legalTargets(pos: Position, from: Square): Square[] {
  const p = pos.board[from];
  if (!p || p.color !== pos.turn) return [];
  return pseudoTargets(pos.board, from, pos.jieqi).filter((to) => {
    const b = pos.board.slice();
    b[to] = p;
    b[from] = null;
    return !inCheck(b, p.color, pos.jieqi);
  });
}

// Why a move is refused, for the page to say so: 'check' when the piece could go there but would
// leave (or keep) its own general in check, 'illegal' when it cannot go there at all.
export function illegalReason(pos: Position, from: Square, to: Square): 'check' | 'illegal' | null {
  if (legalTargets(pos, from).includes(to)) return null;
  const p = pos.board[from];
  if (p && p.color === pos.turn && pseudoTargets(pos.board, from, pos.jieqi).includes(to)) return 'check';
  return 'illegal';
}

export function legalMoves(pos: Position): Move[] {
  const out: Move[] = [];
  for (let s = 0; s < 90; s++) for (const to of legalTargets(pos, s)) out.push({ from: s, to });
  return out;
}
