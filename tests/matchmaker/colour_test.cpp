// The colour allocation order of spec §1.5 / §6.3, one step at a time.
#include "pairing/colour.h"

#include <gtest/gtest.h>

#include "helpers.h"
#include "pairing/playoff.h"
#include "pairing/swiss.h"
#include "sim.h"

using namespace xq::pairing;
using namespace xq::pairing::test;

namespace {

PlayerState with_colours(std::initializer_list<Colour> cs, int score = 0) {
  PlayerState s;
  s.score = score;
  for (Colour c : cs) {
    s.colours.push_back(c);
    (c == Colour::Red ? s.reds : s.blacks)++;
  }
  return s;
}

constexpr Colour R = Colour::Red, B = Colour::Black;

}  // namespace

TEST(Colour, Preferences) {
  EXPECT_EQ(colour_pref(with_colours({})).strength, PrefStrength::None);
  auto mild = colour_pref(with_colours({R, B}));
  EXPECT_EQ(mild.due, R);
  EXPECT_EQ(mild.strength, PrefStrength::Mild);
  auto strong = colour_pref(with_colours({R, B, R}));
  EXPECT_EQ(strong.due, B);
  EXPECT_EQ(strong.strength, PrefStrength::Strong);
  auto absolute = colour_pref(with_colours({B, R, R}));
  EXPECT_EQ(absolute.due, B);
  EXPECT_EQ(absolute.strength, PrefStrength::Absolute);
  EXPECT_TRUE(colour_violates(with_colours({R, R}), R));
  EXPECT_TRUE(colour_violates(with_colours({R, B, R, B, R, B, R, R, B, R}), R));  // red-black would be 3
  EXPECT_FALSE(colour_violates(with_colours({R, B}), R));
}

TEST(Colour, AllocationOrder) {
  Event ev = players_event(2);
  std::vector<PlayerState> st(2);
  // 1. more reds (多先) takes black.
  st[0] = with_colours({R, B, R});
  st[1] = with_colours({B, R, B});
  auto c = allocate_colours(ev, st, 0, 1, 4);
  EXPECT_EQ(c.black, 0);
  EXPECT_EQ(c.rule, ColourRule::MoreRedsTakesBlack);
  // 2. equal balance and streak: alternate from the latest round where they differ.
  st[0] = with_colours({R, B, B, R});
  st[1] = with_colours({B, R, B, R});
  c = allocate_colours(ev, st, 0, 1, 5);
  EXPECT_EQ(c.rule, ColourRule::AlternateLatestDiffering);
  EXPECT_EQ(c.red, 0);  // round 3: player 0 had black -> now red
  // 3. identical histories: the higher-ranked player gets his due colour.
  st[0] = with_colours({R, B}, 2);
  st[1] = with_colours({R, B}, 4);
  c = allocate_colours(ev, st, 0, 1, 3);
  EXPECT_EQ(c.rule, ColourRule::HigherRankedPreference);
  EXPECT_EQ(c.red, 1);
  // 4. no history: odd round lower number red, even round higher number red.
  st[0] = with_colours({});
  st[1] = with_colours({});
  EXPECT_EQ(allocate_colours(ev, st, 1, 0, 3).red, 0);
  EXPECT_EQ(allocate_colours(ev, st, 1, 0, 2).red, 1);
  // 0. a single legal option wins over everything.
  st[0] = with_colours({B, R, R});
  st[1] = with_colours({R, B, R});
  c = allocate_colours(ev, st, 0, 1, 4);
  EXPECT_EQ(c.rule, ColourRule::OnlyLegal);
  EXPECT_EQ(c.red, 1);
}

TEST(StageSplit, TopFourKnockoutWhileTheRestPlaySwiss) {
  SimConfig c;
  c.players = 14;
  c.rounds = 7;
  c.seed = 99;
  c.withdraw_pct = 0;
  c.pause_pct = 0;
  c.late_join_pct = 0;
  Event ev;
  ASSERT_TRUE(run_tournament(c, ev, [](const Event&, const PairingResult& r) { ASSERT_TRUE(r.ok) << r.error; }));
  ev.settings.rounds = 9;
  ev.settings.tiebreaks = tiebreak_preset("cxa-14.3.2");
  Standings stage1 = compute_standings(ev);
  std::vector<int> seeds = playoff_seeds(stage1, 4);
  Playoff po = start_playoff(seeds);
  for (int r = 8; r <= 9; ++r) {
    PairingResult pr = pair_round(ev, seeds);  // the four are not in the Swiss pool
    ASSERT_TRUE(pr.ok) << pr.error;
    for (const Board& b : pr.record.boards)
      for (int s : seeds) EXPECT_TRUE(b.a != s && b.b != s);
    Rng rng{static_cast<std::uint64_t>(r)};
    play_results(c, rng, pr.record);
    ev.rounds.push_back(pr.record);
  }
  record_semifinal(po, 0, 1, 1);
  record_semifinal(po, 1, 0, 2);
  record_final(po, 2, 0);
  record_third_place(po, 1, 1);
  auto places = playoff_places(po);
  ASSERT_EQ(places.size(), 4u);
  EXPECT_EQ(places[0], po.final_game.red);
}
