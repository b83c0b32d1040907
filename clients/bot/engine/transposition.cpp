#include "transposition.h"

#include <algorithm>

namespace xq::engine {

namespace {
thread_local std::vector<std::vector<TTEntry>> spare_tables;
}

TranspositionTable::TranspositionTable(size_t entries) {
  size_t n = 1024;
  while (n * 2 <= entries) n *= 2;
  // The spare with the smallest sufficient capacity, else the largest (it grows).
  int pick = -1;
  for (size_t i = 0; i < spare_tables.size(); ++i) {
    const size_t cap = spare_tables[i].capacity();
    if (pick < 0) { pick = static_cast<int>(i); continue; }
    const size_t best = spare_tables[static_cast<size_t>(pick)].capacity();
    if ((cap >= n && (best < n || cap < best)) || (best < n && cap > best)) pick = static_cast<int>(i);
  }
  if (pick >= 0) {
    table_ = std::move(spare_tables[static_cast<size_t>(pick)]);
    spare_tables.erase(spare_tables.begin() + pick);
  }
  table_.assign(n, TTEntry{});
  mask_ = n - 1;
}

TranspositionTable::~TranspositionTable() {
  if (table_.capacity() == 0) return;
  if (spare_tables.size() < 16) spare_tables.push_back(std::move(table_));
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
