#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/notation.h"

using namespace xq;

namespace {
std::vector<std::pair<std::string, std::string>> notate(const std::string& fen, const std::vector<std::string>& moves) {
  RulesGame g(GameRules::defaults(Variant::Xiangqi), parse_fen(fen, Variant::Xiangqi));
  for (auto& m : moves) EXPECT_EQ(g.play(m), RulesGame::MoveError::None) << m;
  EXPECT_EQ(g.moves().size(), moves.size());
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
  auto r = notate("4k4/9/9/9/9/9/9/9/4A4/3K4R w", {"e1f0"});  // the rook: not dead material
  EXPECT_EQ(r[0], (std::pair<std::string, std::string>{"A5-4", "仕五退四"}));
}

// Tandem soldiers on two files (§8.2): the origin file is written too, in place of the piece
// letter or name, so the two front soldiers' moves read differently.
TEST(Notation, TandemSoldiersOnTwoFilesNameTheirFile) {
  const char* fen = "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w";
  auto c = notate(fen, {"c6c7"}), g = notate(fen, {"g6g7"}), rear = notate(fen, {"c5d5"});
  EXPECT_EQ(c[0], (std::pair<std::string, std::string>{"17+1", "前七进一"}));
  EXPECT_EQ(g[0], (std::pair<std::string, std::string>{"13+1", "前三进一"}));
  EXPECT_EQ(rear[0], (std::pair<std::string, std::string>{"27=6", "后七平六"}));
  // One tandem file only: front/rear as before.
  auto one = notate("3k5/9/9/2P6/2P3P2/9/9/9/9/4K4 w", {"c6c7"});
  EXPECT_EQ(one[0], (std::pair<std::string, std::string>{"P++1", "前兵进一"}));
}

// A Jieqi move that reveals a face-down piece says what it turned out to be (jieqi-rules.md §9.2),
// in both notations; the piece is named by its start square's type before that.
TEST(Notation, JieqiRevealsSayWhatThePieceTurnedOutToBe) {
  RulesGame g(GameRules::defaults(Variant::Jieqi), parse_fen(kJieqiStartFen, Variant::Jieqi));
  for (const char* m : {"a3a4R", "a6a5p", "a4a5"}) ASSERT_EQ(g.play(m), RulesGame::MoveError::None) << m;
  ASSERT_EQ(g.moves().size(), 3u);
  EXPECT_EQ(g.moves()[0].chinese, "兵九进一(翻车)");
  EXPECT_EQ(g.moves()[0].wxf, "P9+1=r");
  EXPECT_EQ(g.moves()[1].chinese, "卒１进１(翻卒)");
  EXPECT_EQ(g.moves()[1].wxf, "P1+1=p");
  // Revealed, it is named by what it is, with no suffix; the face-down a0 piece (a chariot by its
  // square) stands behind it on the file.
  EXPECT_EQ(g.moves()[2].chinese, "前车进一");
  EXPECT_EQ(g.moves()[2].wxf, "R++1");
}

// Jieqi: a file may hold six 兵 — five revealed soldiers and the face-down piece on the file's
// soldier square (it moves as a soldier): the sixth from the front is 六兵, not a second 五兵.
TEST(Notation, SixJieqiSoldiersOnAFileAreNumberedOneToSix) {
  RulesGame g(GameRules::defaults(Variant::Jieqi), parse_fen("3k5/P8/P8/P8/P8/9/X8/9/9/P3K4 w R1 0 1", Variant::Jieqi));
  ASSERT_EQ(g.play("a0a1"), RulesGame::MoveError::None);
  EXPECT_EQ(g.moves()[0].chinese, "六兵进一");
  EXPECT_EQ(g.moves()[0].wxf, "Pf+1");
  RulesGame h(GameRules::defaults(Variant::Jieqi), parse_fen("3k5/P8/P8/P8/P8/9/X8/9/9/P3K4 w R1 0 1", Variant::Jieqi));
  ASSERT_EQ(h.play("a3a4R"), RulesGame::MoveError::None);
  EXPECT_EQ(h.moves()[0].chinese, "五兵进一(翻车)");
}
