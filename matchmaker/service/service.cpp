#include "service.h"

#include <boost/json.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <cstdio>
#include <random>
#include <set>
#include <iostream>
#include <thread>

#include "store/keys.h"
#include "store/matchmaker_bus.h"
#include "store/presence.h"
#include "club.h"
#include "pairing/trf.h"
#include "tournament_json.h"

namespace xq::mm {

namespace json = boost::json;

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

namespace {

// 1 … 2^31 − 1 from the OS's random source (what the web form draws too).
uint64_t fresh_seed() {
  std::random_device os;
  return std::uniform_int_distribution<uint64_t>(1, (uint64_t{1} << 31) - 1)(os);
}

std::string str_field(const json::object& o, const char* k) {
  auto* v = o.if_contains(k);
  if (!v) throw TournamentError("bad_request", std::string("missing string field '") + k + "'");
  if (!v->is_string()) throw TournamentError("bad_request", std::string("field '") + k + "' must be a string");
  return std::string(v->as_string());
}

// An optional text (a reason): absent or null is "".
std::string optional_str_field(const json::object& o, const char* k) {
  const auto* v = o.if_contains(k);
  return !v || v->is_null() ? std::string() : str_field(o, k);
}

int int_field(const json::object& o, const char* k, int def) {
  auto* v = o.if_contains(k);
  if (!v) return def;
  if (!v->is_int64() && !v->is_uint64())
    throw TournamentError("bad_request", std::string("field '") + k + "' must be a whole number");
  const int64_t n = v->is_int64() ? v->as_int64() : static_cast<int64_t>(std::min<uint64_t>(v->as_uint64(), INT32_MAX));
  if (n < INT32_MIN || n > INT32_MAX) throw TournamentError("bad_request", std::string("field '") + k + "' is out of range");
  return static_cast<int>(n);
}

json::value error_reply(const std::string& code, const std::string& message) {
  return json::object{{"ok", false}, {"code", code}, {"message", message}};
}

// Remembers the last command ids applied to an event so a redelivered command is not applied twice.
bool already_applied(Tournament& t, const std::string& id) {
  return std::find(t.applied.begin(), t.applied.end(), id) != t.applied.end();
}
void remember(Tournament& t, const std::string& id) {
  t.applied.push_back(id);
  if (t.applied.size() > 200) t.applied.erase(t.applied.begin());
}

}  // namespace

MatchmakerService::MatchmakerService(gs::Redis& redis, ServiceOptions options) : redis_(redis), options_(std::move(options)) {
  ensure_groups();
}

void MatchmakerService::ensure_groups() {
  for (const auto& stream : {bus::kCommands, bus::kGameResults}) {
    try {
      redis_.command({"XGROUP", "CREATE", stream, bus::kMatchmakerGroup, "0", "MKSTREAM"});
    } catch (const gs::RedisError& e) {
      if (std::string(e.what()).find("BUSYGROUP") == std::string::npos) throw;
    }
  }
}

bool MatchmakerService::load(const std::string& event_id, Tournament& t) {
  gs::RedisReply r = redis_.command({"GET", bus::event(event_id)});
  if (r.type != gs::RedisReply::Type::String) return false;
  t = tournament_from_json(json::parse(r.str));
  return true;
}

// Writes the keys only while this instance holds the leader lease (checked in the same step), so a
// leader that stalled past its lease and wakes up cannot overwrite what the new leader wrote.
static const char* kFencedSetScript = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 2, #KEYS do redis.call('SET', KEYS[i], ARGV[i]) end
return 1
)lua";

bool fenced_set(gs::Redis& redis, const std::string& instance,
                const std::vector<std::pair<std::string, std::string>>& writes) {
  std::vector<std::string> cmd{"EVAL", kFencedSetScript, std::to_string(writes.size() + 1), bus::kLeader};
  for (const auto& w : writes) cmd.push_back(w.first);
  cmd.push_back(instance);
  for (const auto& w : writes) cmd.push_back(w.second);
  return redis.command(cmd).integer == 1;
}

void MatchmakerService::fenced_set(const std::vector<std::pair<std::string, std::string>>& writes) {
  // A Redis error leaves the stream entry unacknowledged: the leader (this one or the next) redoes it.
  if (!xq::mm::fenced_set(redis_, options_.instance, writes))
    throw gs::RedisError("NOT_LEADER: another matchmaker leads now");
}

void MatchmakerService::save(Tournament& t) {
  ++t.version;
  const std::string key = bus::event(t.cfg.id);
  // The state and the views the API serves (derived from it), together.
  std::vector<std::pair<std::string, std::string>> values{
      {key, json::serialize(to_json(t))},
      {key + ":public", json::serialize(public_json(t))},
      {key + ":standings", json::serialize(standings_json(t))},
      {key + ":crosstable", json::serialize(crosstable_json(t))},
      {key + ":trf", pairing::export_trf(t.ev, t.has_playoff || !t.disqualified.empty() ? final_ranking(t) : std::vector<int>{})}};
  // The game servers read this before creating one of the event's games: a request still in the
  // stream when the event was cancelled makes no game.
  if (t.stage == Stage::Cancelled) values.emplace_back(key + ":cancelled", "1");
  fenced_set(values);
}

// The club's record goes, its id leaves the list of clubs and joins the deleted ones, together.
static const char* kFencedClubDeleteScript = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('SREM', KEYS[3], ARGV[2])
redis.call('DEL', KEYS[4])
return 1
)lua";

void MatchmakerService::fenced_delete_club(const std::string& club_id) {
  const gs::RedisReply r = redis_.command({"EVAL", kFencedClubDeleteScript, "4", bus::kLeader, bus::kClubsDeleted, bus::kClubs,
                                           bus::club(club_id), options_.instance, club_id});
  if (r.integer != 1) throw gs::RedisError("NOT_LEADER: another matchmaker leads now");
}

std::vector<std::pair<std::string, std::string>> MatchmakerService::event_public_views() {
  std::vector<std::pair<std::string, std::string>> out;
  const auto ids = redis_.command({"ZRANGE", bus::kEvents, "0", "-1"}).elements;
  constexpr size_t kBatch = 200;  // one MGET per batch: a round trip each, of bounded size
  for (size_t from = 0; from < ids.size(); from += kBatch) {
    std::vector<std::string> mget{"MGET"};
    for (size_t i = from; i < ids.size() && i < from + kBatch; ++i) mget.push_back(bus::event(ids[i].str) + ":public");
    const auto views = redis_.command(mget).elements;
    for (size_t i = 0; i < views.size(); ++i)
      if (views[i].type == gs::RedisReply::Type::String) out.emplace_back(ids[from + i].str, views[i].str);
  }
  return out;
}

bool MatchmakerService::may_organise(const Tournament& t, const json::object& cmd) {
  if (auto* a = cmd.if_contains("admin"); a && a->is_bool() && a->as_bool()) return true;
  auto* u = cmd.if_contains("caller");  // set by the API from the verified session token
  if (!u || !u->is_string()) return false;
  const std::string user(u->as_string());
  if (!t.cfg.organiser.empty() && user == t.cfg.organiser) return true;
  if (t.cfg.club_id.empty()) return false;
  gs::RedisReply r = redis_.command({"GET", bus::club(t.cfg.club_id)});
  if (r.type != gs::RedisReply::Type::String) return false;
  json::value club = json::parse(r.str);  // keep it alive while iterating
  for (const auto& o : club.as_object().at("organisers").as_array())
    if (o.is_string() && o.as_string() == user) return true;
  return false;
}

void MatchmakerService::request_game(const Tournament& t, const GameSlot& slot) {
  auto user = [&](int p) {
    return json::object{{"user_id", t.user_ids.at(p)}, {"name", t.ev.players.at(p).name}};
  };
  json::object spec{{"game_id", slot.game_id},
                     {"event_id", t.cfg.id},
                     {"round", slot.round},
                     {"board", slot.board + 1},
                     {"variant", t.cfg.variant},
                     {"ruleset", t.cfg.ruleset},
                     {"capture_visibility", t.cfg.capture_visibility},
                     {"initial_ms", t.cfg.initial_ms},
                     {"increment_ms", t.cfg.increment_ms},
                     {"no_show_ms", t.cfg.no_show_ms},
                     {"spectator_delay_ms", t.cfg.spectator_delay_ms},
                     {"rated", true},
                     {"red", user(slot.red)},
                     {"black", user(slot.black)}};
  gs::write_rule_options(t.cfg.rule_options, spec);
  redis_.command({"XADD", bus::kGameCreate, "*", "game_id", slot.game_id, "body", json::serialize(spec)});
}

std::set<std::string> MatchmakerService::withdraw_banned_entrants(Tournament& t) {
  if (t.user_ids.empty() || t.stage == Stage::Finished || t.stage == Stage::Cancelled) return {};
  std::vector<std::string> cmd{"SMISMEMBER", gs::keys::kBanned};
  cmd.insert(cmd.end(), t.user_ids.begin(), t.user_ids.end());
  const gs::RedisReply r = redis_.command(cmd);
  std::set<std::string> banned;
  for (size_t i = 0; i < r.elements.size() && i < t.user_ids.size(); ++i)
    if (r.elements[i].integer == 1) banned.insert(t.user_ids[i]);
  if (banned.empty()) return {};
  const Effects fx = withdraw_banned(t, [&](const std::string& u) { return banned.count(u) > 0; });
  if (fx.notices.empty()) return {};  // out already
  // Stored and told at once: whatever comes next may fail, and must not take the withdrawal back.
  save(t);
  publish_effects(t, fx);
  return banned;
}

void MatchmakerService::publish_effects(const Tournament& t, const Effects& fx) {
  for (const auto& slot : fx.create) request_game(t, slot);
  for (const auto& slot : fx.create) {
    json::object n{{"event_id", t.cfg.id}, {"kind", "game_ready"}, {"game_id", slot.game_id},
                   {"users", json::array{json::string(t.user_ids.at(slot.red)), json::string(t.user_ids.at(slot.black))}}};
    redis_.command({"PUBLISH", bus::kNotify, json::serialize(n)});
  }
  for (const Notice& notice : fx.notices) {
    json::object params;
    for (const auto& [name, value] : notice.params) params[name] = value;
    json::object n{{"event_id", t.cfg.id}, {"kind", "notice"}, {"code", notice.code}, {"params", std::move(params)}, {"text", notice.text}};
    redis_.command({"PUBLISH", bus::kNotify, json::serialize(n)});
  }
}

json::value MatchmakerService::handle_command(const std::string& command_id, const json::value& body) {
  try {
    if (!body.is_object()) return error_reply("bad_request", "a command is a JSON object");
    const auto& o = body.as_object();
    const std::string cmd = str_field(o, "cmd");
    if (cmd == "create_event") {
      // A pairing setting at the top level would be silently left at its default (an organiser's
      // {"rounds": 5} gave a 7-round event): refused, with where it belongs.
      static const std::set<std::string> kPairingKeys = {
          "rounds", "games_per_round", "tiebreaks", "tiebreak_preset", "seed", "win_points", "draw_points",
          "loss_points", "round1", "bye_opp", "max_forfeits", "forbidden", "absent_as_bye", "forfeit_counts_as_met",
          "forfeit_opp_as_bye", "forfeit_win_counts_as_win", "bye_counts_as_win", "colour_rules_hard",
          "bye_blocked_by_forfeit_win", "relax_colour_last_round_topscorers"};
      if (o.at("event").is_object())
        for (const auto& kv : o.at("event").as_object())
          if (kPairingKeys.count(std::string(kv.key())))
            return error_reply("bad_request", "'" + std::string(kv.key()) + "' is a pairing setting: put it in \"pairing\" ({\"pairing\": {\"" +
                                                  std::string(kv.key()) + "\": …}})");
      refuse_unknown_settings(o.at("event"));
      EventConfig cfg = config_from_json(o.at("event"));
      if (o.contains("caller")) cfg.organiser = str_field(o, "caller");
      // No seed given: a fresh one, kept in the settings and the TRF. The default 0 would give every
      // event the same pairing numbers for the same registration order, which an entrant could
      // play by choosing when to join.
      const auto* given = o.at("event").as_object().if_contains("pairing");
      if (!given || !given->is_object() || !given->as_object().contains("seed")) cfg.pairing.seed = fresh_seed();
      if (!cfg.club_id.empty() && redis_.command({"EXISTS", bus::club(cfg.club_id)}).integer == 0)
        return error_reply("unknown_club", "no club '" + cfg.club_id + "'");
      if (!cfg.club_id.empty()) {
        Tournament probe;
        probe.cfg.club_id = cfg.club_id;
        if (!may_organise(probe, o)) return error_reply("forbidden", "only the club's organisers create its events");
      }
      Tournament t = create_tournament(cfg);  // validates the settings
      // Listed before the record is written (the list skips ids without a record): a creation cut
      // short after the record was written, and redone when the command comes again, would
      // otherwise stay unlisted.
      redis_.command({"ZADD", bus::kEvents, "NX", std::to_string(now_ms()), cfg.id});
      Tournament existing;
      if (load(cfg.id, existing)) {
        if (already_applied(existing, command_id)) return json::object{{"ok", true}, {"event_id", cfg.id}};
        return error_reply("exists", "an event with id '" + cfg.id + "' exists");
      }
      remember(t, command_id);
      save(t);
      return json::object{{"ok", true}, {"event_id", cfg.id}};
    }
    if (cmd == "pool_join" || cmd == "pool_leave") {
      const std::string pool = str_field(o, "pool"), user = str_field(o, "user_id");
      if (cmd == "pool_leave") {
        redis_.command({"HDEL", bus::pool(pool), user});
        return json::object{{"ok", true}};
      }
      // Just paired: the game may not be live on any node yet, where the API looks for it.
      if (redis_.command({"EXISTS", bus::pool_paired(user)}).integer == 1)
        return error_reply("in_live_game", "finish your game first: you were just paired from a pool");
      json::object entry{{"rating", int_field(o, "rating", 1500)}, {"joined_ms", now_ms()},
                         {"name", o.contains("name") ? o.at("name") : json::value(user)}};
      redis_.command({"SADD", bus::kPools, pool});
      redis_.command({"HSETNX", bus::pool(pool), user, json::serialize(entry)});
      return json::object{{"ok", true}};
    }
    if (cmd == "create_club" || cmd == "club_add_member" || cmd == "club_add_organiser" || cmd == "club_remove_member" ||
        cmd == "club_remove_organiser" || cmd == "club_rename" || cmd == "club_delete") {
      const std::string club_id = str_field(o, "club_id");
      gs::RedisReply r = redis_.command({"GET", bus::club(club_id)});
      json::object club;
      if (r.type == gs::RedisReply::Type::String) club = json::parse(r.str).as_object();
      else if (cmd != "create_club") return error_reply("unknown_club", "no club '" + club_id + "'");
      if (cmd != "create_club") {
        Tournament probe;
        probe.cfg.club_id = club_id;
        if (!may_organise(probe, o)) return error_reply("forbidden", "only the club's organisers may do that");
      }
      if (cmd == "club_rename") {
        // The rule of a club's name at creation; events name their club by id, so they show the new name.
        const std::string name = str_field(o, "name");
        if (!valid_display_name(name)) return error_reply("bad_request", "name: 1..100 bytes, not blank, no control characters");
        club["name"] = name;
      } else if (cmd == "club_delete") {
        // Refused while an event of the club is not over: running it and joining it (members
        // only) need the club. Finished and cancelled events stay, readable, naming a club that
        // is gone; their creator and the admin still correct them, the club's organisers no
        // longer do (the id is never given to a new club: its organisers would take them over).
        const std::string why = club_deletion_refusal(events_blocking_club_deletion(club_id, event_public_views()));
        if (!why.empty()) return error_reply("bad_state", why);
        fenced_delete_club(club_id);
        return json::object{{"ok", true}};
      } else if (cmd == "create_club") {
        if (!club.empty()) return error_reply("exists", "a club with id '" + club_id + "' exists");
        if (redis_.command({"SISMEMBER", bus::kClubsDeleted, club_id}).integer == 1)
          return error_reply("exists", "a club with id '" + club_id + "' existed and was deleted: its events still name it, so choose another id");
        // Its creator organises it; a club made with the operator's admin token starts with none
        // (the admin adds them: club_add_organiser).
        json::array organisers;
        if (o.contains("caller")) organisers.push_back(json::value(str_field(o, "caller")));
        else if (!may_organise(Tournament{}, o)) return error_reply("forbidden", "creating a club needs a signed-in organiser or the admin");
        const std::string name = o.contains("name") ? str_field(o, "name") : club_id;
        if (!valid_display_name(name)) return error_reply("bad_request", "name: 1..100 bytes, not blank, no control characters");
        club = {{"id", club_id}, {"name", name}, {"organisers", organisers}, {"members", json::array{}}};
        redis_.command({"SADD", bus::kClubs, club_id});
      } else {
        const bool members = cmd == "club_add_member" || cmd == "club_remove_member";
        auto& list = club[members ? "members" : "organisers"].as_array();
        json::value u(str_field(o, "user_id"));
        const auto at = std::find(list.begin(), list.end(), u);
        if (cmd.rfind("club_add_", 0) == 0) {
          if (at == list.end()) list.push_back(u);
        } else {
          if (at == list.end()) return error_reply("unknown_user", std::string("not one of the club's ") + (members ? "members" : "organisers"));
          // Someone must be able to run it (and add organisers again).
          if (!members && list.size() == 1) return error_reply("bad_state", "a club keeps at least one organiser: add another first");
          list.erase(at);
        }
      }
      fenced_set({{bus::club(club_id), json::serialize(club)}});
      return json::object{{"ok", true}};
    }

    // Commands on an existing event.
    const std::string event_id = str_field(o, "event_id");
    Tournament t;
    if (!load(event_id, t)) return error_reply("unknown_event", "no event '" + event_id + "'");
    if (already_applied(t, command_id)) return json::object{{"ok", true}, {"duplicate", true}};
    const std::set<std::string> banned_now = withdraw_banned_entrants(t);
    if (cmd == "authorize_adjudication") {
      // Asks only: the API ends the game on its node, and the result comes back as any game's.
      if (!may_organise(t, o)) return error_reply("forbidden", "only the event's organisers adjudicate its games");
      const std::string game_id = str_field(o, "game_id");
      const auto slot = std::find_if(t.games.begin(), t.games.end(), [&](const GameSlot& s) { return s.game_id == game_id; });
      if (slot == t.games.end()) return error_reply("unknown_game", "game " + game_id + " is not part of this event");
      if (slot->finished) return error_reply("bad_state", "the game has ended: correct its result instead");
      return json::object{{"ok", true}};
    }
    Effects fx;
    static const std::set<std::string> kOrganiserCommands = {"start", "pair_round", "start_round", "repair", "pause",
                                                            "resume", "edit_pairing", "correct_result", "record_foul",
                                                            "cancel_event", "forbid", "update_settings"};
    if (kOrganiserCommands.count(cmd) && !may_organise(t, o))
      return error_reply("forbidden", "only the event's organisers may do that");
    if (cmd == "join") {
      // A player registers themselves; registering another (an account, by name) is the organiser's,
      // who needs no join code: they hand the code out.
      const auto* caller = o.if_contains("caller");
      const bool self = caller && caller->is_string() && caller->as_string() == str_field(o, "user_id");
      if (!self && !may_organise(t, o)) return error_reply("forbidden", "only the event's organisers register other players");
      // Registered by account name (the API looked it up): told only now, to an organiser.
      if (o.contains("account_status") && str_field(o, "account_status") != "ok") {
        const std::string account = o.contains("account") ? str_field(o, "account") : "";
        if (str_field(o, "account_status") == "banned") return error_reply("banned", "the account '" + account + "' is banned");
        return error_reply("unknown_user", "no account named '" + account + "'");
      }
      if (t.cfg.access == "members") {
        gs::RedisReply r = redis_.command({"GET", bus::club(t.cfg.club_id)});
        bool member = false;
        if (r.type == gs::RedisReply::Type::String) {
          auto club = json::parse(r.str).as_object();
          json::value u(str_field(o, "user_id"));
          for (const char* k : {"members", "organisers"})
            for (const auto& m : club.at(k).as_array()) member = member || m == u;
        }
        if (!member) return error_reply("not_member", "this event is open to club members only");
      }
      const int rating = int_field(o, "rating", 1500);
      if (rating < 0 || rating > 5000) return error_reply("bad_request", "rating: 0..5000");
      fx = join(t, str_field(o, "user_id"), o.contains("name") ? str_field(o, "name") : str_field(o, "user_id"), rating,
                !self ? t.cfg.join_code : o.contains("join_code") ? str_field(o, "join_code") : "");
    } else if (cmd == "withdraw") {
      // A player withdraws themselves; withdrawing another is the organiser's.
      const auto* caller = o.if_contains("caller");
      const bool self = caller && caller->is_string() && caller->as_string() == str_field(o, "user_id");
      if (!self && !may_organise(t, o)) return error_reply("forbidden", "only the event's organisers withdraw other players");
      if (banned_now.count(str_field(o, "user_id"))) return json::object{{"ok", true}, {"warnings", json::array{}}};  // done just now
      fx = withdraw(t, str_field(o, "user_id"));
    } else if (cmd == "reinstate") {
      if (!may_organise(t, o)) return error_reply("forbidden", "only the event's organisers reinstate players");
      // A banned entrant would be withdrawn again by the next command: refused, with what to do.
      if (redis_.command({"SISMEMBER", gs::keys::kBanned, str_field(o, "user_id")}).integer == 1)
        return error_reply("banned", "the player's account is banned: an admin unbans it first");
      fx = reinstate(t, str_field(o, "user_id"));
    } else if (cmd == "warn") {
      if (!may_organise(t, o)) return error_reply("forbidden", "only the event's organisers warn players");
      fx = warn(t, str_field(o, "user_id"), optional_str_field(o, "reason"));
    } else if (cmd == "disqualify") {
      if (!may_organise(t, o)) return error_reply("forbidden", "only the event's organisers disqualify players");
      fx = disqualify(t, str_field(o, "user_id"), optional_str_field(o, "reason"));
    } else if (cmd == "start") {
      fx = start(t);
    } else if (cmd == "pair_round") {
      const auto* allow = o.if_contains("allow_rematches");
      if (allow && !allow->is_bool()) return error_reply("bad_request", "allow_rematches must be true or false");
      fx = pair_next_round(t, allow && allow->as_bool());
    } else if (cmd == "start_round") {
      fx = start_round(t);
    } else if (cmd == "repair") {
      fx = repair(t);
    } else if (cmd == "pause") {
      fx = pause(t, optional_str_field(o, "reason"));
    } else if (cmd == "resume") {
      fx = resume(t);
    } else if (cmd == "edit_pairing") {
      // Said in the organiser's terms, not the JSON library's ("not exact"); an id past int's range
      // was cut to another player's.
      const char* shape = "'boards' is a list of [player, player] pairs of player ids (whole numbers; -2 for a bye), e.g. [[0, 3], [5, -2]]";
      const auto* list = o.if_contains("boards");
      if (!list || !list->is_array()) throw TournamentError("bad_request", shape);
      std::vector<std::pair<int, int>> boards;
      for (const auto& b : list->as_array()) {
        const json::array* pair = b.if_array();
        if (!pair || pair->size() != 2) throw TournamentError("bad_request", shape);
        int ids[2];
        for (int i = 0; i < 2; ++i) {
          const json::value& id = (*pair)[i];
          if (!id.is_int64() || id.as_int64() < -2 || id.as_int64() > 100000) throw TournamentError("bad_request", shape);
          ids[i] = static_cast<int>(id.as_int64());
        }
        boards.emplace_back(ids[0], ids[1]);
      }
      fx = edit_pairing(t, boards);
    } else if (cmd == "correct_result") {
      // Both points are required (a missing one used to read as 0: a silent double forfeit), and
      // read in order so that an error names the first bad field.
      for (const char* k : {"red_points", "black_points"})
        if (!o.contains(k)) throw TournamentError("bad_request", std::string("field '") + k + "' is required");
      const int red_points = int_field(o, "red_points", 0);
      const int black_points = int_field(o, "black_points", 0);
      fx = correct_result(t, str_field(o, "game_id"), red_points, black_points);
    } else if (cmd == "record_foul") {
      fx = record_foul(t, str_field(o, "game_id"), str_field(o, "side"));
    } else if (cmd == "forbid") {
      const char* what = "'pairs' is a list of pairs of user ids, e.g. [[\"u-…\", \"u-…\"]]";
      const auto* list = o.if_contains("pairs");
      if (!list || !list->is_array() || list->as_array().empty()) throw TournamentError("bad_request", what);
      std::vector<std::pair<std::string, std::string>> users;
      for (const auto& pr : list->as_array()) {
        const json::array* a = pr.if_array();
        if (!a || a->size() != 2 || !(*a)[0].is_string() || !(*a)[1].is_string()) throw TournamentError("bad_request", what);
        users.emplace_back(std::string((*a)[0].as_string()), std::string((*a)[1].as_string()));
      }
      fx = forbid_pairs(t, users);
    } else if (cmd == "update_settings") {
      const auto* changes = o.if_contains("settings");
      if (!changes) throw TournamentError("bad_request", "no settings to change");
      fx = update_settings(t, config_with_changes(t.cfg, *changes));
    } else if (cmd == "cancel_event") {
      fx = cancel(t, optional_str_field(o, "reason"));
    } else {
      return error_reply("unknown_command", "unknown command '" + cmd + "'");
    }
    remember(t, command_id);
    save(t);  // durable before anything is announced
    publish_effects(t, fx);
    json::array warnings, end_games;
    for (auto& w : fx.warnings) warnings.push_back(json::string(w));
    for (auto& g : fx.end) end_games.push_back(json::string(g));
    json::object reply{{"ok", true}, {"warnings", warnings}};
    if (!end_games.empty()) reply["end_games"] = end_games;  // the API ends them on the game servers
    json::array decide_games;
    for (auto& d : fx.decide)
      decide_games.push_back(json::object{{"game_id", d.game_id}, {"outcome", d.outcome}, {"reason", d.reason}});
    if (!decide_games.empty()) reply["decide_games"] = decide_games;  // likewise, with a result
    return reply;
  } catch (const TournamentError& e) {
    return error_reply(e.code, e.what());
  } catch (const boost::system::system_error& e) {  // Boost.JSON: a field of the wrong type or missing
    return error_reply("bad_request", "malformed request: " + e.code().message());
  } catch (const std::exception& e) {
    return error_reply("bad_request", e.what());
  }
}

void MatchmakerService::handle_result(const std::string& game_id, const json::value& body) {
  const auto& o = body.as_object();
  const std::string event_id = str_field(o, "event_id");
  Tournament t;
  if (!load(event_id, t)) {
    std::cerr << "matchmaker: result for unknown event " << event_id << "\n";
    return;
  }
  const std::string outcome = str_field(o, "outcome");
  const std::string reason = optional_str_field(o, "reason");
  const ScoredEnd end = score_game_end(t.ev.settings, outcome, reason, int_field(o, "plies", 0));
  withdraw_banned_entrants(t);
  Effects fx = record_result(t, game_id, end.red_points, end.black_points, end.forfeit, int_field(o, "red_fouls", 0),
                             int_field(o, "black_fouls", 0), reason);
  save(t);
  publish_effects(t, fx);
  json::object n{{"event_id", t.cfg.id}, {"kind", "standings"}, {"text", "standings changed"}};
  redis_.command({"PUBLISH", bus::kNotify, json::serialize(n)});
}

// An entry still pending after this many deliveries crashed the matchmaker each time it was
// handled (an exception is answered and acknowledged): it is dropped, or every restart would crash
// on it again and the whole service would stay down. A Redis error while handling an entry also
// leaves it pending (a game's result among them, which must not be lost), so the bound leaves
// room for several of those.
constexpr int64_t kMaxDeliveries = 8;

void MatchmakerService::handle_stream_entries(const gs::RedisReply& reply, bool& any,
                                              const std::map<std::string, int64_t>& delivered) {
  // XREADGROUP reply: [[stream, [[id, [k, v, …]], …]], …]
  for (const auto& stream : reply.elements) {
    if (stream.elements.size() < 2) continue;
    const std::string& name = stream.elements[0].str;
    for (const auto& entry : stream.elements[1].elements) {
      if (entry.elements.size() < 2) continue;
      const std::string& entry_id = entry.elements[0].str;
      std::string id, body, game_id;
      const auto& kv = entry.elements[1].elements;
      for (size_t i = 0; i + 1 < kv.size(); i += 2) {
        if (kv[i].str == "id") id = kv[i + 1].str;
        else if (kv[i].str == "body") body = kv[i + 1].str;
        else if (kv[i].str == "game_id") game_id = kv[i + 1].str;
      }
      any = true;
      if (auto d = delivered.find(entry_id); d != delivered.end() && d->second > kMaxDeliveries) {
        std::cerr << "matchmaker: dropping entry " << entry_id << " on " << name << " unhandled: delivered "
                  << d->second << " times, it crashed the matchmaker each time: " << body << "\n";
        if (name == bus::kCommands && !id.empty()) {
          redis_.command({"RPUSH", bus::reply(id), json::serialize(error_reply("failed", "the tournament service failed on this request and dropped it"))});
          redis_.command({"EXPIRE", bus::reply(id), "60"});
        }
        redis_.command({"XACK", name, bus::kMatchmakerGroup, entry_id});
        continue;
      }
      try {
        if (name == bus::kCommands) {
          json::value parsed;
          boost::system::error_code ec;
          parsed = json::parse(body, ec);
          json::value answer = ec ? error_reply("bad_request", "command body is not JSON") : handle_command(id, parsed);
          if (!id.empty()) {
            redis_.command({"RPUSH", bus::reply(id), json::serialize(answer)});
            redis_.command({"EXPIRE", bus::reply(id), "60"});
          }
        } else {
          handle_result(game_id, json::parse(body));
        }
      } catch (const gs::RedisError&) {
        throw;  // leave the entry pending; it is handled again after Redis comes back
      } catch (const std::exception& e) {
        std::cerr << "matchmaker: dropping bad entry " << entry_id << " on " << name << ": " << e.what() << "\n";
      } catch (...) {
        std::cerr << "matchmaker: dropping bad entry " << entry_id << " on " << name << "\n";
      }
      redis_.command({"XACK", name, bus::kMatchmakerGroup, entry_id});
    }
  }
}

// Entries a previous leader read and never acknowledged (it crashed) stay pending under its consumer
// name, which differs per host, and poll() re-reads only this consumer's: they would never be
// handled. Only the leader handles entries, so on becoming it this one takes every pending entry of
// the group. JUSTID leaves their delivery counts as they were (poll's re-read adds one), so an
// entry that crashed the old leader each time still counts towards kMaxDeliveries.
void MatchmakerService::claim_pending() {
  for (const auto& stream : {bus::kCommands, bus::kGameResults}) {
    std::string cursor = "0-0";
    do {
      // XAUTOCLAIM reply: [next cursor, [claimed ids], [ids no longer in the stream]]
      gs::RedisReply r = redis_.command({"XAUTOCLAIM", stream, bus::kMatchmakerGroup, options_.consumer, "0", cursor,
                                         "COUNT", "100", "JUSTID"});
      if (r.elements.empty()) break;
      cursor = r.elements[0].str;
    } while (cursor != "0-0");
  }
}

void MatchmakerService::poll(int block_ms) {
  bool any = false;
  // Entries delivered to this consumer (or taken over from a crashed leader: claim_pending) and
  // never acknowledged come first. Reading them counts as a delivery, so the counts read after it
  // include this one.
  gs::RedisReply pending = redis_.command({"XREADGROUP", "GROUP", bus::kMatchmakerGroup, options_.consumer, "COUNT", "100",
                                           "STREAMS", bus::kCommands, bus::kGameResults, "0", "0"});
  std::map<std::string, int64_t> delivered;
  for (const auto& stream : pending.elements) {
    if (stream.elements.size() < 2 || stream.elements[1].elements.empty()) continue;
    // XPENDING stream group - + count consumer: [[id, consumer, idle ms, deliveries], …]
    gs::RedisReply counts = redis_.command({"XPENDING", stream.elements[0].str, bus::kMatchmakerGroup, "-", "+", "100",
                                            options_.consumer});
    for (const auto& e : counts.elements)
      if (e.elements.size() >= 4) delivered[e.elements[0].str] = e.elements[3].integer;
  }
  handle_stream_entries(pending, any, delivered);
  if (any) return;
  gs::RedisReply fresh = redis_.command({"XREADGROUP", "GROUP", bus::kMatchmakerGroup, options_.consumer, "COUNT", "100",
                                         "BLOCK", std::to_string(block_ms), "STREAMS", bus::kCommands,
                                         bus::kGameResults, ">", ">"});
  handle_stream_entries(fresh, any);
}

void MatchmakerService::run_pools(int64_t now) {
  gs::RedisReply pools = redis_.command({"SMEMBERS", bus::kPools});
  std::map<std::string, int64_t> still_offline;
  for (const auto& p : pools.elements) {
    const std::string& name = p.str;
    gs::RedisReply all = redis_.command({"HGETALL", bus::pool(name)});
    std::vector<PoolEntry> waiting;
    std::map<std::string, std::string> names;
    for (size_t i = 0; i + 1 < all.elements.size(); i += 2) {
      json::value v = json::parse(all.elements[i + 1].str);
      const auto& o = v.as_object();
      waiting.push_back({all.elements[i].str, int_field(o, "rating", 1500), o.at("joined_ms").to_number<int64_t>()});
      names[all.elements[i].str] = o.contains("name") && o.at("name").is_string() ? std::string(o.at("name").as_string()) : all.elements[i].str;
    }
    // Only players connected to a game server are paired (a closed page would otherwise be paired,
    // its partner left to claim the game); one gone longer than the grace leaves the pool.
    const std::set<std::string> online = gs::Presence::online(redis_, names);
    std::vector<PoolEntry> entries;
    for (const PoolEntry& e : waiting) {
      if (online.count(e.user_id)) {
        entries.push_back(e);
        continue;
      }
      const std::string key = name + "|" + e.user_id;
      auto seen = offline_since_.find(key);
      const int64_t since = seen == offline_since_.end() ? now : seen->second;
      if (now - since >= options_.pool_offline_grace_ms) {
        redis_.command({"HDEL", bus::pool(name), e.user_id});
        std::cerr << "matchmaker: " << e.user_id << " left pool " << name << " (not connected)\n";
      } else {
        still_offline[key] = since;
      }
    }
    if (!entries.empty()) {  // pairs whose last pool game was aborted wait for others
      std::vector<std::string> mget{"MGET"};
      for (const PoolEntry& e : entries) mget.push_back(bus::pool_avoid(e.user_id));
      gs::RedisReply avoid = redis_.command(mget);
      for (size_t i = 0; i < entries.size() && i < avoid.elements.size(); ++i) entries[i].avoid = avoid.elements[i].str;
    }
    // Pool name: "<variant>:<initial_ms>+<increment_ms>".
    auto colon = name.find(':'), plus = name.find('+');
    if (colon == std::string::npos || plus == std::string::npos) continue;
    const std::string variant = name.substr(0, colon);
    for (PoolPair pair : match_pool(entries, now, options_.pool_policy)) {
      // Random, 64 bits: an id made from the time and the players' hash gave two pairs of one pass
      // the same game (one in ~200,000 pairs of a pass; review, 2026-12-04), and the second pair
      // lost its place in the pools and was sent to the first pair's game.
      std::random_device os;
      const uint64_t draw = (uint64_t{os()} << 32) | os();
      char hex[17];
      std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(draw));
      const std::string game_id = std::string("q") + hex;
      // Colours by lot: "the one who waited longer plays red" let a player who joined first (and
      // kept its place) play red game after game (review, 2026-12-04).
      if (os() & 1) std::swap(pair.red, pair.black);
      json::object spec{{"game_id", game_id},
                        {"variant", variant},
                        {"ruleset", "cxa"},
                        {"initial_ms", std::stoll(name.substr(colon + 1, plus - colon - 1))},
                        {"increment_ms", std::stoll(name.substr(plus + 1))},
                        {"rated", true},
                        {"pool", name},
                        {"red", json::object{{"user_id", pair.red}, {"name", names[pair.red]}}},
                        {"black", json::object{{"user_id", pair.black}, {"name", names[pair.black]}}}};
      if (!take_pool_pair(redis_, name, pair.red, pair.black, game_id, json::serialize(spec))) continue;
      json::object n{{"kind", "game_ready"}, {"game_id", game_id}, {"pool", name},
                     {"users", json::array{json::string(pair.red), json::string(pair.black)}}};
      redis_.command({"PUBLISH", bus::kNotify, json::serialize(n)});
    }
  }
  offline_since_ = std::move(still_offline);
}

// Both players leave the pool and their game is requested in one step: a player who left the pool
// meanwhile keeps the other one waiting in it (taking them one by one dropped the other from the
// pool without a game), and a crash between the two steps cannot lose both.
// Both also leave every other pool they wait in, in the same step: a player waiting in two pools
// was otherwise paired in both by one pass (review, 2026-12-04), before the game server, which
// takes a player whose game starts out of the pools, had started the first game. The other pools'
// keys are built from the pool set (KEYS[3]) and ARGV[5], their prefix (all under one hash tag).
// Both are marked as just paired (KEYS[4], KEYS[5]: bus::pool_paired) until their game ends.
static const char* kTakePairScript = R"lua(
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1], ARGV[2])
for _, name in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  redis.call('HDEL', ARGV[5] .. name, ARGV[1], ARGV[2])
end
redis.call('XADD', KEYS[2], '*', 'game_id', ARGV[3], 'body', ARGV[4])
redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[6])
redis.call('SET', KEYS[5], ARGV[3], 'PX', ARGV[6])
return 1
)lua";

bool take_pool_pair(gs::Redis& redis, const std::string& pool, const std::string& red, const std::string& black,
                    const std::string& game_id, const std::string& spec) {
  return redis.command({"EVAL", kTakePairScript, "5", bus::pool(pool), bus::kGameCreate, bus::kPools, bus::pool_paired(red),
                        bus::pool_paired(black), red, black, game_id, spec, bus::pool(""), std::to_string(bus::kPoolPairedMs)})
             .integer == 1;
}

void MatchmakerService::start_due_events(int64_t now) {
  gs::RedisReply ids = redis_.command({"ZRANGE", bus::kEvents, "0", "-1"});
  for (const auto& id : ids.elements) {
    Tournament t;
    if (!load(id.str, t) || !due_to_start(t, now)) continue;
    try {
      withdraw_banned_entrants(t);
      if (!due_to_start(t, now)) continue;  // too few entrants left: it waits, as with one entrant
      Effects fx = start(t);
      save(t);
      publish_effects(t, fx);
    } catch (const TournamentError& e) {
      std::cerr << "matchmaker: event " << id.str << " could not start at its start time: " << e.what() << "\n";
    }
  }
}

void MatchmakerService::reconcile() {
  gs::RedisReply ids = redis_.command({"ZRANGE", bus::kEvents, "0", "-1"});
  for (const auto& id : ids.elements) {
    Tournament t;
    if (!load(id.str, t) || t.stage != Stage::Running) continue;
    for (const auto& slot : t.games) {
      if (slot.finished) continue;
      gs::RedisReply exists = redis_.command({"EXISTS", "{xq}:game:" + slot.game_id + ":meta"});
      if (exists.integer == 0) request_game(t, slot);  // creation is idempotent on the game server
    }
  }
}

// Tournament records are read, changed and written back, and due events are started by whoever
// sees them first: two matchmakers acting at once (a second replica, or a rolling update's overlap)
// could pair a round twice. So one instance leads under a lease in Redis and the others wait.
static const char* kLeaseScript = R"lua(
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0
)lua";
static const char* kReleaseScript = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
)lua";

bool MatchmakerService::hold_lease() {
  return redis_.command({"EVAL", kLeaseScript, "1", bus::kLeader, options_.instance, std::to_string(options_.lease_ms)})
             .integer == 1;
}

void MatchmakerService::release_lease() {
  try {
    redis_.command({"EVAL", kReleaseScript, "1", bus::kLeader, options_.instance});
  } catch (const std::exception&) {
  }
}

void MatchmakerService::run(const std::atomic<bool>& stop) {
  bool reconciled = false;
  std::optional<bool> leading;
  while (!stop.load()) {
    try {
      // Renewed every pass (a pass blocks at most 500 ms), so the lease outlives a pass many times.
      const bool lead = hold_lease();
      if (lead != leading) {
        std::cerr << (lead ? "matchmaker: leading\n" : "matchmaker: standby (another matchmaker leads)\n");
        leading = lead;
        reconciled = false;
      }
      if (!lead) {
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min<int64_t>(500, options_.lease_ms / 4)));
        continue;
      }
      if (!reconciled) {
        claim_pending();
        reconcile();
        reconciled = true;
      }
      poll(500);
      int64_t now = now_ms();
      if (now - last_pool_run_ms_ >= options_.pool_interval_ms) {
        run_pools(now);
        start_due_events(now);
        last_pool_run_ms_ = now;
      }
    } catch (const gs::RedisError& e) {
      std::cerr << "matchmaker: redis error: " << e.what() << "; retrying\n";
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      reconciled = false;
      try {
        ensure_groups();
      } catch (const std::exception&) {
      }
    }
  }
  if (leading == true) release_lease();  // a clean stop: a standby takes over at once
}

}  // namespace xq::mm
