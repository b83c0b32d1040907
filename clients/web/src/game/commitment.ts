// Checks the Jieqi shuffle commitment published at the start against the assignment and salt
// published at the end: SHA-256 of the very string the server hashes; and what the assignment
// says of the pieces still face down when the game ended.
import { sq, type PieceType, type Position, type Square } from '../rules/board';

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
