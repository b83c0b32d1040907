#include "pairing/playoff.h"

#include <gtest/gtest.h>

using namespace xq::pairing;

TEST(Playoff, SemifinalsOneFourTwoThreeHigherSeedBlack) {
  Playoff po = start_playoff({10, 20, 30, 40});
  ASSERT_EQ(po.semifinals.size(), 2u);
  EXPECT_EQ(po.semifinals[0].red, 40);  // "4-1"
  EXPECT_EQ(po.semifinals[0].black, 10);
  EXPECT_EQ(po.semifinals[1].red, 30);  // "3-2"
  EXPECT_EQ(po.semifinals[1].black, 20);
}

TEST(Playoff, DrawGoesToHigherSeedWhoPlaysBlackInTheFinal) {
  Playoff po = start_playoff({10, 20, 30, 40});
  record_semifinal(po, 0, 1, 1);  // draw: seed 1 advances
  EXPECT_TRUE(po.semifinals[0].decided());
  EXPECT_FALSE(po.final_game.decided());
  EXPECT_EQ(po.final_game.red, -1);
  record_semifinal(po, 1, 2, 0);  // seed 3 (red) beats seed 2
  EXPECT_EQ(po.final_game.black, 10);
  EXPECT_EQ(po.final_game.red, 30);
  EXPECT_EQ(po.third_place.black, 20);
  EXPECT_EQ(po.third_place.red, 40);
  EXPECT_TRUE(playoff_places(po).empty());
  record_final(po, 1, 1);        // drawn final -> seed 1
  record_third_place(po, 2, 0);  // seed 4 beats seed 2
  EXPECT_EQ(playoff_places(po), (std::vector<int>{10, 30, 40, 20}));
}

TEST(Playoff, SeedsFromStandingsSkipWithdrawn) {
  Standings s;
  for (int p = 0; p < 6; ++p) {
    StandingRow r;
    r.player = p;
    r.rank = p + 1;
    r.withdrawn = p == 1;
    s.rows.push_back(r);
  }
  EXPECT_EQ(playoff_seeds(s, 4), (std::vector<int>{0, 2, 3, 4}));
  Playoff two = start_playoff(playoff_seeds(s, 2));
  EXPECT_EQ(two.final_game.black, 0);
  record_final(two, 2, 0);
  EXPECT_EQ(playoff_places(two), (std::vector<int>{2, 0}));
}
