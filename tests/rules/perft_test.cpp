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
