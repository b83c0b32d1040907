// The engine on Jieqi: it is given only the side to move's view (face-down pieces as X/x and the
// pool of unseen identities) and must answer a move that is legal in the true position.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>

#include "engine/engine.h"
#include "engine_limits.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/jieqi.h"
#include "rules/view.h"

using namespace xq;

namespace {

bool is_legal_in(const Position& pos, const std::string& iccs) {
  MoveList list;
  pos.generate_legal(list);
  for (const Move& m : list)
    if (to_iccs(m) == iccs) return true;
  return false;
}

Viewer viewer_of(Color c) { return c == Color::Red ? Viewer::Red : Viewer::Black; }

// A Jieqi game whose hidden identities come from `seed`, with the move limit off.
RulesGame new_game(uint64_t seed) {
  Position start = parse_fen(kJieqiStartFen, Variant::Jieqi);
  assign_from_pool(start, seed);
  GameRules rules = GameRules::defaults(Variant::Jieqi);
  rules.move_limit_plies = 0;
  return RulesGame(rules, start);
}

}  // namespace

TEST(EngineJieqi, StartPositionGivesALegalMove) {
  RulesGame g = new_game(1);
  const std::string view = view_fen(g, Viewer::Red);
  ASSERT_EQ(view, kJieqiStartFen);
  engine::Choice c = engine::choose_move(Variant::Jieqi, view, {}, nodes(20000), 7);
  EXPECT_TRUE(is_legal_in(g.position(), c.move)) << c.move;
  EXPECT_EQ(c.move.size(), 4u);  // no reveal suffix
  EXPECT_GT(c.nodes, 0u);
}

TEST(EngineJieqi, RepeatableForASeed) {
  engine::Choice a = engine::choose_move(Variant::Jieqi, kJieqiStartFen, {}, nodes(20000), 99);
  engine::Choice b = engine::choose_move(Variant::Jieqi, kJieqiStartFen, {}, nodes(20000), 99);
  EXPECT_EQ(a.move, b.move);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.nodes, b.nodes);
}

// Two games with different hidden identities whose views are the same (the pieces whose
// identities differ never moved and were never taken) get the same answer: the engine reads the
// view only. Its answer is legal in both true positions.
TEST(EngineJieqi, SameViewSameChoiceWhateverTheTruth) {
  std::mt19937_64 rng(5);
  int compared = 0;
  for (int trial = 0; trial < 30 && compared < 8; ++trial) {
    const uint64_t seed = rng();
    RulesGame a = new_game(seed);
    std::vector<Move> played;
    const int plies = 4 + static_cast<int>(rng() % 30);
    for (int i = 0; i < plies && !a.result().over(); ++i) {
      auto legal = a.legal_moves();
      Move m = legal[rng() % legal.size()];
      ASSERT_EQ(a.play(m), RulesGame::MoveError::None);
      played.push_back(a.moves().back().move);
    }
    if (a.result().over()) continue;
    // Two face-down pieces of one colour still on the board with different identities: swap them.
    Position start_b = a.start();
    Square s1 = kNoSquare, s2 = kNoSquare;
    for (Square s = 0; s < kSquares && s2 == kNoSquare; ++s) {
      if (!is_dark(a.position().at(s))) continue;
      if (s1 == kNoSquare) s1 = s;
      else if (color_of(a.position().at(s)) == color_of(a.position().at(s1)) &&
               a.position().identity(s) != a.position().identity(s1))
        s2 = s;
    }
    if (s2 == kNoSquare) continue;
    PieceType t1 = start_b.identity(s1), t2 = start_b.identity(s2);
    start_b.set_identity(s1, t2);
    start_b.set_identity(s2, t1);
    RulesGame b(a.rules(), start_b);
    for (const Move& m : played) ASSERT_EQ(b.play(m), RulesGame::MoveError::None);
    const Viewer v = viewer_of(a.position().side_to_move());
    const std::string view_a = view_fen(a, v), view_b = view_fen(b, v);
    ASSERT_EQ(view_a, view_b);
    ASSERT_NE(a.position().identity(s1), b.position().identity(s1));
    engine::Choice ca = engine::choose_move(Variant::Jieqi, view_a, {}, nodes(8000), 11);
    engine::Choice cb = engine::choose_move(Variant::Jieqi, view_b, {}, nodes(8000), 11);
    EXPECT_EQ(ca.move, cb.move);
    EXPECT_EQ(ca.score, cb.score);
    EXPECT_TRUE(is_legal_in(a.position(), ca.move)) << view_a << " " << ca.move;
    EXPECT_TRUE(is_legal_in(b.position(), cb.move)) << view_b << " " << cb.move;
    ++compared;
  }
  EXPECT_GE(compared, 5);
}

// Random games from both sides' views (captured face-down pieces make pools larger than the
// face-down count for the side that did not capture them).
TEST(EngineJieqi, LegalMovesInRandomGames) {
  std::mt19937_64 rng(2027);
  int searched = 0;
  for (int game = 0; game < 150; ++game) {
    RulesGame g = new_game(rng());
    const int plies = static_cast<int>(rng() % 140);
    for (int i = 0; i < plies && !g.result().over(); ++i) {
      auto legal = g.legal_moves();
      ASSERT_FALSE(legal.empty());
      ASSERT_EQ(g.play(legal[rng() % legal.size()]), RulesGame::MoveError::None);
    }
    if (g.result().over()) continue;
    const std::string view = view_fen(g, viewer_of(g.position().side_to_move()));
    engine::Choice c = engine::choose_move(Variant::Jieqi, view, {}, nodes(3000), rng());
    ASSERT_TRUE(is_legal_in(g.position(), c.move)) << view << " -> " << c.move;
    std::string why;
    EXPECT_EQ(g.play(c.move, &why), RulesGame::MoveError::None) << why;
    ++searched;
  }
  EXPECT_GT(searched, 100);
}

// Engine against itself for a whole game on tiny budgets: every answer is legal in the true game.
TEST(EngineJieqi, SelfPlayStaysLegal) {
  RulesGame g = new_game(12345);
  std::vector<std::string> seen[2];
  for (int ply = 0; ply < 160 && !g.result().over(); ++ply) {
    const Color side = g.position().side_to_move();
    const std::string view = view_fen(g, viewer_of(side));
    engine::Choice c = engine::choose_move(Variant::Jieqi, view, seen[index(side)], nodes(1500), ply);
    ASSERT_TRUE(is_legal_in(g.position(), c.move)) << view << " -> " << c.move;
    seen[index(side)].push_back(view);
    ASSERT_EQ(g.play(c.move), RulesGame::MoveError::None);
  }
}

TEST(EngineJieqi, EdgePositions) {
  const char* fens[] = {
      "3k5/9/9/9/9/9/9/9/9/4K4 w - 0 1",               // kings only, empty pool
      "3k5/9/9/9/9/9/9/9/9/4K4 b - 0 1",
      "3k5/9/9/9/9/9/9/9/9/XXXXKXXXX w R2A2C2P5N2B2 0 1",  // Red's back rank face-down only
      "5k3/9/9/9/9/9/9/9/9/3XK4 w A1r2 0 1",           // pool holds captured unknowns
      "5k3/9/9/9/9/9/9/9/9/3AK4 w - 0 1",              // revealed advisor outside the Xiangqi rules
      "4k4/9/9/9/4B4/9/9/9/9/3K5 w - 0 1",
      "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX b R2A2C2P5N2B2r2a2c2p5n2b2 0 1",
  };
  for (const char* fen : fens) {
    Position p = parse_fen(fen, Variant::Jieqi);
    for (uint64_t n : {1, 500, 5000}) {
      engine::Choice c = engine::choose_move(Variant::Jieqi, fen, {}, nodes(n), 3);
      EXPECT_TRUE(is_legal_in(p, c.move)) << fen << " " << n << " -> " << c.move;
    }
  }
}

TEST(EngineJieqi, TakesAHangingChariot) {
  // Revealed chariots face each other on the e-file; Red to move takes.
  const std::string fen = "xxx1kxxxx/9/1x5x1/x1x3x1x/4r4/9/X1X3X1X/1X5X1/4R4/XXX1KXXXX w A2C2P5N2B2R1a2c2p5n2b2r1 0 1";
  Position p = parse_fen(fen, Variant::Jieqi);
  engine::Choice c = engine::choose_move(Variant::Jieqi, fen, {}, nodes(40000), 1);
  EXPECT_EQ(c.move, "e1e5");
}

TEST(EngineJieqi, FindsMateInOne) {
  // Black's king alone with its face-down back rank blocking it in; Red's revealed chariots mate.
  const std::string fen = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w - 0 1";
  Position p = parse_fen(fen, Variant::Jieqi);
  engine::Choice c = engine::choose_move(Variant::Jieqi, fen, {}, nodes(20000), 1);
  MoveList l;
  p.generate_legal(l);
  bool mates = false;
  for (const Move& m : l)
    if (to_iccs(m) == c.move) {
      p.make(m);
      mates = p.in_check() && !p.has_legal_move();
    }
  EXPECT_TRUE(mates) << c.move;
}

TEST(EngineJieqi, BadFenThrows) {
  EXPECT_THROW(engine::choose_move(Variant::Jieqi, "xxxxkxxxx/9 w", {}, nodes(10), 1), FenError);
  // More face-down pieces than the pool has identities for.
  EXPECT_THROW(engine::choose_move(Variant::Jieqi, "3k5/9/9/9/9/9/9/9/9/XXXXKXXXX w R1 0 1", {}, nodes(10), 1), FenError);
  // A face-down piece off its start squares.
  EXPECT_THROW(engine::choose_move(Variant::Jieqi, "3k5/9/9/9/9/4X4/9/9/9/4K4 w P1 0 1", {}, nodes(10), 1), FenError);
}

// A time limit stops the search in both variants (without one it would go on to depth 64). Not a
// speed figure (engine_bench has those): the bound is far above the 60 ms asked, for a busy machine.
TEST(EngineTime, ATimeLimitStopsTheSearch) {
  for (Variant v : {Variant::Xiangqi, Variant::Jieqi}) {
    engine::Limits l;
    l.movetime_ms = 60;
    const auto t0 = std::chrono::steady_clock::now();
    engine::Choice c = engine::choose_move(v, v == Variant::Jieqi ? kJieqiStartFen : kXiangqiStartFen, {}, l, 4);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(ms, 3000) << (v == Variant::Jieqi ? "jieqi" : "xiangqi");
    EXPECT_LT(c.depth, 64);
    EXPECT_GE(c.depth, 1);
    EXPECT_FALSE(c.move.empty());
  }
}

// A Jieqi view, every piece face up (no reveal can make a position new): Red, a chariot up, does
// not go back to a position it has seen when something else keeps the advantage. (With face-down
// pieces the engine prefers a reveal here, which no earlier position can repeat.)
TEST(EngineJieqi, AvoidsRepeatingWhenWinning) {
  const std::string fen = "3ak4/4a4/9/9/9/9/9/9/R8/4K4 w - 0 1";
  Position p = parse_fen(fen, Variant::Jieqi);
  engine::Choice first = engine::choose_move(Variant::Jieqi, fen, {}, nodes(20000), 1);
  ASSERT_TRUE(is_legal_in(p, first.move));
  ASSERT_GT(first.score, 300);
  Position after = p;
  bool played = false;
  MoveList list;
  p.generate_legal(list);
  for (const Move& m : list)
    if (to_iccs(m) == first.move) {
      after.make(m);
      played = true;
    }
  ASSERT_TRUE(played);
  engine::Choice second = engine::choose_move(Variant::Jieqi, fen, {to_fen(after)}, nodes(20000), 1);
  EXPECT_TRUE(is_legal_in(p, second.move));
  EXPECT_NE(second.move, first.move) << "returns to a position seen before";
  EXPECT_GT(second.score, 300);
}
