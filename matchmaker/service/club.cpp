#include "club.h"

#include <boost/json.hpp>

namespace xq::mm {

namespace json = boost::json;

bool stage_blocks_club_deletion(const std::string& stage) { return stage != "finished" && stage != "cancelled"; }

std::vector<std::string> events_blocking_club_deletion(
    const std::string& club_id, const std::vector<std::pair<std::string, std::string>>& public_views) {
  std::vector<std::string> out;
  for (const auto& [event_id, view] : public_views) {
    boost::system::error_code ec;
    const json::value v = json::parse(view, ec);
    if (ec || !v.is_object()) continue;
    const auto* config = v.as_object().if_contains("config");
    const auto* stage = v.as_object().if_contains("stage");
    if (!config || !config->is_object() || !stage || !stage->is_string()) continue;
    const auto* club = config->as_object().if_contains("club_id");
    if (club && club->is_string() && club->as_string() == club_id && stage_blocks_club_deletion(std::string(stage->as_string())))
      out.push_back(event_id);
  }
  return out;
}

std::string club_deletion_refusal(const std::vector<std::string>& blocking_event_ids) {
  if (blocking_event_ids.empty()) return "";
  constexpr size_t kNamed = 5;
  std::string list;
  for (size_t i = 0; i < blocking_event_ids.size() && i < kNamed; ++i) list += (i ? ", " : "") + blocking_event_ids[i];
  if (blocking_event_ids.size() > kNamed) list += " and " + std::to_string(blocking_event_ids.size() - kNamed) + " more";
  return "the club has events not finished or cancelled (" + list + "): finish or cancel them first";
}

}  // namespace xq::mm
