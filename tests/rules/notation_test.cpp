#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/notation.h"

using namespace xq;

namespace {
std::vector<std::pair<std::string, std::string>> notate(const std::string& fen, const std::vector<std::string>& moves) {
  RulesGame g(GameRules::defaults(Variant::Xiangqi), parse_fen(fen, Variant::Xiangqi));
  for (auto& m : moves) EXPECT_EQ(g.play(m), RulesGame::MoveError::None) << m;
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& pm : g.moves()) out.emplace_back(pm.wxf, pm.chinese);
  return out;
}
}  // namespace

TEST(Notation, OpeningMovesInWxfAndChinese) {
  auto n = notate(kXiangqiStartFen, {"h2e2", "h9g7", "h0g2", "c9e7", "a0a2", "i9h9"});
  std::vector<std::pair<std::string, std::string>> expected = {
      {"C2=5", "炮二平五"}, {"H8+7", "马８进７"}, {"H2+3", "马二进三"},
      {"E3+5", "象３进５"}, {"R9+2", "车九进二"}, {"R9=8", "车９平８"}};
  EXPECT_EQ(n, expected);
}

TEST(Notation, RetreatsAndTandemPieces) {
  // Two red rooks on file a (Red's file 9): front/back.
  auto n = notate("4k4/9/9/9/9/R8/9/9/9/R2K5 w", {"a4a5", "e9e8", "a0a1"});
  EXPECT_EQ(n[0], (std::pair<std::string, std::string>{"R++1", "前车进一"}));
  EXPECT_EQ(n[1], (std::pair<std::string, std::string>{"K5+1", "将５进１"}));
  EXPECT_EQ(n[2], (std::pair<std::string, std::string>{"R-+1", "后车进一"}));
  auto r = notate("4k4/9/9/9/9/9/9/9/4A4/3K5 w", {"e1f0"});
  EXPECT_EQ(r[0], (std::pair<std::string, std::string>{"A5-4", "仕五退四"}));
}
