#pragma once
// Play-off helper (the seed open): after the Swiss stage the top K (4) play a
// knockout: 1-4 and 2-3, then winners for 1st/2nd and losers for 3rd/4th.
// In every knockout game the higher stage-1 rank plays black ("4-1, 3-2" in
// the regulation lists red first) and a drawn game goes to him. The other
// players keep playing Swiss rounds: pass the K seeds as unavailable to
// pair_round (they are "not in this pool" but stay in the event).
#include <vector>

#include "pairing/tiebreaks.h"

namespace xq::pairing {

struct KnockoutGame {
  int red = -1, black = -1;  // black = higher seed
  int winner = -1, loser = -1;
  bool decided() const { return winner >= 0; }
};

struct Playoff {
  std::vector<int> seeds;       // player ids in stage-1 order (seeds[0] = 1st)
  std::vector<KnockoutGame> semifinals;  // empty when K = 2
  KnockoutGame final_game, third_place;  // set up once the semifinals are decided
};

// Top k (2 or 4) of the standings, skipping withdrawn players.
std::vector<int> playoff_seeds(const Standings& stage1, int k = 4);

Playoff start_playoff(const std::vector<int>& seeds);

// Records a game result (points of red and black); a draw goes to the higher
// seed. Sets up the final and the 3rd-place game when both semifinals are done.
void record_semifinal(Playoff& po, int index, int red_points, int black_points);
void record_final(Playoff& po, int red_points, int black_points);
void record_third_place(Playoff& po, int red_points, int black_points);

// Final places 1..K (player ids), or empty until every game is decided.
std::vector<int> playoff_places(const Playoff& po);

}  // namespace xq::pairing
