#pragma once
// Small builders for hand-made events in tests.
#include "pairing/types.h"

namespace xq::pairing::test {

inline Event players_event(int n, int games_per_round = 1) {
  Event ev;
  ev.settings.games_per_round = games_per_round;
  for (int i = 0; i < n; ++i) {
    Player p;
    p.name = "P" + std::to_string(i + 1);
    p.number = i + 1;
    ev.players.push_back(p);
  }
  return ev;
}

// Single game: a red; result from a's view: 2 win, 1 draw, 0 loss.
inline Board game(int a, int b, int a_points) { return Board{a, b, {Game{a_points, 2 - a_points}}}; }
inline Board forfeit(int a, int b, int a_points) {
  Game g{a_points, a_points == 1 ? 0 : 2 - a_points, true};
  if (a_points == 1) g.a_points = 0;  // 1 means double forfeit
  return Board{a, b, {g}};
}
inline Board bye(int a) { return Board{a, kBye, {}}; }

}  // namespace xq::pairing::test
