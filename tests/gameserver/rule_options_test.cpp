// A game's rule options: what is accepted, what the JSON keeps, and what the rules then do.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "game/game_session.h"
#include "game/rule_options.h"
#include "rules/fen.h"

using namespace gs;

TEST(RuleOptions, ValuesOutsideTheirRangesAreRefusedWithAReason) {
  EXPECT_EQ(rule_options_error({}, xq::Variant::Xiangqi), "");
  RuleOptions o;
  o.repetitions = 1;
  EXPECT_NE(rule_options_error(o, xq::Variant::Xiangqi).find("repetitions"), std::string::npos);
  o = {};
  o.pawns_advisors_elephants_free = true;
  EXPECT_NE(rule_options_error(o, xq::Variant::Xiangqi).find("Jieqi"), std::string::npos);
  EXPECT_EQ(rule_options_error(o, xq::Variant::Jieqi), "");
  o = {};
  o.move_limit_plies = 19;
  EXPECT_NE(rule_options_error(o, xq::Variant::Jieqi).find("move_limit_plies"), std::string::npos);
  o.move_limit_plies = 80;
  EXPECT_EQ(rule_options_error(o, xq::Variant::Jieqi), "");
  o.counted_checks_per_side = -2;
  EXPECT_NE(rule_options_error(o, xq::Variant::Jieqi).find("counted_checks_per_side"), std::string::npos);
}

TEST(RuleOptions, JsonKeepsOnlyWhatDiffersAndReadsItBack) {
  boost::json::object empty;
  write_rule_options({}, empty);
  EXPECT_TRUE(empty.empty()) << "defaults add nothing to old records";
  RuleOptions o{5, true, 80, 0};
  boost::json::object j;
  write_rule_options(o, j);
  EXPECT_EQ(read_rule_options(j), o);
  EXPECT_EQ(j.at("counted_checks_per_side").to_number<int>(), 0) << "0 (no check counts) is not the default";
  GameConfig cfg;
  cfg.options = o;
  cfg.variant = xq::Variant::Jieqi;
  xq::GameRules rules = GameConfig(cfg).rules();
  EXPECT_EQ(rules.repetition_occurrences, 5);
  EXPECT_TRUE(rules.adjudication.pawns_advisors_elephants_free);
  EXPECT_EQ(rules.move_limit_plies, 80);
  EXPECT_EQ(rules.counted_checks_per_side, 0);
}

TEST(RuleOptions, ChecksThatDoNotCountKeepTheMoveLimitAway) {
  // "40 回合自然限着（将军着数不计）": with no check counted, a chariot checking back and forth
  // never reaches a 20-ply limit; with the checks counted it does.
  for (bool checks_count : {true, false}) {
    GameConfig cfg;
    cfg.options.move_limit_plies = 20;
    cfg.options.repetitions = 12;  // keep repetition out of the way
    if (!checks_count) cfg.options.counted_checks_per_side = 0;
    xq::RulesGame g(cfg.rules(), xq::parse_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w", xq::Variant::Xiangqi));
    ASSERT_EQ(g.play("a1a9"), xq::RulesGame::MoveError::None);
    const char* loop[] = {"e9e8", "a9a8", "e8e9", "a8a9"};  // every red move checks
    int plies = 1;
    while (!g.result().over() && plies < 40) ASSERT_EQ(g.play(loop[(plies++ - 1) % 4]), xq::RulesGame::MoveError::None);
    if (checks_count) {
      EXPECT_EQ(g.result().reason, "move_limit");
      EXPECT_EQ(plies, 20);
    } else {
      EXPECT_FALSE(g.result().over()) << g.result().reason;
    }
  }
}

TEST(RuleOptions, MoveLimitOnRequestIsCheckedKeptAndApplied) {
  RuleOptions o;
  o.requested_move_limit_plies = 19;
  EXPECT_NE(rule_options_error(o, xq::Variant::Xiangqi).find("requested_move_limit_plies"), std::string::npos);
  o.requested_move_limit_plies = 601;
  EXPECT_NE(rule_options_error(o, xq::Variant::Jieqi).find("requested_move_limit_plies"), std::string::npos);
  o.requested_move_limit_plies = 80;  // "40回合限着"
  EXPECT_EQ(rule_options_error(o, xq::Variant::Jieqi), "");
  boost::json::object j;
  write_rule_options(o, j);
  EXPECT_EQ(j.at("requested_move_limit_plies").to_number<int>(), 80);
  EXPECT_EQ(read_rule_options(j), o);
  GameConfig cfg;
  cfg.options = o;
  EXPECT_EQ(cfg.rules().requested_limit_plies, 80);
  EXPECT_EQ(GameConfig{}.rules().requested_limit_plies, 0) << "off unless a game asks for it";

  // Seed 001: the requester's kills and chases count 20 times at most.
  o.requested_move_limit_forcing_cap = -1;
  EXPECT_NE(rule_options_error(o, xq::Variant::Xiangqi).find("requested_move_limit_forcing_cap"), std::string::npos);
  o.requested_move_limit_forcing_cap = 81;  // more than the limit's plies
  EXPECT_NE(rule_options_error(o, xq::Variant::Xiangqi).find("requested_move_limit_forcing_cap"), std::string::npos);
  o.requested_move_limit_forcing_cap = 20;
  EXPECT_EQ(rule_options_error(o, xq::Variant::Xiangqi), "");
  boost::json::object capped;
  write_rule_options(o, capped);
  EXPECT_EQ(capped.at("requested_move_limit_forcing_cap").to_number<int>(), 20);
  EXPECT_EQ(read_rule_options(capped), o);
  cfg.options = o;
  EXPECT_EQ(cfg.rules().requested_limit_forcing_cap, 20);
  EXPECT_FALSE(j.contains("requested_move_limit_forcing_cap")) << "written only when set";
}
