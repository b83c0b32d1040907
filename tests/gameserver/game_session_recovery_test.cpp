// Recovery as a property: a game rebuilt from its stored events (the way a node resumes a game
// after a crash or takes over another node's game) must behave exactly like the game that wrote
// them. Random action sequences — legal and illegal moves, resent client move ids, reported lag,
// draw offers and answers, resignations, aborts, flag falls — drive a GameSession; at random
// points a copy is rebuilt from the encoded config and events and from then on both receive the
// same actions. Every answer, every produced event and the visible state must agree.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "game/codec.h"
#include "game/game_session.h"
#include "rules/fen.h"
#include "rules/jieqi.h"

using namespace gs;
using xq::Color;

namespace {

GameConfig random_config(std::mt19937& rng, bool jieqi) {
  GameConfig c;
  c.id = "g-prop";
  c.variant = jieqi ? xq::Variant::Jieqi : xq::Variant::Xiangqi;
  const Millis initial[] = {3'000, 10'000, 60'000, 300'000};
  const Millis increment[] = {0, 0, 1'000, 3'000};
  c.tc = {initial[rng() % 4], increment[rng() % 4]};
  c.red = {"u-red", "red", false};
  c.black = {"u-black", "black", false};
  if (jieqi) {
    xq::Assignment a = xq::draw_assignment();
    c.assignment = a.to_string();
    c.salt = xq::random_hex(16);
    c.commitment = xq::commitment(a, c.salt);
  }
  return c;
}

std::string encoded(const std::vector<GameEvent>& events) {
  std::string s;
  for (const GameEvent& e : events) s += encode_event(e) + "\n";
  return s;
}

// Everything a client or the server can observe of a session at time `now`.
std::string observable(const GameSession& s, Millis now) {
  std::ostringstream o;
  o << "v" << s.version() << " plies " << s.plies() << " over " << s.over() << " " << s.result().reason << "\n"
    << xq::to_fen(s.rules_game().position()) << "\n";
  for (Color c : {Color::Red, Color::Black})
    o << "clock " << s.clock().remaining(c, now) << " quota " << s.clock().quota(c) << "\n";
  if (s.clock().running()) o << "running for side " << static_cast<int>(s.clock().side_running()) << "\n";
  o << "offer " << (s.draw_offer_by() ? static_cast<int>(*s.draw_offer_by()) : -1) << "\n";
  if (auto d = s.flag_deadline()) o << "flag at " << *d << "\n";
  for (auto [r, b] : s.ply_clocks()) o << r << "/" << b << " ";
  return o.str();
}

// Rebuilds a session from its stored form, its clock resumed as if no time had been lost.
GameSession recovered(const GameConfig& cfg, const GameSession& original, Millis turn_started) {
  GameSession r(decode_config(encode_config(cfg)));
  for (const GameEvent& e : original.events()) r.replay(decode_event(encode_event(e)));
  r.start_clock(turn_started);
  return r;
}

struct Driver {
  std::mt19937 rng;
  Millis now = 0;
  Millis turn_started = 0;  // when the running clock was last started (start or last move)
  std::vector<std::string> used_ids[2];
  int next_id = 0;

  explicit Driver(uint32_t seed) : rng(seed) {}
  int pick(int n) { return static_cast<int>(rng() % static_cast<uint32_t>(n)); }
};

// One random action applied to every session in `sessions` (all must answer alike).
void act(Driver& d, std::vector<GameSession*>& sessions, const std::string& where) {
  GameSession& first = *sessions[0];
  d.now += d.pick(60) == 0 ? d.pick(20'000) : d.pick(700);
  const Color side = d.pick(2) ? Color::Red : Color::Black;
  const int kind = d.pick(1000);

  std::string iccs, id;
  Millis lag = d.pick(4) == 0 ? d.pick(600) : 0;
  if (kind < 850) {  // a move by the side to move, mostly legal
    const Color mover = d.pick(10) == 0 ? side : first.rules_game().position().side_to_move();
    auto legal = first.rules_game().legal_moves();
    if (!legal.empty() && d.pick(12) != 0) iccs = xq::to_iccs(legal[d.pick(static_cast<int>(legal.size()))]);
    else iccs = d.pick(2) ? "a0a9" : "zz";
    auto& ids = d.used_ids[xq::index(mover)];
    if (!ids.empty() && d.pick(8) == 0) id = ids[d.pick(static_cast<int>(ids.size()))];  // a resend
    else if (d.pick(6) != 0) id = "m" + std::to_string(d.next_id++);
    std::vector<Status> statuses;
    std::vector<std::string> outs;
    for (GameSession* s : sessions) {
      std::vector<GameEvent> out;
      statuses.push_back(s->move(mover, iccs, id, d.now, lag, out));
      outs.push_back(encoded(out));
    }
    for (size_t i = 1; i < sessions.size(); ++i) {
      ASSERT_EQ(statuses[i], statuses[0]) << where << " move " << iccs << " id " << id;
      ASSERT_EQ(outs[i], outs[0]) << where << " move " << iccs;
    }
    if (statuses[0] == Status::Ok) {
      d.turn_started = d.now;
      if (!id.empty()) d.used_ids[xq::index(mover)].push_back(id);
    }
    return;
  }
  std::vector<Status> statuses;
  std::vector<std::string> outs;
  for (GameSession* s : sessions) {
    std::vector<GameEvent> out;
    Status st = Status::Ok;
    if (kind < 900) st = s->offer_draw(side, d.now, out);
    else if (kind < 915) st = s->accept_draw(side, d.now, out);
    else if (kind < 950) st = s->decline_draw(side, d.now, out);
    else if (kind < 953) st = s->resign(side, d.now, out);
    else if (kind < 970) st = s->abort(side, d.now, out);
    else st = s->check_flag(d.now, out) ? Status::GameOver : Status::Ok;
    statuses.push_back(st);
    outs.push_back(encoded(out));
  }
  for (size_t i = 1; i < sessions.size(); ++i) {
    ASSERT_EQ(statuses[i], statuses[0]) << where << " action " << kind;
    ASSERT_EQ(outs[i], outs[0]) << where << " action " << kind;
  }
}

// Invariants of one session, whatever happened.
void check_invariants(const GameSession& s, const std::string& where) {
  ASSERT_EQ(s.version(), s.events().size()) << where;
  for (size_t i = 0; i < s.events().size(); ++i) {
    const GameEvent& e = s.events()[i];
    ASSERT_EQ(e.version, i + 1) << where;
    if (e.kind == EventKind::Ended) ASSERT_EQ(i + 1, s.events().size()) << where << ": events after the end";
  }
  ASSERT_EQ(s.ply_clocks().size(), s.plies()) << where;
  if (s.over()) ASSERT_FALSE(s.clock().running()) << where;
  for (Color c : {Color::Red, Color::Black}) ASSERT_GE(s.clock().stored(c), 0) << where;
}

void run_property(uint32_t seed, bool jieqi) {
  Driver d(seed);
  const GameConfig cfg = random_config(d.rng, jieqi);
  GameSession original(cfg);
  original.start_clock(0);
  std::optional<GameSession> shadow;  // rebuilt from the original's events at the last checkpoint
  const int steps = 40 + d.pick(260);
  for (int step = 0; step < steps; ++step) {
    const std::string where = std::string(jieqi ? "jieqi" : "xiangqi") + " seed " + std::to_string(seed) +
                              " step " + std::to_string(step);
    if (!shadow || d.pick(6) == 0) {
      shadow.emplace(recovered(cfg, original, d.turn_started));
      ASSERT_EQ(encoded(shadow->events()), encoded(original.events())) << where;
      ASSERT_EQ(observable(*shadow, d.now), observable(original, d.now)) << where << ": right after recovery";
    }
    const uint64_t version_before = original.version();
    const bool over_before = original.over();
    std::vector<GameSession*> both{&original, &*shadow};
    act(d, both, where);
    if (::testing::Test::HasFatalFailure()) return;
    check_invariants(original, where);
    if (::testing::Test::HasFatalFailure()) return;
    ASSERT_EQ(observable(*shadow, d.now), observable(original, d.now)) << where;
    if (over_before) ASSERT_EQ(original.version(), version_before) << where << ": a finished game changed";
  }
}

}  // namespace

TEST(GameSessionRecovery, XiangqiGamesRebuiltFromTheirEventsBehaveAlike) {
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    run_property(seed, false);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(GameSessionRecovery, JieqiGamesRebuiltFromTheirEventsBehaveAlike) {
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    run_property(seed, true);
    if (::testing::Test::HasFatalFailure()) return;
  }
}
