#include "store/user_games.h"

#include <algorithm>
#include <boost/json.hpp>

#include "store/keys.h"

namespace json = boost::json;

namespace gs {

namespace {

json::value field(const json::object& o, const char* key, json::value fallback) {
  const auto* v = o.if_contains(key);
  return v ? *v : fallback;
}

json::object player_summary(const json::object& record, const char* side) {
  const auto* p = record.if_contains(side);
  if (!p || !p->is_object()) return {};
  return {{"user_id", field(p->as_object(), "user_id", "")}, {"name", field(p->as_object(), "name", "")}};
}

}  // namespace

std::string user_games_json(Redis& redis, const std::string& user_id, size_t offset, size_t limit) {
  const std::string key = keys::user_games(user_id);
  limit = std::min(limit, kMaxUserGamesLimit);
  json::array games;
  const int64_t total = redis.command({"ZCARD", key}).integer;
  if (limit > 0 && static_cast<int64_t>(offset) < total) {
    const RedisReply ids = redis.command(
        {"ZREVRANGE", key, std::to_string(offset), std::to_string(offset + limit - 1), "WITHSCORES"});
    std::vector<std::string> mget{"MGET"};
    for (size_t i = 0; i + 1 < ids.elements.size(); i += 2) mget.push_back(keys::archive(ids.elements[i].str));
    const RedisReply records = redis.command(mget);
    for (size_t i = 0; i + 1 < ids.elements.size(); i += 2) {
      const RedisReply& rec = records.elements.at(i / 2);
      if (rec.type != RedisReply::Type::String) continue;  // a record removed by hand: the list skips it
      boost::system::error_code ec;
      const json::value parsed = json::parse(rec.str, ec);
      if (ec || !parsed.is_object()) continue;
      const json::object& r = parsed.as_object();
      const auto* moves = r.if_contains("moves");
      games.push_back(json::object{
          {"id", ids.elements[i].str},
          {"variant", field(r, "variant", "")},
          {"ruleset", field(r, "ruleset", "")},
          {"rated", field(r, "rated", false)},
          {"event_id", field(r, "event_id", "")},
          {"initial_ms", field(r, "initial_ms", 0)},
          {"increment_ms", field(r, "increment_ms", 0)},
          {"red", player_summary(r, "red")},
          {"black", player_summary(r, "black")},
          {"result", field(r, "result", "")},
          {"reason", field(r, "reason", "")},
          {"plies", moves && moves->is_array() ? moves->as_array().size() : 0},
          {"ended_ms", static_cast<int64_t>(std::stod(ids.elements[i + 1].str))}});
    }
  }
  return json::serialize(json::object{{"games", std::move(games)}, {"total", total}});
}

}  // namespace gs
