// Recovery as a property: the matchmaker keeps each tournament as JSON in Redis, and a standby
// that takes over (or a restarted process) goes on from that JSON. So a tournament rebuilt from its
// JSON must behave exactly like the one that wrote it. Random command sequences — joins,
// withdrawals, starts, pairings, edits, re-pairings, pauses, results with forfeits and fouls,
// duplicate results, corrections — drive one tournament; at random points a copy is rebuilt from
// its JSON and from then on both get the same commands. Every answer (effects or error code) and
// the standings must agree.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <functional>
#include <random>

#include "tournament.h"
#include "tournament_json.h"

using namespace xq::mm;

namespace {

EventConfig random_config(std::mt19937& rng, uint32_t seed) {
  EventConfig c;
  c.id = "ev" + std::to_string(seed);
  c.name = "Property open";
  c.pairing.rounds = 3 + static_cast<int>(rng() % 5);
  c.pairing.games_per_round = rng() % 3 == 0 ? 2 : 1;
  c.pairing.seed = rng();
  c.auto_rounds = rng() % 2 == 0;
  c.late_join_until_round = 1 + static_cast<int>(rng() % 3);
  if (rng() % 3 == 0) {
    c.playoff_after_round = 2 + static_cast<int>(rng() % 2);
    c.playoff_size = rng() % 2 ? 4 : 2;
  }
  if (rng() % 4 == 0) c.pairing.forbidden = {{0, 1}};
  if (rng() % 4 == 0) c.pairing.max_forfeits = 2;
  return c;
}

Tournament rebuilt(const Tournament& t) {
  return tournament_from_json(boost::json::parse(boost::json::serialize(to_json(t))));
}

std::string describe(const Effects& fx) {
  std::string s;
  for (const GameSlot& g : fx.create)
    s += "create " + g.game_id + " r" + std::to_string(g.round) + " b" + std::to_string(g.board) + " " + g.knockout +
         " " + std::to_string(g.red) + "-" + std::to_string(g.black) + "\n";
  for (const Notice& n : fx.notices) s += "notice " + n.text + "\n";
  for (const std::string& w : fx.warnings) s += "warning " + w + "\n";
  return s;
}

// Everything the service shows or stores of a tournament.
std::string observable(const Tournament& t) {
  return boost::json::serialize(to_json(t)) + "\n" + boost::json::serialize(standings_json(t)) + "\n" +
         boost::json::serialize(public_json(t)) + "\n" + boost::json::serialize(crosstable_json(t));
}

struct Step {
  std::string name;
  std::function<Effects(Tournament&)> run;
};

// Applies one command to a tournament; returns its effects, or "error CODE".
std::string apply(const Step& s, Tournament& t) {
  try {
    return describe(s.run(t));
  } catch (const TournamentError& e) {
    return "error " + e.code;
  }
}

// A random command that makes sense often enough to move the event along.
Step random_step(std::mt19937& rng, const Tournament& t, int& next_user) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); };
  std::vector<const GameSlot*> open, done;
  for (const GameSlot& g : t.games) (g.finished ? done : open).push_back(&g);
  const int kind = pick(100);
  if (kind < 55 && !open.empty()) {
    const GameSlot g = *open[pick(static_cast<int>(open.size()))];
    const int outcome = pick(10);
    int rp = outcome < 4 ? 2 : outcome < 7 ? 0 : outcome < 9 ? 1 : 2;
    int bp = rp == 2 ? 0 : rp == 0 ? 2 : 1;
    bool forfeit = outcome == 9 || pick(12) == 0;
    if (forfeit && pick(4) == 0) rp = bp = 0;  // double forfeit
    int rf = pick(6) == 0, bf = pick(6) == 0;
    return {"result " + g.game_id, [=](Tournament& x) {
              return record_result(x, g.game_id, rp, bp, forfeit, rf, bf, forfeit ? "forfeit" : "checkmate");
            }};
  }
  if (kind < 60 && !done.empty()) {  // a result that arrives twice
    const GameSlot g = *done[pick(static_cast<int>(done.size()))];
    return {"again " + g.game_id, [=](Tournament& x) {
              return record_result(x, g.game_id, g.red_points, g.black_points, g.forfeit, 0, 0, g.reason);
            }};
  }
  if (kind < 63 && !done.empty()) {
    const GameSlot g = *done[pick(static_cast<int>(done.size()))];
    int rp = pick(3);
    return {"correct " + g.game_id, [=](Tournament& x) { return correct_result(x, g.game_id, rp, 2 - rp); }};
  }
  if (kind < 75) {
    std::string user = "u" + std::to_string(pick(3) == 0 && next_user > 0 ? pick(next_user) : next_user++);
    int rating = 1200 + pick(1200);
    return {"join " + user, [=](Tournament& x) { return join(x, user, "Player " + user, rating); }};
  }
  if (kind < 78 && next_user > 0) {
    std::string user = "u" + std::to_string(pick(next_user));
    if (pick(3) == 0) return {"disqualify " + user, [=](Tournament& x) { return disqualify(x, user, "cheating"); }};
    if (pick(3) == 0) return {"warn " + user, [=](Tournament& x) { return warn(x, user, "late"); }};
    return {"withdraw " + user, [=](Tournament& x) { return withdraw(x, user); }};
  }
  if (kind < 84) return {"start", [](Tournament& x) { return start(x); }};
  if (kind < 88) return {"pair", [](Tournament& x) { return pair_next_round(x); }};
  if (kind < 92) return {"start_round", [](Tournament& x) { return start_round(x); }};
  if (kind < 94) return {"repair", [](Tournament& x) { return repair(x); }};
  if (kind < 96) return {"pause", [](Tournament& x) { return pause(x); }};
  if (kind < 98) return {"resume", [](Tournament& x) { return resume(x); }};
  // An edit that swaps two players of the paired, unstarted round (if there is one).
  return {"edit", [](Tournament& x) {
            std::vector<std::pair<int, int>> boards;
            if (!x.ev.rounds.empty() && static_cast<int>(x.ev.rounds.size()) > x.rounds_started) {
              for (const auto& b : x.ev.rounds.back().boards) boards.emplace_back(b.a, b.b);
              if (boards.size() >= 2) std::swap(boards[0].second, boards[1].second);
            }
            return edit_pairing(x, boards);
          }};
}

void run_property(uint32_t seed) {
  std::mt19937 rng(seed);
  const EventConfig cfg = random_config(rng, seed);
  Tournament original = create_tournament(cfg);
  Tournament copy = rebuilt(original);
  int next_user = 0;
  const int steps = 150 + static_cast<int>(rng() % 150);
  for (int i = 0; i < steps && original.stage != Stage::Finished; ++i) {
    const std::string where = "seed " + std::to_string(seed) + " step " + std::to_string(i);
    if (rng() % 5 == 0) {
      copy = rebuilt(original);
      ASSERT_EQ(observable(copy), observable(original)) << where << ": right after the rebuild";
    }
    Step s = random_step(rng, original, next_user);
    std::string a = apply(s, original);
    std::string b = apply(s, copy);
    ASSERT_EQ(b, a) << where << ": " << s.name;
    ASSERT_EQ(boost::json::serialize(standings_json(copy)), boost::json::serialize(standings_json(original)))
        << where << ": " << s.name;
  }
  ASSERT_EQ(observable(copy), observable(original)) << "seed " << seed << " at the end";
}

}  // namespace

TEST(TournamentRecovery, EventsRebuiltFromTheirJsonBehaveAlike) {
  for (uint32_t seed = 1; seed <= 120; ++seed) {
    run_property(seed);
    if (::testing::Test::HasFatalFailure()) return;
  }
}
