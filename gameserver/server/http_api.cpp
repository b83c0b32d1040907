#include "server/http_api.h"

#include <set>

#include <boost/json.hpp>
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <sstream>

#include "game/codec.h"
#include "game/one_line_text.h"
#include "game/record_text.h"
#include "server/account_api.h"
#include "server/caller.h"
#include "server/json_error.h"
#include "server/chat_reports.h"
#include "server/hub.h"
#include "server/tournament_api.h"
#include "store/keys.h"
#include "store/rating_store.h"
#include "store/user_games.h"

namespace json = boost::json;

namespace gs {
namespace {

// A path segment with its %-escapes decoded (clients encode names: the web client writes an
// account's name with encodeURIComponent, so 张三 arrives as %E5%BC%A0%E4%B8%89); nullopt for a
// '%' not followed by two hex digits.
std::optional<std::string> percent_decoded(const std::string& segment) {
  std::string out;
  for (size_t i = 0; i < segment.size(); ++i) {
    if (segment[i] != '%') {
      out += segment[i];
      continue;
    }
    if (i + 2 >= segment.size() || !std::isxdigit(static_cast<unsigned char>(segment[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(segment[i + 2])))
      return std::nullopt;
    out += static_cast<char>(std::stoi(segment.substr(i + 1, 2), nullptr, 16));
    i += 2;
  }
  return out;
}

// The path's segments, decoded; empty segments ("//", a trailing '/') are skipped. Nullopt if a
// segment has a malformed %-escape.
std::optional<std::vector<std::string>> split_path(const std::string& path) {
  std::vector<std::string> parts;
  size_t from = 0;
  while (from <= path.size()) {
    const size_t end = std::min(path.find('/', from), path.size());
    if (end > from) {
      auto segment = percent_decoded(path.substr(from, end - from));
      if (!segment) return std::nullopt;
      parts.push_back(std::move(*segment));
    }
    from = end + 1;
  }
  return parts;
}

std::string mime_of(const std::string& path) {
  auto ends = [&](const char* ext) {
    std::string e(ext);
    return path.size() >= e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js") || ends(".mjs")) return "text/javascript";
  if (ends(".css")) return "text/css";
  if (ends(".json")) return "application/json";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  if (ends(".wasm")) return "application/wasm";
  if (ends(".ico")) return "image/x-icon";
  return "application/octet-stream";
}

const char* kPlaceholder =
    "<!doctype html><html><head><meta charset=\"utf-8\"><title>xq game server</title></head><body>"
    "<h1>Jieqi / Xiangqi game server</h1><p>The web client is not installed (build clients/web and pass "
    "<code>--static-dir clients/web/dist</code>). WebSocket endpoint: <code>/ws</code>.</p></body></html>";

HttpResult static_file(const std::string& dir, std::string path) {
  if (path.empty()) path = "/";
  if (path[0] != '/' || path.find("..") != std::string::npos || path.find('\0') != std::string::npos)
    return json_error(400, "bad path");
  if (path == "/") path = "/index.html";
  if (!dir.empty()) {
    // Only regular files inside the directory: a symlink out of it or a sibling directory whose
    // name starts like it ("web-old" next to "web") is not served.
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path root = fs::canonical(dir, ec);
    const fs::path file = ec ? fs::path() : fs::weakly_canonical(root / path.substr(1), ec);
    const auto inside = file.lexically_relative(root);
    if (!ec && !inside.empty() && *inside.begin() != ".." && fs::is_regular_file(file, ec)) {
      std::ifstream f(file, std::ios::binary);
      if (f) {
        std::ostringstream ss;
        ss << f.rdbuf();
        return {200, mime_of(path), ss.str()};
      }
    }
  }
  if (path == "/index.html") return {200, "text/html; charset=utf-8", kPlaceholder};
  return json_error(404, "not found");
}

// The value of query parameter `name` (?name=…&…), if present.
std::optional<std::string> query_value(const std::string& target, const std::string& name) {
  const auto q = target.find('?');
  if (q == std::string::npos) return std::nullopt;
  std::string rest(1, '&');
  rest.append(target, q + 1);
  const auto at = rest.find("&" + name + "=");
  if (at == std::string::npos) return std::nullopt;
  const size_t from = at + name.size() + 2;
  return rest.substr(from, rest.find('&', from) - from);
}

// A paging parameter (?limit=, ?offset=): `fallback` when absent; nullopt when it is there but not a
// whole number of at most nine digits. Such a value is the client's mistake, and reading "-1", "abc"
// or "1e3" as the default (or 99999999999 as its first nine digits) hid it.
std::optional<size_t> query_number(const std::string& target, const std::string& name, size_t fallback) {
  const auto text = query_value(target, name);
  if (!text) return fallback;
  if (text->empty() || text->size() > 9 || text->find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::stoul(*text);
}

// Reads ?offset= and ?limit= of a paged list (the limit at most `max_limit`); the 400 naming a bad one.
std::optional<HttpResult> read_page(const std::string& target, size_t default_limit, size_t max_limit, size_t& offset, size_t& limit) {
  const auto o = query_number(target, "offset", 0), l = query_number(target, "limit", default_limit);
  if (!o) return json_error(400, "offset: a whole number from 0 to 999999999");
  if (!l)
    return json_error(400, "limit: a whole number of at most nine digits (at most " + std::to_string(max_limit) +
                               " items are given: a larger limit counts as " + std::to_string(max_limit) + ")");
  offset = *o;
  limit = std::min(*l, max_limit);
  return std::nullopt;
}

// GET /api/games and /api/admin/games: ?limit= (default 100, at most 500) &offset=.
HttpResult game_list(Hub& hub, const std::string& target, bool for_admin) {
  size_t offset = 0, limit = 0;
  if (auto bad = read_page(target, Hub::kDefaultGameListLimit, Hub::kMaxGameListLimit, offset, limit)) return *bad;
  return {200, "application/json", hub.live_games_json(offset, limit, for_admin)};
}

// GET /api/users/{id}/games: ?limit= (default 20, at most 100) &offset=.
HttpResult user_game_list(Hub& hub, const std::string& target, const std::string& user_id) {
  size_t offset = 0, limit = 0;
  if (auto bad = read_page(target, kDefaultUserGamesLimit, kMaxUserGamesLimit, offset, limit)) return *bad;
  return {200, "application/json", user_games_json(hub.redis(), user_id, offset, limit)};
}

// The method an endpoint of this file answers (its path matched loosely, as handle_http routes it),
// or nullptr for a path that is none: a wrong method on a real endpoint is told 405, not "not found".
const char* method_of(const std::vector<std::string>& parts) {
  auto is = [&](size_t i, std::initializer_list<const char*> words) {
    return std::any_of(words.begin(), words.end(), [&](const char* w) { return parts[i] == w; });
  };
  const size_t n = parts.size();
  if (n == 5 && parts[1] == "games" && parts[3] == "chat" && parts[4] == "report") return "POST";
  if (n >= 2 && parts[1] == "games") return n <= 3 || (n == 4 && parts[3] == "pgn") ? "GET" : nullptr;
  if (n == 3 && parts[1] == "users") return "GET";
  if (n == 3 && parts[1] == "accounts") return "GET";
  if (n == 4 && parts[1] == "users") return is(3, {"ratings", "games"}) ? "GET" : nullptr;
  if (n == 5 && parts[1] == "users" && parts[3] == "rating-history") return "GET";
  if (n == 3 && parts[1] == "account") return is(2, {"password", "sign-out-everywhere"}) ? "POST" : nullptr;
  if (n == 3 && parts[1] == "leaderboard") return "GET";
  if (n < 3 || parts[1] != "admin") return nullptr;
  if (n == 3) return is(2, {"games", "connections", "banned", "chat-reports", "metrics"}) ? "GET" : nullptr;
  if (n == 4) return parts[2] == "accounts" ? "GET" : nullptr;
  if (n != 5) return nullptr;
  if (parts[2] == "games") return parts[4] == "chat" ? "GET" : is(4, {"abort", "adjudicate", "move-limit"}) ? "POST" : nullptr;
  if (parts[2] == "accounts") return is(4, {"role", "bot"}) ? "POST" : nullptr;
  return parts[2] == "users" && is(4, {"disconnect", "ban", "unban"}) ? "POST" : nullptr;
}

constexpr const char* kNotAnObject = "the body must be a JSON object";

// A POST body as a JSON object (an empty body is {}); nullopt if it is not one.
std::optional<json::object> body_object(const std::string& body) {
  if (body.empty()) return json::object{};
  boost::system::error_code ec;
  json::value v = json::parse(body, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

// A string field of a body: `fallback` when absent or null, nullopt when it is something else.
std::optional<std::string> string_field(const json::object& o, const char* key, const std::string& fallback) {
  const json::value* v = o.if_contains(key);
  if (!v || v->is_null()) return fallback;
  if (!v->is_string()) return std::nullopt;
  return std::string(v->as_string());
}

HttpResult account_json(Hub& hub, const User& u) {
  json::object o{{"user_id", u.id}, {"name", u.name}, {"role", role_name(hub.auth().role_of(u))},
                 {"banned", hub.auth().banned(u.id)}, {"bot", hub.auth().is_bot(u)}};
  return {200, "application/json", json::serialize(o)};
}

}  // namespace

HttpResult method_not_allowed(const std::string& allow, const std::string& message) {
  HttpResult r = json_error(405, message);
  r.headers.emplace_back("Allow", allow);
  return r;
}

std::string adjudication_reason_error(std::string& reason) {
  constexpr size_t kMaxReasonBytes = 200;
  // Shown to players and spectators and stored with the game: a line of text, not a page.
  if (reason.size() > kMaxReasonBytes || !one_line_text(reason))
    return "reason: at most " + std::to_string(kMaxReasonBytes) + " bytes of text on one line";
  const size_t first = reason.find_first_not_of(" \t"), last = reason.find_last_not_of(" \t");
  reason = first == std::string::npos ? "" : reason.substr(first, last - first + 1);
  // Blank (the dashboard's field left empty, or what shows nothing: spaces of any width,
  // zero-width characters): the plain word.
  if (!shows_something(reason)) reason = "adjudication";
  std::string word;  // the reason as a result code would read, for the comparisons below
  for (char ch : reason) word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  // The words an arbiter writes for a no-show are the forfeit it means (review, 2026-12-05: "弃权"
  // scored a played win: no foul, no forfeit count, a game in the colour history).
  for (const char* no_show : {"forfeit", "forfeited", "no-show", "no show", "noshow", "no_show", "弃权", "棄權", "缺席"})
    if (word == no_show) {
      reason = "forfeit";
      return "";
    }
  // Reasons that say the game had no result: "abort" keeps a game off the ratings and reads "game
  // aborted" whatever the outcome, "double_forfeit" is both sides losing. A decided game has one.
  // (A ruling of "forfeit" or "perpetual_…" stands: in a tournament it also counts a foul.)
  if (word == "abort" || word == "double_forfeit")
    return "reason: '" + reason + "' says the game had no result; a ruling has one (say why in your own words, or leave it blank)";
  // Ends the server records by itself, shown to players as such ("opponent banned", "time out"):
  // a ruling that wore one would not read as a ruling.
  for (const char* own : {"checkmate", "stalemate", "resignation", "timeout", "timeout_draw", "banned", "disqualified",
                          "agreement", "claimed_draw", "requested_move_limit"})
    if (word == own)
      return "reason: '" + reason + "' is an end the server records by itself; say why in your own words, or leave it blank";
  return "";
}

HttpLane http_lane(const std::string& target) {
  const std::string path = target.substr(0, target.find('?'));
  if (path == "/healthz") return HttpLane::Probe;
  const auto parts = split_path(path);  // a malformed path is refused at once (Io)
  return parts && !parts->empty() && (*parts)[0] == "api" ? HttpLane::Api : HttpLane::Io;
}

HttpResult handle_http(Hub& hub, const std::string& method, const std::string& target, const std::string& body,
                       const std::string& admin_token, const std::string& client_address) {
  std::string path = target.substr(0, target.find('?'));
  if ((path == "/healthz" || path == "/metrics") && method != "GET" && method != "HEAD")
    return method_not_allowed("GET, HEAD", "method not allowed: use GET or HEAD");
  if (path == "/healthz") {
    bool ok = hub.redis_ok();
    return {ok ? 200 : 503, "text/plain", ok ? "ok\n" : "redis unavailable\n"};
  }
  if (path == "/metrics") {
    // Answered on the network thread, so only the two fixed tokens open it (no session lookup in
    // Redis here); an admin's session reads the same text at /api/admin/metrics.
    const ServerOptions& o = hub.options();
    if (!o.metrics_token.empty() && !same_secret(admin_token, o.metrics_token) && !same_secret(admin_token, o.admin_token)) {
      HttpResult r = json_error(401, admin_token.empty() ? "metrics credential required (Authorization: Bearer, --metrics-token)"
                                                         : "invalid metrics credential");
      r.headers.emplace_back("WWW-Authenticate", "Bearer");
      return r;
    }
    return {200, "text/plain; version=0.0.4", hub.metrics().render()};
  }
  if (path == "/ws") {  // a WebSocket upgrade never gets here: this is a plain request for the endpoint
    HttpResult r = json_error(426, "/ws is the WebSocket endpoint: open it with an HTTP/1.1 upgrade (RFC 6455)");
    r.headers.emplace_back("Upgrade", "websocket");
    return r;
  }
  const auto split = split_path(path);
  if (!split) return json_error(400, "bad path: '%' must be followed by two hex digits");
  const std::vector<std::string>& parts = *split;
  if (parts.empty() || parts[0] != "api") {
    if (method != "GET" && method != "HEAD") return method_not_allowed("GET, HEAD", "method not allowed: use GET or HEAD");
    return static_file(hub.options().static_dir, path);
  }
  // The API reads with GET and acts with POST: another method is refused as such, not as a path
  // that does not exist.
  if (method != "GET" && method != "POST") {
    // An endpoint this file knows names its own method; elsewhere the API's two.
    const char* allowed = parts.size() >= 2 ? method_of(parts) : nullptr;
    if (!allowed) allowed = tournament_method_of(parts);
    return method_not_allowed(allowed ? allowed : "GET, POST",
                              allowed ? std::string("method not allowed: use ") + allowed : "method not allowed: the API takes GET and POST");
  }
  try {
    // Public API
    if (parts.size() == 2 && parts[1] == "games" && method == "GET") return game_list(hub, target, false);
    if (parts.size() == 3 && parts[1] == "games" && method == "GET" && hub.record_withheld(parts[2]))
      return json_error(403, "delayed broadcast: the record is available when the game ends");
    if (parts.size() == 3 && parts[1] == "games" && method == "GET") {
      auto rec = hub.game_record(parts[2]);
      if (!rec) return json_error(404, "unknown game");
      return {200, "application/json", *rec};
    }
    // The same record as PGN-style text (GET /api/games/{id}/pgn).
    if (parts.size() == 4 && parts[1] == "games" && parts[3] == "pgn" && method == "GET") {
      if (hub.record_withheld(parts[2])) return json_error(403, "delayed broadcast: the record is available when the game ends");
      auto rec = hub.game_record(parts[2]);
      if (!rec) return json_error(404, "unknown game");
      return {200, "text/plain; charset=utf-8", record_text(*rec)};
    }
    if (parts.size() == 5 && parts[1] == "games" && parts[3] == "chat" && parts[4] == "report" && method == "POST")
      return report_chat_line(hub, parts[2], body, admin_token, address_block(client_address));
    if (parts.size() == 3 && parts[1] == "account" && parts[2] == "password" && method == "POST")
      return change_password(hub, body, admin_token, address_block(client_address));
    if (parts.size() == 3 && parts[1] == "account" && parts[2] == "sign-out-everywhere" && method == "POST")
      return sign_out_everywhere(hub, admin_token);
    if (parts.size() == 3 && parts[1] == "leaderboard" && method == "GET") {
      if (parts[2] != "xiangqi" && parts[2] != "jieqi") return json_error(404, "no such variant (xiangqi or jieqi)");
      size_t offset = 0, limit = 0;
      if (auto bad = read_page(target, kDefaultLeaderboardLimit, kMaxLeaderboardLimit, offset, limit)) return *bad;
      return {200, "application/json", RatingStore(hub.redis()).leaderboard_json(parts[2], limit)};
    }
    if (parts.size() >= 2 && (parts[1] == "events" || parts[1] == "clubs" || parts[1] == "pools"))
      return handle_tournament_api(hub, method, parts, body, admin_token, client_address);
    // A player's public identity: an account's name (guests are not stored: 404).
    if (parts.size() == 3 && parts[1] == "users" && method == "GET") {
      auto name = is_user_id(parts[2]) ? hub.auth().account_name(parts[2]) : std::nullopt;
      if (!name) return json_error(404, "no such account (guests are not stored)");
      return {200, "application/json", json::serialize(json::object{{"user_id", parts[2]}, {"name", *name}})};
    }
    // The other way round: an account's id by its name (a club organiser adds a member by name;
    // names and ids are public in every game record). Any case of the name finds it.
    if (parts.size() == 3 && parts[1] == "accounts" && method == "GET") {
      auto u = hub.auth().find_user(parts[2]);
      if (!u) return json_error(404, "no such account (guests are not stored)");
      return {200, "application/json", json::serialize(json::object{{"user_id", u->id}, {"name", u->name}})};
    }
    if (parts.size() == 4 && parts[1] == "users" && (parts[3] == "ratings" || parts[3] == "games") && method == "GET") {
      if (!is_user_id(parts[2])) return json_error(404, "no such user id (ids are g-… or u-… and 16 hex digits)");
      if (parts[3] == "games") return user_game_list(hub, target, parts[2]);
      return {200, "application/json", RatingStore(hub.redis()).ratings_json(parts[2])};
    }
    if (parts.size() == 5 && parts[1] == "users" && parts[3] == "rating-history" && method == "GET") {
      if (!is_user_id(parts[2])) return json_error(404, "no such user id (ids are g-… or u-… and 16 hex digits)");
      if (parts[4] != "xiangqi" && parts[4] != "jieqi") return json_error(404, "no such variant (xiangqi or jieqi)");
      return {200, "application/json", RatingStore(hub.redis()).rating_history_json(parts[4], parts[2])};
    }
    if (parts.size() >= 2 && parts[1] == "admin") {
      const Caller caller = identify_caller(hub, admin_token);
      if (!caller.admin())
        return json_error(caller.user ? 403 : 401, caller.user && caller.banned ? "this account is banned"
                                                   : caller.user                ? "the admin role is required"
                                                   : caller.refused_credential ? "invalid or expired credential: not the admin token nor a valid session"
                                                                               : "admin credential required (X-Admin-Token or an admin's session)");
      if (parts.size() == 3 && parts[2] == "games" && method == "GET") return game_list(hub, target, true);
      // The node's counters for the dashboard: a reverse proxy need not pass /metrics itself on.
      if (parts.size() == 3 && parts[2] == "metrics" && method == "GET")
        return {200, "text/plain; version=0.0.4", hub.metrics().render()};
      if (parts.size() == 3 && parts[2] == "connections" && method == "GET")
        return {200, "application/json", hub.connections_json()};
      if (parts.size() == 3 && parts[2] == "chat-reports" && method == "GET") {
        size_t offset = 0, limit = 0;
        if (auto bad = read_page(target, 100, keys::kChatReportsKept, offset, limit)) return *bad;
        return chat_reports(hub, limit);
      }
      // A game's chat, both rooms, as stored (a moderator reads what was written).
      if (parts.size() == 5 && parts[2] == "games" && parts[4] == "chat" && method == "GET") {
        json::array lines;
        for (const ChatEntry& e : hub.store().load_chat(parts[3]))
          lines.push_back(json::parse(encode_chat(e)));
        return {200, "application/json", json::serialize(json::object{{"game_id", parts[3]}, {"lines", lines}})};
      }
      if (parts.size() == 5 && parts[2] == "games" && method == "POST" && parts[4] != "chat") {
        std::string outcome = "abort", reason;
        if (parts[4] == "adjudicate") {
          const auto v = body_object(body);
          if (!v) return json_error(400, kNotAnObject);
          const auto o = string_field(*v, "outcome", ""), r = string_field(*v, "reason", "");
          if (!o || (*o != "red-wins" && *o != "black-wins" && *o != "draw"))
            return json_error(400, "outcome must be red-wins, black-wins or draw");
          if (!r) return json_error(400, "reason must be a string");
          outcome = *o;
          reason = *r;
          if (std::string why = adjudication_reason_error(reason); !why.empty()) return json_error(400, why);
        } else if (parts[4] == "move-limit") {  // the arbiter imposes the move limit on request (限着)
          outcome = "move-limit";
          // {"side": "red" | "black" | "both"} (both by default): whose checks do not count.
          const auto v = body_object(body);
          if (!v) return json_error(400, kNotAnObject);
          const auto side = string_field(*v, "side", "both");
          if (!side || (*side != "red" && *side != "black" && *side != "both")) return json_error(400, "side must be red, black or both");
          reason = *side;
          if (reason == "both") reason.clear();
        } else if (parts[4] != "abort") {
          return json_error(404, "unknown action");
        }
        if (std::string why = hub.admin_game_action(parts[3], outcome, reason); !why.empty())
          return json_error(Hub::admin_action_status(why), why);
        return {200, "application/json", "{\"ok\":true}"};
      }
      // Accounts by name: look one up, or grant a role ({"role": "player"|"organiser"|"admin"}).
      if (parts.size() == 4 && parts[2] == "accounts" && method == "GET") {
        auto u = hub.auth().find_user(parts[3]);
        if (!u) return json_error(404, "no such account");
        return account_json(hub, *u);
      }
      if (parts.size() == 5 && parts[2] == "accounts" && parts[4] == "role" && method == "POST") {
        boost::system::error_code ec;
        json::value v = json::parse(body, ec);
        const json::string* wanted = !ec && v.is_object() && v.as_object().contains("role") ? v.as_object().at("role").if_string() : nullptr;
        auto role = wanted ? parse_role(std::string(*wanted)) : std::nullopt;
        if (!role) return json_error(400, "body: {\"role\": \"player\" | \"organiser\" | \"admin\"}");
        User u;
        if (hub.auth().set_role(parts[3], *role, u) != Auth::Error::None)
          return json_error(404, "no such registered account (guests cannot hold a role)");
        return account_json(hub, u);
      }
      // Mark an account as a computer player, or not ({"bot": true|false}): its seeks and games
      // from then on show it as one.
      if (parts.size() == 5 && parts[2] == "accounts" && parts[4] == "bot" && method == "POST") {
        boost::system::error_code ec;
        json::value v = json::parse(body, ec);
        const bool* wanted = !ec && v.is_object() && v.as_object().contains("bot") ? v.as_object().at("bot").if_bool() : nullptr;
        if (!wanted) return json_error(400, "body: {\"bot\": true | false}");
        User u;
        if (hub.auth().set_bot(parts[3], *wanted, u) != Auth::Error::None)
          return json_error(404, "no such registered account (guests cannot be marked)");
        return account_json(hub, u);
      }
      if (parts.size() == 3 && parts[2] == "banned" && method == "GET")
        return {200, "application/json", json::serialize(json::object{{"banned", json::value_from(hub.auth().banned_ids())}})};
      if (parts.size() == 5 && parts[2] == "users" && method == "POST" &&
          (parts[4] == "disconnect" || parts[4] == "ban" || parts[4] == "unban")) {
        // Guests are not stored, so only the id's shape can be checked: a typo of it is refused.
        if (!is_user_id(parts[3])) return json_error(404, "no such user id (ids are g-… or u-… and 16 hex digits)");
        if (parts[4] == "disconnect") {
          bool told_others = true;
          const size_t closed = hub.disconnect(parts[3], false, &told_others);
          if (!told_others)
            return json_error(503, "Redis is unavailable: the other nodes were not told (" + std::to_string(closed) +
                                       " connection(s) closed on this node); try again");
          return {200, "application/json", json::serialize(json::object{{"ok", true}, {"closed", closed}})};
        }
        if (parts[4] == "unban")
          return {200, "application/json", json::serialize(json::object{{"ok", true}, {"was_banned", hub.auth().unban(parts[3])}})};
        // An account id no account has is a typo: banning it would ban nobody and say it did.
        if (!hub.auth().may_exist(parts[3])) return json_error(404, "no such account: " + parts[3]);
        return {200, "application/json", json::serialize(json::object{{"ok", true}, {"games_ended", hub.ban(parts[3])}})};
      }
    }
    if (const char* allowed = method_of(parts)) return method_not_allowed(allowed, std::string("method not allowed: use ") + allowed);
  } catch (const RedisUnavailable& e) {  // not the request's fault: worth retrying
    return json_error(503, e.what());
  } catch (const boost::system::system_error& e) {  // Boost.JSON: not JSON, or a field of the wrong type
    return json_error(400, "malformed request: " + e.code().message());
  } catch (const std::exception& e) {
    return json_error(400, e.what());
  }
  return json_error(404, "not found");
}

}  // namespace gs
