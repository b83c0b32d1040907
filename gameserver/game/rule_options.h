// Rule options of one game beyond the ruleset and the capture visibility: the Jieqi spec's
// repetition options (docs/adjudication.md "Options for clubs") and the natural move limit a
// regulation may set (xiangqi-rules.md §4; e.g. "40 回合, 将军着数不计"). One definition for seeks,
// challenges, scheduled (tournament) games and the stored game config.
#pragma once
#include <boost/json/fwd.hpp>
#include <optional>
#include <string>

#include "rules/game.h"

namespace gs {

struct RuleOptions {
  int repetitions = 3;                          // judge a repetition at a position's Nth occurrence
  bool pawns_advisors_elephants_free = false;   // Jieqi only: they may check and chase perpetually
  int move_limit_plies = 0;  // plies without a capture before the automatic draw; 0 = the variant's (120 / 80)
  // Checks per side that advance that count (further checks and the replies to them do not);
  // -1 = all; unset = the variant's (Xiangqi 10, Jieqi all).
  std::optional<int> counted_checks_per_side;
  // The move limit a player may ask for (club regulations' 限着 on request, e.g. 80 = 40 回合): plies
  // from the request to the draw, the requester's checks and the replies to them not counted; 0 = none.
  int requested_move_limit_plies = 0;
  // Kills and chases of the requester that count during that limit, at most (seed 001: 20); beyond
  // them such a move and the reply to it do not count, as with its checks. 0 = no cap.
  int requested_move_limit_forcing_cap = 0;
  static constexpr int kMinMoveLimit = 20, kMaxMoveLimit = 600, kMaxCountedChecks = 100;
  bool operator==(const RuleOptions&) const = default;
};

// "" when the options are valid for the variant, else a message saying what is wrong.
std::string rule_options_error(const RuleOptions& o, xq::Variant variant);
void apply(const RuleOptions& o, xq::GameRules& rules);

// JSON keys "repetitions", "pawns_advisors_elephants_free", "move_limit_plies",
// "counted_checks_per_side", "requested_move_limit_plies" and "requested_move_limit_forcing_cap";
// absent keys read as the defaults.
// Writes only what differs from the defaults, so older records and seeks stay unchanged.
void write_rule_options(const RuleOptions& o, boost::json::object& out);
RuleOptions read_rule_options(const boost::json::object& in);  // throws on a value of the wrong type

}  // namespace gs
