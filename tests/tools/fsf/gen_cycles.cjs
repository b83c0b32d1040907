// Random repetition cycles longer than a shuttle: each side walks one piece around L squares (3 or
// 4) and back, interleaved; judged by Fairy-Stockfish. Lines "FEN|moves (two cycles)|verdict".
// Usage: node gen_cycles.cjs SEED COUNT
globalThis.fetch = undefined;
const ff = require(process.env.FFISH_JS || require('path').join(__dirname, 'node_modules/ffish/ffish.js'));
const src = require('fs').readFileSync(require('path').join(__dirname, 'gen.cjs'), 'utf8');
let seed = +process.argv[2] || 1;
const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000; };
const pick = a => a[Math.floor(rnd() * a.length)];
const toOurs = m => m.replace(/([a-i])(\d+)([a-i])(\d+)/, (_, a, b, c, d) => a + (b - 1) + c + (d - 1));
eval(src.slice(src.indexOf('// A random sparse position'), src.indexOf("ff['onRuntimeInitialized']")));
const sqFrom = m => m.match(/^([a-i]\d+)/)[1], sqTo = m => m.match(/([a-i]\d+)$/)[1];
ff['onRuntimeInitialized'] = () => {
  const want = +process.argv[3] || 100;
  let made = 0, tries = 0;
  while (made < want && tries < want * 200) {
    tries++;
    const f0 = sparseFen();
    const fl = new ff.Board('xiangqi', f0.replace(' w ', ' b '));
    const bad = fl.isCheck();  // the side not to move would be in check
    fl.delete();
    if (bad) continue;
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
    if (!ok) { globalThis.nf = (globalThis.nf || 0) + 1; continue; }
    const j = new ff.Board('xiangqi', f0);
    let verdict = 'ongoing', legal = true, n = 0;
    for (const m of [...moves, ...moves]) {
      if (!j.push(m)) { legal = false; break; }
      n++;
      if (j.isGameOver(true)) { verdict = j.result(true); break; }
    }
    j.delete();
    if (!legal || n < 2 * moves.length) { console.error("rej", legal, n, verdict); continue; }
    console.log(f0.split(' ').slice(0, 2).join(' ') + '|' + [...moves, ...moves].map(toOurs).join(' ') + '|' + verdict);
    made++;
  }
};
