#include "game/rule_options.h"

#include <boost/json.hpp>

namespace gs {

std::string rule_options_error(const RuleOptions& o, xq::Variant variant) {
  if (o.repetitions < xq::GameRules::kMinRepetitions || o.repetitions > xq::GameRules::kMaxRepetitions)
    return "repetitions: " + std::to_string(xq::GameRules::kMinRepetitions) + ".." +
           std::to_string(xq::GameRules::kMaxRepetitions) + " occurrences of a position (default 3)";
  if (o.pawns_advisors_elephants_free && variant != xq::Variant::Jieqi)
    return "pawns_advisors_elephants_free is a Jieqi rule";
  return {};
}

void apply(const RuleOptions& o, xq::GameRules& rules) {
  rules.repetition_occurrences = o.repetitions;
  rules.adjudication.pawns_advisors_elephants_free = o.pawns_advisors_elephants_free;
}

void write_rule_options(const RuleOptions& o, boost::json::object& out) {
  const RuleOptions defaults;
  if (o.repetitions != defaults.repetitions) out["repetitions"] = o.repetitions;
  if (o.pawns_advisors_elephants_free) out["pawns_advisors_elephants_free"] = true;
}

RuleOptions read_rule_options(const boost::json::object& in) {
  RuleOptions o;
  if (const auto* v = in.if_contains("repetitions")) o.repetitions = v->to_number<int>();
  if (const auto* v = in.if_contains("pawns_advisors_elephants_free")) o.pawns_advisors_elephants_free = v->as_bool();
  return o;
}

}  // namespace gs
