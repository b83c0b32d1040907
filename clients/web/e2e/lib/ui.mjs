// Page-level steps written the way a person uses the client: fill, click, tap.

export const T = 15_000; // generous per-step timeout on a shared 2-core machine

// `base`: the server the player's browser talks to (default: the first node).
export async function newPlayer(ctx, name, opts = {}, base = ctx.base) {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...opts });
  ctx.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`     [${name} pageerror] ${e.message}`));
  await page.goto(`${base}/`);
  await page.fill('[data-testid=guest-name]', name);
  await page.click('[data-testid=guest-login]');
  // Attached, not visible: on a phone the name is behind the header's Menu button.
  await page.waitForSelector('[data-testid=user-name]', { state: 'attached', timeout: T });
  // Counts link drops seen by the page, so tests can tell a reconnect really happened.
  await page.evaluate(() => {
    window.__drops = 0;
    window.__xq.conn.onStatus((s) => {
      if (s === 'reconnecting') window.__drops++;
    });
  });
  return { name, context, page };
}

// On a phone the header's links and switches are behind its Menu button: opens it (if it is shown
// and closed), so that a test can use them as a person would.
export async function openMenu(page) {
  const toggle = page.locator('[data-testid=menu-toggle]');
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

// Registers a new account (a unique name starting with `prefix`) in a fresh browser context.
export async function newAccount(ctx, prefix) {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  ctx.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`     [${prefix} pageerror] ${e.message}`));
  await page.goto(`${ctx.base}/`);
  const name = `${prefix}_${Date.now() % 100000}`;
  await page.fill('[data-testid=account-name]', name);
  await page.fill('[data-testid=account-password]', 'secret-pw-1');
  await page.click('[data-testid=register]');
  await page.waitForSelector('[data-testid=user-name]', { timeout: T });
  return { name, context, page };
}

// The same account signed in again in a second browser (another device); returns its page.
export async function logInElsewhere(ctx, account, password = 'secret-pw-1') {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  ctx.contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${ctx.base}/`);
  await page.fill('[data-testid=account-name]', account.name);
  await page.fill('[data-testid=account-password]', password);
  await page.click('[data-testid=login]');
  await page.waitForSelector('[data-testid=user-name]', { timeout: T });
  return page;
}

// Creates a seek from the lobby form; returns when the seek shows as ours.
export async function createSeek(p, { variant = 'xiangqi', color = 'red', minutes = 10, rated = false, ratingMin, ratingMax, repetitions = 3, paeFree, moveLimit, countedChecks, requestedLimit, requestedLimitForcingCap, captureVisibility } = {}) {
  await p.page.selectOption('[data-testid=seek-variant]', variant === 'jieqi' ? '2' : '1');
  if (captureVisibility) await p.page.selectOption('[data-testid=seek-capture-visibility]', captureVisibility);
  await p.page.setChecked('[data-testid=seek-rated]', rated);
  if (ratingMin !== undefined) await p.page.fill('[data-testid=seek-rating-min]', String(ratingMin));
  if (ratingMax !== undefined) await p.page.fill('[data-testid=seek-rating-max]', String(ratingMax));
  if (repetitions !== 3 || paeFree !== undefined || moveLimit !== undefined || countedChecks !== undefined || requestedLimit !== undefined) {
    await p.page.click('[data-testid=seek-rule-options] summary');  // opens the rule options
    await p.page.selectOption('[data-testid=seek-repetitions]', String(repetitions));
    if (paeFree !== undefined) await p.page.setChecked('[data-testid=seek-pae-free]', paeFree);
    if (moveLimit !== undefined) await p.page.fill('[data-testid=seek-move-limit]', String(moveLimit));
    if (countedChecks !== undefined) await p.page.selectOption('[data-testid=seek-counted-checks]', countedChecks);
    if (requestedLimit !== undefined) await p.page.fill('[data-testid=seek-requested-limit]', String(requestedLimit));
    if (requestedLimitForcingCap !== undefined) await p.page.fill('[data-testid=seek-requested-limit-forcing-cap]', String(requestedLimitForcingCap));
  }
  await p.page.selectOption('[data-testid=seek-color]', color === 'red' ? '1' : color === 'black' ? '2' : '0');
  await p.page.fill('[data-testid=seek-minutes]', String(minutes));
  await p.page.click('[data-testid=create-seek]');
  await p.page.waitForSelector('[data-testid=seek-list] li.mine', { timeout: T });
}

// Red creates a seek, Black accepts it from the lobby; returns the game id both are in.
export async function startGame(ctx, red, black, variant) {
  await createSeek(red, { variant, color: 'red' });
  await black.page.waitForSelector(`[data-testid=seek-list] li:has-text("${red.name}") [data-testid=accept-seek]`, { timeout: T });
  await acceptSeekOf(black, red.name);
  const [a, b] = await Promise.all([waitForGame(red), waitForGame(black)]);
  if (a !== b) throw new Error(`players are in different games: ${a} / ${b}`);
  if ((await red.page.getAttribute('[data-testid=game-page]', 'data-you')) !== 'r') throw new Error('seek owner should play red');
  return a;
}

export async function acceptSeekOf(p, ownerName) {
  const row = p.page.locator('[data-testid=seek-list] li', { hasText: ownerName });
  await row.locator('[data-testid=accept-seek]').click({ timeout: T });
}

export async function waitForGame(p) {
  await p.page.waitForSelector('[data-testid=game-page]', { timeout: T });
  return p.page.getAttribute('[data-testid=game-page]', 'data-game-id');
}

export const moveCount = (p) => p.page.locator('[data-testid=move-list] li').count();

export async function waitForMoves(p, n) {
  await p.page.waitForFunction((k) => document.querySelectorAll('[data-testid=move-list] li').length >= k, n, { timeout: T });
}

// Plays from→to by clicking the two squares (or tapping on a touch context).
export async function playMove(p, iccs, { tap = false } = {}) {
  const from = `[data-square=${iccs.slice(0, 2)}]`;
  const to = `[data-square=${iccs.slice(2, 4)}]`;
  if (tap) await p.page.tap(from);
  else await p.page.click(from);
  await p.page.waitForSelector(`[data-hint=${iccs.slice(2, 4)}]`, { timeout: T });
  if (tap) await p.page.tap(to);
  else await p.page.click(to);
}

export async function lastIccs(p) {
  return p.page.locator('[data-testid=move-list] li').last().getAttribute('data-iccs');
}

// Pieces on the board as "e0:rK" strings ("rX" = face down), sorted.
export async function boardPieces(p) {
  return p.page.$$eval('g.piece', (gs) => gs.map((g) => `${g.getAttribute('data-at')}:${g.getAttribute('data-piece')}`).sort());
}

export async function resultText(p) {
  await p.page.waitForSelector('[data-testid=result]', { timeout: T });
  return (await p.page.textContent('[data-testid=result]')).trim();
}

export const drops = (p) => p.page.evaluate(() => window.__drops);

// A browser of its own with the operator's admin token typed in, on the dashboard.
export async function openAdmin(ctx, opts = { viewport: { width: 1280, height: 900 } }) {
  const context = await ctx.browser.newContext({ locale: 'en-US', ...opts });
  ctx.contexts.push(context);
  const admin = await context.newPage();
  admin.on('pageerror', (e) => console.log(`     [admin pageerror] ${e.message}`));
  await admin.goto(`${ctx.base}/#/admin`);
  await admin.fill('[data-testid=admin-token]', ctx.adminToken);
  await admin.click('[data-testid=admin-save]');
  await admin.waitForSelector('[data-testid=admin-games]', { timeout: T });
  return admin;
}

// Clicks a button that asks first (window.confirm), answers OK, and returns the question asked:
// the organiser's steps that cannot be taken back (start the event, start a round, re-pair).
export async function clickConfirmed(page, selector, opts = {}) {
  const asked = new Promise((resolve) => page.once('dialog', (d) => { resolve(d.message()); void d.accept(); }));
  await page.click(selector, { timeout: T, ...opts });
  return asked;
}
