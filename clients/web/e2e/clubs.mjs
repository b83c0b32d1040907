// Clubs in the browser (ui/ClubsPage.tsx): an organiser makes a club, adds members by account
// name, makes a members-only event for it from the club's page; members join, others are refused.
import { join } from 'node:path';
import { assert, assertEqual, test } from './lib/harness.mjs';
import { T, newAccount, newPlayer } from './lib/ui.mjs';
import { newOrganiser } from './tournaments.mjs';

const tokenOf = (page) => page.evaluate(() => window.__xq.conn.token);

async function apiAs(ctx, headers, method, path, body) {
  const r = await fetch(`${ctx.base}${path}`, {
    method,
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  assert(r.ok, `${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

// The field's error: marked invalid and described by the message, which says `text`.
async function assertFieldError(page, field, msg, text) {
  await page.waitForSelector(`${msg}.error`, { timeout: T });
  assertEqual((await page.textContent(msg)).trim(), text, 'the refusal in words');
  assertEqual(await page.getAttribute(field, 'aria-invalid'), 'true', 'the field is marked invalid');
  const msgId = await page.getAttribute(msg, 'id');
  assert(msgId && (await page.getAttribute(field, 'aria-describedby') ?? '').split(' ').includes(msgId), 'the field is described by its error');
}

const listed = (page, list) => page.$$eval(`[data-testid=${list}] [data-testid=club-person]`, (as) => as.map((a) => a.textContent.trim()));

test('clubs: an organiser creates a club, adds a member by name (a wrong or guest name refused in words), makes a members-only event from the club page; the member joins, a non-member is refused', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const org = await newOrganiser(ctx, 'Clara_org');
  const member = await newAccount(ctx, 'Mei');
  const outsider = await newAccount(ctx, 'Otto');
  const guest = await newPlayer(ctx, 'GuestGus');

  // From the tournaments page to the clubs page; nothing remembered on this device yet.
  await org.page.goto(`${ctx.base}/#/tournaments`);
  await org.page.click('[data-testid=clubs-link]');
  await org.page.waitForSelector('[data-testid=clubs-page] [data-testid=no-clubs-here]', { timeout: T });
  assertEqual(await org.page.title(), 'Clubs · Xiangqi · Jieqi', 'the tab names the page');
  // The id rule is the browser's check too: a space is refused before anything is sent.
  await org.page.fill('[data-testid=club-id]', 'east side');
  await org.page.fill('[data-testid=club-name]', 'East Side Club');
  await org.page.click('[data-testid=create-club]');
  assert(await org.page.$eval('[data-testid=club-id]', (el) => !el.validity.valid), 'an id with a space is invalid');
  assertEqual(await org.page.evaluate(() => location.hash), '#/clubs', 'still on the clubs page');
  await org.page.fill('[data-testid=club-id]', 'e2e-east');
  // A name's limit is the server's 100 bytes: 40 Chinese characters (120 bytes) are refused at the
  // field before anything is sent (the field once cut at 80 characters, which the server refused).
  await org.page.fill('[data-testid=club-name]', '东'.repeat(40));
  await org.page.click('[data-testid=create-club]');
  await org.page.waitForSelector('[data-testid=club-form-error]', { timeout: T });
  assertEqual((await org.page.textContent('[data-testid=club-form-error]')).trim(),
    'A club name is at most 100 bytes (about 33 Chinese characters).', 'the byte limit in words, not the server\'s 400');
  assertEqual(await org.page.getAttribute('[data-testid=club-name]', 'aria-invalid'), 'true', 'marked at the name field');
  await org.page.fill('[data-testid=club-name]', 'East Side Club');
  await org.page.click('[data-testid=create-club]');
  await org.page.waitForSelector('[data-testid=club-page][data-club=e2e-east]', { timeout: T });
  assertEqual((await org.page.textContent('[data-testid=club-name-shown]')).trim(), 'East Side Club', 'the club page names the club');
  assertEqual((await org.page.textContent('[data-testid=club-id-shown]')).trim(), 'id: e2e-east', 'and shows its id');
  await org.page.waitForFunction(() => document.title.startsWith('East Side Club · Club'), null, { timeout: T });
  await org.page.waitForFunction((n) => [...document.querySelectorAll('[data-testid=club-organisers] [data-testid=club-person]')].some((a) => a.textContent === n), org.name, { timeout: T });
  assert(await org.page.isVisible('[data-testid=no-club-members]'), 'no members yet');

  // A name nobody has, and a guest's name: refused at the field, in words.
  const field = '[data-testid=add-club-member-name]';
  const msg = '[data-testid=add-club-member-msg]';
  await org.page.fill(field, 'Nobody_here');
  await org.page.click('[data-testid=add-club-member-save]');
  await assertFieldError(org.page, field, msg, 'No account is named “Nobody_here” — guests cannot be members.');
  await org.page.fill(field, guest.name);
  await org.page.click('[data-testid=add-club-member-save]');
  await org.page.waitForFunction((n) => document.querySelector('[data-testid=add-club-member-msg]')?.textContent.includes(n), guest.name, { timeout: T });
  await assertFieldError(org.page, field, msg, `No account is named “${guest.name}” — guests cannot be members.`);
  assertEqual((await apiAs(ctx, {}, 'GET', '/api/clubs/e2e-east')).members, [], 'nobody was added');

  // The member, typed in capitals, is added and listed by the account's own name.
  await org.page.fill(field, member.name.toUpperCase());
  await org.page.click('[data-testid=add-club-member-save]');
  await org.page.waitForSelector(`${msg}.ok`, { timeout: T });
  assertEqual((await org.page.textContent(msg)).trim(), `${member.name} is now a member.`, 'the addition is confirmed');
  assertEqual(await org.page.getAttribute(field, 'aria-invalid'), null, 'the field is no longer invalid');
  await org.page.waitForFunction(() => document.querySelectorAll('[data-testid=club-members] [data-testid=club-person]').length === 1, null, { timeout: T });
  assertEqual(await listed(org.page, 'club-members'), [member.name], 'the member list shows the name, not the id');
  const club = await apiAs(ctx, {}, 'GET', '/api/clubs/e2e-east');
  assertEqual(club.members.length, 1, 'the server has the member');
  assert(/^u-/.test(club.members[0]), 'by the account id');
  await org.page.fill(field, member.name);
  await org.page.click('[data-testid=add-club-member-save]');
  await assertFieldError(org.page, field, msg, `${member.name} is a member already.`);

  // The clubs page remembers the club on this device.
  await org.page.goto(`${ctx.base}/#/clubs`);
  await org.page.waitForSelector('[data-testid=remembered-clubs] li[data-club=e2e-east]', { timeout: T });
  assertEqual((await org.page.textContent('[data-testid=remembered-clubs] li[data-club=e2e-east] a')).trim(), 'East Side Club', 'listed by name');
  await org.page.click('[data-testid=remembered-clubs] li[data-club=e2e-east] a');

  // New event for this club: the form comes with the club and members-only access.
  await org.page.click('[data-testid=new-club-event]', { timeout: T });
  await org.page.waitForSelector('[data-testid=event-form]', { timeout: T });
  assertEqual(await org.page.inputValue('[data-testid=ev-club]'), 'e2e-east', 'the club id is filled in');
  assertEqual(await org.page.inputValue('[data-testid=ev-access]'), 'members', 'members only');
  await org.page.fill('[data-testid=ev-name]', 'East club night');
  await org.page.fill('[data-testid=ev-id]', 'e2e-east-night');
  await org.page.click('[data-testid=create-event]');
  await org.page.waitForSelector('[data-testid=event-page][data-event=e2e-east-night]', { timeout: T });
  const ev = await apiAs(ctx, {}, 'GET', '/api/events/e2e-east-night');
  assertEqual([ev.config.club_id, ev.config.access], ['e2e-east', 'members'], 'the event is the club\'s, members only');
  await org.page.waitForSelector('[data-testid=event-club-link]:has-text("East Side Club")', { timeout: T });
  assertEqual(await org.page.getAttribute('[data-testid=event-club-link]', 'href'), '#/club/e2e-east', 'the event links to its club');

  // The member joins; a registered account that is not a member reads the server's refusal.
  await member.page.goto(`${ctx.base}/#/tournaments/e2e-east-night`);
  await member.page.click('[data-testid=join-event]', { timeout: T });
  await member.page.waitForSelector('[data-testid=registered]', { timeout: T });
  await outsider.page.goto(`${ctx.base}/#/tournaments/e2e-east-night`);
  await outsider.page.click('[data-testid=join-event]', { timeout: T });
  await outsider.page.waitForSelector('[data-testid=event-msg].error', { timeout: T });
  assertEqual((await outsider.page.textContent('[data-testid=event-msg]')).trim(), 'This event is for club members only.', 'the refusal in words');
  assertEqual((await apiAs(ctx, {}, 'GET', '/api/events/e2e-east-night')).players.length, 1, 'only the member is registered');

  // The member follows the event's link to the club: listed as "you", no organiser's forms.
  await member.page.click('[data-testid=event-club-link]');
  await member.page.waitForSelector('[data-testid=club-page][data-club=e2e-east]', { timeout: T });
  await member.page.waitForSelector(`[data-testid=club-members] li:has-text("${member.name}")`, { timeout: T });
  assert(/\(you\)/.test(await member.page.textContent('[data-testid=club-members]')), 'the member sees themselves as "you"');
  assertEqual(await member.page.locator('[data-testid=add-club-member], [data-testid=add-club-organiser], [data-testid=new-club-event], [data-testid^=remove-club-]').count(), 0, 'a member has no organiser forms nor Remove buttons');

  // "Your clubs" on any device: the member's (as a member) and the organiser's (as organiser).
  await member.page.goto(`${ctx.base}/#/clubs`);
  await member.page.waitForSelector('[data-testid=your-clubs] li[data-club=e2e-east]', { timeout: T });
  assertEqual((await member.page.textContent('[data-testid=your-clubs] li[data-club=e2e-east] .tag')).trim(), 'member', 'listed as a member');
  await outsider.page.goto(`${ctx.base}/#/clubs`);
  await outsider.page.waitForSelector('[data-testid=no-your-clubs]', { timeout: T });

  // The organiser removes the member; the only organiser has no Remove button of their own.
  await org.page.goto(`${ctx.base}/#/club/e2e-east`);
  await org.page.waitForSelector(`[data-testid=club-members] li:has-text("${member.name}")`, { timeout: T });
  assertEqual(await org.page.locator('[data-testid=remove-club-organiser]').count(), 0, 'the last organiser stays');
  assertEqual(await org.page.getAttribute('[data-testid=remove-club-member]', 'aria-label'), `Remove ${member.name} from the members`, 'the button names whom');
  await org.page.click('[data-testid=remove-club-member]');
  await org.page.waitForSelector('[data-testid=remove-club-member-msg].ok', { timeout: T });
  assertEqual((await org.page.textContent('[data-testid=remove-club-member-msg]')).trim(), `${member.name} was removed.`, 'said');
  await org.page.waitForSelector('[data-testid=no-club-members]', { timeout: T });
  assertEqual((await apiAs(ctx, {}, 'GET', '/api/clubs/e2e-east')).members, [], 'the server has no member left');
});

test('clubs: a player without the organiser role reads why they cannot create a club (both languages); a demoted organiser is refused in words; an unknown club id says so', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const p = await newAccount(ctx, 'Pia');
  await p.page.goto(`${ctx.base}/#/clubs`);
  await p.page.waitForSelector('[data-testid=club-role-needed]', { timeout: T });
  assertEqual((await p.page.textContent('[data-testid=club-role-needed]')).trim(), 'Creating a club needs the organiser role (ask an admin).', 'why, in words');
  assertEqual(await p.page.locator('[data-testid=club-form]').count(), 0, 'no form to fill in vain');
  await p.page.click('[data-testid=lang-toggle]');
  await p.page.waitForSelector('[data-testid=club-role-needed]:has-text("组织者")', { timeout: T });
  await p.page.click('[data-testid=lang-toggle]');

  // An id no club has.
  await p.page.fill('[data-testid=open-club-id]', 'no-such-club');
  await p.page.click('[data-testid=open-club]');
  await p.page.waitForSelector('[data-testid=club-not-found]', { timeout: T });
  assert((await p.page.textContent('[data-testid=club-not-found]')).includes('No club has the id “no-such-club”'), 'no such club, in words');

  // An organiser whose role was taken away while the form was open: the server's 403, in words.
  const org = await newOrganiser(ctx, 'Dora_org');
  await org.page.goto(`${ctx.base}/#/clubs`);
  await org.page.waitForSelector('[data-testid=club-form]', { timeout: T });
  await apiAs(ctx, { 'X-Admin-Token': ctx.adminToken }, 'POST', `/api/admin/accounts/${org.name}/role`, { role: 'player' });
  await org.page.fill('[data-testid=club-id]', 'e2e-dora');
  await org.page.fill('[data-testid=club-name]', 'Dora club');
  await org.page.click('[data-testid=create-club]');
  await org.page.waitForSelector('[data-testid=club-form-error]', { timeout: T });
  assertEqual((await org.page.textContent('[data-testid=club-form-error]')).trim(), 'Creating a club needs the organiser role (ask an admin).', 'the 403 in words');
  const r = await fetch(`${ctx.base}/api/clubs/e2e-dora`);
  assertEqual(r.status, 404, 'no club was made');
});

test('clubs: the club page and the clubs page at 360 px have no sideways scrolling', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const org = await newOrganiser(ctx, 'Phoebe_org');
  // Ids and names with no place to break a line: the longest id, a 40-letter word in the name.
  const long = 'x'.repeat(20) + '_' + 'y'.repeat(19);
  const auth = { Authorization: `Bearer ${await tokenOf(org.page)}` };
  await apiAs(ctx, auth, 'POST', '/api/clubs', { club_id: long, name: `Eastern ${'W'.repeat(40)} 东区老年象棋协会` });
  const m = await newAccount(ctx, 'WWWWWWWWWWWWWW');
  const { user_id } = await apiAs(ctx, {}, 'GET', `/api/accounts/${m.name}`);
  await apiAs(ctx, auth, 'POST', `/api/clubs/${long}/members`, { user_id });
  await org.page.setViewportSize({ width: 360, height: 740 });
  const noSideways = () => org.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  await org.page.goto(`${ctx.base}/#/club/${long}`);
  await org.page.waitForSelector(`[data-testid=club-members] li:has-text("${m.name}")`, { timeout: T });
  // An error under the field, as long as it gets.
  await org.page.fill('[data-testid=add-club-member-name]', 'N'.repeat(20));
  await org.page.click('[data-testid=add-club-member-save]');
  await org.page.waitForSelector('[data-testid=add-club-member-msg].error', { timeout: T });
  await org.page.screenshot({ path: join(ctx.shots, 'phone-club.png'), fullPage: true });
  assert(await noSideways(), `the club page fits 360 px (scrollWidth ${await org.page.evaluate(() => document.documentElement.scrollWidth)})`);
  await org.page.goto(`${ctx.base}/#/clubs`);
  await org.page.waitForSelector(`[data-testid=remembered-clubs] li[data-club=${long}]`, { timeout: T });
  assert(await noSideways(), `the clubs page fits 360 px (scrollWidth ${await org.page.evaluate(() => document.documentElement.scrollWidth)})`);
});

test('clubs: an organiser renames the club (its page, the clubs list and its event say the new name) and deletes it once its event is over; a club organiser without the organiser role is not offered "New event for this club"', { needs: ['matchmaker', 'events'] }, async (ctx) => {
  const org = await newOrganiser(ctx, 'Rena_org');
  const coOrg = await newAccount(ctx, 'Cora');  // a club organiser, a plain player account-wide
  const auth = { Authorization: `Bearer ${await tokenOf(org.page)}` };
  await apiAs(ctx, auth, 'POST', '/api/clubs', { club_id: 'e2e-rename', name: 'Old Name Club' });
  const { user_id } = await apiAs(ctx, {}, 'GET', `/api/accounts/${coOrg.name}`);
  await apiAs(ctx, auth, 'POST', '/api/clubs/e2e-rename/organisers', { user_id });
  await apiAs(ctx, auth, 'POST', '/api/events', { id: 'e2e-rename-ev', name: 'Rename night', club_id: 'e2e-rename' });

  // The club organiser without the role runs the club, but creates no events: no such button.
  await coOrg.page.goto(`${ctx.base}/#/club/e2e-rename`);
  await coOrg.page.waitForSelector('[data-testid=club-settings] [data-testid=rename-club]', { timeout: T });
  await coOrg.page.waitForFunction((n) => [...document.querySelectorAll('[data-testid=club-organisers] [data-testid=club-person]')].some((a) => a.textContent === n), coOrg.name, { timeout: T });
  assertEqual(await coOrg.page.locator('[data-testid=new-club-event]').count(), 0, 'no "New event for this club" without the organiser role');
  assertEqual(await coOrg.page.locator('[data-testid=delete-club]').count(), 1, 'but the club organiser may delete the club');

  // The organiser with the role has it; a name too long is refused at the field, in words.
  await org.page.goto(`${ctx.base}/#/club/e2e-rename`);
  await org.page.waitForSelector('[data-testid=new-club-event]', { timeout: T });
  assertEqual(await org.page.inputValue('[data-testid=rename-club-name]'), 'Old Name Club', 'the field starts from the name');
  const field = '[data-testid=rename-club-name]';
  const msg = '[data-testid=rename-club-msg]';
  await org.page.fill(field, '象'.repeat(34));
  await org.page.click('[data-testid=rename-club-save]');
  await assertFieldError(org.page, field, msg, 'A club name is at most 100 bytes (about 33 Chinese characters).');
  assertEqual((await apiAs(ctx, {}, 'GET', '/api/clubs/e2e-rename')).name, 'Old Name Club', 'nothing was sent');
  await org.page.fill(field, '  New Name Club ');
  await org.page.click('[data-testid=rename-club-save]');
  await org.page.waitForSelector(`${msg}.ok`, { timeout: T });
  assertEqual((await org.page.textContent(msg)).trim(), 'The club is now called “New Name Club”.', 'the rename is confirmed');
  assertEqual(await org.page.getAttribute(field, 'aria-invalid'), null, 'the field is no longer invalid');
  await org.page.waitForSelector('[data-testid=club-name-shown]:text-is("New Name Club")', { timeout: T });
  await org.page.waitForFunction(() => document.title.startsWith('New Name Club · Club'), null, { timeout: T });
  assertEqual((await apiAs(ctx, {}, 'GET', '/api/clubs/e2e-rename')).name, 'New Name Club', 'the server has the new name');

  // The clubs page and the club's event say the new name.
  await org.page.goto(`${ctx.base}/#/clubs`);
  await org.page.waitForSelector('[data-testid=your-clubs] li[data-club=e2e-rename]', { timeout: T });
  assertEqual((await org.page.textContent('[data-testid=your-clubs] li[data-club=e2e-rename] a')).trim(), 'New Name Club', 'your clubs: the new name');
  assertEqual((await org.page.textContent('[data-testid=remembered-clubs] li[data-club=e2e-rename] a')).trim(), 'New Name Club', 'this device: the new name');
  await org.page.goto(`${ctx.base}/#/tournaments/e2e-rename-ev`);
  await org.page.waitForSelector('[data-testid=event-club-link]:has-text("New Name Club")', { timeout: T });

  // Deleting asks first, and is refused while the event is open, in the page's language.
  const asked = [];
  org.page.on('dialog', (d) => { asked.push(d.message()); void d.accept(); });
  await org.page.goto(`${ctx.base}/#/club/e2e-rename`);
  await org.page.click('[data-testid=delete-club]', { timeout: T });
  await org.page.waitForSelector('[data-testid=delete-club-msg].error', { timeout: T });
  assertEqual(asked, ['Delete the club “New Name Club” with its lists of organisers and members? This cannot be undone.'], 'asked first');
  assertEqual((await org.page.textContent('[data-testid=delete-club-msg]')).trim(), 'The club still has events not finished or cancelled: finish or cancel them first.', 'why not, in words');
  await org.page.click('[data-testid=lang-toggle]');
  await org.page.waitForSelector('[data-testid=delete-club-msg]:has-text("未结束或未取消")', { timeout: T });
  await org.page.click('[data-testid=lang-toggle]');
  assertEqual(await org.page.evaluate(() => location.hash), '#/club/e2e-rename', 'still on the club page');

  // Once the event is cancelled the club goes: the page goes to the clubs, which list it no more.
  await apiAs(ctx, auth, 'POST', '/api/events/e2e-rename-ev/cancel', { reason: 'the club closes' });
  await org.page.click('[data-testid=delete-club]');
  await org.page.waitForFunction(() => location.hash === '#/clubs', null, { timeout: T });
  await org.page.waitForSelector('[data-testid=clubs-page] [data-testid=no-your-clubs]', { timeout: T });
  assertEqual(await org.page.locator('[data-club=e2e-rename]').count(), 0, 'neither in your clubs nor on this device');
  assertEqual((await fetch(`${ctx.base}/api/clubs/e2e-rename`)).status, 404, 'the server has no such club');
  // The event stays readable, naming the club gone, without a link.
  await org.page.goto(`${ctx.base}/#/tournaments/e2e-rename-ev`);
  await org.page.waitForSelector('[data-testid=event-club-gone]', { timeout: T });
  assertEqual((await org.page.textContent('[data-testid=event-club-gone]')).trim(), 'Club: e2e-rename (deleted)', 'the club is said to be gone');
  assertEqual(await org.page.locator('[data-testid=event-club-link]').count(), 0, 'no link to a club that is gone');
});
