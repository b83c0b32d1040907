// Tiebreaks from the worked examples of swiss-pairing.md §2.6.
#include "pairing/tiebreaks.h"

#include <algorithm>
#include <gtest/gtest.h>

#include "helpers.h"
#include "pairing/colour.h"
#include "pairing/state.h"
#include "pairing/swiss.h"

using namespace xq::pairing;
using namespace xq::pairing::test;

namespace {

// Example A: 6 players, 3 single-game rounds (ids 0..5 = P1..P6).
Event example_a() {
  Event ev = players_event(6);
  ev.settings.rounds = 3;  // as the spec's example (6 players, 3 rounds)
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 1), game(4, 5, 2)}, {}});
  ev.rounds.push_back({{game(4, 0, 0), game(5, 2, 0), game(3, 1, 1)}, {}});
  ev.rounds.push_back({{game(0, 2, 1), game(3, 4, 2), game(1, 5, 0)}, {}});
  return ev;
}

const StandingRow& row(const Standings& s, int p) {
  for (const auto& r : s.rows)
    if (r.player == p) return r;
  throw std::runtime_error("no row");
}

}  // namespace

TEST(Tiebreaks, ExampleAValues) {
  Event ev = example_a();
  ev.settings.tiebreaks = tiebreak_preset("cxa-14.3.1");
  Standings s = compute_standings(ev);
  const int score[] = {5, 1, 4, 4, 2, 2};
  const int opp[] = {7, 11, 11, 7, 11, 7};
  const int prog[] = {11, 2, 8, 7, 6, 2};
  const int wins[] = {2, 0, 1, 1, 1, 1};
  const int black[] = {1, 2, 2, 1, 1, 2};
  for (int p = 0; p < 6; ++p) {
    const auto& r = row(s, p);
    EXPECT_EQ(r.score, score[p]) << p;
    EXPECT_EQ(r.opp_score, opp[p]) << p;
    EXPECT_EQ(r.progressive, prog[p]) << p;
    EXPECT_EQ(r.wins, wins[p]) << p;
    EXPECT_EQ(r.black_games, black[p]) << p;
  }
}

TEST(Tiebreaks, ExampleARankingBothChains) {
  for (const char* preset : {"cxa-14.3.1", "cxa-14.3.2"}) {
    Event ev = example_a();
    ev.settings.tiebreaks = tiebreak_preset(preset);
    Standings s = compute_standings(ev);
    std::vector<int> order;
    for (const auto& r : s.rows) order.push_back(r.player);
    // P1, P3, P4, P5, P6, P2
    EXPECT_EQ(order, (std::vector<int>{0, 2, 3, 4, 5, 1})) << preset;
    EXPECT_EQ(s.rows[1].rank, 2);
  }
}

TEST(Tiebreaks, ExampleARound3Colours) {
  Event ev = example_a();
  auto st = compute_states(ev, 2);
  // P5 had red twice -> black; P2 had black twice -> red.
  ColourChoice c = allocate_colours(ev, st, 3, 4, 3);
  EXPECT_EQ(c.red, 3);
  EXPECT_EQ(c.black, 4);
  ColourChoice d = allocate_colours(ev, st, 5, 1, 3);
  EXPECT_EQ(d.red, 1);
  EXPECT_TRUE(colour_violates(st[4], Colour::Red));
}

TEST(Tiebreaks, ExampleBTailsDisagree) {
  // X (0) scores 2,2,0; Y (1) scores 0,2,2.
  Event ev = players_event(4);
  ev.rounds.push_back({{game(0, 2, 2), game(1, 3, 0)}, {}});
  ev.rounds.push_back({{game(0, 3, 2), game(1, 2, 2)}, {}});
  ev.rounds.push_back({{game(0, 1, 0), game(2, 3, 1)}, {}});
  ev.settings.tiebreaks = {Tiebreak::PrevRoundScore};
  Standings a = compute_standings(ev);
  EXPECT_EQ(a.rows[0].player, 0);  // 14.3.1 tail: X 4 > Y 2 after round 2
  ev.settings.tiebreaks = {Tiebreak::DropEarlyRounds};
  Standings b = compute_standings(ev);
  EXPECT_EQ(b.rows[0].player, 1);  // 14.3.2 tail: without round 1, Y 4 > X 2
  ev.settings.tiebreaks = {Tiebreak::Progressive};
  Standings c = compute_standings(ev);
  EXPECT_EQ(row(c, 0).progressive, 10);
  EXPECT_EQ(row(c, 1).progressive, 6);
}

TEST(Tiebreaks, ExampleCByePolicies) {
  Event ev = players_event(7);
  std::vector<int> finals = {0, 1, 3, 4, 5, 6, 4};
  ev.settings.bye_opp = ByeOppPolicy::LowestScoring;
  EXPECT_EQ(bye_opponent_value(ev, finals, 2, 2, 3, 2), 1);  // CXA 14.4
  ev.settings.bye_opp = ByeOppPolicy::LowestAll;
  EXPECT_EQ(bye_opponent_value(ev, finals, 2, 2, 3, 2), 0);  // WXF 14th
  ev.settings.bye_opp = ByeOppPolicy::VirtualOpponent;
  EXPECT_EQ(bye_opponent_value(ev, finals, 2, 2, 3, 2), 3);  // FIDE virtual opponent
  ev.settings.bye_opp = ByeOppPolicy::Zero;
  EXPECT_EQ(bye_opponent_value(ev, finals, 2, 2, 3, 2), 0);
}

TEST(Tiebreaks, ByeCountsLowestScoringInStandings) {
  // 3 players: P3 bye in round 1; P1 beats P2. Round 2: P3 beats P1, P2 bye.
  Event ev = players_event(3);
  ev.rounds.push_back({{game(0, 1, 2), bye(2)}, {}});
  ev.rounds.push_back({{game(2, 0, 2), bye(1)}, {}});
  ev.settings.tiebreaks = {Tiebreak::OppScore};
  Standings s = compute_standings(ev);
  // Finals: P1 2, P2 2, P3 4. Lowest non-zero = 2.
  EXPECT_EQ(row(s, 2).opp_score, 2 + 2);  // bye (2) + P1 (2)
  EXPECT_EQ(row(s, 1).opp_score, 2 + 2);  // P1 (2) + bye (2)
  ev.settings.bye_counts_as_win = true;
  ev.settings.tiebreaks = {Tiebreak::Wins};
  EXPECT_EQ(row(compute_standings(ev), 2).wins, 2);
}

// absent_as_bye: an absent round adds the bye's value to 对手分, whether the player was away (a
// withdrawal taken back) or had not joined yet (a late entrant): both are "absent" (TRF Z).
TEST(Tiebreaks, ALateEntrantsMissedRoundCountsAsAbsent) {
  // Round 1: P1 beats P2, P3 has the bye; P4 joins in round 2. Round 2: P4 beats P1, P2 beats P3.
  Event ev = players_event(4);
  ev.players[3].join_round = 2;
  ev.rounds.push_back({{game(0, 1, 2), bye(2)}, {}});
  ev.rounds.push_back({{game(3, 0, 2), game(1, 2, 2)}, {}});
  ev.settings.tiebreaks = {Tiebreak::OppScore};
  ev.settings.bye_opp = ByeOppPolicy::OwnScore;  // the bye's value: the player's own score (2)
  EXPECT_EQ(row(compute_standings(ev), 3).opp_score, 2) << "P1's 2; the missed round adds nothing";
  ev.settings.absent_as_bye = true;
  EXPECT_EQ(row(compute_standings(ev), 3).opp_score, 2 + 2) << "P1's 2 and the bye's value for round 1";
}

TEST(Tiebreaks, ExampleDJieqiPerRound) {
  // A=0 vs B=1 two games: A red wins game 1, game 2 drawn -> A 3, B 1.
  Event ev = players_event(4, 2);
  ev.rounds.push_back({{Board{0, 1, {Game{2, 0}, Game{1, 1}}}, Board{2, 3, {Game{1, 1}, Game{1, 1}}}}, {}});
  ev.rounds.push_back({{Board{2, 0, {Game{2, 0}, Game{2, 0}}}, Board{3, 1, {Game{1, 1}, Game{1, 1}}}}, {}});
  ev.rounds.push_back({{Board{0, 3, {Game{2, 0}, Game{0, 2}}}, Board{1, 2, {Game{1, 1}, Game{1, 1}}}}, {}});
  ev.settings.tiebreaks = tiebreak_preset("jieqi");
  Standings s = compute_standings(ev);
  const auto& a = row(s, 0);
  // Round 3: A wins game 1 and loses game 2 -> 2 points.
  EXPECT_EQ(a.running, (std::vector<int>{3, 3, 5}));
  EXPECT_EQ(a.progressive, 3 + 3 + 5);
  // 对手分 counts each opponent once per round: B, C, D final scores.
  EXPECT_EQ(a.opp_score, row(s, 1).score + row(s, 2).score + row(s, 3).score);
}

TEST(Tiebreaks, ExampleDProgressive13) {
  Event ev = players_event(4, 2);
  ev.rounds.push_back({{Board{0, 1, {Game{2, 0}, Game{1, 1}}}, Board{2, 3, {Game{1, 1}, Game{1, 1}}}}, {}});
  ev.rounds.push_back({{Board{2, 0, {Game{2, 0}, Game{2, 0}}}, Board{3, 1, {Game{1, 1}, Game{1, 1}}}}, {}});
  ev.rounds.push_back({{Board{0, 3, {Game{2, 0}, Game{2, 0}}}, Board{1, 2, {Game{1, 1}, Game{1, 1}}}}, {}});
  ev.settings.tiebreaks = tiebreak_preset("jieqi");
  Standings s = compute_standings(ev);
  const auto& a = row(s, 0);
  EXPECT_EQ(a.running, (std::vector<int>{3, 3, 7}));
  EXPECT_EQ(a.progressive, 13);  // per round, as the spec recommends (per game would be 23)
  EXPECT_EQ(a.black_games, 3);
  EXPECT_EQ(a.wins, 3);
}

TEST(Tiebreaks, FoulsFewerRanksHigherAndHeadToHead) {
  Event ev = players_event(4);
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2)}, {}});
  ev.rounds.push_back({{game(0, 2, 0), game(1, 3, 2)}, {}});
  ev.rounds[0].boards[0].games[0].a_fouls = 2;
  ev.settings.tiebreaks = {Tiebreak::Fouls};
  Standings s = compute_standings(ev);
  // Scores: P1 2, P2 2, P3 4, P4 0. P1 (2 fouls) behind P2 (0 fouls).
  EXPECT_EQ(s.rows[0].player, 2);
  EXPECT_EQ(s.rows[1].player, 1);
  EXPECT_EQ(s.rows[2].player, 0);
  ev.settings.tiebreaks = {Tiebreak::HeadToHead};
  Standings h = compute_standings(ev);
  EXPECT_EQ(h.rows[1].player, 0);  // P1 beat P2 in round 1
}

TEST(Tiebreaks, JieqiPreviousRoundRanking) {
  // Two players tied on every earlier criterion are separated by the
  // ranking after the previous round.
  Event ev = players_event(4);
  ev.settings.tiebreaks = {Tiebreak::PrevRoundRank, Tiebreak::Lot};
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 1)}, {}});
  ev.rounds.push_back({{game(0, 2, 0), game(1, 3, 1)}, {}});
  // After round 2: P1 2, P2 1, P3 3, P4 2. After round 1: P1 first (2), P4 3rd-4th.
  Standings s = compute_standings(ev);
  EXPECT_EQ(s.rows[0].player, 2);
  EXPECT_EQ(s.rows[1].player, 0);
  EXPECT_EQ(s.rows[2].player, 3);
  // The lot shows the place it draws: 1 to 4, one each, and it orders players tied on all else.
  std::vector<std::string> lots;
  for (const auto& row : s.rows) lots.push_back(row.tiebreak_values.back());
  std::sort(lots.begin(), lots.end());
  EXPECT_EQ(lots, (std::vector<std::string>{"1", "2", "3", "4"}));
  ev.settings.tiebreaks = {Tiebreak::Lot};
  Standings by_lot = compute_standings(ev);
  for (size_t i = 1; i < by_lot.rows.size(); ++i)
    if (by_lot.rows[i].score == by_lot.rows[i - 1].score)
      EXPECT_LT(std::stoi(by_lot.rows[i - 1].tiebreak_values[0]), std::stoi(by_lot.rows[i].tiebreak_values[0]));
}

TEST(Tiebreaks, PresetsMatchTheDecisions) {
  using T = Tiebreak;
  EXPECT_EQ(tiebreak_preset("jieqi"), (std::vector<T>{T::OppScore, T::Progressive, T::Fouls, T::PrevRoundRank, T::Lot}));
  EXPECT_EQ(tiebreak_preset("cxa-14.3.1"),
            (std::vector<T>{T::OppScore, T::Wins, T::Fouls, T::BlackGames, T::PrevRoundScore, T::Lot}));
  EXPECT_EQ(tiebreak_preset("cxa-14.3.2"),
            (std::vector<T>{T::Progressive, T::Wins, T::Fouls, T::BlackGames, T::DropEarlyRounds, T::Lot}));
}

TEST(Tiebreaks, ExampleARound3PairingMatchesTheSpec) {
  // Given the spec's rounds 1-2, the engine pairs round 3 exactly as the
  // example: P1(R)-P3, P4(R)-P5, P2(R)-P6.
  Event ev = example_a();
  ev.rounds.pop_back();
  PairingResult r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.record.boards.size(), 3u);
  EXPECT_EQ(r.record.boards[0].a, 0);
  EXPECT_EQ(r.record.boards[0].b, 2);
  EXPECT_EQ(r.record.boards[1].a, 3);
  EXPECT_EQ(r.record.boards[1].b, 4);
  EXPECT_EQ(r.record.boards[2].a, 1);
  EXPECT_EQ(r.record.boards[2].b, 5);
}

// 胜局 (wins) counts games won over the board; a regulation may count forfeit wins too
// (`forfeit_win_counts_as_win`). Two-game rounds count each game won by forfeit.
TEST(Tiebreaks, ForfeitWinsCountAsWinsWhenTheEventSaysSo) {
  Event ev = players_event(4, 2);
  // Points are side a's and side b's (a is red in game 1, black in game 2).
  // Round 1: P1 beats P2 over the board in both games; P3 wins both games by P4's forfeit.
  ev.rounds.push_back({{Board{0, 1, {Game{2, 0}, Game{2, 0}}}, Board{2, 3, {Game{2, 0, true}, Game{2, 0, true}}}}, {}});
  // Round 2: P1 and P3 draw twice; P4 wins game 1 over the board and game 2 by P2's forfeit.
  ev.rounds.push_back({{Board{0, 2, {Game{1, 1}, Game{1, 1}}}, Board{3, 1, {Game{2, 0}, Game{2, 0, true}}}}, {}});
  ev.settings.tiebreaks = {Tiebreak::Wins};
  Standings s = compute_standings(ev);
  EXPECT_EQ(row(s, 0).wins, 2);
  EXPECT_EQ(row(s, 2).wins, 0);
  EXPECT_EQ(row(s, 3).wins, 1);
  ev.settings.forfeit_win_counts_as_win = true;
  s = compute_standings(ev);
  EXPECT_EQ(row(s, 0).wins, 2);
  EXPECT_EQ(row(s, 2).wins, 2);
  EXPECT_EQ(row(s, 3).wins, 2);
  EXPECT_EQ(row(s, 1).wins, 0);
}
