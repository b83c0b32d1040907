// Shared by the generators: the ffish module, a seeded random source, move and FEN helpers, and
// Fairy-Stockfish's verdict on a loop played twice.
globalThis.fetch = undefined;  // node 20's fetch cannot load the .wasm from a file path
const path = require('path');
const ff = require(process.env.FFISH_JS || path.join(__dirname, 'node_modules/ffish/ffish.js'));

// A small linear congruential generator: the same seed gives the same loops.
function random(seed) {
  let s = seed || 1;
  const rnd = () => { s = (s * 1103515245 + 12345) & 0x7fffffff; return s / 0x80000000; };
  return { rnd, pick: a => a[Math.floor(rnd() * a.length)] };
}

const toOurs = m => m.replace(/([a-i])(\d+)([a-i])(\d+)/, (_, a, b, c, d) => a + (b - 1) + c + (d - 1));  // ranks 1-10 → 0-9
const rev = m => { const x = m.match(/([a-i]\d+)([a-i]\d+)/); return x[2] + x[1]; };
const flipSide = fen => { const p = fen.split(' '); p[1] = p[1] === 'w' ? 'b' : 'w'; return p.join(' '); };

// Would the side not to move be in check (an impossible position)?
function sideNotToMoveInCheck(fen) {
  const b = new ff.Board('xiangqi', flipSide(fen));
  const check = b.isCheck();
  b.delete();
  return check;
}

// A random sparse position (kings in their palaces, a few pieces each), as FEN with Red to move.
function sparseFen({ pick }) {
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
    for (let i = pick([0, 1, 2]); i > 0; i--) put(U('a'), up ? advR : flip(advR));
    for (let i = pick([0, 1, 2]); i > 0; i--) put(U('b'), up ? eleR : flip(eleR));
    for (let i = pick([1, 1, 2]); i > 0; i--) put(U('r'), all);
    for (let i = pick([0, 1, 2]); i > 0; i--) put(U('n'), all);
    for (let i = pick([0, 1, 2]); i > 0; i--) put(U('c'), all);
    const pawnsq = all.filter(([f, r]) => (up ? r >= 3 : r <= 6) && !((up ? (r === 3 || r === 4) : (r === 5 || r === 6)) && f % 2 === 1));
    for (let i = pick([0, 1, 2, 3]); i > 0; i--) put(U('p'), pawnsq);
  }
  const rows = [];
  for (let r = 9; r >= 0; r--) { let s = '', e = 0; for (let f = 0; f < 9; f++) { const p = b.get(f + ',' + r); if (p) { if (e) s += e; e = 0; s += p; } else e++; } if (e) s += e; rows.push(s); }
  return rows.join('/') + ' w - - 0 1';
}

// Plays `loop` twice from `fen` and prints "FEN|moves|result" when every move is legal and the game
// lasts to the last move (its third occurrence); true if printed.
function emitLoop(fen, loop) {
  const moves = [...loop, ...loop];
  const j = new ff.Board('xiangqi', fen);
  let verdict = 'ongoing', plies = 0;
  for (const m of moves) {
    if (!j.push(m)) break;
    plies++;
    if (j.isGameOver(true)) { verdict = j.result(true); break; }
  }
  j.delete();
  if (plies < moves.length) return false;
  console.log(fen.split(' ').slice(0, 2).join(' ') + '|' + moves.map(toOurs).join(' ') + '|' + verdict);
  return true;
}

// The FEN after `plies` random moves from the start, a capture with probability `captures` where
// one exists; null when a side runs out of moves.
function randomGameFen({ rnd, pick }, plies, captures) {
  const b = new ff.Board('xiangqi');
  for (let i = 0; i < plies; i++) {
    const ms = b.legalMoves().split(' ').filter(Boolean);
    if (!ms.length) { b.delete(); return null; }
    const caps = ms.filter(m => b.isCapture(m));
    b.push(caps.length && rnd() < captures ? pick(caps) : pick(ms));
  }
  const fen = b.fen();
  b.delete();
  return fen;
}

const onReady = main => { ff['onRuntimeInitialized'] = main; };

module.exports = { ff, random, toOurs, rev, flipSide, sideNotToMoveInCheck, sparseFen, randomGameFen, emitLoop, onReady };
