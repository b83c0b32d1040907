// End-to-end scenarios for the tournament pages, quick pairing and the admin dashboard. They need
// the matchmaker and the tournament/admin HTTP API; the runner skips them loudly when the server
// under test lacks those (see harness.mjs).
import { join } from 'node:path';
import { assert, assertEqual, test } from './lib/harness.mjs';
import { T, acceptSeekOf, clickConfirmed, createSeek, openAdmin, newPlayer, openMenu, playMove, resultText, startGame, waitForGame, waitForMoves } from './lib/ui.mjs';

const EVENT = 'e2e-open';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

// The element is on screen, not scrolled away.
const inView = (page, sel) =>
  page.$eval(sel, (e) => {
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  });


const banUser = (ctx, userId) =>
  fetch(`${ctx.base}/api/admin/users/${encodeURIComponent(userId)}/ban`, { method: 'POST', headers: { 'X-Admin-Token': ctx.adminToken, 'Content-Type': 'application/json' }, body: '{}' });

// Our player behind a name the server shows (guests are "guest-<name>").
const who = (players, shown) => players.find((p) => shown === p.name || shown.endsWith(`-${p.name}`));

// The player's next game opens by itself (game_started) or through the "game ready" offer.
async function enterNewGame(p, notId = '') {
  const h = await p.page.waitForFunction(
    (old) => {
      const g = document.querySelector('[data-testid=game-page]');
      if (g && g.getAttribute('data-game-id') !== old) return 'page';
      if (document.querySelector('[data-testid=open-ready-game]')) return 'offer';
      return false;
    },
    notId,
    { timeout: 30_000 },
  );
  // (The offer may vanish because game_started opened the game meanwhile.)
  if ((await h.jsonValue()) === 'offer') await p.page.click('[data-testid=open-ready-game]', { timeout: 2000 }).catch(() => {});
  await p.page.waitForFunction((old) => {
    const g = document.querySelector('[data-testid=game-page]');
    return g && g.getAttribute('data-game-id') !== old && g.getAttribute('data-you') !== 'spectator';
  }, notId, { timeout: T });
  return {
    id: await p.page.getAttribute('[data-testid=game-page]', 'data-game-id'),
    you: await p.page.getAttribute('[data-testid=game-page]', 'data-you'),
  };
}

// The organiser opens the event form, names the event, sets the time and rounds, lets `more` set
// anything else on the form, creates it and waits for its page; then each of `players` joins it
// from their own browser.
async function createAndJoin(ctx, org, { id, name, minutes = 2, rounds }, players, more = async () => {}) {
  await org.page.goto(`${ctx.base}/#/tournaments`);
  await org.page.click('[data-testid=new-event]');
  await org.page.fill('[data-testid=ev-name]', name);
  await org.page.fill('[data-testid=ev-id]', id);
  await org.page.fill('[data-testid=ev-minutes]', String(minutes));
  await org.page.fill('[data-testid=ev-rounds]', String(rounds));
  await more();
  await org.page.click('[data-testid=create-event]');
  await org.page.waitForSelector(`[data-testid=event-page][data-event=${id}]`, { timeout: T });
  for (const p of players) {
    await p.page.goto(`${ctx.base}/#/tournaments/${id}`);
    await p.page.click('[data-testid=join-event]');
    await p.page.waitForSelector('[data-testid=registered]', { timeout: T });
  }
}

// Plays one tournament round: every game is found from the players' pages, Red moves, Black
// resigns. Returns [{round, red, black}] by player name.
async function playRound(players, round, current) {
  const games = new Map();
  for (const p of players) {
    const g = current.get(p.name);
    if (!games.has(g.id)) games.set(g.id, {});
    games.get(g.id)[g.you] = p;
  }
  assertEqual(games.size, players.length / 2, `round ${round}: ${players.length / 2} games`);
  const out = [];
  for (const [id, { r, b }] of games) {
    assert(r && b, `game ${id} has a red and a black player among ours`);
    assert(id.includes(`-r${round}-`), `game ${id} belongs to round ${round}`);
    await playMove(r, 'h2e2');
    await waitForMoves(b, 1);
    await b.page.click('[data-testid=resign]');
    await b.page.click('[data-testid=confirm-resign]');
    for (const p of [r, b]) assert(/Red wins: resignation/.test(await resultText(p)), `${p.name} sees Red win game ${id}`);
    out.push({ round, red: r.name, black: b.name });
  }
  return out;
}

// What the standings must say, computed from the games this test played (win 2, loss 0).
function expectedStandings(results, names) {
  const score = Object.fromEntries(names.map((n) => [n, 0]));
  const rows = Object.fromEntries(names.map((n) => [n, { wins: 0, black_games: 0, black_wins: 0, running: [], opps: [], beaten: [] }]));
  for (const round of [...new Set(results.map((r) => r.round))].sort()) {
    for (const g of results.filter((x) => x.round === round)) {
      score[g.red] += 2;
      rows[g.red].wins++;
      rows[g.black].black_games++;
      rows[g.red].opps.push(g.black);
      rows[g.black].opps.push(g.red);
      rows[g.red].beaten.push(g.black);
    }
    for (const n of names) rows[n].running.push(score[n]);
  }
  const out = {};
  for (const n of names) {
    const r = rows[n];
    out[n] = {
      score: score[n],
      opp_score: r.opps.reduce((s, o) => s + score[o], 0),
      progressive: r.running.reduce((s, v) => s + v, 0),
      sb: r.beaten.reduce((s, o) => s + score[o], 0),
      wins: r.wins,
      black_wins: r.black_wins,
      black_games: r.black_games,
      fouls: 0,
    };
  }
  return out;
}

// A registered account that an admin makes an organiser — from the dashboard's Roles panel, or
// (to save time in later tests) through the same admin API. Until then the tournament list offers
// no "new event" button (and the server would refuse one).
export async function newOrganiser(ctx, name, { viaDashboard = false } = {}) {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  ctx.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`     [${name} pageerror] ${e.message}`));
  await page.goto(`${ctx.base}/`);
  await page.fill('[data-testid=account-name]', name);
  await page.fill('[data-testid=account-password]', 'organise-it');
  await page.click('[data-testid=register]');
  await page.waitForSelector('[data-testid=user-name]', { timeout: T });
  await page.goto(`${ctx.base}/#/tournaments`);
  await page.waitForSelector('[data-testid=organiser-needed]', { timeout: T });
  assert(!(await page.$('[data-testid=new-event]')), 'a plain player has no "new event" button');
  assertEqual(await page.locator('header nav a[href="#/admin"]').count(), 0, 'a plain player has no Admin link');

  if (viaDashboard) {
    const admin = await openAdmin(ctx);
    await admin.fill('[data-testid=role-account]', name);
    await admin.selectOption('[data-testid=role-select]', 'organiser');
    await admin.click('[data-testid=role-grant]');
    await admin.waitForSelector('[data-testid=admin-msg]', { timeout: T });
    assert(/organiser/.test(await admin.textContent('[data-testid=admin-msg]')), 'the dashboard confirms the grant');
  } else {
    const r = await fetch(`${ctx.base}/api/admin/accounts/${name}/role`, {
      method: 'POST',
      headers: { 'X-Admin-Token': ctx.adminToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ role: 'organiser' }),
    });
    assertEqual(r.status, 200, `organiser role granted to ${name}`);
  }

  // The grant counts at once: opening the tournaments page again shows it, without a reload.
  await page.goto(`${ctx.base}/#/`);
  await page.goto(`${ctx.base}/#/tournaments`);
  await page.waitForSelector('[data-testid=new-event]', { timeout: T });
  await page.goto(`${ctx.base}/#/`);
  await page.waitForSelector('header nav a[href="#/admin"]', { timeout: T }); // an organiser has the Admin link
  return { name, context, page };
}

test('tournament: organiser creates a 4-player Swiss, players join, play two rounds from "your next game"; standings with every tiebreak', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const org = await newOrganiser(ctx, 'olga_org', { viaDashboard: true });
  const players = [];
  for (const n of ['Pia', 'Quan', 'Rui', 'Sol']) players.push(await newPlayer(ctx, n));

  // The organiser creates the event with the form.
  await org.page.goto(`${ctx.base}/#/tournaments`);
  await org.page.click('[data-testid=new-event]');
  await org.page.fill('[data-testid=ev-name]', 'E2E Spring Open');
  await org.page.fill('[data-testid=ev-id]', EVENT);
  await org.page.fill('[data-testid=ev-minutes]', '2');
  await org.page.fill('[data-testid=ev-increment]', '0');
  await org.page.fill('[data-testid=ev-rounds]', '2');
  await org.page.selectOption('[data-testid=ev-round1]', 'adjacent');
  // The form shows what each tiebreak preset decides: the same list the matchmaker gives an event.
  for (const preset of ['jieqi', 'cxa-14.3.1', 'cxa-14.3.2', 'senior']) {
    await org.page.selectOption('[data-testid=ev-tiebreak-preset]', preset);
    const shown = (await org.page.getAttribute('[data-testid=ev-tiebreak-preset-list]', 'data-ids')).split(',');
    const probe = `e2e-preset-${preset.replace(/\./g, '')}`;
    const made = await fetch(`${ctx.base}/api/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Admin-Token': ctx.adminToken },
      body: JSON.stringify({ id: probe, name: probe, variant: 'xiangqi', initial_ms: 60000, pairing: { rounds: 1, tiebreak_preset: preset } }),
    });
    assert(made.ok, `probe event for ${preset}: ${made.status} ${await made.text()}`);
    const ev = await (await fetch(`${ctx.base}/api/events/${probe}`)).json();
    assertEqual(shown, ev.config.pairing.tiebreaks, `the form's list for ${preset}`);
  }
  await org.page.selectOption('[data-testid=ev-tiebreak-preset]', 'jieqi');
  await org.page.fill('[data-testid=ev-no-show]', '3');
  await org.page.click('[data-testid=create-event]');
  await org.page.waitForSelector(`[data-testid=event-page][data-event=${EVENT}][data-stage=registration]`, { timeout: T });
  await org.page.waitForSelector('[data-testid=organiser] [data-testid=start-event]', { timeout: T });
  assert(/win 2, draw 1, loss 0/.test(await org.page.textContent('[data-testid=event-points]')), 'the event page shows its points');
  assert((await org.page.textContent('[data-testid=event-tiebreaks]')).includes('1. Opp. score'), 'the event page shows its tiebreak order');

  // Players find it in the list and join from their own browsers.
  for (const p of players) {
    await p.page.goto(`${ctx.base}/#/tournaments`);
    await p.page.click(`[data-testid=event-list] li[data-event=${EVENT}] [data-testid=open-event]`, { timeout: T });
    await p.page.click('[data-testid=join-event]', { timeout: T });
    await p.page.waitForSelector('[data-testid=registered]', { timeout: T });
    assert(!(await p.page.$('[data-testid=organiser]')), `${p.name} has no organiser controls`);
  }
  await org.page.waitForFunction(() => document.querySelectorAll('[data-testid=player-list] li').length === 4, null, { timeout: 25_000 });

  // Start: round 1 is paired and started; every player is taken to (or offered) their game.
  await clickConfirmed(org.page, '[data-testid=start-event]');
  const round1 = new Map();
  await Promise.all(players.map(async (p) => round1.set(p.name, await enterNewGame(p))));

  // Back on the event page the pairings show round 1 and "your next game" points at the same game.
  for (const p of players) {
    await p.page.click('[data-testid=back-to-event]', { timeout: T });
    await p.page.waitForSelector('[data-testid=pairings-round-1]', { timeout: T });
    assertEqual(await p.page.locator('[data-testid=pairings-round-1] tbody tr').count(), 2, `${p.name} sees 2 boards in round 1`);
    await p.page.waitForSelector(`[data-testid=next-game][data-game="${round1.get(p.name).id}"]`, { timeout: T });
    await p.page.click('[data-testid=next-game-link]');
    await p.page.waitForSelector(`[data-testid=game-page][data-game-id="${round1.get(p.name).id}"]`, { timeout: T });
  }
  const boards = await org.page.$$eval('[data-testid=pairings-round-1] tbody tr', (rows) =>
    rows.map((r) => [r.querySelector('[data-testid=board-red]').textContent, r.querySelector('[data-testid=board-black]').textContent]));
  for (const [redName, blackName] of boards) {
    const red = who(players, redName);
    const black = who(players, blackName);
    assert(red && black, `board ${redName}–${blackName} pairs two of our players`);
    assertEqual(round1.get(red.name).you, 'r', `${redName} is Red on the pairings page and in the game`);
    assertEqual(round1.get(black.name).id, round1.get(red.name).id, `${redName} and ${blackName} are in the same game`);
  }
  assert((await org.page.locator('[data-testid=explain] li').count()) >= 1, "the arbiter's explain lines are shown");
  // In Chinese the arbiter's lines are Chinese too.
  await org.page.click('[data-testid=lang-toggle]');
  await org.page.waitForFunction(() => /^第1台：/.test(document.querySelector('[data-testid=explain] li')?.textContent ?? ''), null, { timeout: T });
  await org.page.click('[data-testid=lang-toggle]');
  await org.page.waitForFunction(() => /^Board 1:/.test(document.querySelector('[data-testid=explain] li')?.textContent ?? ''), null, { timeout: T });

  const results = await playRound(players, 1, round1);
  // After round 1 "earlier rank" (前一轮名次) has no earlier round to give: no empty column, a note.
  await org.page.waitForSelector('[data-testid=standings][data-after-round="1"]', { timeout: 30_000 });
  assertEqual(await org.page.locator('[data-testid=standings] th[data-col=tb-prev_round_rank]').count(), 0, 'no empty "earlier rank" column after round 1');
  assert(await org.page.$('[data-testid=standings] th[data-col=tb-opp_score]'), 'the tiebreaks with values keep their columns');
  assert((await org.page.textContent('[data-testid=tiebreaks-not-yet]')).includes('Earlier rank'), 'a note names the tiebreak with no value yet');

  // Round 2 is paired and started by itself; the players are taken to their new games.
  const round2 = new Map();
  await Promise.all(players.map(async (p) => round2.set(p.name, await enterNewGame(p, round1.get(p.name).id))));
  await org.page.waitForSelector(`[data-testid=event-page][data-rounds-paired="2"]`, { timeout: 30_000 });
  results.push(...(await playRound(players, 2, round2)));

  // The standings after round 2 carry every column, with the scores these games produced.
  await org.page.waitForSelector('[data-testid=standings][data-after-round="2"]', { timeout: 30_000 });
  await org.page.waitForSelector(`[data-testid=event-page][data-stage=finished]`, { timeout: 30_000 });
  for (const col of ['score', 'opp_score', 'progressive', 'sb', 'wins', 'black_wins', 'black_games', 'fouls']) {
    assert(await org.page.$(`[data-testid=standings] th[data-col=${col}]`), `standings column ${col}`);
  }
  const api = await (await fetch(`${ctx.base}/api/events/${EVENT}/standings`)).json();
  assert(api.columns.length > 0, 'the event has tiebreak columns');
  assertEqual(await org.page.locator('[data-testid=standings] th.event-tb').count(), api.columns.length, "the event's own tiebreak columns");
  assertEqual(await org.page.locator('[data-testid=tiebreaks-not-yet]').count(), 0, 'after round 2 every tiebreak has a column');
  const expected = expectedStandings(results, players.map((p) => p.name));
  const shown = await org.page.$$eval('[data-testid=standings] tbody tr', (rows) =>
    rows.map((r) => {
      const v = (c) => r.querySelector(`td[data-col=${c}]`).textContent.trim();
      return { name: r.getAttribute('data-player'), rank: Number(r.cells[0].textContent), score: Number(v('score')), opp_score: Number(v('opp_score')), progressive: Number(v('progressive')), sb: Number(v('sb')), wins: Number(v('wins')), black_wins: Number(v('black_wins')), black_games: Number(v('black_games')), fouls: Number(v('fouls')) };
    }));
  assertEqual(shown.length, 4, 'four standings rows');
  for (const row of shown) {
    const { name, rank, ...values } = row;
    const p = who(players, name);
    assert(p, `standings row ${name} is one of our players`);
    assertEqual(values, expected[p.name], `standings of ${name} (rank ${rank})`);
  }
  const top = shown.find((r) => r.rank === 1);
  assertEqual(top.score, 4, 'the winner of both games ranks first');
  assertEqual(shown.find((r) => r.score === 0).rank, 4, 'the player who lost both ranks last');
  assertEqual(await org.page.locator('[data-testid=crosstable] tbody tr').count(), 4, 'crosstable rows');
  await org.page.click('[data-testid=round-tab-1]');
  await org.page.waitForSelector('[data-testid=pairings-round-1]', { timeout: T });
  // The round buttons say which round is shown (aria-pressed), in a group named for it.
  assertEqual(await org.page.getAttribute('[data-testid=round-tab-1]', 'aria-pressed'), 'true', 'round 1 shown');
  assertEqual(await org.page.getAttribute('[data-testid=round-tab-2]', 'aria-pressed'), 'false', 'round 2 not shown');
  assertEqual(await org.page.locator('[role=group][aria-label="Round shown"] [data-testid=round-tab-1]').count(), 1, 'the buttons\' group is named');
  await org.page.click('[data-testid=round-tab-2]');

  await org.page.screenshot({ path: join(ctx.shots, 'desktop-event.png'), fullPage: true, animations: 'disabled' });
  ctx.publish('desktop-event.png', 'desktop-event.png');
  const phone = await newPlayer(ctx, 'Vic', PHONE);
  await phone.page.goto(`${ctx.base}/#/tournaments/${EVENT}`);
  await phone.page.waitForSelector('[data-testid=standings][data-after-round="2"]', { timeout: T });
  const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert(overflow <= 0, `no horizontal page scrolling on the phone (overflow ${overflow}px)`);
  // The standings scroll sideways inside their panel; the players' names stay in view.
  const names = await phone.page.evaluate(() => {
    const wrap = document.querySelector('[data-testid=standings] .table-wrap');
    wrap.scrollLeft = wrap.scrollWidth;
    const box = wrap.getBoundingClientRect();
    const cell = document.querySelector('[data-testid=standings] tbody td.name').getBoundingClientRect();
    return { scrolled: wrap.scrollLeft, wrapLeft: box.left, cellLeft: cell.left, cellRight: cell.right };
  });
  assert(names.scrolled > 0, `the standings are wider than the phone and scroll (${JSON.stringify(names)})`);
  assert(names.cellLeft >= names.wrapLeft - 1 && names.cellRight > names.wrapLeft + 20, `a name stays in view when the standings are scrolled (${JSON.stringify(names)})`);
  await phone.page.screenshot({ path: join(ctx.shots, 'phone-event.png'), fullPage: true, animations: 'disabled' });
  ctx.publish('phone-event.png', 'phone-event.png');
  // The Chinese interface names the tiebreaks the way Chinese arbiters do.
  await openMenu(phone.page);  // a phone: the switch is behind the Menu button
  await phone.page.tap('[data-testid=lang-toggle]');
  for (const [col, zh] of [['opp_score', '对手分'], ['progressive', '累进分'], ['sb', '小分'], ['black_games', '后手局数']]) {
    const text = await phone.page.textContent(`[data-testid=standings] th[data-col=${col}]`);
    assert(text.includes(zh), `Chinese standings header ${col}: ${text}`);
  }
  assert((await phone.page.textContent('[data-testid=pairings] h3')).includes('对阵'), 'Chinese pairings heading');
});

// Kim uses a second game server node: whichever node creates the game, the player connected to the
// other one must be taken into it as well (game_started reaches both).
test('quick pairing: join a pool, leave, join again; a partner on another node joins and the game starts for both', { needs: ['matchmaker', 'pools'] }, async (ctx) => {
  const a = await newPlayer(ctx, 'Pat');
  const b = await newPlayer(ctx, 'Kim', {}, await ctx.secondNode());
  const pool = 'xiangqi:180000+2000';
  await a.page.click(`[data-testid=pool-join][data-pool="${pool}"]`);
  await a.page.waitForSelector(`[data-testid=pool-waiting][data-pool="${pool}"]`, { timeout: T });
  await a.page.click('[data-testid=pool-leave]');
  await a.page.waitForSelector(`[data-testid=pool-join][data-pool="${pool}"]`, { timeout: T });
  await a.page.click(`[data-testid=pool-join][data-pool="${pool}"]`);
  await a.page.waitForSelector('[data-testid=pool-waiting]', { timeout: T });
  // The other player sees someone waiting in that pool, and joins it.
  await b.page.waitForSelector(`[data-testid=pool-join][data-pool="${pool}"]:has-text("1")`, { timeout: T });
  await b.page.click(`[data-testid=pool-join][data-pool="${pool}"]`);
  const [ga, gb] = await Promise.all([waitForGame(a), waitForGame(b)]);
  assertEqual(ga, gb, 'both are in the same game');
  const sides = [await a.page.getAttribute('[data-testid=game-page]', 'data-you'), await b.page.getAttribute('[data-testid=game-page]', 'data-you')].sort();
  assertEqual(sides, ['b', 'r'], 'one plays red, the other black');
  // Kim aborts before moving: Pat is back in the pool at once (Kim is not), and the next partner's
  // game opens on Pat's page by itself.
  await b.page.click('[data-testid=abort]');
  await b.page.click('[data-testid=confirm-abort]');
  for (const p of [a, b]) assert(/aborted/i.test(await resultText(p)), `${p.name} sees the abort`);
  const requeued = a.page.locator('[data-testid=requeued]');
  await requeued.waitFor({ timeout: T });
  assert(/Looking for a new opponent/.test(await requeued.textContent()), `Pat reads that a new opponent is sought (got "${await requeued.textContent()}")`);
  assertEqual(await b.page.locator('[data-testid=requeued]').count(), 0, 'the player who aborted is not put back');
  const waiting = async () => (await a.page.evaluate(async () => (await (await fetch('/api/pools')).json()))).find((p) => p.pool === 'xiangqi:180000+2000')?.waiting ?? 0;
  await sleep(1000);
  assertEqual(await waiting(), 1, 'only Pat waits in the pool');
  // Kim joins again at once: not paired with Pat again (the last game between them was aborted).
  await b.page.evaluate(() => { location.hash = '#/'; }); // (Kim's page is on the second node)
  await b.page.click(`[data-testid=pool-join][data-pool="${pool}"]`);
  await b.page.waitForSelector('[data-testid=pool-waiting]', { timeout: T });
  await sleep(1500);
  assertEqual(await waiting(), 2, 'Pat and Kim both wait, not paired together');
  await b.page.click('[data-testid=pool-leave]');
  const c = await newPlayer(ctx, 'Lou');
  await c.page.waitForSelector(`[data-testid=pool-join][data-pool="${pool}"]:has-text("1")`, { timeout: T });
  await c.page.click(`[data-testid=pool-join][data-pool="${pool}"]`);
  const [ga2, gc] = await Promise.all([
    a.page
      .waitForFunction((old) => {
        const id = document.querySelector('[data-testid=game-page]')?.getAttribute('data-game-id');
        return id && id !== old ? id : null;
      }, ga, { timeout: T })
      .then((h) => h.jsonValue()),
    waitForGame(c),
  ]);
  assertEqual(ga2, gc, 'the new game opened for Pat and the new partner');
  assertEqual(await a.page.locator('[data-testid=requeued]').count(), 0, 'the waiting note is gone');
});

test('admin dashboard: token, live game and connections (also of another node), metrics; abort; adjudicate; the arbiter\'s move limit; disconnect; ban', { needs: ['admin'] }, async (ctx) => {
  const ada = await newPlayer(ctx, 'Ada');
  const ben = await newPlayer(ctx, 'Ben');
  const cal = await newPlayer(ctx, 'Cal');
  const g1 = await startGame(ctx, ada, ben, 'xiangqi');
  await playMove(ada, 'h2e2');
  await waitForMoves(ben, 1);

  const admin = await openAdmin(ctx); // (a wrong token: the next test)
  const row = admin.locator(`[data-testid=admin-games] li[data-game="${g1}"]`);
  await row.waitFor({ timeout: T });
  assert(/Ada vs \S*Ben/.test(await row.textContent()), `the live game lists both players (${await row.textContent()})`);
  assert(/\d+:\d\d – \d+:\d\d/.test(await row.locator('[data-testid=admin-clocks]').textContent()), 'the live game shows both clocks');
  for (const n of ['Ada', 'Ben', 'Cal']) await admin.waitForSelector(`[data-testid=admin-connections] tr[data-user$=${n}]`, { timeout: T });
  const stat = async (id) => Number(await admin.textContent(`[data-metric=${id}] .value`));
  await admin.waitForFunction(() => Number(document.querySelector('[data-metric=live_games] .value')?.textContent) >= 1, null, { timeout: T });
  assert((await stat('connections')) >= 3, 'metrics count the connections');
  assert((await stat('moves')) >= 1, 'metrics count the moves');
  assert(await admin.$('[data-testid=errors-by-code], [data-testid=no-errors]'), 'errors by code shown');
  assertEqual(await admin.evaluate(() => sessionStorage.getItem('xq.adminToken')), ctx.adminToken, 'token kept in sessionStorage');
  assertEqual(await admin.evaluate(() => localStorage.getItem('xq.adminToken')), null, 'token not in localStorage');

  // Abort the game: both players see it.
  await row.locator('[data-testid=admin-abort]').click();
  await row.locator('[data-testid=admin-abort-confirm]').click();
  await admin.waitForSelector('[data-testid=admin-msg]', { timeout: T });
  for (const p of [ada, ben]) assert(/aborted/i.test(await resultText(p)), `${p.name} sees the abort`);

  // Adjudicate another game.
  await ada.page.goto(`${ctx.base}/#/`);
  await cal.page.goto(`${ctx.base}/#/`);
  const g2 = await startGame(ctx, ada, cal, 'xiangqi');
  const row2 = admin.locator(`[data-testid=admin-games] li[data-game="${g2}"]`);
  await row2.waitFor({ timeout: T });
  // The arbiter's move limit (限着) is refused in a game whose rules have none.
  await row2.locator('[data-testid=admin-move-limit]').click();
  await row2.locator('[data-testid=admin-move-limit-confirm]').click();
  await admin.waitForSelector('[data-testid=admin-error]:has-text("no move limit on request")', { timeout: T });
  // The refusal outlives the polls (every 3 s) and is in view wherever the admin has scrolled to.
  await admin.waitForTimeout(3500);
  assert(await admin.isVisible('[data-testid=admin-error]:has-text("no move limit on request")'), 'the refusal stays until the next action');
  await admin.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  assert(await inView(admin, '[data-testid=admin-error]'), 'the refusal is in view at the bottom of the page');
  await row2.locator('[data-testid=admin-outcome]').selectOption('black-wins');
  await row2.locator('[data-testid=admin-adjudicate]').click();
  assert((await row2.locator('[data-testid=admin-adjudicate-confirm]').textContent()).includes('Black wins'), 'the confirmation names the outcome');
  for (const p of [ada, cal]) assertEqual(await p.page.locator('[data-testid=result]').count(), 0, 'not decided before the confirmation');
  await row2.locator('[data-testid=admin-adjudicate-confirm]').click();
  for (const p of [ada, cal]) assert(/Black wins: adjudication/.test(await resultText(p)), `${p.name} sees the adjudication`);
  await admin.waitForSelector('[data-testid=admin-msg]:has-text("adjudicated")', { timeout: T });
  assertEqual(await admin.locator('[data-testid=admin-error]').count(), 0, 'the next action clears the refusal');

  // ... and imposed in one whose rules have a 40-move limit on request: both players see it run.
  await ada.page.goto(`${ctx.base}/#/`);
  await cal.page.goto(`${ctx.base}/#/`);
  await createSeek(ada, { color: 'red', requestedLimit: 40 });
  await acceptSeekOf(cal, ada.name);
  const [g3] = await Promise.all([waitForGame(ada), waitForGame(cal)]);
  const row3 = admin.locator(`[data-testid=admin-games] li[data-game="${g3}"]`);
  await row3.waitFor({ timeout: T });
  // On one side only (seed 001: "对其中某一方或双方"): Black's checks will not count.
  await row3.locator('[data-testid=admin-move-limit-side]').selectOption('black');
  await row3.locator('[data-testid=admin-move-limit]').click();
  await row3.locator('[data-testid=admin-move-limit-confirm]').click();
  for (const p of [ada, cal]) await p.page.waitForSelector('[data-testid=move-limit-status]:has-text("arbiter on Black")', { timeout: T });
  await row3.locator('[data-testid=admin-outcome]').selectOption('draw');
  await row3.locator('[data-testid=admin-adjudicate]').click();
  await row3.locator('[data-testid=admin-adjudicate-confirm]').click();
  for (const p of [ada, cal]) assert(/adjudication/.test(await resultText(p)), `${p.name} sees the game end`);

  // Disconnect Cal (no ban): his page shows the drop and reconnects by itself.
  await cal.page.goto(`${ctx.base}/#/`);
  const drops = await cal.page.evaluate(() => window.__drops);
  await admin.click('[data-testid=admin-connections] tr[data-user$=Cal] [data-testid=admin-disconnect]');
  await admin.waitForSelector('[data-testid=admin-msg]:has-text("Cal was disconnected")', { timeout: T });
  await cal.page.waitForFunction((n) => window.__drops > n, drops, { timeout: T });
  await admin.waitForSelector('[data-testid=admin-connections] tr[data-user$=Cal]', { timeout: T });
  assert(await cal.page.$('[data-testid=user-name]'), 'Cal is still signed in after the reconnect');

  // Dee signs in on a second game-server node: listed with her node (the dashboard's node lists the
  // other nodes' users), and a ban from here closes her connection there.
  const dee = await newPlayer(ctx, 'Dee', {}, await ctx.secondNode());
  await admin.waitForSelector('[data-testid=admin-connections] tr[data-user$=Dee][data-node=e2e-2]', { timeout: T });
  assert((await admin.textContent('[data-testid=admin-node]')).includes('e2e'), 'the dashboard names the node that answered');
  await admin.click('[data-testid=admin-connections] tr[data-user$=Dee] [data-testid=ban-user]');
  await admin.click('[data-testid=admin-connections] tr[data-user$=Dee] [data-testid=ban-confirm]');
  await admin.waitForSelector('[data-testid=admin-msg]:has-text("Dee is banned")', { timeout: T });
  await dee.page.waitForSelector('[data-testid=guest-login]', { timeout: T });

  // Ban Ben: his connection is closed and his session no longer works.
  await admin.click('[data-testid=admin-connections] tr[data-user$=Ben] [data-testid=ban-user]');
  await admin.click('[data-testid=admin-connections] tr[data-user$=Ben] [data-testid=ban-confirm]');
  await admin.waitForSelector('[data-testid=admin-msg]:has-text("Ben is banned")', { timeout: T });
  await ben.page.waitForSelector('[data-testid=guest-login]', { timeout: T });
  await admin.waitForFunction(() => !document.querySelector('[data-testid=admin-connections] tr[data-user$=Ben]'), null, { timeout: T });
  await admin.screenshot({ path: join(ctx.shots, 'desktop-admin.png'), fullPage: true, animations: 'disabled' });
});

test('admin: a wrong token stays on the token form with the refusal, no data shown until a token is accepted', { needs: ['admin'] }, async (ctx) => {
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  ctx.contexts.push(context);
  const admin = await context.newPage();
  await admin.goto(`${ctx.base}/#/admin`);
  await admin.fill('[data-testid=admin-token]', 'not-the-token');
  await admin.click('[data-testid=admin-save]');
  await admin.waitForSelector('[data-testid=admin-denied]', { timeout: T });
  await admin.waitForTimeout(500);
  assert(await admin.isVisible('[data-testid=admin-token]'), 'the token form stays');
  assert(await admin.isVisible('[data-testid=admin-denied]:has-text("refused")'), 'with the refusal');
  for (const id of ['admin-dashboard', 'metrics', 'admin-games', 'admin-connections', 'admin-roles', 'admin-banned']) {
    assertEqual(await admin.locator(`[data-testid=${id}]`).count(), 0, `no ${id} panel after a refused token`);
  }
  assertEqual(await admin.evaluate(() => sessionStorage.getItem('xq.adminToken')), null, 'the refused token is not kept');
  await admin.fill('[data-testid=admin-token]', ctx.adminToken);
  await admin.click('[data-testid=admin-save]');
  await admin.waitForSelector('[data-testid=admin-games]', { timeout: T });
  assertEqual(await admin.locator('[data-testid=admin-denied]').count(), 0, 'the refusal goes once a token is accepted');
});

test('admin: the banned users panel lists a ban and Unban lifts it', { needs: ['admin'] }, async (ctx) => {
  const eve = await newPlayer(ctx, 'Eve');
  const id = await eve.page.evaluate(() => window.__xq.user.userId);
  const admin = await openAdmin(ctx);
  const row = admin.locator('[data-testid=admin-connections] tr[data-user$=Eve]').first();
  await row.waitFor({ timeout: T });
  await row.locator('[data-testid=ban-user]').click();
  await row.locator('[data-testid=ban-confirm]').click();
  await admin.waitForSelector('[data-testid=admin-msg]:has-text("Eve is banned")', { timeout: T });
  const item = admin.locator(`[data-testid=admin-banned] li[data-user-id="${id}"]`);
  await item.waitFor({ timeout: T });
  assert((await item.textContent()).includes('Eve'), `the banned list names the user the dashboard saw (${await item.textContent()})`);
  await item.locator('[data-testid=unban]').click();
  await admin.waitForSelector('[data-testid=admin-msg]:has-text("Eve is no longer banned")', { timeout: T });
  await item.waitFor({ state: 'detached', timeout: T });
  const r = await fetch(`${ctx.base}/api/admin/banned`, { headers: { 'X-Admin-Token': ctx.adminToken } });
  assert(!(await r.json()).banned.includes(id), 'the server lifted the ban');
});

test('a ban: the banned player\'s page says so (English, Chinese); the opponent reads "opponent banned" (负方账号被封禁: not 对方, which a spectator would misread)', { needs: ['admin'] }, async (ctx) => {
  const fay = await newPlayer(ctx, 'Fay');
  const gus = await newPlayer(ctx, 'Gus');
  await startGame(ctx, fay, gus, 'xiangqi');
  const id = await gus.page.evaluate(() => window.__xq.user.userId);
  assertEqual((await banUser(ctx, id)).status, 200, 'the ban is accepted');
  await gus.page.waitForSelector('[data-testid=guest-login]', { timeout: T });
  await gus.page.waitForSelector('[data-testid=banned-notice]:has-text("This account is banned.")', { timeout: T });
  await gus.page.click('[data-testid=lang-toggle]');
  await gus.page.waitForSelector('[data-testid=banned-notice]:has-text("该账号已被封禁")', { timeout: T });
  assertEqual(await resultText(fay), 'Red wins: opponent banned', 'the opponent reads why the game ended');
  await fay.page.click('[data-testid=lang-toggle]');
  await fay.page.waitForSelector('[data-testid=result]:has-text("红胜：负方账号被封禁")', { timeout: T });
});

test('admin on a phone: live games before the metrics and roles; connection actions reachable without sideways scrolling; a refusal in view', { needs: ['admin'] }, async (ctx) => {
  const hal = await newPlayer(ctx, 'Hal');
  const ivy = await newPlayer(ctx, 'Ivy');
  const g = await startGame(ctx, hal, ivy, 'xiangqi');
  const admin = await openAdmin(ctx, PHONE);
  const game = admin.locator(`[data-testid=admin-games] li[data-game="${g}"]`);
  await game.waitFor({ timeout: T });
  const top = (sel) => admin.$eval(sel, (e) => e.getBoundingClientRect().top);
  assert((await top('[data-testid=admin-games]')) < (await top('[data-testid=metrics]')), 'live games come before the metrics');
  assert((await top('[data-testid=admin-games]')) < (await top('[data-testid=admin-roles]')), 'live games come before the roles');
  const row = admin.locator('[data-testid=admin-connections] tr[data-user$=Hal]').first();
  await row.waitFor({ timeout: T });
  assert(await admin.$eval('[data-testid=admin-connections] .table-wrap', (w) => w.scrollWidth <= w.clientWidth + 1), 'the connections table fits the width');
  await row.locator('[data-testid=ban-user]').scrollIntoViewIfNeeded();
  assert(await inView(admin, '[data-testid=admin-connections] tr[data-user$=Hal] [data-testid=ban-user]'), 'its Ban button is on screen');
  assert(await inView(admin, '[data-testid=admin-connections] tr[data-user$=Hal] [data-testid=admin-disconnect]'), 'its Disconnect button is on screen');
  assert(await admin.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no horizontal page scrolling');
  // A refused action on the phone: its reason is on screen where the admin is.
  await game.locator('[data-testid=admin-move-limit]').click();
  await game.locator('[data-testid=admin-move-limit-confirm]').click();
  await admin.waitForSelector('[data-testid=admin-error]:has-text("no move limit on request")', { timeout: T });
  assert(await inView(admin, '[data-testid=admin-error]'), 'the refusal is in view on the phone');
  await admin.screenshot({ path: join(ctx.shots, 'phone-admin.png'), fullPage: true, animations: 'disabled' });
});

test('tournament organiser controls: join code, withdraw, custom tiebreaks, manual rounds, edit pairing, re-pair, pause/resume, correct a result', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const id = 'e2e-ctl';
  const org = await newOrganiser(ctx, 'Orla');
  const players = [];
  for (const n of ['Anna', 'Boris', 'Cyra', 'Dima']) players.push(await newPlayer(ctx, n));
  const xu = await newPlayer(ctx, 'Xuan');

  await org.page.goto(`${ctx.base}/#/tournaments`);
  await org.page.click('[data-testid=new-event]');
  await org.page.fill('[data-testid=ev-name]', 'Club night');
  await org.page.fill('[data-testid=ev-id]', id);
  await org.page.fill('[data-testid=ev-minutes]', '2');
  await org.page.fill('[data-testid=ev-rounds]', '2');
  await org.page.selectOption('[data-testid=ev-tiebreak-preset]', 'custom');
  await org.page.fill('[data-testid=ev-tiebreaks]', 'progressive, opp_score, lot');
  await org.page.selectOption('[data-testid=ev-access]', 'code');
  await org.page.fill('[data-testid=ev-join-code]', 'tea');
  await org.page.uncheck('[data-testid=ev-auto-rounds]');
  await org.page.click('[data-testid=create-event]');
  await org.page.waitForSelector(`[data-testid=event-page][data-event=${id}]`, { timeout: T });
  // The event's rules say who runs the rounds.
  assertEqual(await org.page.textContent('[data-testid=event-manual-rounds]'), 'The organiser pairs and starts each round.', 'manual rounds are in the rules');

  // A wrong code is refused with the reason; the right one registers.
  for (const p of [...players, xu]) {
    await p.page.goto(`${ctx.base}/#/tournaments/${id}`);
    if (p === players[0]) {
      await p.page.fill('[data-testid=join-code]', 'coffee');
      await p.page.click('[data-testid=join-event]');
      await p.page.waitForSelector('[data-testid=event-msg].error:has-text("Wrong join code")', { timeout: T });
    }
    await p.page.fill('[data-testid=join-code]', 'tea');
    await p.page.click('[data-testid=join-event]');
    await p.page.waitForSelector('[data-testid=registered]', { timeout: T });
  }
  // Xu withdraws again before the start (the page asks first).
  const withdrawAsked = new Promise((resolve) => xu.page.once('dialog', (d) => { resolve(d.message()); void d.accept(); }));
  await xu.page.click('[data-testid=withdraw]');
  assertEqual(await withdrawAsked, 'Withdraw from the event?', 'the withdrawal is confirmed first');
  // The organiser's page hears the event's news as it happens, by name.
  // (Xuan's join was news a moment before: wait for the withdrawal itself, not any line naming Xuan.)
  await org.page.waitForFunction(() => {
    const text = document.querySelector('[data-testid=event-notice]')?.textContent ?? '';
    return text.includes('Xuan') && text.includes('withdrew');
  }, null, { timeout: T });
  await xu.page.waitForSelector('[data-testid=join-event]', { timeout: T });

  // Start: round 1 is paired but not started (no auto rounds).
  await org.page.reload();
  await clickConfirmed(org.page, '[data-testid=start-event]');
  await org.page.waitForSelector('[data-testid=pairings-round-1]', { timeout: T });
  await org.page.waitForSelector('[data-testid=start-round]:not([disabled])', { timeout: T });
  const names = async () => org.page.$$eval('[data-testid=pairings-round-1] tbody tr', (rows) =>
    rows.map((r) => [r.querySelector('[data-testid=board-red]').textContent, r.querySelector('[data-testid=board-black]').textContent]));
  const before = await names();
  assert(!before.flat().some((n) => n.endsWith('Xuan')), `the withdrawn player is not paired (${JSON.stringify(before)})`);

  // Edit: swap the colours of board 1.
  const edit = await org.page.inputValue('[data-testid=edit-boards]');
  // In pairing numbers (1–4 here), as the pairings table shows them, not places in the list (0–3).
  assertEqual(edit.split(/[-,\s]+/).filter(Boolean).map(Number).sort().join(','), '1,2,3,4', `the edit box speaks pairing numbers (${edit})`);
  const pairs = edit.split(',').map((s) => s.trim());
  const [a, b] = pairs[0].split('-');
  pairs[0] = `${b}-${a}`;
  await org.page.fill('[data-testid=edit-boards]', pairs.join(', '));
  await org.page.click('[data-testid=save-pairing]');
  await org.page.waitForSelector('[data-testid=event-msg].ok', { timeout: T });
  await org.page.waitForFunction((want) => document.querySelector('[data-testid=pairings-round-1] tbody tr [data-testid=board-red]')?.textContent === want, before[0][1], { timeout: T });

  // Re-pair puts the engine's pairing back, in the table and in the edit box (which showed the
  // typed pairing after the save, and would have put it back on the next save); pause and resume.
  const repairAsked = await clickConfirmed(org.page, '[data-testid=repair]');
  assert(/^Pair round 1 again\?.*by hand.*replaced/.test(repairAsked), `re-pairing is confirmed first: ${repairAsked}`);
  await org.page.waitForFunction((want) => document.querySelector('[data-testid=pairings-round-1] tbody tr [data-testid=board-red]')?.textContent === want, before[0][0], { timeout: T });
  await org.page.waitForFunction((want) => document.querySelector('[data-testid=edit-boards]')?.value === want, edit, { timeout: T });
  // A player is shown the board, colour and opponent of the paired round before it starts.
  await players[0].page.waitForSelector('[data-testid=next-paired]', { timeout: 15_000 });
  const myBoard = before.find((pair) => pair.some((n) => n.endsWith(players[0].name)));
  assert(myBoard, `${players[0].name} is paired (${JSON.stringify(before)})`);
  const myOpponent = myBoard[0].endsWith(players[0].name) ? myBoard[1] : myBoard[0];
  assertEqual((await players[0].page.textContent('[data-testid=next-paired] [data-testid=next-opponent]')).trim(), myOpponent.trim(),
    'the opponent of the paired round');
  // Pausing asks for a reason for the players; the page gives it with what a pause stops.
  const pauseAsked = new Promise((resolve) => org.page.once('dialog', (d) => { resolve(d.message()); void d.accept('Venue power cut'); }));
  await org.page.click('[data-testid=pause]');
  assert((await pauseAsked).startsWith('Pause the event?'), 'pausing asks for a reason');
  await org.page.waitForSelector('[data-testid=event-page][data-stage=paused]', { timeout: T });
  // Paused says why and what it stops, and a round cannot be started until the event resumes.
  await org.page.waitForSelector('[data-testid=paused-note]', { timeout: T });
  const pausedNote = await org.page.textContent('[data-testid=paused-note]');
  assert(pausedNote.includes('The organiser paused the event: Venue power cut') && pausedNote.includes('Games being played continue'),
    `the paused note gives the reason (${pausedNote})`);
  await players[0].page.waitForSelector('[data-testid=paused-note]', { timeout: T });  // told live
  assert((await players[0].page.textContent('[data-testid=paused-note]')).includes('Venue power cut'), 'a player reads the reason too');
  await org.page.waitForSelector('[data-testid=start-round][disabled]', { timeout: T });
  await org.page.click('[data-testid=resume]');
  await org.page.waitForSelector('[data-testid=event-page][data-stage=running]', { timeout: T });

  // Start the round by hand (asked first: its games cannot be taken back); the players play it.
  const roundAsked = await clickConfirmed(org.page, '[data-testid=start-round]');
  assert(/^Start round 1\?.*can no longer be changed/.test(roundAsked), `starting the round is confirmed first: ${roundAsked}`);
  const round1 = new Map();
  await Promise.all(players.map(async (p) => round1.set(p.name, await enterNewGame(p))));
  // While its games are played, the next round cannot be paired, and the page says why.
  await org.page.waitForSelector('[data-testid=round-in-progress]', { timeout: T });
  await org.page.waitForSelector('[data-testid=pair-round][disabled]', { timeout: T });
  const results = await playRound(players, 1, round1);

  // No auto rounds: the organiser pairs round 2.
  await org.page.waitForSelector('[data-testid=pair-round]:not([disabled])', { timeout: 30_000 });
  await org.page.click('[data-testid=pair-round]');
  await org.page.waitForSelector('[data-testid=event-page][data-rounds-paired="2"]', { timeout: T });

  // The event's own tiebreak columns, in its order.
  await org.page.waitForSelector('[data-testid=standings][data-after-round="1"]', { timeout: T });
  const cols = await org.page.$$eval('[data-testid=standings] th.event-tb', (ths) => ths.map((th) => th.getAttribute('data-col')));
  assertEqual(cols, ['tb-progressive', 'tb-opp_score', 'tb-lot'], 'custom tiebreak columns');

  // Correct the first game of round 1 to a Black win; standings follow.
  const g = results[0];
  const scoreOf = async (n) => Number(await org.page.textContent(`[data-testid=standings] tbody tr[data-player$="${n}"] td[data-col=score]`));
  assertEqual(await scoreOf(g.red), 2, `${g.red} won round 1`);
  await org.page.selectOption('[data-testid=correct-game]', { index: 0 });
  const chosen = await org.page.$eval('[data-testid=correct-game]', (s) => s.options[s.selectedIndex].textContent);
  // The form starts from the game's result (saving it unchanged once made a double forfeit of it).
  const shownResult = chosen.trim().split(' ').pop();
  assertEqual(`${await org.page.inputValue('[data-testid=correct-red]')}:${await org.page.inputValue('[data-testid=correct-black]')}`,
    shownResult, 'the correction form starts from the current result');
  await org.page.selectOption('[data-testid=correct-red]', '0');
  await org.page.selectOption('[data-testid=correct-black]', '2');
  const correctedGame = await org.page.inputValue('[data-testid=correct-game]');
  const correctionAsked = new Promise((resolve) => org.page.once('dialog', (d) => { resolve(d.message()); void d.accept(); }));
  await org.page.click('[data-testid=correct-save]');
  const asked = await correctionAsked;
  assert(asked.startsWith('Record ') && asked.includes(' as 0:2?'), `the correction is confirmed first (${asked})`);
  await org.page.waitForSelector('[data-testid=event-msg].ok', { timeout: T });
  // Whichever game the first option is, its red player now has 0 and its black player 2.
  const [redName, blackName] = chosen.replace(/^\S+\s/, '').split(' ')[0].split('–');
  await org.page.waitForFunction(
    ([r, b]) => {
      const v = (n) => Number(document.querySelector(`[data-testid=standings] tbody tr[data-player="${n}"] td[data-col=score]`)?.textContent);
      return v(r) === 0 && v(b) === 2;
    },
    [redName, blackName],
    { timeout: T },
  );
  // Its link in round 1's pairings names the reason in words, not by the code "corrected".
  await org.page.click('[data-testid=round-tab-1]');
  await org.page.waitForFunction((gid) => document.querySelector(`[data-testid=board-game][data-game="${gid}"]`)?.getAttribute('title') === 'result corrected', correctedGame, { timeout: T });
  // The game's page says the event counts the corrected result (its record keeps the board's).
  await org.page.goto(`${ctx.base}/#/game/${correctedGame}`);
  await org.page.waitForSelector('[data-testid=result-corrected]:has-text("0:2")', { timeout: T });
});

test('two-game round: the organiser plays too; game 2 swaps colours and is offered on the finished game page; board score 2–2', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const id = 'e2e-two';
  const gia = await newOrganiser(ctx, 'Gia');
  const hal = await newPlayer(ctx, 'Hal');
  await gia.page.goto(`${ctx.base}/#/tournaments`);
  await gia.page.click('[data-testid=new-event]');
  await gia.page.fill('[data-testid=ev-name]', 'Two-game match');
  await gia.page.fill('[data-testid=ev-id]', id);
  await gia.page.selectOption('[data-testid=ev-variant]', 'jieqi');
  await gia.page.fill('[data-testid=ev-minutes]', '2');
  await gia.page.fill('[data-testid=ev-rounds]', '1');
  await gia.page.selectOption('[data-testid=ev-games-per-round]', '2');
  // The Jiujiang regulation's move limit: 40 moves without a capture, checks not counted.
  await gia.page.fill('[data-testid=ev-move-limit]', '40');
  await gia.page.selectOption('[data-testid=ev-counted-checks]', '0');
  await gia.page.click('[data-testid=create-event]');
  await gia.page.waitForSelector(`[data-testid=event-page][data-event=${id}]`, { timeout: T });
  const ruleTags = ['40-move limit', 'checks not counted'].join(' | ');
  assertEqual((await gia.page.locator('[data-testid=event-rule-option]').allTextContents()).join(' | '), ruleTags, 'the event shows its move limit');
  await gia.page.click('[data-testid=join-event]');
  await gia.page.waitForSelector('[data-testid=registered]', { timeout: T });
  await hal.page.goto(`${ctx.base}/#/tournaments/${id}`);
  await hal.page.click('[data-testid=join-event]');
  await hal.page.waitForSelector('[data-testid=registered]', { timeout: T });
  await gia.page.reload();
  await clickConfirmed(gia.page, '[data-testid=start-event]');

  const players = [gia, hal];
  const g1 = new Map();
  await Promise.all(players.map(async (p) => g1.set(p.name, await enterNewGame(p))));
  assert(g1.get('Gia').id.endsWith('-g1'), `first game id ${g1.get('Gia').id}`);
  assertEqual((await hal.page.locator('[data-testid=game-rule-option]').allTextContents()).join(' | '), ruleTags, 'the game is played under the event\'s move limit');
  // Jieqi: Red opens with a dark cannon move, Black resigns.
  const [r1, b1] = g1.get('Gia').you === 'r' ? [gia, hal] : [hal, gia];
  await playMove(r1, 'b2b9');
  await waitForMoves(b1, 1);
  await b1.page.click('[data-testid=resign]');
  await b1.page.click('[data-testid=confirm-resign]');
  for (const p of players) assert(/Red wins: resignation/.test(await resultText(p)), `${p.name} sees game 1's result`);
  assertEqual((await gia.page.textContent('[data-testid=game-place]')).trim(), 'Round 1, board 1 · G1', 'the game says where it belongs');

  // Game 2 is offered on the finished game's page (not forced), with colours swapped; the finished
  // game links to it.
  const g2 = new Map();
  for (const p of players) {
    await p.page.waitForSelector('[data-testid=ready-game]', { timeout: 30_000 });
    assert(await p.page.$('[data-testid=game-page][data-over="1"]'), `${p.name} still sees the finished game under the offer`);
  }
  await gia.page.waitForSelector('[data-testid=next-game-of-match]', { timeout: T });
  await Promise.all(players.map(async (p) => g2.set(p.name, await enterNewGame(p, g1.get(p.name).id))));
  assert(g2.get('Gia').id.endsWith('-g2'), `second game id ${g2.get('Gia').id}`);
  assertEqual(g2.get('Gia').you, g1.get('Hal').you, 'colours are swapped in game 2');
  const [r2, b2] = g2.get('Gia').you === 'r' ? [gia, hal] : [hal, gia];
  await playMove(r2, 'b2b9');
  await waitForMoves(b2, 1);
  await b2.page.click('[data-testid=resign]');
  await b2.page.click('[data-testid=confirm-resign]');
  for (const p of players) assert(/Red wins: resignation/.test(await resultText(p)), `${p.name} sees game 2's result`);

  // The board shows both games and a 2–2 match score; both players have 2 points.
  await gia.page.click('[data-testid=back-to-event]');
  await gia.page.waitForSelector('[data-testid=event-page][data-stage=finished]', { timeout: 30_000 });
  await gia.page.waitForSelector('[data-testid=board-game][data-finished="1"] >> nth=1', { timeout: T });
  assertEqual((await gia.page.textContent('[data-testid=board-score]')).trim(), '2 – 2', 'match score');
  const links = await gia.page.$$eval('[data-testid=board-game]', (as) => as.map((a) => a.textContent.trim()));
  assertEqual(links, ['G1 2:0', 'G2 2:0'], 'both games with their results (Red–Black points)');
  await gia.page.waitForSelector('[data-testid=standings][data-after-round="1"]', { timeout: T });
  const scores = await gia.page.$$eval('[data-testid=standings] td[data-col=score]', (tds) => tds.map((td) => Number(td.textContent)));
  assertEqual(scores, [2, 2], 'both players have 2 points');
  const blackGames = await gia.page.$$eval('[data-testid=standings] td[data-col=black_games]', (tds) => tds.map((td) => Number(td.textContent)));
  assertEqual(blackGames, [1, 1], 'each played Black once');
});

test('play-off: after round 1 the top two play a final; the winner heads the final ranking', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const id = 'e2e-ko';
  const org = await newOrganiser(ctx, 'Omar');
  const players = [];
  for (const n of ['Ivy', 'Jon', 'Kai', 'Lea']) players.push(await newPlayer(ctx, n));
  await createAndJoin(ctx, org, { id, name: 'Knockout finish', rounds: 1 }, players, async () => {
    await org.page.check('[data-testid=ev-playoff]');
    await org.page.fill('[data-testid=ev-playoff-after]', '1');
    await org.page.selectOption('[data-testid=ev-playoff-size]', '2');
  });
  await org.page.reload();
  // The event's rules name the play-off, in either language (one Swiss round: nobody plays on).
  await org.page.waitForSelector('[data-testid=event-playoff]', { timeout: T });
  assertEqual(await org.page.textContent('[data-testid=event-playoff]'), 'Play-off after round 1: the top 2 of the standings play a final; a draw goes to the higher seed.', 'the play-off in the rules');
  await org.page.click('[data-testid=lang-toggle]');
  await org.page.waitForFunction(() => document.querySelector('[data-testid=event-playoff]')?.textContent === '第 1 轮后积分前 2 名进行附加赛决赛；和棋判第一阶段名次列前者胜。', null, { timeout: T });
  await org.page.click('[data-testid=lang-toggle]');
  await org.page.waitForFunction(() => document.querySelector('[data-testid=event-playoff]')?.textContent.startsWith('Play-off'), null, { timeout: T });
  await clickConfirmed(org.page, '[data-testid=start-event]');
  const round1 = new Map();
  await Promise.all(players.map(async (p) => round1.set(p.name, await enterNewGame(p))));
  const results = await playRound(players, 1, round1);

  // The two winners (Red in round 1) are offered the final; they play it.
  const finalists = results.map((r) => players.find((p) => p.name === r.red));
  const fin = new Map();
  await Promise.all(finalists.map(async (p) => fin.set(p.name, await enterNewGame(p, round1.get(p.name).id))));
  const finalId = fin.get(finalists[0].name).id;
  assertEqual(fin.get(finalists[1].name).id, finalId, 'both finalists are in the same game');
  assert(finalId.includes('-ko-final'), `a knockout final (${finalId})`);
  const [fr, fb] = fin.get(finalists[0].name).you === 'r' ? finalists : [finalists[1], finalists[0]];
  await playMove(fr, 'h2e2');
  await waitForMoves(fb, 1);
  await fb.page.click('[data-testid=resign]');
  await fb.page.click('[data-testid=confirm-resign]');
  assert(/Red wins: resignation/.test(await resultText(fr)), 'the final is decided');

  await org.page.waitForSelector('[data-testid=event-page][data-stage=finished]', { timeout: 30_000 });
  await org.page.waitForSelector('[data-testid=playoff] li[data-knockout=final]', { timeout: T });
  const winner = await org.page.getAttribute('[data-testid=playoff] li[data-knockout=final]', 'data-winner');
  assert(who(players, winner) === fr, `the final's winner is ${fr.name} (page says ${winner})`);
  const ranking = await org.page.textContent('[data-testid=final-ranking]');
  assert(new RegExp(`1\\. \\S*${fr.name}.*2\\. \\S*${fb.name}`).test(ranking), `final ranking starts with the finalists: ${ranking}`);
  await org.page.screenshot({ path: join(ctx.shots, 'desktop-event-playoff.png'), fullPage: true, animations: 'disabled' });
});

test('a bye: of three players the one left out of round 1 is told it has the bye; the others get their game', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const id = 'e2e-bye';
  const org = await newOrganiser(ctx, 'Odo');
  const players = [];
  for (const n of ['Pia', 'Quin', 'Rudi']) players.push(await newPlayer(ctx, n));
  await createAndJoin(ctx, org, { id, name: 'Three of us', rounds: 2 }, players);
  await org.page.reload();
  await clickConfirmed(org.page, '[data-testid=start-event]');
  // Each player either is taken to a game or, on the event page, reads that it has the bye.
  const fates = await Promise.all(
    players.map(async (p) => {
      const h = await p.page.waitForFunction(() => {
        if (document.querySelector('[data-testid=game-page]') || document.querySelector('[data-testid=open-ready-game]')) return 'game';
        const none = document.querySelector('[data-testid=no-game-now]');
        return none && /bye/.test(none.textContent) ? 'bye' : false;
      }, null, { timeout: 30_000 });
      return h.jsonValue();
    }),
  );
  assertEqual(fates.filter((f) => f === 'bye').length, 1, `one player has the bye (${fates.join(', ')})`);
  assertEqual(fates.filter((f) => f === 'game').length, 2, 'the other two play');
});
