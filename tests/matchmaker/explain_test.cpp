#include "pairing/explain.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "helpers.h"
#include "pairing/round1.h"
#include "pairing/swiss.h"

using namespace xq::pairing;
using namespace xq::pairing::test;

TEST(Explain, NamesScoreGroupFloatAndColourReason) {
  Event ev = players_event(6);
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2), game(4, 5, 1)}, {}});
  // Scores: P1 2, P3 2, P5 1, P6 1, P2 0, P4 0.
  ev.rounds.push_back({{game(0, 2, 2), game(4, 5, 1), game(3, 1, 1)}, {}});
  // After round 2: P1 4 alone on top; P5, P6 met twice (drew) -> they must split.
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.explain.size(), r.record.boards.size());
  EXPECT_NE(r.explain[0].find("Board 1:"), std::string::npos);
  EXPECT_NE(r.explain[0].find("nobody else is on 4"), std::string::npos) << r.explain[0];
  bool colour_reason = false;
  for (auto& line : r.explain) colour_reason |= line.find("Colours:") != std::string::npos;
  EXPECT_TRUE(colour_reason);
  // The same lines in Chinese, for the Chinese page: one per board, saying the same things.
  ASSERT_EQ(r.explain_zh.size(), r.explain.size());
  EXPECT_EQ(r.explain_zh[0].rfind("第1台：", 0), 0u) << r.explain_zh[0];
  EXPECT_NE(r.explain_zh[0].find("4 分无其他棋手"), std::string::npos) << r.explain_zh[0];
  bool colour_reason_zh = false;
  for (auto& line : r.explain_zh) colour_reason_zh |= line.find("先后手：") != std::string::npos;
  EXPECT_TRUE(colour_reason_zh);
  for (auto& line : r.explain_zh)
    for (const char* english : {"Board", "Float", "Colours", "score", "due"}) EXPECT_EQ(line.find(english), std::string::npos) << line;
}

// A float's line says "nearest score" only when no player of the round stands between the two
// scores (it said so whenever a player was paired down).
TEST(Explain, NearestScoreOnlyWhenNothingLiesBetween) {
  Event ev = players_event(5, 2);
  ev.settings.seed = 3;
  // Two-game rounds: P1 3 – P2 1, P3 2 – P4 2, P5 the bye (a round's win).
  ev.rounds.push_back({{Board{0, 1, {Game{2, 0}, Game{1, 1}}}, Board{2, 3, {Game{2, 0}, Game{0, 2}}}, bye(4)}, {}});
  const PairingProblem pp = make_problem(ev, {});
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  int floats = 0;
  for (size_t i = 0; i < r.record.boards.size(); ++i) {
    const Board& b = r.record.boards[i];
    if (b.b == kBye || pp.st[b.a].score == pp.st[b.b].score) continue;
    ++floats;
    const int hi = std::max(pp.st[b.a].score, pp.st[b.b].score), lo = std::min(pp.st[b.a].score, pp.st[b.b].score);
    bool between = false;
    for (int p : pp.players) between |= pp.st[p].score > lo && pp.st[p].score < hi;
    EXPECT_EQ(r.explain[i].find("nearest score") != std::string::npos, !between) << r.explain[i];
  }
  EXPECT_GT(floats, 0);
}

TEST(Explain, ByeLine) {
  Event ev = players_event(5);
  ev.rounds.push_back({{game(0, 1, 2), game(2, 3, 2), bye(4)}, {}});
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(r.explain.back().find("gets the bye"), std::string::npos);
}

TEST(Jieqi, TwoGameRoundsAlternateGameOneColour) {
  Event ev = players_event(4, 2);
  ev.settings.tiebreaks = tiebreak_preset("jieqi");
  // Round 1: P1 red in game 1 vs P2; P3 red vs P4. Round points 0-4.
  ev.rounds.push_back({{Board{0, 1, {Game{2, 0}, Game{1, 1}}}, Board{2, 3, {Game{0, 2}, Game{0, 2}}}}, {}});
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  // Scores: P1 3, P2 1, P3 0, P4 4.
  for (const Board& b : r.record.boards) {
    // Both had red in game 1 or both black: higher rank / parity rule; else the
    // one who had black in game 1 last round now starts red.
    bool a_red_before = b.a == 0 || b.a == 2;
    bool b_red_before = b.b == 0 || b.b == 2;
    if (a_red_before != b_red_before) EXPECT_FALSE(a_red_before);
  }
}

// Round 1's lines name the pairing mode in the language of the line (the Chinese page showed
// "编排方式 adjacent").
TEST(Explain, RoundOneNamesItsModeInEachLanguage) {
  Event ev = players_event(4);
  for (Round1Mode mode : {Round1Mode::Adjacent, Round1Mode::Fold}) {
    ev.settings.round1 = mode;
    auto r = pair_round(ev);
    ASSERT_TRUE(r.ok) << r.error;
    ASSERT_FALSE(r.explain_zh.empty());
    EXPECT_NE(r.explain_zh[0].find(round1_mode_name_zh(mode)), std::string::npos) << r.explain_zh[0];
    for (const auto& line : r.explain_zh) EXPECT_EQ(line.find(round1_mode_name(mode)), std::string::npos) << line;
    EXPECT_NE(r.explain[0].find(round1_mode_name(mode)), std::string::npos) << r.explain[0];
  }
}

// A random round 1 draws the bye by lot: its line must not say it went to the highest pairing
// number (it went to whoever the lot made last), nor the boards' lines that they follow the numbers.
TEST(Explain, RandomRoundOneByeIsByLot) {
  bool seen_not_highest = false;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Event ev = players_event(7);
    ev.settings.round1 = Round1Mode::Random;
    ev.settings.seed = seed;
    auto r = pair_round(ev);
    ASSERT_TRUE(r.ok) << r.error;
    int bye_player = -1;
    for (const auto& b : r.record.boards)
      if (b.b == kBye) bye_player = b.a;
    ASSERT_GE(bye_player, 0);
    int highest = 0;
    for (const auto& p : ev.players) highest = std::max(highest, p.number);
    seen_not_highest |= ev.players[bye_player].number != highest;
    for (const auto* lines : {&r.explain, &r.explain_zh})
      for (const auto& line : *lines) {
        EXPECT_EQ(line.find("highest pairing number"), std::string::npos) << line;
        EXPECT_EQ(line.find("编号最大"), std::string::npos) << line;
        EXPECT_EQ(line.find("by pairing numbers"), std::string::npos) << line;
        EXPECT_EQ(line.find("按编号"), std::string::npos) << line;
      }
    EXPECT_NE(r.explain.back().find("drawn by lot"), std::string::npos) << r.explain.back();
    EXPECT_NE(r.explain_zh.back().find("抽签"), std::string::npos) << r.explain_zh.back();
  }
  EXPECT_TRUE(seen_not_highest) << "some draw gives the bye to another number than the highest";
}

// Adjacent round 1 does give an odd field's bye to the highest number, and says so.
TEST(Explain, AdjacentRoundOneByeIsTheHighestNumber) {
  Event ev = players_event(5);
  auto r = pair_round(ev);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_NE(r.explain.back().find("highest pairing number"), std::string::npos) << r.explain.back();
}
