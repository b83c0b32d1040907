#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/game.h"

using namespace xq;

namespace {
RulesGame game_from(const std::string& fen, GameRules rules = GameRules::defaults(Variant::Xiangqi)) {
  return RulesGame(rules, parse_fen(fen, rules.variant));
}
}  // namespace

TEST(RulesGame, CheckmateEndsTheGame) {
  RulesGame g = game_from("3k5/R8/9/9/9/9/9/9/9/1R2K4 w");
  ASSERT_EQ(g.play("b0b9"), RulesGame::MoveError::None);
  EXPECT_EQ(g.result().outcome, Outcome::RedWins);
  EXPECT_EQ(g.result().reason, "checkmate");
  EXPECT_TRUE(g.moves().back().gives_check);
  EXPECT_EQ(g.play("d9d8"), RulesGame::MoveError::GameOver);
}

TEST(RulesGame, StalemateLoses) {
  RulesGame g = game_from("3k5/9/R8/9/9/9/9/9/9/1R2K4 w");
  ASSERT_EQ(g.play("a7a8"), RulesGame::MoveError::None);
  EXPECT_EQ(g.result().outcome, Outcome::RedWins);
  EXPECT_EQ(g.result().reason, "stalemate");
}

TEST(RulesGame, IllegalMovesAreRejected) {
  RulesGame g = game_from(kXiangqiStartFen);
  std::string why;
  EXPECT_EQ(g.play("h2h3x", &why), RulesGame::MoveError::BadFormat);
  EXPECT_EQ(g.play("z2e2", &why), RulesGame::MoveError::BadFormat);
  EXPECT_EQ(g.play("h9g7", &why), RulesGame::MoveError::Illegal);  // Black's piece, Red to move
  EXPECT_EQ(g.play("e3e5", &why), RulesGame::MoveError::Illegal);  // pawn two steps
  EXPECT_EQ(g.play("e4e5", &why), RulesGame::MoveError::Illegal);  // empty square
  EXPECT_NE(why.find("e4"), std::string::npos);
  EXPECT_TRUE(g.moves().empty());
  // Exposing the king: the e-file pawn may not leave if the kings would face each other.
  RulesGame h = game_from("4k4/9/9/9/9/4N4/9/9/9/4K4 w");  // the horse stands between the kings
  EXPECT_EQ(h.play("e4c5"), RulesGame::MoveError::Illegal);
  EXPECT_EQ(h.play("e0d0"), RulesGame::MoveError::None);
}

TEST(RulesGame, MoveLimitDraws) {
  GameRules rules = GameRules::defaults(Variant::Xiangqi);
  rules.move_limit_plies = 6;
  RulesGame g = game_from("r4k3/9/9/9/9/9/9/9/9/R2K5 w", rules);
  for (const char* m : {"a0a1", "a9a8", "a1a2", "a8a7", "a2a3"}) ASSERT_EQ(g.play(m), RulesGame::MoveError::None);
  EXPECT_FALSE(g.result().over());
  ASSERT_EQ(g.play("a7a6"), RulesGame::MoveError::None);
  EXPECT_EQ(g.result().outcome, Outcome::Draw);
  EXPECT_EQ(g.result().reason, "move_limit");
}

TEST(RulesGame, ExcessChecksAndTheirRepliesDoNotCount) {
  GameRules rules = GameRules::defaults(Variant::Xiangqi);
  rules.move_limit_plies = 4;
  rules.counted_checks_per_side = 0;  // every check is beyond the cap
  const std::vector<std::string> checks = {"a1a9", "e9e8", "a9a8", "e8e7", "a8a7", "e7e8"};
  RulesGame capped = game_from("4k4/9/9/9/9/9/9/9/R8/3K5 w", rules);
  for (auto& m : checks) ASSERT_EQ(capped.play(m), RulesGame::MoveError::None) << m;
  EXPECT_FALSE(capped.result().over());
  EXPECT_EQ(capped.plies_since_capture(), 0);
  rules.counted_checks_per_side = -1;
  RulesGame counted = game_from("4k4/9/9/9/9/9/9/9/R8/3K5 w", rules);
  for (size_t i = 0; i < 4; ++i) ASSERT_EQ(counted.play(checks[i]), RulesGame::MoveError::None);
  EXPECT_EQ(counted.result().reason, "move_limit");
}

TEST(RulesGame, DeadMaterialDraws) {
  RulesGame g = game_from("3k5/9/9/9/9/9/9/9/4r4/4KA3 w");
  ASSERT_EQ(g.play("e0e1"), RulesGame::MoveError::None);
  EXPECT_EQ(g.result().outcome, Outcome::Draw);
  EXPECT_EQ(g.result().reason, "dead_material");
}

TEST(RulesGame, JieqiDeadMaterialOnlyWithBareKings) {
  GameRules rules = GameRules::defaults(Variant::Jieqi);
  RulesGame g(rules, parse_fen("3k5/9/9/9/9/9/9/9/4r4/4KA3 w - 0 1", Variant::Jieqi));
  ASSERT_EQ(g.play("e0e1"), RulesGame::MoveError::None);
  EXPECT_FALSE(g.result().over()) << "a revealed advisor can still attack in Jieqi";
  EXPECT_TRUE(g.can_mate(Color::Red));
  EXPECT_FALSE(g.can_mate(Color::Black));
}

TEST(RulesGame, CanMateForTimeForfeits) {
  RulesGame g = game_from("5k3/9/9/9/9/9/9/9/4A4/3KN4 w");
  EXPECT_TRUE(g.can_mate(Color::Red));
  EXPECT_FALSE(g.can_mate(Color::Black));
}
