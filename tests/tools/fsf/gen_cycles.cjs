// Random repetition cycles longer than a shuttle: each side walks one piece around L squares (3 or
// 4) and back, interleaved; judged by Fairy-Stockfish. Usage: node gen_cycles.cjs SEED COUNT
const { ff, random, sideNotToMoveInCheck, sparseFen, emitLoop, onReady } = require('./common.cjs');
const r = random(+process.argv[2]);
const { rnd, pick } = r;
const sqFrom = m => m.match(/^([a-i]\d+)/)[1], sqTo = m => m.match(/([a-i]\d+)$/)[1];
onReady(() => {
  const want = +process.argv[3] || 100;
  let made = 0, tries = 0;
  while (made < want && tries < want * 200) {
    tries++;
    const f0 = sparseFen(r);
    if (sideNotToMoveInCheck(f0)) continue;
    const b = new ff.Board('xiangqi', f0);
    if (b.isCheck() || !b.legalMoves().trim()) { b.delete(); continue; }
    const L = rnd() < 0.5 ? 3 : 4;
    const start = [null, null], cur = [null, null], moves = [];
    let ok = true;
    for (let step = 0; step < L && ok; step++) {
      for (let side = 0; side < 2 && ok; side++) {
        const ms = b.legalMoves().split(' ').filter(m => m && !b.isCapture(m));
        let cand;
        if (step === 0) cand = ms;
        else if (step < L - 1) cand = ms.filter(m => sqFrom(m) === cur[side] && sqTo(m) !== start[side]);
        else cand = ms.filter(m => sqFrom(m) === cur[side] && sqTo(m) === start[side]);
        if (!cand.length) { ok = false; break; }
        const m = pick(cand);
        if (step === 0) start[side] = sqFrom(m);
        cur[side] = sqTo(m);
        b.push(m);
        moves.push(m);
      }
    }
    b.delete();
    if (ok && emitLoop(f0, moves)) made++;
  }
});
