#include "helpmate.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

namespace xq::tools {

namespace {

using Clock = std::chrono::steady_clock;

struct Budget {};  // thrown when the node or time budget runs out

class Search {
 public:
  Search(const Position& start, const HelpmateOptions& opt)
      : pos_(start), opt_(opt), table_(std::max<size_t>(opt.table_entries, 1024), 0), t0_(Clock::now()) {
    size_t n = 1;
    while (n * 2 <= table_.size()) n *= 2;
    table_.resize(n);
    mask_ = n - 1;
  }

  HelpmateResult run() {
    HelpmateResult r;
    const Color first = pos_.side_to_move();
    try {
      for (int plies = 1; plies <= opt_.max_plies; ++plies) {
        // The side that plays the last ply of a line of this length.
        const Color mater = plies % 2 == 1 ? first : opposite(first);
        if (opt_.mater >= 0 && index(mater) != opt_.mater) {
          r.searched_plies = plies;
          continue;
        }
        mater_ = mater;
        line_.clear();
        if (search(plies)) {
          r.found = true;
          r.moves = line_;
          std::reverse(r.moves.begin(), r.moves.end());
          break;
        }
        r.searched_plies = plies;
      }
      r.exhausted = !r.found;
    } catch (const Budget&) {
    }
    r.nodes = nodes_;
    r.ms = elapsed_ms();
    return r;
  }

 private:
  int64_t elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0_).count();
  }

  void count_node() {
    ++nodes_;
    if (opt_.max_nodes && nodes_ > opt_.max_nodes) throw Budget{};
    if (opt_.max_ms && (nodes_ & 0xffff) == 0 && elapsed_ms() > opt_.max_ms) throw Budget{};
  }

  uint64_t key(int depth) const { return (pos_.hash() ^ (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(depth + 1))) | 1; }
  bool refuted(int depth) const { return table_[key(depth) & mask_] == key(depth); }
  void refute(int depth) { table_[key(depth) & mask_] = key(depth); }

  // Mater to move, one ply left: a checking move that leaves the opponent without a legal move.
  bool mate_in_one() {
    MoveList moves;
    pos_.generate_legal(moves);
    for (Move m : moves) {
      count_node();
      if (is_dark(pos_.at(m.from))) m.reveal = pos_.identity(m.from);
      Undo u = pos_.make(m);
      bool mate = pos_.in_check() && !pos_.has_legal_move();
      pos_.unmake(m, u);
      if (mate) {
        line_.push_back(m);
        return true;
      }
    }
    return false;
  }

  // True if a line of exactly `depth` plies ends in a mate by mater_ (found line in line_, reversed).
  bool search(int depth) {
    if (depth == 1) return mate_in_one();
    if (refuted(depth)) return false;
    MoveList moves;
    pos_.generate_legal(moves);
    order(moves);
    for (int i = 0; i < moves.size; ++i) {
      Move m = moves.moves[i];
      count_node();
      if (is_dark(pos_.at(m.from))) m.reveal = pos_.identity(m.from);
      Undo u = pos_.make(m);
      bool ok = false;
      // An earlier end (no legal move for the side to move) would stop the game before the mate.
      if (pos_.has_legal_move()) ok = search(depth - 1);
      pos_.unmake(m, u);
      if (ok) {
        line_.push_back(m);
        return true;
      }
    }
    refute(depth);
    return false;
  }

  // Mater: captures and moves towards the enemy king first; the defender: moves next to its own king.
  void order(MoveList& moves) const {
    const Square k = pos_.king_square(opposite(pos_.side_to_move()));
    const Square own = pos_.king_square(pos_.side_to_move());
    const bool mating_side = pos_.side_to_move() == mater_;
    auto dist = [](Square a, Square b) { return std::abs(file_of(a) - file_of(b)) + std::abs(rank_of(a) - rank_of(b)); };
    auto score = [&](const Move& m) {
      int s = pos_.at(m.to) ? 20 : 0;
      s -= mating_side ? dist(m.to, k) : dist(m.to, own);
      return s;
    };
    std::stable_sort(moves.moves, moves.moves + moves.size, [&](const Move& a, const Move& b) { return score(a) > score(b); });
  }

  Position pos_;
  HelpmateOptions opt_;
  std::vector<uint64_t> table_;
  size_t mask_ = 0;
  Clock::time_point t0_;
  uint64_t nodes_ = 0;
  Color mater_ = Color::Red;
  std::vector<Move> line_;
};

}  // namespace

HelpmateResult find_helpmate(const Position& start, const HelpmateOptions& opt) {
  Search s(start, opt);
  return s.run();
}

}  // namespace xq::tools
