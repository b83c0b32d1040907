// TRF-style export / parse round trip and the pairings checker.
#include "pairing/trf.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "pairing/tiebreaks.h"
#include "sim.h"

using namespace xq::pairing;
using namespace xq::pairing::test;

namespace {

Event played_event(std::uint64_t seed, int players, int rounds, int games) {
  SimConfig c;
  c.seed = seed;
  c.players = players;
  c.rounds = rounds;
  c.games_per_round = games;
  c.forbidden_pairs = 1;
  Event ev;
  run_tournament(c, ev, [](const Event&, const PairingResult&) {});
  ev.settings.name = "Test open";
  return ev;
}

}  // namespace

TEST(Trf, RoundTripAndReplayHasNoDiscrepancy) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    Event ev = played_event(seed, 7 + static_cast<int>(seed % 20), 3 + static_cast<int>(seed % 5),
                            seed % 3 == 0 ? 2 : 1);
    std::string text = export_trf(ev);
    Event back = parse_trf(text);
    ASSERT_EQ(back.players.size(), ev.players.size());
    ASSERT_EQ(back.rounds.size(), ev.rounds.size());
    EXPECT_EQ(export_trf(back), text) << "seed " << seed;
    // Same standings from the parsed event.
    Standings a = compute_standings(ev), b = compute_standings(back);
    for (std::size_t i = 0; i < a.rows.size(); ++i) {
      EXPECT_EQ(a.rows[i].player, b.rows[i].player);
      EXPECT_EQ(a.rows[i].score, b.rows[i].score);
    }
    auto d = check_event(back);
    EXPECT_TRUE(d.empty()) << "seed " << seed << ": round " << d.front().round << " " << d.front().text;
  }
}

TEST(Trf, CheckerReportsAChangedPairing) {
  Event ev = played_event(5, 10, 4, 1);
  // Swap two black players between boards of round 3.
  Round& r3 = ev.rounds[2];
  std::swap(r3.boards[0].b, r3.boards[1].b);
  auto d = check_event(ev);
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d.front().round, 3);
}

TEST(Trf, PlayerLineColumns) {
  Event ev = played_event(9, 6, 2, 1);
  std::string text = export_trf(ev);
  std::istringstream in(text);
  std::string line;
  int seen = 0;
  while (std::getline(in, line)) {
    if (line.rfind("001", 0) != 0) continue;
    ++seen;
    EXPECT_GE(line.size(), 99u);
    EXPECT_EQ(line[95], ' ');
    EXPECT_TRUE(line[96] == 'w' || line[96] == 'b' || line[96] == '-') << line;
  }
  EXPECT_EQ(seen, 6);
}

// An event decided by a play-off: the rank column follows the final order, not the Swiss standings.
TEST(Trf, RankColumnFollowsAFinalOrderWhenGiven) {
  Event ev = played_event(9, 6, 2, 1);
  std::vector<int> order;
  for (int p = static_cast<int>(ev.players.size()) - 1; p >= 0; --p) order.push_back(p);
  auto ranks = [&](const std::string& text) {
    std::map<int, int> out;  // pairing number → rank
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("001", 0) == 0) out[std::stoi(line.substr(4, 4))] = std::stoi(line.substr(85, 4));
    return out;
  };
  const auto swiss = ranks(export_trf(ev)), final_ranks = ranks(export_trf(ev, order));
  ASSERT_EQ(final_ranks.size(), ev.players.size());
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(final_ranks.at(ev.players[order[i]].number), static_cast<int>(i) + 1);
  EXPECT_NE(swiss, final_ranks);
}

// Chinese names: the name column keeps its 33 bytes and ends on a whole character, so a long name
// is cut between characters, never inside one, and the columns after it stay in place.
TEST(Trf, ChineseNamesAreCutBetweenCharacters) {
  Event ev = played_event(9, 6, 2, 1);
  ev.players[0].name = "guest-a一二三四五六七八九十一二三四五六七八九十";  // 7 + 60 bytes
  ev.players[1].name = "王伟";
  const std::string text = export_trf(ev);
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> names;
  while (std::getline(in, line)) {
    if (line.rfind("001", 0) != 0) continue;
    EXPECT_EQ(line[95], ' ') << line;
    EXPECT_TRUE(line[96] == 'w' || line[96] == 'b' || line[96] == '-') << line;
    names.push_back(line.substr(14, 33));
  }
  ASSERT_EQ(names.size(), 6u);
  EXPECT_EQ(names[0], "guest-a一二三四五六七八  ") << "7 + 24 bytes, padded to 33";
  EXPECT_EQ(names[1].substr(0, 7), "王伟 ");
}
