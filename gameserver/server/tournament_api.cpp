#include "server/tournament_api.h"

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cmath>
#include <map>
#include <set>
#include <thread>

#include "auth/auth.h"
#include "game/clock.h"
#include "net/runtime.h"
#include "rules/jieqi.h"
#include "server/caller.h"
#include "server/http_api.h"
#include "server/hub.h"
#include "store/keys.h"
#include "store/matchmaker_bus.h"
#include "store/rating_store.h"
#include "store/rate_window.h"
#include "store/redis.h"

namespace json = boost::json;

namespace gs {
namespace {

HttpResult error(int status, const std::string& code, const std::string& message) {
  return {status, "application/json", json::serialize(json::object{{"error", message}, {"code", code}})};
}

HttpResult ok_json(const std::string& body) { return {200, "application/json", body}; }

constexpr int kJoinCodeTries = 10;
constexpr int64_t kJoinCodeWindowMs = 10 * 60'000;

int status_for(const std::string& code) {
  if (code == "unknown_event" || code == "unknown_game" || code == "unknown_club" || code == "unknown_user") return 404;
  if (code == "forbidden" || code == "not_member" || code == "bad_code" || code == "banned") return 403;
  if (code == "bad_request") return 400;
  return 409;
}

// Whether a matchmaker holds the lead. None does when none runs, or the last one died over a lease
// ago; one that is starting takes it in milliseconds, so a request waits for it up to a second and a
// half, but only one request at a time: the HTTP workers are few, and a handful of requests each
// waiting stalled the whole API while the matchmaker was down (review, 2026-12-05). The others,
// and every request for two seconds after a wait found none, are answered from one look.
bool matchmaker_leads(Redis& r) {
  static std::atomic<bool> one_waits{false};
  static std::atomic<int64_t> absent_until_ms{0};
  const auto leads = [&r] { return r.command({"EXISTS", xq::bus::kLeader}).integer == 1; };
  if (leads()) return true;
  if (steady_ms() < absent_until_ms.load() || one_waits.exchange(true)) return false;
  struct Release {
    std::atomic<bool>& flag;
    ~Release() { flag = false; }
  } release{one_waits};
  for (int i = 0; i < 15; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (leads()) return true;
  }
  absent_until_ms = steady_ms() + 2000;
  return false;
}

// Sends a command to the matchmaker and waits for its answer (on a connection of its own, because
// BLPOP blocks).
HttpResult submit(const std::string& redis_url, json::object cmd) {
  const std::string id = xq::random_hex(12);
  Redis r(redis_url);
  // Without a leader the command is not queued: it would run whenever a matchmaker came back, long
  // after its caller had been told it failed.
  if (!matchmaker_leads(r))
    return error(503, "unavailable", "the tournament service is not running; nothing was done, try again later");
  // The stream is trimmed: commands are acknowledged as they are done, and only recent ones matter.
  r.command({"XADD", xq::bus::kCommands, "MAXLEN", "~", "10000", "*", "id", id, "body", json::serialize(cmd)});
  for (int attempt = 0; attempt < 6; ++attempt) {  // about 6 s in all
    RedisReply reply = r.command({"BLPOP", xq::bus::reply(id), "1"});
    if (reply.type != RedisReply::Type::Array || reply.elements.size() < 2) continue;
    auto answer = json::parse(reply.elements[1].str).as_object();
    if (answer.contains("ok") && answer.at("ok").as_bool()) return ok_json(json::serialize(answer));
    std::string code = answer.contains("code") ? std::string(answer.at("code").as_string()) : "error";
    std::string msg = answer.contains("message") ? std::string(answer.at("message").as_string()) : code;
    return error(status_for(code), code, msg);
  }
  return error(504, "timeout", "the tournament service did not answer in time; the request may still take effect, so look before trying again");
}

// A cancelled event's games still on the game servers end unplayed (aborted, wherever they run).
// The answer says which did and why any did not: a game already over, or its node unreachable.
// The matchmaker's answer to a command may name games the game servers must end: `end_games`
// (a cancel: aborted) and `decide_games` (a disqualification: {game_id, outcome, reason}). They
// are ended on their nodes and the answer says which were and which were not (a game that ended
// meanwhile).
HttpResult end_games_named(Hub& hub, HttpResult answered) {
  json::object answer = json::parse(answered.body).as_object();
  json::array ended, not_ended;
  auto end = [&](const std::string& id, const std::string& action, const std::string& reason) {
    // First kept for the game's creation: one still to be made (its request waiting in the
    // stream) is not found below, and would otherwise be played as if nothing had happened.
    try {
      hub.decide_at_creation(id, action, reason);
    } catch (const std::exception&) {  // Redis away: the action below says so
    }
    const std::string why = hub.admin_game_action(id, action, reason, true);
    // Not made yet: it ends as it is.
    if (why.empty() || why == Hub::kNoSuchGame) ended.push_back(json::string(id));
    else not_ended.push_back(json::object{{"game_id", id}, {"why", why}});
  };
  if (const auto* games = answer.if_contains("end_games"))
    for (const auto& g : games->as_array()) end(std::string(g.as_string()), "abort", "");
  if (const auto* games = answer.if_contains("decide_games"))
    for (const auto& g : games->as_array())
      end(std::string(g.at("game_id").as_string()), std::string(g.at("outcome").as_string()),
          std::string(g.at("reason").as_string()));
  answer.erase("end_games");
  answer.erase("decide_games");
  answer["games_ended"] = ended;
  answer["games_not_ended"] = not_ended;
  return ok_json(json::serialize(answer));
}

std::optional<std::string> get_string(Redis& r, const std::string& key) {
  RedisReply v = r.command({"GET", key});
  if (v.type != RedisReply::Type::String) return std::nullopt;
  return v.str;
}

// A registered player's rating in the event's variant (the pairing seeds use it).
long current_rating(Redis& redis, const std::string& event_id, const User& u) {
  std::string variant = "xiangqi";
  if (auto pub = get_string(redis, xq::bus::event(event_id) + ":public")) {
    json::value v = json::parse(*pub);
    variant = std::string(v.at("config").at("variant").as_string());
  }
  return std::lround(RatingStore(redis).get(variant, u.id).rating);
}

// A pool's "{initial_ms}+{increment_ms}": two numbers of digits only, at most nine, without a leading
// zero ("060000+0" and "60000+0+5" were pools of their own, apart from the players of "60000+0").
bool parse_pool_time_control(const std::string& tc, long long& initial, long long& inc) {
  auto plain = [](const std::string& s) {
    return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string::npos && (s[0] != '0' || s.size() == 1);
  };
  const auto plus = tc.find('+');
  if (plus == std::string::npos || !plain(tc.substr(0, plus)) || !plain(tc.substr(plus + 1))) return false;
  initial = std::stoll(tc.substr(0, plus));
  inc = std::stoll(tc.substr(plus + 1));
  return true;
}

// POST /api/events/{id}/{action} → the matchmaker's command.
const std::map<std::string, std::string> kEventActions = {
    {"join", "join"},         {"withdraw", "withdraw"},         {"start", "start"},
    {"pair", "pair_round"},   {"start-round", "start_round"},   {"edit-pairing", "edit_pairing"},
    {"repair", "repair"},     {"pause", "pause"},               {"resume", "resume"},
    {"correct", "correct_result"}, {"foul", "record_foul"},    {"cancel", "cancel_event"},
    {"adjudicate", "authorize_adjudication"}, {"disqualify", "disqualify"}, {"warn", "warn"},
    {"forbid", "forbid"},     {"settings", "update_settings"}, {"reinstate", "reinstate"}};

// The one method an endpoint of this API answers, or nullptr where it answers both (/api/events)
// or the path is none (then the handlers below say what is unknown).
const char* method_of(const std::vector<std::string>& parts) {
  static const std::set<std::string> kEventViews = {"standings", "crosstable", "trf", "next"};
  const size_t n = parts.size();
  if (parts[1] == "events")
    return n == 3 ? "GET" : n != 4 ? nullptr : kEventViews.count(parts[3]) ? "GET" : kEventActions.count(parts[3]) ? "POST" : nullptr;
  if (parts[1] == "clubs") {
    const bool list = n >= 4 && (parts[3] == "members" || parts[3] == "organisers");
    const bool whole = n == 4 && (parts[3] == "rename" || parts[3] == "delete");
    return n == 2 ? nullptr : n == 3 ? "GET" : (n == 4 && list) || (n == 5 && list && parts[4] == "remove") || whole ? "POST" : nullptr;
  }
  if (parts[1] == "pools") return n == 2 ? "GET" : n == 5 && (parts[4] == "join" || parts[4] == "leave") ? "POST" : nullptr;
  return nullptr;
}

bool valid_id(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  return true;
}

}  // namespace

const char* tournament_method_of(const std::vector<std::string>& parts) { return parts.size() >= 2 ? method_of(parts) : nullptr; }

HttpResult handle_tournament_api(Hub& hub, const std::string& method, const std::vector<std::string>& parts,
                                 const std::string& body, const std::string& token, const std::string& client_address) {
  // A wrong method on a real endpoint says which one it takes, before anything else is looked at.
  if (const char* allowed = method_of(parts); allowed && method != allowed) {
    HttpResult r = error(405, "bad_request", std::string("method not allowed: use ") + allowed);
    r.headers.emplace_back("Allow", allowed);
    return r;
  }
  Redis& redis = hub.redis();
  const Caller caller = identify_caller(hub, token);
  const bool is_admin = caller.admin();
  const std::optional<User>& user = caller.user;
  auto need_user = [&]() -> std::optional<HttpResult> {
    if (!user && !is_admin)
      return error(401, "unauthorized", caller.refused_credential ? "invalid or expired credential: neither a valid session token nor the admin token (sign in again)"
                                                                  : "sign in first (Authorization: Bearer <session token>)");
    if (caller.banned) return error(403, "forbidden", "this account is banned");
    return std::nullopt;
  };
  // Creating events and clubs is the organiser role's (or an admin's); running them is then checked
  // by the matchmaker (the event's creator or an organiser of its club).
  auto need_organiser = [&]() -> std::optional<HttpResult> {
    if (auto e = need_user()) return e;
    if (!caller.organiser())
      return error(403, "forbidden", "creating events and clubs needs the organiser role (an admin grants it)");
    return std::nullopt;
  };
  json::object in;
  if (method == "POST" && !body.empty()) {
    boost::system::error_code ec;
    auto v = json::parse(body, ec);
    if (ec || !v.is_object()) return error(400, "bad_request", "the body must be a JSON object");
    in = v.as_object();
  }
  auto command = [&](const std::string& cmd) {
    json::object c = in;
    c["cmd"] = cmd;
    c.erase("caller");  // who calls is ours to say, never the body's
    if (user) c["caller"] = user->id;
    c["admin"] = is_admin;
    return c;
  };
  const std::string& kind = parts[1];

  if (kind == "events") {
    if (parts.size() == 2 && method == "GET") {
      json::array out;
      for (const auto& id : redis.command({"ZREVRANGE", "{xq}:mm:events", "0", "199"}).elements) {
        auto pub = get_string(redis, xq::bus::event(id.str) + ":public");
        if (!pub) continue;
        auto o = json::parse(*pub).as_object();
        const auto& cfg = o.at("config").as_object();
        out.push_back(json::object{{"id", id.str}, {"name", cfg.at("name")}, {"variant", cfg.at("variant")},
                                   {"stage", o.at("stage")}, {"players", o.at("players").as_array().size()},
                                   {"rounds", cfg.at("pairing").as_object().at("rounds")},
                                   {"rounds_paired", o.at("rounds_paired")}});
      }
      return ok_json(json::serialize(out));
    }
    if (parts.size() == 2 && method == "POST") {
      if (auto e = need_organiser()) return *e;
      json::object cmd = command("create_event");
      json::object ev = in;
      if (!ev.contains("id")) ev["id"] = "ev-" + xq::random_hex(6);
      if (!ev.at("id").is_string()) return error(400, "bad_request", "id: a string of A-Z a-z 0-9 - _ (or none: one is made)");
      if (!valid_id(std::string(ev.at("id").as_string()))) return error(400, "bad_request", "event ids use A-Z a-z 0-9 - _");
      cmd = json::object{{"cmd", "create_event"}, {"event", ev}, {"admin", is_admin}};
      if (user) cmd["caller"] = user->id;
      return submit(hub.options().redis_url, cmd);
    }
    if (parts.size() < 3 || !valid_id(parts[2])) return error(404, "unknown_event", "no such event");
    const std::string key = xq::bus::event(parts[2]);
    if (method == "GET") {
      std::string view = parts.size() == 3 ? ":public" : ":" + parts[3];
      if (parts.size() == 4 && parts[3] == "next") {
        if (auto e = need_user()) return *e;
        auto pub = get_string(redis, key + ":public");
        if (!pub) return error(404, "unknown_event", "no such event");
        auto o = json::parse(*pub).as_object();
        int me = -1;
        const auto& users = o.at("user_ids").as_array();
        for (size_t i = 0; i < users.size(); ++i)
          if (user && users[i].as_string() == user->id) me = static_cast<int>(i);
        for (const auto& g : o.at("games").as_array()) {
          const auto& s = g.as_object();
          if (me < 0 || s.at("finished").as_bool()) continue;
          int red = static_cast<int>(s.at("red").to_number<int64_t>()), black = static_cast<int>(s.at("black").to_number<int64_t>());
          if (red != me && black != me) continue;
          int opp = red == me ? black : red;
          return ok_json(json::serialize(json::object{{"game_id", s.at("game_id")}, {"round", s.at("round")},
                                                      {"board", s.at("board").to_number<int64_t>() + 1},
                                                      {"colour", red == me ? "red" : "black"},
                                                      {"opponent", o.at("players").as_array().at(opp)}}));
        }
        return ok_json("{}");
      }
      if (parts.size() > 4 || (parts.size() == 4 && parts[3] != "standings" && parts[3] != "crosstable" && parts[3] != "trf"))
        return error(404, "not_found", "unknown event view");
      auto v = get_string(redis, key + view);
      if (!v) return error(404, "unknown_event", "no such event");
      if (view == ":trf") return {200, "text/plain; charset=utf-8", *v};
      return ok_json(*v);
    }
    if (parts.size() != 4) return error(404, "not_found", "unknown event endpoint");
    if (auto e = need_user()) return *e;
    auto it = kEventActions.find(parts[3]);
    if (it == kEventActions.end()) return error(404, "not_found", "unknown event action");
    json::object cmd = command(it->second);
    cmd["event_id"] = parts[2];
    if (it->second == "update_settings") {
      // The body is the changes, whole: none of its fields may pass for the command's own.
      json::object c{{"cmd", it->second}, {"event_id", parts[2]}, {"admin", is_admin}, {"settings", in}};
      if (user) c["caller"] = user->id;
      return submit(hub.options().redis_url, c);
    }
    if (it->second == "disqualify" || it->second == "warn") {
      // The regulation's sanctions (警告, 取消比赛资格): the matchmaker checks that the caller organises the event.
      const auto* target = in.if_contains("user_id");
      if (!target || !target->is_string() || !is_user_id(std::string(target->as_string())))
        return error(400, "bad_request", "user_id: not an id this server gives (g-… or u-… and 16 hex digits)");
      const auto* reason = in.if_contains("reason");
      if (reason && !reason->is_string() && !reason->is_null()) return error(400, "bad_request", "reason must be a string");
      if (!reason || reason->is_null()) cmd["reason"] = "";
      HttpResult r = submit(hub.options().redis_url, cmd);
      return it->second == "disqualify" && r.status == 200 ? end_games_named(hub, std::move(r)) : r;
    }
    if ((it->second == "withdraw" && in.contains("user_id")) || it->second == "reinstate") {
      // An organiser withdraws a player (a no-show, a player who left the hall), or takes a
      // withdrawal back: the matchmaker checks that the caller organises the event.
      const auto* target = in.if_contains("user_id");
      if (!target || !target->is_string() || !is_user_id(std::string(target->as_string())))
        return error(400, "bad_request", "user_id: not an id this server gives (g-… or u-… and 16 hex digits)");
      return submit(hub.options().redis_url, cmd);
    }
    if (it->second == "join" && in.contains("account")) {
      // An organiser registers a player who has an account (a club member without the web page at
      // hand): the matchmaker checks that the caller organises the event.
      // Whether the account exists or is banned is told only to those the matchmaker lets register
      // others (it checks the caller first), not to any player who asks.
      const auto& name = in.at("account");
      if (!name.is_string()) return error(400, "bad_request", "account: the name (a string) of a registered account");
      auto target = hub.auth().find_user(std::string(name.as_string()));
      cmd.erase("join_code");
      cmd["account_status"] = !target ? "unknown" : hub.auth().banned(target->id) ? "banned" : "ok";
      cmd["user_id"] = target ? target->id : "";
      if (target) {
        cmd["name"] = target->name;
        cmd["rating"] = current_rating(redis, parts[2], *target);
      }
      return submit(hub.options().redis_url, cmd);
    }
    if (it->second == "join" || it->second == "withdraw") {
      if (!user) return error(400, "bad_request", "join and withdraw need a player's session token");
      cmd["user_id"] = user->id;
      cmd["name"] = user->name;
      cmd["rating"] = user->guest ? 1500 : current_rating(redis, parts[2], *user);  // guests: a newcomer's
    }
    // Join codes are guessable one try at a time: kJoinCodeTries per event, client address and
    // window, counted before the matchmaker is asked; a try that was not a wrong code gives its
    // place back.
    const std::string address = address_block(client_address);
    if (it->second == "join" && in.contains("join_code") && !address.empty()) {
      const std::vector<std::string> counter{keys::join_code_tries(parts[2], address)};
      if (!take_places(redis, counter, {kJoinCodeTries}, kJoinCodeWindowMs))
        return error(429, "rate_limited", "too many wrong join codes from your address: try again in 10 minutes");
      HttpResult r = submit(hub.options().redis_url, cmd);
      if (r.body.find("\"bad_code\"") == std::string::npos) give_back_places(redis, counter);
      return r;
    }
    // The organiser adjudicates a game of the event being played (a second foul, a phone at the
    // board): the matchmaker says whether the caller may, the game's node ends it.
    std::string outcome, reason;
    if (it->second == "authorize_adjudication") {
      const auto* o = in.if_contains("outcome");
      outcome = o && o->is_string() ? std::string(o->as_string()) : "";
      if (outcome != "red-wins" && outcome != "black-wins" && outcome != "draw")
        return error(400, "bad_request", "outcome must be red-wins, black-wins or draw");
      const auto* rs = in.if_contains("reason");
      if (rs && !rs->is_string() && !rs->is_null()) return error(400, "bad_request", "reason must be a string");
      reason = rs && rs->is_string() ? std::string(rs->as_string()) : "";
      if (std::string why = adjudication_reason_error(reason); !why.empty()) return error(400, "bad_request", why);
      const auto* g = in.if_contains("game_id");
      if (!g || !g->is_string()) return error(400, "bad_request", "game_id: the id (a string) of a game of the event");
    }
    HttpResult r = submit(hub.options().redis_url, cmd);
    if (it->second == "cancel_event" && r.status == 200) return end_games_named(hub, std::move(r));
    // The matchmaker only says whether the caller may; this node ends the game once it has said
    // so. Unanswered, nothing is done, even if a matchmaker hears the request later (review).
    if (it->second == "authorize_adjudication" && r.status == 504)
      return error(504, "timeout", "the tournament service did not answer in time: the game was not adjudicated, try again");
    if (it->second == "authorize_adjudication" && r.status == 200) {
      const std::string game_id(in.at("game_id").as_string());
      if (std::string why = hub.admin_game_action(game_id, outcome, reason, true); !why.empty()) {
        const int status = Hub::admin_action_status(why);
        return error(status, status == 404 ? "unknown_game" : status == 503 ? "unavailable" : "bad_state", why);
      }
      return ok_json("{\"ok\":true}");
    }
    return r;
  }

  if (kind == "clubs") {
    // Every club, by id (a person finds theirs: the web client lists the ones they organise or
    // belong to). Names and ids are public, as in a club's own page.
    if (parts.size() == 2 && method == "GET") {
      constexpr size_t kMaxClubs = 1000;
      auto ids = redis.command({"SMEMBERS", xq::bus::kClubs}).elements;
      std::sort(ids.begin(), ids.end(), [](const RedisReply& a, const RedisReply& b) { return a.str < b.str; });
      if (ids.size() > kMaxClubs) ids.resize(kMaxClubs);
      json::array out;
      if (!ids.empty()) {  // one round trip: every key is under {xq}, one slot even on a Cluster
        std::vector<std::string> mget{"MGET"};
        for (const auto& id : ids) mget.push_back(xq::bus::club(id.str));
        for (const auto& v : redis.command(mget).elements) {
          boost::system::error_code ec;
          if (v.type != RedisReply::Type::String) continue;
          if (auto club = json::parse(v.str, ec); !ec && club.is_object()) out.push_back(std::move(club));
        }
      }
      return ok_json(json::serialize(json::object{{"clubs", std::move(out)}}));
    }
    if (parts.size() == 2 && method == "POST") {
      if (auto e = need_organiser()) return *e;
      if (!in.contains("club_id") || !in.at("club_id").is_string() || !valid_id(std::string(in.at("club_id").as_string())))
        return error(400, "bad_request", "club_id: A-Z a-z 0-9 - _");
      return submit(hub.options().redis_url, command("create_club"));
    }
    if (parts.size() == 3 && method == "GET") {
      if (!valid_id(parts[2])) return error(404, "unknown_club", "no such club");
      auto v = get_string(redis, "{xq}:mm:club:" + parts[2]);
      return v ? ok_json(*v) : error(404, "unknown_club", "no such club");
    }
    if ((parts.size() == 4 || (parts.size() == 5 && parts[4] == "remove")) && method == "POST" &&
        (parts[3] == "members" || parts[3] == "organisers")) {
      if (auto e = need_user()) return *e;
      const std::string verb = parts.size() == 5 ? "club_remove_" : "club_add_";
      json::object cmd = command(verb + (parts[3] == "members" ? "member" : "organiser"));
      // A typo of an id would be stored as a member nobody is: only the shape can be checked
      // (guests are not stored).
      if (const auto* id = cmd.if_contains("user_id"); id && (!id->is_string() || !is_user_id(std::string(id->as_string()))))
        return error(400, "bad_request", "user_id: not an id this server gives (g-… or u-… and 16 hex digits)");
      cmd["club_id"] = parts[2];
      return submit(hub.options().redis_url, cmd);
    }
    if (parts.size() == 4 && (parts[3] == "rename" || parts[3] == "delete") && method == "POST") {
      // The matchmaker checks the club, the caller (its organisers, the admin) and the name, as at creation.
      if (auto e = need_user()) return *e;
      json::object cmd = command(parts[3] == "rename" ? "club_rename" : "club_delete");
      cmd["club_id"] = parts[2];
      return submit(hub.options().redis_url, cmd);
    }
    return error(404, "not_found", "unknown club endpoint");
  }

  if (kind == "pools") {
    if (parts.size() == 2 && method == "GET") {
      json::array out;
      for (const auto& p : redis.command({"SMEMBERS", "{xq}:mm:pools"}).elements)
        out.push_back(json::object{{"pool", p.str}, {"waiting", redis.command({"HLEN", "{xq}:mm:pool:" + p.str}).integer}});
      return ok_json(json::serialize(out));
    }
    if (parts.size() == 5 && method == "POST" && (parts[4] == "join" || parts[4] == "leave")) {
      if (auto e = need_user()) return *e;
      if (!user) return error(400, "bad_request", "pools need a player's session token");
      const std::string& variant = parts[2];
      const std::string& tc = parts[3];
      long long initial = 0, inc = 0;
      if ((variant != "xiangqi" && variant != "jieqi") || !parse_pool_time_control(tc, initial, inc))
        return error(400, "bad_request", "pool path: /api/pools/{xiangqi|jieqi}/{initial_ms}+{increment_ms}/join");
      if (const char* bad = time_control_error({initial, inc})) return error(400, "bad_request", bad);
      json::object cmd = command(parts[4] == "join" ? "pool_join" : "pool_leave");
      // Quick pairing starts a game now: not for a player still in one (it paired two players of
      // a live game with each other again).
      if (parts[4] == "join" && hub.plays_live_game(user->id))
        return error(409, "in_live_game", "finish your game first: a player in a live game is not paired from a pool");
      cmd["pool"] = variant + ":" + tc;
      cmd["user_id"] = user->id;
      cmd["name"] = user->name;
      // Pools match by the player's stored rating (guests: the newcomer's 1500).
      cmd["rating"] = user->guest ? 1500 : std::lround(RatingStore(redis).get(variant, user->id).rating);
      return submit(hub.options().redis_url, cmd);
    }
    return error(404, "not_found", "unknown pool endpoint");
  }
  return error(404, "not_found", "not found");
}

}  // namespace gs
