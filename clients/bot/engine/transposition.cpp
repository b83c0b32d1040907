#include "transposition.h"

#include <algorithm>

namespace xq::engine {

TranspositionTable::TranspositionTable(size_t entries) {
  size_t n = 1024;
  while (n * 2 <= entries) n *= 2;
  table_.assign(n, TTEntry{});
  mask_ = n - 1;
}

void TranspositionTable::store(uint64_t key, int score, int depth, Bound bound, Move best) {
  TTEntry& e = table_[key & mask_];
  // Keep a deeper result of the same position unless the new one is exact.
  if (e.key == key && e.bound != Bound::None && e.depth > depth && bound != Bound::Exact) return;
  if (e.key == key && best.from == best.to) best = Move{e.from, e.to, NoType};  // keep the old move
  e.key = key;
  e.score = static_cast<int16_t>(score);
  e.depth = static_cast<int8_t>(std::clamp(depth, -100, 100));
  e.bound = bound;
  e.from = best.from;
  e.to = best.to;
}

void TranspositionTable::clear() { std::fill(table_.begin(), table_.end(), TTEntry{}); }

}  // namespace xq::engine
