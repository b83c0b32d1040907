// Cross-checks the fast move generator against a slow, independently written reference on many
// positions reached by random play (Xiangqi and Jieqi), so rule errors show up on positions no
// table lists.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/jieqi.h"

using namespace xq;

namespace {

struct Board {
  Piece sq[10][9] = {};  // [rank][file]
  Variant variant;
};

Board board_of(const Position& p) {
  Board b;
  b.variant = p.variant();
  for (int r = 0; r < 10; ++r)
    for (int f = 0; f < 9; ++f) b.sq[r][f] = p.at(make_square(f, r));
  return b;
}

bool palace(Color c, int f, int r) { return f >= 3 && f <= 5 && (c == Color::Red ? r <= 2 : r >= 7); }
bool own_half(Color c, int r) { return c == Color::Red ? r <= 4 : r >= 5; }

int count_between(const Board& b, int f1, int r1, int f2, int r2) {
  int n = 0;
  if (f1 == f2) {
    for (int r = std::min(r1, r2) + 1; r < std::max(r1, r2); ++r) n += b.sq[r][f1] != 0;
  } else {
    for (int f = std::min(f1, f2) + 1; f < std::max(f1, f2); ++f) n += b.sq[r1][f] != 0;
  }
  return n;
}

// Can the piece on (f1,r1) move to (f2,r2) by its movement rules (ignoring what stands there,
// except that a cannon's capture needs a target)?
bool can_reach(const Board& b, int f1, int r1, int f2, int r2) {
  Piece p = b.sq[r1][f1];
  Color c = color_of(p);
  int df = f2 - f1, dr = r2 - r1, adf = std::abs(df), adr = std::abs(dr);
  if (adf + adr == 0) return false;
  bool free_roamer = b.variant == Variant::Jieqi && !is_dark(p);
  switch (type_of(p)) {
    case King: return adf + adr == 1 && palace(c, f2, r2);
    case Advisor: return adf == 1 && adr == 1 && (free_roamer || palace(c, f2, r2));
    case Elephant:
      return adf == 2 && adr == 2 && b.sq[r1 + dr / 2][f1 + df / 2] == 0 && (free_roamer || own_half(c, r2));
    case Horse:
      if (adf == 1 && adr == 2) return b.sq[r1 + dr / 2][f1] == 0;
      if (adf == 2 && adr == 1) return b.sq[r1][f1 + df / 2] == 0;
      return false;
    case Rook: return (df == 0 || dr == 0) && count_between(b, f1, r1, f2, r2) == 0;
    case Cannon:
      if (df != 0 && dr != 0) return false;
      return count_between(b, f1, r1, f2, r2) == (b.sq[r2][f2] ? 1 : 0);
    case Pawn: {
      int forward = c == Color::Red ? 1 : -1;
      if (df == 0 && dr == forward) return true;
      return dr == 0 && adf == 1 && !own_half(c, r1);
    }
    default: return false;
  }
}

bool king_in_danger(const Board& b, Color c) {
  int kf = -1, kr = -1, of = -1, orr = -1;
  for (int r = 0; r < 10; ++r)
    for (int f = 0; f < 9; ++f)
      if (b.sq[r][f] && type_of(b.sq[r][f]) == King) {
        if (color_of(b.sq[r][f]) == c) kf = f, kr = r;
        else of = f, orr = r;
      }
  if (kf < 0) return true;
  if (of == kf && count_between(b, kf, kr, of, orr) == 0) return true;  // facing kings
  for (int r = 0; r < 10; ++r)
    for (int f = 0; f < 9; ++f) {
      Piece p = b.sq[r][f];
      if (p && color_of(p) != c && type_of(p) != King && can_reach(b, f, r, kf, kr)) return true;
    }
  return false;
}

std::set<std::string> reference_moves(const Position& pos) {
  Board b = board_of(pos);
  Color us = pos.side_to_move();
  std::set<std::string> out;
  for (int r1 = 0; r1 < 10; ++r1)
    for (int f1 = 0; f1 < 9; ++f1) {
      Piece p = b.sq[r1][f1];
      if (!p || color_of(p) != us) continue;
      for (int r2 = 0; r2 < 10; ++r2)
        for (int f2 = 0; f2 < 9; ++f2) {
          Piece t = b.sq[r2][f2];
          if (t && color_of(t) == us) continue;
          if (!can_reach(b, f1, r1, f2, r2)) continue;
          Board after = b;
          after.sq[r2][f2] = p;
          after.sq[r1][f1] = 0;
          if (king_in_danger(after, us)) continue;
          out.insert(square_name(make_square(f1, r1)) + square_name(make_square(f2, r2)));
        }
    }
  return out;
}

std::set<std::string> fast_moves(const Position& pos) {
  MoveList list;
  pos.generate_legal(list);
  std::set<std::string> out;
  for (const Move& m : list) out.insert(to_iccs(m));
  EXPECT_EQ(out.size(), static_cast<size_t>(list.size)) << "duplicate moves generated";
  return out;
}

void random_walks(Variant v, int games, uint64_t seed) {
  std::mt19937_64 rng(seed);
  int positions = 0;
  for (int g = 0; g < games; ++g) {
    Position start = v == Variant::Jieqi ? parse_fen(kJieqiStartFen, v) : parse_fen(kXiangqiStartFen, v);
    if (v == Variant::Jieqi) assign_from_pool(start, rng());
    GameRules rules = GameRules::defaults(v);
    rules.move_limit_plies = 0;
    RulesGame game(rules, start);
    for (int ply = 0; ply < 160 && !game.result().over(); ++ply) {
      const Position& pos = game.position();
      auto fast = fast_moves(pos);
      auto ref = reference_moves(pos);
      ASSERT_EQ(fast, ref) << "position " << to_fen(pos);
      EXPECT_EQ(pos.in_check(), king_in_danger(board_of(pos), pos.side_to_move())) << to_fen(pos);
      ++positions;
      auto legal = game.legal_moves();
      // Prefer captures now and then so that games reach sparse endgames.
      Move m = legal[rng() % legal.size()];
      for (int tries = 0; tries < 3 && !pos.at(m.to); ++tries) m = legal[rng() % legal.size()];
      ASSERT_EQ(game.play(m), RulesGame::MoveError::None);
    }
  }
  EXPECT_GT(positions, games * 20);
}

}  // namespace

TEST(MovegenReference, XiangqiRandomGames) { random_walks(Variant::Xiangqi, 200, 1); }
TEST(MovegenReference, JieqiRandomGames) { random_walks(Variant::Jieqi, 200, 2); }
