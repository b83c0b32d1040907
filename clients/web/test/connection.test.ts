// Connection's link states without a browser: a stand-in WebSocket, fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Connection } from '../src/net/connection';
import { ErrorCode, pb } from '../src/net/proto';

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  binaryType = '';
  sent: { requestId: number; ping?: unknown; hello?: unknown }[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(frame: Uint8Array) {
    this.sent.push(pb.ClientMessage.decode(frame) as never);
  }
  close() {
    this.readyState = 3;
  }
  accept() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  // The server's answer to the request sent `k`-th on this socket.
  answer(k: number, body: object) {
    const bytes = pb.ServerMessage.encode({ requestId: this.sent[k].requestId, ...body }).finish();
    this.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
  }
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  const store = new Map<string, string>();
  vi.stubGlobal('localStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => store.set(k, v), removeItem: (k: string) => store.delete(k) });
  // window's timers are the (fake) global ones.
  vi.stubGlobal('window', { addEventListener() {}, setTimeout, clearTimeout, setInterval, clearInterval });
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('Connection', () => {
  // A half-open link: the socket stays open, the server's answers stop. The clocks used to run on
  // until the ping timed out (up to 11 s after the last answer).
  it('calls the link stalled after a ping unanswered 3.5 s, open again when the pong comes, and gives it up at 6 s', async () => {
    localStorage.setItem('xq.token', 'tok'); // signed in: a lost link is redialled
    const c = new Connection('ws://x/ws');
    const seen: string[] = [];
    c.onStatus((s) => seen.push(s));
    const ws = FakeSocket.all[0];
    ws.accept();
    ws.answer(0, { reply: { user: { userId: 'u1', name: 'A' } } });
    await flush();
    expect(c.status).toBe('open');
    expect(ws.sent[1].ping).toBeTruthy();
    await vi.advanceTimersByTimeAsync(3499);
    expect(c.status).toBe('open');
    await vi.advanceTimersByTimeAsync(1);
    expect(c.status).toBe('stalled');
    await vi.advanceTimersByTimeAsync(1000);
    ws.answer(1, { pong: { clientTimeMs: 1, serverTimeMs: 1 } });
    await flush();
    expect(c.status).toBe('open'); // the same socket: no redial
    expect(c.rttMs).toBe(0); // 4.5 s was the stall's, not the link's round trip
    expect(FakeSocket.all.length).toBe(1);
    // The next ping (at 5 s) is never answered: stalled at 8.5 s, given up at 11 s.
    await vi.advanceTimersByTimeAsync(500 + 3500);
    expect(c.status).toBe('stalled');
    await vi.advanceTimersByTimeAsync(2500);
    expect(c.status).toBe('reconnecting');
    expect(seen).toEqual(['open', 'stalled', 'open', 'stalled', 'reconnecting']);
  });

  it('a slow link (pongs after 1 s) is never called stalled', async () => {
    const c = new Connection('ws://x/ws');
    const seen: string[] = [];
    c.onStatus((s) => seen.push(s));
    const ws = FakeSocket.all[0];
    ws.accept();
    await flush();
    for (let k = 0; k < 6; k++) {
      await vi.advanceTimersByTimeAsync(1000);
      ws.answer(ws.sent.length - 1, { pong: { clientTimeMs: 1, serverTimeMs: 1 } });
      await flush();
      await vi.advanceTimersByTimeAsync(4000);
    }
    expect(seen).toEqual(['open']);
  });

  // A resume refused because the server's Redis is stalled kept "reconnecting" for up to 20 s
  // with no word why.
  it('says the server\'s storage is unavailable while the resume is refused so, until one succeeds', async () => {
    localStorage.setItem('xq.token', 'tok');
    const c = new Connection('ws://x/ws');
    const first = FakeSocket.all[0];
    first.accept();
    await flush();
    expect(first.sent[0].hello).toBeTruthy();
    first.answer(0, { error: { code: ErrorCode.STORAGE_UNAVAILABLE, message: 'storage unavailable' } });
    await flush();
    expect(c.status).toBe('reconnecting');
    expect(c.storageUnavailable).toBe(true);
    expect(c.token).toBe('tok'); // kept
    await vi.advanceTimersByTimeAsync(1000); // the back-off's first wait (250 ms + jitter)
    const second = FakeSocket.all[1];
    second.accept();
    await flush();
    expect(c.storageUnavailable).toBe(true); // until an answer says otherwise
    second.answer(0, { reply: { user: { userId: 'u1', name: 'A' } } });
    await flush();
    expect(c.status).toBe('open');
    expect(c.storageUnavailable).toBe(false);
    // A link lost for another reason says nothing about the storage.
    first.answer(0, {}); // (a frame of the old socket is ignored)
    second.onclose?.();
    expect(c.status).toBe('reconnecting');
    expect(c.storageUnavailable).toBe(false);
  });
});
