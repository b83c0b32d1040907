#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/jieqi.h"
#include "rules/perft.h"

using namespace xq;

TEST(Perft, XiangqiStartDepths1To4) {
  Position p = parse_fen(kXiangqiStartFen, Variant::Xiangqi);
  const uint64_t expected[] = {44, 1920, 79666, 3290240};
  for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(p, d), expected[d - 1]) << "depth " << d;
}
