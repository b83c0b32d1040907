// One WebSocket to the game server: binary Protobuf envelopes, requests matched to answers by
// request_id, automatic reconnect with capped exponential backoff, and re-authentication with the
// stored session token before anyone else is told the link is back.
import { ErrorCode, decodeServer, pb, type ClientBody, type Player, type ServerMessage } from './proto';

// 'idle': not signed in and nothing needs the link, so none is kept (the server closes a socket
// that has not signed in within 30 s); the next request that waits for the link dials again.
// 'stalled': the socket is open but a request (a ping, a move, any other) has waited
// PING_SUSPECT_MS for its answer with nothing at all heard from the server meanwhile (a half-open
// link: a dead Wi-Fi, a silent relay). The page behaves as if the link were down (clocks paused,
// "reconnecting") but keeps the socket until a ping's PING_TIMEOUT_MS: anything heard from the
// server (a late pong, a late answer) makes it 'open' again with no redial.
export type LinkStatus = 'connecting' | 'open' | 'stalled' | 'reconnecting' | 'idle';

export class RequestError extends Error {
  constructor(public code: number, message: string) {
    super(message || ErrorCode[code] || 'error');
  }
}

// Thrown to pending requests when the socket closes: the caller decides whether to retry.
export class Disconnected extends Error {
  constructor() {
    super('disconnected');
  }
}

// `suspect`: the timer that calls the link stalled if no answer comes; `ping`: the request is one.
type Pending = { resolve: (m: ServerMessage) => void; reject: (e: Error) => void; suspect: number; ping: boolean };
type Listener = (m: ServerMessage) => void;

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const URGENT_BACKOFF_MS = 1000;
const PING_EVERY_MS = 5_000;
// While the page shows a live game its user plays (pingOftenWhilePlaying): a link that dies just
// after a pong is then called stalled within 2 + 3.5 = 5.5 s, not 8.5 s, while the player's clock
// runs. A ping costs the server little (answered at once, no Redis: some 5,000 a second for 10,000
// players) and is some 30 bytes each way. On a phone the radio stays awake for several seconds
// after each send (a mobile network's tail time, some 10 s on LTE), so pings every 5 s keep it awake
// through a game already: 2 s adds bytes, not wake-ups. 1 s would be as long as a slow mobile
// link's round trip, pings overlapping for little gain.
const PLAYING_PING_EVERY_MS = 2_000;
const PING_TIMEOUT_MS = 6_000;
// A request unanswered this long, with nothing heard from the server meanwhile, makes the link
// 'stalled'. An answer normally comes within a round trip: 3.5 s is over three times a slow mobile
// link's (1 s), so such a link does not flap, yet the clocks stop some 2.5 s before the socket is
// given up (the ping timeout, which redials, stays long enough for a link that is only slow).
// While a request waits, pings come every PLAYING_PING_EVERY_MS too, so one has gone out by then:
// its pong tells an answer that is only slow (a game on a frozen node is answered after 5 s) from
// a dead link.
const PING_SUSPECT_MS = 3_500;
// From dialling to a resumed session (socket open, hello answered): a silent peer must not leave
// the page waiting on a socket that never answers.
const OPEN_TIMEOUT_MS = 10_000;

export class Connection {
  status: LinkStatus = 'connecting';
  token: string | null = localStorage.getItem('xq.token');
  user: Player | null = null; // who the session belongs to, once signed in
  role = 'player'; // what the account may do: player | organiser | admin (from the login answer)
  rttMs = 0;
  // The server said this account is banned (an error frame with BANNED before it closed the
  // connection, or the answer to resuming the session): the sign-in form says so until a sign-in
  // succeeds.
  banned = false;
  // The stored session was refused on resuming it (BAD_TOKEN: a password change or "sign out
  // everywhere" on another device ended it, or it expired): the sign-in form says why instead of
  // appearing with no word, until a sign-in succeeds or the user signs out here.
  sessionEnded = false;
  // The last resume of the session was refused with STORAGE_UNAVAILABLE (the server's Redis is
  // stalled): the page keeps the token and redials, and the status says why it is taking long.
  // Cleared by a resume that succeeds, or a dial that fails for another reason.
  storageUnavailable = false;

  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private listeners = new Set<Listener>();
  private statusListeners = new Set<(s: LinkStatus) => void>();
  private readyListeners = new Set<() => void>();
  private attempt = 0;
  private urgent = new Set<() => boolean>(); // live games open (played or watched): see urgentReconnectsWhile
  private pingTimer: number | undefined; // the next ping, while the link is up
  private lastPingAt = 0; // performance.now() of the last ping sent
  private playingHolds = 0; // see pingOftenWhilePlaying
  private lastHeardAt = 0; // performance.now() of the last frame from the server
  private stalls = 0; // times the link was called stalled: a ping answered across one measures no round trip
  private refusedForStorage: WebSocket | null = null; // see refused()
  private linkWaiters = 0; // requests held until the link is up

  constructor(private url: string) {
    this.open();
    // Going online again should not wait for the backoff timer.
    window.addEventListener('online', () => {
      if (this.status !== 'open' && this.status !== 'idle') this.open();
    });
    // Another tab of this browser signed out, or in as someone else: this one follows (else it
    // kept acting as the old user, and took the other tab's user silently at its next reconnect).
    // Reloading starts it again cleanly as whoever the stored session now names. (Not on every
    // token written: a resumed session gets a fresh one, and two tabs would reload each other.)
    window.addEventListener('storage', (e) => {
      const stored = localStorage.getItem('xq.token');
      const signedOut = (e.key === 'xq.token' || e.key === null) && !stored && !!this.token;
      const signedIn = e.key === 'xq.token' && !!stored && !this.token;
      const switched = e.key === 'xq.user' && !!e.newValue && !!this.user && e.newValue !== this.user.userId;
      if (signedOut || signedIn || switched) location.reload();
    });
    // The browser knows the network is gone: a socket kept open meanwhile would hide it.
    window.addEventListener('offline', () => {
      if (this.ws) this.abandon(this.ws);
    });
  }

  onMessage(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  onStatus(fn: (s: LinkStatus) => void): () => void {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }
  // While `live()` holds for a game open here (played: its clocks may run; or watched live: the
  // spectator's board goes stale), reconnects are tried at most about a second apart, not up to
  // 8-12 s (review, 2026-12-04: players came back 10 s after a server restart while their clocks
  // ran; a later review: spectators still did). Returns the release.
  urgentReconnectsWhile(live: () => boolean): () => void {
    this.urgent.add(live);
    return () => this.urgent.delete(live);
  }

  // While the page shows a live game its user plays, pings come every PLAYING_PING_EVERY_MS, so a
  // dead link is noticed sooner while the player's clock may run; else every PING_EVERY_MS (but for
  // the requests waiting for an answer: see PING_SUSPECT_MS).
  // Returns the release.
  pingOftenWhilePlaying(): () => void {
    this.playingHolds++;
    this.reschedulePings();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.playingHolds--;
      this.reschedulePings();
    };
  }

  // The time between pings now (also read by the browser tests).
  get pingPeriodMs(): number {
    const awaiting = [...this.pending.values()].some((p) => !p.ping);
    return this.playingHolds > 0 || awaiting ? PLAYING_PING_EVERY_MS : PING_EVERY_MS;
  }

  // Called after every (re)connect once the session is re-established: resubscribe here.
  onReady(fn: () => void): () => void {
    this.readyListeners.add(fn);
    return () => this.readyListeners.delete(fn);
  }

  // Login answers carry the token and the user; keep both for the next reconnect.
  signedIn(m: ServerMessage) {
    if (m.reply?.token) this.setToken(m.reply.token);
    if (m.reply?.user) {
      this.user = m.reply.user as Player;
      localStorage.setItem('xq.user', this.user.userId ?? ''); // for the other tabs (see the constructor)
    }
    if (m.reply) this.role = m.reply.role || 'player';
    if (m.reply?.user) this.banned = this.sessionEnded = false;
    for (const fn of this.statusListeners) fn(this.status);
  }

  // Asks the server again who we are: a role granted or taken since sign-in shows without a
  // reload (roles live in Redis and are read on each use, not kept in the token).
  async refreshSession(): Promise<void> {
    if (!this.token) return;
    try {
      // While the link is down, after the reconnect (whose own resume already asked once).
      this.signedIn(await this.request({ hello: { token: this.token } }, { waitForLink: true }));
    } catch {
      /* the next reconnect resumes the session anyway */
    }
  }

  signOut() {
    this.sessionEnded = false;
    this.setToken(null);
    this.user = null;
    this.role = 'player';
    this.ws?.close();
  }

  setToken(token: string | null) {
    this.token = token;
    if (token) localStorage.setItem('xq.token', token);
    else localStorage.removeItem('xq.token');
  }

  // Sends a request and resolves with the server's direct answer; an Error answer rejects.
  // With waitForLink the request is held until the link is (back) up, e.g. a sign-in clicked
  // while the first connection is still being made.
  request(body: ClientBody, opts: { waitForLink?: boolean } = {}): Promise<ServerMessage> {
    // A stalled socket is still open: what is sent on it is answered if the link comes back, and
    // fails with Disconnected if it is given up.
    if (this.status === 'open' || this.status === 'stalled') return this.send(body);
    if (!opts.waitForLink) return Promise.reject(new Disconnected());
    return new Promise((resolve, reject) => {
      this.linkWaiters++;
      const off = this.onReady(() => {
        off();
        this.linkWaiters--;
        this.send(body).then(resolve, reject);
      });
      if (this.status === 'idle') {
        this.setStatus('connecting');
        this.open();
      }
    });
  }

  private send(body: ClientBody): Promise<ServerMessage> {
    const requestId = this.nextId++;
    const frame = pb.ClientMessage.encode({ ...body, requestId }).finish();
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Disconnected());
        return;
      }
      // Unanswered, and nothing else heard either: the link is called stalled, as the server
      // answers every request (any request: a move sent on a link that died between two pings
      // must not wait for the next ping to be noticed).
      const ws = this.ws;
      const sentAt = performance.now();
      const suspect = window.setTimeout(() => {
        if (ws === this.ws && this.status === 'open' && this.pending.has(requestId) && this.lastHeardAt < sentAt) {
          this.stalls++;
          this.setStatus('stalled');
        }
      }, PING_SUSPECT_MS);
      const ping = !!body.ping;
      this.pending.set(requestId, { resolve, reject, suspect, ping });
      ws.send(frame);
      if (!ping) this.reschedulePings(); // see PING_SUSPECT_MS
    });
  }

  // Test hook and "reconnect now" button: drop the socket as a network failure would.
  dropForTest() {
    this.ws?.close();
  }

  // Gives up on a socket at once. A dead link (lost Wi-Fi, a silent peer) may never deliver the
  // close event, since the closing handshake cannot finish; waiting for it left the page showing
  // an open link and a stale game.
  private abandon(ws: WebSocket) {
    if (ws !== this.ws) return;
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    ws.close();
    this.onClose(ws);
  }

  private setStatus(s: LinkStatus) {
    this.status = s;
    for (const fn of this.statusListeners) fn(s);
  }

  private open() {
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    const ws = new WebSocket(this.url);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => void this.onOpen(ws);
    ws.onmessage = (ev) => this.onFrame(ev.data);
    ws.onclose = () => this.onClose(ws);
    ws.onerror = () => ws.close();
    window.setTimeout(() => {
      // Not resumed yet (a stalled link was resumed: its pings decide).
      if (ws === this.ws && (this.status === 'connecting' || this.status === 'reconnecting')) this.abandon(ws);
    }, OPEN_TIMEOUT_MS);
  }

  private async onOpen(ws: WebSocket) {
    if (ws !== this.ws) return;
    // Resume the session before anything else goes out, so resubscriptions are authenticated.
    if (this.token) {
      try {
        const r = await this.send({ hello: { token: this.token } });
        if (r.reply?.user) this.user = r.reply.user as Player;
        if (r.reply) this.role = r.reply.role || 'player';
        if (r.reply?.token) this.setToken(r.reply.token);
        this.storageUnavailable = false;
      } catch (e) {
        // Only a refused session ends it (by its code: the server's words may change). Any other
        // error (the server's storage away for a moment, a limit) leaves the token and redials
        // with the usual back-off: dropping it signed a guest out of its game for good
        // (flaky-network review, 2026-12-05: a Redis pause during a reconnect).
        if (e instanceof RequestError && (e.code === ErrorCode.BAD_TOKEN || e.code === ErrorCode.BANNED)) {
          this.setToken(null);
          this.user = null;
          if (e.code === ErrorCode.BANNED) this.banned = true;
          if (e.code === ErrorCode.BAD_TOKEN) this.sessionEnded = true;
        } else {
          if (e instanceof RequestError) this.refused(ws, e.code === ErrorCode.STORAGE_UNAVAILABLE);
          return; // onClose schedules the next try
        }
      }
    }
    this.attempt = 0; // only a link that got this far is a good one: the back-off starts again
    this.setStatus('open');
    this.startPings();
    for (const fn of this.readyListeners) fn();
  }

  private onFrame(data: unknown) {
    if (!(data instanceof ArrayBuffer)) return;
    // The link carries bytes again: it was never lost, so no redial (and nothing to catch up).
    this.lastHeardAt = performance.now();
    if (this.status === 'stalled') this.setStatus('open');
    let m: ServerMessage;
    try {
      m = decodeServer(new Uint8Array(data));
    } catch {
      return;
    }
    if (m.body === 'error' && m.error?.code === ErrorCode.BANNED && !this.banned) {
      this.banned = true;
      for (const fn of this.statusListeners) fn(this.status);
    }
    const id = Number(m.requestId);
    const p = id ? this.pending.get(id) : undefined;
    if (p) {
      this.pending.delete(id);
      window.clearTimeout(p.suspect);
      if (!p.ping) this.reschedulePings();
      if (m.body === 'error' && m.error) p.reject(new RequestError(m.error.code, m.error.message));
      else p.resolve(m);
      // Full states that answer a request (watch, sync) are also game news for the listeners.
      if (m.body === 'reply' || m.body === 'error' || m.body === 'pong') return;
    }
    for (const fn of this.listeners) fn(m);
  }

  // The resume of the session was refused for a passing reason: the socket is given up and the
  // next dial tries again. Whether it was the server's storage is kept for the status line.
  private refused(ws: WebSocket, storage: boolean) {
    this.refusedForStorage = storage ? ws : null;
    this.abandon(ws);
  }

  private onClose(ws: WebSocket) {
    if (ws !== this.ws) return;
    this.ws = null;
    // Set for the socket the storage refused, so the status says so until the next answer; any
    // other end (a network failure, a dial not answered) says nothing about the storage.
    this.storageUnavailable = this.refusedForStorage === ws;
    this.refusedForStorage = null;
    window.clearTimeout(this.pingTimer);
    this.pingTimer = undefined;
    for (const p of this.pending.values()) (window.clearTimeout(p.suspect), p.reject(new Disconnected()));
    this.pending.clear();
    if (!this.token && this.linkWaiters === 0) {
      this.attempt = 0;
      return this.setStatus('idle');
    }
    this.setStatus('reconnecting');
    let base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    if ([...this.urgent].some((live) => live())) base = Math.min(base, URGENT_BACKOFF_MS);
    this.attempt++;
    // Jitter spreads the reconnects of many clients after a server restart.
    window.setTimeout(() => this.open(), base + Math.random() * base * 0.5);
  }

  private startPings() {
    void this.ping();
    this.reschedulePings();
  }

  // The next ping a period after the last one: the period may have changed since it was planned.
  // Nothing while the link is not up (startPings begins again once it is).
  private reschedulePings() {
    if (this.status !== 'open' && this.status !== 'stalled') return;
    window.clearTimeout(this.pingTimer);
    const wait = Math.max(0, this.lastPingAt + this.pingPeriodMs - performance.now());
    this.pingTimer = window.setTimeout(() => {
      void this.ping();
      this.reschedulePings();
    }, wait);
  }

  private async ping() {
    const t0 = performance.now();
    this.lastPingAt = t0;
    const ws = this.ws;
    const stallsBefore = this.stalls;
    // A link that stops answering (no close frame, e.g. a dead Wi-Fi) is first called stalled (by
    // the request, see send), then dropped and redialled.
    const deadline = window.setTimeout(() => {
      if (ws) this.abandon(ws);
    }, PING_TIMEOUT_MS);
    try {
      await this.request({ ping: { clientTimeMs: Date.now() } });
      // An answer that came across a stall measures the stall, not the link's round trip: the
      // clock readings (half a round trip old) and the lag sent with moves keep the last one
      // measured.
      if (ws === this.ws && this.stalls === stallsBefore) this.rttMs = performance.now() - t0;
    } catch {
      /* the close handler deals with it */
    } finally {
      window.clearTimeout(deadline);
    }
  }
}

export function defaultUrl(): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/ws`;
}
