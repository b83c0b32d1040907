// A game through a running deployment (e.g. the compose stack behind its proxy) while the node
// owning it is killed: two people in headless Chromium play, KILL_CMD is run with the game id as
// its last argument (it must kill the game's owner node), and the game must go on: the next moves
// reach both, both move lists agree. Usage:
//   node e2e/failover.mjs BASE_URL 'KILL_CMD'     e.g. http://127.0.0.1:8080 'sh kill-owner.sh'
// Prints "N passed, N failed" like the other e2e runners; exit code 0 only if it passed.
import { execFileSync } from 'node:child_process';
import { launch } from './lib/browser.mjs';
import { boardPieces, drops, newPlayer, playMove, startGame, waitForMoves } from './lib/ui.mjs';

const [base, killCmd] = process.argv.slice(2);
if (!base || !killCmd) {
  console.log('usage: node e2e/failover.mjs BASE_URL KILL_CMD');
  process.exit(2);
}

const iccsList = (p) => p.page.$$eval('[data-testid=move-list] li', (ls) => ls.map((l) => l.getAttribute('data-iccs')));
const step = (msg) => console.log(`failover: ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// What each person sees: the link state, an error shown on the game page, the moves.
async function seen(p) {
  return p.page.evaluate(() => ({
    link: window.__xq?.link,
    drops: window.__drops,
    error: document.querySelector('[data-testid=game-page] .error')?.textContent ?? '',
    moves: [...document.querySelectorAll('[data-testid=move-list] li')].map((l) => l.getAttribute('data-iccs')),
  }));
}

async function run(ctx) {
  const red = await newPlayer(ctx, 'Rita');
  const black = await newPlayer(ctx, 'Boris');
  const id = await startGame(ctx, red, black, 'xiangqi');
  step(`game ${id} started through ${base}`);
  await playMove(red, 'h2e2');
  await Promise.all([waitForMoves(red, 1), waitForMoves(black, 1)]);
  await playMove(black, 'h9g7');
  await Promise.all([waitForMoves(red, 2), waitForMoves(black, 2)]);
  const before = await boardPieces(red);

  const t0 = Date.now();
  const out = execFileSync('sh', ['-c', `${killCmd} "$0"`, id], { encoding: 'utf8' }).trim();
  step(`kill command: ${out || '(no output)'}`);

  // The next move at once, as a person would. Until a live node holds the game (the lease,
  // --lease-ms 5 s, plus a tick) the server refuses it (STORAGE_UNAVAILABLE): the page sends it
  // again by itself once a second; should it give up and show the error, the person tries again.
  let tries = 0;
  let again = true;
  for (;;) {
    if (again) {
      tries++;
      again = false;
      await playMove(red, 'h0g2');
    }
    const both = Promise.all([waitForMoves(red, 3), waitForMoves(black, 3)]);
    if (await Promise.race([both.then(() => true, () => false), sleep(1000).then(() => false)])) break;
    const s = await seen(red);
    if (Date.now() - t0 > 20_000) throw new Error(`move 3 not played 20 s after the kill (${tries} tries; red sees ${JSON.stringify(s)})`);
    if (s.error && s.moves.length < 3) {
      step(`try ${tries}, ${Date.now() - t0} ms after the kill: "${s.error}"`);
      await red.page.click('[data-testid=game-page] .error').catch(() => {});
      again = true;
    }
  }
  step(`move 3 reached both ${Date.now() - t0} ms after the kill (${tries} tries)`);
  await playMove(black, 'i9h9');
  await Promise.all([waitForMoves(red, 4), waitForMoves(black, 4)]);
  const [lr, lb] = await Promise.all([iccsList(red), iccsList(black)]);
  const want = ['h2e2', 'h9g7', 'h0g2', 'i9h9'];
  const ok = JSON.stringify(lr.map((m) => m.slice(0, 4))) === JSON.stringify(want) && JSON.stringify(lb) === JSON.stringify(lr);
  step(`move lists: red ${lr.join(' ')} / black ${lb.join(' ')}; link drops: red ${await drops(red)}, black ${await drops(black)}`);
  if (!ok) throw new Error(`move lists differ from ${want.join(' ')}`);
  if (JSON.stringify(await boardPieces(red)) !== JSON.stringify(await boardPieces(black))) throw new Error('boards differ');
  if (JSON.stringify(before) === JSON.stringify(await boardPieces(red))) throw new Error('board did not change after the kill');
}

const { browser, close } = await launch();
const ctx = { base, browser, contexts: [] };
let failed = 0;
try {
  await run(ctx);
} catch (e) {
  failed = 1;
  console.log(`failover: FAILED: ${e.message}`);
  for (const c of ctx.contexts) for (const pg of c.pages()) console.log(`failover: a page shows ${JSON.stringify(await seen({ page: pg }).catch((x) => x.message))}`);
}
await close();
console.log(`${1 - failed} passed, ${failed} failed`);
process.exit(failed);
