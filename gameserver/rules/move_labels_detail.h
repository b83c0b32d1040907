// Shared by the labeller's files (move_labels.cpp, threat_scan.cpp, forcing_lines.cpp) and
// repetition_verdict.cpp only; not part of the library's interface (adjudication.h is).
#pragma once
#include <array>
#include <optional>
#include <vector>

#include "adjudication.h"

namespace xq::detail {

// Labels move `m` of `before`. `ids` maps squares of `before` to piece identities (nullptr: the
// squares themselves); `previous`/`prev_move`: the position before the opponent's last move and
// that move (nullptr: unknown).
MoveLabel label_move_ids(const Position& before, Move m, Ruleset rs, const Position* previous, const Move* prev_move,
                         const int* ids, const AdjudicationOptions& options);

// Can move `m`, by a face-up piece of `p`, give check to the king on `k`? False only where it
// surely cannot, so the mate searches skip such moves where only checks count.
bool may_check(const Position& p, Move m, Square k);

// Yes/no answers about a position kept between calls (the mate search, see capture_allows_mate;
// the refutation of a capture, see capture_refuted): by the whole board, the side to move, the
// variant and a tag (e.g. the capture asked about), in a fixed number of slots (a newer answer
// replaces an older). The answers depend on nothing else, so keeping them changes no result.
class BoardMemo {
 public:
  std::optional<bool> find(const Position& p, uint16_t tag = 0) const;
  void store(const Position& p, bool answer, uint16_t tag = 0);

 private:
  struct Entry {
    std::array<Piece, kSquares> board{};
    Color side = Color::Red;
    Variant variant = Variant::Xiangqi;
    PieceCounts pool{};  // Jieqi: what a face-down piece may turn up as (the mate searches ask)
    uint16_t tag = 0;
    bool answer = false;
    bool used = false;
  };
  static constexpr size_t kSlots = 8192;
  static size_t slot(const Position& p, uint16_t tag);
  static bool same(const Entry& e, const Position& p, uint16_t tag);
  std::vector<Entry> table_ = std::vector<Entry>(kSlots);
};

}  // namespace xq::detail
