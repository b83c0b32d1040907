#include "tournament.h"
#include "tournament_json.h"

#include <algorithm>
#include <climits>
#include <set>

#include "game/clock.h"
#include "game/one_line_text.h"
#include "pairing/invariants.h"
#include "pairing/state.h"
#include "pairing/swiss.h"

namespace xq::mm {

namespace {

using pairing::kBye;

[[noreturn]] void fail(const std::string& code, const std::string& msg) { throw TournamentError(code, msg); }

void require_stage(const Tournament& t, std::initializer_list<Stage> ok, const char* what) {
  if (std::find(ok.begin(), ok.end(), t.stage) == ok.end())
    fail("bad_state", std::string(what) + " is not possible while the event is " + stage_name(t.stage));
}

GameSlot* find_slot(Tournament& t, const std::string& game_id) {
  for (auto& s : t.games)
    if (s.game_id == game_id) return &s;
  return nullptr;
}

// Says whom a result took to the event's forfeit limit (pairing leaves them out from the next
// round on), or, after a correction, back under it: the organiser would otherwise see a player
// vanish from the pairings with no reason given.
// Where a game of the Swiss rounds is, as a notice names it: round, board, and the game of a
// two-game round.
std::vector<std::pair<std::string, std::string>> board_params(const Tournament& t, const GameSlot& s) {
  std::vector<std::pair<std::string, std::string>> p{{"round", std::to_string(s.round)}, {"board", std::to_string(s.board + 1)}};
  if (t.cfg.pairing.games_per_round > 1) p.emplace_back("game", std::to_string(s.index + 1));
  return p;
}

void announce_removals(const Tournament& t, const std::vector<int>& before, Effects& fx) {
  const std::vector<int> after = pairing::removal_rounds(t.ev);
  const std::string limit = std::to_string(t.ev.settings.max_forfeits);
  for (size_t p = 0; p < after.size(); ++p) {
    const std::string& name = t.ev.players[p].name;
    if (before[p] == 0 && after[p] != 0)
      fx.notices.push_back(make_notice("removed_for_forfeits", {{"name", name}, {"round", std::to_string(after[p])}, {"limit", limit}}));
    else if (before[p] != 0 && after[p] == 0)
      fx.notices.push_back(make_notice("back_after_correction", {{"name", name}, {"limit", limit}}));
  }
}

// The organiser's fouls of a slot as the board's sides count them (side a is red in game 1).
std::pair<int, int> arbiter_fouls_ab(const GameSlot& s) {
  return s.index % 2 == 0 ? std::pair{s.red_arbiter_fouls, s.black_arbiter_fouls}
                          : std::pair{s.black_arbiter_fouls, s.red_arbiter_fouls};
}

bool slot_exists(const Tournament& t, const std::string& game_id) {
  return std::any_of(t.games.begin(), t.games.end(), [&](const GameSlot& s) { return s.game_id == game_id; });
}

int paired_rounds(const Tournament& t) { return static_cast<int>(t.ev.rounds.size()); }

// A round is complete when every board has all its games and every game slot of it is finished.
bool round_complete(const Tournament& t, int round) {
  if (round < 1 || round > paired_rounds(t) || round > t.rounds_started) return false;
  const auto& r = t.ev.rounds[round - 1];
  for (const auto& b : r.boards)
    if (b.b != kBye && static_cast<int>(b.games.size()) < t.ev.settings.games_per_round) return false;
  for (const auto& s : t.games)
    if (s.round == round && !s.finished) return false;
  return true;
}

int complete_rounds(const Tournament& t) {
  int n = 0;
  while (n < paired_rounds(t) && round_complete(t, n + 1)) ++n;
  return n;
}

bool playoff_decided(const Tournament& t) { return !t.has_playoff || !pairing::playoff_places(t.playoff).empty(); }

std::vector<int> playoff_players(const Tournament& t) {
  return t.has_playoff ? t.playoff.seeds : std::vector<int>{};
}

GameSlot knockout_slot(const Tournament& t, const std::string& name, const pairing::KnockoutGame& g, int round) {
  GameSlot s;
  s.game_id = t.cfg.id + "-ko-" + name;
  s.round = round;
  s.knockout = name;
  s.red = g.red;
  s.black = g.black;
  return s;
}

void record_knockout(Tournament& t, const std::string& knockout, int red_points, int black_points) {
  if (knockout == "sf1") pairing::record_semifinal(t.playoff, 0, red_points, black_points);
  else if (knockout == "sf2") pairing::record_semifinal(t.playoff, 1, red_points, black_points);
  else if (knockout == "final") pairing::record_final(t.playoff, red_points, black_points);
  else pairing::record_third_place(t.playoff, red_points, black_points);
}

// A game not created yet one of whose players is disqualified is not played: it is lost by
// forfeit at once (both disqualified: 0–0). Returns whether `s` was so decided. With
// `withdrawn_too` (knockout games) a withdrawn player's is lost so too: a Swiss withdrawal takes
// effect from the next round, but a knockout game is the next round, and the opponent must not
// wait out a no-show for it.
bool forfeit_if_disqualified(const Tournament& t, GameSlot& s, Effects& fx, bool withdrawn_too = false) {
  auto dq = [&](int p) { return t.disqualification(p) != nullptr; };
  auto out = [&](int p) { return dq(p) || (withdrawn_too && t.ev.players[p].withdrawn_round > 0); };
  const bool red_out = out(s.red), black_out = out(s.black);
  if (!red_out && !black_out) return false;
  const int who = red_out ? s.red : s.black;
  s.finished = true;
  s.forfeit = true;
  s.red_points = red_out ? t.cfg.pairing.loss_points : t.cfg.pairing.win_points;
  s.black_points = black_out ? t.cfg.pairing.loss_points : t.cfg.pairing.win_points;
  s.reason = dq(who) ? "disqualified" : "withdrew";
  fx.notices.push_back(make_notice(dq(who) ? "not_played_disqualified" : "not_played_withdrew",
                                   {{"game", s.game_id}, {"name", t.ev.players[who].name}}));
  return true;
}

// Creates the knockout games that can be played now and are not created yet. A disqualified
// player's knockout game is not played: it is lost by forfeit at once (both disqualified: 0–0).
// A knockout game belongs to a round (semifinals to the one after the Swiss stage, the final to
// the next): with auto_rounds, and not paused, it is created as soon as it can be played;
// otherwise when the organiser starts its round (start_round), as any round's games, or up to
// `release_round` (start_round of a knockout round after the last Swiss round).
void sync_playoff_slots(Tournament& t, Effects& fx, int release_round = 0) {
  if (!t.has_playoff) return;
  const int semis_round = t.cfg.playoff_after_round + 1;
  const int upto = t.cfg.auto_rounds && t.stage == Stage::Running ? INT_MAX : std::max(t.rounds_started, release_round);
  const bool none_yet = std::none_of(t.games.begin(), t.games.end(), [](const GameSlot& g) { return !g.knockout.empty(); });
  auto add = [&](GameSlot s) {
    // The first knockout games made: the players hear the play-off has begun, whatever made them
    // (a result, the organiser's round start, a resume).
    if (none_yet && s.round <= upto && std::none_of(fx.notices.begin(), fx.notices.end(), [](const Notice& n) { return n.code == "playoff_started"; }))
      fx.notices.push_back(make_notice("playoff_started"));
    // By its name: a replayed game (an abort) has another id.
    const bool exists = std::any_of(t.games.begin(), t.games.end(), [&](const GameSlot& g) { return g.knockout == s.knockout; });
    if (s.round > upto || exists) return;
    if (forfeit_if_disqualified(t, s, fx, true)) {
      t.games.push_back(s);
      record_knockout(t, s.knockout, s.red_points, s.black_points);
      return;
    }
    t.games.push_back(s);
    fx.create.push_back(s);
  };
  for (size_t i = 0; i < t.playoff.semifinals.size(); ++i)
    add(knockout_slot(t, "sf" + std::to_string(i + 1), t.playoff.semifinals[i], semis_round));
  bool semis_done = std::all_of(t.playoff.semifinals.begin(), t.playoff.semifinals.end(),
                                [](const pairing::KnockoutGame& g) { return g.decided(); });
  if (semis_done && t.playoff.final_game.red >= 0) {
    int round = t.playoff.semifinals.empty() ? semis_round : semis_round + 1;
    add(knockout_slot(t, "final", t.playoff.final_game, round));
    if (t.playoff.third_place.red >= 0) add(knockout_slot(t, "third", t.playoff.third_place, round));
  }
}

void maybe_finish(Tournament& t, Effects& fx) {
  if (t.stage == Stage::Finished || t.stage == Stage::Cancelled) return;
  if (paired_rounds(t) < t.ev.settings.rounds || complete_rounds(t) < t.ev.settings.rounds) return;
  if (!playoff_decided(t)) return;
  for (const auto& s : t.games)
    if (!s.finished) return;
  t.stage = Stage::Finished;
  fx.notices.push_back(make_notice("event_finished"));
}

// After a round completes: start the play-off if due, then pair/start the next round.
void advance(Tournament& t, Effects& fx) {
  const int done = complete_rounds(t);
  bool drawn_now = false;
  if (!t.has_playoff && t.cfg.playoff_after_round > 0 && done >= t.cfg.playoff_after_round) {
    auto seeds = pairing::playoff_seeds(pairing::compute_standings(t.ev, t.cfg.playoff_after_round), t.cfg.playoff_size);
    if (static_cast<int>(seeds.size()) == t.cfg.playoff_size) {
      t.playoff = pairing::start_playoff(seeds);
      t.has_playoff = true;
      drawn_now = true;
    }
  }
  sync_playoff_slots(t, fx);
  // Its games wait (for the organiser's next round start, or a resume): the players are told the
  // draw now, and "play-off started" when the games are made (organiser review, 2026-12-04).
  if (drawn_now && std::none_of(t.games.begin(), t.games.end(), [](const GameSlot& s) { return !s.knockout.empty(); }))
    fx.notices.push_back(make_notice("playoff_drawn"));
  if (t.stage == Stage::Running && t.cfg.auto_rounds && done == paired_rounds(t) &&
      paired_rounds(t) < t.ev.settings.rounds) {
    Effects more, started;
    try {
      more = pair_next_round(t);
      started = start_round(t);
    } catch (const TournamentError& e) {
      if (e.code != "pairing_failed") throw;
      // The result stands; the organiser pairs this round by hand (edit_pairing) and resumes.
      t.stage = Stage::Paused;
      t.paused_by = "pairing";
      t.pause_reason = e.what();
      fx.warnings.push_back(e.what());
      fx.notices.push_back(make_notice("paused_pairing_failed", {{"why", e.what()}}));
      return;
    }
    for (auto* src : {&more, &started}) {
      fx.create.insert(fx.create.end(), src->create.begin(), src->create.end());
      fx.notices.insert(fx.notices.end(), src->notices.begin(), src->notices.end());
      fx.warnings.insert(fx.warnings.end(), src->warnings.begin(), src->warnings.end());
    }
  }
  maybe_finish(t, fx);
}

}  // namespace

const char* stage_name(Stage s) {
  switch (s) {
    case Stage::Registration: return "registration";
    case Stage::Running: return "running";
    case Stage::Paused: return "paused";
    case Stage::Cancelled: return "cancelled";
    default: return "finished";
  }
}

Stage parse_stage(const std::string& s) {
  if (s == "running") return Stage::Running;
  if (s == "paused") return Stage::Paused;
  if (s == "finished") return Stage::Finished;
  if (s == "cancelled") return Stage::Cancelled;
  return Stage::Registration;
}

std::string game_id_for(const std::string& event_id, int round, int board, int index) {
  return event_id + "-r" + std::to_string(round) + "-b" + std::to_string(board + 1) + "-g" + std::to_string(index + 1);
}

bool valid_display_name(const std::string& name) {
  return name.size() <= 100 && gs::one_line_text(name) && gs::shows_something(name);
}

namespace {

// The bounds every event's settings keep, at creation and at each change; fills in the variant's
// tiebreaks when none are given.
void validate_config(EventConfig& cfg) {
  if (cfg.id.empty()) fail("bad_request", "an event needs an id");
  if (cfg.variant != "xiangqi" && cfg.variant != "jieqi") fail("bad_request", "variant must be xiangqi or jieqi");
  if (cfg.ruleset != "cxa" && cfg.ruleset != "axf" && cfg.ruleset != "computer")
    fail("bad_request", "ruleset must be cxa, axf or computer");
  if (std::string why = gs::rule_options_error(
          cfg.rule_options, cfg.variant == "jieqi" ? xq::Variant::Jieqi : xq::Variant::Xiangqi);
      !why.empty())
    fail("bad_request", why);
  if (cfg.pairing.rounds < 1 || cfg.pairing.rounds > 30) fail("bad_request", "rounds must be 1..30");
  if (cfg.pairing.games_per_round != 1 && cfg.pairing.games_per_round != 2)
    fail("bad_request", "games per round must be 1 or 2");
  if (cfg.playoff_after_round < 0 || cfg.playoff_after_round > cfg.pairing.rounds)
    fail("bad_request", "the play-off must start after a Swiss round");
  if (cfg.playoff_after_round > 0 && cfg.playoff_size != 2 && cfg.playoff_size != 4)
    fail("bad_request", "the play-off takes the top 2 or 4");
  if (cfg.access == "code" && cfg.join_code.empty()) fail("bad_request", "a join code is needed for access=code");
  if (cfg.access != "open" && cfg.access != "members" && cfg.access != "code")
    fail("bad_request", "access must be open, members or code");
  if (cfg.access == "members" && cfg.club_id.empty()) fail("bad_request", "access=members needs a club_id");
  // The same bounds as seeks and pools (gameserver/server/hub_seeks.cpp): a typo must not start
  // a tournament whose games end at once or never.
  if (!valid_display_name(cfg.name)) fail("bad_request", "name: 1..100 bytes, not blank, no control characters");
  if (cfg.capture_visibility != "capturer" && cfg.capture_visibility != "nobody" && cfg.capture_visibility != "both")
    fail("bad_request", "capture_visibility must be capturer, nobody or both");
  // As for a seek: Xiangqi has no face-down pieces, so another mode asked for is a mistake.
  if (cfg.variant == "xiangqi" && cfg.capture_visibility != "capturer")
    fail("bad_request", "capture_visibility is a Jieqi rule");
  if (const char* bad = gs::time_control_error({cfg.initial_ms, cfg.increment_ms})) fail("bad_request", bad);
  if (cfg.no_show_ms < 1000 || cfg.no_show_ms > 6u * 3600 * 1000) fail("bad_request", "no_show_ms: 1 s..6 h");
  if (cfg.spectator_delay_ms > 5u * 60 * 1000) fail("bad_request", "spectator_delay_ms: at most 5 minutes");
  if (cfg.start_ms < 0) fail("bad_request", "start_ms: Unix milliseconds, or 0 for none");
  if (cfg.late_join_until_round < 0) fail("bad_request", "late_join_until_round must not be negative");
  const pairing::Settings& ps = cfg.pairing;
  if (ps.loss_points < 0 || ps.draw_points < ps.loss_points || ps.win_points < ps.draw_points ||
      ps.win_points <= ps.loss_points || ps.win_points > 100)
    fail("bad_request", "points: 0 <= loss_points <= draw_points <= win_points <= 100, and a win scores more than a loss");
  if (ps.max_forfeits < 0) fail("bad_request", "max_forfeits must not be negative");
  for (auto [a, b] : ps.forbidden)
    if (a < 0 || b < 0 || a == b)
      fail("bad_request", "forbidden: pairs of two different places in the registration list (0 = first to join)");
  if (cfg.pairing.tiebreaks.empty())
    cfg.pairing.tiebreaks = pairing::tiebreak_preset(cfg.variant == "jieqi" ? "jieqi" : "cxa-14.3.1");
}

}  // namespace

Tournament create_tournament(EventConfig cfg) {
  validate_config(cfg);
  Tournament t;
  cfg.pairing.name = cfg.name;
  t.ev.settings = cfg.pairing;
  t.cfg = std::move(cfg);
  return t;
}

Effects update_settings(Tournament& t, EventConfig next) {
  if (t.stage == Stage::Finished) fail("bad_state", "the event is over: its settings stay as they were");
  if (t.stage == Stage::Cancelled) fail("bad_state", "the event was cancelled");
  validate_config(next);
  if (next.variant != t.cfg.variant)
    fail("bad_request", "the variant is fixed: the entrants' ratings are the variant's (create a new event instead)");
  Effects fx;
  const std::vector<std::string> changed = changed_settings(t.cfg, next);
  if (changed.empty()) {
    fx.warnings.push_back("nothing changed");
    return fx;
  }
  if (t.stage != Stage::Registration) {
    // What the rounds already paired and the games already made depend on stays; the rest is about
    // what comes next.
    static const std::vector<std::string> kWhileRunning = {
        "name", "pairing.rounds", "initial_ms", "increment_ms", "no_show_ms", "spectator_delay_ms", "auto_rounds",
        "access", "join_code", "late_join_until_round", "start_ms", "playoff_after_round", "playoff_size"};
    for (const auto& c : changed)
      if (std::find(kWhileRunning.begin(), kWhileRunning.end(), c) == kWhileRunning.end()) {
        std::string may;
        for (const auto& k : kWhileRunning)
          if (k != "start_ms") may += (may.empty() ? "" : ", ") + k;
        fail("bad_state", "'" + c + "' can be changed only before the event starts (now: " + may + ")");
      }
    if (next.pairing.rounds < paired_rounds(t))
      fail("bad_state", std::to_string(paired_rounds(t)) + " rounds have been paired: the event cannot have fewer");
    if (next.playoff_after_round != t.cfg.playoff_after_round || next.playoff_size != t.cfg.playoff_size) {
      if (t.has_playoff) fail("bad_state", "the play-off has started");
      if (next.playoff_after_round != 0 && next.playoff_after_round <= complete_rounds(t))
        fail("bad_state", "a play-off must follow a round not yet over (" + std::to_string(complete_rounds(t)) +
                              " are over)");
    }
    if (next.initial_ms != t.cfg.initial_ms || next.increment_ms != t.cfg.increment_ms)
      fx.warnings.push_back("games already created keep their time control; the new one is for the games created from now on");
  }
  std::string list;
  for (const auto& c : changed) list += (list.empty() ? "" : ", ") + c;
  const bool auto_switched_on = next.auto_rounds && !t.cfg.auto_rounds;
  next.pairing.name = next.name;
  t.cfg = std::move(next);
  t.ev.settings = t.cfg.pairing;
  fx.notices.push_back(make_notice("settings_changed", {{"list", list}}));
  if (t.stage == Stage::Registration) return fx;
  // Automatic rounds switched on start the round (or play-off round) waiting for the organiser and
  // pair the next one due; fewer rounds may end the event now.
  if (t.stage == Stage::Running && auto_switched_on &&
      (t.rounds_started < paired_rounds(t) || knockout_round_waiting(t))) {
    Effects started = start_round(t);
    fx.create.insert(fx.create.end(), started.create.begin(), started.create.end());
    fx.notices.insert(fx.notices.end(), started.notices.begin(), started.notices.end());
  }
  advance(t, fx);
  return fx;
}

int player_of(const Tournament& t, const std::string& user_id) {
  auto it = std::find(t.user_ids.begin(), t.user_ids.end(), user_id);
  return it == t.user_ids.end() ? -1 : static_cast<int>(it - t.user_ids.begin());
}

Effects join(Tournament& t, const std::string& user_id, const std::string& name, int rating,
             const std::string& join_code) {
  Effects fx;
  if (t.stage == Stage::Finished) fail("closed", "the event is over");
  if (t.stage == Stage::Cancelled) fail("closed", "the event was cancelled");
  if (t.stage != Stage::Registration && paired_rounds(t) >= t.cfg.late_join_until_round)
    fail("closed", "late registration has closed");
  if (t.cfg.access == "code" && join_code != t.cfg.join_code) fail("bad_code", "wrong join code");
  if (player_of(t, user_id) >= 0) fail("already_joined", "already registered");
  pairing::Player p;
  p.name = name;
  // Two entrants of one name (two guests who were never signed in at the same time) would be one
  // name in the pairings, standings and TRF: the later one is told apart by part of their id.
  if (std::any_of(t.ev.players.begin(), t.ev.players.end(), [&](const pairing::Player& q) { return q.name == name; }))
    p.name = name + "-" + user_id.substr(user_id.size() >= 6 ? 2 : 0, 4);
  p.rating = rating;
  if (t.stage != Stage::Registration) {
    p.join_round = paired_rounds(t) + 1;
    int top = 0;
    for (const auto& q : t.ev.players) top = std::max(top, q.number);
    p.number = top + 1;
  }
  t.ev.players.push_back(p);
  t.user_ids.push_back(user_id);
  fx.notices.push_back(make_notice("joined", {{"name", p.name}}));
  return fx;
}

static const char* const kEditedExplanation = "edited by the organiser";

// A running event's player is not paired from the first round not yet started on; their results
// stay. A round paired but not started is paired again without them (else they would keep a bye,
// or leave an opponent waiting for a no-show).
// The round paired and not started is paired again after a change of who plays (`change`:
// "without NAME", "with NAME"); the organiser hears what became of an edit of theirs.
static void pair_unstarted_again(Tournament& t, Effects& fx, bool with, const std::string& name) {
  const std::string change = (with ? "with " : "without ") + name;
  if (paired_rounds(t) <= t.rounds_started) return;
  const int r = paired_rounds(t);
  // An edited round is marked so by its explanation (edit_pairing): the organiser's boards are
  // about to be replaced by the engine's, which they must hear, not find out at the board.
  const bool edited = t.explain[r - 1] == std::vector<std::string>{kEditedExplanation};
  t.ev.rounds.pop_back();
  t.explain.pop_back();
  t.explain_zh.pop_back();
  try {
    Effects again = pair_next_round(t);
    fx.warnings.insert(fx.warnings.end(), again.warnings.begin(), again.warnings.end());
    fx.notices.push_back(make_notice(with ? "paired_again_with" : "paired_again_without", {{"round", std::to_string(r)}, {"name", name}}));
    if (edited)
      fx.warnings.push_back("round " + std::to_string(r) +
                            " had been edited by the organiser: the edit was replaced by the engine's pairing " + change +
                            "; edit it again if it should stand");
  } catch (const TournamentError& e) {
    fx.notices.push_back(make_notice("pair_again_by_hand", {{"round", std::to_string(r)}, {"why", e.what()}}));
    fx.warnings.push_back("round " + std::to_string(r) + (edited ? " (edited by the organiser)" : "") +
                          " was taken back and could not be paired again " + change + ": " + e.what() +
                          "; pair or edit it by hand");
  }
}

static void stop_pairing(Tournament& t, int p, Effects& fx) {
  t.ev.players[p].withdrawn_round = t.rounds_started + 1;
  pair_unstarted_again(t, fx, false, t.ev.players[p].name);
}

Effects reinstate(Tournament& t, const std::string& user_id) {
  require_stage(t, {Stage::Running, Stage::Paused}, "reinstating a player");
  Effects fx;
  const int p = player_of(t, user_id);
  if (p < 0) fail("not_joined", "not registered in this event");
  pairing::Player& pl = t.ev.players[p];
  if (t.disqualification(p)) fail("bad_state", pl.name + " was disqualified");
  if (pl.withdrawn_round == 0) fail("bad_state", pl.name + " has not withdrawn");
  if (t.has_playoff && std::count(t.playoff.seeds.begin(), t.playoff.seeds.end(), p))
    fail("bad_state", pl.name + " withdrew from the play-off, whose games of theirs are lost by forfeit");
  // The rounds started while they were out stay missed: absent, no points, as a late entrant's.
  for (int r = std::max(pl.withdrawn_round, 1); r <= t.rounds_started; ++r) {
    auto& missed = t.ev.rounds[r - 1].unavailable;
    if (std::find(missed.begin(), missed.end(), p) == missed.end()) missed.push_back(p);
    std::sort(missed.begin(), missed.end());
  }
  pl.withdrawn_round = 0;
  const auto states = pairing::compute_states(t.ev, paired_rounds(t));
  if (t.ev.settings.max_forfeits > 0 && states[p].forfeits >= t.ev.settings.max_forfeits)
    fx.warnings.push_back(pl.name + " has " + std::to_string(states[p].forfeits) +
                          " forfeits, the event's limit: not paired until a correction takes one away");
  fx.notices.push_back(make_notice("reinstated", {{"name", pl.name}}));
  pair_unstarted_again(t, fx, true, pl.name);
  return fx;
}

void Effects::append(Effects&& more) {
  auto move_all = [](auto& to, auto& from) { to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end())); };
  move_all(create, more.create);
  move_all(notices, more.notices);
  move_all(warnings, more.warnings);
  move_all(end, more.end);
  move_all(decide, more.decide);
}

Effects withdraw_banned(Tournament& t, const std::function<bool(const std::string& user_id)>& is_banned) {
  Effects fx;
  if (t.stage == Stage::Finished || t.stage == Stage::Cancelled) return fx;
  // Collected first: a withdrawal in registration removes the entrant, shifting the places.
  std::vector<std::string> out;
  for (size_t p = 0; p < t.user_ids.size(); ++p)
    if (t.ev.players[p].withdrawn_round == 0 && !t.disqualification(static_cast<int>(p)) && is_banned(t.user_ids[p]))
      out.push_back(t.user_ids[p]);
  for (const auto& user_id : out) {
    // The reason first, then what it changes (a round paired again without them); no "withdrew".
    fx.notices.push_back(make_notice("withdrawn_banned", {{"name", t.ev.players[player_of(t, user_id)].name}}));
    Effects one = withdraw(t, user_id);
    std::erase_if(one.notices, [](const Notice& n) { return n.code == "withdrew"; });
    fx.append(std::move(one));
  }
  return fx;
}

Effects withdraw(Tournament& t, const std::string& user_id) {
  Effects fx;
  int p = player_of(t, user_id);
  if (p < 0) fail("not_joined", "not registered in this event");
  if (t.stage == Stage::Finished) fail("closed", "the event is over");
  if (t.stage == Stage::Cancelled) fail("closed", "the event was cancelled");
  const std::string name = t.ev.players[p].name;  // a withdrawal in registration removes the player
  if (t.stage == Stage::Registration) {
    t.ev.players.erase(t.ev.players.begin() + p);
    t.user_ids.erase(t.user_ids.begin() + p);
    // Forbidden pairs name players by their place in the list, which just shifted: a pair with
    // the player goes, later places move up one.
    for (auto* list : {&t.ev.settings.forbidden, &t.cfg.pairing.forbidden}) {
      std::vector<std::pair<int, int>> kept;
      for (auto [a, b] : *list)
        if (a != p && b != p) kept.emplace_back(a > p ? a - 1 : a, b > p ? b - 1 : b);
      *list = std::move(kept);
    }
  } else {
    if (t.ev.players[p].withdrawn_round > 0) return fx;  // withdrawn already (by a ban, another organiser)
    stop_pairing(t, p, fx);
  }
  fx.notices.push_back(make_notice("withdrew", {{"name", name}}));
  return fx;
}

// The player a sanction (warn, disqualify) is given to, once the checks both share have passed.
static int sanctioned_player(const Tournament& t, const std::string& user_id, const std::string& reason,
                             const char* before_start) {
  const int p = player_of(t, user_id);
  if (p < 0) fail("not_joined", "not registered in this event");
  if (t.stage == Stage::Registration) fail("bad_state", before_start);
  if (t.stage == Stage::Cancelled) fail("closed", "the event was cancelled");
  if (!reason.empty() && !valid_display_name(reason))
    fail("bad_request", "reason: at most 100 bytes on one line, no control characters");
  return p;
}

Effects warn(Tournament& t, const std::string& user_id, const std::string& reason) {
  Effects fx;
  const int p = sanctioned_player(t, user_id, reason, "the event has not started");
  t.warnings.push_back({p, t.rounds_started, reason});
  fx.notices.push_back(reason.empty() ? make_notice("warned", {{"name", t.ev.players[p].name}})
                                      : make_notice("warned_because", {{"name", t.ev.players[p].name}, {"reason", reason}}));
  return fx;
}

Effects forbid_pairs(Tournament& t, const std::vector<std::pair<std::string, std::string>>& users) {
  require_stage(t, {Stage::Registration, Stage::Running, Stage::Paused}, "forbidding pairs");
  Effects fx;
  std::vector<std::pair<int, int>> add;
  for (const auto& [ua, ub] : users) {
    const int a = player_of(t, ua), b = player_of(t, ub);
    if (a < 0 || b < 0) fail("not_joined", (a < 0 ? ua : ub) + " is not registered in this event");
    if (a == b) fail("bad_request", "a forbidden pair is two different players");
    add.emplace_back(a, b);
  }
  auto listed = [&](int a, int b) {
    for (auto [x, y] : t.ev.settings.forbidden)
      if ((x == a && y == b) || (x == b && y == a)) return true;
    return false;
  };
  // The round already paired but not started was paired without them: it is the organiser's to
  // pair again (repair) or edit, not changed behind their back.
  const bool waiting = t.stage != Stage::Registration && paired_rounds(t) > t.rounds_started;
  for (auto [a, b] : add) {
    const std::string names = t.ev.players[a].name + " – " + t.ev.players[b].name;
    if (listed(a, b)) continue;
    t.ev.settings.forbidden.emplace_back(a, b);
    t.cfg.pairing.forbidden.emplace_back(a, b);
    fx.notices.push_back(make_notice("never_paired", {{"a", t.ev.players[a].name}, {"b", t.ev.players[b].name}}));
    if (waiting)
      for (const auto& board : t.ev.rounds.back().boards)
        if ((board.a == a && board.b == b) || (board.a == b && board.b == a))
          fx.warnings.push_back("round " + std::to_string(paired_rounds(t)) + ", paired already, seats " + names +
                                " together: pair it again (repair) or edit it");
  }
  return fx;
}

const Tournament::Sanction* Tournament::disqualification(int player) const {
  for (const auto& d : disqualified)
    if (d.player == player) return &d;
  return nullptr;
}

Effects disqualify(Tournament& t, const std::string& user_id, const std::string& reason) {
  Effects fx;
  const int p = sanctioned_player(t, user_id, reason, "the event has not started: withdraw the player instead");
  if (t.disqualification(p)) fail("bad_state", t.ev.players[p].name + " is disqualified already");
  const std::string name = t.ev.players[p].name;
  if (t.stage != Stage::Finished && t.ev.players[p].withdrawn_round == 0) stop_pairing(t, p, fx);
  t.disqualified.push_back({p, t.rounds_started, reason});
  fx.notices.push_back(reason.empty() ? make_notice("disqualified", {{"name", name}})
                                      : make_notice("disqualified_because", {{"name", name}, {"reason", reason}}));
  // Their game being played is lost; the game server ends it and its result comes back as any
  // game's (reason "disqualified"), counted by record_result.
  if (const GameSlot* g = current_game(t, p))
    fx.decide.push_back({g->game_id, g->red == p ? "black-wins" : "red-wins", "disqualified"});
  if (t.stage == Stage::Finished) fx.warnings.push_back("the event had finished: its final ranking changed");
  return fx;
}

Effects start(Tournament& t) {
  require_stage(t, {Stage::Registration}, "starting");
  if (t.ev.players.size() < 2) fail("bad_state", "an event needs at least two players");
  // Forbidden pairs set at creation name places in the registration list: one naming a place nobody
  // took goes now, or a late joiner would inherit it.
  const int n = static_cast<int>(t.ev.players.size());
  std::vector<std::string> dropped;
  for (auto* list : {&t.ev.settings.forbidden, &t.cfg.pairing.forbidden}) {
    std::vector<std::pair<int, int>> kept;
    for (auto [a, b] : *list) {
      if (a < n && b < n) kept.emplace_back(a, b);
      else if (list == &t.ev.settings.forbidden) dropped.push_back(std::to_string(a) + "-" + std::to_string(b));
    }
    *list = std::move(kept);
  }
  pairing::assign_pairing_numbers(t.ev);
  t.stage = Stage::Running;
  Effects fx = pair_next_round(t);
  fx.notices.insert(fx.notices.begin(), make_notice("event_started"));
  if (!dropped.empty()) {
    std::string list;
    for (const auto& d : dropped) list += (list.empty() ? "" : ", ") + d;
    fx.warnings.push_back("forbidden pairs naming places nobody took were dropped: " + list);
  }
  if (t.cfg.auto_rounds) {
    Effects s = start_round(t);
    fx.create = s.create;
    fx.notices.insert(fx.notices.end(), s.notices.begin(), s.notices.end());
  }
  return fx;
}

bool due_to_start(const Tournament& t, int64_t now_ms) {
  return t.stage == Stage::Registration && t.cfg.start_ms > 0 && now_ms >= t.cfg.start_ms && t.ev.players.size() >= 2;
}

Effects pair_next_round(Tournament& t, bool allow_rematches) {
  require_stage(t, {Stage::Running, Stage::Paused}, "pairing");
  Effects fx;
  if (paired_rounds(t) >= t.ev.settings.rounds) fail("bad_state", "every round has been paired");
  if (paired_rounds(t) > t.rounds_started) fail("bad_state", "the paired round has not started yet");
  if (complete_rounds(t) < paired_rounds(t)) fail("bad_state", "the current round is not finished");
  pairing::PairingResult res = pairing::pair_round(t.ev, playoff_players(t), allow_rematches);
  if (!res.ok)
    fail("pairing_failed", "round " + std::to_string(paired_rounds(t) + 1) + " cannot be paired: " + res.error +
                               (allow_rematches ? "" : " (pair it with allow_rematches for the fewest rematches with fresh byes, or edit the pairing)"));
  t.ev.rounds.push_back(res.record);
  t.explain.push_back(res.explain);
  t.explain_zh.push_back(res.explain_zh);
  for (auto& v : res.violations) fx.warnings.push_back(v);
  for (auto& r : res.rematches) fx.warnings.push_back("rematch: " + r);
  for (auto& b : res.repeated_byes) fx.warnings.push_back("second bye: " + b);
  const std::string round = std::to_string(paired_rounds(t));
  fx.notices.push_back(res.looked_ahead ? make_notice("round_paired_ahead", {{"round", round}, {"next", std::to_string(paired_rounds(t) + 1)}})
                                        : make_notice("round_paired", {{"round", round}}));
  return fx;
}

Effects start_round(Tournament& t) {
  require_stage(t, {Stage::Running}, "starting a round");
  Effects fx;
  const int r = paired_rounds(t);
  if (r == t.rounds_started) {
    // Every Swiss round started: a knockout round after the last one (the final of a play-off
    // after the last Swiss round) is the organiser's to start too.
    if (r == t.ev.settings.rounds && t.has_playoff) {
      sync_playoff_slots(t, fx, INT_MAX);
      if (!fx.create.empty() || !fx.notices.empty()) {
        // The semifinals say "play-off started" (sync_playoff_slots); the games after them this.
        if (std::none_of(fx.notices.begin(), fx.notices.end(), [](const Notice& n) { return n.code == "playoff_started"; }))
          fx.notices.push_back(make_notice("playoff_games_started"));
        return fx;
      }
    }
    fail("bad_state", "no paired round is waiting to start");
  }
  const auto& boards = t.ev.rounds[r - 1].boards;
  for (size_t b = 0; b < boards.size(); ++b) {
    if (boards[b].b == kBye) continue;
    GameSlot s;
    s.game_id = game_id_for(t.cfg.id, r, static_cast<int>(b), 0);
    s.round = r;
    s.board = static_cast<int>(b);
    s.red = boards[b].a;
    s.black = boards[b].b;
    t.games.push_back(s);
    fx.create.push_back(s);
  }
  t.rounds_started = r;
  sync_playoff_slots(t, fx);
  fx.notices.push_back(make_notice("round_started", {{"round", std::to_string(r)}}));
  return fx;
}

bool knockout_round_waiting(const Tournament& t) {
  const int r = paired_rounds(t);
  if (!t.has_playoff || t.stage != Stage::Running || r != t.rounds_started || r != t.ev.settings.rounds) return false;
  Tournament probe = t;
  Effects fx;
  sync_playoff_slots(probe, fx, INT_MAX);
  return !fx.create.empty() || !fx.notices.empty();
}

Effects edit_pairing(Tournament& t, const std::vector<std::pair<int, int>>& boards) {
  require_stage(t, {Stage::Running, Stage::Paused}, "editing a pairing");
  if (paired_rounds(t) == t.rounds_started) {
    // No round waiting: this is a manual pairing of the next round (e.g. when no legal automatic
    // pairing exists); the boards are checked below like an edit.
    if (complete_rounds(t) < paired_rounds(t)) fail("bad_state", "the current round is not finished");
    if (paired_rounds(t) >= t.ev.settings.rounds) fail("bad_state", "every round has been paired");
    t.ev.rounds.push_back(pairing::Round{{}, playoff_players(t)});
    t.explain.push_back({});
    t.explain_zh.push_back({});
  }
  const int r = paired_rounds(t);
  Effects fx;
  std::set<int> seen;
  pairing::Round edited;
  edited.unavailable = t.ev.rounds[r - 1].unavailable;
  for (auto [a, b] : boards) {
    const int n = static_cast<int>(t.ev.players.size());
    if (a < 0 || a >= n || (b != kBye && (b < 0 || b >= n)) || a == b) fail("bad_request", "bad player id on a board");
    if (!seen.insert(a).second || (b != kBye && !seen.insert(b).second)) fail("bad_request", "a player is on two boards");
    edited.boards.push_back({a, b, {}});
  }
  pairing::Event before = t.ev;
  before.rounds.pop_back();
  // Who plays is not the organiser's to drop silently: every available player is on a board (or
  // has the bye), nobody else is, and only an odd field has a bye. The rest (rematches, colour
  // breaks, …) may be the organiser's intent: warnings.
  const pairing::PairingProblem pp = pairing::make_problem(before, edited.unavailable);
  const std::set<int> available(pp.players.begin(), pp.players.end());
  int byes = 0;
  for (const auto& b : edited.boards) {
    for (int q : {b.a, b.b})
      if (q != kBye && !available.count(q))
        fail("bad_request", "player " + std::to_string(q) + " does not play round " + std::to_string(r) +
                                " (withdrawn or not yet joined)");
    if (b.b == kBye) ++byes;
  }
  for (int q : available)
    if (!seen.count(q))
      fail("bad_request", "player " + std::to_string(q) + " (" + t.ev.players[q].name + ") is on no board: every player of the round plays or has the bye");
  if (byes != (pp.needs_bye ? 1 : 0))
    fail("bad_request", pp.needs_bye ? "an odd field needs exactly one bye" : "an even field has no bye");
  fx.warnings = pairing::check_round(before, edited);  // rematches, colour breaks, … as warnings
  // The boards stay in the organiser's order (a board may be a table in the hall): no warning for it.
  std::erase(fx.warnings, std::string("boards are not in board order"));
  t.ev.rounds[r - 1] = edited;
  t.explain[r - 1] = {kEditedExplanation};
  t.explain_zh[r - 1] = {"由组织者修改"};
  fx.notices.push_back(make_notice("pairing_edited", {{"round", std::to_string(r)}}));
  return fx;
}

Effects repair(Tournament& t) {
  const int r = paired_rounds(t);
  if (r == 0 || r == t.rounds_started) fail("bad_state", "only a paired round that has not started can be re-paired");
  t.ev.rounds.pop_back();
  t.explain.pop_back();
  t.explain_zh.pop_back();
  return pair_next_round(t);
}

Effects pause(Tournament& t, const std::string& reason) {
  require_stage(t, {Stage::Running}, "pausing");
  if (!reason.empty() && !valid_display_name(reason))
    fail("bad_request", "reason: at most 100 bytes, no control characters");
  t.stage = Stage::Paused;
  t.paused_by = "organiser";
  t.pause_reason = reason;
  return {.notices = {reason.empty() ? make_notice("event_paused") : make_notice("event_paused_because", {{"reason", reason}})}};
}

Effects resume(Tournament& t) {
  require_stage(t, {Stage::Paused}, "resuming");
  t.stage = Stage::Running;
  t.paused_by.clear();
  t.pause_reason.clear();
  Effects fx{.notices = {make_notice("event_resumed")}};
  Effects more;
  if (paired_rounds(t) > t.rounds_started && t.cfg.auto_rounds) more = start_round(t);
  else advance(t, more);
  fx.create = more.create;
  fx.notices.insert(fx.notices.end(), more.notices.begin(), more.notices.end());
  return fx;
}

Effects cancel(Tournament& t, const std::string& reason) {
  require_stage(t, {Stage::Registration, Stage::Running, Stage::Paused}, "cancelling");
  if (!reason.empty() && !valid_display_name(reason))
    fail("bad_request", "reason: at most 100 bytes, no control characters");
  t.stage = Stage::Cancelled;
  t.cancel_reason = reason;
  Effects fx;
  // Games not over are closed here (a result that still comes is not applied), so no player is
  // shown one as their next game.
  for (auto& s : t.games) {
    if (s.finished) continue;
    s.finished = true;
    s.reason = "cancelled";
    fx.end.push_back(s.game_id);
  }
  fx.notices.push_back(reason.empty() ? make_notice("event_cancelled") : make_notice("event_cancelled_because", {{"reason", reason}}));
  return fx;
}

// A board game's result (slot's points, forfeit flag) into the round's record, with its fouls.
static void record_board_game(Tournament& t, const GameSlot& slot, int red_fouls, int black_fouls) {
  auto& board = t.ev.rounds.at(slot.round - 1).boards.at(slot.board);
  if (static_cast<int>(board.games.size()) <= slot.index) board.games.resize(slot.index + 1);
  // Side a is red in game 1 and black in game 2 (colours swapped).
  const bool a_red = slot.index % 2 == 0;
  auto& g = board.games[slot.index];
  g.a_points = a_red ? slot.red_points : slot.black_points;
  g.b_points = a_red ? slot.black_points : slot.red_points;
  const auto [arbiter_a, arbiter_b] = arbiter_fouls_ab(slot);
  g.a_fouls = (a_red ? red_fouls : black_fouls) + arbiter_a;
  g.b_fouls = (a_red ? black_fouls : red_fouls) + arbiter_b;
  g.forfeit = slot.forfeit;
}

ScoredEnd score_game_end(const pairing::Settings& s, const std::string& outcome, const std::string& reason, int plies) {
  ScoredEnd e{s.draw_points, s.draw_points, reason == "forfeit" || reason == "double_forfeit"};
  if (outcome == "red-wins") e.red_points = s.win_points, e.black_points = s.loss_points;
  else if (outcome == "black-wins") e.red_points = s.loss_points, e.black_points = s.win_points;
  // A game ended by a disqualification before both sides moved was not played: a forfeit, as the
  // disqualified player's games not yet created are (the same case must not score apart by
  // whether the game server had created the game yet).
  // So too a game a ban ended (or the game server ended at its creation: the player was banned).
  if ((reason == "disqualified" || reason == "banned") && plies < 2) e.forfeit = true;
  if (reason == "double_forfeit") e.red_points = e.black_points = 0;
  // An aborted event game (an admin's abort) counts as a double forfeit, so the event does not
  // wait on a game nobody will play; the organiser corrects it if it should count otherwise.
  if (outcome == "aborted") e = {0, 0, true};
  return e;
}

Effects record_result(Tournament& t, const std::string& game_id, int red_points, int black_points, bool forfeit,
                      int red_fouls, int black_fouls, const std::string& reason) {
  Effects fx;
  GameSlot* s = find_slot(t, game_id);
  if (!s) fail("unknown_game", "game " + game_id + " is not part of this event");
  if (s->finished) return fx;  // a result delivered twice is applied once (and none after a cancel)
  s->finished = true;
  s->red_points = red_points;
  s->black_points = black_points;
  s->forfeit = forfeit;
  s->reason = reason;
  const std::vector<int> removed_before = pairing::removal_rounds(t.ev);
  if (!s->knockout.empty() && reason == "abort") {
    // An aborted knockout game (an admin's abort) decides nothing: scored 0-0 it went to the
    // higher seed as a draw does, and the bracket moved on without a game (review, 2026-12-05).
    // It is played again, under a new id (the old one names the aborted game on the servers).
    s->finished = false;
    s->forfeit = false;
    s->red_points = s->black_points = 0;
    s->reason.clear();
    const std::string base = t.cfg.id + "-ko-" + s->knockout;
    int replay = 2;
    while (slot_exists(t, base + "-r" + std::to_string(replay))) ++replay;
    s->game_id = base + "-r" + std::to_string(replay);
    fx.create.push_back(*s);
    fx.notices.push_back(make_notice("knockout_replayed", {{"knockout", s->knockout}, {"red", t.ev.players[s->red].name},
                                                           {"black", t.ev.players[s->black].name}}));
    return fx;
  }
  const GameSlot slot = *s;  // t.games may grow below
  if (!slot.knockout.empty()) {
    record_knockout(t, slot.knockout, red_points, black_points);
  } else {
    record_board_game(t, slot, red_fouls, black_fouls);
    // The board's next game (two-game rounds), with colours swapped; one a disqualified or
    // withdrawn player would play is lost by forfeit unplayed (a withdrawal counts from the next
    // round for pairing, but the opponent must not wait out a second no-show for this one: review,
    // 2026-12-04), and so on to the board's last game.
    for (GameSlot prev = slot; prev.index + 1 < t.ev.settings.games_per_round;) {
      GameSlot next;
      next.game_id = game_id_for(t.cfg.id, prev.round, prev.board, prev.index + 1);
      next.round = prev.round;
      next.board = prev.board;
      next.index = prev.index + 1;
      next.red = prev.black;
      next.black = prev.red;
      if (slot_exists(t, next.game_id)) break;
      const bool unplayed = forfeit_if_disqualified(t, next, fx, true);
      t.games.push_back(next);
      if (!unplayed) {
        fx.create.push_back(next);
        break;
      }
      record_board_game(t, next, 0, 0);
      prev = next;
    }
    announce_removals(t, removed_before, fx);
  }
  advance(t, fx);
  return fx;
}

namespace {

// A knockout game's result corrected: its winner changes, and with it the places. A semifinal can
// be corrected only while the other one is still open: once both are decided the final and the
// third-place game exist on the game servers, with the players the old result sent there.
Effects correct_knockout(Tournament& t, GameSlot& s, int red_points, int black_points) {
  const int w = t.cfg.pairing.win_points, d = t.cfg.pairing.draw_points, l = t.cfg.pairing.loss_points;
  const std::pair<int, int> p{red_points, black_points};
  if (p != std::pair{w, l} && p != std::pair{l, w} && p != std::pair{d, d})
    fail("bad_request", "a knockout game ends " + std::to_string(w) + "-" + std::to_string(l) + ", " + std::to_string(l) +
                            "-" + std::to_string(w) + " or " + std::to_string(d) + "-" + std::to_string(d) +
                            " (a draw goes to the higher seed)");
  const bool semifinal = s.knockout == "sf1" || s.knockout == "sf2";
  if (semifinal && t.playoff.final_game.red >= 0)
    fail("bad_state", "the final and the third-place game were set up from both semifinals' results; a semifinal "
                      "can be corrected only before the other semifinal ends");
  record_knockout(t, s.knockout, red_points, black_points);
  s.red_points = red_points;
  s.black_points = black_points;
  s.forfeit = false;
  s.reason = "corrected";
  Effects fx{.notices = {make_notice("knockout_corrected",
                                     {{"knockout", s.knockout},
                                      {"red", t.ev.players.at(s.red).name},
                                      {"black", t.ev.players.at(s.black).name},
                                      {"score", std::to_string(red_points) + "–" + std::to_string(black_points)}})}};
  if (t.stage == Stage::Finished) fx.warnings.push_back("the event had finished: its final ranking changed with this correction");
  return fx;
}

}  // namespace

Effects correct_result(Tournament& t, const std::string& game_id, int red_points, int black_points) {
  GameSlot* s = find_slot(t, game_id);
  if (!s) fail("unknown_game", "game " + game_id + " is not part of this event");
  require_stage(t, {Stage::Running, Stage::Paused, Stage::Finished}, "correcting a result");
  if (!s->finished) fail("bad_state", "the game has no result to correct yet");
  // A result the event could have produced: a win, a draw, or both losing (a double forfeit).
  const int w = t.cfg.pairing.win_points, d = t.cfg.pairing.draw_points, l = t.cfg.pairing.loss_points;
  const std::pair<int, int> p{red_points, black_points};
  if (!s->knockout.empty()) return correct_knockout(t, *s, red_points, black_points);
  if (p != std::pair{w, l} && p != std::pair{l, w} && p != std::pair{d, d} && p != std::pair{l, l})
    fail("bad_request", "points must be a result of this event: " + std::to_string(w) + "-" + std::to_string(l) + ", " +
                            std::to_string(l) + "-" + std::to_string(w) + ", " + std::to_string(d) + "-" +
                            std::to_string(d) + " or " + std::to_string(l) + "-" + std::to_string(l) + " (double forfeit)");
  auto& g = t.ev.rounds.at(s->round - 1).boards.at(s->board).games.at(s->index);
  const std::vector<int> removed_before = pairing::removal_rounds(t.ev);
  // Kept at the first correction. An event stored before `played` existed, whose game was already
  // corrected, no longer has the game's own result: it is judged against the current one, as then.
  // The game's own fouls: the organiser's are kept apart and added back below.
  const auto [arbiter_a, arbiter_b] = arbiter_fouls_ab(*s);
  const GameSlot::Played current{s->red_points, s->black_points, s->forfeit, g.a_fouls - arbiter_a, g.b_fouls - arbiter_b,
                                 s->reason};
  if (!s->played && s->reason != "corrected") s->played = current;
  const GameSlot::Played& was = s->played ? *s->played : current;
  const bool a_red = s->index % 2 == 0;
  s->red_points = red_points;
  s->black_points = black_points;
  g.a_points = a_red ? red_points : black_points;
  g.b_points = a_red ? black_points : red_points;
  if (p == std::pair{was.red_points, was.black_points}) {  // back to the game's own result
    s->forfeit = g.forfeit = was.forfeit;
    s->reason = was.reason;
    g.a_fouls = was.a_fouls;
    g.b_fouls = was.b_fouls;
  } else {
    // Both losing is a double forfeit, a draw was played; a win keeps whether the game was played
    // or won by forfeit (the correction names the winner, not how). Pairing, the forfeit count
    // and 对手分 follow the flag.
    const bool double_forfeit = p == std::pair{l, l} && l != d;
    s->forfeit = g.forfeit = double_forfeit || (p != std::pair{d, d} && was.forfeit);
    s->reason = "corrected";
    // Fouls follow too: a double forfeit is one for each side; a draw was played, so none; a win
    // that the game decided by a violation (a forfeit, a forbidden repetition) charges it to the
    // side that now loses, and a win over the board stays without one.
    const bool violation = was.a_fouls + was.b_fouls > 0;
    if (double_forfeit) {
      g.a_fouls = g.b_fouls = 1;
    } else if (p == std::pair{d, d}) {
      g.a_fouls = g.b_fouls = 0;
    } else {
      g.a_fouls = violation && g.a_points < g.b_points ? 1 : 0;
      g.b_fouls = violation && g.b_points < g.a_points ? 1 : 0;
    }
  }
  g.a_fouls += arbiter_a;
  g.b_fouls += arbiter_b;
  auto params = board_params(t, *s);
  params.insert(params.end(), {{"red", t.ev.players.at(s->red).name},
                               {"black", t.ev.players.at(s->black).name},
                               {"score", std::to_string(red_points) + "–" + std::to_string(black_points)}});
  Effects fx{.notices = {make_notice(t.cfg.pairing.games_per_round > 1 ? "result_corrected_game" : "result_corrected", params)}};
  announce_removals(t, removed_before, fx);
  // What the correction cannot change by itself, said to the organiser who made it.
  const bool finished = t.stage == Stage::Finished;
  if (finished) fx.warnings.push_back("the event had finished: its final ranking changed with this correction");
  if (paired_rounds(t) > s->round) {
    const int later = s->round + 1;
    if (later > t.rounds_started)
      fx.warnings.push_back("round " + std::to_string(later) + " was paired with the old result: re-pair it if it should follow the correction");
    else
      fx.warnings.push_back("round " + std::to_string(later) + " was already paired with the old result" +
                            (finished || paired_rounds(t) >= t.cfg.pairing.rounds ? "" : "; later rounds are paired with the correction"));
  }
  if (t.has_playoff) fx.warnings.push_back("the play-off was already seeded with the old standings; it is not seeded again");
  return fx;
}

Effects record_foul(Tournament& t, const std::string& game_id, const std::string& side) {
  require_stage(t, {Stage::Running, Stage::Paused, Stage::Finished}, "recording a foul");
  GameSlot* s = find_slot(t, game_id);
  if (!s) fail("unknown_game", "game " + game_id + " is not part of this event");
  if (!s->knockout.empty()) fail("bad_state", "fouls count in the Swiss standings; a knockout game has none");
  if (side != "red" && side != "black") fail("bad_request", "side must be red or black");
  const bool red = side == "red";
  (red ? s->red_arbiter_fouls : s->black_arbiter_fouls)++;
  const int player = red ? s->red : s->black;
  // The game's own fouls are on the board once it has a result; before that only the organiser's.
  int in_game = red ? s->red_arbiter_fouls : s->black_arbiter_fouls;
  if (s->finished) {
    auto& g = t.ev.rounds.at(s->round - 1).boards.at(s->board).games.at(s->index);
    const bool on_a = red == (s->index % 2 == 0);
    in_game = ++(on_a ? g.a_fouls : g.b_fouls);
  }
  const std::string& name = t.ev.players.at(player).name;
  auto params = board_params(t, *s);
  params.insert(params.end(), {{"name", name}, {"count", std::to_string(in_game)}});
  Effects fx{.notices = {make_notice(t.cfg.pairing.games_per_round > 1 ? "foul_game" : "foul", params)}};
  if (in_game >= 2)
    fx.warnings.push_back(name + " has " + std::to_string(in_game) + " fouls in " + game_id +
                          ": where the regulation makes that a loss, adjudicate the game (the event's adjudicate "
                          "while it is played, correct once it has ended)");
  if (t.stage == Stage::Finished) fx.warnings.push_back("the event had finished: its final ranking may have changed");
  return fx;
}

pairing::Standings standings(const Tournament& t) { return pairing::compute_standings(t.ev, complete_rounds(t)); }

std::vector<int> final_ranking(const Tournament& t) {
  std::vector<int> out;
  if (t.has_playoff) out = pairing::playoff_places(t.playoff);
  for (const auto& row : standings(t).rows)
    if (std::find(out.begin(), out.end(), row.player) == out.end()) out.push_back(row.player);
  std::erase_if(out, [&](int p) { return t.disqualification(p) != nullptr; });
  return out;
}

const GameSlot* current_game(const Tournament& t, int player) {
  for (const auto& s : t.games)
    if (!s.finished && (s.red == player || s.black == player)) return &s;
  return nullptr;
}

}  // namespace xq::mm
