// Bye, forfeit, withdrawal, late-join and colour policy cases.
#include <gtest/gtest.h>

#include "helpers.h"
#include "pairing/invariants.h"
#include "pairing/state.h"
#include "pairing/swiss.h"

using namespace xq::pairing;
using namespace xq::pairing::test;

namespace {

int bye_of(const PairingResult& r) {
  for (const Board& b : r.record.boards)
    if (b.b == kBye) return b.a;
  return -1;
}
bool paired(const PairingResult& r, int x, int y) {
  for (const Board& b : r.record.boards)
    if ((b.a == x && b.b == y) || (b.a == y && b.b == x)) return true;
  return false;
}
bool present(const PairingResult& r, int x) {
  for (const Board& b : r.record.boards)
    if (b.a == x || b.b == x) return true;
  return false;
}

}  // namespace

TEST(Policy, ByeToLowestGroupAndNeverTwice) {
  Event ev = players_event(5);
  // Round 1: P1 beats P2, P3 beats P4, P5 bye.
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2), bye(4)}, {}});
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  int b = bye_of(r);
  EXPECT_TRUE(b == 1 || b == 3) << b;  // a player on 0, not P5 again
}

TEST(Policy, NoByeForForfeitWinner) {
  Event ev = players_event(3);
  // Round 1: P1 wins by forfeit against P2, P3 bye. Round 2: P2 (0) is lowest and gets it.
  ev.rounds.push_back({{forfeit(0, 1, 2), bye(2)}, {}});
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(bye_of(r), 1);
  // Round 2 with P2 unavailable: P1 (forfeit win) and P3 (had bye) must play each other.
  auto r2 = pair_round(ev, {1});
  ASSERT_TRUE(r2.ok) << r2.error;
  EXPECT_TRUE(paired(r2, 0, 2));
}

// The setting decides: with bye_blocked_by_forfeit_win off, a forfeit win weighs nothing against
// a bye (it weighed as a bye already taken whatever the setting said).
TEST(Policy, ForfeitWinBlocksTheByeOnlyWhenTheSettingSaysSo) {
  for (bool blocks : {true, false}) {
    Event ev = players_event(5);
    ev.settings.bye_blocked_by_forfeit_win = blocks;
    // Round 1: P1 wins by forfeit against P2, P3 draws P4, P5 bye.
    ev.rounds.push_back({{forfeit(0, 1, 2), game(2, 3, 1), bye(4)}, {}});
    const PairingProblem pp = make_problem(ev, {});
    for (size_t i = 0; i < pp.players.size(); ++i) {
      const int p = pp.players[i];
      const auto want = p == 4 ? 1u : p == 0 && blocks ? 1u : 0u;
      EXPECT_EQ(bye_fields(pp, static_cast<int>(i))[pp.f_bye_repeat], want) << "P" << p + 1 << " blocks=" << blocks;
    }
  }
}

TEST(Policy, ForfeitIsNotAMeetingByDefault) {
  Event ev = players_event(2);
  ev.rounds.push_back({{forfeit(0, 1, 2)}, {}});
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(paired(r, 0, 1));
  ev.settings.forfeit_counts_as_met = true;
  auto r2 = pair_round(ev);
  EXPECT_FALSE(r2.ok);  // only possible pairing would be a rematch
}

TEST(Policy, DoubleForfeitScoresZeroAndThreeForfeitsRemove) {
  Event ev = players_event(4);
  ev.rounds.push_back({{forfeit(0, 1, 1), game(2, 3, 2)}, {}});
  auto st = compute_states(ev, 1);
  EXPECT_EQ(st[0].score, 0);
  EXPECT_EQ(st[1].score, 0);
  EXPECT_EQ(st[0].forfeits, 1);
  EXPECT_EQ(st[0].met.count(1), 0u);
  ev.rounds.push_back({{forfeit(0, 2, 0), forfeit(1, 3, 0)}, {}});
  ev.rounds.push_back({{forfeit(0, 3, 0), game(1, 2, 1)}, {}});
  st = compute_states(ev, 3);
  EXPECT_EQ(st[0].forfeits, 3);
  // P2 v P4 with the bye to P3 is the only pairing free of rematches; P3 won by forfeit, so by
  // default it may not have the bye (C.04.1.d): the organiser decides.
  EXPECT_FALSE(pair_round(ev).ok);
  EXPECT_TRUE(pair_round(ev, {}, true).ok) << "allowing rematches: P3 v P4 or P2 v P3 again";
  ev.settings.bye_blocked_by_forfeit_win = false;
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(present(r, 0));  // removed after 3 forfeits
  EXPECT_EQ(bye_of(r), 2);
}

TEST(Policy, WithdrawnLateJoinAndAbsentPlayers) {
  Event ev = players_event(6);
  ev.players[5].join_round = 2;       // late join
  ev.players[4].withdrawn_round = 2;  // leaves after round 1
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 1), bye(4)}, {}});
  auto r = pair_round(ev, {3});  // P4 absent in round 2
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(present(r, 4));
  EXPECT_FALSE(present(r, 3));
  EXPECT_TRUE(present(r, 5));
  auto st = compute_states(ev, 1);
  EXPECT_EQ(st[5].rounds[0].kind, RoundKind::None);
}

TEST(Policy, NoThreeSameColoursInARow) {
  Event ev = players_event(4);
  // P1 red twice, P4 black twice; P1 must take black, P4 red.
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2)}, {}});
  ev.rounds.push_back({{game(0, 3, 2), game(1, 2, 0)}, {}});
  auto st = compute_states(ev, 2);
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  for (const Board& b : r.record.boards) {
    EXPECT_FALSE(colour_violates(st[b.a], Colour::Red));
    EXPECT_FALSE(colour_violates(st[b.b], Colour::Black));
  }
  EXPECT_TRUE(paired(r, 0, 2));
  EXPECT_EQ(r.record.boards[0].b, 0);  // P1 black
}

TEST(Policy, UnavoidableColourBreakIsAllowed) {
  // P1, P3 red twice; P2, P4 black twice; the only new pairs are P1-P3, P2-P4.
  Event ev = players_event(4);
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2)}, {}});
  ev.rounds.push_back({{game(0, 3, 2), game(2, 1, 0)}, {}});
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(paired(r, 0, 2));
}

TEST(Policy, CheckerRejectsBadRounds) {
  Event ev = players_event(4);
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2)}, {}});
  Round rematch{{Board{0, 1, {}}, Board{2, 3, {}}}, {}};
  EXPECT_FALSE(check_round(ev, rematch).empty());
  Round missing{{Board{0, 2, {}}}, {}};
  EXPECT_FALSE(check_round(ev, missing).empty());
  // Legal but worse than exchanging partners: both leaders float down.
  Round worse{{Board{3, 0, {}}, Board{1, 2, {}}}, {}};
  auto v = check_round(ev, worse);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v[0].find("exchanging partners"), std::string::npos) << v[0];
  auto good = pair_round(ev);
  ASSERT_TRUE(good.ok);
  EXPECT_TRUE(check_round(ev, good.record).empty());
}

TEST(Policy, StuckTopGroupRepairedFromBelow) {
  // Leaders P1, P2 have met; the engine must float rather than rematch.
  Event ev = players_event(6);
  ev.rounds.push_back({{game(0, 1, 1), game(2, 3, 2), game(4, 5, 2)}, {}});
  ev.rounds.push_back({{game(0, 3, 2), game(1, 5, 2), game(2, 4, 1)}, {}});
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(paired(r, 0, 1));
  EXPECT_TRUE(r.violations.empty());
}

TEST(Policy, LastRoundTopscorersMayBreakColourRules) {
  Event ev = players_event(6);
  ev.settings.rounds = 3;
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2), game(4, 5, 1)}, {}});
  ev.rounds.push_back({{game(0, 5, 2), game(2, 1, 2), game(3, 4, 1)}, {}});
  // P1 and P3 lead on 4, both had red twice.
  auto relaxed = pair_round(ev);
  ASSERT_TRUE(relaxed.ok) << relaxed.error;
  EXPECT_TRUE(paired(relaxed, 0, 2));
  ev.settings.relax_colour_last_round_topscorers = false;
  auto strict = pair_round(ev);
  ASSERT_TRUE(strict.ok) << strict.error;
  EXPECT_FALSE(paired(strict, 0, 2));
}

TEST(Policy, GroupOrderBreaksRemainingTies) {
  Event ev = players_event(8);
  // Round 1: every lower number (red) wins.
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2), game(4, 5, 2), game(6, 7, 2)}, {}});
  auto halves = pair_round(ev);
  ASSERT_TRUE(halves.ok) << halves.error;
  // Winners 1, 3 (top half of the group) meet 5, 7; losers 2, 4 meet 6, 8.
  EXPECT_TRUE(paired(halves, 0, 4) || paired(halves, 0, 6));
  EXPECT_TRUE(paired(halves, 2, 4) || paired(halves, 2, 6));
  EXPECT_TRUE(paired(halves, 1, 5) || paired(halves, 1, 7));
  ev.settings.group_order = GroupOrder::Adjacent;
  auto adjacent = pair_round(ev);
  ASSERT_TRUE(adjacent.ok) << adjacent.error;
  EXPECT_TRUE(paired(adjacent, 0, 2));  // 1-3
  EXPECT_TRUE(paired(adjacent, 4, 6));  // 5-7
}

// When every pairing repeats a meeting (the players left in the Swiss after a play-off took the
// top away, review 2026-12-04), the organiser may pair with rematches allowed: the fewest of them
// first, each named, and nothing else bent (forbidden pairs stay forbidden).
TEST(Policy, RematchesAllowedByTheOrganiserAreTheFewestPossible) {
  Event ev = players_event(6);
  ev.settings.rounds = 7;
  // Everyone has met everyone but 0-5, 1-5, 2-4 and 3-4: no round without a rematch, one is enough.
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 1), game(4, 5, 0)}, {}});
  ev.rounds.push_back({{game(0, 2, 1), game(1, 4, 2), game(3, 5, 0)}, {}});
  ev.rounds.push_back({{game(0, 3, 0), game(1, 2, 1)}, {4, 5}});
  ev.rounds.push_back({{game(0, 4, 2), game(1, 3, 0), game(2, 5, 2)}, {}});
  const PairingResult strict = pair_round(ev);
  EXPECT_FALSE(strict.ok);
  EXPECT_NE(strict.error.find("repeats a meeting"), std::string::npos) << strict.error;

  ev.settings.self_check = true;
  const PairingResult r = pair_round(ev, {}, true);
  ASSERT_TRUE(r.ok) << r.error << (r.violations.empty() ? "" : r.violations.front());
  ASSERT_EQ(r.record.boards.size(), 3u);
  ASSERT_EQ(r.rematches.size(), 1u);
  const std::vector<PlayerState> st = compute_states(ev, static_cast<int>(ev.rounds.size()));
  int repeated = 0;
  for (const Board& b : r.record.boards) repeated += st[b.a].met.count(b.b) ? 1 : 0;
  EXPECT_EQ(repeated, 1);

  // A forbidden pair is not a rematch to allow: with 0-5 and 1-5 forbidden, 5 can only meet
  // someone again, and whoever it meets, two of the other four have met too: two rematches.
  ev.settings.forbidden = {{0, 5}, {1, 5}};
  const PairingResult f = pair_round(ev, {}, true);
  ASSERT_TRUE(f.ok) << f.error;
  for (const Board& b : f.record.boards) EXPECT_FALSE((b.a == 5 && b.b <= 1) || (b.b == 5 && b.a <= 1));
  EXPECT_EQ(f.rematches.size(), 2u);
}
