// Two-move shuttles for each side, from random sparse positions and random games, chosen to
// attack; judged by Fairy-Stockfish. Usage: node gen.cjs SEED COUNT
const { ff, random, rev, flipSide, sideNotToMoveInCheck, sparseFen, randomGameFen, emitLoop, onReady } = require('./common.cjs');
const r = random(+process.argv[2]);
const { rnd, pick } = r;

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

onReady(() => {
  const want = +process.argv[3] || 100;
  let made = 0, tries = 0;
  while (made < want && tries < want * 40) {
    tries++;
    const sparse = rnd() < 0.7;
    const fen0 = sparse ? sparseFen(r) : randomGameFen(r, 20 + Math.floor(rnd() * 140), 0.5);
    if (!fen0 || (sparse && sideNotToMoveInCheck(fen0))) continue;
    const b = new ff.Board('xiangqi', fen0);
    if ((sparse && b.isCheck()) || !b.legalMoves().trim() || b.isGameOver(true)) { b.delete(); continue; }
    const fen = b.fen();
    const m1 = chooseMove(b);
    if (!m1) { b.delete(); continue; }
    b.push(m1);
    const m2 = rnd() < 0.7 ? chooseMove(b) : pick(b.legalMoves().split(' ').filter(m => m && !b.isCapture(m)).concat([null]));
    b.delete();
    if (m2 && emitLoop(fen, [m1, m2, rev(m1), rev(m2)])) made++;
  }
});
