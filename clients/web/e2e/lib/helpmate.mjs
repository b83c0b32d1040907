// Runs build/bin/helpmate (tests/tools/): a shortest cooperative checkmate for a Jieqi game whose
// hidden assignment the harness read from the test's own Redis. Only the harness sees the
// assignment; the pages get nothing but clicks.
import { execFile } from 'node:child_process';
import { HELPMATE_BIN } from './servers.mjs';

// Resolves to { moves: ['g3g4', …], stderr } or { moves: null, stderr } when no mate was found
// within the limits.
export function findHelpmate(assignment, { maxPlies = 7, maxMs = 45_000 } = {}) {
  const args = ['--assignment', assignment, '--max-plies', String(maxPlies), '--max-ms', String(maxMs)];
  return new Promise((res, rej) => {
    execFile(HELPMATE_BIN, args, { timeout: maxMs + 30_000 }, (err, stdout, stderr) => {
      if (err && err.code !== 1) return rej(new Error(`helpmate ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      const line = stdout.trim();
      res({ moves: err || line === 'none' ? null : line.split(/\s+/), stderr: stderr.trim() });
    });
  });
}
