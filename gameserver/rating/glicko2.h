// Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): pure arithmetic.
// The server treats every rated game as its own rating period, as the large online sites do.
#pragma once
#include <vector>

namespace gs {

struct Rating {
  double rating = 1500;
  double deviation = 350;   // RD
  double volatility = 0.06;
  int games = 0;
};

struct RatedResult {
  Rating opponent;
  double score;  // 1 win, 0.5 draw, 0 loss
};

struct Glicko2Params {
  double tau = 0.5;             // constrains volatility changes (Glickman suggests 0.3–1.2)
  double min_deviation = 45;    // keeps established ratings responsive
  double max_deviation = 350;
};

// The player's rating after a period with these results (no results: only the deviation grows).
Rating glicko2_update(const Rating& player, const std::vector<RatedResult>& results, const Glicko2Params& p = {});

}  // namespace gs
