#include "search.h"

#include <algorithm>
#include <cstdlib>

#include "evaluate.h"

namespace xq::engine {

namespace {

int to_tt(int s, int ply) { return s >= kMateBound ? s + ply : s <= -kMateBound ? s - ply : s; }
int from_tt(int s, int ply) { return s >= kMateBound ? s - ply : s <= -kMateBound ? s + ply : s; }

// Does colour c have a piece besides king, advisors, elephants and pawns? (Null-move guard
// against zugzwang-like endings.)
bool has_big_pieces(const Position& pos, Color c) {
  for (Square s = 0; s < kSquares; ++s) {
    Piece p = pos.at(s);
    if (!p || color_of(p) != c) continue;
    if (is_dark(p)) return true;
    PieceType t = type_of(p);
    if (t == Rook || t == Horse || t == Cannon) return true;
  }
  return false;
}

// Picks the best-scored remaining move into place i.
void pick(MoveList& list, int* scores, int i) {
  int best = i;
  for (int j = i + 1; j < list.size; ++j)
    if (scores[j] > scores[best]) best = j;
  if (best != i) {
    std::swap(list.moves[i], list.moves[best]);
    std::swap(scores[i], scores[best]);
  }
}

}  // namespace

Searcher::Searcher(const Position& pos, std::vector<EarlierPosition> earlier, bool consecutive, size_t tt_entries)
    : pos_(pos), earlier_(std::move(earlier)), consecutive_(consecutive), tt_(tt_entries) {
  for (const EarlierPosition& e : earlier_) earlier_sorted_.push_back(e.hash);
  std::sort(earlier_sorted_.begin(), earlier_sorted_.end());
}

void Searcher::start(const SearchBudget& budget) {
  stop_ = false;
  node_limit_ = budget.max_nodes ? nodes_ + budget.max_nodes : 0;
  deadline_ = budget.deadline;
  path_hash_[0] = pos_.hash();
  path_check_[0] = pos_.in_check();
  reversible_from_[0] = 0;
}

bool Searcher::should_stop() {
  if (stop_) return true;
  if (node_limit_ && nodes_ >= node_limit_) stop_ = true;
  else if (deadline_ && (nodes_ & 2047) == 0 && Clock::now() >= *deadline_) stop_ = true;
  return stop_;
}

bool Searcher::repetition(int ply, int& score) const {
  const uint64_t h = path_hash_[ply];
  const int from = reversible_from_[ply];
  // Along the cycle: did the side to move here (the mover) check with every move, and the other
  // side with every move? A position reached by the mover's move stands at odd distance back.
  bool mover_checks = true, other_checks = true;
  auto note = [&](int distance, bool check) {
    if (distance % 2) mover_checks = mover_checks && check;
    else other_checks = other_checks && check;
  };
  int j = -1;
  for (int k = ply - 2; k >= from; k -= 2)
    if (path_hash_[k] == h) {
      j = k;
      break;
    }
  if (j >= 0) {
    for (int k = j + 1; k <= ply; ++k) note(ply - k, path_check_[k]);
  } else {
    if (from != 0 || !std::binary_search(earlier_sorted_.begin(), earlier_sorted_.end(), h)) return false;
    if (!consecutive_) {
      score = 0;
      return true;
    }
    const int n = static_cast<int>(earlier_.size());
    int e = n - 1;
    while (e >= 0 && earlier_[e].hash != h) --e;
    if (e < 0) return false;  // cannot happen: the sorted copy holds the same hashes
    for (int k = e + 1; k < n; ++k) note(n - k + ply, earlier_[k].in_check);
    for (int k = 0; k <= ply; ++k) note(ply - k, path_check_[k]);
  }
  score = mover_checks == other_checks ? 0 : other_checks ? kPerpetualCheck : -kPerpetualCheck;
  return true;
}

Undo Searcher::make(Move m, int ply) {
  const bool irreversible = pos_.at(m.to) != kEmpty || is_dark(pos_.at(m.from));
  Undo u = pos_.make(m);
  path_hash_[ply + 1] = pos_.hash();
  path_check_[ply + 1] = pos_.in_check();
  reversible_from_[ply + 1] = irreversible ? ply + 1 : reversible_from_[ply];
  return u;
}

void Searcher::unmake(Move m, const Undo& u) { pos_.unmake(m, u); }

void Searcher::order(const MoveList& list, int* scores, Move hash_move, int ply) const {
  const int side = index(pos_.side_to_move());
  for (int i = 0; i < list.size; ++i) {
    const Move m = list.moves[i];
    if (m == hash_move && hash_move.from != hash_move.to) {
      scores[i] = 1 << 30;
    } else if (pos_.at(m.to)) {
      scores[i] = (1 << 24) + piece_value(pos_, m.to) * 16 - piece_value(pos_, m.from) / 16;
    } else if (ply < kMaxPly && m == killers_[ply][0]) {
      scores[i] = 1 << 23;
    } else if (ply < kMaxPly && m == killers_[ply][1]) {
      scores[i] = (1 << 23) - 1;
    } else {
      scores[i] = history_[side][m.from][m.to];
    }
  }
}

int Searcher::quiesce(int alpha, int beta, int ply, int qdepth) {
  ++nodes_;
  if (should_stop()) return 0;
  if (ply >= kMaxPly - 1) return evaluate(pos_);
  const bool in_check = path_check_[ply];
  if (in_check && qdepth < 6) {
    MoveList list;
    pos_.generate_legal(list);
    if (list.size == 0) return -kMate + ply;
    int scores[256];
    order(list, scores, Move{}, kMaxPly);
    int best = -kInfinity;
    for (int i = 0; i < list.size; ++i) {
      pick(list, scores, i);
      const Move m = list.moves[i];
      Undo u = make(m, ply);
      const int s = -quiesce(-beta, -alpha, ply + 1, qdepth + 1);
      unmake(m, u);
      if (stop_) return 0;
      if (s > best) {
        best = s;
        if (s > alpha) {
          alpha = s;
          if (s >= beta) break;
        }
      }
    }
    return best;
  }

  const int stand = evaluate(pos_);
  if (stand >= beta) return stand;
  if (stand > alpha) alpha = stand;
  int best = stand;

  MoveList pseudo, caps;
  pos_.generate_pseudo(pseudo);
  for (const Move& m : pseudo)
    if (pos_.at(m.to)) caps.push(m);
  int scores[256];
  for (int i = 0; i < caps.size; ++i)
    scores[i] = piece_value(pos_, caps.moves[i].to) * 16 - piece_value(pos_, caps.moves[i].from) / 16;
  for (int i = 0; i < caps.size; ++i) {
    pick(caps, scores, i);
    const Move m = caps.moves[i];
    // Delta pruning: even winning the piece outright would not lift the score to alpha.
    if (stand + piece_value(pos_, m.to) + 150 <= alpha && type_of(pos_.at(m.to)) != King) continue;
    if (!pos_.is_legal(m)) continue;
    Undo u = make(m, ply);
    const int s = -quiesce(-beta, -alpha, ply + 1, qdepth + 1);
    unmake(m, u);
    if (stop_) return 0;
    if (s > best) {
      best = s;
      if (s > alpha) {
        alpha = s;
        if (s >= beta) break;
      }
    }
  }
  return best;
}

int Searcher::negamax(int depth, int alpha, int beta, int ply, bool null_ok) {
  const bool pv = beta - alpha > 1;
  if (ply > 0) {
    int rep = 0;
    if (repetition(ply, rep)) return rep;
  }
  if (depth <= 0) return quiesce(alpha, beta, ply, 0);
  ++nodes_;
  if (should_stop()) return 0;
  if (ply >= kMaxPly - 1) return evaluate(pos_);

  // Mate distance pruning.
  alpha = std::max(alpha, -kMate + ply);
  beta = std::min(beta, kMate - ply - 1);
  if (alpha >= beta) return alpha;

  const uint64_t key = pos_.hash();
  Move hash_move{};
  if (const TTEntry* e = tt_.probe(key)) {
    hash_move = Move{e->from, e->to, NoType};
    if (!pv && e->depth >= depth) {
      const int s = from_tt(e->score, ply);
      if (e->bound == Bound::Exact) return s;
      if (e->bound == Bound::Lower && s >= beta) return s;
      if (e->bound == Bound::Upper && s <= alpha) return s;
    }
  }

  const bool in_check = path_check_[ply];
  int futility_eval = kInfinity;
  if (!in_check && !pv) {
    const int static_eval = evaluate(pos_);
    futility_eval = static_eval;
    // Reverse futility: far above beta near the leaves.
    if (depth <= 3 && std::abs(beta) < kMateBound && static_eval - 120 * depth >= beta) return static_eval;
    // Null move.
    if (null_ok && depth >= 3 && static_eval >= beta && has_big_pieces(pos_, pos_.side_to_move())) {
      const int r = depth >= 6 ? 3 : 2;
      pos_.set_side_to_move(opposite(pos_.side_to_move()));
      path_hash_[ply + 1] = pos_.hash();
      path_check_[ply + 1] = false;
      reversible_from_[ply + 1] = ply + 1;
      const int s = -negamax(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
      pos_.set_side_to_move(opposite(pos_.side_to_move()));
      if (stop_) return 0;
      if (s >= beta) return s >= kMateBound ? beta : s;
    }
  }

  MoveList list;
  pos_.generate_legal(list);
  if (list.size == 0) return -kMate + ply;  // checkmate or stalemate: both lose in Xiangqi and Jieqi

  const int stored_depth = depth;
  if (in_check && ply <= 2 * iter_depth_) ++depth;  // check extension, bounded

  int scores[256];
  order(list, scores, hash_move, ply);
  const int side = index(pos_.side_to_move());
  int best = -kInfinity;
  Move best_move{};
  Bound bound = Bound::Upper;
  int searched = 0;
  for (int i = 0; i < list.size; ++i) {
    pick(list, scores, i);
    const Move m = list.moves[i];
    const bool quiet = pos_.at(m.to) == kEmpty;
    const bool killer = m == killers_[ply][0] || m == killers_[ply][1];
    Undo u = make(m, ply);
    const bool gives_check = path_check_[ply + 1];
    // Futility: a quiet move near the leaves that cannot lift a poor position to alpha.
    if (searched > 0 && quiet && !gives_check && depth <= 2 && futility_eval != kInfinity &&
        std::abs(alpha) < kMateBound && futility_eval + 150 * depth <= alpha && !is_dark(u.moved)) {
      unmake(m, u);
      ++searched;
      continue;
    }
    int s;
    if (searched == 0) {
      s = -negamax(depth - 1, -beta, -alpha, ply + 1, true);
    } else {
      int r = 0;
      if (depth >= 3 && quiet && !killer && !in_check && !gives_check && searched >= (pv ? 5 : 3))
        r = 1 + (searched >= 10 && depth >= 6 ? 1 : 0);
      s = -negamax(depth - 1 - r, -alpha - 1, -alpha, ply + 1, true);
      if (s > alpha && r > 0) s = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1, true);
      if (s > alpha && s < beta) s = -negamax(depth - 1, -beta, -alpha, ply + 1, true);
    }
    unmake(m, u);
    if (stop_) return 0;
    ++searched;
    if (s > best) {
      best = s;
      best_move = m;
      if (s > alpha) {
        alpha = s;
        bound = Bound::Exact;
        if (s >= beta) {
          bound = Bound::Lower;
          if (quiet) {
            if (!(m == killers_[ply][0])) {
              killers_[ply][1] = killers_[ply][0];
              killers_[ply][0] = m;
            }
            int& h = history_[side][m.from][m.to];
            h += depth * depth;
            if (h > (1 << 20))
              for (auto& a : history_)
                for (auto& b : a)
                  for (int& v : b) v /= 2;
          }
          break;
        }
      }
    }
  }
  tt_.store(key, to_tt(best, ply), stored_depth, bound, best_move);
  return best;
}

int Searcher::root_search(int depth, int alpha, int beta, Move& best_move) {
  int best = -kInfinity;
  for (size_t i = 0; i < root_moves_.size(); ++i) {
    const Move m = root_moves_[i];
    Undo u = make(m, 0);
    int s;
    if (i == 0) {
      s = -negamax(depth - 1, -beta, -alpha, 1, true);
    } else {
      s = -negamax(depth - 1, -alpha - 1, -alpha, 1, true);
      if (s > alpha && s < beta) s = -negamax(depth - 1, -beta, -alpha, 1, true);
    }
    unmake(m, u);
    if (stop_) return best;
    if (s > best) {
      best = s;
      best_move = m;
      // Keep the best move first for the next iteration.
      std::rotate(root_moves_.begin(), root_moves_.begin() + static_cast<long>(i), root_moves_.begin() + static_cast<long>(i) + 1);
      if (s > alpha) alpha = s;
      if (s >= beta) return s;
    }
  }
  return best;
}

SearchResult Searcher::iterate(const SearchBudget& budget) {
  start(budget);
  SearchResult result;
  MoveList list;
  pos_.generate_legal(list);
  if (list.size == 0) {
    result.score = -kMate;
    return result;
  }
  Move hash_move{};
  if (const TTEntry* e = tt_.probe(pos_.hash())) hash_move = Move{e->from, e->to, NoType};
  int scores[256];
  order(list, scores, hash_move, 0);
  root_moves_.clear();
  for (int i = 0; i < list.size; ++i) {
    pick(list, scores, i);
    if (std::find(excluded_.begin(), excluded_.end(), list.moves[i]) == excluded_.end())
      root_moves_.push_back(list.moves[i]);
  }
  if (root_moves_.empty())
    for (int i = 0; i < list.size; ++i) root_moves_.push_back(list.moves[i]);
  result.best = root_moves_[0];
  result.has_move = true;
  result.score = evaluate(pos_);

  int prev = 0;
  for (int d = 1; d <= std::max(1, budget.max_depth); ++d) {
    if (d > 1 && budget.soft_deadline && Clock::now() >= *budget.soft_deadline) break;
    iter_depth_ = d;
    Move best{};
    int s;
    if (d >= 4 && std::abs(prev) < kMateBound) {
      const int lo = prev - 50, hi = prev + 50;
      s = root_search(d, lo, hi, best);
      if (!stop_ && (s <= lo || s >= hi)) s = root_search(d, -kInfinity, kInfinity, best);
    } else {
      s = root_search(d, -kInfinity, kInfinity, best);
    }
    if (stop_) break;
    result.best = best;
    result.score = s;
    result.depth = d;
    prev = s;
    if (s >= kMateBound && kMate - s <= d) break;  // a forced mate within the horizon
    if (root_moves_.size() == 1 && d >= 2) break;   // the only move
  }
  return result;
}

std::optional<int> Searcher::score_move(Move m, int depth, const SearchBudget& budget) {
  start(budget);
  iter_depth_ = depth;
  Undo u = make(m, 0);
  const int s = -negamax(depth - 1, -kInfinity, kInfinity, 1, true);
  unmake(m, u);
  if (stop_) return std::nullopt;
  return s;
}

}  // namespace xq::engine
