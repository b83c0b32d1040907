import { describe, expect, it, vi } from 'vitest';
import { GameModel } from '../src/game/model';
import { verifyCommitment, sha256Hex } from '../src/game/commitment';
import { stateFromRecord } from '../src/game/record';
import { ErrorCode, EventKind } from '../src/net/proto';
import { RequestError } from '../src/net/connection';
import { clockText } from '../src/ui/format';
import { apiErrorText, errorText, setLang, t } from '../src/i18n';
import { JIEQI_START, XIANGQI_START } from '../src/rules/board';
import { FakeConn, setup, state } from './fake_conn';
import { pb, decodeServer } from '../src/net/proto';

describe('GameModel', () => {
  it('applies events in order, ignores duplicates, resyncs on a gap', () => {
    const { conn, g } = setup();
    expect(g.loaded).toBe(true);
    expect(g.myTurn()).toBe(true);
    g.move('h2e2');
    const sent = conn.sent.find((b) => b.move)!;
    expect(sent.move!.iccs).toBe('h2e2');
    expect(sent.move!.clientMoveId).toBeTruthy();
    expect(sent.move!.clientLagMs).toBe(20);
    expect(g.pending).not.toBeNull();
    expect(g.position.board[2 * 9 + 4]?.type).toBe('C'); // shown at once on e2
    const ev = { gameId: 'g1', version: 1, kind: 1, side: 1, move: { ply: 1, iccs: 'h2e2', chinese: '炮二平五' }, clientMoveId: sent.move!.clientMoveId };
    conn.push({ gameEvent: ev });
    conn.push({ gameEvent: ev }); // duplicate delivery
    expect(g.moves.length).toBe(1);
    expect(g.pending).toBeNull();
    expect(g.position.turn).toBe('b');
    conn.push({ gameEvent: { gameId: 'g1', version: 3, kind: 2, side: 2 } });
    expect(g.version).toBe(1);
    expect(conn.sent.some((b) => b.sync && b.sync.lastVersion === 1)).toBe(true);
  });

  it('after a reconnect, takes the clocks from the answer to its sync (with no event missed, it had no other)', async () => {
    const { conn, g } = setup();
    expect(g.clock.red).toBe(60000);
    conn.reconnect();
    const i = conn.sent.findIndex((b) => b.sync);
    expect(conn.sent[i].sync!.lastVersion).toBe(0);
    conn.answers[i].resolve(decodeServer(pb.ServerMessage.encode({ reply: { gameId: 'g1', version: 0, clock: { redMs: 51000, blackMs: 60000, running: 1, serverTimeMs: 5 } } }).finish()));
    await Promise.resolve();
    await Promise.resolve();
    expect(g.clock.red).toBe(51000);
    expect(g.clock.running).toBe('r');
  });

  it('while the link is down the clocks stand still, paused; the sync\'s answer runs them again', async () => {
    const now = vi.spyOn(performance, 'now');
    try {
      let t = 1000;
      now.mockImplementation(() => t);
      const { conn, g } = setup(); // Red's clock runs from 60 s
      t += 5000;
      expect(g.clockNow('r')).toBe(54980); // and the half round trip the reading was old
      conn.setStatus('reconnecting');
      expect(g.reconnecting).toBe(true);
      expect(g.clock.running).toBeNull();
      t += 30000;
      expect(g.clockNow('r')).toBe(54980);
      expect(g.clockNow('b')).toBe(60000);
      conn.setStatus('reconnecting'); // each failed dial says so again: nothing changes
      expect(g.clockNow('r')).toBe(54980);
      conn.setStatus('open');
      expect(g.reconnecting).toBe(true); // until the server's reading
      conn.reconnect();
      const i = conn.sent.findIndex((b) => b.sync);
      conn.answers[i].resolve(decodeServer(pb.ServerMessage.encode({ reply: { gameId: 'g1', version: 0, clock: { redMs: 50000, blackMs: 60000, running: 1, serverTimeMs: 9 } } }).finish()));
      await Promise.resolve();
      await Promise.resolve();
      expect(g.reconnecting).toBe(false);
      expect(g.clock.running).toBe('r');
      t += 1000;
      expect(g.clockNow('r')).toBe(48980);

      // An answer without the clocks: they run on from where they stopped.
      conn.setStatus('reconnecting');
      t += 10000;
      conn.setStatus('open');
      conn.reconnect();
      const j = conn.sent.length - 1;
      expect(conn.sent[j].sync).toBeTruthy();
      conn.answers[j].resolve(decodeServer(pb.ServerMessage.encode({ reply: { gameId: 'g1', version: 0 } }).finish()));
      await Promise.resolve();
      await Promise.resolve();
      expect(g.reconnecting).toBe(false);
      expect(g.clock.running).toBe('r');
      t += 1000;
      expect(g.clockNow('r')).toBe(47980);
    } finally {
      now.mockRestore();
    }
  });

  // The first-move countdown and the claim wait counted on while the link was down (review): they
  // stand still with the clocks, and once back show what the server counted (its deadlines ran on).
  it('while the link is down the first-move countdown and the claim wait stand still; back, they are the server\'s', async () => {
    const now = vi.spyOn(performance, 'now');
    try {
      let t = 1000;
      now.mockImplementation(() => t);
      const conn = new FakeConn();
      const g = new GameModel(conn as never, 'g1');
      conn.push({ gameState: state({ firstMoveDueInMs: 30000, firstMoveAborts: true, firstMoveMs: 30000 }) });
      t += 5000;
      expect(g.firstMoveDueInMs()).toBe(25000);
      conn.setStatus('reconnecting');
      t += 10000;
      expect(g.firstMoveDueInMs()).toBe(25000); // stands still
      conn.setStatus('open');
      conn.reconnect();
      const i = conn.sent.findIndex((b) => b.sync);
      conn.answers[i].resolve(decodeServer(pb.ServerMessage.encode({ reply: { gameId: 'g1', version: 0, clock: { redMs: 60000, blackMs: 60000, running: 1, serverTimeMs: 9 } } }).finish()));
      await Promise.resolve();
      await Promise.resolve();
      expect(g.reconnecting).toBe(false);
      expect(g.firstMoveDueInMs()).toBe(15000); // the server's deadline ran on
      // The sync's answer has no deadline: the state is asked for it, and its deadline is taken.
      const w = conn.sent.map((b, k) => (b.watchGame ? k : -1)).reduce((a, k) => Math.max(a, k));
      expect(w).toBeGreaterThan(i);
      conn.push({ gameState: state({ firstMoveDueInMs: 14000, firstMoveAborts: true, firstMoveMs: 30000 }) });
      conn.answers[w].resolve(decodeServer(pb.ServerMessage.encode({ reply: { gameId: 'g1', version: 0 } }).finish()));
      expect(g.firstMoveDueInMs()).toBe(14000);
      await Promise.resolve();

      // Red moved while Black's page was away: a catch-up MOVE gives no countdown from "now" (the
      // server's started with the move), until the state read after the sync says.
      conn.setStatus('reconnecting');
      conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: 1, side: 1, move: { ply: 1, iccs: 'h2e2' }, fen: XIANGQI_START } });
      expect(g.firstMoveDueInMs()).toBeNull();

      // The claim wait: the opponent gone, the claims open after the server's claim_after_ms.
      const b = setupAt();
      b.conn.push({ presence: { gameId: 'g1', side: 2, present: false, claimAfterMs: 20000 } });
      t += 4000;
      expect(b.g.claimWaitMs()).toBe(16000);
      b.conn.setStatus('reconnecting');
      t += 10000;
      expect(b.g.claimWaitMs()).toBe(16000); // stands still
      b.conn.setStatus('open');
      b.conn.reconnect();
      // The catch-up's Presence says what is left as the server counts it.
      b.conn.push({ presence: { gameId: 'g1', side: 2, present: false, claimAfterMs: 5000 } });
      b.conn.answers[b.conn.sent.findIndex((x) => x.sync)].resolve(decodeServer(pb.ServerMessage.encode({ reply: { gameId: 'g1', version: 2 } }).finish()));
      await Promise.resolve();
      await Promise.resolve();
      expect(b.g.reconnecting).toBe(false);
      expect(b.g.claimWaitMs()).toBe(5000);
      expect(b.conn.sent.filter((x) => x.watchGame).length).toBe(1); // only the first: both have moved, no deadline to ask for
    } finally {
      now.mockRestore();
    }
    // A game after both first moves (Red to move again), as the claim test needs.
    function setupAt() {
      const conn = new FakeConn();
      const g = new GameModel(conn as never, 'g1');
      conn.push({ gameState: state({ version: 2, moves: [{ ply: 1, iccs: 'h2e2' }, { ply: 2, iccs: 'h9g7' }] }) });
      return { conn, g };
    }
  });

  // A link that stalled (a ping unanswered for a while, the socket still open) pauses the clocks as
  // a lost one does; when it answers again there is no reconnect, and the page asks the sync itself.
  it('a stalled link pauses the clocks; when it answers again the sync runs them from the server\'s reading', async () => {
    const { conn, g } = setup();
    conn.setStatus('stalled');
    expect(g.reconnecting).toBe(true);
    expect(g.clock.running).toBeNull();
    conn.setStatus('open'); // no ready listeners: the socket was never lost
    const i = conn.sent.findIndex((b) => b.sync);
    expect(i).toBeGreaterThanOrEqual(0);
    conn.answers[i].resolve(decodeServer(pb.ServerMessage.encode({ reply: { gameId: 'g1', version: 0, clock: { redMs: 50000, blackMs: 60000, running: 1, serverTimeMs: 9 } } }).finish()));
    await Promise.resolve();
    await Promise.resolve();
    expect(g.reconnecting).toBe(false);
    expect(g.clock.running).toBe('r');
    expect(g.clock.red).toBe(50000);
  });

  it('a finished game is not paused when the link goes down', () => {
    const { conn, g } = setup();
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: EventKind.GAME_ENDED, side: 1, result: { outcome: 2, reason: 'resignation' } } });
    conn.setStatus('reconnecting');
    expect(g.reconnecting).toBe(false);
  });

  it('a move of ours made in another tab first: this page says its own was not played', () => {
    const { conn, g } = setup();
    g.move('h2e2');
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: 1, side: 1, move: { ply: 1, iccs: 'h0g2' } } });
    expect(g.pending).toBeNull();
    expect(g.error).toBe(t('movedElsewhere'));
    expect(g.moves.map((m) => m.iccs)).toEqual(['h0g2']);
    const other = setup();
    other.g.move('h2e2');
    other.conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: 1, side: 1, move: { ply: 1, iccs: 'h2e2' } } });
    expect(other.g.error).toBe(''); // its own move, however the event came
  });

  it('asks for quick reconnects while its game is live, for a player or a spectator, not once it is over nor before it is loaded', () => {
    const watcher = new FakeConn();
    new GameModel(watcher as never, 'g1');
    const [watching] = [...watcher.urgent];
    expect(watching()).toBe(false); // nothing known yet: maybe a finished game
    watcher.push({ gameState: state({ you: 0 }) });
    expect(watching()).toBe(true);
    watcher.push({ gameEvent: { gameId: 'g1', version: 1, kind: EventKind.GAME_ENDED, side: 1, result: { outcome: 2, reason: 'resignation' } } });
    expect(watching()).toBe(false);
    const finished = new FakeConn();
    new GameModel(finished as never, 'g1');
    finished.push({ gameState: state({ you: 0, result: { outcome: 2, reason: 'resignation' } }) });
    expect([...finished.urgent][0]()).toBe(false);
    const { conn } = setup();
    const [live] = [...conn.urgent];
    expect(live()).toBe(true);
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: EventKind.GAME_ENDED, side: 1, result: { outcome: 2, reason: 'resignation' } } });
    expect(live()).toBe(false);
  });

  it('says which ply a move is meant for, and drops it quietly when a takeback came first', async () => {
    const { conn, g } = setup();
    g.move('h2e2');
    const i = conn.sent.findIndex((b) => b.move);
    expect(conn.sent[i].move!.ply).toBe(1);
    conn.answers[i].reject(new RequestError(ErrorCode.POSITION_CHANGED, 'this move was meant for ply 1, but the game is at ply 3'));
    await Promise.resolve();
    await Promise.resolve();
    expect(g.pending).toBeNull();
    expect(g.error).toBe('');
  });

  it('names a chat line refused for a blocked word, apart from the rate limit', async () => {
    const { conn, g } = setup();
    const blocked = g.say('bad word');
    conn.answers[conn.answers.length - 1].reject(new RequestError(ErrorCode.CHAT_BLOCKED_WORD, 'the line contains a word this server does not allow'));
    expect(await blocked).toBe(t('chatBlockedWord'));
    const fast = g.say('again');
    conn.answers[conn.answers.length - 1].reject(new RequestError(ErrorCode.CHAT_NOT_ALLOWED, 'at most 5 lines in 10 s'));
    expect(await fast).not.toBe(t('chatBlockedWord'));
  });

  it('tells a chat line refused for not watching the game apart from a malformed line', async () => {
    const { conn, g } = setup();
    const unwatched = g.say('hello');
    conn.answers.at(-1)!.reject(new RequestError(ErrorCode.BAD_REQUEST, 'watch the game before writing in its chat'));
    expect(await unwatched).toBe('Watch the game before writing in its chat.');
    const long = g.say('x'.repeat(300));
    conn.answers.at(-1)!.reject(new RequestError(ErrorCode.BAD_REQUEST, 'a chat line has at most 200 characters'));
    expect(await long).toBe(t('chatBadLine'));
    setLang('zh');
    try {
      const again = g.say('你好');
      conn.answers.at(-1)!.reject(new RequestError(ErrorCode.BAD_REQUEST, 'watch the game before writing in its chat'));
      expect(await again).toBe('请先进入观战再发言。');
    } finally {
      setLang('en');
    }
  });

  it('a move limit request ends a standing takeback proposal', () => {
    const { conn, g } = setup();
    conn.push({ gameState: state({ version: 1, takebacksAllowed: true, takebackProposedBy: 2, moves: [{ ply: 1, iccs: 'h2e2' }] }) });
    expect(g.takebackBy).toBe('b');
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: EventKind.MOVE_LIMIT_REQUESTED, side: 2 } });
    expect(g.takebackBy).toBeNull();
  });

  it('counts the first-move deadline down from the state, until both sides have moved', () => {
    const conn = new FakeConn();
    const g = new GameModel(conn as never, 'g1');
    const t0 = performance.now();
    conn.push({ gameState: state({ firstMoveDueInMs: 600000 }) });
    const left = g.firstMoveDueInMs(t0 + 1000)!;
    expect(left).toBeGreaterThan(598000);
    expect(left).toBeLessThanOrEqual(599000 + 50);
    expect(g.firstMoveDueInMs(t0 + 700000)).toBe(0); // past it: zero, never negative
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: 1, side: 1, move: { ply: 1, iccs: 'h2e2' } } });
    expect(g.firstMoveDueInMs()).not.toBeNull(); // Black's first move is still due
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: 1, side: 2, move: { ply: 2, iccs: 'h9g7' } } });
    expect(g.firstMoveDueInMs()).toBeNull();
    const casual = setup().g;
    expect(casual.firstMoveDueInMs()).toBeNull();
  });

  it.each([
    ['STORAGE_UNAVAILABLE', ErrorCode.STORAGE_UNAVAILABLE],
    ['NODE_NOT_ANSWERING', ErrorCode.NODE_NOT_ANSWERING],
  ])('sends a move refused with %s again, with the same id; another error ends it', async (_name, code) => {
    vi.useFakeTimers();
    try {
      const { conn, g } = setup();
      g.move('h2e2');
      const first = conn.sent.length - 1;
      const id = conn.sent[first].move!.clientMoveId;
      conn.answers[first].reject(new RequestError(code, 'retry'));
      await vi.advanceTimersByTimeAsync(999);
      expect(conn.sent.length).toBe(first + 1); // not yet
      await vi.advanceTimersByTimeAsync(1);
      expect(conn.sent.length).toBe(first + 2);
      expect(conn.sent[first + 1].move!.clientMoveId).toBe(id);
      expect(conn.sent[first + 1].move!.iccs).toBe('h2e2');
      expect(g.pending?.retries).toBe(1);
      expect(g.error).toBe('');
      conn.answers[first + 1].reject(new RequestError(ErrorCode.ILLEGAL_MOVE, 'no'));
      await vi.advanceTimersByTimeAsync(5000);
      expect(conn.sent.length).toBe(first + 2);
      expect(g.pending).toBeNull();
      expect(g.error).not.toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for the sync again while the game moves to another node, without showing an error', async () => {
    vi.useFakeTimers();
    try {
      const { conn, g } = setup();
      const resync = () => (g as unknown as { resync(): Promise<void> }).resync();
      const syncs = () => conn.sent.filter((b) => b.sync).length;
      void resync();
      expect(syncs()).toBe(1);
      conn.answers[conn.answers.length - 1].reject(new RequestError(ErrorCode.STORAGE_UNAVAILABLE, 'the game moved to another node; retry'));
      await vi.advanceTimersByTimeAsync(1000);
      expect(syncs()).toBe(2);
      expect(g.error).toBe('');
      conn.answers[conn.answers.length - 1].reject(new RequestError(ErrorCode.NOT_YOUR_GAME, 'no'));
      await vi.advanceTimersByTimeAsync(5000);
      expect(syncs()).toBe(2);
      expect(g.error).not.toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  it('tracks captures, draw offers and the end', () => {
    const { conn, g } = setup();
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: 1, side: 1, move: { ply: 1, iccs: 'b2b9', capture: true } } });
    expect(g.captured).toEqual([{ owner: 'b', type: 'N', wasDark: false }]);
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: 2, side: 1 } });
    expect(g.drawOfferBy).toBe('r');
    conn.push({ gameEvent: { gameId: 'g1', version: 3, kind: 1, side: 2, move: { ply: 2, iccs: 'a9a8' } } });
    expect(g.drawOfferBy).toBeNull();
    conn.push({ gameEvent: { gameId: 'g1', version: 4, kind: 4, result: { outcome: 2, reason: 'resignation' } } });
    expect(g.over).toBe(true);
    expect(g.myTurn()).toBe(false);
  });

  it('takebacks: proposed, declined until the next move, lapsing on a move; the proposer may ask again once the opponent moved', () => {
    const { conn, g } = setup(); // a rated game by default: no takebacks
    expect(g.canProposeTakeback()).toBe(false);
    conn.push({ gameState: state({ takebacksAllowed: true, timeGiftMs: 15000 }) });
    expect(g.takebacksAllowed).toBe(true);
    expect(g.timeGiftMs).toBe(15000);
    expect(g.canProposeTakeback()).toBe(false); // nothing of Red's to take back yet
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: EventKind.MOVE, side: 1, move: { ply: 1, iccs: 'h2e2' } } });
    expect(g.canProposeTakeback()).toBe(true);
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: EventKind.TAKEBACK_PROPOSED, side: 1 } });
    expect(g.takebackBy).toBe('r');
    expect(g.canProposeTakeback()).toBe(false); // it stands
    conn.push({ gameEvent: { gameId: 'g1', version: 3, kind: EventKind.TAKEBACK_DECLINED, side: 2 } });
    expect(g.takebackBy).toBeNull();
    expect(g.takebackDeclined).toBe(true);
    expect(g.canProposeTakeback()).toBe(false); // not again before Black moves
    conn.push({ gameEvent: { gameId: 'g1', version: 4, kind: EventKind.MOVE, side: 2, move: { ply: 2, iccs: 'h9g7' } } });
    expect(g.takebackDeclined).toBe(false);
    expect(g.canProposeTakeback()).toBe(true);
    // Black's proposal lapses when Red moves instead of answering.
    conn.push({ gameEvent: { gameId: 'g1', version: 5, kind: EventKind.TAKEBACK_PROPOSED, side: 2 } });
    expect(g.takebackBy).toBe('b');
    expect(g.canProposeTakeback()).toBe(false); // Red answers with Accept instead
    conn.push({ gameEvent: { gameId: 'g1', version: 6, kind: EventKind.MOVE, side: 1, move: { ply: 3, iccs: 'h0g2' } } });
    expect(g.takebackBy).toBeNull();
    // A proposal standing in the state (a reload), and one ended by the game's end.
    conn.push({ gameState: state({ version: 7, takebacksAllowed: true, takebackProposedBy: 2, moves: [{ ply: 1, iccs: 'h2e2' }, { ply: 2, iccs: 'h9g7' }] }) });
    expect(g.takebackBy).toBe('b');
    conn.push({ gameEvent: { gameId: 'g1', version: 8, kind: EventKind.GAME_ENDED, result: { outcome: 2, reason: 'resignation' } } });
    expect(g.takebackBy).toBeNull();
    expect(g.canProposeTakeback()).toBe(false);
  });

  it('offers no takeback the server would refuse: while a move limit on request runs, or in Jieqi over a reveal or a face-down capture', () => {
    const { conn, g } = setup();
    const mv = (ply: number, iccs: string, reveal = '') => ({ ply, iccs, reveal });
    conn.push({ gameState: state({ version: 1, takebacksAllowed: true, moves: [mv(1, 'h2e2')], fen: XIANGQI_START.replace(' w ', ' b '), requestedMoveLimit: { limitPlies: 40, requestedBy: 2 } }) });
    expect(g.canProposeTakeback()).toBe(false); // the limit runs
    conn.push({ gameState: state({ version: 2, takebacksAllowed: true, moves: [mv(1, 'h2e2')], fen: XIANGQI_START.replace(' w ', ' b ') }) });
    expect(g.canProposeTakeback()).toBe(true);
    // Jieqi, Red's page: Red's face-down pawn-square piece turned out a chariot, Black's a soldier.
    const jieqi = (version: number, moves: object[], turn: 'w' | 'b') =>
      conn.push({ gameState: state({ version, variant: 2, takebacksAllowed: true, startFen: JIEQI_START, fen: JIEQI_START.replace(' w ', ` ${turn} `), moves }) });
    jieqi(3, [mv(1, 'a3a4R', 'R')], 'b');
    expect(g.canProposeTakeback()).toBe(false); // it would hide the chariot again
    jieqi(4, [mv(1, 'a3a4R', 'R'), mv(2, 'i6i5P', 'P'), mv(3, 'a4a5')], 'b');
    expect(g.canProposeTakeback()).toBe(true); // a face-up piece's move
    jieqi(5, [mv(1, 'a3a4R', 'R'), mv(2, 'i6i5P', 'P'), mv(3, 'a4a5'), mv(4, 'i5i4')], 'w');
    expect(g.canProposeTakeback()).toBe(true); // both plies undone are face-up moves
    jieqi(6, [mv(1, 'a3a4R', 'R'), mv(2, 'i6i5P', 'P')], 'w');
    expect(g.canProposeTakeback()).toBe(false); // Black's reply, undone too, was a reveal
    jieqi(7, [mv(1, 'a3a4R', 'R'), mv(2, 'i6i5P', 'P'), mv(3, 'a4a6')], 'b');
    expect(g.canProposeTakeback()).toBe(false); // the chariot took a face-down piece
  });

  it('a takeback ends a standing draw offer at once (docs/protocol.md), not only once the new state came', () => {
    const { conn, g } = setup();
    conn.push({ gameState: state({ takebacksAllowed: true }) });
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: EventKind.MOVE, side: 1, move: { ply: 1, iccs: 'h2e2' } } });
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: EventKind.DRAW_OFFERED, side: 2 } });
    conn.push({ gameEvent: { gameId: 'g1', version: 3, kind: EventKind.TAKEBACK_PROPOSED, side: 1 } });
    expect(g.drawOfferBy).toBe('b');
    conn.push({ gameEvent: { gameId: 'g1', version: 4, kind: EventKind.TAKEN_BACK, side: 2, pliesUndone: 1, fen: XIANGQI_START } });
    expect(g.drawOfferBy).toBeNull();
  });

  it('taken back: the last plies go, the position comes from the event, the pending move is dropped, the full state is fetched', () => {
    const { conn, g } = setup();
    conn.push({ gameState: state({ you: 2, takebacksAllowed: true }) }); // Black's page
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: EventKind.MOVE, side: 1, move: { ply: 1, iccs: 'h2e2' } } });
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: EventKind.MOVE, side: 2, move: { ply: 2, iccs: 'h9g7' } } });
    conn.push({ gameEvent: { gameId: 'g1', version: 3, kind: EventKind.TAKEBACK_PROPOSED, side: 1 } });
    expect(g.moves.length).toBe(2);
    const watches = conn.sent.filter((b) => b.watchGame).length;
    conn.push({
      gameEvent: {
        gameId: 'g1', version: 4, kind: EventKind.TAKEN_BACK, side: 2, pliesUndone: 2, fen: XIANGQI_START,
        clock: { redMs: 55000, blackMs: 58000, running: 1, serverTimeMs: 1 },
      },
    });
    expect(g.moves).toEqual([]);
    expect(g.fen).toBe(XIANGQI_START);
    expect(g.position.turn).toBe('r');
    expect(g.takebackBy).toBeNull();
    expect(g.clock.red).toBe(55000);
    expect(g.clock.running).toBe('r');
    expect(conn.sent.filter((b) => b.watchGame).length).toBe(watches + 1);
    // One ply: Red's move while Black's reply was still on its way is dropped too.
    conn.push({ gameEvent: { gameId: 'g1', version: 5, kind: EventKind.MOVE, side: 1, move: { ply: 1, iccs: 'b2e2' } } });
    g.move('h9g7');
    expect(g.pending).not.toBeNull();
    conn.push({ gameEvent: { gameId: 'g1', version: 6, kind: EventKind.TAKEN_BACK, side: 2, pliesUndone: 1 } }); // no FEN: rebuilt
    expect(g.pending).toBeNull();
    expect(g.moves).toEqual([]);
    expect(g.position.board[2 * 9 + 1]?.type).toBe('C'); // the cannon is back on b2
  });

  it('stops offering takebacks and gifts of time once the server\'s allowance is used up', () => {
    const { conn, g } = setup(); // Red's page
    const moved = [{ ply: 1, iccs: 'h2e2' }];
    conn.push({ gameState: state({ version: 1, takebacksAllowed: true, takebacksLeft: 1, timeGiftMs: 15000, timeGiftsLeft: 1, moves: moved, fen: XIANGQI_START.replace(' w ', ' b ') }) });
    expect(g.canProposeTakeback()).toBe(true);
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: EventKind.TAKEBACK_PROPOSED, side: 1 } });
    conn.push({ gameEvent: { gameId: 'g1', version: 3, kind: EventKind.TAKEN_BACK, side: 2, pliesUndone: 1, fen: XIANGQI_START } });
    expect(g.takebacksLeft).toBe(0); // Black accepted Red's last one
    conn.push({ gameEvent: { gameId: 'g1', version: 4, kind: EventKind.MOVE, side: 1, move: { ply: 1, iccs: 'h2e2' } } });
    expect(g.canProposeTakeback()).toBe(false);
    // Black's gift leaves Red's allowance alone; Red's own uses it.
    conn.push({ gameEvent: { gameId: 'g1', version: 5, kind: EventKind.TIME_GIVEN, side: 2 } });
    expect(g.timeGiftsLeft).toBe(1);
    conn.push({ gameEvent: { gameId: 'g1', version: 6, kind: EventKind.TIME_GIVEN, side: 1 } });
    expect(g.timeGiftsLeft).toBe(0);
    // A spectator's state has no allowance.
    conn.push({ gameState: state({ version: 6, you: 0, takebacksAllowed: true, takebacksLeft: 0, timeGiftsLeft: 0 }) });
    expect(g.canProposeTakeback()).toBe(false);
  });

  it('time given: both clocks come from the event and the running one keeps running', () => {
    const { conn, g } = setup();
    conn.push({ gameState: state({ timeGiftMs: 15000 }) });
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: EventKind.TIME_GIVEN, side: 1, clock: { redMs: 59000, blackMs: 75000, running: 1, serverTimeMs: 5 } } });
    expect(g.clockNow('b')).toBe(75000);
    expect(g.clock.running).toBe('r');
    expect(g.version).toBe(1);
  });

  it('says why a takeback or time gift is refused (English: the server\'s reason)', async () => {
    const { conn, g } = setup();
    const done = g.action('proposeTakeback');
    expect(conn.sent.at(-1)).toEqual({ proposeTakeback: { gameId: 'g1' } });
    conn.answers.at(-1)!.reject(new RequestError(ErrorCode.TAKEBACK_NOT_ALLOWED, 'no takebacks in rated games'));
    await done;
    expect(g.error).toBe('No takebacks in rated games.');
    setLang('zh');
    try {
      // The reason in Chinese too (the server words it in English only), the general text for one not known.
      expect(errorText({ code: ErrorCode.TAKEBACK_NOT_ALLOWED, message: 'no takebacks in rated games' }, 'zh')).toBe('计等级分的对局不能悔棋。');
      expect(errorText({ code: ErrorCode.TAKEBACK_NOT_ALLOWED, message: 'no more than 3 takebacks for a player in one game' }, 'zh')).toBe('每局每方最多悔棋 3 次。');
      expect(errorText({ code: ErrorCode.GIVE_TIME_NOT_ALLOWED, message: 'no time can be given in tournament games' }, 'zh')).toBe('比赛对局不能送时。');
      expect(errorText({ code: ErrorCode.TAKEBACK_NOT_ALLOWED, message: 'something new' }, 'zh')).toBe('现在不能悔棋。');
    } finally {
      setLang('en');
    }
    const gift = g.action('giveTime');
    expect(conn.sent.at(-1)).toEqual({ giveTime: { gameId: 'g1' } });
    conn.answers.at(-1)!.reject(new RequestError(ErrorCode.GIVE_TIME_NOT_ALLOWED, '')); // no reason given
    await gift;
    expect(g.error).toBe('No time can be given now.');
  });

  it('runs the clock of the side to move only', () => {
    const { g } = setup();
    expect(g.clockNow('b')).toBe(60000);
    expect(g.clockNow('r')).toBeLessThanOrEqual(60000);
  });
});

describe('helpers', () => {
  it('says why a request was rate-limited, in the server\'s words (English)', () => {
    expect(errorText({ code: 3, message: 'too many wrong passwords for this account: try again in a minute' }, 'en')).toBe(
      'Too many wrong passwords for this account: try again in a minute.',
    );
    expect(errorText({ code: 7, message: 'wrong name or password' }, 'en')).toBe(t('error.BAD_CREDENTIALS'));
    // Chinese keeps the translated general text for a reason it does not know (the server's message is English).
    expect(errorText({ code: 3, message: 'slow down' }, 'zh')).toBe(t('error.RATE_LIMITED'));
  });
  it('words in Chinese the codes and reasons that had only the server\'s English; English keeps them', () => {
    const cases: [number, string, string][] = [
      [3, 'too many wrong passwords for this account: try again in a minute', '该账号密码错误次数过多，请一分钟后再试。'],
      [3, 'slow down: too many frames per second', '操作太频繁，请放慢速度。'],
      [5, 'log in first', '请先登录。'],
      [6, 'invalid or expired token', '登录已失效，请重新登录。'],
      [1, 'binary frames only', '客户端发送的数据无法识别，请刷新页面后重试。'],
      [11, 'you do not play this game', '你不是本局棋手，不能进行此操作。'],
      [21, 'internal error', '服务器内部错误，请稍后重试。'],
      [21, 'the move could not be judged', '服务器未能判定这步棋，请重试。'],
      [9, 'watching too many games at once (at most 20): unwatch_game one first', '同时观看的对局太多（最多 20 局），请先退出一局。'],
      [9, 'rating range: min above max', '等级分范围有误：下限高于上限。'],
      [9, "user_name: not a player's name", '没有这个用户名的棋手。'],
      [9, 'time control: initial 1 s..6 h, increment <= 120 s', '对局设置无效：time control: initial 1 s..6 h, increment <= 120 s'],
      [9, 'unknown ruleset', '对局设置无效：unknown ruleset'],
    ];
    setLang('zh');
    try {
      for (const [code, message, zh] of cases) expect(errorText({ code, message }, 'zh'), message).toBe(zh);
    } finally {
      setLang('en');
    }
    // English as before: the server's words for the codes that had no text.
    expect(errorText({ code: 5, message: 'log in first' }, 'en')).toBe('log in first');
    expect(errorText({ code: 21, message: 'the move could not be judged' }, 'en')).toBe('the move could not be judged');
    expect(errorText({ code: 24, message: 'no takebacks in rated games' }, 'en')).toBe('No takebacks in rated games.');
  });
  it('says why an event refused an action, in the server\'s words', () => {
    expect(apiErrorText({ status: 409, code: 'bad_state', message: 'the current round is not finished' })).toBe(
      'Not possible at this stage of the event: the current round is not finished',
    );
    expect(apiErrorText({ status: 409, code: 'bad_state' })).toBe('Not possible at this stage of the event');
    expect(apiErrorText({ status: 503, code: 'unavailable', message: 'the tournament service is not running; nothing was done, try again later' })).toBe(
      'The tournament service is not running; nothing was done, try again later.',
    );
    // In Chinese: the reasons an organiser meets, a setting by its name, a stage in words; a
    // reason not known stays the server's; the codes that had no text.
    setLang('zh');
    try {
      const refused = (message: string) => apiErrorText({ status: 409, code: 'bad_state', message });
      expect(refused('the current round is not finished')).toBe('比赛当前阶段不能这样做：本轮尚未结束');
      expect(refused("'pairing.games_per_round' can be changed only before the event starts (now: name, pairing.rounds)")).toBe(
        '比赛当前阶段不能这样做：“每轮局数”只能在比赛开始前修改',
      );
      expect(refused('3 rounds have been paired: the event cannot have fewer')).toBe('比赛当前阶段不能这样做：已编排 3 轮，轮数不能少于此数');
      expect(refused('pausing is not possible while the event is paused')).toBe('比赛当前阶段不能这样做：比赛当前状态为“已暂停”，不能进行此操作');
      expect(refused('王伟 has not withdrawn')).toBe('比赛当前阶段不能这样做：王伟 并未退赛');
      expect(refused('something new')).toBe('比赛当前阶段不能这样做：something new');
      expect(apiErrorText({ status: 503, code: 'unavailable', message: 'the tournament service is not running' })).toBe('赛事服务未运行，操作未执行，请稍后再试。');
      expect(apiErrorText({ status: 404, code: 'not_found', message: 'unknown event view' })).toBe('此服务器尚未提供该功能。');
    } finally {
      setLang('en');
    }
  });
  it('formats clocks', () => {
    expect(clockText(605_000)).toBe('10:05');
    expect(clockText(9_340)).toBe('0:09.3');
    expect(clockText(-5)).toBe('0:00.0');
  });
  it('verifies a commitment the way the server computes it', async () => {
    const a = 'PCRNAPBRANCPBPPnrpbcaphrancbpp';
    const salt = '00ff';
    const c = await sha256Hex(`jieqi-commit-v1|${a}|${salt}`);
    expect(await verifyCommitment(c, a, salt)).toBe(true);
    expect(await verifyCommitment(c, a.replace('P', 'R'), salt)).toBe(false);
  });
  it('rebuilds a finished game from its archived record', () => {
    const st = stateFromRecord({
      id: 'x', variant: 'xiangqi', result: 'red-wins', reason: 'checkmate',
      moves: [{ ply: 1, iccs: 'h2e2' }, { ply: 2, iccs: 'h9g7' }, { ply: 3, iccs: 'e2e6' }],
      red: { user_id: 'a', name: 'A', guest: true }, black: { user_id: 'b', name: 'B', guest: true },
    });
    expect(st.moves.length).toBe(3);
    expect(st.captured).toEqual([{ owner: 2, type: 'P', wasDark: false }]);
    expect(st.result?.outcome).toBe(1);
    expect(st.rated).toBe(false);
    expect(stateFromRecord({ id: 'r', variant: 'xiangqi', rated: true, moves: [] }).rated).toBe(true);
  });
  it('adds the reveal to the Chinese notation of records archived without it', () => {
    const st = stateFromRecord({
      id: 'j', variant: 'jieqi', result: 'red-wins', reason: 'resignation',
      moves: [
        { ply: 1, iccs: 'a3a4R', chinese: '兵九进一' },
        { ply: 2, iccs: 'a6a5n', chinese: '卒1进1' },
        { ply: 3, iccs: 'a4a5', chinese: '车九进一' },
        { ply: 4, iccs: 'i6i5p', chinese: '卒9进1(翻卒)' },
      ],
      red: { user_id: 'a', name: 'A', guest: true }, black: { user_id: 'b', name: 'B', guest: true },
    });
    expect(st.moves.map((m) => m.chinese)).toEqual(['兵九进一(翻车)', '卒1进1(翻马)', '车九进一', '卒9进1(翻卒)']);
  });
});
