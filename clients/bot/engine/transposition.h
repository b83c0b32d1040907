// Transposition table keyed by Position::hash() (board incl. face-down bits and side to move; the
// hash never depends on hidden Jieqi identities). One table per search sample: two samples that
// give a face-down piece different identities must not share entries.
#pragma once
#include <cstdint>
#include <vector>

#include "rules/types.h"

namespace xq::engine {

enum class Bound : uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

struct TTEntry {
  uint64_t key = 0;
  int16_t score = 0;
  uint8_t from = 0, to = 0;
  int8_t depth = 0;
  Bound bound = Bound::None;
};

class TranspositionTable {
 public:
  // `entries` is rounded down to a power of two, at least 1024. The memory comes from (and goes
  // back to) a per-thread spare list: touching fresh pages for a large table costs tens of
  // milliseconds on a busy machine, more than a short move's whole time.
  explicit TranspositionTable(size_t entries);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;
  const TTEntry* probe(uint64_t key) const {
    const TTEntry& e = table_[key & mask_];
    return e.bound != Bound::None && e.key == key ? &e : nullptr;
  }
  void store(uint64_t key, int score, int depth, Bound bound, Move best);
  void clear();

 private:
  std::vector<TTEntry> table_;
  uint64_t mask_ = 0;
};

}  // namespace xq::engine
