#pragma once
// Standings and tiebreaks (破同分, spec §2): 对手分, 累进分, 小分, wins, black
// wins, black games, fouls, head-to-head, the 14.3.1 / 14.3.2 tails, the
// Jieqi previous-round ranking, lot. Two-game rounds count per round for
// 对手分 and 累进分 (each opponent once per round, running totals per round).
#include <string>
#include <vector>

#include "pairing/types.h"

namespace xq::pairing {

struct StandingRow {
  int player = -1;
  int rank = 0;   // 1-based; players still tied after the whole chain share a rank
  int score = 0;
  int opp_score = 0;    // 对手分
  int progressive = 0;  // 累进分
  int sb2 = 0;          // 小分 (Sonneborn-Berger) times two (halves for draws)
  int wins = 0, black_wins = 0, black_games = 0, fouls = 0;
  std::vector<int> running;  // S_p(1..n)
  bool withdrawn = false;
  std::vector<std::string> tiebreak_values;  // display values, one per settings.tiebreaks entry
};

struct Standings {
  int after_round = 0;
  std::vector<StandingRow> rows;  // in rank order
};

// Standings after the first `upto` rounds (-1 = all rounds in ev).
Standings compute_standings(const Event& ev, int upto = -1);

const char* tiebreak_name(Tiebreak t);

// Value a bye round adds to 对手分 under settings.bye_opp (round r is 1-based,
// n = rounds counted, scores = final scores after n rounds).
int bye_opponent_value(const Event& ev, const std::vector<int>& scores, int player_before, int r, int n,
                       int points_in_round);

}  // namespace xq::pairing
