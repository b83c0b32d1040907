#include <gtest/gtest.h>

#include "rating/glicko2.h"

using namespace gs;

// The worked example of Glickman's "Example of the Glicko-2 system".
TEST(Glicko2, GlickmansWorkedExample) {
  Rating player{1500, 200, 0.06, 0};
  std::vector<RatedResult> results = {{{1400, 30, 0.06, 0}, 1}, {{1550, 100, 0.06, 0}, 0}, {{1700, 300, 0.06, 0}, 0}};
  Glicko2Params p;
  p.min_deviation = 0;
  Rating after = glicko2_update(player, results, p);
  EXPECT_NEAR(after.rating, 1464.06, 0.01);
  EXPECT_NEAR(after.deviation, 151.52, 0.01);
  EXPECT_NEAR(after.volatility, 0.05999, 0.00001);
  EXPECT_EQ(after.games, 3);
}

TEST(Glicko2, WinnerGainsLoserLosesDrawBetweenEqualsChangesLittle) {
  Rating a, b;
  Rating a2 = glicko2_update(a, {{b, 1}}), b2 = glicko2_update(b, {{a, 0}});
  EXPECT_GT(a2.rating, 1500);
  EXPECT_LT(b2.rating, 1500);
  EXPECT_NEAR(a2.rating - 1500, 1500 - b2.rating, 1e-6);
  EXPECT_LT(a2.deviation, 350);
  Rating d = glicko2_update(a, {{b, 0.5}});
  EXPECT_NEAR(d.rating, 1500, 1e-6);
}

TEST(Glicko2, InactivityOnlyWidensTheDeviation) {
  Rating r{1800, 60, 0.06, 40};
  Rating after = glicko2_update(r, {});
  EXPECT_EQ(after.rating, 1800);
  EXPECT_GT(after.deviation, 60);
  EXPECT_LE(glicko2_update(Rating{1500, 349, 0.5, 0}, {}).deviation, 350);
}
