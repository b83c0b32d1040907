// Links that die without a word, as a phone's does when it loses its network or changes from Wi-Fi
// to mobile data: no FIN, no RST, the bytes simply stop. Only the server's pings can find it.
import { createServer, connect } from 'node:net';
import { assert, assertEqual, test } from './lib/harness.mjs';
import { freePort } from './lib/servers.mjs';
import { T, lastIccs, newPlayer, playMove, startGame, waitForMoves } from './lib/ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A TCP relay to the game server, whose links can be made to fail the ways a phone's do:
// - cut(): silently: bytes in either direction are swallowed and a close on either side is not
//   passed on (a dead network carries no FIN either); new dials are held unanswered.
// - sever() / heal(): at once, with a word: every link is closed and new dials are refused, until
//   heal() (the page knows at once and redials; the server's game goes on without it).
// - stall() / unstall(): half-open for a while: bytes are held in both directions, then delivered
//   in order. `heldSince` is when the first byte from the page was held (its next ping).
// - stallAfterNextAnswer(): stall() as soon as the server's answer to the page's next frame has
//   been passed on (in a quiet game: right after a pong, the worst moment for the page's pings).
//   Resolves then.
// `delayMs` delays every chunk in both directions (a slow link: 2 × delayMs round trip).
async function flakyRelay(targetBase, { delayMs = 0 } = {}) {
  const target = Number(new URL(targetBase).port);
  const links = new Set();
  const held = [];
  let mode = 'up'; // up | cut | severed
  let stalled = null; // while stalled: the held writes, in order
  let stallAfter = null; // stallAfterNextAnswer: { answered: the page's frame went up, resolve }
  const r = { heldSince: 0 };
  const pass = (link, to, d) => {
    if (link.dead) return;
    const write = () => link.dead || to.write(d);
    if (stalled) {
      if (to === link.upstream && !r.heldSince) r.heldSince = Date.now();
      return void stalled.push(write);
    }
    if (delayMs) setTimeout(write, delayMs);
    else write();
    if (stallAfter && to === link.upstream) stallAfter.asked = true;
    else if (stallAfter?.asked && to === link.client) {
      const { resolve } = stallAfter;
      stallAfter = null;
      r.stall();
      resolve();
    }
  };
  const server = createServer((client) => {
    client.on('error', () => {});
    if (mode === 'cut') return void held.push(client);
    if (mode === 'severed') return void client.destroy();
    const upstream = connect(target, '127.0.0.1');
    upstream.on('error', () => {});
    const link = { client, upstream, dead: false };
    links.add(link);
    client.on('data', (d) => pass(link, upstream, d));
    upstream.on('data', (d) => pass(link, client, d));
    const end = () => {
      if (link.dead) return;
      links.delete(link);
      // After the last bytes (a slow link delivers them late, not never).
      setTimeout(() => (client.destroy(), upstream.destroy()), delayMs);
    };
    client.on('close', end);
    upstream.on('close', end);
  });
  const port = await freePort();
  await new Promise((res) => server.listen(port, '127.0.0.1', res));
  return Object.assign(r, {
    base: `http://127.0.0.1:${port}`,
    cut() {
      mode = 'cut';
      for (const l of links) l.dead = true;
    },
    sever() {
      mode = 'severed';
      for (const l of links) (l.dead = true, l.client.destroy(), l.upstream.destroy());
      links.clear();
    },
    heal() {
      mode = 'up';
    },
    stall() {
      stalled = [];
      r.heldSince = 0;
    },
    stallAfterNextAnswer() {
      return new Promise((resolve) => (stallAfter = { asked: false, resolve }));
    },
    unstall() {
      const writes = stalled ?? [];
      stalled = null;
      for (const w of writes) w();
    },
    close() {
      for (const l of links) (l.client.destroy(), l.upstream.destroy());
      for (const c of held) c.destroy();
      server.close();
    },
  });
}

// Red through the relay, Black direct, two moves played and Red's clock running: a game under way
// whose Red link the test then breaks.
async function gameUnderWay(ctx, relay, prefix) {
  const red = await newPlayer(ctx, `${prefix}_red`, {}, relay.base);
  const black = await newPlayer(ctx, `${prefix}_black`);
  await startGame(ctx, red, black, 'xiangqi');
  await playMove(red, 'h2e2');
  await waitForMoves(black, 1);
  await playMove(black, 'h9g7');
  await waitForMoves(red, 2);
  await red.page.waitForSelector('[data-testid=clock-red].running', { timeout: T });
  return { red, black };
}

test('a player whose network dies silently is shown gone to the opponent within 20 s (the page pings, so the server judges it sooner)', async (ctx) => {
  const relay = await flakyRelay(ctx.base);
  try {
    const red = await newPlayer(ctx, 'nr_red', {}, relay.base);
    const black = await newPlayer(ctx, 'nr_black');
    await startGame(ctx, red, black, 'xiangqi');
    await playMove(red, 'h2e2');
    await waitForMoves(black, 1);
    await playMove(black, 'h9g7');
    await waitForMoves(red, 2);
    await sleep(6_000); // the page's pings (every 2 s during its game) have come regularly
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

// The page's own link down, the server's game going on: the first-move countdown counted on by
// itself, as the clocks once did (review). It stands still, greyed, and once back it is the
// server's: Red moved meanwhile, so Black's own countdown started then, not when Black's page heard.
test('link down: the first-move countdown stands still, greyed; back, it is the server\'s (Black\'s runs from Red\'s move made meanwhile)', async (ctx) => {
  const relay = await flakyRelay(ctx.base);
  try {
    const red = await newPlayer(ctx, 'fm_red');
    const black = await newPlayer(ctx, 'fm_black', {}, relay.base);
    await startGame(ctx, red, black, 'xiangqi');
    const due = black.page.locator('[data-testid=first-move-due]');
    await black.page.waitForSelector('[data-testid=first-move-due][data-side=r]', { timeout: T });
    relay.sever();
    await black.page.waitForSelector('[data-testid=link-status][data-state=reconnecting]', { timeout: T });
    await black.page.waitForSelector('[data-testid=first-move-due].paused', { timeout: T });
    const frozen = Number(await due.getAttribute('data-ms'));
    assert(/^Paused on this page/.test(await due.getAttribute('title')), 'the paused countdown says why when pointed at');
    await sleep(2500);
    assertEqual(Number(await due.getAttribute('data-ms')), frozen, 'the countdown stands still while the link is down');
    await playMove(red, 'h2e2');
    await waitForMoves(red, 1);
    const moved = Date.now();
    await sleep(3000);
    relay.heal();
    await black.page.waitForSelector('[data-testid=link-status][data-state=open]', { state: 'attached', timeout: T });
    await black.page.waitForSelector('[data-testid=first-move-due][data-side=b]:not(.paused)', { timeout: T });
    const left = Number(await black.page.getAttribute('[data-testid=first-move-due]', 'data-ms'));
    const since = Date.now() - moved;
    // The server's deadline: 30 s from Red's move (the page heard of it only now).
    assert(left <= 30_000 - since + 1000, `Black's countdown runs from Red's move ${since} ms ago (shows ${left} ms)`);
    assert(left > 30_000 - since - 3000, `Black's countdown is not short either (shows ${left} ms, ${since} ms after Red's move)`);
    const a = Number(await black.page.getAttribute('[data-testid=first-move-due]', 'data-ms'));
    await sleep(1200);
    assert(Number(await black.page.getAttribute('[data-testid=first-move-due]', 'data-ms')) < a - 500, 'it counts down again');
  } finally {
    relay.close();
  }
});

// The tab's title said "● Your move" while the page was reconnecting (review): the turn may have
// passed meanwhile, and the status already said "Reconnecting".
test('link down: the tab title says reconnecting, not "● Your move" (Chinese too); back, the turn again', async (ctx) => {
  const relay = await flakyRelay(ctx.base);
  try {
    const red = await newPlayer(ctx, 'tt_red', {}, relay.base);
    const black = await newPlayer(ctx, 'tt_black');
    await startGame(ctx, red, black, 'xiangqi');
    await playMove(red, 'h2e2');
    await waitForMoves(black, 1);
    await playMove(black, 'h9g7');
    await waitForMoves(red, 2);
    const title = () => red.page.title();
    await red.page.waitForFunction(() => document.title.startsWith('● Your move · '), null, { timeout: T });
    relay.sever();
    await red.page.waitForSelector('[data-testid=link-status][data-state=reconnecting]', { timeout: T });
    await red.page.waitForFunction(() => !document.title.includes('Your move'), null, { timeout: 2000 })
      .catch(async () => assert(false, `the title still says it is Red's move: "${await title()}"`));
    assert((await title()).startsWith('↻ Reconnecting · '), `the title says the page is reconnecting (got "${await title()}")`);
    await red.page.click('[data-testid=lang-toggle]');
    await red.page.waitForFunction(() => document.title.startsWith('↻ 正在重连 · '), null, { timeout: 2000 })
      .catch(async () => assert(false, `the title in Chinese (got "${await title()}")`));
    await red.page.click('[data-testid=lang-toggle]');
    relay.heal();
    await red.page.waitForFunction(() => document.title.startsWith('● Your move · '), null, { timeout: T })
      .catch(async () => assert(false, `back, the title says the turn again (got "${await title()}")`));
  } finally {
    relay.close();
  }
});

// A half-open link: the server's answers stop, the socket stays open. The clocks ran on until the
// page's ping timed out (6 s after a ping, up to 11 s after the last answer; review). Now a ping
// unanswered for 3.5 s pauses them and says so, without giving the socket up; a late pong resumes
// on the same socket.
test('a half-open link pauses the clocks 3.5 s after an unanswered ping, before the socket is given up; a late answer resumes with no redial', async (ctx) => {
  const relay = await flakyRelay(ctx.base);
  try {
    const { red, black } = await gameUnderWay(ctx, relay, 'ho');
    relay.stall();
    const held = Date.now();
    while (!relay.heldSince && Date.now() - held < 7000) await sleep(50); // the page's next ping (every 2 s during its game)
    assert(relay.heldSince, 'the page pinged within 7 s');
    await red.page.waitForSelector('[data-testid=link-status][data-state=stalled]', { state: 'attached', timeout: 5000 });
    const after = (Date.now() - relay.heldSince) / 1000;
    assert(after < 4.5, `the link was called stalled ${after.toFixed(1)} s after the unanswered ping (expected 3.5 s)`);
    assertEqual(await red.page.evaluate(() => window.__drops), 0, 'the socket is not given up yet');
    assertEqual(await red.page.locator('[data-testid=clock-red].paused:not(.running)').count(), 1, 'Red\'s clock stands still, marked paused');
    assertEqual((await red.page.textContent('[data-testid=status]')).trim(), 'Reconnecting — clocks paused', 'the status says so');
    assert(/No answer from the server/.test(await red.page.textContent('[data-testid=link-status]')), 'the bar says the server does not answer');
    // The pong comes late, before the ping's 6 s timeout.
    await sleep(Math.max(0, relay.heldSince + 4800 - Date.now()));
    relay.unstall();
    await red.page.waitForSelector('[data-testid=link-status][data-state=open]', { state: 'attached', timeout: 3000 });
    await red.page.waitForSelector('[data-testid=clock-red].running:not(.paused)', { timeout: T });
    assertEqual(await red.page.evaluate(() => window.__drops), 0, 'the same socket goes on: no redial');
    assertEqual((await red.page.textContent('[data-testid=status]')).trim(), 'Your move', 'the status says the turn again');
    await playMove(red, 'b0c2');
    await waitForMoves(black, 3);
  } finally {
    relay.close();
  }
});

// The worst moment for a link to die is just after a pong: the page hears of it only once its next
// ping has waited 3.5 s. With a ping every 5 s a player's clock ran on a dead link for 8.5 s; while
// a game of theirs is on screen the page pings every 2 s, so 5.5 s.
test('during a game of yours a half-open link is shown stalled within 6 s, even when it dies just after a pong', async (ctx) => {
  const relay = await flakyRelay(ctx.base);
  try {
    const { red, black } = await gameUnderWay(ctx, relay, 'fp');
    await sleep(500); // the moves' answers are through: what goes up next is a ping
    await relay.stallAfterNextAnswer();
    const died = Date.now();
    await red.page.waitForSelector('[data-testid=link-status][data-state=stalled]', { state: 'attached', timeout: 12_000 });
    const after = (Date.now() - died) / 1000;
    assert(after < 6.2, `the link was called stalled ${after.toFixed(1)} s after it died (expected at most 2 + 3.5 s)`);
    assert(after > 3, `the link was called stalled ${after.toFixed(1)} s after it died: sooner than a ping can wait 3.5 s`);
    assertEqual(await red.page.locator('[data-testid=clock-red].paused:not(.running)').count(), 1, 'Red\'s clock stands still');
    relay.unstall();
    await red.page.waitForSelector('[data-testid=link-status][data-state=open]', { state: 'attached', timeout: 3000 });
    assertEqual(await red.page.evaluate(() => window.__drops), 0, 'the same socket goes on: no redial');
  } finally {
    relay.close();
  }
});

// A move sent on a link that had just died went unnoticed until the next ping had waited (up to
// 2 + 3.5 s later, and 5 + 3.5 s outside a game): its own missing answer now says the same, 3.5 s
// after it was sent.
test('a move sent on a link that died just after a pong marks it stalled 3.5 s after the move; let through, it is played with no redial', async (ctx) => {
  const relay = await flakyRelay(ctx.base);
  try {
    const { red, black } = await gameUnderWay(ctx, relay, 'mv');
    await sleep(500);
    await relay.stallAfterNextAnswer();
    const died = Date.now();
    await playMove(red, 'b0c2');
    const moved = Date.now();
    assert(relay.heldSince && relay.heldSince - died < 1500, 'the first frame held is the move, not the next ping');
    await red.page.waitForSelector('[data-testid=link-status][data-state=stalled]', { state: 'attached', timeout: 12_000 });
    const after = (Date.now() - moved) / 1000;
    assert(after < 4.3, `the link was called stalled ${after.toFixed(1)} s after the unanswered move (expected 3.5 s)`);
    assert(after > 3, `the link was called stalled ${after.toFixed(1)} s after the move: sooner than 3.5 s`);
    assertEqual(await red.page.locator('[data-testid=clock-black].paused:not(.running)').count(), 1, 'Black\'s clock (running since the move) stands still');
    assertEqual((await red.page.textContent('[data-testid=status]')).trim(), 'Reconnecting — clocks paused', 'the status says so');
    relay.unstall();
    await red.page.waitForSelector('[data-testid=link-status][data-state=open]', { state: 'attached', timeout: 3000 });
    await waitForMoves(black, 3);
    await waitForMoves(red, 3);
    assertEqual(await red.page.evaluate(() => window.__drops), 0, 'the same socket goes on: no redial');
  } finally {
    relay.close();
  }
});

// Pinging every 2 s costs a phone's battery and the server's time: only while it buys something.
test('the page pings every 2 s only while it shows a live game its user plays (5 s in the lobby, watching, after the end)', async (ctx) => {
  const red = await newPlayer(ctx, 'pp_red');
  const black = await newPlayer(ctx, 'pp_black');
  const watcher = await newPlayer(ctx, 'pp_watcher');
  const periodIs = (p, ms, what) =>
    p.page.waitForFunction((v) => window.__xq.conn.pingPeriodMs === v, ms, { timeout: T })
      .catch(async () => assert(false, `${what}: a ping every ${ms} ms (got ${await p.page.evaluate(() => window.__xq.conn.pingPeriodMs)})`));
  await periodIs(red, 5000, 'in the lobby');
  const id = await startGame(ctx, red, black, 'xiangqi');
  await periodIs(red, 2000, 'Red, playing');
  await periodIs(black, 2000, 'Black, playing');
  await watcher.page.goto(`${ctx.base}/#/game/${id}`);
  await watcher.page.waitForSelector('[data-testid=game-page]', { timeout: T });
  await periodIs(watcher, 5000, 'watching');
  await red.page.evaluate(() => (location.hash = '#/'));
  await red.page.waitForSelector('.shell[data-page=lobby]', { timeout: T });
  await periodIs(red, 5000, 'Red, back in the lobby while the game goes on');
  await red.page.evaluate((g) => (location.hash = `#/game/${g}`), id);
  await periodIs(red, 2000, 'Red, back on the game');
  await playMove(red, 'h2e2');
  await waitForMoves(black, 1);
  await playMove(black, 'h9g7');
  await waitForMoves(red, 2);
  await red.page.click('[data-testid=resign]');
  await red.page.click('[data-testid=confirm-resign]');
  await red.page.waitForSelector('[data-testid=result]', { timeout: T });
  await periodIs(red, 5000, 'Red, the game over');
  await periodIs(black, 5000, 'Black, the game over');
});

// A slow mobile link (1 s round trip) must not flap between "open" and "stalled".
test('a slow link (1 s round trip) is never called stalled or lost while a game is played', async (ctx) => {
  const relay = await flakyRelay(ctx.base, { delayMs: 500 });
  try {
    const red = await newPlayer(ctx, 'sl_red', {}, relay.base);
    const black = await newPlayer(ctx, 'sl_black');
    await red.page.evaluate(() => {
      window.__seen = [];
      window.__xq.conn.onStatus((s) => window.__seen.push(s));
    });
    await startGame(ctx, red, black, 'xiangqi');
    await playMove(red, 'h2e2');
    await waitForMoves(black, 1);
    await playMove(black, 'h9g7');
    await waitForMoves(red, 2);
    await sleep(12_000); // two or three pings, each answered after a second
    await playMove(red, 'b0c2');
    await waitForMoves(black, 3);
    const seen = await red.page.evaluate(() => window.__seen);
    assertEqual(seen.filter((s) => s !== 'open'), [], 'the link stayed open');
    const rtt = await red.page.evaluate(() => window.__xq.conn.rttMs);
    assert(rtt > 900, `the link was slow (ping round trip ${Math.round(rtt)} ms)`);
  } finally {
    relay.close();
  }
});

// A reconnect whose session resume is refused with STORAGE_UNAVAILABLE (the server's Redis is
// stalled) said only "reconnecting" for up to 20 s of retries (review): now it says why.
test('a resume refused because the server\'s storage is unavailable says so (English and Chinese), until it succeeds', async (ctx) => {
  const p = await newPlayer(ctx, 'st_guest');
  const bar = () => p.page.textContent('[data-testid=link-status]').then((s) => s.trim());
  ctx.pauseRedis();
  try {
    await p.page.evaluate(() => window.__xq.conn.dropForTest());
    await p.page.waitForFunction(() => /storage is unavailable/.test(document.querySelector('[data-testid=link-status]')?.textContent ?? ''), null, { timeout: T })
      .catch(async () => assert(false, `the bar says the server's storage is unavailable (got "${await bar()}")`));
    assertEqual(await bar(), "Reconnecting — the server's storage is unavailable; retrying…", 'the bar in English');
    await p.page.click('[data-testid=lang-toggle]');
    assertEqual(await bar(), '正在重连：服务器存储暂时不可用，正在重试…', 'the bar in Chinese');
    await p.page.click('[data-testid=lang-toggle]');
  } finally {
    ctx.resumeRedis();
  }
  await p.page.waitForSelector('[data-testid=link-status][data-state=open]', { state: 'attached', timeout: 20_000 });
  assertEqual(await bar(), '', 'the bar goes once the session is resumed');
});

// A move made on a link that has just died, then a reload (what a player does when the page says
// "reconnecting"): the page used to forget the move, and the player's clock ran on. It is kept for
// the tab (unsent_move.ts) and sent again under the same client_move_id: played once.
// The page's WebSocket frames go through Playwright's WebSocket route, which drops what the page
// sends while `uplinkDead` (a relay's dead link would also hold the browser's kept-alive HTTP
// connection, and the reload with it).
test('a move made on a dead link survives a reload of the page: it is sent again and played once', async (ctx) => {
  let uplinkDead = false;
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  ctx.contexts.push(context);
  await context.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (!uplinkDead) server.send(m);
    });
  });
  const page = await context.newPage();
  await page.goto(`${ctx.base}/`);
  await page.fill('[data-testid=guest-name]', 'ur_red');
  await page.click('[data-testid=guest-login]');
  await page.waitForSelector('[data-testid=user-name]', { state: 'attached', timeout: T });
  const red = { name: 'ur_red', context, page };
  const black = await newPlayer(ctx, 'ur_black');
  await startGame(ctx, red, black, 'xiangqi');
  await playMove(red, 'h2e2');
  await waitForMoves(black, 1);
  await playMove(black, 'h9g7');
  await waitForMoves(red, 2);
  uplinkDead = true;
  await playMove(red, 'b0c2');
  await sleep(500);
  assertEqual(await black.page.locator('[data-testid=move-list] li').count(), 2, 'the move did not get through');
  uplinkDead = false;
  await red.page.reload();
  await waitForMoves(black, 3);
  assertEqual(await lastIccs(black), 'b0c2', 'the move made before the reload reached the opponent');
  await waitForMoves(red, 3);
  await playMove(black, 'b9c7');
  await waitForMoves(red, 4);
  assertEqual(await black.page.locator('[data-testid=move-list] li').count(), 4, 'played once: four moves, not five');
  assertEqual(await red.page.evaluate(() => sessionStorage.getItem(`xq.unsent.${location.hash.split('/').pop()}`)), null,
    'nothing kept once the server has it');
});
