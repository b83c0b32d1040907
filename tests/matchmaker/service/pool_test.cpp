#include <gtest/gtest.h>

#include "pool.h"

using namespace xq::mm;

TEST(Pool, PairsClosestRatingsFirst) {
  std::vector<PoolEntry> e = {{"a", 1500, 0}, {"b", 1510, 0}, {"c", 1900, 0}, {"d", 1890, 0}};
  auto pairs = match_pool(e, 0);
  ASSERT_EQ(pairs.size(), 2u);
  for (auto& p : pairs) {
    bool low = (p.red == "a" || p.red == "b") && (p.black == "a" || p.black == "b");
    bool high = (p.red == "c" || p.red == "d") && (p.black == "c" || p.black == "d");
    EXPECT_TRUE(low || high);
  }
}

TEST(Pool, GapWidensWithWaiting) {
  std::vector<PoolEntry> e = {{"a", 1500, 0}, {"b", 1800, 0}};
  EXPECT_TRUE(match_pool(e, 1000).empty()) << "300 points apart after 1 s";
  auto later = match_pool(e, 15000);  // 100 + 15*20 = 400
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(later[0].red, "a");
}

TEST(Pool, DeterministicAndIndependentOfOrder) {
  std::vector<PoolEntry> e;
  for (int i = 0; i < 30; ++i) e.push_back({"u" + std::to_string(i), 1200 + (i * 37) % 600, i * 100});
  auto a = match_pool(e, 60000);
  std::reverse(e.begin(), e.end());
  auto b = match_pool(e, 60000);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].red, b[i].red);
    EXPECT_EQ(a[i].black, b[i].black);
  }
  EXPECT_EQ(a.size(), 15u);
}

TEST(Pool, NeverPairsBeyondMaxGap) {
  PoolPolicy p;
  p.max_gap = 200;
  std::vector<PoolEntry> e = {{"a", 1000, 0}, {"b", 1500, 0}};
  EXPECT_TRUE(match_pool(e, 10'000'000, p).empty());
}

// Two players whose last pool game was aborted wait for others (either one naming the other
// suffices); a third is paired at once.
TEST(Pool, PlayersToAvoidAreNotPairedTogether) {
  std::vector<PoolEntry> e = {{"a", 1500, 0, "b"}, {"b", 1500, 0}};
  EXPECT_TRUE(match_pool(e, 0).empty());
  e[0].avoid.clear();
  e[1].avoid = "a";
  EXPECT_TRUE(match_pool(e, 0).empty());
  e.push_back({"c", 1500, 0});
  auto pairs = match_pool(e, 0);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_TRUE(pairs[0].red == "c" || pairs[0].black == "c");
  e[1].avoid = "z";  // someone else: no bar between a and b
  EXPECT_EQ(match_pool({e[0], e[1]}, 0).size(), 1u);
}
