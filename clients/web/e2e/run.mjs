// End-to-end tests: a real redis-server and game server on free ports, Debian's headless Chromium,
// browser contexts playing as people do. Usage: node e2e/run.mjs [name-filter]
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from './lib/browser.mjs';
import { runAll } from './lib/harness.mjs';
import { WEB_DIR, startServers } from './lib/servers.mjs';
import './tests.mjs';
import './tournaments.mjs';
import './organiser.mjs';
import './review.mjs';
import './blackbox.mjs';
import './a11y.mjs';
import './network.mjs';
import './clubs.mjs';

const shots = join(WEB_DIR, 'test-results/screenshots');
const docsShots = join(WEB_DIR, '../../docs/screenshots');

async function main() {
  if (!existsSync(join(WEB_DIR, 'dist/index.html'))) {
    console.log('e2e: clients/web/dist is missing; run "npm run build" first');
    console.log('0 passed, 1 failed');
    return 1;
  }
  let servers;
  try {
    servers = await startServers();
  } catch (e) {
    console.log(`e2e: ${e.message}`);
    console.log('0 passed, 1 failed');
    return 1;
  }
  let browser, close;
  try {
    ({ browser, close } = await launch());
  } catch (e) {
    await servers.stop();
    console.log(`e2e: cannot start ${'Chromium'}: ${e.message}`);
    console.log('0 passed, 1 failed');
    return 1;
  }
  mkdirSync(shots, { recursive: true });
  const ctx = {
    base: servers.base,
    adminToken: servers.adminToken,
    // '' when the feature is there, else why not (the exact request and answer).
    probe: (need) => servers.probe(need),
    restartGameServer: (o) => servers.restartGameServer(o),
    killGameServer: () => servers.killGameServer(),
    secondNode: () => servers.secondNode(),
    startBot: (o) => servers.startBot(o),
    redisGet: (key) => servers.redisGet(key),
    pauseRedis: () => servers.pauseRedis(),
    resumeRedis: () => servers.resumeRedis(),
    browser,
    shots,
    // The screenshots a person can look at without running anything (docs/screenshots): copied
    // there only with XQ_PUBLISH_SHOTS=1, so that a test run leaves the work tree as it was.
    publish(file, as) {
      if (process.env.XQ_PUBLISH_SHOTS !== '1') return;
      mkdirSync(docsShots, { recursive: true });
      copyFileSync(join(shots, file), join(docsShots, as));
    },
    async onFailure(name) {
      console.log(`     server log tail:\n${servers.log.slice(-30).join('').replace(/^/gm, '       ')}`);
      for (const [i, c] of ctx.contexts.entries()) {
        for (const p of c.pages()) {
          const seen = await p
            .evaluate(() => ({ hash: location.hash, link: window.__xq?.link, user: window.__xq?.user?.name, role: window.__xq?.conn?.role }))
            .catch((e) => e.message);
          console.log(`     page ${i}: ${JSON.stringify(seen)}`);
        }
        for (const p of c.pages()) await p.screenshot({ path: join(shots, `FAILED-${name.replace(/\W+/g, '_').slice(0, 40)}-${i}.png`) }).catch(() => {});
      }
    },
  };
  let r;
  try {
    r = await runAll(ctx, { only: process.argv[2] });
  } finally {
    await close().catch(() => {});
    await servers.stop();
  }
  const skip = r.skipped.length ? ` (${r.skipped.length} skipped: the server lacks what they test; see SKIP lines)` : '';
  console.log(`${r.passed} passed, ${r.failed} failed${skip}`);
  // XQ_E2E_STRICT=1: a skipped test fails the run (CI once the whole server side is in).
  if (r.skipped.length && process.env.XQ_E2E_STRICT === '1') return 1;
  return r.failed || r.passed === 0 ? 1 : 0;
}

process.exitCode = await main();
