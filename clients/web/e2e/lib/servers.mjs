// Starts a real redis-server and a real game server on free loopback ports for one test run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Socket, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const WEB_DIR = resolve(import.meta.dirname, '../..');
export const SERVER_BIN = resolve(WEB_DIR, process.env.XQ_GAMESERVER ?? '../../build/bin/gameserver');

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
    '--admin-token', 'e2e-admin-token',
    '--static-dir', join(WEB_DIR, 'dist'),
    // Short claim wait so the "opponent gone" path is testable.
    '--claim-after-ms', '3000',
  ];
  let server = start(SERVER_BIN, args, 'gameserver', log);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitFor(async () => (await fetch(`${base}/healthz`)).ok, `the game server at ${base}/healthz`);
  } catch (e) {
    await stop(server);
    await stop(redis);
    throw new Error(`${e.message}\n${log.join('')}`);
  }
  return {
    base,
    log,
    // Stops the game server and starts a new process on the same port and Redis (a deploy/crash).
    async restartGameServer() {
      await stop(server);
      server = start(SERVER_BIN, args, 'gameserver', log);
      await waitFor(async () => (await fetch(`${base}/healthz`)).ok, 'the restarted game server');
    },
    async stop() {
      await stop(server);
      await stop(redis);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
