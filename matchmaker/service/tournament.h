// One tournament's whole life as a pure state machine: registration, pairing numbers, rounds,
// results, two-game rounds, play-offs, final ranking. Commands go in, effects (games to create,
// notices) come out; the service around it only stores the state in Redis and moves messages.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "game/rule_options.h"
#include "notice.h"
#include "pairing/playoff.h"
#include "pairing/swiss.h"
#include "pairing/tiebreaks.h"
#include "pairing/types.h"

namespace xq::mm {

enum class Stage { Registration, Running, Paused, Finished, Cancelled };
const char* stage_name(Stage s);
Stage parse_stage(const std::string& s);

struct EventConfig {
  std::string id, name, club_id, organiser;
  std::string variant = "xiangqi";             // xiangqi | jieqi
  std::string ruleset = "cxa";                 // cxa | axf | computer
  std::string capture_visibility = "capturer";  // Jieqi: capturer | nobody | both
  gs::RuleOptions rule_options;                 // repetition options (docs/adjudication.md)
  uint32_t initial_ms = 900000, increment_ms = 0;
  uint32_t no_show_ms = 600000;   // a player who has not moved by then loses by forfeit
  uint32_t spectator_delay_ms = 0;  // spectators of the event's games see them this much later
  std::string access = "open";    // open | members | code
  std::string join_code;
  bool auto_rounds = true;        // pair and start the next round as soon as one ends
  int late_join_until_round = 1;  // players may join while fewer rounds than this have started
  int playoff_after_round = 0;    // 0 = no play-off; else top `playoff_size` play a knockout after it
  int playoff_size = 4;
  int64_t start_ms = 0;           // informational start time
  pairing::Settings pairing;
};

// A game the tournament needs played (a Swiss game or a knockout game).
struct GameSlot {
  std::string game_id;
  int round = 0;        // 1-based round it belongs to
  int board = -1;       // board index in the round (-1 for knockout games)
  int index = 0;        // game index on the board (two-game rounds: 0, 1)
  std::string knockout; // "", "sf1", "sf2", "final", "third"
  int red = -1, black = -1;  // player ids
  bool finished = false;
  int red_points = 0, black_points = 0;
  bool forfeit = false;
  std::string reason;
  // The result as the game produced it, kept at its first correction: every later correction is
  // judged against it, so a correction back to it restores its forfeit flag and fouls.
  struct Played {
    int red_points = 0, black_points = 0;
    bool forfeit = false;
    int a_fouls = 0, b_fouls = 0;
    std::string reason;
  };
  std::optional<Played> played;
  // Fouls the organiser recorded (record_foul), on top of those the game's result carries: they
  // stay through the result's arrival and its corrections.
  int red_arbiter_fouls = 0, black_arbiter_fouls = 0;
};

struct Tournament {
  EventConfig cfg;
  Stage stage = Stage::Registration;
  pairing::Event ev;
  std::vector<std::string> user_ids;  // player id → user id
  std::vector<GameSlot> games;
  std::vector<std::vector<std::string>> explain;     // per paired round, one line per board
  std::vector<std::vector<std::string>> explain_zh;  // the same in Chinese (kept in step with explain)
  int rounds_started = 0;             // rounds whose games were created
  bool has_playoff = false;
  pairing::Playoff playoff;
  std::vector<std::string> applied;   // recent command ids (idempotency)
  uint64_t version = 0;
  std::string cancel_reason;          // the organiser's words, when cancelled
  // While paused: who paused it ("organiser", or "pairing" when no legal pairing was found for the
  // next round) and why (the organiser's optional words, or the pairing engine's).
  std::string paused_by, pause_reason;
  // A sanction of seed 002's list the organiser gave a player (warn, disqualify).
  struct Sanction {
    int player = -1;
    int round = 0;  // rounds started when it was given
    std::string reason;
  };
  // Disqualified players (取消比赛资格): not paired any more and left out of the final ranking; the
  // games they played keep their results for their opponents.
  std::vector<Sanction> disqualified;
  const Sanction* disqualification(int player) const;
  // Warnings (警告): a record the players see, with no effect on pairing or standings.
  std::vector<Sanction> warnings;
};

struct TournamentError : std::runtime_error {
  std::string code;  // stable: closed, already_joined, not_joined, bad_code, bad_state, unknown_game, bad_request
  TournamentError(std::string c, const std::string& msg) : std::runtime_error(msg), code(std::move(c)) {}
};

struct Effects {
  std::vector<GameSlot> create{};      // games to create on a game server
  std::vector<Notice> notices{};       // to the event's players: "round 2 paired", "event finished", …
  std::vector<std::string> warnings{}; // e.g. rematches in an edited pairing
  std::vector<std::string> end{};      // games created on a game server that must end unplayed (a cancel)
  struct Decision {
    std::string game_id, outcome, reason;  // outcome: "red-wins", "black-wins" or "draw"
  };
  std::vector<Decision> decide{};      // games being played that the game server must end so (a disqualification)
  void append(Effects&& more);         // `more`'s effects after these
};

// An event's or club's name (and a cancel's reason): 1..100 bytes, something visible (not only
// spaces, zero-width or combining marks: a list would show an empty row), no control characters (C0, C1),
// no line breaks (Unicode's too: they would forge lines of the TRF export and of logs) and no
// direction overrides, isolates or marks.
bool valid_display_name(const std::string& name);
Tournament create_tournament(EventConfig cfg);
// The organiser changes the event's settings (`next`: the whole config, e.g. config_with_changes).
// In registration anything but the variant (the entrants' ratings are the variant's); once started,
// only what is about what comes next: the name, the number of rounds (not below those paired),
// the time control and no-show time of games created from now on, the spectators' delay,
// automatic rounds, access and join code, late registration, and the play-off while it has not
// begun. Not after the event has finished or been cancelled. Fewer rounds may finish the event.
Effects update_settings(Tournament& t, EventConfig next);
int player_of(const Tournament& t, const std::string& user_id);  // -1 if not registered

Effects join(Tournament& t, const std::string& user_id, const std::string& name, int rating,
             const std::string& join_code = "");
Effects withdraw(Tournament& t, const std::string& user_id);
// Entrants whose accounts an admin has banned (`is_banned` asked for each active entrant's user
// id) are withdrawn, as `withdraw` would (removed in registration, paired no more once started),
// with the notice "withdrawn_banned". Their live game is ended by the game server's ban itself.
// Nothing for a finished or cancelled event, nor for entrants already withdrawn or disqualified.
Effects withdraw_banned(Tournament& t, const std::function<bool(const std::string& user_id)>& is_banned);
// The organiser takes a withdrawal back (a player who withdrew by mistake, or came back): paired
// again from the next round (a round paired and not started is paired again with them). The
// rounds started meanwhile stay missed: absent, no points. Not for a disqualified player, nor a
// play-off seed who withdrew from the play-off.
Effects reinstate(Tournament& t, const std::string& user_id);
// The organiser disqualifies a registered player of a running, paused or finished event (before
// the start, withdraw them instead): paired no more, as a withdrawal, and out of the final
// ranking. The game they are playing is lost (Effects::decide, reason "disqualified"), and a game
// of theirs not created yet (a two-game round's second, a knockout game) is lost by forfeit
// unplayed. `reason` ("" or a display name's length and characters) is shown with the standings.
Effects disqualify(Tournament& t, const std::string& user_id, const std::string& reason);
// The organiser warns a registered player of a running, paused or finished event (警告): recorded
// with the reason, told to everyone in the event's notices; pairing and standings do not change.
Effects warn(Tournament& t, const std::string& user_id, const std::string& reason);
// The organiser keeps registered players apart (club-mates, family) by their user ids: each pair
// is never paired from the next round paired on, in registration or later (a round paired and
// not started that seats them together is left as it is, with a warning).
Effects forbid_pairs(Tournament& t, const std::vector<std::pair<std::string, std::string>>& users);
// Registration → running: draws pairing numbers, pairs round 1 and (auto_rounds) starts it.
Effects start(Tournament& t);
// An event with a start time starts by itself once that time has come (with at least two players).
bool due_to_start(const Tournament& t, int64_t now_ms);
// Pairs the next round without starting it (organisers may edit it before start_round).
// `allow_rematches`: the organiser's answer to pairing_failed, the fewest rematches (each warned).
Effects pair_next_round(Tournament& t, bool allow_rematches = false);
// Creates the games of the paired but unstarted round. Without auto_rounds the play-off's games
// are created so too, with the round they belong to; once every Swiss round has started, a
// knockout round still to play (a play-off after the last Swiss round) is started by it alone.
Effects start_round(Tournament& t);
// Such a knockout round is ready and waits for start_round (for the organiser's page).
bool knockout_round_waiting(const Tournament& t);
// Replaces the boards of the paired, unstarted round (player ids; b = pairing::kBye for a bye).
Effects edit_pairing(Tournament& t, const std::vector<std::pair<int, int>>& boards);
// Drops the paired, unstarted round and pairs it again.
Effects repair(Tournament& t);
// `reason`: the organiser's words for the players (optional, at most 100 bytes).
Effects pause(Tournament& t, const std::string& reason = "");
Effects resume(Tournament& t);
// The organiser calls the event off, at any stage before it finishes: nothing is paired or
// started any more, the games not yet over are to be ended unplayed (Effects::end), and results
// that still arrive are kept on their games but count for nothing. There is no way back.
Effects cancel(Tournament& t, const std::string& reason);
// How the event scores a game's end as the game server reports it (outcome red-wins, black-wins,
// draw or aborted; the end's reason; plies played): points for each side, and whether it counts
// as a forfeit (not played over the board).
struct ScoredEnd {
  int red_points = 0, black_points = 0;
  bool forfeit = false;
  bool operator==(const ScoredEnd&) const = default;
};
ScoredEnd score_game_end(const pairing::Settings& s, const std::string& outcome, const std::string& reason, int plies);
// A game result from a game server (points 2/1/0; forfeit = not played over the board).
Effects record_result(Tournament& t, const std::string& game_id, int red_points, int black_points, bool forfeit,
                      int red_fouls, int black_fouls, const std::string& reason);
// Organiser correction of a finished game (by game id); standings follow.
Effects correct_result(Tournament& t, const std::string& game_id, int red_points, int black_points);
// One foul against `side` ("red" or "black") of a Swiss game, as an arbiter records a violation
// the server cannot see; it counts in the standings' fouls tiebreak. Running or finished games;
// a regulation's "second foul loses" is the organiser's adjudication, which the answer recalls.
Effects record_foul(Tournament& t, const std::string& game_id, const std::string& side);

// Standings after the rounds played so far (every tiebreak column).
pairing::Standings standings(const Tournament& t);
// Final ranking (player ids): play-off places first when there is a play-off; disqualified
// players are not ranked.
std::vector<int> final_ranking(const Tournament& t);
// The game a player should play now, if any.
const GameSlot* current_game(const Tournament& t, int player);

std::string game_id_for(const std::string& event_id, int round, int board, int index);

}  // namespace xq::mm
