#include "tournament_json.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <boost/json.hpp>
#include <string_view>

#include "pairing/round1.h"
#include "pairing/state.h"

namespace xq::mm {

namespace json = boost::json;

namespace {

int64_t get_int(const json::object& o, const char* key, int64_t def) {
  auto* v = o.if_contains(key);
  if (!v) return def;
  if (v->is_int64()) return v->as_int64();
  if (v->is_uint64()) return static_cast<int64_t>(v->as_uint64());
  // A double outside int64's range would convert with undefined behaviour (1e300): refused; so is
  // a fraction (600000.7 ms was stored as 600000), but 6e5 is a whole number.
  if (v->is_double()) {
    const double d = v->as_double();
    if (!(d >= -9.2e18 && d <= 9.2e18)) throw TournamentError("bad_request", std::string("field '") + key + "' is out of range");
    if (d != std::trunc(d)) throw TournamentError("bad_request", std::string("field '") + key + "' must be a whole number");
    return static_cast<int64_t>(d);
  }
  throw TournamentError("bad_request", std::string("field '") + key + "' must be a number");
}

// A field stored unsigned: a negative or too large number is refused, not wrapped around.
uint32_t get_u32(const json::object& o, const char* key, uint32_t def) {
  const int64_t v = get_int(o, key, def);
  if (v < 0 || v > static_cast<int64_t>(UINT32_MAX))
    throw TournamentError("bad_request", std::string("field '") + key + "' is out of range");
  return static_cast<uint32_t>(v);
}

int get_int32(const json::object& o, const char* key, int def) {
  const int64_t v = get_int(o, key, def);
  if (v < INT32_MIN || v > INT32_MAX) throw TournamentError("bad_request", std::string("field '") + key + "' is out of range");
  return static_cast<int>(v);
}

bool get_bool(const json::object& o, const char* key, bool def) {
  auto* v = o.if_contains(key);
  if (!v) return def;
  if (!v->is_bool()) throw TournamentError("bad_request", std::string("field '") + key + "' must be true or false");
  return v->as_bool();
}

std::string get_str(const json::object& o, const char* key, const std::string& def) {
  auto* v = o.if_contains(key);
  if (!v) return def;
  if (!v->is_string()) throw TournamentError("bad_request", std::string("field '") + key + "' must be a string");
  return std::string(v->as_string());
}

const std::vector<std::pair<const char*, pairing::Tiebreak>> kTiebreakNames = {
    {"opp_score", pairing::Tiebreak::OppScore},         {"progressive", pairing::Tiebreak::Progressive},
    {"sonneborn_berger", pairing::Tiebreak::SonnebornBerger}, {"wins", pairing::Tiebreak::Wins},
    {"black_wins", pairing::Tiebreak::BlackWins},       {"black_games", pairing::Tiebreak::BlackGames},
    {"fouls", pairing::Tiebreak::Fouls},                {"head_to_head", pairing::Tiebreak::HeadToHead},
    {"prev_round_score", pairing::Tiebreak::PrevRoundScore}, {"drop_early_rounds", pairing::Tiebreak::DropEarlyRounds},
    {"prev_round_rank", pairing::Tiebreak::PrevRoundRank}, {"lot", pairing::Tiebreak::Lot}};

const char* tiebreak_key(pairing::Tiebreak t) {
  for (auto& [k, v] : kTiebreakNames)
    if (v == t) return k;
  return "lot";
}

pairing::Tiebreak parse_tiebreak(const std::string& s) {
  for (auto& [k, v] : kTiebreakNames)
    if (s == k) return v;
  throw TournamentError("bad_request", "unknown tiebreak '" + s + "'");
}

json::object settings_json(const pairing::Settings& s) {
  json::array tbs, forbidden;
  for (auto t : s.tiebreaks) tbs.push_back(json::string(tiebreak_key(t)));
  for (auto [a, b] : s.forbidden) forbidden.push_back(json::array{a, b});
  return {{"rounds", s.rounds},
          {"games_per_round", s.games_per_round},
          {"win_points", s.win_points},
          {"draw_points", s.draw_points},
          {"loss_points", s.loss_points},
          {"round1", pairing::round1_mode_name(s.round1)},
          {"seed", s.seed},
          {"colour_rules_hard", s.colour_rules_hard},
          {"forfeit_counts_as_met", s.forfeit_counts_as_met},
          {"bye_blocked_by_forfeit_win", s.bye_blocked_by_forfeit_win},
          {"max_forfeits", s.max_forfeits},
          {"relax_colour_last_round_topscorers", s.relax_colour_last_round_topscorers},
          {"forbidden", forbidden},
          {"tiebreaks", tbs},
          {"bye_opp", static_cast<int>(s.bye_opp)},
          {"forfeit_opp_as_bye", s.forfeit_opp_as_bye},
          {"absent_as_bye", s.absent_as_bye},
          {"bye_counts_as_win", s.bye_counts_as_win},
          {"forfeit_win_counts_as_win", s.forfeit_win_counts_as_win}};
}

pairing::Settings settings_from(const json::object& o) {
  pairing::Settings s;
  s.rounds = get_int32(o, "rounds", s.rounds);
  s.games_per_round = get_int32(o, "games_per_round", s.games_per_round);
  s.win_points = get_int32(o, "win_points", s.win_points);
  s.draw_points = get_int32(o, "draw_points", s.draw_points);
  s.loss_points = get_int32(o, "loss_points", s.loss_points);
  std::string r1 = get_str(o, "round1", "adjacent");
  if (r1 != "adjacent" && r1 != "adjacent-alternating" && r1 != "fold" && r1 != "random")
    throw TournamentError("bad_request", "round1 must be adjacent, adjacent-alternating, fold or random");
  s.round1 = pairing::parse_round1_mode(r1);
  // A whole number from 0 up (drawn as 1 .. 2^31 - 1, docs/tournaments.md; an organiser's own may
  // be larger, and stored events keep theirs). A negative one was stored wrapped round, and a
  // fraction or 1e300 converted, once with undefined behaviour (security review, 2026-12-04).
  if (const auto* v = o.if_contains("seed")) {
    if (v->is_uint64()) s.seed = v->as_uint64();
    else if (v->is_int64() && v->as_int64() >= 0) s.seed = static_cast<uint64_t>(v->as_int64());
    else throw TournamentError("bad_request", "'seed' is a whole number from 0 up");
  }
  s.colour_rules_hard = get_bool(o, "colour_rules_hard", s.colour_rules_hard);
  s.forfeit_counts_as_met = get_bool(o, "forfeit_counts_as_met", s.forfeit_counts_as_met);
  s.bye_blocked_by_forfeit_win = get_bool(o, "bye_blocked_by_forfeit_win", s.bye_blocked_by_forfeit_win);
  s.max_forfeits = get_int32(o, "max_forfeits", s.max_forfeits);
  s.relax_colour_last_round_topscorers = get_bool(o, "relax_colour_last_round_topscorers", s.relax_colour_last_round_topscorers);
  if (auto* f = o.if_contains("forbidden")) {
    const char* what = "'forbidden' is a list of pairs of player numbers, e.g. [[0, 1]]";
    if (!f->is_array()) throw TournamentError("bad_request", what);
    for (auto& pair : f->as_array()) {
      const json::array* a = pair.if_array();
      if (!a || a->size() != 2 || !(*a)[0].is_int64() || !(*a)[1].is_int64() || (*a)[0].as_int64() < 0 ||
          (*a)[1].as_int64() < 0 || (*a)[0].as_int64() > 100000 || (*a)[1].as_int64() > 100000)
        throw TournamentError("bad_request", what);
      if ((*a)[0].as_int64() == (*a)[1].as_int64())
        throw TournamentError("bad_request", "'forbidden': a pair of two different players, not [" +
                                                 std::to_string((*a)[0].as_int64()) + ", " + std::to_string((*a)[0].as_int64()) + "]");
      s.forbidden.emplace_back(static_cast<int>((*a)[0].as_int64()), static_cast<int>((*a)[1].as_int64()));
    }
  }
  if (o.if_contains("tiebreak_preset")) s.tiebreaks = pairing::tiebreak_preset(get_str(o, "tiebreak_preset", ""));
  if (auto* t = o.if_contains("tiebreaks")) {
    if (!t->is_array()) throw TournamentError("bad_request", "'tiebreaks' is a list of names");
    // Each criterion once, and no more than there are (a list of 10,001 "lot" was stored).
    if (t->as_array().size() > 16) throw TournamentError("bad_request", "'tiebreaks': at most 16 criteria");
    for (auto& name : t->as_array()) {
      if (!name.is_string()) throw TournamentError("bad_request", "'tiebreaks' is a list of names");
      s.tiebreaks.push_back(parse_tiebreak(std::string(name.as_string())));
    }
  }
  // By name, or by its number (what the stored event holds).
  static const char* const kByeOppNames[] = {"lowest_scoring", "lowest_all", "zero", "virtual_opponent", "own_score"};
  const char* const bye_opp_error =
      "'bye_opp' is lowest_scoring, lowest_all, zero, virtual_opponent or own_score (or 0..4)";
  int bye_opp = static_cast<int>(s.bye_opp);
  if (const auto* b = o.if_contains("bye_opp"); b && b->is_string()) {
    auto it = std::find(std::begin(kByeOppNames), std::end(kByeOppNames), std::string_view(b->as_string()));
    if (it == std::end(kByeOppNames)) throw TournamentError("bad_request", bye_opp_error);
    bye_opp = static_cast<int>(it - std::begin(kByeOppNames));
  } else {
    bye_opp = get_int32(o, "bye_opp", bye_opp);
  }
  if (bye_opp < 0 || bye_opp > static_cast<int>(pairing::ByeOppPolicy::OwnScore))
    throw TournamentError("bad_request", bye_opp_error);
  s.bye_opp = static_cast<pairing::ByeOppPolicy>(bye_opp);
  s.forfeit_opp_as_bye = get_bool(o, "forfeit_opp_as_bye", s.forfeit_opp_as_bye);
  s.absent_as_bye = get_bool(o, "absent_as_bye", s.absent_as_bye);
  s.bye_counts_as_win = get_bool(o, "bye_counts_as_win", s.bye_counts_as_win);
  s.forfeit_win_counts_as_win = get_bool(o, "forfeit_win_counts_as_win", s.forfeit_win_counts_as_win);
  return s;
}

json::object knockout_json(const pairing::KnockoutGame& g) {
  return {{"red", g.red}, {"black", g.black}, {"winner", g.winner}, {"loser", g.loser}};
}

pairing::KnockoutGame knockout_from(const json::value& v) {
  const auto& o = v.as_object();
  pairing::KnockoutGame g;
  g.red = static_cast<int>(get_int(o, "red", -1));
  g.black = static_cast<int>(get_int(o, "black", -1));
  g.winner = static_cast<int>(get_int(o, "winner", -1));
  g.loser = static_cast<int>(get_int(o, "loser", -1));
  return g;
}

}  // namespace

json::value config_to_json(const EventConfig& c) {
  json::object o{{"id", c.id},
                      {"name", c.name},
                      {"club_id", c.club_id},
                      {"organiser", c.organiser},
                      {"variant", c.variant},
                      {"ruleset", c.ruleset},
                      {"capture_visibility", c.capture_visibility},
                      {"initial_ms", c.initial_ms},
                      {"increment_ms", c.increment_ms},
                      {"no_show_ms", c.no_show_ms},
                      {"spectator_delay_ms", c.spectator_delay_ms},
                      {"access", c.access},
                      {"join_code", c.join_code},
                      {"auto_rounds", c.auto_rounds},
                      {"late_join_until_round", c.late_join_until_round},
                      {"playoff_after_round", c.playoff_after_round},
                      {"playoff_size", c.playoff_size},
                      {"start_ms", c.start_ms},
                      {"pairing", settings_json(c.pairing)}};
  gs::write_rule_options(c.rule_options, o);
  return o;
}

EventConfig config_from_json(const json::value& v) {
  if (!v.is_object()) throw TournamentError("bad_request", "event settings must be a JSON object");
  const auto& o = v.as_object();
  EventConfig c;
  c.id = get_str(o, "id", "");
  c.name = get_str(o, "name", c.id);
  c.club_id = get_str(o, "club_id", "");
  c.organiser = get_str(o, "organiser", "");
  c.variant = get_str(o, "variant", c.variant);
  c.ruleset = get_str(o, "ruleset", c.ruleset);
  c.capture_visibility = get_str(o, "capture_visibility", c.capture_visibility);
  try {
    c.rule_options = gs::read_rule_options(o);
  } catch (const std::exception&) {
    throw TournamentError("bad_request", "repetitions must be a number, pawns_advisors_elephants_free a boolean");
  }
  c.initial_ms = get_u32(o, "initial_ms", c.initial_ms);
  c.increment_ms = get_u32(o, "increment_ms", c.increment_ms);
  c.no_show_ms = get_u32(o, "no_show_ms", c.no_show_ms);
  c.spectator_delay_ms = get_u32(o, "spectator_delay_ms", 0);
  c.access = get_str(o, "access", c.access);
  c.join_code = get_str(o, "join_code", "");
  c.auto_rounds = get_bool(o, "auto_rounds", c.auto_rounds);
  c.late_join_until_round = get_int32(o, "late_join_until_round", c.late_join_until_round);
  c.playoff_after_round = get_int32(o, "playoff_after_round", 0);
  c.playoff_size = get_int32(o, "playoff_size", 4);
  c.start_ms = get_int(o, "start_ms", 0);
  if (auto* p = o.if_contains("pairing")) {
    if (!p->is_object()) throw TournamentError("bad_request", "'pairing' must be an object");
    c.pairing = settings_from(p->as_object());
  }
  return c;
}

namespace {
// Inputs a stored config does not write back: a preset names a tiebreak list; the repetition
// options are written only where they differ from the defaults.
const std::set<std::string> kInputOnly = {"repetitions", "pawns_advisors_elephants_free", "move_limit_plies",
                                          "counted_checks_per_side", "requested_move_limit_plies",
                                          "requested_move_limit_forcing_cap"};
}  // namespace

void refuse_unknown_settings(const json::value& event) {
  if (!event.is_object()) return;  // config_from_json says what it must be
  const json::object known = config_to_json(EventConfig{}).as_object();
  const json::object& known_pairing = known.at("pairing").as_object();
  for (const auto& kv : event.as_object()) {
    const std::string key(kv.key());
    if (key == "pairing" && kv.value().is_object()) {
      for (const auto& p : kv.value().as_object())
        if (!known_pairing.contains(p.key()) && p.key() != "tiebreak_preset")
          throw TournamentError("bad_request", "no pairing setting '" + std::string(p.key()) + "'");
    } else if (!known.contains(key) && !kInputOnly.count(key)) {
      throw TournamentError("bad_request", "no event setting '" + key + "'");
    }
  }
}

EventConfig config_with_changes(const EventConfig& base, const json::value& changes) {
  if (!changes.is_object() || changes.as_object().empty())
    throw TournamentError("bad_request", "the changes are a JSON object of event settings, e.g. {\"pairing\": {\"rounds\": 5}}");
  json::object merged = config_to_json(base).as_object();
  static const std::set<std::string> kFixed = {"id", "club_id", "organiser"};
  for (const auto& kv : changes.as_object()) {
    const std::string key(kv.key());
    if (kFixed.count(key)) throw TournamentError("bad_request", "'" + key + "' is fixed when the event is created");
    if (key == "pairing") {
      if (!kv.value().is_object()) throw TournamentError("bad_request", "'pairing' must be an object");
      json::object& pairing = merged["pairing"].as_object();
      for (const auto& p : kv.value().as_object()) {
        const std::string pkey(p.key());
        if (pkey == "tiebreak_preset") pairing.erase("tiebreaks");  // the preset replaces the list
        else if (!pairing.contains(pkey)) throw TournamentError("bad_request", "no pairing setting '" + pkey + "'");
        pairing[pkey] = p.value();
      }
      continue;
    }
    if (!merged.contains(key) && !kInputOnly.count(key)) {
      const bool pairing_key = merged["pairing"].as_object().contains(key) || key == "tiebreak_preset";
      throw TournamentError("bad_request", pairing_key ? "'" + key + "' is a pairing setting: put it in \"pairing\""
                                                       : "no event setting '" + key + "'");
    }
    // null: back to the default (a repetition option the event had set)
    if (kv.value().is_null()) merged.erase(key);
    else merged[key] = kv.value();
  }
  EventConfig next = config_from_json(merged);
  next.id = base.id;
  next.club_id = base.club_id;
  next.organiser = base.organiser;
  return next;
}

std::vector<std::string> changed_settings(const EventConfig& a, const EventConfig& b) {
  std::vector<std::string> out;
  json::object ja = config_to_json(a).as_object(), jb = config_to_json(b).as_object();
  const json::object pa = ja["pairing"].as_object(), pb = jb["pairing"].as_object();
  ja.erase("pairing");
  jb.erase("pairing");
  std::set<std::string> keys;
  for (const auto* o : {&ja, &jb})
    for (const auto& kv : *o) keys.insert(std::string(kv.key()));
  for (const auto& k : keys)
    if (!ja.contains(k) || !jb.contains(k) || ja.at(k) != jb.at(k)) out.push_back(k);
  for (const auto& kv : pa) {
    if (!pb.contains(kv.key()) || pb.at(kv.key()) != kv.value()) out.push_back("pairing." + std::string(kv.key()));
  }
  return out;
}

json::value to_json(const Tournament& t) {
  json::array players, rounds, games, explain, explain_zh, user_ids, applied;
  for (const auto& p : t.ev.players)
    players.push_back(json::object{{"name", p.name}, {"rating", p.rating}, {"number", p.number},
                                   {"join_round", p.join_round}, {"withdrawn_round", p.withdrawn_round}});
  for (const auto& r : t.ev.rounds) {
    json::array boards;
    for (const auto& b : r.boards) {
      json::array gs;
      for (const auto& g : b.games)
        gs.push_back(json::object{{"a", g.a_points}, {"b", g.b_points}, {"forfeit", g.forfeit},
                                  {"a_fouls", g.a_fouls}, {"b_fouls", g.b_fouls}});
      boards.push_back(json::object{{"a", b.a}, {"b", b.b}, {"games", gs}});
    }
    json::array unavailable;
    for (int u : r.unavailable) unavailable.push_back(u);
    rounds.push_back(json::object{{"boards", boards}, {"unavailable", unavailable}});
  }
  for (const auto& s : t.games) {
    json::object slot{{"game_id", s.game_id}, {"round", s.round}, {"board", s.board}, {"index", s.index},
                      {"knockout", s.knockout}, {"red", s.red}, {"black", s.black},
                      {"finished", s.finished}, {"red_points", s.red_points},
                      {"black_points", s.black_points}, {"forfeit", s.forfeit}, {"reason", s.reason},
                      {"red_arbiter_fouls", s.red_arbiter_fouls}, {"black_arbiter_fouls", s.black_arbiter_fouls}};
    if (const auto& w = s.played)
      slot["played"] = json::object{{"red_points", w->red_points}, {"black_points", w->black_points},
                                    {"forfeit", w->forfeit},         {"a_fouls", w->a_fouls},
                                    {"b_fouls", w->b_fouls},         {"reason", w->reason}};
    games.push_back(std::move(slot));
  }
  for (const auto& [from, to] : {std::pair{&t.explain, &explain}, std::pair{&t.explain_zh, &explain_zh}})
    for (const auto& lines : *from) {
      json::array a;
      for (const auto& l : lines) a.push_back(json::string(l));
      to->push_back(a);
    }
  for (const auto& u : t.user_ids) user_ids.push_back(json::string(u));
  for (const auto& a : t.applied) applied.push_back(json::string(a));
  json::object o{{"config", config_to_json(t.cfg)}, {"stage", stage_name(t.stage)}, {"players", players},
                 {"user_ids", user_ids}, {"rounds", rounds}, {"games", games}, {"explain", explain}, {"explain_zh", explain_zh},
                 {"rounds_started", t.rounds_started}, {"applied", applied}, {"version", t.version}};
  if (t.stage == Stage::Cancelled) o["cancel_reason"] = t.cancel_reason;
  if (t.stage == Stage::Paused) {
    o["paused_by"] = t.paused_by;
    o["pause_reason"] = t.pause_reason;
  }
  for (const auto* list : {&t.disqualified, &t.warnings}) {
    if (list->empty()) continue;
    json::array a;
    for (const auto& d : *list) a.push_back(json::object{{"player", d.player}, {"round", d.round}, {"reason", d.reason}});
    o[list == &t.disqualified ? "disqualified" : "warnings"] = std::move(a);
  }
  if (t.has_playoff) {
    json::array seeds, semis;
    for (int s : t.playoff.seeds) seeds.push_back(s);
    for (const auto& g : t.playoff.semifinals) semis.push_back(knockout_json(g));
    o["playoff"] = json::object{{"seeds", seeds}, {"semifinals", semis}, {"final", knockout_json(t.playoff.final_game)},
                                {"third", knockout_json(t.playoff.third_place)}};
  }
  return o;
}

Tournament tournament_from_json(const json::value& v) {
  const auto& o = v.as_object();
  Tournament t;
  t.cfg = config_from_json(o.at("config"));
  t.ev.settings = t.cfg.pairing;
  t.ev.settings.name = t.cfg.name;
  t.stage = parse_stage(std::string(o.at("stage").as_string()));
  for (const auto& pv : o.at("players").as_array()) {
    const auto& p = pv.as_object();
    pairing::Player pl;
    pl.name = get_str(p, "name", "");
    pl.rating = static_cast<int>(get_int(p, "rating", 0));
    pl.number = static_cast<int>(get_int(p, "number", 0));
    pl.join_round = static_cast<int>(get_int(p, "join_round", 1));
    pl.withdrawn_round = static_cast<int>(get_int(p, "withdrawn_round", 0));
    t.ev.players.push_back(pl);
  }
  for (const auto& u : o.at("user_ids").as_array()) t.user_ids.emplace_back(u.as_string());
  for (const auto& rv : o.at("rounds").as_array()) {
    pairing::Round r;
    for (const auto& bv : rv.at("boards").as_array()) {
      const auto& b = bv.as_object();
      pairing::Board board;
      board.a = static_cast<int>(get_int(b, "a", -1));
      board.b = static_cast<int>(get_int(b, "b", -1));
      for (const auto& gv : b.at("games").as_array()) {
        const auto& g = gv.as_object();
        pairing::Game game;
        game.a_points = static_cast<int>(get_int(g, "a", 0));
        game.b_points = static_cast<int>(get_int(g, "b", 0));
        game.forfeit = get_bool(g, "forfeit", false);
        game.a_fouls = static_cast<int>(get_int(g, "a_fouls", 0));
        game.b_fouls = static_cast<int>(get_int(g, "b_fouls", 0));
        board.games.push_back(game);
      }
      r.boards.push_back(board);
    }
    for (const auto& u : rv.at("unavailable").as_array()) r.unavailable.push_back(static_cast<int>(u.to_number<int64_t>()));
    t.ev.rounds.push_back(r);
  }
  for (const auto& sv : o.at("games").as_array()) {
    const auto& s = sv.as_object();
    GameSlot g;
    g.game_id = get_str(s, "game_id", "");
    g.round = static_cast<int>(get_int(s, "round", 0));
    g.board = static_cast<int>(get_int(s, "board", -1));
    g.index = static_cast<int>(get_int(s, "index", 0));
    g.knockout = get_str(s, "knockout", "");
    g.red = static_cast<int>(get_int(s, "red", -1));
    g.black = static_cast<int>(get_int(s, "black", -1));
    g.finished = get_bool(s, "finished", false);
    g.red_points = static_cast<int>(get_int(s, "red_points", 0));
    g.black_points = static_cast<int>(get_int(s, "black_points", 0));
    g.forfeit = get_bool(s, "forfeit", false);
    g.reason = get_str(s, "reason", "");
    g.red_arbiter_fouls = get_int32(s, "red_arbiter_fouls", 0);
    g.black_arbiter_fouls = get_int32(s, "black_arbiter_fouls", 0);
    if (const auto* w = s.if_contains("played"); w && w->is_object()) {
      const auto& wo = w->as_object();
      g.played = GameSlot::Played{get_int32(wo, "red_points", 0), get_int32(wo, "black_points", 0),
                                  get_bool(wo, "forfeit", false), get_int32(wo, "a_fouls", 0),
                                  get_int32(wo, "b_fouls", 0), get_str(wo, "reason", "")};
    }
    t.games.push_back(g);
  }
  for (const auto& lines : o.at("explain").as_array()) {
    std::vector<std::string> l;
    for (const auto& s : lines.as_array()) l.emplace_back(s.as_string());
    t.explain.push_back(l);
  }
  // Stored before the Chinese lines existed: none for those rounds.
  if (const auto* zh = o.if_contains("explain_zh"))
    for (const auto& lines : zh->as_array()) {
      std::vector<std::string> l;
      for (const auto& s : lines.as_array()) l.emplace_back(s.as_string());
      t.explain_zh.push_back(l);
    }
  t.explain_zh.resize(t.explain.size());
  t.rounds_started = static_cast<int>(get_int(o, "rounds_started", 0));
  for (const auto& a : o.at("applied").as_array()) t.applied.emplace_back(a.as_string());
  t.version = static_cast<uint64_t>(get_int(o, "version", 0));
  t.cancel_reason = get_str(o, "cancel_reason", "");
  t.paused_by = get_str(o, "paused_by", "");
  t.pause_reason = get_str(o, "pause_reason", "");
  for (auto [key, list] : {std::pair{"disqualified", &t.disqualified}, std::pair{"warnings", &t.warnings}})
    if (const auto* a = o.if_contains(key))
      for (const auto& d : a->as_array())
        list->push_back({static_cast<int>(get_int(d.as_object(), "player", -1)),
                         static_cast<int>(get_int(d.as_object(), "round", 0)), get_str(d.as_object(), "reason", "")});
  if (auto* po = o.if_contains("playoff")) {
    t.has_playoff = true;
    for (const auto& s : po->at("seeds").as_array()) t.playoff.seeds.push_back(static_cast<int>(s.to_number<int64_t>()));
    for (const auto& g : po->at("semifinals").as_array()) t.playoff.semifinals.push_back(knockout_from(g));
    t.playoff.final_game = knockout_from(po->at("final"));
    t.playoff.third_place = knockout_from(po->at("third"));
  }
  return t;
}

json::value public_json(const Tournament& t) {
  json::value all = to_json(t);
  json::object& o = all.as_object();
  o.erase("applied");
  o["config"].as_object().erase("join_code");
  // Players with their user ids side by side, rounds with board numbers and explain lines.
  json::array players;
  const std::vector<int> removed = pairing::removal_rounds(t.ev);
  for (size_t i = 0; i < t.ev.players.size(); ++i) {
    const auto& p = t.ev.players[i];
    players.push_back(json::object{{"player", i}, {"user_id", t.user_ids[i]}, {"name", p.name}, {"rating", p.rating},
                                   {"number", p.number}, {"join_round", p.join_round},
                                   {"withdrawn_round", p.withdrawn_round}, {"removed_after_round", removed[i]}});
    if (const auto* d = t.disqualification(static_cast<int>(i))) {
      players.back().as_object()["disqualified"] = true;
      players.back().as_object()["disqualified_reason"] = d->reason;
    }
    json::array warned;  // the reasons of the warnings given to this player, oldest first
    for (const auto& w : t.warnings)
      if (w.player == static_cast<int>(i)) warned.push_back(json::string(w.reason));
    if (!warned.empty()) players.back().as_object()["warnings"] = std::move(warned);
  }
  o["players"] = players;
  json::array rounds;
  for (size_t r = 0; r < t.ev.rounds.size(); ++r) {
    json::array boards;
    const auto& rb = t.ev.rounds[r].boards;
    for (size_t b = 0; b < rb.size(); ++b) {
      json::array games;
      for (const auto& g : rb[b].games)
        games.push_back(json::object{{"a_points", g.a_points}, {"b_points", g.b_points}, {"forfeit", g.forfeit}});
      auto line = [&](const std::vector<std::vector<std::string>>& lines) {
        return r < lines.size() && b < lines[r].size() ? lines[r][b] : std::string();
      };
      boards.push_back(json::object{{"board", b + 1}, {"a", rb[b].a}, {"b", rb[b].b}, {"bye", rb[b].b == pairing::kBye},
                                    {"games", games}, {"explain", line(t.explain)}, {"explain_zh", line(t.explain_zh)}});
    }
    rounds.push_back(json::object{{"round", r + 1}, {"started", static_cast<int>(r) < t.rounds_started}, {"boards", boards}});
  }
  o["rounds"] = rounds;
  o["rounds_paired"] = t.ev.rounds.size();
  o["knockout_waiting"] = knockout_round_waiting(t);
  return all;
}

json::value crosstable_json(const Tournament& t) {
  const int n = static_cast<int>(t.ev.players.size());
  std::vector<json::array> cells(n);
  for (const auto& r : t.ev.rounds) {
    std::vector<json::object> row(n, json::object{{"opponent", -1}, {"colour", ""}, {"points", 0}});
    for (const auto& b : r.boards) {
      int pa = 0, pb = 0;
      for (const auto& g : b.games) pa += g.a_points, pb += g.b_points;
      if (b.b == pairing::kBye) {
        row[b.a] = {{"opponent", pairing::kBye}, {"colour", ""}, {"points", t.ev.settings.win_points * t.ev.settings.games_per_round}};
        continue;
      }
      row[b.a] = {{"opponent", b.b}, {"colour", "red"}, {"points", pa}};
      row[b.b] = {{"opponent", b.a}, {"colour", "black"}, {"points", pb}};
    }
    for (int p = 0; p < n; ++p) cells[p].push_back(row[p]);
  }
  // Rows by pairing number, as a printed crosstable reads (the cells name opponents by number).
  std::vector<int> order(n);
  for (int p = 0; p < n; ++p) order[p] = p;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return t.ev.players[a].number < t.ev.players[b].number; });
  json::array rows;
  for (int p : order)
    rows.push_back(json::object{{"player", p}, {"name", t.ev.players[p].name}, {"number", t.ev.players[p].number},
                                {"rounds", cells[p]}});
  return json::object{{"rows", rows}};
}

json::value standings_json(const Tournament& t) {
  pairing::Standings st = standings(t);
  const std::vector<int> removed = pairing::removal_rounds(t.ev);
  // The final order: the play-off's places first (once it has them), then the standings.
  const std::vector<int> ranking = final_ranking(t);
  std::vector<int> place(t.ev.players.size(), 0);
  for (size_t i = 0; i < ranking.size(); ++i) place.at(ranking[i]) = static_cast<int>(i) + 1;
  json::array columns, rows;
  for (auto tb : t.ev.settings.tiebreaks) columns.push_back(json::string(tiebreak_key(tb)));
  for (const auto& r : st.rows) {
    json::array tbv, running;
    for (const auto& s : r.tiebreak_values) tbv.push_back(json::string(s));
    for (int s : r.running) running.push_back(s);
    rows.push_back(json::object{{"player", r.player},
                                {"user_id", t.user_ids.at(r.player)},
                                {"name", t.ev.players.at(r.player).name},
                                {"number", t.ev.players.at(r.player).number},
                                {"rank", r.rank},
                                {"score", r.score},
                                {"opp_score", r.opp_score},
                                {"progressive", r.progressive},
                                {"sonneborn_berger_x2", r.sb2},
                                {"wins", r.wins},
                                {"black_wins", r.black_wins},
                                {"black_games", r.black_games},
                                {"fouls", r.fouls},
                                {"running", running},
                                {"withdrawn", r.withdrawn || t.disqualification(r.player)},
                                {"withdrawn_reason", t.disqualification(r.player)                    ? "disqualified"
                                                     : !r.withdrawn                                  ? ""
                                                     : t.ev.players.at(r.player).withdrawn_round != 0 ? "withdrew"
                                                     : removed.at(r.player) != 0                   ? "forfeits"
                                                                                                   : ""},
                                {"place", place.at(r.player)},
                                {"tiebreaks", tbv}});
    if (const auto* d = t.disqualification(r.player)) rows.back().as_object()["disqualified_reason"] = d->reason;
  }
  return json::object{{"after_round", st.after_round}, {"columns", columns}, {"rows", rows},
                      {"final_ranking", json::value_from(ranking)}};
}

}  // namespace xq::mm
