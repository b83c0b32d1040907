// Accessibility scenarios (review of 2026-12-05, /docs/web-client.md "Keyboard and screen readers"):
// a game played without a mouse, what a screen reader is told as it goes.
import { join } from 'node:path';
import { assert, assertEqual, test } from './lib/harness.mjs';
import { T, acceptSeekOf, createSeek, lastIccs, newAccount, newPlayer, playMove, startGame, waitForGame, waitForMoves } from './lib/ui.mjs';
import { newOrganiser } from './tournaments.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The focused element's point and name, or null when the focus is not on the board.
const focusedPoint = (p) => p.page.evaluate(() => {
  const el = document.activeElement;
  return el?.matches('svg.board rect.hit') ? { square: el.getAttribute('data-square'), label: el.getAttribute('aria-label') } : null;
});

// Tabs from the top of the page until the board has the focus, as a keyboard user gets there.
async function tabToBoard(p) {
  await p.page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
  for (let i = 0; i < 60; i++) {
    await p.page.keyboard.press('Tab');
    const at = await focusedPoint(p);
    if (at) return at;
  }
  throw new Error(`${p.name}: Tab never reached the board`);
}

async function keys(p, ...names) {
  for (const k of names) await p.page.keyboard.press(k);
}

const announced = (p) => p.page.textContent('[data-testid=board-announce]');

test('keyboard: Tab reaches the board, arrows move the cursor as drawn (also for Black, flipped), Enter picks up and puts down, Escape puts back; points named', async (ctx) => {
  const red = await newPlayer(ctx, 'Kira');
  const black = await newPlayer(ctx, 'Kobe');
  await startGame(ctx, red, black, 'xiangqi');

  const start = await tabToBoard(red);
  assertEqual(start, { square: 'e0', label: 'e0, red king 帥' }, 'the cursor starts on Red\'s general, named');
  await keys(red, 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp');
  assertEqual(await focusedPoint(red), { square: 'h2', label: 'h2, red cannon 炮' }, 'arrows move the cursor');
  await keys(red, 'Enter');
  await red.page.waitForSelector('[data-hint=e2]', { timeout: T });
  assert(/^Picked up the red cannon 炮 on h2; it can go to .*e2/.test(await announced(red)), `pick-up said (${await announced(red)})`);
  await keys(red, 'Escape');
  await red.page.waitForSelector('[data-hint]', { state: 'detached', timeout: T });
  assertEqual(await announced(red), 'Put back.', 'Escape said');
  await keys(red, ' ', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft');
  assertEqual(await focusedPoint(red), { square: 'e2', label: 'e2, empty, can move here' }, 'a target is named so');
  await keys(red, 'Enter');
  await Promise.all([waitForMoves(red, 1), waitForMoves(black, 1)]);
  assertEqual(await lastIccs(black), 'h2e2', 'the move was played by keys');
  assertEqual((await focusedPoint(red))?.label, 'e2, red cannon 炮, last move', 'the focus stays on the board, the point re-named');

  // Black's board is drawn with Black at the bottom: left on the screen is towards file i.
  assertEqual(await tabToBoard(black), { square: 'e9', label: 'e9, black king 將' }, 'Black\'s cursor starts on its general');
  await keys(black, 'ArrowLeft', 'ArrowLeft', 'ArrowLeft');
  assertEqual((await focusedPoint(black))?.square, 'h9', 'left goes to h on a board seen from Black');
  await keys(black, 'Enter', 'ArrowRight', 'ArrowUp', 'ArrowUp');
  assertEqual((await focusedPoint(black))?.square, 'g7', 'up goes down the ranks for Black');
  await keys(black, 'Enter');
  await waitForMoves(red, 2);
  assertEqual(await lastIccs(red), 'h9g7', 'Black\'s move by keys');

  // Away from the board the arrow keys still step through the moves, as before.
  await red.page.click('[data-testid=replay-ply]');
  await keys(red, 'ArrowLeft');
  await red.page.waitForSelector('[data-testid=replay-ply]:text("1/2")', { timeout: T });
  await keys(red, 'ArrowRight');

  // In Chinese the points are named as the page names pieces.
  await black.page.click('[data-testid=lang-toggle]');
  assertEqual(await black.page.getAttribute('[data-square=e9]', 'aria-label'), 'e9，黑将', 'a point in Chinese');
  assertEqual(await black.page.getAttribute('svg.board', 'aria-label'), '棋盘', 'the board\'s name in Chinese');
});

test('keyboard: a move typed in squares or in Chinese is played on Enter; a wrong one is refused in words', async (ctx) => {
  const red = await newPlayer(ctx, 'Tina');
  const black = await newPlayer(ctx, 'Tom');
  await startGame(ctx, red, black, 'xiangqi');
  const field = (p) => p.page.locator('[data-testid=move-entry-input]');
  const error = (p) => p.page.textContent('[data-testid=move-entry-error]');
  assertEqual(await red.page.getAttribute('[data-testid=move-entry-error]', 'role'), 'alert', 'refusals go to an alert that is already there');
  await field(black).fill('h9g7');
  await field(black).press('Enter');
  assertEqual(await error(black), 'It is not your move.', 'not Black\'s move yet');
  await field(red).fill('e2e5');
  await field(red).press('Enter');
  assertEqual(await error(red), 'e2e5 is not a legal move.', 'no piece there');
  await field(red).fill('cannon');
  await field(red).press('Enter');
  assertEqual(await error(red), '"cannon" is not a move: type two squares, like h2e2, or the move in Chinese, like 炮二平五.', 'not a move at all');
  assertEqual(await field(red).getAttribute('aria-invalid'), 'true', 'the field is marked invalid');
  await field(red).fill('H2E2');
  await field(red).press('Enter');
  await waitForMoves(black, 1);
  assertEqual(await lastIccs(black), 'h2e2', 'the typed move was played');
  assertEqual(await field(red).inputValue(), '', 'the field is emptied');
  assertEqual(await error(red), '', 'no refusal left');
  await black.page.click('[data-testid=lang-toggle]');
  await field(black).fill('h9h5');
  await field(black).press('Enter');
  assertEqual(await error(black), 'h9h5 不合规则。', 'refused in Chinese');
  // The move's Chinese name, as Chinese players write it (full-width digits, traditional characters).
  await field(black).fill('马８进７');
  await field(black).press('Enter');
  await waitForMoves(red, 2);
  assertEqual(await lastIccs(red), 'h9g7', '马８进７ was played');
  await field(red).fill('炮五平九');
  await field(red).press('Enter');
  assertEqual(await error(red), 'No legal move of yours is called 炮五平九.', 'a name no legal move has (the other cannon is in the way)');
  await field(red).fill('傌二進三');
  await field(red).press('Enter');
  await waitForMoves(black, 3);
  assertEqual(await lastIccs(black), 'h0g2', '傌二進三 was played');
});

test('keyboard, Jieqi: face-down pieces are named by colour only; one is moved by keys and turns up', async (ctx) => {
  const red = await newPlayer(ctx, 'Jade');
  const black = await newPlayer(ctx, 'Joss');
  await startGame(ctx, red, black, 'jieqi');
  for (const p of [red, black]) {
    assertEqual(await p.page.getAttribute('[data-square=a0]', 'aria-label'), 'a0, face-down red piece', `${p.name}: a face-down red piece`);
    assertEqual(await p.page.getAttribute('[data-square=b9]', 'aria-label'), 'b9, face-down black piece', `${p.name}: a face-down black piece`);
  }
  // Told apart by more than colour: the ring's pattern (whole for Red, dashed for Black).
  const ring = (at) => red.page.$eval(`g.piece[data-at=${at}] .piece-ring`, (r) => {
    const cs = getComputedStyle(r);
    return { dashes: cs.strokeDasharray, width: cs.strokeWidth };
  });
  const [redRing, blackRing] = [await ring('a0'), await ring('b9')];
  assert(redRing.dashes === 'none' && blackRing.dashes !== 'none', `a face-down red piece's ring is whole, a black one's dashed (${JSON.stringify([redRing, blackRing])})`);
  await tabToBoard(red);
  await keys(red, 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowUp', 'ArrowUp', 'ArrowUp');
  assertEqual(await focusedPoint(red), { square: 'a3', label: 'a3, face-down red piece' }, 'the cursor on a face-down piece');
  await keys(red, 'Enter', 'ArrowUp', 'Enter');
  await Promise.all([waitForMoves(red, 1), waitForMoves(black, 1)]);
  const label = await red.page.getAttribute('[data-square=a4]', 'aria-label');
  assert(/^a4, red \w+ ., last move$/.test(label), `the piece moved is face up and named (${label})`);
});

test('keyboard: the analysis board is played by keys and by a typed move', async (ctx) => {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  ctx.contexts.push(context);
  const page = await context.newPage();
  const p = { name: 'analyst', context, page };
  await page.goto(`${ctx.base}/#/analysis`);
  await page.waitForSelector('[data-testid=analysis-page]', { timeout: T });
  await tabToBoard(p);
  await keys(p, 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowUp', 'Enter', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'Enter');
  await waitForMoves(p, 1);
  await page.fill('[data-testid=move-entry-input]', 'h9g7');
  await page.press('[data-testid=move-entry-input]', 'Enter');
  await waitForMoves(p, 2);
  assertEqual(await page.$$eval('[data-testid=move-list] li', (ls) => ls.map((l) => l.getAttribute('data-iccs'))), ['h2e2', 'h9g7'], 'both moves on the analysis board');
});

// Records what each live region says, as a screen reader would hear it: the text of a status,
// alert or aria-live region each time it changes to something not empty.
async function recordSaid(p) {
  await p.page.evaluate(() => {
    window.__said = [];
    const live = '[role=status], [role=alert], [role=log], [aria-live]:not([aria-live=off])';
    new MutationObserver((records) => {
      const regions = new Set(records.map((r) => (r.target.nodeType === 1 ? r.target : r.target.parentElement)?.closest(live)).filter(Boolean));
      for (const r of regions) {
        const text = r.textContent.trim();
        if (text) window.__said.push(text);
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
}
const said = (p) => p.page.evaluate(() => window.__said);
const announce = (p) => p.page.textContent('[data-testid=game-announce]').then((s) => s.trim());
async function hears(p, re, what) {
  await p.page.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid=game-announce]')?.textContent.trim() ?? ''), re.source, { timeout: T })
    .catch(async () => { throw new Error(`${p.name} should hear ${what} (${re}); the region says "${await announce(p)}"`); });
}

test('announcements: each move said once (the opponent\'s, one\'s own, a spectator\'s both), a capture, a draw offer, the result; in Chinese', async (ctx) => {
  const red = await newPlayer(ctx, 'Ada');
  const black = await newPlayer(ctx, 'Ben');
  const spec = await newPlayer(ctx, 'Cass');
  const id = await startGame(ctx, red, black, 'xiangqi');
  await spec.page.goto(`${ctx.base}/#/game/${id}`);
  await spec.page.waitForSelector('[data-testid=game-page][data-you=spectator]', { timeout: T });
  for (const p of [red, black, spec]) {
    assertEqual(await announce(p), '', `${p.name}: the region is there, quiet, before the first move`);
    await recordSaid(p);
  }
  const MATE = ['h2e2', 'i9i8', 'e2e6', 'i8i9', 'b2b5', 'i9i8', 'b5e5'];
  const move = async (i) => {
    await playMove(i % 2 ? black : red, MATE[i]);
    await Promise.all([red, black, spec].map((p) => waitForMoves(p, i + 1)));
  };

  await move(0);
  await hears(black, /^Red: 炮二平五 \(h2e2\)\. Your move\.$/, 'Red\'s move and that it is Black\'s turn');
  await hears(spec, /^Red: 炮二平五 \(h2e2\)\.$/, 'Red\'s move');
  await hears(red, /^You: 炮二平五 \(h2e2\)\.$/, 'its own move');
  await red.page.waitForTimeout(500);
  // (The first-move countdown passing to Black is said by its own region.)
  assertEqual((await said(red)).filter((s) => !/first move/.test(s)), ['You: 炮二平五 (h2e2).'], 'Red hears its own move once, and no "Sending move…"');

  await move(1);
  await hears(red, /^Black: .+ \(i9i8\)\. Your move\.$/, 'Black\'s move');
  await hears(spec, /^Black: .+ \(i9i8\)\.$/, 'Black\'s move');
  await black.page.click('[data-testid=offer-draw]');
  await hears(red, /^Draw offered by Black\.$/, 'the draw offer');
  await red.page.click('[data-testid=decline-draw]');

  await black.page.click('[data-testid=lang-toggle]');
  await move(2);
  await hears(black, /^红方：.+ \(e2e6\)，吃黑卒。轮到你走。$/, 'the capture, in Chinese');
  await hears(spec, /^Red: .+ \(e2e6\), takes the black pawn 卒\.$/, 'the capture');
  for (let i = 3; i < MATE.length; i++) await move(i);
  // The mating move and the end may come in one update or two: both are said.
  await hears(black, /将死。你输了。$/, 'the result, in Chinese');
  await hears(red, /Red wins: checkmate\. You won\.$/, 'the result');
  await hears(spec, /Red wins: checkmate\.$/, 'the result');
  const heard = await said(black);
  assert(heard.some((s) => /^红方：.+ \(b5e5\)。/.test(s)), `Black heard the mating move (${JSON.stringify(heard)})`);
  assert((await said(spec)).some((s) => /^Red: .+ \(b5e5\)\./.test(s)), 'the spectator heard the mating move');
  assertEqual(heard.filter((s) => /\(h2e2\)/.test(s)).length, 1, `Black heard Red's first move once (${JSON.stringify(heard)})`);
});

test('clocks and colours: each clock named with its side, each bar says Red/Black in words; one\'s own low time said once at 20 and 10 s, not to the opponent; in Chinese', async (ctx) => {
  const red = await newPlayer(ctx, 'Lena');
  const black = await newPlayer(ctx, 'Lars');
  // 24 seconds each: Red's clock passes 20 and 10 seconds while Red waits.
  await createSeek(red, { minutes: 0.4 });
  await acceptSeekOf(black, red.name);
  await Promise.all([waitForGame(red), waitForGame(black)]);
  for (const [c, side] of [['red', 'Red'], ['black', 'Black']]) {
    assertEqual((await red.page.textContent(`[data-testid=bar-${c}] [data-testid=bar-side]`)).trim(), side, `the ${c} bar says its colour in words`);
    assertEqual(await red.page.getByRole('timer', { name: new RegExp(`^${side} clock \\d:\\d\\d`) }).count(), 1, `the ${c} clock is named with its side`);
  }
  await playMove(red, 'h2e2');
  await waitForMoves(black, 1);
  await playMove(black, 'h9g7');
  await waitForMoves(red, 2);
  for (const p of [red, black]) await recordSaid(p);
  await black.page.click('[data-testid=lang-toggle]');
  assertEqual((await black.page.textContent('[data-testid=bar-red] [data-testid=bar-side]')).trim(), '红方', 'the colour in Chinese');
  assertEqual(await black.page.getByRole('timer', { name: /^黑方 \d:\d\d/ }).count(), 1, 'the clock\'s name in Chinese');

  await red.page.waitForSelector('[data-testid=result]', { timeout: 45_000 });
  const low = (await said(red)).filter((s) => /seconds left/.test(s));
  assertEqual(low, ['Your clock: 20 seconds left.', 'Your clock: 10 seconds left.'], 'Red hears its low time once at each mark, not every tick');
  assertEqual((await said(black)).filter((s) => /秒/.test(s)), [], 'Black is not told Red\'s low time');
});

// A clock stopped by a lost link must not be read as running down: the low-time marks are said
// from the server's reading once the page is back, once each.
test('low time and a lost link: offline across the 20 s mark nothing is said and the clock stands still; back, the server\'s clock says it once, then 10 s', async (ctx) => {
  const red = await newPlayer(ctx, 'Nora');
  const black = await newPlayer(ctx, 'Nils');
  await createSeek(red, { minutes: 0.4 }); // 24 s each
  await acceptSeekOf(black, red.name);
  await Promise.all([waitForGame(red), waitForGame(black)]);
  await playMove(red, 'h2e2');
  await waitForMoves(black, 1);
  await playMove(black, 'h9g7');
  await waitForMoves(red, 2);
  await recordSaid(red);
  const redMs = () => red.page.getAttribute('[data-testid=clock-red]', 'data-ms').then(Number);
  await red.page.waitForFunction(() => Number(document.querySelector('[data-testid=clock-red]')?.getAttribute('data-ms')) < 23_000, null, { timeout: T });
  await red.context.setOffline(true);
  await red.page.waitForSelector('[data-testid=link-status][data-state=reconnecting]', { timeout: T });
  const frozen = await redMs();
  assert(frozen > 20_500, `the link went down before the 20 s mark (${frozen} ms)`);
  await sleep(4000); // the page counting on by itself would pass 20 s now
  assertEqual((await said(red)).filter((s) => /seconds left/.test(s)), [], 'nothing said while the page is offline');
  assertEqual(await redMs(), frozen, 'Red\'s clock stands still while the page is offline');
  assertEqual(await red.page.locator('[data-testid=clock-red].paused').count(), 1, 'and is marked paused');
  await red.context.setOffline(false);
  await red.page.waitForSelector('[data-testid=link-status][data-state=open]', { state: 'attached', timeout: T });
  await red.page.waitForSelector('[data-testid=result]', { timeout: 45_000 });
  const low = (await said(red)).filter((s) => /seconds left/.test(s));
  assertEqual(low, ['Your clock: 20 seconds left.', 'Your clock: 10 seconds left.'], 'once back, each mark said once from the server\'s clock');
});

// What has the focus: its test id (or tag), 'BODY' when the focus was lost.
const focused = (p) => p.page.evaluate(() => {
  const el = document.activeElement;
  return !el || el === document.body ? 'BODY' : el.getAttribute('data-testid') || el.tagName;
});
// Waits a moment for the focus to land on `id` (it is moved once the page is drawn again).
async function focusOn(p, id, what) {
  await p.page.waitForFunction((x) => (document.activeElement?.getAttribute('data-testid') ?? '') === x, id, { timeout: 3000 })
    .catch(async () => { throw new Error(`${what}: the focus should be on ${id}, is on ${await focused(p)}`); });
}
const waitTitle = (p, title) => p.page.waitForFunction((s) => document.title === s, title, { timeout: T })
  .catch(async () => { throw new Error(`${p.name}: the title should be "${title}", is "${await p.page.title()}"`); });
const currentLink = (p) => p.page.$$eval('#site-nav [aria-current=page]', (as) => as.map((a) => a.textContent));

test('focus and orientation: a title per page, aria-current on the header link; the focus goes to the heading after a sign-in, a header link, an accepted seek, and stays after Resign, its confirmation, an answered draw offer', async (ctx) => {
  const red = await newPlayer(ctx, 'Fay');
  await waitTitle(red, 'Lobby · Xiangqi · Jieqi');
  await focusOn(red, 'page-heading', 'after signing in the focus is on the page\'s heading, not lost');
  assertEqual(await red.page.textContent('[data-testid=page-heading]'), 'Lobby', 'the heading names the page');
  assertEqual(await currentLink(red), ['Lobby'], 'the active header link is marked');
  await red.page.focus('#site-nav a[href="#/tournaments"]');
  await red.page.keyboard.press('Enter');
  await waitTitle(red, 'Tournaments · Xiangqi · Jieqi');
  await focusOn(red, 'page-heading', 'a header link leads to the new page\'s heading');
  assertEqual(await currentLink(red), ['Tournaments'], 'aria-current follows the page');
  await red.page.click('#site-nav a[href="#/"]');
  await waitTitle(red, 'Lobby · Xiangqi · Jieqi');

  const black = await newPlayer(ctx, 'Gil');
  await createSeek(red, {});
  await black.page.focus(`[data-testid=seek-list] li:has-text("${red.name}") [data-testid=accept-seek]`);
  await black.page.keyboard.press('Enter');
  await Promise.all([waitForGame(red), waitForGame(black)]);
  const game = 'Game: guest-Fay vs guest-Gil';
  await waitTitle(black, `${game} · Xiangqi · Jieqi`);
  await waitTitle(red, `● Your move · ${game} · Xiangqi · Jieqi`);
  for (const p of [red, black]) {
    await focusOn(p, 'page-heading', `${p.name}: the new game page has the focus on its heading`);
    assertEqual(await p.page.textContent('[data-testid=page-heading]'), game, `${p.name}: the game page's heading names the game`);
  }
  assertEqual(await currentLink(red), [], 'no header link is current on a game page');

  await black.page.click('[data-testid=offer-draw]');
  await red.page.focus('[data-testid=decline-draw]');
  await red.page.keyboard.press('Enter');
  await red.page.waitForSelector('[data-testid=draw-offer]', { state: 'detached', timeout: T });
  await focusOn(red, 'status', 'after declining the draw the focus is on the status line');

  await red.page.focus('[data-testid=resign]');
  await red.page.keyboard.press('Enter');
  await focusOn(red, 'confirm-resign', 'Resign hands the focus to "Really resign?"');
  await red.page.keyboard.press('Tab');
  await red.page.keyboard.press('Enter');
  await focusOn(red, 'resign', 'Cancel gives it back to Resign');
  await red.page.keyboard.press('Enter');
  await focusOn(red, 'confirm-resign', 'Resign again');
  await red.page.keyboard.press('Enter');
  await red.page.waitForSelector('[data-testid=result]', { timeout: T });
  await focusOn(red, 'result', 'after resigning the focus is on the result');

  await black.page.click('[data-testid=lang-toggle]');
  await waitTitle(black, '对局：guest-Fay 对 guest-Gil · 象棋 · 揭棋');
  await black.page.click('#site-nav a[href="#/leaderboard"]');
  await waitTitle(black, '排行榜 · 象棋 · 揭棋');
});

// The contrast ratio (WCAG) of an element's text on its button's background.
const contrastOnButton = (el) => {
  const rgb = (s) => s.match(/[\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const a = lum(rgb(getComputedStyle(el).color));
  const b = lum(rgb(getComputedStyle(el.closest('button')).backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
};

test('small fixes: the quick-pairing game select is named; a computer\'s rating is readable on its button', { needs: ['bot'] }, async (ctx) => {
  const stopBot = await ctx.startBot({ seeks: 'xiangqi 600+0' });
  try {
    const me = await newPlayer(ctx, 'Hana');
    assertEqual(await me.page.locator('[data-testid=pools]').getByRole('combobox', { name: 'Game' }).getAttribute('data-testid'), 'pool-variant', 'the quick-pairing select has a name');
    const rating = me.page.locator('[data-testid=play-computer-rating]').first();
    await rating.waitFor({ timeout: T });
    const ratio = await rating.evaluate(contrastOnButton);
    assert(ratio >= 4.5, `"· Rating" on its button has ${ratio.toFixed(2)}:1, at least 4.5:1 needed`);
    await me.page.click('[data-testid=lang-toggle]');
    assertEqual(await me.page.locator('[data-testid=pools]').getByRole('combobox', { name: '棋种' }).count(), 1, 'named in Chinese');
  } finally {
    await stopBot();
  }
});

test('replay: the moves are buttons reached by Tab; stepping (a move picked, arrows, ◀) says the move now shown, not a move coming in; in Chinese', async (ctx) => {
  const red = await newPlayer(ctx, 'Ines');
  const black = await newPlayer(ctx, 'Ivo');
  await startGame(ctx, red, black, 'xiangqi');
  const moves = ['h2e2', 'h9g7', 'b0c2'];
  for (const [i, m] of moves.entries()) {
    await playMove(i % 2 ? black : red, m);
    await Promise.all([waitForMoves(red, i + 1), waitForMoves(black, i + 1)]);
  }
  const shown = (p) => p.page.textContent('[data-testid=replay-announce]');
  assertEqual(await shown(red), '', 'the region is there, quiet, while the game is followed');
  const moveButton = (p, ply) => p.page.locator(`[data-testid=move-list] li[data-ply="${ply}"] button`);
  await moveButton(red, 1).focus();
  await keys(red, 'Tab');
  assertEqual(await red.page.evaluate(() => document.activeElement.closest('li')?.getAttribute('data-ply')), '2', 'Tab goes from move to move');
  await keys(red, 'Enter');
  await red.page.waitForSelector('[data-testid=replay-ply]:text("2/3")', { timeout: T });
  assert(/^Move 1, Black: .+ \(h9g7\)\. 2 of 3\.$/.test(await shown(red)), `the move picked is said (${await shown(red)})`);
  assertEqual(await moveButton(red, 2).getAttribute('aria-current'), 'true', 'the move shown is marked current');
  await keys(red, 'ArrowLeft');
  await red.page.waitForFunction(() => document.querySelector('[data-testid=replay-announce]').textContent === 'Move 1, Red: 炮二平五 (h2e2). 1 of 3.', null, { timeout: T });
  await keys(red, 'ArrowLeft');
  await red.page.waitForFunction(() => document.querySelector('[data-testid=replay-announce]').textContent === 'Start position. 0 of 3.', null, { timeout: T });
  // A move coming in while the record is stepped through is not the move shown.
  await playMove(black, 'a6a5');
  await waitForMoves(red, 4);
  assertEqual(await shown(red), 'Start position. 0 of 3.', 'a move coming in is not said as the move shown');
  await keys(red, 'ArrowRight');
  await red.page.waitForFunction(() => /^Move 1, Red: .+ \(h2e2\)\. 1 of \d\.$/.test(document.querySelector('[data-testid=replay-announce]').textContent), null, { timeout: T });

  await black.page.click('[data-testid=lang-toggle]');
  await black.page.click('[data-testid=replay-prev]');
  await black.page.waitForFunction(() => /^第 2 回合，红方：.+ \(b0c2\)。第 3 步，共 \d 步。$/.test(document.querySelector('[data-testid=replay-announce]').textContent), null, { timeout: T })
    .catch(async () => { throw new Error(`Chinese step: "${await shown(black)}"`); });
});

// A field's error tied to it: the field is marked invalid and among what describes it is the
// message (an alert), whose text matches `re`; `false`: the field is not marked.
async function fieldError(page, field, re, what) {
  const sel = `[data-testid=${field}]`;
  await page.waitForSelector(`${sel}[aria-invalid=true]`, { timeout: T })
    .catch(async () => { throw new Error(`${what}: ${field} should be marked invalid, aria-invalid is ${await page.getAttribute(sel, 'aria-invalid')}`); });
  const said = await page.$eval(sel, (f) => (f.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
    .map((id) => document.getElementById(id)).filter((e) => e && e.closest('[role=alert]')).map((e) => e.textContent.trim()));
  assert(said.some((s) => re.test(s)), `${what}: ${field} is described by the message ${re} (it is by ${JSON.stringify(said)})`);
}
async function noFieldError(page, field, what) {
  const a = await page.$eval(`[data-testid=${field}]`, (f) => [f.getAttribute('aria-invalid'), f.getAttribute('aria-describedby')]);
  assertEqual(a[0] === 'true', false, `${what}: ${field} is not marked invalid (${a})`);
}

test('form errors tied to their fields: sign-in (guest name, register), a seek a guest may not make, a challenge, the password change; in Chinese', async (ctx) => {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  ctx.contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${ctx.base}/`);
  await page.fill('[data-testid=guest-name]', 'x');
  await page.click('[data-testid=guest-login]');
  await fieldError(page, 'guest-name', /^A name has 3 to 20/, 'a guest name too short');
  await noFieldError(page, 'account-name', 'the account fields are not what is wrong');
  await page.fill('[data-testid=account-name]', 'formcheck');
  await page.fill('[data-testid=account-password]', '123');
  await page.click('[data-testid=register]');
  await fieldError(page, 'account-password', /password/, 'a password too short');
  await noFieldError(page, 'guest-name', 'the guest name\'s error is gone with its message');
  await noFieldError(page, 'account-name', 'the name is fine');
  await page.click('[data-testid=lang-toggle]');
  await fieldError(page, 'account-password', /密码/, 'in Chinese');
  await page.click('[data-testid=lang-toggle]');
  await page.fill('[data-testid=guest-name]', 'Formy');
  await page.click('[data-testid=guest-login]');
  await page.waitForSelector('[data-testid=user-name]', { timeout: T });

  // A guest may not open a rated seek: the Rated box is what is wrong.
  await page.setChecked('[data-testid=seek-rated]', true);
  await page.click('[data-testid=create-seek]');
  await fieldError(page, 'seek-rated', /^Rated games need an account/i, 'a rated seek by a guest');
  await noFieldError(page, 'seek-minutes', 'the minutes are fine');
  // A rated seek's range of opponents' ratings, upside down: both bounds are what is wrong.
  await page.fill('[data-testid=seek-rating-min]', '1800');
  await page.fill('[data-testid=seek-rating-max]', '1600');
  await page.click('[data-testid=create-seek]');
  await fieldError(page, 'seek-rating-min', /lower bound is above the upper/, 'a rating range upside down');
  await fieldError(page, 'seek-rating-max', /lower bound is above the upper/, 'a rating range upside down');
  await noFieldError(page, 'seek-rated', 'the Rated box is not what is wrong now');
  await page.fill('[data-testid=seek-rating-min]', '');
  await page.fill('[data-testid=seek-rating-max]', '');
  await page.setChecked('[data-testid=seek-rated]', false);
  await page.fill('[data-testid=challenge-name]', 'guest-Formy');
  await page.click('[data-testid=challenge]');
  await fieldError(page, 'challenge-name', /challenge yourself/, 'a challenge to oneself');
  await noFieldError(page, 'seek-rated', 'the Rated box is no longer marked');

  const a = await newAccount(ctx, 'pwf');
  await a.page.click('[data-testid=my-games]');
  await a.page.click('[data-testid=password-form] summary');
  await a.page.fill('[data-testid=password-current]', 'secret-pw-1');
  await a.page.fill('[data-testid=password-new]', 'brand-new-2');
  await a.page.fill('[data-testid=password-again]', 'brand-new-3');
  await a.page.click('[data-testid=password-save]');
  await fieldError(a.page, 'password-again', /^The two new passwords differ/, 'the repeated password');
  await a.page.fill('[data-testid=password-current]', 'not-it');
  await a.page.fill('[data-testid=password-again]', 'brand-new-2');
  await a.page.click('[data-testid=password-save]');
  await fieldError(a.page, 'password-current', /^That is not the current password/, 'a wrong current password');
  await noFieldError(a.page, 'password-again', 'the repeated one is fine now');
});

test('form errors tied to their fields: the event form (forbidden pairs it cannot read, an id taken)', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const org = await newOrganiser(ctx, 'form_org');
  const taken = 'a11y-taken';
  const made = await fetch(`${ctx.base}/api/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Admin-Token': ctx.adminToken },
    body: JSON.stringify({ id: taken, name: taken, variant: 'xiangqi', initial_ms: 60000, pairing: { rounds: 1 } }),
  });
  assert(made.ok, `event made: ${made.status}`);
  const p = org.page;
  await p.goto(`${ctx.base}/#/tournaments`);
  await p.click('[data-testid=new-event]');
  await p.fill('[data-testid=ev-name]', 'Form check');
  await p.fill('[data-testid=ev-id]', taken);
  await p.click('[data-testid=event-form] details.wide summary');
  await p.fill('[data-testid=ev-forbidden]', '1-x');
  await p.click('[data-testid=create-event]');
  await fieldError(p, 'ev-forbidden', /^Cannot read "1-x"/, 'forbidden pairs it cannot read');
  await p.fill('[data-testid=ev-forbidden]', '');
  await p.click('[data-testid=create-event]');
  await fieldError(p, 'ev-id', /id is taken/, 'an event id taken');
  await noFieldError(p, 'ev-forbidden', 'the pairs are fine now');
});

// An analysis board of its own (no sign-in needed).
async function analysisPage(ctx, name, opts = {}) {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...opts });
  ctx.contexts.push(context);
  const page = await context.newPage();
  await page.goto(`${ctx.base}/#/analysis`);
  await page.waitForSelector('[data-testid=analysis-page]', { timeout: T });
  return { name, context, page };
}

// The contrast (WCAG) of each mark on the board against the wood it is drawn on: its fill or
// stroke as computed, a translucent one laid over the wood.
const markContrast = (page, marks) => page.evaluate((marks) => {
  const parse = (s) => { const m = s.match(/[\d.]+/g).map(Number); return { c: m.slice(0, 3), a: m.length > 3 ? m[3] : 1 }; };
  const lum = (c) => {
    const [r, g, b] = c.map((v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const svg = document.querySelector('svg.board');
  const wood = parse(getComputedStyle(svg.querySelector('.board-bg')).fill).c;
  const out = {};
  for (const [what, sel, prop] of marks) {
    const el = svg.querySelector(sel);
    if (!el) { out[what] = `no ${sel}`; continue; }
    const cs = getComputedStyle(el);
    const v = parse(cs[prop]);
    let a = v.a * Number(cs[`${prop}Opacity`]);
    for (let e = el; e && e !== svg; e = e.parentElement) a *= Number(getComputedStyle(e).opacity);
    const c = v.c.map((x, i) => a * x + (1 - a) * wood[i]);
    const [hi, lo] = [lum(c), lum(wood)].sort((x, y) => y - x);
    out[what] = Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
  }
  return out;
}, marks);

test('non-text contrast: the legal-move dots, capture and selection rings, last-move, check and reveal marks are 3:1 against the board; the current move\'s muted text 4.5:1', async (ctx) => {
  const p = await analysisPage(ctx, 'marks');
  await p.page.click('[data-square=h2]');
  await p.page.waitForSelector('[data-hint=h9].capture', { timeout: T });
  const before = await markContrast(p.page, [
    ['legal-move dot', '[data-hint]:not(.capture)', 'fill'],
    ['capture ring', '[data-hint].capture', 'stroke'],
    ['selected piece', '.piece.selected .piece-body', 'stroke'],
  ]);
  await p.page.click('[data-square=e2]');
  await waitForMoves(p, 1);
  // A check and a Jieqi reveal drawn as the board draws them, for their colours.
  await p.page.evaluate(() => {
    const svg = document.querySelector('svg.board');
    const ns = 'http://www.w3.org/2000/svg';
    const check = document.createElementNS(ns, 'circle');
    check.setAttribute('class', 'check test-mark');
    check.setAttribute('r', '32');
    const g = document.createElementNS(ns, 'g');
    g.setAttribute('class', 'piece red revealed test-mark');
    const body = document.createElementNS(ns, 'circle');
    body.setAttribute('class', 'piece-body');
    g.append(body);
    svg.append(check, g);
  });
  const after = await markContrast(p.page, [
    ['last move', '[data-last-move]', 'stroke'],
    ['check ring', '.check.test-mark', 'stroke'],
    ['reveal ring', '.piece.revealed.test-mark .piece-body', 'stroke'],
  ]);
  const all = { ...before, ...after };
  const low = Object.entries(all).filter(([, r]) => !(r >= 3));
  assertEqual(low, [], `every mark at 3:1 or more against the board (${JSON.stringify(all)})`);
  // Text, 4.5:1: the current move's number and squares on its highlight, and a tag's muted text.
  const text = await p.page.evaluate(() => {
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((m, n) => n - m); return (x + 0.05) / (y + 0.05); };
    const li = document.querySelector('[data-testid=move-list] li.current');
    const bg = getComputedStyle(li).backgroundColor;
    return Object.fromEntries(['.num', '.iccs'].map((sel) => [sel, Math.round(ratio(getComputedStyle(li.querySelector(sel)).color, bg) * 100) / 100]));
  });
  assertEqual(Object.entries(text).filter(([, r]) => !(r >= 4.5)), [], `the current move's text at 4.5:1 or more (${JSON.stringify(text)})`);
});

// Text in Chinese characters on an English page that is not marked as Chinese (lang="zh…" on it
// or an element around it): "tag.class: text" of each. (An <option> holds text only: its
// select is named in English.)
const unmarkedChinese = (page) => page.evaluate(() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if (!/[\u3400-\u9fff\uff01-\uff5e\u3000-\u303f]/.test(n.data)) continue;
    const el = n.parentElement;
    if (el.closest('option, script, style')) continue;
    const lang = el.closest('[lang]')?.getAttribute('lang') ?? '';
    if (!/^zh/.test(lang)) out.push(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}: ${n.data.trim()}`);
  }
  return [...new Set(out)];
});

test('language of parts: Chinese words on English pages are marked lang="zh-CN" (lobby, a Jieqi game and its moves, the language switch), English on Chinese ones; <html lang> follows the language', async (ctx) => {
  const red = await newPlayer(ctx, 'Lian');
  const black = await newPlayer(ctx, 'Lou');
  assertEqual(await red.page.getAttribute('html', 'lang'), 'en', 'an English page');
  await createSeek(red, { variant: 'jieqi', color: 'red' });
  await black.page.waitForSelector(`[data-testid=seek-list] li:has-text("${red.name}")`, { timeout: T });
  assertEqual(await unmarkedChinese(black.page), [], 'the lobby, with a Jieqi seek listed');
  await acceptSeekOf(black, red.name);
  await Promise.all([waitForGame(red), waitForGame(black)]);
  for (const [i, m] of ['b2b9', 'i9i8'].entries()) {
    await playMove(i % 2 ? black : red, m);
    await Promise.all([waitForMoves(red, i + 1), waitForMoves(black, i + 1)]);
  }
  await black.page.waitForFunction(() => document.querySelector('[data-testid=game-announce]')?.textContent.trim(), null, { timeout: T });
  for (const p of [red, black]) assertEqual(await unmarkedChinese(p.page), [], `${p.name}: the game page, its moves, captures and announcements`);
  await red.page.click('[data-testid=lang-toggle]');
  assertEqual(await red.page.getAttribute('html', 'lang'), 'zh-CN', 'a Chinese page');
  assertEqual(await red.page.getAttribute('[data-testid=lang-toggle]', 'lang'), 'en', 'the switch to English is marked English');
  await red.page.click('[data-testid=lang-toggle]');
  assertEqual(await red.page.getAttribute('html', 'lang'), 'en', 'English again');
});

test('reduced motion: the Jieqi flip and the waiting spinner stand still for those who ask for less motion, and move for the others', async (ctx) => {
  const motion = async (opts) => {
    const p = await analysisPage(ctx, 'motion', opts);
    return p.page.evaluate(() => {
      const ns = 'http://www.w3.org/2000/svg';
      const g = document.createElementNS(ns, 'g');
      g.setAttribute('class', 'piece red revealed');
      const face = document.createElementNS(ns, 'g');
      face.setAttribute('class', 'face');
      g.append(face);
      document.querySelector('svg.board').append(g);
      const spinner = document.createElement('span');
      spinner.className = 'spinner';
      document.querySelector('main').append(spinner);
      // How long each moves: none, or its duration times its repetitions.
      const moving = (el) => {
        const cs = getComputedStyle(el);
        if (cs.animationName === 'none') return 0;
        const n = cs.animationIterationCount === 'infinite' ? Infinity : Number(cs.animationIterationCount);
        return parseFloat(cs.animationDuration) * n;
      };
      return { flip: moving(face), spinner: moving(spinner) };
    });
  };
  const normal = await motion({});
  assert(normal.flip >= 0.3 && normal.spinner === Infinity, `they move by default (${JSON.stringify(normal)})`);
  const reduced = await motion({ reducedMotion: 'reduce' });
  assertEqual(reduced, { flip: 0, spinner: 0 }, 'nothing moves with reduced motion');
});

test('page titles: an event\'s page and a player\'s page are titled (and headed) by the event\'s and the player\'s name; in Chinese', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const made = await fetch(`${ctx.base}/api/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Admin-Token': ctx.adminToken },
    body: JSON.stringify({ id: 'a11y-titled', name: 'Title Cup', variant: 'xiangqi', initial_ms: 60000, pairing: { rounds: 1 } }),
  });
  assert(made.ok, `event made: ${made.status}`);
  const acc = await newAccount(ctx, 'ttl');
  const accId = await acc.page.evaluate(() => window.__xq.user.userId);
  const p = await newPlayer(ctx, 'Tia');
  await p.page.goto(`${ctx.base}/#/tournaments/a11y-titled`);
  await waitTitle(p, 'Title Cup · Tournaments · Xiangqi · Jieqi');
  assertEqual(await p.page.textContent('[data-testid=page-heading]'), 'Title Cup · Tournaments', 'the heading names the event');
  await p.page.goto(`${ctx.base}/#/player/${accId}`);
  await waitTitle(p, `${acc.name} · Player · Xiangqi · Jieqi`);
  assertEqual(await p.page.textContent('[data-testid=page-heading]'), `${acc.name} · Player`, 'the heading names the player');
  await p.page.click('[data-testid=lang-toggle]');
  await p.page.waitForFunction((n) => document.title.startsWith(`${n} · `) && /象棋/.test(document.title), acc.name, { timeout: T });
  await p.page.goto(`${ctx.base}/#/tournaments/a11y-titled`);
  await p.page.waitForFunction(() => /^Title Cup · \S+ · 象棋 · 揭棋$/.test(document.title), null, { timeout: T })
    .catch(async () => { throw new Error(`the event's title in Chinese: "${await p.page.title()}"`); });
  // Signed out, a shared link to the event is titled by it too.
  const out = await analysisPage(ctx, 'reader');
  await out.page.goto(`${ctx.base}/#/tournaments/a11y-titled`);
  await waitTitle(out, 'Title Cup · Tournaments · Xiangqi · Jieqi');
});

test('reflow: a desktop zoomed to 200 % and 400 % (640x450, 320x256) shows the game and the analysis board without sideways scrolling, no bar over the board', async (ctx) => {
  const red = await newPlayer(ctx, 'Zoe');
  const black = await newPlayer(ctx, 'Zed');
  const id = await startGame(ctx, red, black, 'xiangqi');
  const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  for (const viewport of [{ width: 640, height: 450 }, { width: 320, height: 256 }]) {
    const context = await ctx.browser.newContext({ viewport, locale: 'en-US', storageState: await red.context.storageState() });
    ctx.contexts.push(context);
    const page = await context.newPage();
    for (const [hash, what] of [[`#/game/${id}`, 'game'], ['#/analysis', 'analysis board']]) {
      await page.goto(`${ctx.base}/${hash}`);
      await page.waitForSelector('svg.board', { timeout: T });
      if (what === 'game') await page.waitForSelector('[data-testid=bar-red] [role=timer]', { timeout: T });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert(wide <= 1, `${what} at ${viewport.width}x${viewport.height}: ${wide} px of sideways scrolling`);
      if (what !== 'game') continue;
      await page.screenshot({ path: join(ctx.shots, `zoom-${viewport.width}x${viewport.height}-game.png`), animations: 'disabled' });
      const board = await page.locator('svg.board').boundingBox();
      for (const bar of ['[data-testid=bar-red]', '[data-testid=bar-black]']) {
        const b = await page.locator(bar).boundingBox();
        assert(!overlap(board, b), `${what} at ${viewport.width}x${viewport.height}: ${bar} ${JSON.stringify(b)} covers the board ${JSON.stringify(board)}`);
      }
    }
  }
});

test('names and chat: each Accept and Watch names its seek or game, Mute and Report their writer; the sound switch says its state; a new chat line is said once as "name: text", without its buttons, the history not at all', async (ctx) => {
  const red = await newPlayer(ctx, 'Nia');
  const black = await newPlayer(ctx, 'Ned');
  await createSeek(red, { variant: 'xiangqi', color: 'red' });
  const accept = black.page.locator('[data-testid=seek-list] li:has-text("Nia") [data-testid=accept-seek]');
  await accept.waitFor({ timeout: T });
  assertEqual(await accept.getAttribute('aria-label'), "Accept guest-Nia's seek", 'the seek\'s Accept names its maker');
  await acceptSeekOf(black, 'Nia');
  const id = await waitForGame(red);
  await waitForGame(black);
  const visitor = await newPlayer(ctx, 'Vic');
  const watch = visitor.page.locator(`[data-testid=game-list] li[data-game="${id}"] [data-testid=watch-game]`);
  await watch.waitFor({ timeout: T });
  assertEqual(await watch.getAttribute('aria-label'), 'Watch guest-Nia vs guest-Ned', 'Watch names the game');
  const sound = red.page.locator('[data-testid=sound-toggle]');
  assertEqual(await sound.getAttribute('aria-label'), 'Sound', 'the switch is named for what it switches');
  const before = await sound.getAttribute('aria-pressed');
  await sound.click();
  assertEqual(await sound.getAttribute('aria-pressed'), before === 'true' ? 'false' : 'true', 'its state is aria-pressed');

  await black.page.fill('[data-testid=chat-input]', 'good luck');
  await black.page.click('[data-testid=chat-send]');
  await red.page.locator('[data-testid=chat-line]', { hasText: 'good luck' }).waitFor({ timeout: T });
  await recordSaid(red);
  await black.page.fill('[data-testid=chat-input]', 'have fun');
  await black.page.click('[data-testid=chat-send]');
  await red.page.waitForFunction(() => document.querySelector('[data-testid=chat-announce]')?.textContent === 'guest-Ned: have fun', null, { timeout: T });
  await red.page.fill('[data-testid=chat-input]', 'thanks');
  await red.page.click('[data-testid=chat-send]');
  await black.page.locator('[data-testid=chat-line]', { hasText: 'thanks' }).waitFor({ timeout: T });
  await sleep(300);
  const heard = (await said(red)).filter((s) => /luck|fun|thanks/.test(s));
  assertEqual(JSON.stringify(heard), JSON.stringify(['guest-Ned: have fun']), 'the new line said once, no buttons, not one\'s own');
  const mute = red.page.locator('[data-testid=chat-line]', { hasText: 'have fun' }).locator('[data-testid=chat-mute]');
  assertEqual(await mute.getAttribute('aria-label'), 'Mute guest-Ned', 'Mute names the writer');
  assertEqual(await red.page.locator('[data-testid=chat-line]', { hasText: 'have fun' }).locator('[data-testid=chat-report]').getAttribute('aria-label'), "Report guest-Ned's line", 'Report names the writer');
  // Reopened, the history is shown and not said.
  await red.page.reload();
  await red.page.locator('[data-testid=chat-line]', { hasText: 'have fun' }).waitFor({ timeout: T });
  await sleep(500);
  assertEqual(await red.page.textContent('[data-testid=chat-announce]'), '', 'the history is not news');
});
