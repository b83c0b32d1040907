// Round-1 modes of the three seed events (open: adjacent, lower number red;
// senior: 1-2, 4-3, 5-6 ...; Jieqi: random by computer) and fold.
#include <gtest/gtest.h>

#include <set>

#include "helpers.h"
#include "pairing/round1.h"
#include "pairing/swiss.h"

using namespace xq::pairing;
using namespace xq::pairing::test;

namespace {

std::vector<std::pair<int, int>> numbers(const Event& ev, const PairingResult& r) {
  std::vector<std::pair<int, int>> out;
  for (const Board& b : r.record.boards)
    out.emplace_back(ev.players[b.a].number, b.b == kBye ? 0 : ev.players[b.b].number);
  return out;
}

}  // namespace

TEST(Round1, OpenAdjacentLowerNumberRed) {
  Event ev = players_event(8);
  ev.settings.round1 = parse_round1_mode("adjacent");
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(numbers(ev, r), (std::vector<std::pair<int, int>>{{1, 2}, {3, 4}, {5, 6}, {7, 8}}));
}

TEST(Round1, SeniorAdjacentAlternating) {
  Event ev = players_event(8);
  ev.settings.round1 = Round1Mode::AdjacentAlternating;
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  // 1-2, 4-3, 5-6, 8-7: odd boards lower number red, even boards higher.
  EXPECT_EQ(numbers(ev, r), (std::vector<std::pair<int, int>>{{1, 2}, {4, 3}, {5, 6}, {8, 7}}));
}

TEST(Round1, FoldTopHalfAgainstBottomHalf) {
  Event ev = players_event(8);
  ev.settings.round1 = Round1Mode::Fold;
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(numbers(ev, r), (std::vector<std::pair<int, int>>{{1, 5}, {6, 2}, {3, 7}, {8, 4}}));
}

TEST(Round1, OddFieldByeToLastNumber) {
  Event ev = players_event(7);
  ev.settings.round1 = Round1Mode::Adjacent;
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(numbers(ev, r).back(), (std::pair<int, int>{7, 0}));
  EXPECT_EQ(r.record.boards.size(), 4u);
}

TEST(Round1, JieqiRandomIsSeededAndComplete) {
  Event ev = players_event(20, 2);
  ev.settings.round1 = Round1Mode::Random;
  ev.settings.seed = 2021;
  auto a = pair_round(ev);
  auto b = pair_round(ev);
  ASSERT_TRUE(a.ok) << a.error;
  EXPECT_EQ(numbers(ev, a), numbers(ev, b));
  std::set<int> seen;
  for (auto [x, y] : numbers(ev, a)) seen.insert(x), seen.insert(y);
  EXPECT_EQ(seen.size(), 20u);
  ev.settings.seed = 2022;
  EXPECT_NE(numbers(ev, pair_round(ev)), numbers(ev, a));
}

TEST(Round1, PairingNumbersDrawnFromSeed) {
  Event ev = players_event(30);
  ev.settings.seed = 77;
  assign_pairing_numbers(ev);
  std::set<int> nums;
  for (auto& p : ev.players) nums.insert(p.number);
  EXPECT_EQ(nums.size(), 30u);
  EXPECT_EQ(*nums.begin(), 1);
  EXPECT_EQ(*nums.rbegin(), 30);
  Event ev2 = ev;
  assign_pairing_numbers(ev2);
  for (int i = 0; i < 30; ++i) EXPECT_EQ(ev.players[i].number, ev2.players[i].number);
  ev2.settings.seed = 78;
  assign_pairing_numbers(ev2);
  int same = 0;
  for (int i = 0; i < 30; ++i) same += ev.players[i].number == ev2.players[i].number;
  EXPECT_LT(same, 10);
}

TEST(Round1, ForbiddenPairMovedApart) {
  Event ev = players_event(6);
  ev.settings.forbidden = {{0, 1}};  // numbers 1 and 2 (e.g. same club)
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  for (const Board& b : r.record.boards) EXPECT_FALSE((b.a == 0 && b.b == 1) || (b.a == 1 && b.b == 0));
}
