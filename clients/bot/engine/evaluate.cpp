#include "evaluate.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "rules/geometry.h"

namespace xq::engine {

namespace {

// Piece-square terms from Red's side: index by relative square (rank from the piece's own back
// rank). Built from a few rules of thumb rather than tuned numbers.
struct Tables {
  int pst[kPieceTypes][kSquares];
};

Tables build_tables() {
  Tables t{};
  for (Square s = 0; s < kSquares; ++s) {
    const int f = file_of(s), r = rank_of(s), d = std::abs(f - 4);
    // Soldier: nothing before the river; across it worth double, more near the palace, little on
    // the last rank (it can only move sideways there).
    {
      int v = 0;
      if (r == 4) v = 5;
      if (r >= 5) {
        static const int file_bonus[5] = {30, 25, 15, 5, 0};
        static const int rank_bonus[10] = {0, 0, 0, 0, 0, 0, 20, 30, 25, -50};
        v = 100 + file_bonus[d] + rank_bonus[r];
      }
      t.pst[Pawn][s] = v;
    }
    {
      static const int rank_bonus[10] = {-10, 0, 0, 5, 10, 10, 20, 15, 20, 5};
      static const int file_bonus[5] = {5, 10, 0, 5, -5};
      t.pst[Rook][s] = rank_bonus[r] + file_bonus[d];
    }
    {
      static const int rank_bonus[10] = {-20, -5, 0, 5, 10, 15, 25, 30, 20, 0};
      static const int file_bonus[5] = {20, 15, 10, 0, -15};
      t.pst[Horse][s] = rank_bonus[r] + file_bonus[d];
    }
    {
      static const int rank_bonus[10] = {5, 5, 5, 0, 0, 0, 0, 10, 5, 0};
      static const int file_bonus[5] = {20, 5, 0, 0, -5};
      t.pst[Cannon][s] = rank_bonus[r] + file_bonus[d];
    }
    // Advisors and elephants: the palace centre and the elephant's centre point (Jieqi roamers
    // get a small centrality term elsewhere).
    t.pst[Advisor][s] = (r == 1 && f == 4) ? 10 : (r <= 2 && d <= 1) ? 0 : 10 - 2 * d;
    t.pst[Elephant][s] = (r == 2 && f == 4) ? 10 : (r == 0 && d == 2) ? 5 : (r <= 4) ? 0 : 10 - 2 * d;
    t.pst[King][s] = -10 * d - 15 * r;
  }
  return t;
}

const Tables& tables() {
  static const Tables t = build_tables();
  return t;
}

inline Square relative(Color c, Square s) { return c == Color::Red ? s : make_square(file_of(s), 9 - rank_of(s)); }

}  // namespace

int pool_average(const Position& pos, Color c) {
  const auto& pool = pos.pool()[index(c)];
  int n = 0, sum = 0;
  for (int t = Advisor; t <= Pawn; ++t) {
    n += pool[t];
    sum += pool[t] * kJieqiValue[t];
  }
  return n ? sum / n : 0;
}

int piece_value(const Position& pos, Square s) {
  Piece p = pos.at(s);
  if (!p) return 0;
  if (is_dark(p)) return pool_average(pos, color_of(p));
  const int v = (pos.variant() == Variant::Jieqi ? kJieqiValue : kValue)[type_of(p)];
  if (type_of(p) == Pawn && crossed_river(color_of(p), s)) return 2 * v;
  return v;
}

int evaluate(const Position& pos) {
  const Tables& tb = tables();
  const Geometry& g = geometry();
  const bool jieqi = pos.variant() == Variant::Jieqi;
  const int* values = jieqi ? kJieqiValue : kValue;
  int score[2] = {0, 0};
  int count[2][kPieceTypes] = {};
  int crossed_pawns[2] = {0, 0};
  int dark = 0;  // face-down pieces (screens too)
  int dark_avg[2] = {0, 0};
  if (jieqi) dark_avg[0] = pool_average(pos, Color::Red), dark_avg[1] = pool_average(pos, Color::Black);

  for (Square s = 0; s < kSquares; ++s) {
    const Piece p = pos.at(s);
    if (!p) continue;
    const Color c = color_of(p);
    const int ci = index(c);
    if (is_dark(p)) {
      score[ci] += dark_avg[ci];
      ++dark;
      continue;
    }
    const PieceType t = type_of(p);
    ++count[ci][t];
    score[ci] += values[t] + tb.pst[t][relative(c, s)];
    if (t == Rook) {
      int mob = 0;
      for (int d = 0; d < 4; ++d)
        for (const int8_t* r = g.rays[s][d]; *r >= 0; ++r) {
          ++mob;
          if (pos.at(*r)) break;
        }
      score[ci] += 3 * mob;
    } else if (t == Horse) {
      // A horse with its legs blocked is a poor horse.
      for (const int8_t* o = g.orthogonal[s]; *o >= 0; ++o)
        if (pos.at(*o)) score[ci] -= 6;
    } else if (t == Pawn && crossed_river(c, s)) {
      ++crossed_pawns[ci];
    }
  }

  // Cannons need screens: worth more with many pieces on the board, horses more in the ending.
  {
    int big = dark * 2 / 3;  // about two in three face-down pieces are not pawns
    for (int c = 0; c < 2; ++c) big += count[c][Rook] + count[c][Horse] + count[c][Cannon] + count[c][Advisor] + count[c][Elephant];
    const int phase = std::min(big, 20);  // 20 = opening (10 a side), 0 = bare
    const int cannon_adj = (phase - 10) * 4, horse_adj = (10 - phase) * 3;
    for (int c = 0; c < 2; ++c) score[c] += count[c][Cannon] * cannon_adj + count[c][Horse] * horse_adj;
  }

  // King safety: an enemy cannon facing the king on an open file, and missing guards against
  // the enemy's attacking material.
  for (Color c : {Color::Red, Color::Black}) {
    const int ci = index(c), ei = index(opposite(c));
    const Square k = pos.king_square(c);
    if (k == kNoSquare) continue;
    const int dir = c == Color::Red ? 0 : 1;  // towards the enemy
    for (const int8_t* r = g.rays[k][dir]; *r >= 0; ++r) {
      const Piece q = pos.at(*r);
      if (!q) continue;
      if (!is_dark(q) && color_of(q) != c && type_of(q) == Cannon) score[ci] -= 60;
      break;
    }
    if (!jieqi) {
      const int attack = 2 * count[ei][Rook] + count[ei][Horse] + count[ei][Cannon] + crossed_pawns[ei] / 2;
      score[ci] -= attack * ((2 - count[ci][Advisor]) * 6 + (2 - count[ci][Elephant]) * 4);
    }
  }

  const int red = score[0] - score[1];
  return (pos.side_to_move() == Color::Red ? red : -red) + 10;  // + tempo
}

}  // namespace xq::engine
