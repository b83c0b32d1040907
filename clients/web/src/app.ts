// Application-wide state: the one connection, the signed-in user, the open game models, and the
// hash route (#/, #/game/ID, #/tournaments[/ID], #/tournaments?club=ID (the event form for a
// club), #/clubs, #/club/ID, #/player/ID, #/leaderboard[/VARIANT], #/admin, #/analysis[?fen=FEN]) so the server only has to serve index.html;
// tournament notices (game ready, event news), direct challenges to us and the quick-pairing waiting
// state.
import { GameModel } from './game/model';
import { Connection, defaultUrl, type LinkStatus } from './net/connection';
import { api, ApiError } from './net/http';
import { EventKind, Outcome, type ClientBody, type GameEvent, type GameState, type Seek, type ServerMessage } from './net/proto';
import { Observable } from './store';
import { eventIdOfGame } from './tournament/logic';

export type Route =
  | { page: 'lobby' }
  | { page: 'game'; id: string }
  | { page: 'tournaments'; id?: string; club?: string }
  | { page: 'clubs' }
  | { page: 'club'; id: string }
  | { page: 'player'; id: string }
  | { page: 'leaderboard'; variant: 'xiangqi' | 'jieqi' }
  | { page: 'admin' }
  | { page: 'analysis'; fen?: string };

export function parseRoute(hash: string): Route {
  // The analysis board's position is a query (a FEN holds slashes): #/analysis?fen=<encoded FEN>.
  const m = /^#?\/?analysis(?:\?(.*))?$/.exec(hash);
  if (m) return { page: 'analysis', fen: new URLSearchParams(m[1] ?? '').get('fen') ?? undefined };
  // The event form opened for a club (its club id filled in, members only): #/tournaments?club=ID.
  const q = /^#?\/?tournaments\/?\?(.*)$/.exec(hash);
  if (q) return { page: 'tournaments', club: new URLSearchParams(q[1]).get('club') || undefined };
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  if (parts[0] === 'game' && parts[1]) return { page: 'game', id: decodeURIComponent(parts[1]) };
  if (parts[0] === 'tournaments') return { page: 'tournaments', id: parts[1] ? decodeURIComponent(parts[1]) : undefined };
  if (parts[0] === 'clubs') return { page: 'clubs' };
  if (parts[0] === 'club' && parts[1]) return { page: 'club', id: decodeURIComponent(parts[1]) };
  if (parts[0] === 'player' && parts[1]) return { page: 'player', id: decodeURIComponent(parts[1]) };
  if (parts[0] === 'leaderboard') return { page: 'leaderboard', variant: parts[1] === 'jieqi' ? 'jieqi' : 'xiangqi' };
  if (parts[0] === 'admin') return { page: 'admin' };
  return { page: 'lobby' };
}

const READY_OFFER_DELAY_MS = 1500;

// A pushed notice; an event's news also has its code and parameters (docs/protocol.md, Notice).
export type Notice = { kind: string; eventId: string; gameId: string; text: string; code: string; params: Record<string, string> };

export class App extends Observable {
  readonly conn: Connection;
  route: Route = parseRoute(location.hash);
  link: LinkStatus = 'connecting';
  // A game of ours that is ready while we are busy elsewhere (offered in a banner, not forced).
  readyGame: Notice | null = null;
  // The finished game whose page offered or accepted a rematch: the new game opens at once.
  rematchOf: string | null = null;
  // A quick-pairing game the opponent aborted (by hand, or by not making a first move): we went
  // back into its pool, said on that game's page, and the next game opens at once (as a rematch).
  requeued: { gameId: string; pool: string } | null = null;
  // Our live games that came from a quick-pairing pool (GameState.pool): game id → pool and our side.
  private poolGames = new Map<string, { pool: string; you: number }>();
  private gamesStarted = 0; // game_started pushes so far (a pool join answered after its game began)
  // Direct challenges to us, from the last seek list the server sent (it pushes the list to a
  // challenged user wherever the page is, except during a live game of theirs); offered in a bar
  // on every page but the lobby, which lists them itself.
  challenges: Seek[] = [];
  // Why accepting the challenge failed, kept as the error and worded at each render (a language
  // switch re-words it).
  challengeError: unknown = null;
  private dismissedChallenges = new Set<string>();
  // Our open seeks, as created (seek id → the create_seek body). The server drops a seek when its
  // owner's last connection closes; a phone that switched apps for a moment would lose it without
  // a word, so after a reconnect the ones gone are made again (restoreSeeks).
  private ownSeeks = new Map<string, NonNullable<ClientBody['createSeek']>>();
  private ownSeeksUser = ''; // whose they are: another user signed in here makes none of them again
  // Tournament games we know of (game id → event id): no abort/claim there, a link back.
  readonly eventOfGame = new Map<string, string>();
  private games = new Map<string, GameModel>();
  private noticeListeners = new Set<(n: Notice) => void>();

  constructor(url = defaultUrl()) {
    super();
    this.conn = new Connection(url);
    this.conn.onStatus((s) => {
      this.link = s;
      // An end learnt in the catch-up after a lost link may be minutes old (a phone asleep): only a
      // pool game followed live, or seen again as live after the reconnect, puts us back in a pool.
      // (A stalled link is not lost: nothing is caught up after it.)
      if (s !== 'open' && s !== 'stalled') this.poolGames.clear();
      this.changed();
    });
    // A game we play has started (our seek was accepted, or we accepted one): open it.
    this.conn.onMessage((m) => {
      if (m.body === 'gameStarted' && m.gameStarted) {
        const st = m.gameStarted as GameState;
        if (!this.games.has(st.gameId)) this.games.set(st.gameId, new GameModel(this.conn, st.gameId, st));
        this.notePoolGame(st);
        this.pool = null;
        this.gamesStarted++;
        if (this.requeued) this.requeued = null;
        this.ownSeeks.clear(); // a game started: the rest are the server's to keep or drop
        // No seek lists come while we play (the server holds them back until the game ends and then
        // sends the list again): an offer from before would go stale on screen.
        this.challenges = [];
        // Never pull a player away from a game of theirs (still running, or just finished and its
        // result on screen): offer the new one in a banner instead.
        const rematch = this.rematchOf !== null && this.route.page === 'game' && this.route.id === this.rematchOf;
        this.rematchOf = null;
        if (!rematch && this.onOwnGamePage(st.gameId)) {
          this.readyGame = { kind: 'game_ready', eventId: this.eventOfGame.get(st.gameId) ?? '', gameId: st.gameId, text: '', code: '', params: {} };
          this.changed();
        } else {
          if (this.readyGame?.gameId === st.gameId) this.readyGame = null;
          this.navigate(`#/game/${encodeURIComponent(st.gameId)}`);
        }
      }
      // (A page reloaded during a pool game learns the pool from the game's state.)
      if (m.body === 'gameState' && m.gameState) this.notePoolGame(m.gameState as GameState);
      if (m.body === 'gameEvent' && m.gameEvent?.kind === EventKind.GAME_ENDED) void this.onGameEnded(m.gameEvent as GameEvent);
      if (m.body === 'notice' && m.notice) this.onNotice(m);
      // Pushed lists and the answers to list_seeks alike.
      if (m.body === 'seeks' && m.seeks) {
        const me = this.user?.userId;
        this.challenges = ((m.seeks.seeks ?? []) as Seek[]).filter((s) => !!me && s.targetUserId === me && s.owner?.userId !== me);
        this.changed();
      }
    });
    this.conn.onReady(() => void this.restoreSeeks());
    window.addEventListener('hashchange', () => {
      this.setRoute(parseRoute(location.hash));
      if (this.route.page === 'game' && this.readyGame?.gameId === this.route.id) this.readyGame = null;
      this.changed();
    });
  }

  // What the lobby created and cancelled (its requests succeeded), for restoreSeeks.
  seekCreated(seekId: string, body: NonNullable<ClientBody['createSeek']>) {
    const me = this.user?.userId ?? '';
    if (me !== this.ownSeeksUser) this.ownSeeks.clear();
    this.ownSeeksUser = me;
    this.ownSeeks.set(seekId, body);
  }
  seekGone(seekId: string) {
    this.ownSeeks.delete(seekId);
  }

  private async restoreSeeks() {
    if (this.user?.userId !== this.ownSeeksUser) this.ownSeeks.clear();
    if (!this.ownSeeks.size) return;
    try {
      const listed = new Set(((await this.conn.request({ listSeeks: {} })).seeks?.seeks ?? []).map((s) => s.seekId));
      for (const [id, body] of [...this.ownSeeks]) {
        if (listed.has(id)) continue;
        this.ownSeeks.delete(id);
        const r = await this.conn.request({ createSeek: body });
        if (r.reply?.seekId) this.ownSeeks.set(r.reply.seekId, body);
      }
      this.changed();
    } catch {
      /* the link dropped again: the next reconnect tries again with what is left */
    }
  }

  private notePoolGame(st: GameState) {
    if (st.pool && st.you && (!st.result || st.result.outcome === Outcome.ONGOING)) this.poolGames.set(st.gameId, { pool: st.pool, you: st.you });
  }

  // The opponent of a pool game aborted it: back into the pool (lichess does the same), unless we
  // have joined a pool since. Our own abort, or an arbiter's, ends it there.
  private async onGameEnded(ev: GameEvent) {
    const from = this.poolGames.get(ev.gameId);
    this.poolGames.delete(ev.gameId);
    if (!from || ev.result?.outcome !== Outcome.ABORTED || !ev.side || ev.side === from.you) return;
    if (this.pool) return;
    // The server may count the game as live for a moment after its end (another node's list is
    // cached for a second): "finish your game first" is asked again a few times.
    for (let attempt = 0; ; attempt++) {
      try {
        await this.joinPool(from.pool);
        break;
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 'in_live_game') || attempt >= 5) return; // signed out or refused
        await new Promise((r) => window.setTimeout(r, 500));
        if (this.pool) return;
      }
    }
    this.requeued = { gameId: ev.gameId, pool: from.pool };
    this.rematchOf = ev.gameId;
    this.changed();
  }

  // Quick pairing (POST /api/pools/VARIANT/TC/join|leave); `pool` follows what the server accepted.
  async joinPool(name: string) {
    const started = this.gamesStarted;
    await api('POST', poolPath(name, 'join'), {}, { token: this.conn.token });
    // A partner may have been waiting: the game can start before the join's answer comes, and then
    // we wait in no pool (the server took us out of every one).
    if (this.gamesStarted === started) this.pool = name;
    this.changed();
  }
  async leavePool(name: string) {
    await api('POST', poolPath(name, 'leave'), {}, { token: this.conn.token });
    this.pool = null;
    if (this.requeued?.pool === name) {
      if (this.rematchOf === this.requeued.gameId) this.rematchOf = null;
      this.requeued = null;
    }
    this.changed();
  }

  private onNotice(m: ServerMessage) {
    const { kind, eventId, gameId, text, code, params } = m.notice!;
    const n: Notice = { kind, eventId, gameId, text, code: code ?? '', params: { ...(params ?? {}) } };
    if (n.kind === 'game_ready' && n.gameId) {
      if (n.eventId) this.eventOfGame.set(n.gameId, n.eventId);
      this.pool = null;
      // game_started normally follows at once and opens the game; offer it right away only when we
      // are on a game of our own, else after a moment if it has not opened by then.
      const offer = () => {
        if (!(this.route.page === 'game' && this.route.id === n.gameId)) {
          this.readyGame = n;
          this.changed();
        }
      };
      if (this.onOwnGamePage(n.gameId)) offer();
      else window.setTimeout(offer, READY_OFFER_DELAY_MS);
    }
    for (const fn of this.noticeListeners) fn(n);
  }

  onNoticeMessage(fn: (n: Notice) => void): () => void {
    this.noticeListeners.add(fn);
    return () => this.noticeListeners.delete(fn);
  }

  private onOwnGamePage(id: string): boolean {
    if (this.route.page !== 'game' || this.route.id === id) return false;
    return !!this.games.get(this.route.id)?.you;
  }

  // The event a game belongs to: known from a notice or the event page, else read from the
  // matchmaker's game ids ("<event>-r2-b1-g1", "<event>-ko-final") after a reload.
  eventOf(gameId: string): string | undefined {
    const known = this.eventOfGame.get(gameId);
    if (known !== undefined) return known || undefined;
    return eventIdOfGame(gameId);
  }

  // The challenge to offer in the bar, if any: not one dismissed, not on the lobby (listed there),
  // not the opponent's rematch on our finished game's page (its panel offers it).
  get challengeToShow(): Seek | null {
    const me = this.user?.userId;
    if (!me || this.route.page === 'lobby') return null;
    const onPage = this.route.page === 'game' ? this.games.get(this.route.id) : undefined;
    const opponent = onPage?.you ? (onPage.you === 'r' ? onPage.black : onPage.red)?.userId : undefined;
    return (
      this.challenges.find(
        (s) => s.targetUserId === me && !this.dismissedChallenges.has(s.seekId) && !(onPage?.over && opponent && s.owner?.userId === opponent),
      ) ?? null
    );
  }

  async acceptChallenge(s: Seek) {
    this.challengeError = null;
    try {
      const r = await this.conn.request({ acceptSeek: { seekId: s.seekId } });
      this.challenges = this.challenges.filter((c) => c.seekId !== s.seekId);
      if (r.reply?.gameId) this.navigate(`#/game/${encodeURIComponent(r.reply.gameId)}`);
      else this.changed();
    } catch (e) {
      this.challengeError = e;
      this.changed();
    }
  }

  // Declining cancels the challenge on the server (its target may, docs/protocol.md), so the
  // challenger's seek list drops it too; hidden here at once.
  async declineChallenge(s: Seek) {
    this.dismissedChallenges.add(s.seekId);
    this.challengeError = null;
    this.changed();
    try {
      await this.conn.request({ cancelSeek: { seekId: s.seekId } });
    } catch {
      // already gone: taken, withdrawn by the challenger, or its owner left
    }
  }

  openReadyGame() {
    const n = this.readyGame;
    this.readyGame = null;
    if (n) this.navigate(`#/game/${encodeURIComponent(n.gameId)}`);
    else this.changed();
  }

  dismissReadyGame() {
    this.readyGame = null;
    this.changed();
  }

  // The quick-pairing pool we wait in ("jieqi:180000+2000"), until a game starts or we leave; kept
  // in sessionStorage so a reload still shows the waiting state (and its "stop looking" button).
  get pool(): string | null {
    return sessionStorage.getItem('xq.pool');
  }
  set pool(v: string | null) {
    if (v) sessionStorage.setItem('xq.pool', v);
    else sessionStorage.removeItem('xq.pool');
  }

  // The admin page's credential was refused (a typed token, or the session of an account that lost
  // the admin role): the page stays on the token form and says so.
  adminRefused: '' | 'token' | 'session' = '';

  get adminToken(): string {
    return sessionStorage.getItem('xq.adminToken') ?? '';
  }
  set adminToken(v: string) {
    if (v) sessionStorage.setItem('xq.adminToken', v);
    else sessionStorage.removeItem('xq.adminToken');
    this.changed();
  }

  get user() {
    return this.conn.user;
  }

  // Another page opens at its top: on a phone the lobby is scrolled down to "Create seek" when a
  // game starts, and the game would open with half its board above the screen. (navigate() sets
  // the route before the hashchange event comes: both ways in pass here.)
  private setRoute(next: Route) {
    const before = this.route;
    this.route = next;
    const id = (r: Route) => ('id' in r ? r.id : '');
    if (before.page !== next.page || id(before) !== id(next)) window.scrollTo(0, 0);
    if (before.page === 'game' && (next.page !== 'game' || id(before) !== id(next))) this.dropWatched(id(next) ?? '', false);
  }

  navigate(hash: string) {
    if (location.hash !== hash) location.hash = hash;
    this.setRoute(parseRoute(hash));
    if (this.route.page === 'game' && this.readyGame?.gameId === this.route.id) this.readyGame = null;
    this.changed();
  }

  // The model of a game already open (no watch is started for it).
  openGame(id: string): GameModel | undefined {
    return this.games.get(id);
  }

  game(id: string): GameModel {
    let g = this.games.get(id);
    // Opened signed out (the public record only) and signed in since: watched as usual. Followed
    // signed in and signed out since: only the public record (no buttons of a player).
    if (g && g.recordOnly !== !this.user) {
      g.dispose();
      g = undefined;
    }
    if (!g) {
      g = new GameModel(this.conn, id, undefined, !this.user);
      this.games.set(id, g);
    }
    this.dropWatched(id, true);
    return g;
  }

  // Keep following only the games we still play (and the one on screen, `keep`): watched ones are
  // dropped, and finished ones too when another game opens (`finishedToo`; leaving for the lobby
  // keeps them, with their chat, for a way back). A live game we only watched is unwatched, so the
  // server stops sending its moves (and a reader browsing many games stays under the server's
  // limit of games followed at once).
  private dropWatched(keep: string, finishedToo: boolean) {
    for (const [other, m] of this.games) {
      if (other === keep) continue;
      const watchedLive = !m.over && !m.you;
      if (!watchedLive && !(finishedToo && m.over)) continue;
      if (watchedLive && !m.recordOnly && !m.archived) this.conn.request({ unwatchGame: { gameId: other } }).catch(() => {});
      m.dispose();
      this.games.delete(other);
    }
  }

  notify() {
    this.changed();
  }

  // What an event or player page is about (the event's, the player's name), once it has loaded:
  // the tab's title and the page's heading name it. `page`: the route it is for ("tournaments/ID").
  pageSubject: { page: string; name: string } | null = null;
  namePage(page: string, name: string) {
    if (this.pageSubject?.page === page && this.pageSubject.name === name) return;
    this.pageSubject = name ? { page, name } : null;
    this.notify();
  }
}

function poolPath(name: string, action: 'join' | 'leave'): string {
  const [variant, tc] = name.split(':');
  return `/api/pools/${encodeURIComponent(variant)}/${tc}/${action}`;
}
