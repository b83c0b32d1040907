// Links that die without a word, as a phone's does when it loses its network or changes from Wi-Fi
// to mobile data: no FIN, no RST, the bytes simply stop. Only the server's pings can find it.
import { createServer, connect } from 'node:net';
import { assert, test } from './lib/harness.mjs';
import { freePort } from './lib/servers.mjs';
import { T, newPlayer, playMove, startGame, waitForMoves } from './lib/ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A TCP relay to the game server whose links can be cut silently: after cut(), bytes in either
// direction are swallowed and a close on either side is not passed on (a dead network carries no
// FIN either); new dials are held unanswered.
async function silentRelay(targetBase) {
  const target = Number(new URL(targetBase).port);
  const links = new Set();
  const held = [];
  let down = false;
  const server = createServer((client) => {
    client.on('error', () => {});
    if (down) return void held.push(client);
    const upstream = connect(target, '127.0.0.1');
    upstream.on('error', () => {});
    const link = { client, upstream, dead: false };
    links.add(link);
    client.on('data', (d) => link.dead || upstream.write(d));
    upstream.on('data', (d) => link.dead || client.write(d));
    const end = () => {
      if (link.dead) return;
      links.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  const port = await freePort();
  await new Promise((res) => server.listen(port, '127.0.0.1', res));
  return {
    base: `http://127.0.0.1:${port}`,
    cut() {
      down = true;
      for (const l of links) l.dead = true;
    },
    close() {
      for (const l of links) (l.client.destroy(), l.upstream.destroy());
      for (const c of held) c.destroy();
      server.close();
    },
  };
}

test('a player whose network dies silently is shown gone to the opponent within 20 s (the page pings, so the server judges it sooner)', async (ctx) => {
  const relay = await silentRelay(ctx.base);
  try {
    const red = await newPlayer(ctx, 'nr_red', {}, relay.base);
    const black = await newPlayer(ctx, 'nr_black');
    await startGame(ctx, red, black, 'xiangqi');
    await playMove(red, 'h2e2');
    await waitForMoves(black, 1);
    await playMove(black, 'h9g7');
    await waitForMoves(red, 2);
    await sleep(6_000); // the page's pings (every 5 s) have come regularly
    relay.cut();
    const t0 = Date.now();
    await black.page.waitForSelector('[data-testid=opponent-gone]', { timeout: 30_000 }).catch(() => {});
    const seconds = (Date.now() - t0) / 1000;
    // The server pings a silent pinging page after 6 s and drops it 6 s later (12-18 s); a client
    // that never pings keeps the 30 s idle timeout (30-45 s).
    assert(seconds < 20, `the opponent saw the dead link after ${seconds.toFixed(1)} s (expected 12-18 s)`);
    assert(seconds > 8, `the opponent saw Red gone after ${seconds.toFixed(1)} s: sooner than the server can know`);
    // Red's own page knows its link is down (its ping went unanswered) and says so.
    await red.page.waitForFunction(() => window.__drops > 0, null, { timeout: T });
  } finally {
    relay.close();
  }
});
