globalThis.fetch = undefined;
const ff = require(process.env.FFISH_JS || require('path').join(__dirname, 'node_modules/ffish/ffish.js'));
const conv = m => m.replace(/([a-i])(\d)([a-i])(\d)/, (_, a, b, c, d) => a + (+b + 1) + c + (+d + 1));
ff['onRuntimeInitialized'] = () => {
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
};
