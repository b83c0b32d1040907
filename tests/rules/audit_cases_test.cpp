// The rules audit's cases (data/audit_cases.txt): positions and games built from the rule books'
// text, each with the verdict the spec sentence that decides it demands. Played through the
// library the way `xq judge`, `xq fen` and `xq legal` play them.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "rules/adjudication.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/notation.h"

using namespace xq;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, sep)) out.push_back(item);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

}  // namespace

TEST(AuditCases, EveryVerdictIsTheOneTheRulesDemand) {
  std::ifstream in(XQ_RULES_DATA_DIR "/audit_cases.txt");
  ASSERT_TRUE(in.good()) << "missing " << XQ_RULES_DATA_DIR "/audit_cases.txt";
  std::map<std::string, int> kinds;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split(line, '|');
    ASSERT_EQ(f.size(), 5u) << line;
    const Variant variant = f[0] == "jieqi" ? Variant::Jieqi : Variant::Xiangqi;
    GameRules rules = GameRules::defaults(variant);
    if (f[1] != "-") {
      const auto rs = parse_ruleset(f[1]);
      ASSERT_TRUE(rs) << line;
      rules.ruleset = *rs;
    }
    RulesGame game(rules, parse_fen(f[2], variant));
    const std::string& expected = f[4];
    std::vector<std::string> moves;
    std::istringstream ms(f[3]);
    for (std::string m; ms >> m;) moves.push_back(m);
    bool refused = false;
    for (size_t i = 0; i < moves.size() && !game.result().over(); ++i) {
      std::string why;
      if (game.play(moves[i], &why) != RulesGame::MoveError::None) {
        refused = true;
        EXPECT_EQ(expected, "illegal") << line << "\n  move " << moves[i] << " refused: " << why;
        EXPECT_EQ(i + 1, moves.size()) << "only the last move may be the refused one: " << line;
        break;
      }
    }
    if (expected == "illegal") {
      ++kinds["illegal"];
      EXPECT_TRUE(refused) << "the last move was played: " << line;
    } else if (expected.rfind("legal=", 0) == 0) {
      ++kinds["legal"];
      std::vector<std::string> want = split(expected.substr(6), ','), got;
      MoveList list;
      Position pos = game.position();
      pos.generate_legal(list);
      for (const Move& m : list) got.push_back(to_iccs(m));
      std::sort(want.begin(), want.end());
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, want) << line;
    } else {
      ++kinds["judge"];
      const Result& r = game.result();
      const std::string verdict = r.over() ? outcome_name(r.outcome) + " " + r.reason : "ongoing";
      const bool reason_given = expected.find(' ') != std::string::npos || expected == "ongoing";
      EXPECT_EQ(reason_given ? verdict : verdict.substr(0, verdict.find(' ')), expected) << line;
    }
  }
  EXPECT_EQ(kinds["judge"] + kinds["legal"] + kinds["illegal"], 1540);  // every line read
  EXPECT_GT(kinds["legal"], 20);
  EXPECT_GT(kinds["illegal"], 4);
}
