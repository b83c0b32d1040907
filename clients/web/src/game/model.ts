// Client-side state of one game for this viewer, fed by the server's GameState / GameEvent pushes.
// Versions make it exact across reconnects: an event is applied only if it is the next one; a gap
// asks the server for a Sync from the last version seen. A move made here stays "pending" under
// its client_move_id until the server's MOVE event (or an error) settles it, and is re-sent after a
// reconnect; the server acks a re-sent id instead of playing it twice. A premove (game/premove.ts)
// waits here until the opponent's move arrives and then becomes an ordinary pending move, with a
// client_move_id of its own.
import { Disconnected, RequestError, type Connection, type LinkStatus } from '../net/connection';
import { ErrorCode, EventKind, Outcome, Side, type ChatLine, type GameEvent, type GameResult, type GameState, type MoveView, type Player, type ServerMessage } from '../net/proto';
import { applyMove, boardFen, iccsOf, parseFen, parseIccs, type Color, type Move, type PieceType, type Position } from '../rules/board';
import { errorText, knownBadRequestText, t } from '../i18n';
import { Observable } from '../store';
import { capturedNamed } from './commitment';
import { premoveVerdict } from './premove';
import { keepUnsent, unsentMove } from './unsent_move';
import { fetchRecord } from './record';


// A player counts as away only after this long without a connection on the game: when a game
// starts, the opponent's page may still be opening it (the note used to flash for a moment).
const AWAY_GRACE_MS = 2000;

export interface Captured {
  owner: Color;
  type: string; // '' = a face-down piece this viewer may not know
  wasDark: boolean;
}

export interface ClockView {
  red: number;
  black: number;
  running: Color | null;
  at: number; // performance.now() when these numbers were true
}

export interface Pending {
  iccs: string;
  clientMoveId: string;
  ply: number; // plies on the server board when it was made
  sent: boolean;
  retries: number; // sent again after STORAGE_UNAVAILABLE or NODE_NOT_ANSWERING (see RETRY_MS)
}

// STORAGE_UNAVAILABLE means the request did nothing: the game's node died and another has not
// taken it over yet (a few seconds), or Redis was briefly away. NODE_NOT_ANSWERING means the game's
// node stands still and may still carry the request out. Either way the page sends the same move
// (same client_move_id, so never played twice), or the same sync, again every second for this long
// before it shows the error.
const RETRY_MS = 1000;
const RETRIES = 20;
const retryable = (code: number) => code === ErrorCode.STORAGE_UNAVAILABLE || code === ErrorCode.NODE_NOT_ANSWERING;

const sideColor = (s: number | null | undefined): Color | null => (s === Side.RED ? 'r' : s === Side.BLACK ? 'b' : null);

function newMoveId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

export class GameModel extends Observable {
  loaded = false;
  error = '';
  version = 0;
  state: GameState | null = null;
  fen = '';
  moves: MoveView[] = [];
  captured: Captured[] = [];
  clock: ClockView = { red: 0, black: 0, running: null, at: 0 };
  drawOfferBy: Color | null = null;
  drawDeclined = false; // the last offer was declined (until the next move)
  // Takebacks by agreement (casual games only) and the time gift, as drawOfferBy / drawDeclined.
  takebackBy: Color | null = null; // whose takeback proposal stands
  takebackDeclined = false; // the last proposal was declined (until the next move)
  takebackAccepted = false; // the last proposal was accepted: said to the proposer and spectators until the next move
  takebacksAllowed = false;
  timeGiftMs = 0; // what "give time" adds to the opponent's clock; 0: not in this game
  // What this player may still propose or give (the server's allowance, GameState).
  takebacksLeft = 0;
  timeGiftsLeft = 0;
  // After a decline the proposer may propose again only once the opponent has moved.
  private takebackRefused: Color | null = null;
  requestedLimit: RequestedLimit | null = null; // a requested move limit ("限着") while it runs
  result: GameResult | null = null;
  // The move made here that the server has not confirmed; kept across a reload (unsent_move.ts).
  private pendingMove: Pending | null = null;
  get pending(): Pending | null {
    return this.pendingMove;
  }
  set pending(p: Pending | null) {
    this.pendingMove = p;
    const userId = this.conn.user?.userId;
    if (this.recordOnly) return;
    if (!p) keepUnsent(this.id, null);
    else if (userId) keepUnsent(this.id, { userId, iccs: p.iccs, clientMoveId: p.clientMoveId, ply: p.ply });
  }
  private unsentChecked = false; // the first state looked for a move kept from before a reload
  // The move this player chose while the opponent thinks: played when the opponent's move
  // arrives, if it is legal then; dropped otherwise, at the end, or on a takeback.
  premove: Move | null = null;
  archived = false; // shown from the stored record: the game is no longer live on the server
  // Opened signed out (recordOnly): watching needs a session, so only a finished game's public
  // record is shown; a game still played sets needsSignIn instead.
  needsSignIn = false;
  // Which players have a connection on this game (GameState.red_present / Presence pushes), and
  // since when (performance.now()) each has been gone: the claims need the opponent gone.
  present: Record<Color, boolean> = { r: true, b: true };
  // This viewer's chat room (the players' or the spectators'), in the server's order; lines the
  // server shows again after a reconnect carry the same seq and are not doubled.
  chat: ChatLine[] = [];
  // The server's wall time in the first state this page got: chat lines written before it are the
  // history the server sent with the game, not news (ui/Chat.tsx ChatUnread).
  openedAtServerMs = 0;
  // Set when the server refused a line as GAME_OVER: the finished game has left its memory.
  chatClosed = false;
  goneSince: Record<Color, number | null> = { r: null, b: null };
  claimAfterMs = 0;
  // When (performance.now()) a claim against each side's absence is first possible, as the
  // server's Presence said; null when not known (then the claims are offered at once).
  claimableAt: Record<Color, number | null> = { r: null, b: null };
  // The last error came from a claim refused as too early: it goes when the opponent's presence
  // changes (it stayed on screen after the claim had become possible; flaky-network review).
  private claimRefused = false;
  spectators = 0; // people watching, as of the last state or live event
  // When (performance.now()) the side to move must have made its first move
  // (GameState.first_move_due_in_ms); null when no such deadline was given. A tournament game is
  // then lost by forfeit, any other aborted (firstMoveAborts).
  firstMoveDueAt: number | null = null;
  firstMoveAborts = false;
  firstMoveMs = 0; // outside tournaments: each side's time for its first move (Black's runs from Red's)
  // The page's own link went down while the game was live, and the server has not given a reading
  // of the game since: the clocks stand where they were when it went down (clock.running null) and
  // are shown paused, and the status says the page is reconnecting. The next reading (the sync's
  // answer after the reconnect, an event, a state) runs them again. Counting on by itself the page
  // showed the mover's time running out while the server's clock had stopped, then jumped back
  // (flaky-network review: 32 s gone on the page during a 27 s Redis stall).
  // The first-move countdown and the wait before a claim stand still with them (countdownNow).
  reconnecting = false;
  private pausedRunning: Color | null = null; // the clock that ran when they stopped
  private pausedAt = 0; // performance.now() when they stopped
  private link: LinkStatus = 'open'; // the link's last status, as onLink heard it

  private offs: (() => void)[] = [];
  private syncing = false;
  private syncRetries = 0;
  private watchRetries = 0; // watches refused as unknown while the game's record says it is live

  constructor(private conn: Connection, readonly id: string, initial?: GameState, readonly recordOnly = false) {
    super();
    if (recordOnly) {
      void this.loadRecord();
      return;
    }
    this.offs.push(conn.onMessage((m) => this.onMessage(m)));
    this.offs.push(conn.onReady(() => void this.resync()));
    this.offs.push(conn.onStatus((s) => this.onLink(s)));
    // A player's clock may run, and a spectator's board goes stale: both come back within about a
    // second after a restart or a takeover (a spectator waited up to 12 s). Only a game followed
    // live counts: a finished one, or one not loaded yet, keeps the plain back-off. A spectator's
    // reconnect costs the server a hello and a sync, and the jitter still spreads them.
    this.offs.push(conn.urgentReconnectsWhile(() => this.loaded && !this.over && !this.archived));
    if (initial) this.applyState(initial);
    if (conn.status === 'open') void (initial ? Promise.resolve() : this.watch());
  }

  dispose() {
    for (const off of this.offs) off();
  }

  get you(): Color | null {
    return sideColor(this.state?.you);
  }
  get over(): boolean {
    return !!this.result && this.result.outcome !== Outcome.ONGOING;
  }
  get jieqi(): boolean {
    return this.state?.variant === 2;
  }
  get red(): Player | null | undefined {
    return this.state?.red;
  }
  get black(): Player | null | undefined {
    return this.state?.black;
  }

  // The position to draw: the server's, plus our own move while it is on its way.
  get position(): Position {
    const pos = parseFen(this.fen || this.state?.startFen || '9/9/9/9/9/9/9/9/9/9 w - - 0 1');
    if (this.pending) {
      const m = parseIccs(this.pending.iccs);
      if (m) return applyMove(pos, m);
    }
    return pos;
  }

  // Board after `ply` plies, rebuilt from the start position and the moves (for the replay).
  positionAt(ply: number): Position {
    if (ply >= this.moves.length) return this.position;
    let pos = parseFen(this.state?.startFen || '');
    for (const mv of this.moves.slice(0, ply)) {
      const m = parseIccs(mv.iccs);
      if (m) pos = applyMove(pos, m, (mv.reveal || m.reveal || null) as PieceType | null);
    }
    return pos;
  }

  myTurn(): boolean {
    return !this.over && !!this.you && this.position.turn === this.you && !this.pending;
  }

  // This player may ask to take back their last move: a casual game, a move of theirs on the
  // board, no proposal standing (an opponent's is answered with Accept), and not just refused.
  // Nor what the server refuses anyway (docs/protocol.md, propose_takeback): a takeback while a
  // move limit on request runs, and in Jieqi one that would hide a piece again (a move that turned
  // one up or took a face-down one). Jieqi's first moves all turn pieces up: without this the
  // button would mostly answer with an error.
  canProposeTakeback(): boolean {
    const you = this.you;
    if (!you || this.over || !this.takebacksAllowed || this.takebacksLeft <= 0) return false;
    if (this.takebackBy || this.takebackRefused === you || this.requestedLimit) return false;
    const n = this.moves.length;
    if (n < (you === 'r' ? 1 : 2)) return false;
    // Our last move, and the opponent's reply if it came (then it is our move again).
    const plies = parseFen(this.fen).turn === you ? 2 : 1;
    for (let k = n - plies + 1; k <= n; k++) {
      const mv = this.moves[k - 1];
      const m = parseIccs(mv.iccs);
      if (mv.reveal || (m && this.positionAt(k - 1).board[m.to]?.type === 'X')) return false;
    }
    return true;
  }

  async watch() {
    try {
      await this.conn.request({ watchGame: { gameId: this.id } });
    } catch (e) {
      if (e instanceof RequestError) {
        // Not live (any more): a finished game is still served as a record for the replay.
        const st = e.code === ErrorCode.UNKNOWN_GAME ? await fetchRecord(this.id).catch(() => null) : null;
        // A record still being played: the game began between the refusal and the record (a page
        // opened on a tournament game as it starts). Shown as a finished record it had no player
        // and never moved on (a player read "Watching" in a browser test); it is watched again.
        if (st && st !== 'withheld' && (st.result?.outcome ?? Outcome.ONGOING) === Outcome.ONGOING && this.watchRetries < RETRIES) {
          this.watchRetries++;
          setTimeout(() => void this.watch(), RETRY_MS / 4);
          return;
        }
        if (st && st !== 'withheld') {
          this.archived = true;
          this.applyState(st);
          return;
        }
        this.error = errorText(e);
        this.changed();
      }
    }
  }

  // Signed out: the public record (GET /api/games/{id}), read-only. A live game's record is the
  // spectator's view without clocks running or pushes, so a live game waits for a sign-in instead.
  private async loadRecord() {
    const st = await fetchRecord(this.id).catch(() => undefined);
    if (st === null) this.error = t('error.UNKNOWN_GAME');
    else if (st === undefined) this.error = t('error.disconnected');
    else if (st === 'withheld' || st.result?.outcome === Outcome.ONGOING) this.needsSignIn = true;
    else {
      this.archived = true;
      this.applyState(st);
      return;
    }
    this.changed();
  }

  // The link went down (or stalled): the clocks stop where they are (see `reconnecting`).
  private onLink(s: LinkStatus) {
    const before = this.link;
    this.link = s;
    // A stalled link that answers again was never lost: no reconnect, so no resync from the ready
    // listeners. The sync is asked here instead, for the server's clocks.
    if (s === 'open' && before === 'stalled' && this.reconnecting) void this.resync();
    if (s === 'open' || this.reconnecting || !this.loaded || this.over || this.archived) return;
    this.pausedRunning = this.clock.running;
    this.pausedAt = performance.now();
    this.clock = { red: this.clockNow('r'), black: this.clockNow('b'), running: null, at: this.pausedAt };
    this.reconnecting = true;
    this.changed();
  }

  // The moment the countdowns (first move, claim wait) are read at: while the link is down, the
  // one it went down, so they stand still with the clocks. The server's deadlines run on
  // meanwhile, so once back they are read at the real time again, which shows what it counts
  // (until its own reading comes: a state, a Presence in the sync's catch-up).
  private countdownNow(now: number): number {
    return this.reconnecting ? this.pausedAt : now;
  }

  // A first move is (or may become) due: the sync's answer does not say until when.
  private firstMoveDue(): boolean {
    return !this.over && this.moves.length < 2 && (this.firstMoveDueAt !== null || this.firstMoveMs > 0);
  }

  // Back, with no reading of the clocks from the server (a sync answer without them, a refusal):
  // they run on from where they stopped; the next event sets them right.
  private resumeClocks() {
    if (!this.reconnecting || this.conn.status !== 'open') return;
    this.reconnecting = false;
    this.clock = { ...this.clock, running: this.over ? null : this.pausedRunning, at: performance.now() };
    this.changed();
  }

  private async resync() {
    if (!this.loaded) return this.watch();
    if (this.archived) return this.resumeClocks();
    if (this.syncing) return;
    this.syncing = true;
    let retrying = false;
    const wasDown = this.reconnecting;
    try {
      const r = await this.conn.request({ sync: { gameId: this.id, lastVersion: this.version } });
      this.syncRetries = 0;
      if (this.error === t('error.disconnected')) this.error = ''; // said while the link was down
      // The clocks as the server has them: with no event missed, ours ran on through the outage
      // (a restart's downtime is charged to nobody; review, 2026-12-04: 10 s off until the next move).
      if (r.body === 'reply' && r.reply?.clock && Number(r.reply.clock.serverTimeMs)) {
        this.setClock(r.reply.clock as GameState['clock'], true);
        this.changed();
      }
      // The first-move deadline comes only with the game's state: read again, so the countdown
      // is the server's (it ran on while the page was away; Black's started with a Red move made
      // meanwhile, not when the page heard of it).
      if (wasDown && this.firstMoveDue()) await this.watch();
    } catch (e) {
      if (e instanceof RequestError && retryable(e.code) && this.syncRetries < RETRIES) {
        this.syncRetries++;
        retrying = true;
        setTimeout(() => void this.resync(), RETRY_MS);
      } else if (e instanceof RequestError) {
        this.error = errorText(e);
        this.changed();
      }
    } finally {
      this.syncing = false;
    }
    if (!retrying) this.resumeClocks();
    this.resendPending();
  }

  private onMessage(m: ServerMessage) {
    const st = m.body === 'gameStarted' ? m.gameStarted : m.body === 'gameState' ? m.gameState : null;
    if (st && st.gameId === this.id) {
      this.applyState(st as GameState);
      return;
    }
    if (m.body === 'gameEvent' && m.gameEvent?.gameId === this.id) this.applyEvent(m.gameEvent as GameEvent);
    if (m.body === 'chat' && m.chat?.gameId === this.id) {
      const line = m.chat as ChatLine;
      if (!this.chat.some((l) => Number(l.seq) === Number(line.seq))) {
        this.chat = [...this.chat, line].sort((a, b) => Number(a.seq) - Number(b.seq)).slice(-100);
        this.changed();
      }
    }
    if (m.body === 'presence' && m.presence?.gameId === this.id) {
      const side = sideColor(m.presence.side);
      if (side) {
        this.setPresent(side, !!m.presence.present);
        this.setClaimableAt(side, m.presence.present ? null : m.presence.claimAfterMs ?? null);
        if (this.claimRefused) this.error = '';
        this.claimRefused = false;
      } else this.spectators = m.presence.spectators ?? 0; // SIDE_NONE: the number watching changed
      if (m.presence.claimAfterMs) this.claimAfterMs = m.presence.claimAfterMs;
      this.changed();
    }
  }

  private setClaimableAt(side: Color, inMs: number | null) {
    this.claimableAt[side] = inMs === null ? null : performance.now() + inMs;
    if (inMs) setTimeout(() => this.changed(), inMs + 50); // re-render when the claims open
  }

  // Milliseconds until this player may claim against the opponent's absence (0: now, or unknown).
  claimWaitMs(now = performance.now()): number {
    const at = this.you ? this.claimableAt[this.you === 'r' ? 'b' : 'r'] : null;
    return at === null ? 0 : Math.max(0, at - this.countdownNow(now));
  }

  private setPresent(side: Color, present: boolean) {
    if (present) this.goneSince[side] = null;
    else if (this.present[side] || this.goneSince[side] === null) {
      this.goneSince[side] = performance.now();
      setTimeout(() => this.changed(), AWAY_GRACE_MS + 50); // re-render when the grace ends
    }
    this.present[side] = present;
  }

  // Milliseconds left for the side to move to make its first move (tournament no-show rule), or
  // null once both have moved, the game is over, or there is no such rule.
  firstMoveDueInMs(now = performance.now()): number | null {
    if (this.firstMoveDueAt === null || this.over || this.moves.length >= 2) return null;
    return Math.max(0, this.firstMoveDueAt - this.countdownNow(now));
  }

  // The opponent of this player has had no connection on the game for AWAY_GRACE_MS (claims are
  // possible after a while; the server decides).
  get opponentGone(): boolean {
    const you = this.you;
    if (!you) return false;
    const opponent: Color = you === 'r' ? 'b' : 'r';
    const since = this.goneSince[opponent];
    return !this.present[opponent] && since !== null && performance.now() - since >= AWAY_GRACE_MS;
  }

  applyState(st: GameState) {
    this.state = st;
    this.loaded = true;
    this.error = '';
    this.version = Number(st.version);
    this.fen = st.fen;
    this.moves = [...st.moves];
    this.captured = st.captured.map((c) => ({ owner: sideColor(c.owner) ?? 'r', type: c.type, wasDark: c.wasDark }));
    // The end makes the shuffle public: every captured face-down piece has a name from then on.
    if (st.result?.assignment) this.captured = capturedNamed(st.startFen, st.moves, this.captured, st.result.assignment);
    this.reconnecting = false; // the whole game as the server has it
    this.setClock(st.clock, true);
    if (!this.openedAtServerMs) this.openedAtServerMs = Number(st.clock?.serverTimeMs ?? 0);
    this.drawOfferBy = sideColor(st.drawOfferBy);
    this.takebackBy = sideColor(st.takebackProposedBy);
    this.takebacksAllowed = !!st.takebacksAllowed;
    this.timeGiftMs = st.timeGiftMs ?? 0;
    this.takebacksLeft = st.takebacksLeft ?? 0;
    this.timeGiftsLeft = st.timeGiftsLeft ?? 0;
    this.requestedLimit = requestedLimitOf(st.requestedMoveLimit);
    this.result = st.result ?? null;
    this.setPresent('r', !!st.redPresent);
    this.setPresent('b', !!st.blackPresent);
    this.spectators = st.spectators ?? 0;
    this.firstMoveDueAt = st.firstMoveDueInMs ? performance.now() + st.firstMoveDueInMs : null;
    this.firstMoveAborts = !!st.firstMoveAborts;
    this.firstMoveMs = st.firstMoveMs ?? 0;
    const restored = this.restoreUnsent();
    this.settlePending();
    if (restored && this.pending) this.sendPending();
    this.playPremove();
    this.changed();
  }

  // Once, at the first state: a move this user made here before a reload, not confirmed then,
  // becomes the pending move again. settlePending then drops it if the server has it (or another
  // move stands at its ply); else it goes again, under its client_move_id.
  private restoreUnsent(): boolean {
    if (this.unsentChecked) return false;
    this.unsentChecked = true;
    const userId = this.conn.user?.userId;
    const kept = userId && !this.pending ? unsentMove(this.id, userId) : null;
    if (!kept) return false;
    if (this.over || !this.you || kept.ply > this.moves.length) {
      keepUnsent(this.id, null);
      return false;
    }
    this.pending = { iccs: kept.iccs, clientMoveId: kept.clientMoveId, ply: kept.ply, sent: false, retries: 0 };
    return true;
  }

  private applyEvent(ev: GameEvent) {
    const v = Number(ev.version);
    if (!this.loaded || v <= this.version) return; // old or duplicate
    if (v > this.version + 1) {
      void this.resync(); // a gap: ask for what we missed instead of guessing
      return;
    }
    this.version = v;
    const mover = sideColor(ev.side);
    switch (ev.kind) {
      case EventKind.MOVE: {
        const mv = ev.move!;
        const before = parseFen(this.fen);
        const m = parseIccs(mv.iccs);
        if (m) {
          const victim = before.board[m.to];
          if (mv.capture && victim)
            this.captured.push({ owner: victim.color, type: victim.type === 'X' ? mv.capturedType : victim.type, wasDark: victim.type === 'X' });
        }
        this.moves.push(mv as MoveView);
        // Live events carry the viewer's FEN; inside a catch-up batch we rebuild it from the move.
        if (ev.fen) this.fen = ev.fen;
        else if (m) {
          const after = applyMove(before, m, (mv.reveal || m.reveal || null) as PieceType | null);
          this.fen = fenOf(after, this.fen);
        }
        if (this.drawOfferBy && this.drawOfferBy !== mover) this.drawOfferBy = null;
        this.drawDeclined = false;
        this.takebackBy = null; // a takeback proposal lapses when either side moves
        this.takebackDeclined = false;
        this.takebackAccepted = false;
        if (this.takebackRefused && this.takebackRefused !== mover) this.takebackRefused = null;
        if (this.pending && mover === this.you) {
          // A move of ours made elsewhere (another tab of this account) came first: this page's
          // was not played, and must not vanish unsaid (review, 2026-12-04).
          if (!sameMove(this.pending, mv)) (this.error = t('movedElsewhere')), (this.premove = null);
          this.pending = null;
        }
        // Outside tournaments Black's first-move time starts with Red's first move (a tournament's
        // no-show time runs from the start for both). From a catch-up batch (the last event of
        // one carries the FEN too: the page is still `reconnecting` then) the move's time is not
        // known: no countdown rather than a wrong one, until the state read after the sync.
        if (this.moves.length === 1 && this.firstMoveMs > 0)
          this.firstMoveDueAt = ev.fen && !this.reconnecting ? performance.now() + this.firstMoveMs : null;
        break;
      }
      case EventKind.DRAW_OFFERED:
        this.drawOfferBy = mover;
        this.drawDeclined = false;
        break;
      case EventKind.DRAW_DECLINED:
        this.drawOfferBy = null;
        // Said until the next move, so the offerer (and a spectator) sees the answer; the one who
        // declined knows it.
        this.drawDeclined = mover !== this.you;
        break;
      case EventKind.TAKEBACK_PROPOSED:
        this.takebackBy = mover;
        this.takebackDeclined = false;
        this.takebackAccepted = false;
        break;
      case EventKind.TAKEBACK_DECLINED:
        this.takebackRefused = this.takebackBy ?? (mover === 'r' ? 'b' : mover === 'b' ? 'r' : null);
        this.takebackBy = null;
        this.takebackDeclined = mover !== this.you; // as a declined draw: for the proposer and spectators
        break;
      case EventKind.TAKEN_BACK: {
        // The last plies are gone. The live event has the position; the captured pieces and the
        // rest come with the full state fetched below.
        const keep = Math.max(0, this.moves.length - (ev.pliesUndone ?? 0));
        this.fen = ev.fen || fenOf(this.positionAt(keep), this.fen);
        this.moves = this.moves.slice(0, keep);
        if (this.firstMoveMs > 0) this.firstMoveDueAt = null; // after a takeback only the clocks count
        if (mover && mover !== this.you && this.you) this.takebacksLeft = Math.max(0, this.takebacksLeft - 1); // ours, accepted
        this.pending = null;
        this.premove = null; // chosen for a position that is gone
        this.takebackBy = null;
        this.takebackDeclined = false;
        // The move just vanishes from the board: the proposer (and a spectator) is told why. The
        // one who accepted knows.
        this.takebackAccepted = mover !== this.you;
        this.takebackRefused = null;
        this.drawOfferBy = null; // the server ends a standing draw offer with the takeback
        this.drawDeclined = false;
        void this.watch();
        break;
      }
      case EventKind.MOVE_LIMIT_REQUESTED:
        this.takebackBy = null; // no takebacks while the limit runs: the server dropped the proposal
        this.requestedLimit = requestedLimitOf(ev.requestedMoveLimit) ?? {
          by: mover,
          byArbiter: !mover,
          counted: 0,
          limit: this.state?.ruleOptions?.requestedMoveLimitPlies ?? 0,
        };
        break;
      case EventKind.TIME_GIVEN:
        if (mover && mover === this.you) this.timeGiftsLeft = Math.max(0, this.timeGiftsLeft - 1);
        break;
      case EventKind.GAME_ENDED:
        this.result = ev.result ?? null;
        this.pending = null;
        this.premove = null;
        this.takebackBy = null;
        if (ev.fen) this.fen = ev.fen;
        // The end reveals everything to everyone: fetch the full final state.
        void this.watch();
        break;
    }
    // Live events carry the running limit's count (a catch-up batch on its last event).
    if (ev.requestedMoveLimit && ev.kind !== EventKind.MOVE_LIMIT_REQUESTED) this.requestedLimit = requestedLimitOf(ev.requestedMoveLimit);
    // Every event carries both clocks (TIME_GIVEN: with the gift in them; TAKEN_BACK: the side to
    // move after it runs); only live ones (server time set) run.
    if (ev.clock) this.setClock(ev.clock, !!Number(ev.clock.serverTimeMs));
    if (ev.fen) this.spectators = ev.spectators ?? this.spectators; // live events carry the count
    if (ev.kind === EventKind.MOVE) this.playPremove();
    this.changed();
  }

  private setClock(c: GameState['clock'], live: boolean) {
    if (!c) return;
    this.reconnecting = false; // the server's reading
    // The reading is about half a round trip old when it arrives.
    this.clock = {
      red: c.redMs,
      black: c.blackMs,
      running: live && !this.over ? sideColor(c.running) : null,
      at: performance.now() - this.conn.rttMs / 2,
    };
  }

  // Remaining time as shown now: the running side loses the time since the server measured it.
  clockNow(color: Color): number {
    const base = color === 'r' ? this.clock.red : this.clock.black;
    if (this.clock.running !== color || this.over) return base;
    return Math.max(0, base - (performance.now() - this.clock.at));
  }

  move(iccs: string) {
    if (!this.myTurn()) return;
    this.pending = { iccs, clientMoveId: newMoveId(), ply: this.moves.length, sent: false, retries: 0 };
    this.changed();
    this.sendPending();
  }

  // Sets (or replaces: there is only one) the premove. Made just as the opponent's move came in,
  // it is played at once if legal.
  setPremove(m: Move) {
    if (!this.you || this.over) return;
    this.premove = m;
    this.playPremove();
    this.changed();
  }

  cancelPremove() {
    if (!this.premove) return;
    this.premove = null;
    this.changed();
  }

  // Our move now (the opponent's arrived): the premove goes as a normal move or is silently dropped.
  // Nothing happens while a move of ours is still pending: the position then has the opponent to move.
  private playPremove() {
    const pm = this.premove;
    const you = this.you;
    if (!pm) return;
    if (!you || this.over) {
      this.premove = null;
      return;
    }
    const verdict = premoveVerdict(this.position, pm, you);
    if (verdict === 'wait') return;
    this.premove = null;
    if (verdict === 'play') this.move(iccsOf(pm));
  }

  private sendPending() {
    const p = this.pending;
    if (!p || this.conn.status !== 'open') return;
    p.sent = true;
    this.conn
      // `ply`: the server refuses the move if a takeback changed the position before it arrived.
      .request({ move: { gameId: this.id, iccs: p.iccs, clientMoveId: p.clientMoveId, clientLagMs: Math.round(this.conn.rttMs / 2), eventIsReply: true, ply: p.ply + 1 } })
      .catch((e) => {
        if (e instanceof Disconnected) return; // re-sent after the resync
        if (this.pending === p && e instanceof RequestError && retryable(e.code) && p.retries < RETRIES) {
          p.retries++;
          p.sent = false;
          this.changed();
          setTimeout(() => {
            if (this.pending === p && !p.sent) this.sendPending();
          }, RETRY_MS);
          return;
        }
        if (this.pending === p && e instanceof RequestError && e.code === ErrorCode.POSITION_CHANGED) {
          // Meant for a position a takeback undid: dropped; the TAKEN_BACK event brings the new one.
          this.pending = null;
          this.premove = null;
          this.changed();
          return;
        }
        if (this.pending === p) {
          this.pending = null;
          this.premove = null; // it followed a move that did not happen
          this.error = errorText(e);
          this.changed();
        }
      });
  }

  // After a state or sync: drop the pending move if the server already has it, else send it again.
  private settlePending() {
    const p = this.pending;
    if (!p) return;
    if (this.moves.length > p.ply || this.over) {
      const played = this.moves[p.ply];
      // The ply it was made for was ours: another move there was made elsewhere (another tab).
      if (played && !sameMove(p, played)) (this.error = t('movedElsewhere')), (this.premove = null);
      this.pending = null;
    }
  }

  private resendPending() {
    this.settlePending();
    if (this.pending) this.sendPending();
    this.changed();
  }

  async action(
    kind: 'resign' | 'offerDraw' | 'acceptDraw' | 'declineDraw' | 'abort' | 'claimVictory' | 'claimDraw' | 'requestMoveLimit' | 'proposeTakeback' | 'acceptTakeback' | 'declineTakeback' | 'giveTime',
  ) {
    this.error = '';
    this.claimRefused = false;
    try {
      await this.conn.request({ [kind]: { gameId: this.id } });
    } catch (e) {
      this.error = errorText(e);
      this.claimRefused = kind === 'claimVictory' || kind === 'claimDraw';
    }
    this.changed();
  }

  clearError() {
    this.error = '';
    this.changed();
  }

  // Writes a line in this viewer's room; resolves to an error text, or '' once the server took it.
  async say(text: string): Promise<string> {
    try {
      await this.conn.request({ chat: { gameId: this.id, text } });
      return '';
    } catch (e) {
      const code = (e as { code?: number }).code;
      // Refused for a reason the server names (not watching the game), else the line's form.
      if (code === ErrorCode.BAD_REQUEST) return knownBadRequestText(e) ?? t('chatBadLine');
      if (code === ErrorCode.CHAT_BLOCKED_WORD) return t('chatBlockedWord');
      if (code === ErrorCode.GAME_OVER) {
        // The chat stays open a while after the end (the server keeps the game in memory); now it has closed.
        this.chatClosed = true;
        this.changed();
        return '';
      }
      return errorText(e);
    }
  }
}

// The move limit a player asked for ("限着"), from a GameState or GameEvent; null if none runs.
export interface RequestedLimit {
  by: Color | null; // whose checks do not count: the asker, or the side the arbiter chose; null: both sides
  byArbiter: boolean; // imposed by the arbiter (an admin)
  counted: number; // plies counted since the request
  limit: number; // the game is drawn when `counted` reaches it
}
function requestedLimitOf(r: GameState['requestedMoveLimit']): RequestedLimit | null {
  if (!r || !r.limitPlies) return null;
  const by = sideColor(r.requestedBy);
  return { by, byArbiter: !!r.byArbiter || !by, counted: r.countedPlies ?? 0, limit: r.limitPlies };
}

// Rebuilds a FEN for an intermediate position: only the board and side matter to this client.
function fenOf(pos: Position, prevFen: string): string {
  const rest = prevFen.trim().split(/\s+/).slice(2);
  return [boardFen(pos.board), pos.turn === 'r' ? 'w' : 'b', ...rest].join(' ');
}

// A pending move and a played one are the same move (the squares; the reveal letters may differ).
function sameMove(p: { iccs: string }, played: { iccs?: string | null }): boolean {
  return (played.iccs ?? '').slice(0, 4) === p.iccs.slice(0, 4);
}
