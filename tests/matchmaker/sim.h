#pragma once
// Seeded random tournament generator for tests (draws, forfeits, double
// forfeits, withdrawals, late joins, pauses, odd fields, 1 or 2 games a round).
#include <functional>
#include <string>

#include "pairing/swiss.h"
#include "pairing/types.h"

namespace xq::pairing::test {

struct SimConfig {
  int players = 10;
  int rounds = 5;
  int games_per_round = 1;
  int draw_pct = 20;
  int forfeit_pct = 5;
  int double_forfeit_pct = 2;
  int withdraw_pct = 2;    // per player per round
  int late_join_pct = 10;  // per player: joins in a later round
  int pause_pct = 3;       // per player per round: unavailable this round
  int forbidden_pairs = 0;
  std::uint64_t seed = 1;
  Round1Mode mode = Round1Mode::Adjacent;
  bool colour_rules_hard = true;
  bool forfeit_counts_as_met = false;
  GroupOrder group_order = GroupOrder::TopHalfVsBottomHalf;
};

struct Rng {
  std::uint64_t s;
  std::uint64_t next() { return s = mix64(s); }
  int pct() { return static_cast<int>(next() % 100); }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

inline Event make_event(const SimConfig& c) {
  Event ev;
  ev.settings.rounds = c.rounds;
  ev.settings.games_per_round = c.games_per_round;
  ev.settings.seed = c.seed;
  ev.settings.round1 = c.mode;
  ev.settings.colour_rules_hard = c.colour_rules_hard;
  ev.settings.forfeit_counts_as_met = c.forfeit_counts_as_met;
  ev.settings.group_order = c.group_order;
  ev.settings.tiebreaks = tiebreak_preset(c.games_per_round == 2 ? "jieqi" : "cxa-14.3.2");
  Rng rng{c.seed * 7919 + 17};
  for (int i = 0; i < c.players; ++i) {
    Player p;
    p.name = "P" + std::to_string(i);
    if (c.rounds > 1 && rng.pct() < c.late_join_pct) p.join_round = 2 + rng.below(c.rounds - 1);
    ev.players.push_back(p);
  }
  for (int k = 0; k < c.forbidden_pairs && c.players >= 2; ++k) {
    int a = rng.below(c.players), b = rng.below(c.players);
    if (a != b) ev.settings.forbidden.emplace_back(a, b);
  }
  assign_pairing_numbers(ev);
  return ev;
}

inline void play_results(const SimConfig& c, Rng& rng, Round& rd) {
  for (Board& b : rd.boards) {
    if (b.b == kBye) continue;
    int roll = rng.pct();
    for (int g = 0; g < c.games_per_round; ++g) {
      Game gm;
      if (roll < c.double_forfeit_pct) {
        gm.forfeit = true;
      } else if (roll < c.double_forfeit_pct + c.forfeit_pct) {
        gm.forfeit = true;
        (roll % 2 ? gm.a_points : gm.b_points) = 2;
      } else {
        int r = rng.pct();
        if (r < c.draw_pct) gm.a_points = gm.b_points = 1;
        else if (r % 2) gm.a_points = 2;
        else gm.b_points = 2;
        if (rng.pct() < 5) gm.a_fouls = 1;
      }
      b.games.push_back(gm);
    }
  }
}

// Runs the tournament; on_round sees the event before the round and the result.
// Returns false when the engine reported that no legal pairing exists.
inline bool run_tournament(const SimConfig& c, Event& ev,
                           const std::function<void(const Event&, const PairingResult&)>& on_round) {
  ev = make_event(c);
  Rng rng{c.seed * 104729 + 3};
  for (int r = 1; r <= c.rounds; ++r) {
    std::vector<int> unavailable;
    for (int p = 0; p < c.players; ++p) {
      Player& pl = ev.players[p];
      if (r > 1 && pl.withdrawn_round == 0 && rng.pct() < c.withdraw_pct) pl.withdrawn_round = r;
      if (rng.pct() < c.pause_pct) unavailable.push_back(p);
    }
    PairingResult res = pair_round(ev, unavailable);
    on_round(ev, res);
    if (!res.ok) return false;
    Round rd = res.record;
    play_results(c, rng, rd);
    ev.rounds.push_back(rd);
  }
  return true;
}

}  // namespace xq::pairing::test
