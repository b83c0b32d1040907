// The socket stand-in and the game state the model tests start from (test/model.test.ts,
// test/premove.test.ts).
import { GameModel } from '../src/game/model';
import { pb, decodeServer, type ClientBody, type ServerMessage } from '../src/net/proto';
import { XIANGQI_START } from '../src/rules/board';

// A stand-in for the socket: records requests, lets the test push server messages.
export class FakeConn {
  status = 'open';
  rttMs = 40;
  sent: ClientBody[] = [];
  // The answer to each request, to settle: reject(new RequestError(…)) as the server would.
  answers: { resolve: (m: ServerMessage) => void; reject: (e: Error) => void }[] = [];
  private msg = new Set<(m: ServerMessage) => void>();
  onMessage(fn: (m: ServerMessage) => void) {
    this.msg.add(fn);
    return () => this.msg.delete(fn);
  }
  private ready = new Set<() => void>();
  onReady(fn: () => void) {
    this.ready.add(fn);
    return () => this.ready.delete(fn);
  }
  // The link came back: the page resyncs (Connection calls these after a reconnect).
  reconnect() {
    for (const fn of this.ready) fn();
  }
  private statusFns = new Set<(s: string) => void>();
  onStatus(fn: (s: string) => void) {
    this.statusFns.add(fn);
    return () => this.statusFns.delete(fn);
  }
  // The link's state changes ('reconnecting' while it is down, 'open' once back, before the
  // ready listeners: reconnect() then resyncs).
  setStatus(s: string) {
    this.status = s;
    for (const fn of this.statusFns) fn(s);
  }
  urgent = new Set<() => boolean>();
  urgentReconnectsWhile(live: () => boolean) {
    this.urgent.add(live);
    return () => this.urgent.delete(live);
  }
  request(body: ClientBody) {
    this.sent.push(body);
    return new Promise<ServerMessage>((resolve, reject) => this.answers.push({ resolve, reject }));
  }
  push(body: object) {
    const m = decodeServer(pb.ServerMessage.encode(body).finish());
    for (const fn of this.msg) fn(m);
  }
}

export const state = (over: object = {}) => ({
  gameId: 'g1',
  version: 0,
  variant: 1,
  red: { userId: 'u1', name: 'A' },
  black: { userId: 'u2', name: 'B' },
  you: 1,
  startFen: XIANGQI_START,
  fen: XIANGQI_START,
  clock: { redMs: 60000, blackMs: 60000, running: 1, serverTimeMs: 1 },
  result: { outcome: 0 },
  takebacksLeft: 10, // the player's allowance as a new game's state has it
  timeGiftsLeft: 20,
  ...over,
});

export function setup() {
  const conn = new FakeConn();
  const g = new GameModel(conn as never, 'g1');
  conn.push({ gameState: state() });
  return { conn, g };
}

