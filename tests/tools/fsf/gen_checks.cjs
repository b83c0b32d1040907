// Loops whose first move gives check (the other side answers with any quiet move), from random
// sparse positions and random games; judged by Fairy-Stockfish. Usage: node gen_checks.cjs SEED COUNT
const { ff, random, rev, sideNotToMoveInCheck, sparseFen, randomGameFen, emitLoop, onReady } = require('./common.cjs');
const r = random(+process.argv[2]);
const { rnd, pick } = r;
function randomPosition() {
  if (rnd() < 0.5) {
    const f0 = sparseFen(r);
    return sideNotToMoveInCheck(f0) ? null : f0;
  }
  return randomGameFen(r, 20 + Math.floor(rnd() * 120), 0.6);
}
onReady(() => {
  const want = +process.argv[3] || 100;
  let made = 0, tries = 0;
  while (made < want && tries < want * 300) {
    tries++;
    const fen = randomPosition();
    if (!fen) continue;
    const b = new ff.Board('xiangqi', fen);
    if (b.isCheck() || b.isGameOver(true)) { b.delete(); continue; }
    const quiet = () => b.legalMoves().split(' ').filter(m => m && !b.isCapture(m));
    // m1 gives check
    const ms = quiet();
    const checks = ms.filter(m => { b.push(m); const c = b.isCheck(); b.pop(); return c; });
    if (!checks.length) { b.delete(); continue; }
    const m1 = pick(checks);
    b.push(m1);
    const m2s = quiet();
    if (!m2s.length) { b.delete(); continue; }
    const m2 = pick(m2s);
    b.delete();
    if (emitLoop(fen, [m1, m2, rev(m1), rev(m2)])) made++;
  }
});
