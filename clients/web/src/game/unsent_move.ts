// A move made on this page that the server has not yet confirmed, kept in this tab's
// sessionStorage so that a reload does not forget it. A player on a failing phone link who makes a
// move and then reloads (the usual answer to "reconnecting…") would otherwise find the move gone
// while their clock runs. After the reload the game page sends it again under the same
// client_move_id: if the server had it already it answers with the move played, not a second one.
// One entry per game, for the user who made it; another tab (its own sessionStorage) never sends
// it.
export interface UnsentMove {
  userId: string;
  iccs: string;
  clientMoveId: string;
  ply: number; // plies on the server board when it was made
}

const key = (gameId: string) => `xq.unsent.${gameId}`;

// sessionStorage may be missing (a test runner) or refuse (storage disabled, quota): the move then
// lives only as long as the page, as before.
function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function keepUnsent(gameId: string, m: UnsentMove | null) {
  const s = storage();
  try {
    if (m) s?.setItem(key(gameId), JSON.stringify(m));
    else s?.removeItem(key(gameId));
  } catch {
    /* see storage() */
  }
}

// The move kept for this game by this user, if any (and well formed).
export function unsentMove(gameId: string, userId: string): UnsentMove | null {
  try {
    const raw = storage()?.getItem(key(gameId));
    if (!raw) return null;
    const m = JSON.parse(raw) as Partial<UnsentMove>;
    if (m.userId !== userId || typeof m.iccs !== 'string' || typeof m.clientMoveId !== 'string' || !Number.isInteger(m.ply)) return null;
    return m as UnsentMove;
  } catch {
    return null;
  }
}
