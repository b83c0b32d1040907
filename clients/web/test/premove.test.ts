import { describe, expect, it } from 'vitest';
import { GameModel } from '../src/game/model';
import { RequestError } from '../src/net/connection';
import { ErrorCode, EventKind } from '../src/net/proto';
import { premoveTargets, premoveVerdict } from '../src/game/premove';
import { parseFen, parseSquare, squareName, XIANGQI_START } from '../src/rules/board';
import { FakeConn, state } from './fake_conn';

const s = (name: string) => parseSquare(name)!;
const mv = (iccs: string) => ({ from: s(iccs.slice(0, 2)), to: s(iccs.slice(2, 4)) });

// Black's page while Red thinks.
function blackWaiting() {
  const conn = new FakeConn();
  const g = new GameModel(conn as never, 'g1');
  conn.push({ gameState: state({ you: 2 }) });
  return { conn, g };
}
const redMoves = (conn: FakeConn, version: number, iccs: string, ply = version) =>
  conn.push({ gameEvent: { gameId: 'g1', version, kind: 1, side: 1, move: { ply, iccs } } });
const movesSent = (conn: FakeConn) => conn.sent.filter((b) => b.move).map((b) => b.move!);

describe('premove targets', () => {
  it('are what the piece could reach now, own pieces included (a recapture), and only for own pieces', () => {
    const pos = parseFen(XIANGQI_START); // Red to move: Black premoves
    const rook = premoveTargets(pos, s('a9'), 'b').map(squareName).sort();
    expect(rook).toEqual(['a6', 'a7', 'a8', 'b9']); // a6: own pawn, b9: own horse
    expect(premoveTargets(pos, s('a0'), 'b')).toEqual([]); // not Black's piece
    // The horse on h9 is not blocked by colour: g7 and i7 as in a real move.
    expect(premoveTargets(pos, s('h9'), 'b').map(squareName).sort()).toEqual(['g7', 'i7']);
  });

  it('wait while the opponent is to move, then play if legal or drop', () => {
    const pos = parseFen(XIANGQI_START);
    expect(premoveVerdict(pos, mv('h9g7'), 'b')).toBe('wait');
    const after = parseFen('rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1');
    expect(premoveVerdict(after, mv('h9g7'), 'b')).toBe('play');
    expect(premoveVerdict(after, mv('h7h0'), 'b')).toBe('drop'); // the screen on h2 has gone
  });
});

describe('GameModel premove', () => {
  it('is kept while Red thinks and sent as soon as Red\'s move arrives, as a normal pending move', () => {
    const { conn, g } = blackWaiting();
    g.setPremove(mv('h9g7'));
    expect(g.premove).toEqual(mv('h9g7'));
    expect(movesSent(conn)).toEqual([]);
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: EventKind.DRAW_OFFERED, side: 1 } }); // not a move
    expect(movesSent(conn)).toEqual([]);
    redMoves(conn, 2, 'h2e2', 1);
    const sent = movesSent(conn);
    expect(sent.map((m) => m.iccs)).toEqual(['h9g7']);
    expect(sent[0].clientMoveId).toBeTruthy();
    expect(g.premove).toBeNull();
    expect(g.pending?.iccs).toBe('h9g7');
    expect(g.pending?.clientMoveId).toBe(sent[0].clientMoveId);
    // The server's MOVE event settles it like any move.
    conn.push({ gameEvent: { gameId: 'g1', version: 3, kind: 1, side: 2, move: { ply: 2, iccs: 'h9g7' }, clientMoveId: sent[0].clientMoveId } });
    expect(g.pending).toBeNull();
    expect(g.moves.map((m) => m.iccs)).toEqual(['h2e2', 'h9g7']);
  });

  it('is dropped silently when the reply makes it illegal', () => {
    const { conn, g } = blackWaiting();
    g.setPremove(mv('h7h0')); // the cannon takes the horse over the red cannon on h2 …
    redMoves(conn, 1, 'h2e2'); // … which moves away
    expect(movesSent(conn)).toEqual([]);
    expect(g.premove).toBeNull();
    expect(g.error).toBe('');
    expect(g.myTurn()).toBe(true);
  });

  it('is dropped when the reply takes the premoved piece', () => {
    const { conn, g } = blackWaiting();
    redMoves(conn, 1, 'h2e2');
    g.move('a9a8');
    const first = movesSent(conn)[0];
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: 1, side: 2, move: { ply: 2, iccs: 'a9a8' }, clientMoveId: first.clientMoveId } });
    g.setPremove(mv('e6e5')); // the centre pawn
    redMoves(conn, 3, 'e2e6', 3); // the cannon takes it
    expect(movesSent(conn).length).toBe(1);
    expect(g.premove).toBeNull();
  });

  it('may be set while one\'s own move is on its way; gets a client_move_id of its own', () => {
    const conn = new FakeConn();
    const g = new GameModel(conn as never, 'g1');
    conn.push({ gameState: state({ you: 1 }) });
    g.move('h2e2');
    g.setPremove(mv('b0c2'));
    expect(movesSent(conn).length).toBe(1); // still Black's move on the board shown
    const first = movesSent(conn)[0];
    conn.push({ gameEvent: { gameId: 'g1', version: 1, kind: 1, side: 1, move: { ply: 1, iccs: 'h2e2' }, clientMoveId: first.clientMoveId } });
    expect(g.premove).toEqual(mv('b0c2'));
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: 1, side: 2, move: { ply: 2, iccs: 'h9g7' } } });
    const sent = movesSent(conn);
    expect(sent.map((m) => m.iccs)).toEqual(['h2e2', 'b0c2']);
    expect(sent[1].clientMoveId).not.toBe(first.clientMoveId);
  });

  it('goes with a move of ours the server refuses (it was chosen to follow that move)', async () => {
    const conn = new FakeConn();
    const g = new GameModel(conn as never, 'g1');
    conn.push({ gameState: state({ you: 1 }) });
    g.move('h2e2');
    g.setPremove(mv('b0c2'));
    conn.answers[conn.answers.length - 1].reject(new RequestError(ErrorCode.ILLEGAL_MOVE, 'no'));
    await Promise.resolve();
    await Promise.resolve();
    expect(g.pending).toBeNull();
    expect(g.premove).toBeNull();
    expect(movesSent(conn).length).toBe(1);
  });

  it('is cancelled, replaced (only one), and never outlives the game', () => {
    const { conn, g } = blackWaiting();
    g.setPremove(mv('h9g7'));
    g.setPremove(mv('b9c7'));
    expect(g.premove).toEqual(mv('b9c7'));
    g.cancelPremove();
    expect(g.premove).toBeNull();
    redMoves(conn, 1, 'h2e2');
    expect(movesSent(conn)).toEqual([]);
    g.setPremove(mv('h9g7')); // our move already: played at once, as the reply had just come
    expect(movesSent(conn).map((m) => m.iccs)).toEqual(['h9g7']);
    const id = movesSent(conn)[0].clientMoveId;
    conn.push({ gameEvent: { gameId: 'g1', version: 2, kind: EventKind.MOVE, side: 2, move: { ply: 2, iccs: 'h9g7' }, clientMoveId: id } });
    g.setPremove(mv('b9c7'));
    conn.push({ gameEvent: { gameId: 'g1', version: 3, kind: EventKind.GAME_ENDED, side: 1, result: { outcome: 2, reason: 'resignation' } } });
    expect(g.premove).toBeNull();
    expect(movesSent(conn).length).toBe(1);
  });
});
