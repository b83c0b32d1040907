// Fairy-Stockfish's result for each line "FEN|moves" on stdin (ranks 0-9): "1-0 at PLY | line",
// "0-1 …", "1/2-1/2 …", "ongoing | line" or "illegal MOVE | line".
const { ff, onReady } = require('./common.cjs');
const conv = m => m.replace(/([a-i])(\d)([a-i])(\d)/, (_, a, b, c, d) => a + (+b + 1) + c + (+d + 1));
onReady(() => {
  const lines = require('fs').readFileSync(0, 'utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    const [fen, moves] = line.split('|');
    const b = new ff.Board('xiangqi', fen.split(' ').length > 2 ? fen : fen + ' - - 0 1');
    let out = 'ongoing', i = 0;
    for (const m of moves.trim().split(/\s+/)) {
      if (!b.push(conv(m))) { out = 'illegal ' + m; break; }
      i++;
      if (b.isGameOver(true)) { out = b.result(true) + ' at ' + i; break; }
    }
    console.log(out + ' | ' + line);
    b.delete();
  }
});
