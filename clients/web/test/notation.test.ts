// Chinese notation against the rules of /work/shared/specs/xiangqi-rules.md §8.2: tandem pieces
// (前/后), three or more soldiers on a file (前/中/后, then 一…五 from the front), and tandem soldiers
// on two files (the file is written too), for both sides.
import { describe, expect, it } from 'vitest';
import { parseFen, parseIccs } from '../src/rules/board';
import { chineseMove } from '../src/rules/notation';

const zh = (fen: string, iccs: string) => chineseMove(parseFen(fen), parseIccs(iccs)!);

describe('Chinese notation (§8.2)', () => {
  it('tandem pieces: front and back, counted from the mover\'s side', () => {
    // Red horses on e2 and e4: the front one is nearer Black.
    const red = '3k5/9/9/9/9/4N4/9/4N4/9/4K4 w';
    expect(zh(red, 'e4d6')).toBe('前马进六');
    expect(zh(red, 'e2f0')).toBe('后马退四');
    // Black's front is towards Red (the lower rank): horses on e7 and e5, Black's files １…９.
    const black = '3k5/9/4n4/9/4n4/9/9/9/9/4K4 b';
    expect(zh(black, 'e5d3')).toBe('前马进４');
    expect(zh(black, 'e7f9')).toBe('后马退６');
    // Tandem cannons moving sideways: the destination file.
    expect(zh('3k5/9/9/9/9/9/9/4C4/9/4CK3 w', 'e0d0')).toBe('后炮平六');
    // A chariot and a cannon on one file are no tandem: each has its own name.
    expect(zh('3k5/9/9/9/9/9/9/4C4/9/4RK3 w', 'e0e1')).toBe('车五进一');
  });

  it('three soldiers on a file: 前/中/后', () => {
    const fen = '3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w';
    expect(zh(fen, 'c7c8')).toBe('前兵进一');
    expect(zh(fen, 'c6d6')).toBe('中兵平六');
    expect(zh(fen, 'c5b5')).toBe('后兵平八');
    // Black's three, on its file ３: the front one is the lowest.
    const black = '3k5/9/9/9/2p6/2p6/2p6/9/9/4K4 b';
    expect(zh(black, 'c3c2')).toBe('前卒进１');
    expect(zh(black, 'c4d4')).toBe('中卒平４');
    expect(zh(black, 'c5c4')).toBe('后卒进１');
  });

  it('four or five soldiers on a file: 一, 二, 三 … from the front', () => {
    const fen = '3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w';
    expect(zh(fen, 'c8b8')).toBe('一兵平八');
    expect(zh(fen, 'c7d7')).toBe('二兵平六');
    expect(zh(fen, 'c6b6')).toBe('三兵平八');
    expect(zh(fen, 'c5d5')).toBe('四兵平六');
  });

  it('tandem soldiers on two files: the marker, then the file, for either side', () => {
    // Three on file 七 and two on file 三: the file replaces the piece's name.
    const fen = '3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w';
    expect(zh(fen, 'c7c8')).toBe('前七进一');
    expect(zh(fen, 'c6b6')).toBe('中七平八');
    expect(zh(fen, 'c5d5')).toBe('后七平六');
    expect(zh(fen, 'g6g7')).toBe('前三进一');
    expect(zh(fen, 'g5h5')).toBe('后三平二');
    // Black: two on its file ３ (c) and two on ７ (g), full-width file numbers.
    const black = '3k5/9/9/9/2p3p2/2p3p2/9/9/9/4K4 b';
    expect(zh(black, 'c4c3')).toBe('前３进１');
    expect(zh(black, 'g5f5')).toBe('后７平６');
  });
});

// A Jieqi premove of a face-down piece is named by its square's type, as the server names such a
// move before its reveal (review, 2026-12-04: the premove line showed ICCS only).
describe('Chinese notation of a face-down Jieqi piece', () => {
  const start = 'xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1';
  it('moves as its square\'s piece', () => {
    expect(zh(start, 'a3a4')).toBe('兵九进一');
    expect(zh(start, 'b2e2')).toBe('炮八平五');
    expect(zh(start, 'h0g2')).toBe('马二进三');
  });
});

// Jieqi's revealed advisors and elephants leave their diagonals, so two of them can share a file and
// are told apart front to back like any other tandem pieces (as the server names them); a file can
// hold six soldiers (五兵 revealed and the face-down piece on its soldier square).
describe('Chinese notation of Jieqi tandem pieces', () => {
  it('revealed advisors and elephants on one file', () => {
    const advisors = '3k5/9/9/9/9/4A4/9/4A4/9/3K5 w - 0 1';
    expect(zh(advisors, 'e4d5')).toBe('前仕进六');
    expect(zh(advisors, 'e2f1')).toBe('后仕退四');
    const elephants = '3k5/9/4b4/9/4b4/9/9/9/9/3K5 b - 0 1';
    expect(zh(elephants, 'e5c3')).toBe('前象进３');
    // The same squares in Xiangqi need no marker: an advisor's direction tells them apart.
    expect(zh('3k5/9/9/9/9/9/9/4A4/9/3AK4 w', 'e2d1')).toBe('仕五退六');
  });

  it('six soldiers on a file: the sixth is 六', () => {
    const fen = '3k5/2P6/2P6/2P6/2P6/2P6/2X6/9/9/4K4 w R1A2B2N2C2 0 1';
    expect(zh(fen, 'c8b8')).toBe('一兵平八');
    expect(zh(fen, 'c3c4')).toBe('六兵进一');
  });
});
