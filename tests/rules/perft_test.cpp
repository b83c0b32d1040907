#include <gtest/gtest.h>

#include <random>

#include "board_transforms.h"
#include "random_games.h"
#include "rules/fen.h"
#include "rules/jieqi.h"
#include "rules/perft.h"

using namespace xq;

TEST(Perft, XiangqiStartDepths1To4) {
  Position p = parse_fen(kXiangqiStartFen, Variant::Xiangqi);
  const uint64_t expected[] = {44, 1920, 79666, 3290240};
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(p, d), expected[d - 1]) << "depth " << d;
}

// The published middle-game and endgame positions of the Chinese Chess perft table
// (chessprogramming.org, "Chinese Chess Perft Results"; the numbers are facts, no code taken):
// discovered checks, pins on the general's file, cannon screens, horse legs, flying generals.
TEST(Perft, PublishedPositionsDepths1To4) {
  struct Case {
    const char* fen;
    uint64_t nodes[4];
  };
  const Case cases[] = {
      {"r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1", {38, 1128, 43929, 1339047}},
      {"1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1", {7, 281, 8620, 326201}},
      {"5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", {25, 424, 9850, 202884}},
      {"CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", {28, 516, 14808, 395483}},
      {"R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1", {21, 364, 7626, 162837}},
  };
  for (const Case& c : cases) {
    Position p = parse_fen(c.fen, Variant::Xiangqi);
    for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(p, d), c.nodes[d - 1]) << c.fen << " depth " << d;
  }
}

// Move generation knows no left or right and no colour: positions reached by random play
// (Xiangqi, and Jieqi with every identity fixed) have the same perft counts mirrored, with the
// colours swapped, and both. Random play reaches what the fixed tables may not: black pawns
// across the river, palaces under attack from either wing, flying generals, dark pieces moving
// by their squares' types on both sides.
TEST(Perft, TransformedPositionsHaveTheSameCounts) {
  std::mt19937_64 rng(20261201);
  int compared = 0;
  for (int game = 0; game < 80; ++game) {
    const bool jieqi = game % 2 == 1;
    Position pos = parse_fen(jieqi ? kJieqiStartFen : kXiangqiStartFen, jieqi ? Variant::Jieqi : Variant::Xiangqi);
    if (jieqi) assign_from_pool(pos, rng());
    if (!test::play_randomly(pos, 10 + static_cast<int>(rng() % 70), rng)) continue;
    const uint64_t want = perft(pos, 3);
    for (test::BoardTransform t : test::kBoardTransforms) {
      Position other = test::transform_position(pos, t);
      EXPECT_EQ(perft(other, 3), want) << to_fen(pos) << " " << t.name() << ": " << to_fen(other);
    }
    ++compared;
  }
  EXPECT_GE(compared, 60);
}
