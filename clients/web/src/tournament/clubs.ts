// Clubs (docs/tournaments.md, /api/clubs): the id rule the server checks, the clubs one organises
// or belongs to (from the server's list), and the clubs this device remembers (created or opened
// here, localStorage, newest first).

export type ClubDetail = { id: string; name: string; organisers: string[]; members: string[] };
export type RememberedClub = { id: string; name: string };

// The server's rule (`club_id: A-Z a-z 0-9 - _`), and a length an id field can hold.
export const CLUB_ID_PATTERN = '[A-Za-z0-9_\\-]+';
export const CLUB_ID_MAX = 40;
export function validClubId(id: string): boolean {
  return id.length > 0 && id.length <= CLUB_ID_MAX && /^[A-Za-z0-9_-]+$/.test(id);
}

export const REMEMBERED_MAX = 30;
const KEY = 'xq.clubs';

// What was stored, read strictly: anything not a list of {id, name} with a valid id is left out
// (an old or hand-edited value never breaks the page).
export function parseRemembered(raw: string | null): RememberedClub[] {
  if (!raw) return [];
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(v)) return [];
  const out: RememberedClub[] = [];
  for (const c of v) {
    if (!c || typeof c !== 'object') continue;
    const { id, name } = c as { id?: unknown; name?: unknown };
    if (typeof id !== 'string' || !validClubId(id) || out.some((o) => o.id === id)) continue;
    out.push({ id, name: typeof name === 'string' ? name : '' });
  }
  return out.slice(0, REMEMBERED_MAX);
}

// The club first, once (its name as last seen), then the others; at most REMEMBERED_MAX.
export function withClub(list: RememberedClub[], club: RememberedClub): RememberedClub[] {
  if (!validClubId(club.id)) return list;
  return [{ id: club.id, name: club.name }, ...list.filter((c) => c.id !== club.id)].slice(0, REMEMBERED_MAX);
}

export function withoutClub(list: RememberedClub[], id: string): RememberedClub[] {
  return list.filter((c) => c.id !== id);
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;
const storage = (): Store | null => (typeof localStorage !== 'undefined' ? localStorage : null);

export function loadRememberedClubs(s: Store | null = storage()): RememberedClub[] {
  try {
    return parseRemembered(s?.getItem(KEY) ?? null);
  } catch {
    return []; // storage refused (private mode)
  }
}

export function saveRememberedClubs(list: RememberedClub[], s: Store | null = storage()) {
  try {
    s?.setItem(KEY, JSON.stringify(list));
  } catch {
    /* storage full or refused: the list is only a convenience */
  }
}

export function rememberClub(club: RememberedClub, s: Store | null = storage()): RememberedClub[] {
  const list = withClub(loadRememberedClubs(s), club);
  saveRememberedClubs(list, s);
  return list;
}

export function forgetClub(id: string, s: Store | null = storage()): RememberedClub[] {
  const list = withoutClub(loadRememberedClubs(s), id);
  saveRememberedClubs(list, s);
  return list;
}

// The clubs `userId` organises or belongs to, the ones it organises first, then by name.
export function clubsOf(all: ClubDetail[], userId: string): ClubDetail[] {
  if (!userId) return [];
  const organises = (c: ClubDetail) => (c.organisers ?? []).includes(userId);
  return all
    .filter((c) => organises(c) || (c.members ?? []).includes(userId))
    .map((c) => ({ id: c.id, name: c.name ?? '', organisers: c.organisers ?? [], members: c.members ?? [] }))
    .sort((a, b) => Number(organises(b)) - Number(organises(a)) || (a.name || a.id).localeCompare(b.name || b.id));
}

// The names to show for a club's user ids: the resolved name, else the id itself (a guest's id,
// or an account gone).
export function displayName(id: string, names: ReadonlyMap<string, string>): string {
  return names.get(id) || id;
}

// Who runs the club from its page (rename, delete, add and remove people): its organisers and
// admin accounts, as the server checks. `role`: the account's (net/connection.ts: player |
// organiser | admin).
export function mayRunClub(club: Pick<ClubDetail, 'organisers'>, userId: string, role: string): boolean {
  return role === 'admin' || (!!userId && club.organisers.includes(userId));
}

// Who is offered "New event for this club": the server wants both the organiser role (creating
// events) and the club's organisers (its events); an admin may do either. A club organiser
// without the role would only reach a form that is refused.
export function mayCreateClubEvent(club: Pick<ClubDetail, 'organisers'>, userId: string, role: string): boolean {
  return role === 'admin' || (role === 'organiser' && !!userId && club.organisers.includes(userId));
}

// The server's rule for a club's name, at creation and rename: 1..100 bytes of UTF-8 on one line.
// What a form can tell before sending: nothing typed, or too long; the server refuses the rest
// (control characters, line breaks, direction marks) with a 400. The name is trimmed first, as sent.
export const CLUB_NAME_MAX_BYTES = 100;
export function clubNameProblem(name: string): 'empty' | 'tooLong' | null {
  const trimmed = name.trim();
  if (!trimmed) return 'empty';
  if (new TextEncoder().encode(trimmed).length > CLUB_NAME_MAX_BYTES) return 'tooLong';
  return null;
}
