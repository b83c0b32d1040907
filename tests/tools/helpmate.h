// Cooperative mate ("helpmate") search for tests: both sides' moves are chosen so that the game ends
// in checkmate as soon as possible. Used by the browser tests to play a Jieqi game to checkmate by
// clicks (the harness knows the hidden assignment; the browsers never do). Not a game engine.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rules/position.h"

namespace xq::tools {

struct HelpmateOptions {
  int max_plies = 9;            // longest line searched (both sides' moves counted)
  uint64_t max_nodes = 0;       // 0 = no node limit
  int64_t max_ms = 0;           // 0 = no time limit
  int mater = -1;               // -1 = either side may deliver the mate, else index(Color)
  size_t table_entries = 1u << 22;  // transposition table of refuted (position, depth) pairs
};

struct HelpmateResult {
  std::vector<Move> moves;     // empty when none was found; each dark piece's move carries its reveal
  bool found = false;
  bool exhausted = false;      // every line up to max_plies was searched: there is no shorter mate
  int searched_plies = 0;      // lengths up to this were searched completely
  uint64_t nodes = 0;
  int64_t ms = 0;
};

// `start` must know every face-down piece's identity (apply_assignment). Iterative deepening on the
// number of plies, so the first line found is a shortest one; the last move gives checkmate and no
// earlier position is already over (stalemate/checkmate). Stops at the first mate or the budget.
HelpmateResult find_helpmate(const Position& start, const HelpmateOptions& opt);

}  // namespace xq::tools
