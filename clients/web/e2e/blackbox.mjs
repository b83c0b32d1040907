// Scenarios from a black-box review of the web client: what a person met in the lobby, on a phone
// with a long name, after being signed out elsewhere, and opening links signed out.
import { assert, assertEqual, test } from './lib/harness.mjs';
import { T, acceptSeekOf, createSeek, logInElsewhere, newAccount, newPlayer, openMenu, playMove, resultText, startGame, waitForGame, waitForMoves } from './lib/ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const overflowX = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

// Registers exactly `name` (no suffix) in a browser of its own.
async function register(ctx, name, opts = {}) {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...opts });
  ctx.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`     [${name} pageerror] ${e.message}`));
  await page.goto(`${ctx.base}/`);
  await page.fill('[data-testid=account-name]', name);
  await page.fill('[data-testid=account-password]', 'secret-pw-1');
  await page.click('[data-testid=register]');
  await page.waitForSelector('[data-testid=user-name]', { state: 'attached', timeout: T });  // a phone's is behind the Menu
  return { name, context, page };
}

// A browser that has not signed in.
async function visitor(ctx, hash, opts = {}) {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...opts });
  ctx.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`     [visitor pageerror] ${e.message}`));
  await page.goto(`${ctx.base}/${hash}`);
  return { name: 'visitor', context, page };
}

test('blackbox: Enter in the challenge field sends the challenge, never a public seek', async (ctx) => {
  const amy = await newPlayer(ctx, 'Amy');
  const ben = await newPlayer(ctx, 'Ben');
  const cat = await newPlayer(ctx, 'Cat');
  const benName = await ben.page.evaluate(() => window.__xq.user.name);
  await amy.page.fill('[data-testid=challenge-name]', benName);
  await amy.page.press('[data-testid=challenge-name]', 'Enter');
  const mine = amy.page.locator('[data-testid=seek-list] li.mine');
  await mine.waitFor({ timeout: T });
  assertEqual(await mine.count(), 1, 'one seek made');
  assertEqual(await mine.locator('[data-testid=seek-challenge-tag]').count(), 1, 'it is a challenge, not an open seek');
  await ben.page.waitForSelector('[data-testid=seek-list] li [data-testid=seek-challenge-tag]', { timeout: T });
  await sleep(2500); // a lobby poll
  assertEqual(await cat.page.locator('[data-testid=seek-list] li', { hasText: 'Amy' }).count(), 0, 'a third player sees nothing of it');
});

test('blackbox: a 20-character name on a phone: the header, lobby rows, live games and the game page fit, the name shortened', async (ctx) => {
  const longLatin = 'WWWWWWWWWWWWWWWWWWWW';
  const longChinese = '李娜李娜李娜李娜李娜李娜李娜李娜李娜李娜';
  const red = await register(ctx, longLatin, PHONE);
  const black = await register(ctx, longChinese, PHONE);
  const watcher = await newPlayer(ctx, 'Dee', PHONE);
  for (const p of [red, black]) assertEqual(await overflowX(p.page), 0, `${p.name}: the lobby fits the phone`);
  await createSeek(red, { color: 'red' });
  await black.page.waitForSelector(`[data-testid=seek-list] li:has-text("${longLatin}")`, { timeout: T });
  assertEqual(await overflowX(black.page), 0, 'the seek row of a long name fits');
  await acceptSeekOf(black, longLatin);
  const [ga, gb] = await Promise.all([waitForGame(red), waitForGame(black)]);
  assertEqual(ga, gb, 'one game');
  for (const p of [red, black]) assertEqual(await overflowX(p.page), 0, `${p.name}: the game page fits the phone`);
  await playMove(red, 'h2e2', { tap: true });
  await waitForMoves(black, 1);
  for (const p of [red, black]) {
    assertEqual(await overflowX(p.page), 0, `${p.name}: no horizontal scrolling on the game page`);
    const fits = await p.page.evaluate(() => {
      const w = window.innerWidth;
      const inside = (sel) => {
        const r = document.querySelector(sel)?.getBoundingClientRect();
        return !!r && r.left >= 0 && r.right <= w + 0.5;
      };
      return { signOut: inside('[data-testid=sign-out]'), board: inside('svg.board'), red: inside('[data-testid=bar-red]'), black: inside('[data-testid=bar-black]') };
    });
    assertEqual(fits, { signOut: true, board: true, red: true, black: true }, `${p.name}: sign out, the board and both player bars on screen`);
  }
  for (const p of [red, black]) {
    assertEqual(await p.page.getAttribute('[data-testid=user-name]', 'title'), p.name, `${p.name}: the full name in the header's title`);
  }
  const barTitle = await red.page.getAttribute('[data-testid=bar-black] .name a', 'title');
  assertEqual(barTitle, longChinese, 'the player bar keeps the full name in a title');
  // The live games list names both.
  await watcher.page.waitForSelector(`[data-testid=game-list] li[data-game="${ga}"]`, { timeout: T });
  assertEqual(await overflowX(watcher.page), 0, 'the live games row of two long names fits');
});

test('blackbox: signed out by a password change elsewhere, the page says why (English, Chinese)', async (ctx) => {
  const a = await newAccount(ctx, 'sgo');
  const other = await logInElsewhere(ctx, a);
  const token = await a.page.evaluate(() => window.__xq.conn.token);
  const r = await fetch(`${ctx.base}/api/account/password`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ password: 'secret-pw-1', new_password: 'brand-new-2' }),
  });
  assertEqual(r.status, 200, `password changed (${await r.clone().text()})`);
  await other.waitForSelector('[data-testid=account-name]', { timeout: T });
  const note = other.locator('[data-testid=signed-out-notice]');
  await note.waitFor({ timeout: T });
  assert(/signed out/.test(await note.textContent()) && /Sign in again/.test(await note.textContent()), `says why (got "${await note.textContent()}")`);
  await other.click('[data-testid=lang-toggle]');
  await other.waitForSelector('[data-testid=signed-out-notice]:has-text("已退出登录")', { timeout: T });
  await other.fill('[data-testid=account-name]', a.name);
  await other.fill('[data-testid=account-password]', 'brand-new-2');
  await other.click('[data-testid=login]');
  await other.waitForSelector('[data-testid=user-name]', { timeout: T });
  await other.click('[data-testid=sign-out]');
  await other.waitForSelector('[data-testid=account-name]', { timeout: T });
  assertEqual(await note.count(), 0, 'the note goes with the next sign-in (and a plain sign-out has none)');
});

test('blackbox: lobby errors in view, in the page\'s language, following a language switch; a seek shows its rating range', async (ctx) => {
  const host = await newAccount(ctx, 'rng');
  const guest = await newPlayer(ctx, 'Gia', { ...PHONE, locale: 'zh-CN' });
  const acct = await newAccount(ctx, 'low');
  if (!(await guest.page.textContent('[data-testid=lang-toggle]')).includes('English')) await guest.page.click('[data-testid=lang-toggle]');
  // A rated seek only for 1600 and up, from the seek form (the upper bound left blank: none).
  await createSeek(host, { color: 'red', rated: true, ratingMin: 1600 });
  const row = (p) => p.page.locator('[data-testid=seek-list] li', { hasText: host.name });
  await row(acct).waitFor({ timeout: T });
  assertEqual((await row(acct).locator('[data-testid=seek-rating-range]').textContent()).trim(), '1600–', 'the range is on the seek');
  await acceptSeekOf(acct, host.name);
  const accErr = acct.page.locator('[data-testid=lobby-error]');
  await accErr.waitFor({ timeout: T });
  assert(/1500/.test(await accErr.textContent()), `the refusal names the rating (got "${await accErr.textContent()}")`);
  assert(await accErr.isVisible() && (await accErr.boundingBox()).y < 900, 'in view');

  // The guest, on a phone in Chinese, taps Accept far down the page: told in Chinese, in view.
  await row(guest).waitFor({ timeout: T });
  await acceptSeekOf(guest, host.name);
  const err = guest.page.locator('[data-testid=lobby-error]');
  await err.waitFor({ timeout: T });
  const zh = await err.textContent();
  assert(/账号/.test(zh) && !/register or log in/.test(zh), `the guest is told in Chinese (got "${zh}")`);
  const box = await err.boundingBox();
  assert(box.y >= 0 && box.y + box.height <= 844, `the message is on screen (y ${box.y})`);
  await openMenu(guest.page);  // a phone: the switch is behind the Menu button
  await guest.page.click('[data-testid=lang-toggle]');
  await guest.page.waitForSelector('[data-testid=lobby-error]:has-text("account")', { timeout: T });
  // A challenge to nobody online: the reason in view, in English now.
  await guest.page.click('[data-testid=lobby-error-close]');
  await guest.page.fill('[data-testid=challenge-name]', 'nobody_here');
  await guest.page.click('[data-testid=challenge]');
  await guest.page.waitForSelector('[data-testid=lobby-error]:has-text("not online")', { timeout: T });
  const b2 = await err.boundingBox();
  assert(b2.y >= 0 && b2.y + b2.height <= 844, 'the challenge refusal is on screen');
});

test('blackbox: a banned account signing in reads "This account is banned." once', { needs: ['admin'] }, async (ctx) => {
  const a = await newAccount(ctx, 'bnd');
  const id = await a.page.evaluate(() => window.__xq.user.userId);
  const r = await fetch(`${ctx.base}/api/admin/users/${encodeURIComponent(id)}/ban`, { method: 'POST', headers: { 'X-Admin-Token': ctx.adminToken, 'Content-Type': 'application/json' }, body: '{}' });
  assertEqual(r.status, 200, 'banned');
  await a.page.waitForSelector('[data-testid=account-name]', { timeout: T });
  await a.page.fill('[data-testid=account-name]', a.name);
  await a.page.fill('[data-testid=account-password]', 'secret-pw-1');
  await a.page.click('[data-testid=login]');
  await sleep(1500);
  const times = await a.page.evaluate(() => document.body.innerText.split('This account is banned.').length - 1);
  assertEqual(times, 1, 'said once');
});

test('blackbox: signed out, a finished game\'s link shows its replay under the sign-in form; a live game\'s link says to sign in; signing in keeps the page', async (ctx) => {
  const red = await newPlayer(ctx, 'Roy');
  const black = await newPlayer(ctx, 'Bea');
  const live = await startGame(ctx, red, black, 'xiangqi');
  const v = await visitor(ctx, `#/game/${live}`);
  await v.page.waitForSelector('[data-testid=guest-login]', { timeout: T });
  await v.page.waitForSelector('[data-testid=live-game-sign-in]', { timeout: T });
  assertEqual(await v.page.locator('[data-testid=game-page]').count(), 0, 'no board for a live game signed out');

  await playMove(red, 'h2e2');
  await waitForMoves(black, 1);
  await playMove(black, 'h9g7');
  await waitForMoves(red, 2);
  await black.page.click('[data-testid=resign]');
  await black.page.click('[data-testid=confirm-resign]');
  await resultText(red);
  await v.page.reload();
  await v.page.waitForSelector('[data-testid=guest-login]', { timeout: T });
  assert(/Red wins: resignation/.test(await resultText(v)), 'the finished game\'s result, signed out');
  await waitForMoves(v, 2);
  await v.page.click('[data-testid=replay-first]');
  assertEqual(await v.page.textContent('[data-testid=replay-ply]'), '0/2', 'the replay steps');
  assertEqual(await v.page.locator('[data-testid=resign], [data-testid=chat-input]').count(), 0, 'read-only');
  await v.page.fill('[data-testid=guest-name]', 'Viv');
  await v.page.click('[data-testid=guest-login]');
  await v.page.waitForSelector('[data-testid=user-name]', { timeout: T });
  await v.page.waitForSelector(`[data-testid=game-page][data-game-id="${live}"]`, { timeout: T });
  assert(/Red wins: resignation/.test(await resultText(v)), 'signed in, the same game');
  // Red signs out on the game's page: the public replay stays, with no player's buttons.
  const asked = new Promise((resolve) => red.page.once('dialog', (d) => { resolve(d.message()); void d.accept(); }));
  await red.page.click('[data-testid=sign-out]');
  assert(/guest cannot sign in again/.test(await asked), 'a guest is asked before signing out');
  await red.page.waitForSelector('[data-testid=guest-login]', { timeout: T });
  assert(/Red wins: resignation/.test(await resultText(red)), 'signed out, the replay stays');
  assertEqual(await red.page.getAttribute('[data-testid=game-page]', 'data-you'), 'spectator', 'no longer as a player');
});

test('blackbox: "My games" and the game page say "Rated" only for games that counted (not an abort, not a game of fewer than 2 moves)', async (ctx) => {
  const a = await newAccount(ctx, 'cnt');
  const b = await newAccount(ctx, 'cnb');
  const play = async (moves) => {
    await a.page.goto(`${ctx.base}/#/`);
    await createSeek(a, { color: 'red', rated: true });
    await b.page.goto(`${ctx.base}/#/`);
    await acceptSeekOf(b, a.name);
    const id = await waitForGame(a);
    await waitForGame(b);
    for (let i = 0; i < moves.length; i++) {
      await playMove(i % 2 ? b : a, moves[i]);
      await Promise.all([waitForMoves(a, i + 1), waitForMoves(b, i + 1)]);
    }
    if (moves.length < 2) {
      await a.page.click('[data-testid=abort]');
      await a.page.click('[data-testid=confirm-abort]');
    }
    else {
      await b.page.click('[data-testid=resign]');
      await b.page.click('[data-testid=confirm-resign]');
    }
    await resultText(a);
    // The game page's tag, too: the seek's setting, and whether the game counted.
    const tag = a.page.locator('[data-testid=game-rated]');
    const want = moves.length < 2 ? 'Rated, not counted' : 'Rated';
    await a.page.waitForFunction((w) => document.querySelector('[data-testid=game-rated]')?.textContent.trim() === w, want, { timeout: T })
      .catch(async () => assertEqual((await tag.textContent()).trim(), want, 'the game page\'s rated tag'));
    return id;
  };
  const aborted = await play([]);
  const counted = await play(['h2e2', 'h9g7']);
  await a.page.click('[data-testid=my-games]');
  const cell = (id) => a.page.locator(`[data-testid=player-game][data-game="${id}"] [data-testid=game-rated-cell]`);
  await a.page.waitForSelector(`[data-testid=player-game][data-game="${counted}"]`, { timeout: T });
  assert(/Rated/.test(await cell(counted).textContent()), 'the counted game says Rated');
  assert(!/Rated/.test(await cell(aborted).textContent()), `the aborted one does not (got "${await cell(aborted).textContent()}")`);
});

// A player link with a typo or for no account said "Player", 1500 in both variants and no games,
// as if someone existed (review L12); a malformed id showed the server's English text.
test('blackbox: a player link for no account says so, instead of a 1500 player with no games', async (ctx) => {
  const p = await newPlayer(ctx, 'Dee');
  for (const id of ['u-0000000000000000', 'garbage', 'u-12']) {
    await p.page.goto(`${ctx.base}/#/player/${id}`);
    await p.page.waitForSelector('[data-testid=no-such-player]', { timeout: T });
    assertEqual(await p.page.locator('[data-testid=player-ratings]').count(), 0, `${id}: no ratings shown`);
  }
  // A real player's page still shows theirs.
  const me = await p.page.evaluate(() => window.__xq.user.userId);
  await p.page.goto(`${ctx.base}/#/player/${me}`);
  await p.page.waitForSelector('[data-testid=no-games]', { timeout: T });
  assertEqual(await p.page.locator('[data-testid=no-such-player]').count(), 0, 'a guest with no games is no unknown player');
});
