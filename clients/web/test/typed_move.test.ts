// Moves typed in the game's "Type a move" field: two squares, or the move's Chinese name in the
// ways people write it (simplified or traditional, Chinese, Arabic or full-width numerals).
import { describe, expect, it } from 'vitest';
import { JIEQI_START, XIANGQI_START, applyMove, iccsOf, parseFen, parseIccs } from '../src/rules/board';
import { parseTypedMove } from '../src/rules/typed_move';

const start = parseFen(XIANGQI_START);
const played = (pos: ReturnType<typeof parseFen>, typed: string) => {
  const r = parseTypedMove(pos, typed);
  return r.kind === 'iccs' || r.kind === 'chinese' ? iccsOf(r.move) : r.kind;
};

describe('a typed move', () => {
  it('reads two squares as the move list writes them, a Jieqi reveal letter left out', () => {
    expect(played(start, 'h2e2')).toBe('h2e2');
    expect(played(start, ' H2E2 ')).toBe('h2e2');
    expect(played(start, 'h2e2C')).toBe('h2e2');
  });

  it('reads the Chinese names of the opening moves, however written', () => {
    for (const typed of ['炮二平五', '炮2平5', '砲二平五', '炮 二 平 五', '炮２平５']) expect(played(start, typed)).toBe('h2e2');
    expect(played(start, '兵七进一')).toBe('c3c4');
    expect(played(start, '马二进三')).toBe('h0g2');
    expect(played(start, '傌二進三')).toBe('h0g2');
    const afterCannon = applyMove(start, parseIccs('h2e2')!);
    for (const typed of ['马８进７', '马8进7', '馬8進7', '马八进七']) expect(played(afterCannon, typed)).toBe('h9g7');
    expect(played(afterCannon, '卒７进１')).toBe('g6g5');
  });

  it('tells tandem pieces apart front and back', () => {
    const tandem = parseFen('3k5/9/9/9/9/9/4R4/9/4R4/4K4 w');
    expect(played(tandem, '前车进一')).toBe('e3e4');
    expect(played(tandem, '后车进一')).toBe('e1e2');
    expect(played(tandem, '後俥進一')).toBe('e1e2');
  });

  it('names a face-down Jieqi piece by the piece its square starts as', () => {
    const jieqi = parseFen(JIEQI_START);
    expect(played(jieqi, '兵九进一')).toBe('a3a4');
    expect(played(jieqi, '炮二平五')).toBe('h2e2');
  });

  it('refuses a Chinese name no legal move has, and words that are no move', () => {
    expect(played(start, '炮二平九')).toBe('unknown-chinese'); // blocked by the other cannon
    expect(played(start, '炮')).toBe('unknown-chinese');
    expect(played(start, '车一平二')).toBe('unknown-chinese'); // the horse stands there
    expect(played(start, '马８进７')).toBe('b0c2'); // full-width digits are Red's 马八进七 too: the side to move decides
    expect(played(start, 'hello')).toBe('none');
    expect(played(start, 'h2e')).toBe('none');
  });
});
