#include "game/rule_options.h"

#include <boost/json.hpp>

namespace gs {

std::string rule_options_error(const RuleOptions& o, xq::Variant variant) {
  if (o.repetitions < xq::GameRules::kMinRepetitions || o.repetitions > xq::GameRules::kMaxRepetitions)
    return "repetitions: " + std::to_string(xq::GameRules::kMinRepetitions) + ".." +
           std::to_string(xq::GameRules::kMaxRepetitions) + " occurrences of a position (default 3)";
  if (o.pawns_advisors_elephants_free && variant != xq::Variant::Jieqi)
    return "pawns_advisors_elephants_free is a Jieqi rule";
  if (o.move_limit_plies != 0 &&
      (o.move_limit_plies < RuleOptions::kMinMoveLimit || o.move_limit_plies > RuleOptions::kMaxMoveLimit))
    return "move_limit_plies: " + std::to_string(RuleOptions::kMinMoveLimit) + ".." +
           std::to_string(RuleOptions::kMaxMoveLimit) + " plies without a capture (0 = the variant's)";
  if (o.counted_checks_per_side && (*o.counted_checks_per_side < -1 || *o.counted_checks_per_side > RuleOptions::kMaxCountedChecks))
    return "counted_checks_per_side: -1 (all) or 0.." + std::to_string(RuleOptions::kMaxCountedChecks);
  if (o.requested_move_limit_plies != 0 && (o.requested_move_limit_plies < RuleOptions::kMinMoveLimit ||
                                            o.requested_move_limit_plies > RuleOptions::kMaxMoveLimit))
    return "requested_move_limit_plies: " + std::to_string(RuleOptions::kMinMoveLimit) + ".." +
           std::to_string(RuleOptions::kMaxMoveLimit) + " plies from a player's request (0 = no request)";
  if (o.requested_move_limit_forcing_cap < 0 || o.requested_move_limit_forcing_cap > o.requested_move_limit_plies)
    return "requested_move_limit_forcing_cap: 0 (no cap) up to requested_move_limit_plies kills and chases of the requester";
  return {};
}

void apply(const RuleOptions& o, xq::GameRules& rules) {
  rules.repetition_occurrences = o.repetitions;
  rules.adjudication.pawns_advisors_elephants_free = o.pawns_advisors_elephants_free;
  if (o.move_limit_plies > 0) rules.move_limit_plies = o.move_limit_plies;
  if (o.counted_checks_per_side) rules.counted_checks_per_side = *o.counted_checks_per_side;
  rules.requested_limit_plies = o.requested_move_limit_plies;
  rules.requested_limit_forcing_cap = o.requested_move_limit_forcing_cap;
}

void write_rule_options(const RuleOptions& o, boost::json::object& out) {
  const RuleOptions defaults;
  if (o.repetitions != defaults.repetitions) out["repetitions"] = o.repetitions;
  if (o.pawns_advisors_elephants_free) out["pawns_advisors_elephants_free"] = true;
  if (o.move_limit_plies != 0) out["move_limit_plies"] = o.move_limit_plies;
  if (o.counted_checks_per_side) out["counted_checks_per_side"] = *o.counted_checks_per_side;
  if (o.requested_move_limit_plies != 0) out["requested_move_limit_plies"] = o.requested_move_limit_plies;
  if (o.requested_move_limit_forcing_cap != 0) out["requested_move_limit_forcing_cap"] = o.requested_move_limit_forcing_cap;
}

RuleOptions read_rule_options(const boost::json::object& in) {
  RuleOptions o;
  if (const auto* v = in.if_contains("repetitions")) o.repetitions = v->to_number<int>();
  if (const auto* v = in.if_contains("pawns_advisors_elephants_free")) o.pawns_advisors_elephants_free = v->as_bool();
  if (const auto* v = in.if_contains("move_limit_plies")) o.move_limit_plies = v->to_number<int>();
  if (const auto* v = in.if_contains("counted_checks_per_side")) o.counted_checks_per_side = v->to_number<int>();
  if (const auto* v = in.if_contains("requested_move_limit_plies")) o.requested_move_limit_plies = v->to_number<int>();
  if (const auto* v = in.if_contains("requested_move_limit_forcing_cap"))
    o.requested_move_limit_forcing_cap = v->to_number<int>();
  return o;
}

}  // namespace gs
