// Starts a real redis-server and a real game server on free loopback ports for one test run.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const WEB_DIR = resolve(import.meta.dirname, '../..');
export const SERVER_BIN = resolve(WEB_DIR, process.env.XQ_GAMESERVER ?? '../../build/bin/gameserver');
// The tournament/pool service; without it the tournament and pool tests are skipped (loudly).
export const MATCHMAKER_BIN = resolve(WEB_DIR, process.env.XQ_MATCHMAKER ?? '../../build/bin/matchmaker');
// The test tool that finds a cooperative checkmate for a known Jieqi assignment (tests/tools/).
export const HELPMATE_BIN = resolve(WEB_DIR, process.env.XQ_HELPMATE ?? '../../build/bin/helpmate');
// The computer opponent's client (clients/bot/), started by the tests that play it.
export const BOT_BIN = resolve(WEB_DIR, process.env.XQ_BOT ?? '../../build/bin/xqbot');
export const BOT_NAME = 'e2ebot';
const ADMIN_TOKEN = 'e2e-admin-token';

export function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

async function waitFor(check, what, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function start(cmd, args, name, log) {
  const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (d) => {
    log.push(`[${name}] ${d}`);
    if (log.length > 400) log.shift();
  };
  p.stdout.on('data', keep);
  p.stderr.on('data', keep);
  return p;
}

function stop(p) {
  return new Promise((res) => {
    if (!p || p.exitCode !== null || p.signalCode) return res();
    const t = setTimeout(() => p.kill('SIGKILL'), 3000);
    p.once('exit', () => {
      clearTimeout(t);
      res();
    });
    p.kill('SIGTERM');
  });
}

export async function startServers() {
  if (!existsSync(SERVER_BIN)) {
    throw new Error(
      `game server binary not found at ${SERVER_BIN}.\n` +
        'Build it first (from the repo root): cmake -S . -B build -G Ninja && cmake --build build --target gameserver\n' +
        '(or point XQ_GAMESERVER at a built binary, relative to clients/web).',
    );
  }
  const log = [];
  const dir = mkdtempSync(join(tmpdir(), 'xq-e2e-'));
  const redisPort = await freePort();
  const redis = start('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], 'redis', log);
  await waitFor(
    () =>
      new Promise((res) => {
        const c = new Socket();
        c.once('error', () => res(false));
        c.connect(redisPort, '127.0.0.1', () => {
          c.end();
          res(true);
        });
      }),
    'redis-server',
  );
  const port = await freePort();
  const args = [
    '--listen', `127.0.0.1:${port}`,
    '--redis', `redis://127.0.0.1:${redisPort}/0`,
    '--secret', 'e2e-secret-0123456789abcdef',
    '--admin-token', ADMIN_TOKEN,
    '--static-dir', join(WEB_DIR, 'dist'),
    // One node with a fixed name: restarted, it takes its own games back at once (no lease wait).
    '--node-id', 'e2e',
    // Short claim wait so the "opponent gone" path is testable.
    '--claim-after-ms', '3000',
    // Every test's accounts come from 127.0.0.1.
    '--registrations-per-hour', '0',
  ];
  // The matchmaker only talks to Redis; started first so its stream groups exist.
  const matchmaker = existsSync(MATCHMAKER_BIN)
    ? start(MATCHMAKER_BIN, ['--redis', `redis://127.0.0.1:${redisPort}/0`, '--pool-interval-ms', '300'], 'matchmaker', log)
    : null;
  let server = start(SERVER_BIN, args, 'gameserver', log);
  let second = null; // see secondNode()
  const bots = []; // see startBot()
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(async () => (await fetch(`${base}/healthz`)).ok, `the game server at ${base}/healthz`);
  } catch (e) {
    await stop(server);
    await stop(matchmaker);
    await stop(redis);
    throw new Error(`${e.message}\n${log.join('')}`);
  }
  // Feature probes for tests that need more than the game server (see harness.mjs).
  const get = async (path, headers = {}) => {
    const res = await fetch(`${base}${path}`, { headers });
    return { status: res.status, body: (await res.text()).slice(0, 160) };
  };
  const probes = {
    async matchmaker() {
      if (!matchmaker) return `matchmaker binary ${MATCHMAKER_BIN} (not built)`;
      return matchmaker.exitCode === null && !matchmaker.signalCode ? '' : `matchmaker process exited (${matchmaker.exitCode ?? matchmaker.signalCode})`;
    },
    async events() {
      const r = await get('/api/events');
      return r.status === 200 && r.body.trimStart().startsWith('[') ? '' : `GET /api/events → ${r.status} ${r.body}`;
    },
    async pools() {
      const r = await get('/api/pools');
      return r.status === 200 && r.body.trimStart().startsWith('[') ? '' : `GET /api/pools → ${r.status} ${r.body}`;
    },
    async helpmate() {
      return existsSync(HELPMATE_BIN) ? '' : `helpmate tool ${HELPMATE_BIN} (not built; it is built with the tests, target helpmate)`;
    },
    async bot() {
      return existsSync(BOT_BIN) ? '' : `bot client ${BOT_BIN} (not built; target xqbot)`;
    },
    async admin() {
      const r = await get('/api/admin/games', { 'X-Admin-Token': ADMIN_TOKEN });
      return r.status === 200 ? '' : `GET /api/admin/games (X-Admin-Token) → ${r.status} ${r.body}`;
    },
  };
  return {
    base,
    log,
    adminToken: ADMIN_TOKEN,
    // Reads a key of the test's own Redis (the harness only; never handed to a page).
    redisGet: (key) =>
      new Promise((res, rej) =>
        execFile('redis-cli', ['-h', '127.0.0.1', '-p', String(redisPort), '--raw', 'GET', key], (err, out) => (err ? rej(err) : res(out.replace(/\n$/, '')))),
      ),
    async probe(need) {
      const p = probes[need];
      if (!p) return `unknown feature "${need}"`;
      try {
        return await p();
      } catch (e) {
        return `${need}: ${e.message}`;
      }
    },
    // Stops and resumes Redis's process (SIGSTOP / SIGCONT): its connections stay open and
    // nothing answers, as in a stall or a failover. A test that pauses it resumes it.
    pauseRedis: () => redis.kill('SIGSTOP'),
    resumeRedis: () => redis.kill('SIGCONT'),
    // Kills the first game server with SIGKILL: a crash, no hand-over of its games.
    async killGameServer() {
      await new Promise((res) => {
        if (server.exitCode !== null || server.signalCode) return res();
        server.once('exit', res);
        server.kill('SIGKILL');
      });
    },
    // Stops the game server and starts a new process on the same port and Redis (a deploy/crash).
    // With `nodeId`, the new process is another node (it does not take the old one's games back
    // at once: they wait for the old node's lease to run out, as after a crash).
    // `extraArgs` are added for this process only (the next restart drops them).
    async restartGameServer({ nodeId, extraArgs = [] } = {}) {
      await stop(server);
      const a = [...args, ...extraArgs];
      if (nodeId) a[a.indexOf('--node-id') + 1] = nodeId;
      server = start(SERVER_BIN, a, 'gameserver', log);
      await waitFor(async () => (await fetch(`${base}/healthz`)).ok, 'the restarted game server');
    },
    // A second game server on the same Redis (another node of one deployment), started on first
    // use; returns its base URL. Players on it reach games owned by the first node through Redis.
    async secondNode() {
      if (!second) {
        const port2 = await freePort();
        const args2 = [...args];
        args2[args2.indexOf('--listen') + 1] = `127.0.0.1:${port2}`;
        args2[args2.indexOf('--node-id') + 1] = 'e2e-2';
        second = { base: `http://127.0.0.1:${port2}`, proc: start(SERVER_BIN, args2, 'gameserver-2', log) };
        await waitFor(async () => (await fetch(`${second.base}/healthz`)).ok, 'the second game server');
      }
      return second.base;
    },
    // Starts the computer opponent (xqbot) signed in as BOT_NAME with `seeks` open; returns a
    // function that stops it (its seeks go with its connection).
    async startBot({ seeks = 'xiangqi 600+0', movetimeMs = 200, name = BOT_NAME, maxDepth = 0 } = {}) {
      const passwordFile = join(dir, `${name}-password`);
      writeFileSync(passwordFile, 'e2e-bot-password\n', { mode: 0o600 });
      const proc = start(BOT_BIN, ['--server', `ws://127.0.0.1:${port}/ws`, '--name', name, '--password-file', passwordFile,
        '--seek', seeks, '--movetime-ms', String(movetimeMs), '--max-depth', String(maxDepth), '--poll-ms', '500',
        '--max-seconds', '300'], 'xqbot', log);
      bots.push(proc);
      // Once its account exists, the admin marks it as a computer player (as run-local.sh does).
      await waitFor(async () => {
        const r = await fetch(`${base}/api/admin/accounts/${name}/bot`, {
          method: 'POST', headers: { 'X-Admin-Token': ADMIN_TOKEN }, body: JSON.stringify({ bot: true }),
        });
        return r.ok;
      }, 'the bot account, to mark it');
      return () => stop(proc);
    },
    async stop() {
      for (const b of bots) await stop(b);
      if (second) await stop(second.proc);
      await stop(server);
      await stop(matchmaker);
      await stop(redis);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
