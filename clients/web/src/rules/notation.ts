// Chinese move notation (炮二平五, 马８进７, 前车进一) for moves the client makes itself: the
// analysis board. The server names the moves of real games (gameserver/rules/notation.cpp); this
// is the same rule for full-information Xiangqi positions, so both read alike.
import { type Color, type Move, type PieceType, type Position, fileOf, positionalType, rankOf, sq } from './board';

const RED_NUMERALS = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const BLACK_NUMERALS = ['', '１', '２', '３', '４', '５', '６', '７', '８', '９'];
const NAMES: Record<Color, Record<string, string>> = {
  r: { K: '帅', A: '仕', B: '相', N: '马', R: '车', C: '炮', P: '兵' },
  b: { K: '将', A: '士', B: '象', N: '马', R: '车', C: '炮', P: '卒' },
};

// Files are numbered from each player's right: Red's file a is 9, Black's file a is 1.
const fileNumber = (c: Color, s: number) => (c === 'r' ? 9 - fileOf(s) : fileOf(s) + 1);
// How far towards the enemy a square is for colour c.
const forwardness = (c: Color, s: number) => (c === 'r' ? rankOf(s) : 9 - rankOf(s));

// The move's Chinese name in `before`, or '' if no piece stands on its origin.
// A face-down Jieqi piece is named as it moves, by its square's type (as the server names it before
// the reveal is known: a Jieqi premove, 兵九进一), and counts as that type among tandem pieces.
export function chineseMove(before: Position, m: Move): string {
  const typeAt = (s: number): PieceType | null => {
    const q = before.board[s];
    if (!q) return null;
    return q.type === 'X' ? positionalType(s, q.color) : q.type;
  };
  const p = before.board[m.from];
  const moverType = typeAt(m.from);
  if (!p || !moverType) return '';
  const c = p.color;
  const type: PieceType = moverType;
  const numerals = c === 'r' ? RED_NUMERALS : BLACK_NUMERALS;
  const same = (s: number) => before.board[s]?.color === c && typeAt(s) === type;
  let head = NAMES[c][type] + numerals[fileNumber(c, m.from)];
  // Tandem pieces on the origin file are told apart front to back; Xiangqi advisors and elephants
  // never need it (their direction already does), Jieqi's revealed ones roam and do.
  if (before.jieqi || (type !== 'A' && type !== 'B')) {
    const file = fileOf(m.from);
    const tandem = Array.from({ length: 10 }, (_, r) => sq(file, r))
      .filter(same)
      .sort((a, b) => forwardness(c, b) - forwardness(c, a));
    if (tandem.length > 1) {
      const order = tandem.indexOf(m.from);
      // Another file also holding tandem soldiers: the origin file takes the name's place (前七进一).
      let twoFiles = false;
      for (let f = 0; f < 9 && !twoFiles; f++) {
        if (f !== file) twoFiles = Array.from({ length: 10 }, (_, r) => sq(f, r)).filter(same).length > 1;
      }
      const marker =
        tandem.length === 2 ? ['前', '后'][order] : tandem.length === 3 ? ['前', '中', '后'][order] : ['一', '二', '三', '四', '五', '六'][Math.min(order, 5)];
      head = marker + (twoFiles ? numerals[fileNumber(c, m.from)] : NAMES[c][type]);
    }
  }
  const gain = forwardness(c, m.to) - forwardness(c, m.from);
  if (gain === 0) return `${head}平${numerals[fileNumber(c, m.to)]}`;
  const diagonal = type === 'A' || type === 'B' || type === 'N';
  return `${head}${gain > 0 ? '进' : '退'}${numerals[diagonal ? fileNumber(c, m.to) : Math.abs(gain)]}`;
}
