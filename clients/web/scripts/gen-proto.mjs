// Generates the browser's Protobuf code from the project's single source, proto/xq.proto:
// static ES module (pbjs) plus TypeScript declarations (pbts), into src/gen/ (not committed).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const web = resolve(here, '..');
const proto = resolve(web, '../../proto/xq.proto');
const out = join(web, 'src/gen');
const bin = (n) => join(web, 'node_modules/.bin', n);

if (!existsSync(proto)) {
  console.error(`gen-proto: ${proto} not found`);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
const js = join(out, 'xq.js');
execFileSync(bin('pbjs'), ['-t', 'static-module', '-w', 'es6', '--force-number', '--no-verify', '--no-delimited', '--no-convert', '-o', js, proto], { stdio: 'inherit' });
execFileSync(bin('pbts'), ['-o', join(out, 'xq.d.ts'), js], { stdio: 'inherit' });
console.log(`gen-proto: ${proto} -> src/gen/xq.js, xq.d.ts`);
