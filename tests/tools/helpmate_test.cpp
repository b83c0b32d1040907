// The helpmate search the browser tests rely on, on fixed Jieqi assignments.
#include <gtest/gtest.h>

#include "helpmate.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/jieqi.h"

using namespace xq;
using tools::find_helpmate;
using tools::HelpmateOptions;

namespace {

Position jieqi_start(const std::string& assignment) {
  Position p = parse_fen(kJieqiStartFen, Variant::Jieqi);
  apply_assignment(p, Assignment::from_string(assignment));
  return p;
}

std::string line_of(const std::vector<Move>& moves) {
  std::string out;
  for (const Move& m : moves) out += (out.empty() ? "" : " ") + to_iccs(Move{m.from, m.to, NoType});
  return out;
}

// Plays the line in a real game with every end-of-game rule; the result it ends with.
Result replay(const Position& start, const std::vector<Move>& moves) {
  RulesGame g(GameRules::defaults(Variant::Jieqi), start);
  for (const Move& m : moves) {
    std::string why;
    EXPECT_EQ(g.play(Move{m.from, m.to, NoType}, &why), RulesGame::MoveError::None) << to_iccs(m) << ": " << why;
  }
  return g.result();
}

// Red's g3 piece is a cannon, Black's d9 piece steps to the palace centre: the cannon takes g9 and
// mates along the back rank (f9 is the screen, e8 and d9 give no escape).
const char* const kRedMatesIn3 = "PNACNBPRPARPBCPrbpbnncraappcpp";
// Black's g6 piece is a cannon: after Red's advisor blocks e1 it takes g0 with check along rank 0.
const char* const kBlackMatesIn4 = "CBRRACPPBPPANNPappcbanprprbncp";

}  // namespace

TEST(Helpmate, FindsTheShortestRedMate) {
  Position start = jieqi_start(kRedMatesIn3);
  HelpmateOptions opt;
  opt.max_plies = 5;
  auto r = find_helpmate(start, opt);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(line_of(r.moves), "g3g4 d9e8 g4g9");
  EXPECT_EQ(r.moves[0].reveal, Cannon);  // the reveal comes from the assignment
  EXPECT_EQ(r.searched_plies, 2);
  Result res = replay(start, r.moves);
  EXPECT_EQ(res.outcome, Outcome::RedWins);
  EXPECT_EQ(res.reason, "checkmate");
}

TEST(Helpmate, NoShorterLineExists) {
  HelpmateOptions opt;
  opt.max_plies = 2;
  auto r = find_helpmate(jieqi_start(kRedMatesIn3), opt);
  EXPECT_FALSE(r.found);
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.searched_plies, 2);
}

TEST(Helpmate, BlackMayDeliverTheMate) {
  Position start = jieqi_start(kBlackMatesIn4);
  HelpmateOptions opt;
  opt.max_plies = 5;
  auto r = find_helpmate(start, opt);
  ASSERT_TRUE(r.found);
  ASSERT_EQ(r.moves.size(), 4u);
  Result res = replay(start, r.moves);
  EXPECT_EQ(res.outcome, Outcome::BlackWins);
  EXPECT_EQ(res.reason, "checkmate");

  // Asked for a Red mate only, the search skips the even lengths and finds nothing up to 4 plies.
  opt.max_plies = 4;
  opt.mater = index(Color::Red);
  auto red_only = find_helpmate(start, opt);
  EXPECT_FALSE(red_only.found);
  EXPECT_TRUE(red_only.exhausted);
}

TEST(Helpmate, StopsAtTheNodeBudget) {
  HelpmateOptions opt;
  opt.max_plies = 9;
  opt.max_nodes = 1000;
  auto r = find_helpmate(jieqi_start(kBlackMatesIn4), opt);
  EXPECT_FALSE(r.found);
  EXPECT_FALSE(r.exhausted);
  EXPECT_LE(r.nodes, 1001u);
}

TEST(Helpmate, XiangqiDoubleCannonFinish) {
  // After h2e2 i9i8 e2e6 i8i9 (the browser test's Xiangqi mate) Red mates in two: b2b5 i9i8 b5e5.
  Position p = parse_fen(kXiangqiStartFen, Variant::Xiangqi);
  RulesGame g(GameRules::defaults(Variant::Xiangqi), p);
  for (const char* m : {"h2e2", "i9i8", "e2e6", "i8i9"}) ASSERT_EQ(g.play(m), RulesGame::MoveError::None);
  HelpmateOptions opt;
  opt.max_plies = 3;
  auto r = find_helpmate(g.position(), opt);
  ASSERT_TRUE(r.found);
  EXPECT_EQ(r.moves.size(), 3u);
  for (const Move& m : r.moves) ASSERT_EQ(g.play(m), RulesGame::MoveError::None);
  EXPECT_EQ(g.result().reason, "checkmate");
}
