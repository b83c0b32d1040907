#include "pairing/playoff.h"

#include <algorithm>
#include <stdexcept>

namespace xq::pairing {
namespace {

int seed_of(const Playoff& po, int p) {
  auto it = std::find(po.seeds.begin(), po.seeds.end(), p);
  if (it == po.seeds.end()) throw std::invalid_argument("player is not in the play-off");
  return static_cast<int>(it - po.seeds.begin());
}

KnockoutGame make_game(const Playoff& po, int x, int y) {
  int hi = seed_of(po, x) < seed_of(po, y) ? x : y;
  int lo = hi == x ? y : x;
  return KnockoutGame{lo, hi, -1, -1};
}

void decide(const Playoff& po, KnockoutGame& g, int red_points, int black_points) {
  if (g.red < 0) throw std::logic_error("game not set up yet");
  int winner;
  if (red_points != black_points)
    winner = red_points > black_points ? g.red : g.black;
  else
    winner = seed_of(po, g.red) < seed_of(po, g.black) ? g.red : g.black;  // draw: higher seed
  g.winner = winner;
  g.loser = winner == g.red ? g.black : g.red;
}

}  // namespace

std::vector<int> playoff_seeds(const Standings& stage1, int k) {
  std::vector<int> out;
  for (const auto& r : stage1.rows) {
    if (static_cast<int>(out.size()) == k) break;
    if (!r.withdrawn) out.push_back(r.player);
  }
  return out;
}

Playoff start_playoff(const std::vector<int>& seeds) {
  if (seeds.size() != 2 && seeds.size() != 4) throw std::invalid_argument("play-off needs 2 or 4 players");
  Playoff po;
  po.seeds = seeds;
  if (seeds.size() == 2) {
    po.final_game = make_game(po, seeds[0], seeds[1]);
  } else {
    po.semifinals.push_back(make_game(po, seeds[0], seeds[3]));
    po.semifinals.push_back(make_game(po, seeds[1], seeds[2]));
  }
  return po;
}

void record_semifinal(Playoff& po, int index, int red_points, int black_points) {
  decide(po, po.semifinals.at(index), red_points, black_points);
  if (po.semifinals[0].decided() && po.semifinals[1].decided()) {
    po.final_game = make_game(po, po.semifinals[0].winner, po.semifinals[1].winner);
    po.third_place = make_game(po, po.semifinals[0].loser, po.semifinals[1].loser);
  }
}

void record_final(Playoff& po, int red_points, int black_points) { decide(po, po.final_game, red_points, black_points); }

void record_third_place(Playoff& po, int red_points, int black_points) {
  decide(po, po.third_place, red_points, black_points);
}

std::vector<int> playoff_places(const Playoff& po) {
  if (!po.final_game.decided()) return {};
  if (po.seeds.size() == 2) return {po.final_game.winner, po.final_game.loser};
  if (!po.third_place.decided()) return {};
  return {po.final_game.winner, po.final_game.loser, po.third_place.winner, po.third_place.loser};
}

}  // namespace xq::pairing
