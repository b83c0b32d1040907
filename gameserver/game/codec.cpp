#include "game/codec.h"

#include <boost/json.hpp>
#include <stdexcept>

#include "rules/fen.h"
#include "rules/view.h"

namespace json = boost::json;

namespace gs {
namespace {

json::object player_json(const PlayerInfo& p) {
  json::object o{{"user_id", p.user_id}, {"name", p.name}, {"guest", p.guest}, {"rating", p.rating}};
  if (p.bot) o["bot"] = true;
  return o;
}
PlayerInfo player_from(const json::value& v) {
  auto& o = v.as_object();
  PlayerInfo p{json::value_to<std::string>(o.at("user_id")), json::value_to<std::string>(o.at("name")),
               o.at("guest").as_bool()};
  if (auto it = o.find("rating"); it != o.end()) p.rating = static_cast<int>(it->value().to_number<int64_t>());
  if (auto it = o.find("bot"); it != o.end()) p.bot = it->value().as_bool();
  return p;
}
std::string str(const json::object& o, const char* k) {
  auto it = o.find(k);
  return it == o.end() ? std::string() : json::value_to<std::string>(it->value());
}
int64_t num(const json::object& o, const char* k) {
  auto it = o.find(k);
  return it == o.end() ? 0 : it->value().to_number<int64_t>();
}

}  // namespace

std::string encode_chat(const ChatEntry& e) {
  return json::serialize(json::object{{"room", e.room == ChatRoom::Players ? "players" : "spectators"},
                                      {"user_id", e.user_id}, {"name", e.name}, {"text", e.text},
                                      {"at_ms", e.at_ms}, {"seq", e.seq}});
}

ChatEntry decode_chat(const std::string& text) {
  const json::value v = json::parse(text);
  const auto& o = v.as_object();
  ChatEntry e;
  e.room = o.at("room").as_string() == "players" ? ChatRoom::Players : ChatRoom::Spectators;
  e.user_id = std::string(o.at("user_id").as_string());
  e.name = std::string(o.at("name").as_string());
  e.text = std::string(o.at("text").as_string());
  e.at_ms = o.at("at_ms").to_number<int64_t>();
  e.seq = o.at("seq").to_number<uint64_t>();
  return e;
}

std::string encode_config(const GameConfig& c) {
  json::object o{{"id", c.id},
                 {"variant", c.variant == xq::Variant::Jieqi ? "jieqi" : "xiangqi"},
                 {"ruleset", c.ruleset},
                 {"capture_visibility", c.capture_visibility},
                 {"initial_ms", c.tc.initial_ms},
                 {"increment_ms", c.tc.increment_ms},
                 {"red", player_json(c.red)},
                 {"black", player_json(c.black)},
                 {"assignment", c.assignment},
                 {"salt", c.salt},
                 {"commitment", c.commitment},
                 {"created_at_ms", c.created_at_ms},
                 {"event_id", c.event_id},
                 {"round", c.round},
                 {"board", c.board},
                 {"no_show_ms", c.no_show_ms},
                 {"first_move_ms", c.first_move_ms},
                 {"rated", c.rated},
                 {"spectator_delay_ms", c.spectator_delay_ms}};
  if (!c.pool.empty()) o["pool"] = c.pool;
  write_rule_options(c.options, o);
  return json::serialize(o);
}

GameConfig decode_config(const std::string& text) {
  auto v = json::parse(text);
  auto& o = v.as_object();
  GameConfig c;
  c.id = str(o, "id");
  c.variant = str(o, "variant") == "jieqi" ? xq::Variant::Jieqi : xq::Variant::Xiangqi;
  c.ruleset = str(o, "ruleset");
  c.capture_visibility = str(o, "capture_visibility");
  c.options = read_rule_options(o);
  c.tc.initial_ms = num(o, "initial_ms");
  c.tc.increment_ms = num(o, "increment_ms");
  c.red = player_from(o.at("red"));
  c.black = player_from(o.at("black"));
  c.assignment = str(o, "assignment");
  c.salt = str(o, "salt");
  c.commitment = str(o, "commitment");
  c.created_at_ms = num(o, "created_at_ms");
  if (o.contains("event_id")) c.event_id = str(o, "event_id");
  c.round = static_cast<int>(num(o, "round"));
  c.board = static_cast<int>(num(o, "board"));
  c.no_show_ms = num(o, "no_show_ms");
  // Games stored before these fields have none.
  if (o.contains("first_move_ms")) c.first_move_ms = num(o, "first_move_ms");
  if (o.contains("pool")) c.pool = str(o, "pool");
  c.spectator_delay_ms = num(o, "spectator_delay_ms");
  if (auto it = o.find("rated"); it != o.end() && it->value().is_bool()) c.rated = it->value().as_bool();
  return c;
}

static const char* kind_name(EventKind k) {
  switch (k) {
    case EventKind::Move: return "move";
    case EventKind::DrawOffered: return "draw_offered";
    case EventKind::DrawDeclined: return "draw_declined";
    case EventKind::MoveLimitRequested: return "move_limit_requested";
    case EventKind::Ended: return "ended";
    case EventKind::TakebackProposed: return "takeback_proposed";
    case EventKind::TakebackDeclined: return "takeback_declined";
    case EventKind::TakenBack: return "taken_back";
    case EventKind::TimeGiven: return "time_given";
  }
  return "?";
}

std::string encode_event(const GameEvent& e) {
  json::object o{{"v", e.version},
                 {"k", kind_name(e.kind)},
                 {"side", e.side == xq::Color::Red ? "red" : "black"},
                 {"red_ms", e.red_ms},
                 {"black_ms", e.black_ms},
                 {"at", e.at_ms}};
  if (e.kind == EventKind::Move) {
    o["iccs"] = e.iccs;
    o["cmid"] = e.client_move_id;
    o["lag"] = e.lag_ms;
  }
  if (e.kind == EventKind::Ended) {
    o["outcome"] = xq::outcome_name(e.outcome);
    o["reason"] = e.reason;
  }
  if (e.by_arbiter) o["arbiter"] = true;
  if (e.aborted_by) o["aborted_by"] = true;
  if (e.one_side) o["one_side"] = true;
  if (e.kind == EventKind::TakenBack) o["undone"] = e.undone;
  return json::serialize(o);
}

GameEvent decode_event(const std::string& text) {
  auto v = json::parse(text);
  auto& o = v.as_object();
  GameEvent e;
  e.version = static_cast<uint64_t>(num(o, "v"));
  std::string k = str(o, "k");
  if (k == "move") e.kind = EventKind::Move;
  else if (k == "draw_offered") e.kind = EventKind::DrawOffered;
  else if (k == "draw_declined") e.kind = EventKind::DrawDeclined;
  else if (k == "move_limit_requested") e.kind = EventKind::MoveLimitRequested;
  else if (k == "ended") e.kind = EventKind::Ended;
  else if (k == "takeback_proposed") e.kind = EventKind::TakebackProposed;
  else if (k == "takeback_declined") e.kind = EventKind::TakebackDeclined;
  else if (k == "taken_back") e.kind = EventKind::TakenBack;
  else if (k == "time_given") e.kind = EventKind::TimeGiven;
  else throw std::runtime_error("unknown event kind " + k);
  e.side = str(o, "side") == "black" ? xq::Color::Black : xq::Color::Red;
  e.red_ms = num(o, "red_ms");
  e.black_ms = num(o, "black_ms");
  e.at_ms = num(o, "at");
  e.iccs = str(o, "iccs");
  e.client_move_id = str(o, "cmid");
  e.lag_ms = num(o, "lag");
  std::string oc = str(o, "outcome");
  e.outcome = oc == "red-wins"    ? xq::Outcome::RedWins
              : oc == "black-wins" ? xq::Outcome::BlackWins
              : oc == "draw"       ? xq::Outcome::Draw
                                   : xq::Outcome::Ongoing;
  e.reason = str(o, "reason");
  const auto* arbiter = o.if_contains("arbiter");
  e.by_arbiter = arbiter && arbiter->is_bool() && arbiter->as_bool();
  const auto* aborted_by = o.if_contains("aborted_by");
  e.aborted_by = e.kind == EventKind::Ended && aborted_by && aborted_by->is_bool() && aborted_by->as_bool();
  const auto* one_side = o.if_contains("one_side");
  e.one_side = e.by_arbiter && one_side && one_side->is_bool() && one_side->as_bool();
  e.undone = static_cast<int>(num(o, "undone"));
  return e;
}

static json::object ply_entry(const GameSession& s, size_t i) {
  const auto& clocks = s.ply_clocks();
  xq::MoveView mv = xq::view_of_move(s.rules_game(), i, xq::Viewer::Spectator);
  json::object m{{"ply", i + 1}, {"iccs", mv.iccs}, {"chinese", mv.chinese}, {"wxf", mv.wxf}};
  if (i < clocks.size()) {
    m["red_ms"] = clocks[i].first;
    m["black_ms"] = clocks[i].second;
  }
  return m;
}

// moves_text: the serialised entries, spliced in instead of building them (null = build them).
static std::string make_record(const GameSession& s, const std::string* moves_text) {
  const GameConfig& c = s.config();
  json::object o = json::parse(encode_config(c)).as_object();
  // Finished games are public in full, so the view of any viewer is the whole truth.
  const bool done = s.over();
  xq::Viewer viewer = xq::Viewer::Spectator;
  json::array moves;
  if (!moves_text)
    for (size_t i = 0; i < s.plies(); ++i) moves.push_back(ply_entry(s, i));
  o["moves"] = std::move(moves);
  o["result"] = xq::outcome_name(s.result().outcome);
  o["reason"] = s.result().reason;
  o["version"] = s.version();
  if (const auto& limit = s.rules_game().requested_limit()) {
    // The request's ply: the plies played before its event.
    size_t at_ply = 0;
    for (const auto& e : s.events()) {
      if (e.kind == EventKind::MoveLimitRequested) break;
      if (e.kind == EventKind::Move) ++at_ply;
      if (e.kind == EventKind::TakenBack) at_ply -= static_cast<size_t>(e.undone);
    }
    auto colour = [](xq::Color c) { return c == xq::Color::Red ? "red" : "black"; };
    json::object r{{"by", limit->by_arbiter ? "arbiter" : colour(*limit->requester)}, {"at_ply", at_ply},
                   {"counted_plies", limit->counted_plies}, {"limit_plies", limit->limit_plies}};
    if (limit->by_arbiter && limit->requester) r["on"] = colour(*limit->requester);  // imposed on one side
    o["requested_move_limit"] = std::move(r);
  }
  if (!done) {  // a live game's record (admin/API) must not leak the secret
    o.erase("assignment");
    o.erase("salt");
  }
  o["fen"] = xq::view_fen(s.rules_game(), viewer);
  std::string out = json::serialize(o);
  if (moves_text) {
    // Only a key is written as "moves":[] unescaped (a string value would show \"moves\").
    static const std::string empty = "\"moves\":[]";
    size_t at = out.find(empty);
    if (at == std::string::npos) throw std::logic_error("record without moves");
    out.insert(at + empty.size() - 1, *moves_text);
  }
  return out;
}

std::string archive_record(const GameSession& s) { return make_record(s, nullptr); }

std::string archive_record(const GameSession& s, RecordCache& cache) {
  // The end may reveal captures, and a takeback replaces plies: then in full.
  if (s.over() || cache.plies > s.plies() || cache.takeback_version != s.last_takeback_version()) {
    cache = RecordCache{};
    cache.takeback_version = s.last_takeback_version();
    if (s.over()) return make_record(s, nullptr);
  }
  for (; cache.plies < s.plies(); ++cache.plies) {
    if (cache.plies > 0) cache.moves += ',';
    cache.moves += json::serialize(ply_entry(s, cache.plies));
  }
  return make_record(s, &cache.moves);
}

}  // namespace gs
