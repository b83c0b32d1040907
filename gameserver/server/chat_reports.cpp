#include "server/chat_reports.h"

#include <boost/json.hpp>
#include <algorithm>

#include "game/codec.h"
#include "net/runtime.h"
#include "server/caller.h"
#include "server/json_error.h"
#include "server/hub.h"
#include "store/keys.h"
#include "store/rate_window.h"

namespace json = boost::json;

namespace gs {
namespace {

constexpr int kReportsPerHour = 20;             // per reader: enough for a bad game, not for flooding the list
constexpr int kReportsPerHourPerAddress = 30;  // all readers behind one address together
constexpr int64_t kReportWindowMs = 3600 * 1000;

}  // namespace

HttpResult report_chat_line(Hub& hub, const std::string& game_id, const std::string& body, const std::string& credential,
                            const std::string& address) {
  const Caller caller = identify_caller(hub, credential);
  if (!caller.user) return json_error(401, "sign in to report a chat line");
  if (caller.banned) return json_error(403, "this account is banned");
  const User& reader = *caller.user;
  boost::system::error_code ec;
  const json::value in = json::parse(body.empty() ? "{}" : body, ec);
  const json::value* seq_v = !ec && in.is_object() ? in.as_object().if_contains("seq") : nullptr;
  if (!seq_v || !seq_v->is_int64() || seq_v->as_int64() <= 0)
    return json_error(400, "body: {\"seq\": N}, the line's seq (a positive integer) as the chat showed it");
  const auto seq = static_cast<uint64_t>(seq_v->as_int64());

  const auto record = hub.game_record(game_id);
  if (!record) return json_error(404, "unknown game");
  const json::value rec = json::parse(*record);  // kept: references into it are read below
  const bool player = rec.at("red").at("user_id").as_string() == reader.id || rec.at("black").at("user_id").as_string() == reader.id;
  const auto lines = hub.store().load_chat(game_id);
  const auto line = std::find_if(lines.begin(), lines.end(), [&](const ChatEntry& e) { return e.seq == seq; });
  // Only what the reader could read: the players' room is the two players', the spectators' room
  // everyone else's. A line of the other room is answered as one that does not exist, so that a
  // player cannot learn from the answers when the spectators are talking.
  if (line == lines.end() || (line->room == ChatRoom::Players) != player)
    return json_error(404, "no such chat line in a room you read (only the last 100 lines are kept)");
  if (line->user_id == reader.id) return json_error(400, "that line is your own");

  // One entry per line, whoever reports it (a line reported by many is still one to read); and
  // reports per reader and per client address, so that throwaway guests cannot bury the real ones.
  Redis& redis = hub.redis();
  const std::string marker = keys::chat_reported(game_id, seq);
  if (redis.command({"EXISTS", marker}).integer == 1) return {200, "application/json", R"({"ok":true,"duplicate":true})"};
  std::vector<std::string> counters{keys::chat_report_tries(reader.id)};
  std::vector<int> limits{kReportsPerHour};
  if (!address.empty()) {
    counters.push_back(keys::chat_report_tries_from(address));
    limits.push_back(kReportsPerHourPerAddress);
  }
  if (!take_places(redis, counters, limits, kReportWindowMs)) return json_error(429, "too many reports in an hour: try again later");
  RedisReply fresh = redis.command({"SET", marker, "1", "NX", "PX", std::to_string(keys::kChatKeptMs)});
  if (fresh.type == RedisReply::Type::Nil) {  // reported by someone else this instant
    give_back_places(redis, counters);
    return {200, "application/json", R"({"ok":true,"duplicate":true})"};
  }
  json::object report{{"game_id", game_id},
                      {"seq", seq},
                      {"room", line->room == ChatRoom::Players ? "players" : "spectators"},
                      {"from", json::object{{"user_id", line->user_id}, {"name", line->name}}},
                      {"text", line->text},
                      {"at_ms", line->at_ms},
                      {"reporter", json::object{{"user_id", reader.id}, {"name", reader.name}}},
                      {"reported_at_ms", wall_ms()}};
  redis.command({"LPUSH", keys::kChatReports, json::serialize(report)});
  redis.command({"LTRIM", keys::kChatReports, "0", std::to_string(keys::kChatReportsKept - 1)});
  return {200, "application/json", R"({"ok":true})"};
}

HttpResult chat_reports(Hub& hub, size_t limit) {
  limit = std::min<size_t>(limit, keys::kChatReportsKept);
  // 0: an empty page, as every list reads it (LRANGE 0 -1 would be the whole list).
  RedisReply r = limit == 0 ? RedisReply{} : hub.redis().command({"LRANGE", keys::kChatReports, "0", std::to_string(limit - 1)});
  json::array reports;
  for (const auto& e : r.elements) reports.push_back(json::parse(e.str));
  return {200, "application/json", json::serialize(json::object{{"reports", std::move(reports)}})};
}

}  // namespace gs
