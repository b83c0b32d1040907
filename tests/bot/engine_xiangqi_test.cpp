// The engine on Xiangqi positions: mates, material, check, no move, repetition, random positions.
// Node limits (not time) keep every answer repeatable.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>

#include "engine/engine.h"
#include "engine_limits.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/position.h"

using namespace xq;

namespace {

engine::Choice choose(const std::string& fen, uint64_t n = 200000, const std::vector<std::string>& earlier = {}) {
  return engine::choose_move(Variant::Xiangqi, fen, earlier, nodes(n), 1);
}

// The legal move of `pos` written `iccs`, or false.
bool find_legal(const Position& pos, const std::string& iccs, Move& out) {
  MoveList list;
  pos.generate_legal(list);
  for (const Move& m : list)
    if (to_iccs(m) == iccs) {
      out = m;
      return true;
    }
  return false;
}

bool is_mated(Position& p) { return p.in_check() && !p.has_legal_move(); }

bool mates_in_one(Position& p, Move m) {
  Undo u = p.make(m);
  bool ok = is_mated(p);
  p.unmake(m, u);
  return ok;
}

bool has_mate_in_one(Position& p) {
  MoveList l;
  p.generate_legal(l);
  for (const Move& m : l)
    if (mates_in_one(p, m)) return true;
  return false;
}

// Does m force mate with the mover's next move (every reply allows a mate in one)?
bool forces_mate_in_two(Position& p, Move m) {
  Undo u = p.make(m);
  MoveList replies;
  p.generate_legal(replies);
  bool all = replies.size > 0;
  for (const Move& q : replies) {
    Undo v = p.make(q);
    const bool ok = has_mate_in_one(p);
    p.unmake(q, v);
    if (!ok) {
      all = false;
      break;
    }
  }
  p.unmake(m, u);
  return all;
}

}  // namespace

TEST(EngineXiangqi, FindsMateInOne) {
  // Black's king on e9 alone: b7b9 closes rank 9 while a8 holds rank 8.
  const std::string fen = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1";
  Position p = parse_fen(fen, Variant::Xiangqi);
  engine::Choice c = choose(fen);
  Move m;
  ASSERT_TRUE(find_legal(p, c.move, m)) << c.move;
  EXPECT_TRUE(mates_in_one(p, m)) << c.move;
  EXPECT_GT(c.score, 29000);
}

TEST(EngineXiangqi, FindsMateInOneForBlack) {
  // The same picture turned round: Black to move mates with b2b0.
  const std::string fen = "3k5/9/9/9/9/9/9/1r7/r8/4K4 b - - 0 1";
  Position p = parse_fen(fen, Variant::Xiangqi);
  engine::Choice c = choose(fen);
  Move m;
  ASSERT_TRUE(find_legal(p, c.move, m)) << c.move;
  EXPECT_TRUE(mates_in_one(p, m)) << c.move;
}

TEST(EngineXiangqi, FindsMateInTwo) {
  // Found by an exhaustive search (no mate in one; mate in two): the only first move of
  // "4ka3/…" is f2e2; "3ak4/…" has two.
  for (const std::string fen : {"4ka3/9/5a3/9/9/9/R8/5R3/3K5/9 w - - 0 1", "3ak4/9/9/R8/6R2/9/9/9/9/5K3 w - - 0 1"}) {
    Position p = parse_fen(fen, Variant::Xiangqi);
    ASSERT_FALSE(has_mate_in_one(p)) << fen;
    engine::Choice c = choose(fen);
    Move m;
    ASSERT_TRUE(find_legal(p, c.move, m)) << fen << " " << c.move;
    EXPECT_TRUE(forces_mate_in_two(p, m)) << fen << " " << c.move;
    EXPECT_GT(c.score, 29000) << fen;
  }
}

TEST(EngineXiangqi, TakesAHangingChariot) {
  // Black's chariot on e4 is undefended and Red's on e1 takes it; Black's on a9 is out of reach.
  const std::string fen = "r2akab2/9/9/9/9/4r4/9/9/4R4/3K5 w - - 0 1";
  engine::Choice c = choose(fen);
  EXPECT_EQ(c.move, "e1e4");
}

TEST(EngineXiangqi, BlackTakesAHangingHorse) {
  // Black's cannon on e7 takes the horse on e1 over the pawn on e3; nothing defends e1.
  engine::Choice c = choose("4kab2/9/4c4/9/9/9/4P4/9/4N4/3K5 b - - 0 1");
  EXPECT_EQ(c.move, "e7e1");
}

TEST(EngineXiangqi, EscapesCheck) {
  // Red's king on e0 is checked by the chariot on e8: stepping to d0 or taking it with a8e8
  // (which wins it) answer the check.
  const std::string fen = "5k3/R3r4/9/9/9/9/9/9/9/4K4 w - - 0 1";
  Position p = parse_fen(fen, Variant::Xiangqi);
  ASSERT_TRUE(p.in_check());
  engine::Choice c = choose(fen);
  Move m;
  ASSERT_TRUE(find_legal(p, c.move, m)) << c.move;
  p.make(m);
  EXPECT_FALSE(p.in_check(Color::Red));
  EXPECT_EQ(c.move, "a8e8");
}

TEST(EngineXiangqi, NoLegalMoveGivesAnEmptyMove) {
  // Checkmated: chariots on a0 and a1.
  engine::Choice mated = choose("5k3/9/9/9/9/9/9/9/r8/r2K5 w - - 0 1");
  EXPECT_EQ(mated.move, "");
  EXPECT_LT(mated.score, -29000);
  // Stalemated (also a loss): e1 is held by the chariot on a1, f0 by the one on f5, d0 would face
  // Black's king; Red is not in check.
  const std::string stalemate = "3k5/9/9/9/5r3/9/9/9/r8/4K4 w - - 0 1";
  Position p = parse_fen(stalemate, Variant::Xiangqi);
  ASSERT_FALSE(p.in_check());
  ASSERT_FALSE(p.has_legal_move());
  engine::Choice c = choose(stalemate);
  EXPECT_EQ(c.move, "");
  EXPECT_LT(c.score, -29000);
}

TEST(EngineXiangqi, BadFenThrows) {
  EXPECT_THROW(choose("not a fen"), FenError);
  EXPECT_THROW(choose("4k4/9/9/9/9/9/9/9/9/9 w - - 0 1"), FenError);  // no red king
  EXPECT_THROW(choose(kXiangqiStartFen, 1000, {"garbage"}), FenError);
  // X pieces are Jieqi's.
  EXPECT_THROW(choose(kJieqiStartFen), FenError);
}

TEST(EngineXiangqi, TinyLimitsStillGiveALegalMove) {
  Position p = parse_fen(kXiangqiStartFen, Variant::Xiangqi);
  for (uint64_t n : {1, 2, 10, 100}) {
    engine::Choice c = choose(kXiangqiStartFen, n);
    Move m;
    EXPECT_TRUE(find_legal(p, c.move, m)) << n << " " << c.move;
  }
  engine::Limits depth_one;
  depth_one.max_depth = 1;
  engine::Choice c = engine::choose_move(Variant::Xiangqi, kXiangqiStartFen, {}, depth_one, 1);
  Move m;
  EXPECT_TRUE(find_legal(p, c.move, m)) << c.move;
  EXPECT_EQ(c.depth, 1);
  engine::Limits one_ms;
  one_ms.movetime_ms = 1;
  c = engine::choose_move(Variant::Xiangqi, kXiangqiStartFen, {}, one_ms, 1);
  EXPECT_TRUE(find_legal(p, c.move, m)) << c.move;
}

TEST(EngineXiangqi, RepeatableWithANodeLimit) {
  engine::Choice a = choose(kXiangqiStartFen, 30000), b = choose(kXiangqiStartFen, 30000);
  EXPECT_EQ(a.move, b.move);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_GE(a.depth, 4);
}

TEST(EngineXiangqi, KingsOnly) {
  const std::string fen = "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
  Position p = parse_fen(fen, Variant::Xiangqi);
  engine::Choice c = choose(fen, 20000);
  Move m;
  EXPECT_TRUE(find_legal(p, c.move, m)) << c.move;
}

TEST(EngineXiangqi, AvoidsRepeatingWhenWinning) {
  // Red is a chariot and a horse up. Whatever Red would play here, make the position it leads
  // to an earlier position of the game: the engine must then pick another move, and still see
  // itself winning.
  const std::string fen = "3k5/9/9/9/9/9/9/2N6/9/R3K4 w - - 0 1";
  Position p = parse_fen(fen, Variant::Xiangqi);
  engine::Choice first = choose(fen, 50000);
  Move m;
  ASSERT_TRUE(find_legal(p, first.move, m));
  ASSERT_GT(first.score, 500);
  std::vector<std::string> earlier;
  // The game went: (position after first.move) … back to this position.
  Position after = p;
  after.make(m);
  earlier.push_back(to_fen(after));
  engine::Choice second = choose(fen, 50000, earlier);
  ASSERT_TRUE(find_legal(p, second.move, m));
  EXPECT_NE(second.move, first.move);
  EXPECT_GT(second.score, 500);
  // Also with every position one move away made earlier but one: it goes there.
  MoveList list;
  p.generate_legal(list);
  std::vector<std::string> all_but_one;
  std::string kept;
  for (const Move& q : list) {
    Position x = p;
    x.make(q);
    if (kept.empty() && to_iccs(q) != first.move && to_iccs(q) != second.move) {
      kept = to_iccs(q);
      continue;
    }
    all_but_one.push_back(to_fen(x));
  }
  engine::Choice third = choose(fen, 50000, all_but_one);
  EXPECT_EQ(third.move, kept);
}

TEST(EngineXiangqi, LegalMovesInRandomPositions) {
  std::mt19937_64 rng(2026);
  int searched = 0;
  for (int game = 0; game < 200; ++game) {
    Position p = parse_fen(kXiangqiStartFen, Variant::Xiangqi);
    const int plies = 1 + static_cast<int>(rng() % 120);
    bool ok = true;
    for (int i = 0; i < plies && ok; ++i) {
      MoveList l;
      p.generate_legal(l);
      if (l.size == 0) ok = false;
      else p.make(l.moves[rng() % l.size]);
    }
    const std::string fen = to_fen(p);
    MoveList l;
    p.generate_legal(l);
    engine::Choice c = choose(fen, 3000);
    if (l.size == 0) {
      EXPECT_EQ(c.move, "") << fen;
      continue;
    }
    Move m;
    EXPECT_TRUE(find_legal(p, c.move, m)) << fen << " -> " << c.move;
    ++searched;
  }
  EXPECT_GT(searched, 150);
}

TEST(EngineXiangqi, SensibleOpening) {
  // From the start a short search plays a developing move, not a rook-pawn push or a lost piece.
  engine::Choice c = choose(kXiangqiStartFen, 100000);
  EXPECT_LT(std::abs(c.score), 100) << c.move;
  EXPECT_NE(c.move, "a3a4");
  EXPECT_NE(c.move, "i3i4");
}

TEST(EngineXiangqi, DoesNotRepeatAPerpetualCheck) {
  // Red, worse off (chariot and two advisors against chariot, horse and cannon), has been checking: a8a9+ e9e8 a9a8+ e8e9, and stands again where it
  // began. Checking once more repeats the cycle of checks, which loses by the rules: the engine
  // must play something else, though a repetition would otherwise be its best result.
  const std::string p0 = "4k4/R8/9/6cnr/9/9/9/9/4A4/3K1A3 w - - 0 1";
  const std::string p1 = "R3k4/9/9/6cnr/9/9/9/9/4A4/3K1A3 b - - 1 1";
  const std::string p2 = "R8/4k4/9/6cnr/9/9/9/9/4A4/3K1A3 w - - 2 2";
  const std::string p3 = "9/R3k4/9/6cnr/9/9/9/9/4A4/3K1A3 b - - 3 2";
  for (const std::string& f : {p1, p3}) ASSERT_TRUE(parse_fen(f, Variant::Xiangqi).in_check()) << f;
  const std::vector<std::string> cycle = {p0, p1, p2, p3};
  engine::Choice c = choose(p0, 50000, cycle);
  EXPECT_NE(c.move, "a8a9");
  EXPECT_GT(c.score, -5000);
  // Without it (and with a history that is not every ply: checks cannot be counted, a
  // repetition simply scores 0) the checking draw is welcome to the side that is worse.
  EXPECT_EQ(choose(p0, 50000).move, "a8a9");
  engine::Choice partial = choose(p0, 50000, {p1, p3});
  EXPECT_EQ(partial.move, "a8a9");
  EXPECT_EQ(partial.score, 0);
}

// From an engine-against-engine game at 1 s a move: Black's chariot chased Red's cannon round
// b5/c5/f5 and lost by perpetual chase when Red's c6f6 repeated the position a third time. Given
// the game's positions, the engine (Black) no longer plays f5c5, nor any move after which some
// reply makes the rules' judgement go against it.
TEST(EngineXiangqi, DoesNotLoseByPerpetualChase) {
  const std::string moves =
      "h2e2 b7e7 e2e6 d9e8 b2c2 h9g7 e6e5 i9h9 c2c6 h7i7 b0c2 i6i5 h0g2 h9h5 e5e4 h5c5 c6f6 i5i4 c2e1 c5f5 "
      "f6d6 f5d5 d6b6 d5b5 b6c6 b5c5 c6f6 c5f5 f6c6";
  RulesGame g(GameRules::defaults(Variant::Xiangqi), parse_fen(kXiangqiStartFen, Variant::Xiangqi));
  std::vector<std::string> earlier;
  std::istringstream in(moves);
  for (std::string m; in >> m;) {
    earlier.push_back(to_fen(g.position()));
    ASSERT_EQ(g.play(m), RulesGame::MoveError::None) << m;
  }
  ASSERT_FALSE(g.result().over());
  {  // the move played in that game does lose so
    RulesGame lost = g;
    ASSERT_EQ(lost.play("f5c5"), RulesGame::MoveError::None);
    ASSERT_EQ(lost.play("c6f6"), RulesGame::MoveError::None);
    ASSERT_EQ(lost.result().outcome, Outcome::RedWins);
  }
  engine::Choice c = choose(to_fen(g.position()), 100000, earlier);
  EXPECT_NE(c.move, "f5c5");
  RulesGame after = g;
  ASSERT_EQ(after.play(c.move), RulesGame::MoveError::None) << c.move;
  for (const Move& r : after.legal_moves()) {
    RulesGame reply = after;
    reply.play(r);
    EXPECT_NE(reply.result().outcome, Outcome::RedWins) << c.move << " " << to_iccs(r) << " " << reply.result().reason;
  }
}
