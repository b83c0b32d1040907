// Random repetition loops from random Xiangqi games, judged by Fairy-Stockfish (ffish): lines
// "FEN|m1 m2 m3 m4 m1 m2 m3 m4|verdict" with our 0-9 ranks. Usage: node gen.cjs SEED COUNT
globalThis.fetch = undefined;
const ff = require(process.env.FFISH_JS || require('path').join(__dirname, 'node_modules/ffish/ffish.js'));
let seed = +process.argv[2] || 1;
const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000; };
const pick = a => a[Math.floor(rnd() * a.length)];
const toOurs = m => m.replace(/([a-i])(\d+)([a-i])(\d+)/, (_, a, b, c, d) => a + (b - 1) + c + (d - 1));
const rev = m => { const x = m.match(/([a-i]\d+)([a-i]\d+)/); return x[2] + x[1]; };
function flipSide(fen) { const p = fen.split(' '); p[1] = p[1] === 'w' ? 'b' : 'w'; return p.join(' '); }
function targets(fen) {  // squares the side NOT to move could capture on if it moved again
  const t = new ff.Board('xiangqi', flipSide(fen));
  const out = new Set(t.legalMoves().split(' ').filter(m => m && t.isCapture(m)).map(m => m.match(/[a-i]\d+$/)[0]));
  t.delete();
  return out;
}
// A quiet move of the side to move, preferring one that attacks something from both squares or
// anew from each: the shuttles that make chases.
function chooseMove(b) {
  const ms = b.legalMoves().split(' ').filter(m => m && !b.isCapture(m));
  if (!ms.length) return null;
  const before = targets(flipSide(b.fen()));
  let best = pick(ms), score = -1;
  for (let k = 0; k < 8; k++) {
    const c = pick(ms);
    b.push(c);
    const after = targets(b.fen());
    b.pop();
    const both = [...after].filter(x => before.has(x)).length;
    const fresh = [...after].filter(x => !before.has(x)).length;
    const sc = (both ? 2 : 0) + (fresh ? 1 : 0) + rnd() * 0.5;
    if (sc > score) { score = sc; best = c; }
  }
  return best;
}

// A random sparse position (kings in their palaces, a few pieces each), as FEN with Red to move.
function sparseFen() {
  const b = new Map();
  const put = (p, choices) => { for (let i = 0; i < 50; i++) { const q = pick(choices); const k = q[0] + ',' + q[1]; if (!b.has(k)) { b.set(k, p); return; } } };
  const all = []; for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) all.push([f, r]);
  const palR = []; for (const f of [3, 4, 5]) for (const r of [0, 1, 2]) palR.push([f, r]);
  const advR = [[3, 0], [5, 0], [4, 1], [3, 2], [5, 2]];
  const eleR = [[2, 0], [6, 0], [0, 2], [4, 2], [8, 2], [2, 4], [6, 4]];
  const flip = a => a.map(([f, r]) => [f, 9 - r]);
  put('K', palR); put('k', flip(palR));
  for (const up of [true, false]) {
    const U = c => up ? c.toUpperCase() : c;
    const n = a => pick(a);
    for (let i = n([0, 1, 2]); i > 0; i--) put(U('a'), up ? advR : flip(advR));
    for (let i = n([0, 1, 2]); i > 0; i--) put(U('b'), up ? eleR : flip(eleR));
    for (let i = n([1, 1, 2]); i > 0; i--) put(U('r'), all);
    for (let i = n([0, 1, 2]); i > 0; i--) put(U('n'), all);
    for (let i = n([0, 1, 2]); i > 0; i--) put(U('c'), all);
    const pawnsq = all.filter(([f, r]) => (up ? r >= 3 : r <= 6) && !((up ? (r === 3 || r === 4) : (r === 5 || r === 6)) && f % 2 === 1));
    for (let i = n([0, 1, 2, 3]); i > 0; i--) put(U('p'), pawnsq);
  }
  const rows = [];
  for (let r = 9; r >= 0; r--) { let s = '', e = 0; for (let f = 0; f < 9; f++) { const p = b.get(f + ',' + r); if (p) { if (e) s += e; e = 0; s += p; } else e++; } if (e) s += e; rows.push(s); }
  return rows.join('/') + ' w - - 0 1';
}
ff['onRuntimeInitialized'] = () => {
  const want = +process.argv[3] || 100;
  let made = 0, tries = 0;
  while (made < want && tries < want * 40) {
    tries++;
    let b, ok = true;
    if (rnd() < 0.7) {
      const f0 = sparseFen();
      const fl = new ff.Board('xiangqi', f0.replace(' w ', ' b '));
      const bad = fl.isCheck();  // the side not to move would be in check
      fl.delete();
      if (bad) continue;
      b = new ff.Board('xiangqi', f0);
      if (b.isCheck() || !b.legalMoves().trim()) { b.delete(); continue; }
    } else {
      b = new ff.Board('xiangqi');
      const plies = 20 + Math.floor(rnd() * 140);
      for (let i = 0; i < plies; i++) {
        const ms = b.legalMoves().split(' ').filter(Boolean);
        if (!ms.length) { ok = false; break; }
        const caps = ms.filter(m => b.isCapture(m));
        b.push(caps.length && rnd() < 0.5 ? pick(caps) : pick(ms));
      }
    }
    if (!ok || b.isGameOver(true)) { b.delete(); continue; }
    const fen = b.fen();
    const m1 = chooseMove(b);
    if (!m1) { b.delete(); continue; }
    b.push(m1);
    const m2 = rnd() < 0.7 ? chooseMove(b) : pick(b.legalMoves().split(' ').filter(m => m && !b.isCapture(m)).concat([null]));
    b.delete();
    if (!m2) continue;
    const loop = [m1, m2, rev(m1), rev(m2)];
    const j = new ff.Board('xiangqi', fen);
    let verdict = 'ongoing', legal = true;
    for (const m of [...loop, ...loop]) {
      if (!j.push(m)) { legal = false; break; }
      if (j.isGameOver(true)) { verdict = j.result(true); break; }
    }
    const endedEarly = legal && verdict !== 'ongoing' && j.moveStack().split(' ').length < 8;
    j.delete();
    if (!legal || endedEarly) continue;
    const f = fen.split(' ').slice(0, 2).join(' ');
    console.log(f + '|' + loop.map(toOurs).join(' ') + ' ' + loop.map(toOurs).join(' ') + '|' + verdict);
    made++;
  }
};
