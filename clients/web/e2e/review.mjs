// Scenarios from a review of the premove, takeback and analysis board features with fresh eyes:
// how they interplay, edge positions, spectators, phones and Chinese.
import { join } from 'node:path';
import { assert, assertEqual, test } from './lib/harness.mjs';
import { T, boardPieces, moveCount, newPlayer, playMove, startGame, waitForMoves } from './lib/ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const iccsList = (p) => p.page.$$eval('[data-testid=move-list] li', (ls) => ls.map((l) => l.getAttribute('data-iccs')));
const premoveShown = (p) => p.page.$$eval('[data-premove]', (rs) => rs.map((r) => r.getAttribute('data-premove')).sort());
const overflowX = (p) => p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
async function waitForMoveCount(p, n) {
  await p.page.waitForFunction((k) => document.querySelectorAll('[data-testid=move-list] li').length === k, n, { timeout: T });
}

// Buttons a finger has to hit: at least 32 px high (the stylesheet's minimum for links too).
async function smallButtons(page, selector) {
  return page.$$eval(selector, (bs) =>
    bs.filter((b) => b.offsetParent).map((b) => ({ text: b.textContent.trim(), h: b.getBoundingClientRect().height })).filter((b) => b.h < 32),
  );
}

test('review: premove and takeback: a takeback drops the premove on both kinds of proposal; a spectator (phone, Chinese) sees the proposal without answer buttons', async (ctx) => {
  const red = await newPlayer(ctx, 'Kai');
  const black = await newPlayer(ctx, 'Lin');
  const id = await startGame(ctx, red, black, 'xiangqi');
  const spec = await newPlayer(ctx, 'Mei', { ...PHONE, locale: 'zh-CN' });
  await spec.page.goto(`${ctx.base}/#/game/${encodeURIComponent(id)}`);
  await spec.page.waitForSelector('[data-testid=game-page][data-you=spectator]', { timeout: T });
  if (!(await spec.page.textContent('[data-testid=lang-toggle]')).includes('English')) await spec.page.click('[data-testid=lang-toggle]');
  // The header's small buttons (sign out, sound) are thumb-sized on an upright phone (review, 2026-12-04),
  // behind the game page's Menu button there.
  await spec.page.tap('[data-testid=menu-toggle]');
  for (const sel of ['[data-testid=sign-out]', '[data-testid=sound-toggle]']) {
    const b = await spec.page.locator(sel).boundingBox();
    assert(b && b.width >= 40 && b.height >= 40, `${sel} is ${b?.width}×${b?.height} px on a phone`);
  }

  await playMove(red, 'h2e2');
  await waitForMoves(black, 1);
  await playMove(black, 'h9g7');
  await Promise.all([waitForMoves(red, 2), waitForMoves(spec, 2)]);

  // Red to move. Black chooses a premove; Red asks to take back its move (and the reply).
  await playMove(black, 'i9h9');
  await black.page.waitForSelector('[data-testid=premove][data-iccs=i9h9]', { timeout: T });
  await red.page.click('[data-testid=propose-takeback]');
  await black.page.waitForSelector('[data-testid=accept-takeback]', { timeout: T });
  // The spectator is told who asks, in Chinese, and has nothing to answer.
  await spec.page.waitForSelector('[data-testid=takeback-offer]', { timeout: T });
  const offer = (await spec.page.textContent('[data-testid=takeback-offer]')).trim();
  assertEqual(offer, '红方请求悔棋', 'the spectator reads who asks');
  assertEqual(await spec.page.locator('[data-testid=accept-takeback], [data-testid=decline-takeback]').count(), 0, 'a spectator answers nothing');
  assert((await overflowX(spec)) <= 0, 'no sideways scrolling on the spectator\'s phone');
  await spec.page.screenshot({ path: join(ctx.shots, 'review-phone-zh-spectator-takeback.png'), animations: 'disabled' });
  await black.page.screenshot({ path: join(ctx.shots, 'review-desktop-premove-and-takeback.png'), animations: 'disabled' });
  assertEqual(await smallButtons(black.page, '[data-testid=takeback-offer] button, [data-testid=cancel-premove]'), [], 'the answers are large enough to hit');

  // Accepting Red's proposal undoes Black's reply too: Black is told so before answering.
  assertEqual((await black.page.textContent('[data-testid=takeback-offer]')).split('Accept')[0].trim(), 'Your opponent asks to take back a move, and with it your reply', 'the reply goes too');
  await black.page.click('[data-testid=accept-takeback]');
  await Promise.all([waitForMoveCount(red, 0), waitForMoveCount(black, 0), waitForMoveCount(spec, 0)]);
  await black.page.waitForSelector('[data-testid=premove]', { state: 'detached', timeout: T });
  assertEqual(await premoveShown(black), [], 'the premove is gone with the position it was chosen in');
  // Red plays again: Black's old premove must not come back.
  await playMove(red, 'b2e2');
  await waitForMoves(black, 1);
  await sleep(800);
  assertEqual(await iccsList(black), ['b2e2'], 'nothing was played for Black');

  // Black replies and, Red to move, premoves and asks to take back its own reply.
  await playMove(black, 'b9c7');
  await waitForMoves(red, 2);
  await playMove(black, 'a9a8');
  await black.page.waitForSelector('[data-testid=premove][data-iccs=a9a8]', { timeout: T });
  await black.page.click('[data-testid=propose-takeback]');
  await spec.page.waitForSelector('[data-testid=takeback-offer]:has-text("黑方请求悔棋")', { timeout: T });
  await red.page.waitForSelector('[data-testid=accept-takeback]', { timeout: T });
  assertEqual((await red.page.textContent('[data-testid=takeback-offer]')).split('Accept')[0].trim(), 'Your opponent asks to take back a move', 'only Black\'s own move goes');
  await red.page.click('[data-testid=accept-takeback]', { timeout: T });
  await Promise.all([waitForMoveCount(red, 1), waitForMoveCount(black, 1), waitForMoveCount(spec, 1)]);
  await black.page.waitForSelector('[data-testid=premove]', { state: 'detached', timeout: T });
  await black.page.waitForFunction(() => document.querySelector('[data-testid=status]')?.textContent?.trim() === 'Your move', null, { timeout: T });
  await sleep(800);
  assertEqual(await iccsList(red), ['b2e2'], 'the premove was not played in the position taken back to');

  // Declined, seen by the spectator as declined.
  await playMove(black, 'b9c7');
  await waitForMoves(red, 2);
  await black.page.click('[data-testid=propose-takeback]');
  await red.page.click('[data-testid=decline-takeback]', { timeout: T });
  await spec.page.waitForSelector('[data-testid=takeback-declined]', { timeout: T });
  assertEqual((await spec.page.textContent('[data-testid=takeback-declined]')).trim(), '悔棋请求被拒绝', 'the spectator sees the decline in Chinese');
  await spec.page.screenshot({ path: join(ctx.shots, 'review-phone-zh-spectator-declined.png'), animations: 'disabled' });
});

test('review: premove in Jieqi: a face-down piece premoved by its square is played (and revealed) as soon as Red has moved', async (ctx) => {
  const red = await newPlayer(ctx, 'Ivo');
  const black = await newPlayer(ctx, 'Jun', PHONE);
  await startGame(ctx, red, black, 'jieqi');
  // Black's face-down piece on i6 stands where a soldier starts: it moves as one.
  await playMove(black, 'i6i5', { tap: true });
  await black.page.waitForSelector('[data-testid=premove][data-iccs=i6i5]', { timeout: T });
  const line = (await black.page.textContent('[data-testid=premove]')).trim();
  assert(line.includes('卒９进１ (i6i5)'), `the premove named as the move list names it, and by its squares (${line})`);
  assert(!/undefined|null/.test(line), `no placeholder in the premove line (${line})`);
  assert((await overflowX(black)) <= 0, 'no sideways scrolling with the premove line');
  await black.page.screenshot({ path: join(ctx.shots, 'review-phone-jieqi-premove.png'), animations: 'disabled' });
  await playMove(red, 'a3a4');
  await Promise.all([waitForMoves(red, 2), waitForMoves(black, 2)]);
  // A reveal's letter follows the squares in the record (a3a4R).
  assertEqual((await iccsList(red)).map((m) => m.slice(0, 4)), ['a3a4', 'i6i5'], 'the premove was played at once');
  const reveal = await red.page.getAttribute('[data-testid=move-list] li[data-ply="2"]', 'data-reveal');
  assert(!!reveal, 'the premoved face-down piece was revealed');
  assert(!(await red.page.getAttribute('g.piece[data-at=i5]', 'data-piece')).endsWith('X'), 'face up on i5 on Red\'s board');
  assertEqual(await boardPieces(red), await boardPieces(black), 'both boards equal');
  // Both moves turned a piece up, which no takeback may hide again: no button that could only fail.
  for (const p of [red, black]) assertEqual(await p.page.locator('[data-testid=propose-takeback]').count(), 0, `${p.name}: no takeback over a reveal`);
});

// The analysis board: a page without an account, desktop or phone, English or Chinese.
async function analysisPage(ctx, { phone = false, zh = false, hash = '#/analysis' } = {}) {
  const context = await ctx.browser.newContext({ ...(phone ? PHONE : { viewport: { width: 1280, height: 900 } }), locale: zh ? 'zh-CN' : 'en-US' });
  ctx.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`     [analysis pageerror] ${e.message}`));
  await page.goto(`${ctx.base}/${hash}`);
  await page.waitForSelector('[data-testid=analysis-page]', { timeout: T });
  const isZh = (await page.textContent('[data-testid=lang-toggle]')).includes('English');
  if (isZh !== zh) await page.click('[data-testid=lang-toggle]');
  return { name: 'analyst', context, page };
}
const at = (fen) => `#/analysis?fen=${encodeURIComponent(fen)}`;
const status = (p) => p.page.textContent('[data-testid=analysis-status]').then((s) => s.trim());

test('review: analysis board edge positions: mate, stalemate, the side to move in check; in Chinese on a phone', async (ctx) => {
  const mate = '3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1';
  const stalemate = '3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1';
  const check = '4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1';
  const d = await analysisPage(ctx, { hash: at(mate) });
  assertEqual(await status(d), 'Checkmate: Black loses.', 'mate');
  assertEqual(await d.page.getAttribute('[data-check]', 'data-check'), 'd9', 'the mated general is ringed');
  await d.page.screenshot({ path: join(ctx.shots, 'review-desktop-analysis-mate.png'), animations: 'disabled' });
  const p = await analysisPage(ctx, { phone: true, zh: true, hash: at(mate) });
  assertEqual(await status(p), '黑方被将死。', 'mate in Chinese');
  for (const [fen, en, zh] of [
    [stalemate, 'Black has no legal move and loses.', '黑方无棋可走，判负。'],
    [check, 'Black to move · Check!', '黑方走棋 · 将军！'],
  ]) {
    for (const [x, want] of [[d, en], [p, zh]]) {
      await x.page.fill('[data-testid=analysis-fen]', fen);
      await x.page.press('[data-testid=analysis-fen]', 'Enter');
      await x.page.waitForFunction((f) => document.querySelector('[data-testid=analysis-page]')?.getAttribute('data-fen') === f, fen, { timeout: T });
      assertEqual(await status(x), want, `status for ${fen}`);
    }
  }
  // In check: the general is ringed, the one way out is played, the check is over.
  assertEqual(await d.page.getAttribute('[data-check]', 'data-check'), 'e9', 'the general in check is ringed');
  await playMove(d, 'e9f9');
  await d.page.waitForFunction(() => /Red to move/.test(document.querySelector('[data-testid=analysis-status]')?.textContent ?? ''), null, { timeout: T });
  assertEqual(await d.page.locator('[data-check]').count(), 0, 'no ring once out of check');
  assert((await overflowX(p)) <= 0, 'no sideways scrolling on the phone');
  await p.page.screenshot({ path: join(ctx.shots, 'review-phone-zh-analysis-check.png'), fullPage: true, animations: 'disabled' });
  assertEqual(await smallButtons(p.page, '.analysis-page button'), [], 'the analysis buttons are large enough to tap');

  // A phone zooms into a field whose text is under 16 px (iOS): the FEN box is not one.
  const fenPx = await p.page.$eval('[data-testid=analysis-fen]', (el) => parseFloat(getComputedStyle(el).fontSize));
  assert(fenPx >= 16, `the FEN box's text is ${fenPx}px on a phone`);
});

test('review: analysis board, Black to move first: Black\'s moves stay in Black\'s column, numbered from the FEN\'s move number', async (ctx) => {
  const fen = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1';
  const d = await analysisPage(ctx, { hash: at(fen) });
  for (const m of ['h9g7', 'h0g2', 'i9h9']) await playMove(d, m);
  await waitForMoves(d, 3);
  const cells = await d.page.$$eval('[data-testid=move-list] li', (ls) =>
    ls.map((l) => ({ iccs: l.getAttribute('data-iccs'), black: l.classList.contains('black'), num: l.querySelector('.num').textContent, x: Math.round(l.getBoundingClientRect().left) })),
  );
  assertEqual(cells.map((c) => c.black), [true, false, true], 'the first move is Black\'s');
  assertEqual(cells[1].num, '2.', 'Red\'s reply is move 2');
  assert(cells[0].x === cells[2].x && cells[1].x < cells[0].x, `Black's moves in the right-hand column (${JSON.stringify(cells)})`);
  await d.page.screenshot({ path: join(ctx.shots, 'review-desktop-analysis-black-first.png'), animations: 'disabled' });
});

test('review: analysis board: arrow keys while typing in the FEN box move the caret only; the box follows the board after a move; flipping survives a new FEN; a long line scrolls in its box', async (ctx) => {
  const d = await analysisPage(ctx);
  const p = d.page;
  const fen = () => p.inputValue('[data-testid=analysis-fen]');
  for (const m of ['h2e2', 'h9g7']) await playMove(d, m);
  await waitForMoves(d, 2);
  // Typing in the box: the arrow keys are the caret's, the line stays at ply 2.
  await p.click('[data-testid=analysis-fen]');
  await p.keyboard.press('End');
  await p.keyboard.type(' junk');
  await p.keyboard.press('ArrowLeft');
  await p.keyboard.press('ArrowLeft');
  await p.keyboard.press('ArrowRight');
  assertEqual(await p.textContent('[data-testid=replay-ply]'), '2/2', 'the line did not step');
  assert((await fen()).endsWith(' junk'), 'the text typed is kept while typing');
  // A move on the board while the box holds an unfinished edit: the box shows the new position.
  await playMove(d, 'h0g2');
  await waitForMoves(d, 3);
  assertEqual(await fen(), await p.getAttribute('[data-testid=analysis-page]', 'data-fen'), 'the FEN box follows the board after a move');
  // A step back by the button likewise.
  await p.click('[data-testid=analysis-fen]');
  await p.keyboard.type('x');
  await p.click('[data-testid=replay-prev]');
  assertEqual(await fen(), await p.getAttribute('[data-testid=analysis-page]', 'data-fen'), 'the FEN box follows the board after a step');
  // Out of the box, the arrows step again; an illegal try's message goes with the position.
  await p.click('[data-square=a3]'); // Red to move at ply 2: a soldier does not move two
  await p.click('[data-square=a5]');
  await p.waitForSelector('[data-testid=illegal-move]', { timeout: T });
  await p.click('.analysis-page h2');
  await p.keyboard.press('ArrowLeft');
  assertEqual(await p.textContent('[data-testid=replay-ply]'), '1/3', 'the left arrow steps back outside the box');
  assertEqual(await p.locator('[data-testid=illegal-move]').count(), 0, 'no "not a legal move" about another position');

  // Flipped, then a new position: the board stays turned.
  await p.click('[data-testid=analysis-flip]');
  assertEqual(await p.getAttribute('svg.board', 'data-orientation'), 'b', 'flipped');
  const endgame = '3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1';
  await p.fill('[data-testid=analysis-fen]', endgame);
  await p.press('[data-testid=analysis-fen]', 'Enter');
  await p.waitForFunction((f) => document.querySelector('[data-testid=analysis-page]')?.getAttribute('data-fen') === f, endgame, { timeout: T });
  assertEqual(await p.getAttribute('svg.board', 'data-orientation'), 'b', 'still flipped after loading a FEN');
  await p.click('[data-testid=analysis-flip]');

  // A long line: the horses go out and back 20 times (80 plies); the list scrolls, not the page.
  await p.click('[data-testid=analysis-reset]');
  await p.waitForFunction(() => document.querySelectorAll('[data-testid=move-list] li').length === 0, null, { timeout: T });
  const loop = ['b0c2', 'b9c7', 'c2b0', 'c7b9'];
  for (let i = 0; i < 80; i++) await playMove(d, loop[i % 4]);
  await waitForMoves(d, 80);
  const box = await p.$eval('[data-testid=move-list]', (l) => ({ h: l.clientHeight, sh: l.scrollHeight, top: l.scrollTop }));
  assert(box.h <= 300 && box.sh > box.h, `the list scrolls inside its box (${JSON.stringify(box)})`);
  const cur = await p.$eval('[data-testid=move-list] li.current', (li) => {
    const r = li.getBoundingClientRect();
    const b = li.parentElement.getBoundingClientRect();
    return r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
  });
  assert(cur, 'the current move is in view');
  await p.keyboard.press('ArrowLeft');
  assertEqual(await p.textContent('[data-testid=replay-ply]'), '79/80', 'one back from the end');
  await p.screenshot({ path: join(ctx.shots, 'review-desktop-analysis-long.png'), animations: 'disabled' });
  assertEqual(await moveCount(d), 80, 'eighty plies');
});
