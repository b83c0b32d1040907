// Checks the Jieqi shuffle commitment published at the start against the assignment and salt
// published at the end: SHA-256 of the very string the server hashes; and what the assignment
// says of the pieces still face down when the game ended.
import { applyMove, parseFen, parseIccs, sq, squareName, type PieceType, type Position, type Square } from '../rules/board';

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export const commitmentInput = (assignment: string, salt: string) => `jieqi-commit-v1|${assignment}|${salt}`;

export async function verifyCommitment(commitment: string, assignment: string, salt: string): Promise<boolean> {
  return (await sha256Hex(commitmentInput(assignment, salt))) === commitment.toLowerCase();
}

// The start squares of the face-down pieces in the order of the published assignment: Red's 15,
// then Black's (gameserver/rules/position.cpp, dark_squares).
const DARK_FILES = [0, 1, 2, 3, 5, 6, 7, 8, 1, 7, 0, 2, 4, 6, 8];
const DARK_RANKS = [0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 3, 3, 3, 3, 3];

// Start square → identity from a published assignment (30 letters, Red's uppercase first); null
// if it is not one. A piece still face down at the end stands on its start square.
export function identitiesOf(assignment: string): Map<Square, PieceType> | null {
  if (!/^[ABNRCP]{15}[abnrcp]{15}$/.test(assignment)) return null;
  const out = new Map<Square, PieceType>();
  for (let i = 0; i < 15; i++) {
    out.set(sq(DARK_FILES[i], DARK_RANKS[i]), assignment[i] as PieceType);
    out.set(sq(DARK_FILES[i], 9 - DARK_RANKS[i]), assignment[15 + i].toUpperCase() as PieceType);
  }
  return out;
}

// The final position with every piece still face down turned up from the assignment, and the
// squares turned (shown as revealed at the end).
export function turnedUpAtEnd(pos: Position, assignment: string): { position: Position; turned: Square[] } {
  const ids = identitiesOf(assignment);
  const turned: Square[] = [];
  if (!ids) return { position: pos, turned };
  const board = pos.board.map((p, s) => {
    const id = p?.type === 'X' ? ids.get(s) : undefined;
    if (!p || !id) return p;
    turned.push(s);
    return { color: p.color, type: id };
  });
  return { position: { ...pos, board }, turned };
}

// The captured pieces with every face-down one named from a published assignment (review,
// 2026-12-04: the replay of a finished game showed "?" beside a board turned face up). A
// face-down piece is captured on its start square, having never moved, so the assignment says
// what it was. The k-th face-down piece in `captured` is the k-th taken in `moves`.
export function capturedNamed<C extends { type: string; wasDark: boolean }>(
  startFen: string,
  moves: readonly { iccs: string; reveal?: string | null }[],
  captured: readonly C[],
  assignment: string,
): C[] {
  const ids = identitiesOf(assignment);
  if (!ids || !startFen) return [...captured];
  const taken: (PieceType | undefined)[] = [];
  let pos = parseFen(startFen);
  for (const mv of moves) {
    const m = parseIccs(mv.iccs);
    if (!m) continue;
    if (pos.board[m.to]?.type === 'X') taken.push(ids.get(m.to));
    pos = applyMove(pos, m, (mv.reveal || m.reveal || null) as PieceType | null);
  }
  let k = 0;
  return captured.map((c) => {
    if (!c.wasDark) return c;
    const id = taken[k++];
    return c.type || !id ? c : { ...c, type: id };
  });
}

// The full set each side's face-down pieces are drawn from (jieqi-rules.md §1).
const SET: Record<string, number> = { R: 2, N: 2, B: 2, A: 2, C: 2, P: 5 };

// What the game showed, checked against the published assignment: each side's 15 letters are the
// set (no thirty chariots), and every reveal and every named capture of a face-down piece during
// the game was what the assignment put on that piece's start square (a face-down piece stands on
// it until it moves). A hash that matches proves only that the assignment was fixed at the start;
// this proves the game was played with it. Returns '' or what does not agree.
export function assignmentDisagreement(
  startFen: string,
  moves: readonly { iccs: string; reveal?: string | null; capturedType?: string | null }[],
  assignment: string,
): string {
  const ids = identitiesOf(assignment);
  if (!ids) return 'not an assignment of 30 pieces';
  for (const side of [assignment.slice(0, 15), assignment.slice(15).toUpperCase()]) {
    const counts: Record<string, number> = {};
    for (const l of side) counts[l] = (counts[l] ?? 0) + 1;
    for (const [type, n] of Object.entries(SET)) if ((counts[type] ?? 0) !== n) return `not the set: ${counts[type] ?? 0} × ${type}`;
  }
  let pos = parseFen(startFen);
  for (let i = 0; i < moves.length; i++) {
    const mv = moves[i];
    const m = parseIccs(mv.iccs);
    if (!m) return `move ${i + 1} (${mv.iccs}) unreadable`;
    const reveal = (mv.reveal || m.reveal || '').toUpperCase();
    if (pos.board[m.from]?.type === 'X' && reveal && reveal !== ids.get(m.from))
      return `move ${i + 1} revealed ${reveal} on ${squareName(m.from)}, the assignment says ${ids.get(m.from)}`;
    const captured = (mv.capturedType || '').toUpperCase();
    if (pos.board[m.to]?.type === 'X' && captured && captured !== ids.get(m.to))
      return `move ${i + 1} captured ${captured} on ${squareName(m.to)}, the assignment says ${ids.get(m.to)}`;
    pos = applyMove(pos, m, (reveal || null) as PieceType | null);
  }
  return '';
}
