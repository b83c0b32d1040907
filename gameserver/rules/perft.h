// Perft: count the leaves of the legal move tree (used to verify move generation).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "position.h"

namespace xq {

// Jieqi positions must have every dark identity known (fixed assignment) for depth > 1.
uint64_t perft(Position& pos, int depth);
// Per root move counts, in generation order.
std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace xq
