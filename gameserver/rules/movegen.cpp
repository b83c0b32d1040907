// Move generation, attack tests and legality.
#include <cstdlib>

#include "geometry.h"
#include "position.h"

namespace xq {

namespace {
// In check, a move other than the king's can only help by changing a square the check depends
// on: the king's rank or file (capturing or blocking a chariot, cannon, pawn or the other king,
// or taking or adding a cannon's screen), a square next to it diagonally (a horse's leg, an
// elephant's eye, a Jieqi advisor), a checking horse's square, or a checking Jieqi elephant's.
inline bool may_answer_check(Move m, Square k, Variant v) {
  if (aligned(m.from, k) || aligned(m.to, k)) return true;
  const int df = std::abs(file_of(m.to) - file_of(k)), dr = std::abs(rank_of(m.to) - rank_of(k));
  if ((df == 1 && dr == 1) || (df == 1 && dr == 2) || (df == 2 && dr == 1)) return true;
  return v == Variant::Jieqi && df == 2 && dr == 2;
}
inline bool is_enemy(Piece p, Color us) { return p && color_of(p) != us; }
inline bool is_own(Piece p, Color us) { return p && color_of(p) == us; }
}  // namespace

bool Position::king_attacked_after_probe(Color c) const {
  Square k = king_[index(c)];
  if (k == kNoSquare) return true;  // the king was captured by the probe
  const Geometry& g = geometry();
  const Color them = opposite(c);
  for (int d = 0; d < 4; ++d) {
    const int8_t* ray = g.rays[k][d];
    int i = 0;
    for (; ray[i] >= 0 && !board_[ray[i]]; ++i) {}
    if (ray[i] < 0) continue;
    Piece p1 = board_[ray[i]];
    if (color_of(p1) == them) {
      PieceType t = type_of(p1);
      if (t == Rook || (t == King && d < 2)) return true;
    }
    for (++i; ray[i] >= 0 && !board_[ray[i]]; ++i) {}
    if (ray[i] < 0) continue;
    Piece p2 = board_[ray[i]];
    if (color_of(p2) == them && type_of(p2) == Cannon) return true;
  }
  const Piece horse = make_piece(them, Horse);
  for (const StepWithBlock* h = g.horse_attackers[k]; h->to >= 0; ++h)
    if ((board_[h->to] & ~kDarkBit) == horse && !board_[h->block]) return true;
  const Piece pawn = make_piece(them, Pawn);
  // An enemy pawn attacks k from the square in front of k (from the pawn's point of view) or,
  // once it has crossed the river, from either side.
  int forward = them == Color::Red ? -kFiles : kFiles;  // where a pawn that attacks k stands
  Square front = k + forward;
  if (front >= 0 && front < kSquares && board_[front] == pawn) return true;
  if (file_of(k) > 0 && board_[k - 1] == pawn && crossed_river(them, k - 1)) return true;
  if (file_of(k) < 8 && board_[k + 1] == pawn && crossed_river(them, k + 1)) return true;
  if (variant_ == Variant::Jieqi) {
    // Revealed advisors and elephants roam the whole board in Jieqi.
    const Piece advisor = make_piece(them, Advisor), elephant = make_piece(them, Elephant);
    for (const int8_t* d = g.diagonal[k]; *d >= 0; ++d)
      if (board_[*d] == advisor) return true;
    for (const StepWithBlock* e = g.elephant_moves[k]; e->to >= 0; ++e)
      if (board_[e->to] == elephant && !board_[e->block]) return true;
  }
  return false;
}

bool Position::in_check(Color c) const { return king_attacked_after_probe(c); }

// Inlined into both callers: a call per square made perft 50 % slower.
[[gnu::always_inline]] inline void Position::add_pseudo_moves(const Geometry& g, Square s, Piece p, MoveList& out) const {
  const Color us = side_;
  auto add = [&](Square from, Square to) { out.push(Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to), NoType}); };
  switch (type_of(p)) {
    case King:
      for (const int8_t* t = g.orthogonal[s]; *t >= 0; ++t)
        if (in_palace(us, *t) && !is_own(board_[*t], us)) add(s, *t);
      break;
    case Advisor: {
      bool free = advisor_free(p);
      for (const int8_t* t = g.diagonal[s]; *t >= 0; ++t)
        if ((free || in_palace(us, *t)) && !is_own(board_[*t], us)) add(s, *t);
      break;
    }
    case Elephant: {
      bool free = advisor_free(p);
      for (const StepWithBlock* e = g.elephant_moves[s]; e->to >= 0; ++e)
        if (!board_[e->block] && (free || !crossed_river(us, e->to)) && !is_own(board_[e->to], us)) add(s, e->to);
      break;
    }
    case Horse:
      for (const StepWithBlock* h = g.horse_moves[s]; h->to >= 0; ++h)
        if (!board_[h->block] && !is_own(board_[h->to], us)) add(s, h->to);
      break;
    case Rook:
      for (int d = 0; d < 4; ++d)
        for (const int8_t* t = g.rays[s][d]; *t >= 0; ++t) {
          if (!board_[*t]) { add(s, *t); continue; }
          if (is_enemy(board_[*t], us)) add(s, *t);
          break;
        }
      break;
    case Cannon:
      for (int d = 0; d < 4; ++d) {
        const int8_t* t = g.rays[s][d];
        for (; *t >= 0 && !board_[*t]; ++t) add(s, *t);
        if (*t < 0) continue;
        for (++t; *t >= 0 && !board_[*t]; ++t) {}
        if (*t >= 0 && is_enemy(board_[*t], us)) add(s, *t);
      }
      break;
    case Pawn: {
      int r = rank_of(s) + (us == Color::Red ? 1 : -1);
      if (r >= 0 && r < kRanks && !is_own(board_[make_square(file_of(s), r)], us)) add(s, make_square(file_of(s), r));
      if (crossed_river(us, s)) {
        if (file_of(s) > 0 && !is_own(board_[s - 1], us)) add(s, s - 1);
        if (file_of(s) < 8 && !is_own(board_[s + 1], us)) add(s, s + 1);
      }
      break;
    }
    default: break;
  }
}

void Position::generate_pseudo(MoveList& out) const {
  const Geometry& g = geometry();
  for (Square s = 0; s < kSquares; ++s)
    if (board_[s] && color_of(board_[s]) == side_) add_pseudo_moves(g, s, board_[s], out);
}

void Position::generate_pseudo_from(Square s, MoveList& out) const {
  if (board_[s] && color_of(board_[s]) == side_) add_pseudo_moves(geometry(), s, board_[s], out);
}

bool Position::is_legal(Move m) const {
  Position& self = const_cast<Position&>(*this);  // probe and restore; observable state is unchanged
  Piece captured = self.make_probe(m);
  bool ok = !king_attacked_after_probe(side_);
  self.unmake_probe(m, captured);
  return ok;
}

void Position::generate_legal(MoveList& out) const {
  MoveList pseudo;
  generate_pseudo(pseudo);
  const Square k = king_[index(side_)];
  const bool check = in_check(side_);
  for (const Move& m : pseudo) {
    // Without check, a non-king move can only expose the king through a line through the king
    // (from or to on its rank/file) or a horse leg / elephant eye next to it.
    bool safe = !check && m.from != k && !aligned(m.from, k) && !aligned(m.to, k) && !diagonal_neighbours(m.from, k);
    if (check && m.from != k && k != kNoSquare && !may_answer_check(m, k, variant_)) continue;
    if (safe || is_legal(m)) out.push(m);
  }
}

bool Position::has_legal_move() const {
  // Square by square, so the usual answer (yes) comes after the first piece that can move.
  for (Square s = 0; s < kSquares; ++s) {
    MoveList pseudo;
    generate_pseudo_from(s, pseudo);
    for (const Move& m : pseudo)
      if (is_legal(m)) return true;
  }
  return false;
}

bool Position::is_pseudo_legal(Move m) const {
  if (m.from >= kSquares || m.to >= kSquares) return false;
  Piece p = board_[m.from];
  if (!p || color_of(p) != side_) return false;
  MoveList pseudo;
  generate_pseudo_from(m.from, pseudo);
  for (const Move& q : pseudo)
    if (q == m) return true;
  return false;
}

bool Position::attacks(Square from, Square target) const {
  const Geometry& g = geometry();
  Piece p = board_[from];
  if (!p || from == target) return false;
  const Color us = color_of(p);
  auto pieces_between = [&](Square a, Square b) {
    int df = (file_of(b) > file_of(a)) - (file_of(b) < file_of(a));
    int dr = (rank_of(b) > rank_of(a)) - (rank_of(b) < rank_of(a));
    int n = 0;
    for (Square s = a + df + dr * kFiles; s != b; s += df + dr * kFiles) n += board_[s] != kEmpty;
    return n;
  };
  switch (type_of(p)) {
    case King:
      if (file_of(from) == file_of(target) && type_of(board_[target]) == King && pieces_between(from, target) == 0) return true;
      return in_palace(us, target) && std::abs(from - target) == (file_of(from) == file_of(target) ? kFiles : 1) &&
             aligned(from, target);
    case Advisor:
      return diagonal_neighbours(from, target) && (advisor_free(p) || in_palace(us, target));
    case Elephant:
      for (const StepWithBlock* e = g.elephant_moves[from]; e->to >= 0; ++e)
        if (e->to == target) return !board_[e->block] && (advisor_free(p) || !crossed_river(us, target));
      return false;
    case Horse:
      for (const StepWithBlock* h = g.horse_moves[from]; h->to >= 0; ++h)
        if (h->to == target) return !board_[h->block];
      return false;
    case Rook: return aligned(from, target) && pieces_between(from, target) == 0;
    case Cannon: return aligned(from, target) && pieces_between(from, target) == 1;
    case Pawn: {
      int forward = us == Color::Red ? kFiles : -kFiles;
      if (target == from + forward && file_of(target) == file_of(from)) return true;
      return crossed_river(us, from) && rank_of(from) == rank_of(target) && std::abs(from - target) == 1;
    }
    default: return false;
  }
}

void Position::attackers(Square target, Color by, std::vector<Square>& out) const {
  for (Square s = 0; s < kSquares; ++s)
    if (board_[s] && color_of(board_[s]) == by && attacks(s, target)) out.push_back(s);
}

}  // namespace xq
