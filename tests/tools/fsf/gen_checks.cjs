// Loops where the side to move shuttles a piece that gives check on one or both squares, or
// chases; the other side answers with its king or a blocking piece. Judged by Fairy-Stockfish.
// Usage: node gen_checks.cjs SEED COUNT
globalThis.fetch = undefined;
const ff = require(process.env.FFISH_JS || require('path').join(__dirname, 'node_modules/ffish/ffish.js'));
const src = require('fs').readFileSync(require('path').join(__dirname, 'gen.cjs'), 'utf8');
let seed = +process.argv[2] || 1;
const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000; };
const pick = a => a[Math.floor(rnd() * a.length)];
const toOurs = m => m.replace(/([a-i])(\d+)([a-i])(\d+)/, (_, a, b, c, d) => a + (b - 1) + c + (d - 1));
const rev = m => { const x = m.match(/([a-i]\d+)([a-i]\d+)/); return x[2] + x[1]; };
eval(src.slice(src.indexOf('// A random sparse position'), src.indexOf("ff['onRuntimeInitialized']")));
function randomPosition() {
  if (rnd() < 0.5) {
    const f0 = sparseFen();
    const fl = new ff.Board('xiangqi', f0.replace(' w ', ' b '));
    const bad = fl.isCheck();
    fl.delete();
    if (bad) return null;
    return f0;
  }
  const b = new ff.Board('xiangqi');
  const plies = 20 + Math.floor(rnd() * 120);
  for (let i = 0; i < plies; i++) {
    const ms = b.legalMoves().split(' ').filter(Boolean);
    if (!ms.length) { b.delete(); return null; }
    const caps = ms.filter(m => b.isCapture(m));
    b.push(caps.length && rnd() < 0.6 ? pick(caps) : pick(ms));
  }
  const f = b.fen();
  b.delete();
  return f;
}
ff['onRuntimeInitialized'] = () => {
  const want = +process.argv[3] || 100;
  let made = 0, tries = 0;
  while (made < want && tries < want * 300) {
    tries++;
    const fen = randomPosition();
    if (!fen) continue;
    const b = new ff.Board('xiangqi', fen);
    if (b.isCheck() || b.isGameOver(true)) { b.delete(); continue; }
    const quiet = () => b.legalMoves().split(' ').filter(m => m && !b.isCapture(m));
    // m1: preferably a checking move
    const ms = quiet();
    const checks = ms.filter(m => { b.push(m); const c = b.isCheck(); b.pop(); return c; });
    if (!checks.length) { b.delete(); continue; }
    const m1 = pick(checks);
    b.push(m1);
    const m2s = quiet();
    if (!m2s.length) { b.delete(); continue; }
    const m2 = pick(m2s);
    b.delete();
    const loop = [m1, m2, rev(m1), rev(m2)];
    const j = new ff.Board('xiangqi', fen);
    let verdict = 'ongoing', legal = true, n = 0;
    for (const m of [...loop, ...loop]) {
      if (!j.push(m)) { legal = false; break; }
      n++;
      if (j.isGameOver(true)) { verdict = j.result(true); break; }
    }
    j.delete();
    if (!legal || n < 8) continue;
    console.log(fen.split(' ').slice(0, 2).join(' ') + '|' + [...loop, ...loop].map(toOurs).join(' ') + '|' + verdict);
    made++;
  }
};
