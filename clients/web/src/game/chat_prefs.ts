// What this browser does not want to read in game chats: all of it, or some writers. Kept in
// localStorage, so it holds in every game and after a reload; the server is not asked (others
// still read what a muted player writes, as they choose).
const HIDDEN_KEY = 'xq.chat.hidden';
const MUTED_KEY = 'xq.chat.muted';
const MAX_MUTED = 500; // the oldest mute goes first beyond this

const store = (): Storage | null => (typeof localStorage !== 'undefined' ? localStorage : null);

export function chatHidden(): boolean {
  return store()?.getItem(HIDDEN_KEY) === '1';
}

export function setChatHidden(hidden: boolean) {
  if (hidden) store()?.setItem(HIDDEN_KEY, '1');
  else store()?.removeItem(HIDDEN_KEY);
}

export function mutedUsers(): string[] {
  try {
    const v = JSON.parse(store()?.getItem(MUTED_KEY) ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return []; // a damaged entry mutes nobody
  }
}

export function muteUser(userId: string) {
  const list = mutedUsers().filter((u) => u !== userId);
  list.push(userId);
  store()?.setItem(MUTED_KEY, JSON.stringify(list.slice(-MAX_MUTED)));
}

export function unmuteAll() {
  store()?.removeItem(MUTED_KEY);
}
