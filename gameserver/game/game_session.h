// The state machine of one live game: moves, clocks, draw offers, abort, resignation, time
// forfeit, versioned events. Pure: no sockets, no Redis, no threads; time is passed in. The server
// drives one GameSession from one strand and persists the events it returns.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "game/client_move_index.h"
#include "game/clock.h"
#include "game/rule_options.h"
#include "rules/game.h"

namespace gs {

struct PlayerInfo {
  std::string user_id;
  std::string name;
  bool guest = false;
  int rating = 0;  // in the game's variant when the game started (display only)
  bool bot = false;  // a computer player (Auth::is_bot when the game was made), display only
};

struct GameConfig {
  std::string id;
  xq::Variant variant = xq::Variant::Xiangqi;
  std::string ruleset = "cxa";
  std::string capture_visibility = "capturer";  // Jieqi only
  RuleOptions options;
  TimeControl tc;
  PlayerInfo red, black;
  // Jieqi secret (never sent to clients before the end) and its public commitment.
  std::string assignment, salt, commitment;
  int64_t created_at_ms = 0;  // wall clock; also the start of the tournament no-show time
  bool rated = false;  // the result updates both players' Glicko-2 ratings
  // Tournament games (created by the matchmaker): no abort, no claims, no-show forfeits.
  std::string event_id;       // "" = not a tournament game
  int round = 0, board = 0;   // informational
  int64_t no_show_ms = 0;     // 0 = no no-show rule
  // Other games: a side that has not made its first move this long after its turn began (Red: the
  // game's creation; Black: Red's first move) aborts the game, unrated (0 = no such rule).
  int64_t first_move_ms = 0;
  int64_t spectator_delay_ms = 0;  // spectators see the game this much later (tournament broadcasts)
  std::string pool;  // the quick-pairing pool the game came from ("" = none)
  bool tournament() const { return !event_id.empty(); }

  xq::GameRules rules() const;  // throws std::invalid_argument on an unknown ruleset/visibility
};

// MoveLimitRequested: a player asked for the move limit on request (RuleOptions), or an arbiter
// imposed it (GameEvent::by_arbiter).
// TakenBack: the last `undone` plies are gone (their Move events stay in the log, so versions only
// grow). TimeGiven: `side` gave its opponent kTimeGiftMs (clocks after it in red_ms/black_ms).
enum class EventKind : uint8_t {
  Move = 1, DrawOffered = 2, DrawDeclined = 3, Ended = 4, MoveLimitRequested = 5,
  TakebackProposed = 6, TakebackDeclined = 7, TakenBack = 8, TimeGiven = 9,
};

// One versioned event. Moves store what is needed to replay them exactly (iccs, clocks after).
struct GameEvent {
  uint64_t version = 0;
  EventKind kind = EventKind::Move;
  xq::Color side = xq::Color::Red;  // mover, offerer, decliner, requester; Ended: see aborted_by
  std::string iccs;                 // Move
  size_t ply = 0;                   // Move: 1-based ply number (derived, not stored)
  std::string client_move_id;       // Move
  Millis red_ms = 0, black_ms = 0;  // clocks right after the event
  Millis lag_ms = 0;                // Move: compensated lag credited
  int64_t at_ms = 0;                // wall time, stamped by the server
  xq::Outcome outcome = xq::Outcome::Ongoing;  // Ended
  std::string reason;                          // Ended
  bool by_arbiter = false;  // MoveLimitRequested: imposed by an arbiter, on both sides unless one_side
  bool one_side = false;    // MoveLimitRequested by an arbiter: on `side` only (its checks do not count)
  int undone = 0;           // TakenBack: plies taken back (1 or 2)
  bool taken_back = false;  // Move: a later takeback undid it (derived, not stored)
  // Ended by an abort: `side` aborted, or did not make its first move in time. A pool client puts
  // the other player back in the pool on it.
  bool aborted_by = false;
};

enum class Status {
  Ok,
  Duplicate,  // this client_move_id was already played: acknowledge, don't replay
  NotYourTurn,
  Illegal,
  GameOver,
  OfferNotAllowed,
  AbortNotAllowed,
  LimitNotAllowed,  // no move limit on request in this game, or it is already running
  PositionChanged,  // the move was meant for another ply (a takeback came first)
  TakebackNotAllowed,
  GiveTimeNotAllowed,
};
const char* status_name(Status s);
const char* status_text(Status s);  // for people: "it is not your turn"

class GameSession {
 public:
  // Builds the start position (Jieqi: applies config.assignment). Throws std::invalid_argument on
  // a bad config.
  explicit GameSession(GameConfig config);

  const GameConfig& config() const { return config_; }
  const xq::RulesGame& rules_game() const { return game_; }
  const xq::Result& result() const { return game_.result(); }
  bool over() const { return game_.result().over(); }
  uint64_t version() const { return events_.size(); }
  const std::vector<GameEvent>& events() const { return events_; }
  const Clock& clock() const { return clock_; }
  std::optional<xq::Color> draw_offer_by() const { return offer_by_; }
  std::optional<xq::Color> takeback_proposed_by() const { return takeback_by_; }
  // Takebacks by agreement: casual games only (a rated or tournament result is played out as is).
  bool takebacks_allowed() const { return !config_.rated && !config_.tournament(); }
  // What give_time adds to the opponent's clock; 0 where it is not allowed (tournament games).
  Millis time_gift_ms() const { return config_.tournament() ? 0 : kTimeGiftMs; }
  // Version of the last TakenBack event (0 = none): Move events before it may describe plies that
  // are gone, so a catch-up across it must be a full state.
  uint64_t last_takeback_version() const { return last_takeback_version_; }
  static constexpr Millis kTimeGiftMs = 15'000;
  static constexpr int kMaxTimeGifts = 20;  // per side and game: each one is a stored event
  static constexpr int kMaxTakebacks = 10;  // accepted per proposer and game: each replays the game
  // What a player has left of each, so a client can stop offering what the server would refuse.
  int takebacks_left(xq::Color proposer) const {
    return takebacks_allowed() ? kMaxTakebacks - takebacks_[xq::index(proposer)] : 0;
  }
  int time_gifts_left(xq::Color giver) const { return time_gift_ms() > 0 ? kMaxTimeGifts - time_gifts_[xq::index(giver)] : 0; }
  // Clocks after each ply (index = ply - 1).
  const std::vector<std::pair<Millis, Millis>>& ply_clocks() const { return ply_clocks_; }
  // Index of the Move event for each ply (index = ply - 1).
  size_t plies() const { return game_.moves().size(); }

  // Wall-clock time stamped on events created from now on (informational: records, archives).
  void set_wall_time(int64_t ms) { wall_ms_ = ms; }

  // Starts the clock of the side to move at `now` (game start). On resuming a stored game, `now`
  // less the turn's time already used (game/clock_resume.h): the time no server ran is charged to
  // nobody, the rest to the side to move.
  void start_clock(Millis now);
  // Wall time (ms) the side to move's turn began: its opponent's last move, or the game's creation.
  int64_t turn_started_wall_ms() const;

  // Each operation appends the events it produced to `out` (and to the history). An error status
  // changed nothing, except that a fallen flag may have ended the game first (then `out` holds the
  // Ended event and the status is GameOver): callers persist and publish `out` in every case.
  // `expected_ply` (when not 0): the ply the client meant the move to be (PositionChanged otherwise).
  Status move(xq::Color side, const std::string& iccs, const std::string& client_move_id, Millis now,
              Millis reported_lag_ms, std::vector<GameEvent>& out, std::string* message = nullptr,
              size_t expected_ply = 0);
  // Version of the Move event played with this client_move_id, if any.
  std::optional<uint64_t> find_client_move(xq::Color side, const std::string& client_move_id) const;
  // A refused action says why in *message (when given): an offer has three reasons to be refused.
  Status offer_draw(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  Status accept_draw(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  Status decline_draw(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  Status resign(xq::Color side, Millis now, std::vector<GameEvent>& out);
  Status abort(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  // Takeback by agreement: `side` asks to take back its last move, and the opponent's reply to it if
  // there is one. Proposing while the opponent's proposal stands accepts it. A proposal lapses when
  // either side moves; after a decline, `side` may ask again once the opponent has moved.
  Status propose_takeback(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  Status accept_takeback(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  Status decline_takeback(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  // Adds time_gift_ms() to the opponent's clock.
  Status give_time(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  // Starts the move limit on request (RuleOptions::requested_move_limit_plies) for `side`.
  Status request_move_limit(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message = nullptr);
  // The same imposed by an arbiter (an admin): on both sides (every ply counts), or on one side
  // (whose checks, and the replies to them, do not count, as if it had asked).
  Status impose_move_limit(Millis now, std::vector<GameEvent>& out, std::optional<xq::Color> on_side = std::nullopt,
                           std::string* message = nullptr);
  // Ends the game for an outside reason (admin adjudication, forfeit).
  Status end(xq::Result result, Millis now, std::vector<GameEvent>& out);
  // `side` claims victory (forfeit) or a draw (claimed_draw) against an absent opponent (the
  // server checks the absence).
  Status claim(xq::Color side, bool draw, Millis now, std::vector<GameEvent>& out);
  // Ends the game if the running side's flag has fallen at `now` (Clock::flagged: after the grace
  // its lag quota allows). Returns true if it did.
  bool check_flag(Millis now, std::vector<GameEvent>& out);
  // When to call check_flag next, if the game is running.
  std::optional<Millis> flag_deadline() const;
  // Tournament no-show: the wall-clock time (ms) at which a side that has not made its first move
  // loses by forfeit, while that can still happen.
  std::optional<int64_t> no_show_deadline_wall() const;
  // Other games: the wall-clock time (ms) at which the side to move, if it has still not made its
  // first move, aborts the game (GameConfig::first_move_ms), while that can still happen.
  std::optional<int64_t> first_move_abort_wall() const;
  // Whether the main clocks wait for both first moves: while a first move can still abort the game
  // its countdown is the only one running (as on lichess: a player is not charged the time in
  // which the game may not happen at all). Tournament games' clocks run from the start.
  bool clocks_wait_for_first_moves() const { return first_move_abort_wall().has_value(); }
  // Whichever of the two applies to this game: when the side to move's first move is due.
  std::optional<int64_t> first_move_due_wall() const {
    return config_.tournament() ? no_show_deadline_wall() : first_move_abort_wall();
  }
  // Time the game could not be played (its storage was away, or no server ran it) is charged to
  // nobody: the side to move's clock gets it back, and the no-show time runs that much longer.
  void credit_outage(Millis ms);
  void extend_no_show(int64_t ms) { no_show_extra_ms_ += std::max<int64_t>(0, ms); }
  int64_t no_show_extension_ms() const { return no_show_extra_ms_; }
  // Ends the game when the side to move's first move was due by `wall_now` (first_move_due_wall).
  // A tournament game by forfeit: Red has not moved → Red loses, or both lose (double_forfeit,
  // scored 0-0) when Black never came either; Black has not moved → Black loses. Another game is
  // aborted. Returns true if it ended the game.
  bool check_first_move(int64_t wall_now, bool black_seen, Millis now, std::vector<GameEvent>& out);

  // Re-applies a stored event (recovery). Throws std::runtime_error if it does not fit.
  void replay(const GameEvent& e);

 private:
  bool can_offer(xq::Color side) const;
  void flag(Millis now, std::vector<GameEvent>& out);  // the running side loses on time (or draws)
  // Before a player's action other than a move: the flag falls after its grace (check_flag), and
  // at once where the side to move's time has run out and `actor` is that side (acting otherwise
  // than by moving, it has no move on its way) or, with no actor, whoever acts (a takeback agreed:
  // the time run out would be carried into the position played again). True if the game ended.
  bool flag_before_action(Millis now, std::vector<GameEvent>& out, std::optional<xq::Color> actor);
  void finish(xq::Result r, Millis now, std::vector<GameEvent>& out, std::optional<xq::Color> aborted_by = std::nullopt);
  GameEvent& push(EventKind kind, xq::Color side, std::vector<GameEvent>& out);
  void apply_move_bookkeeping(xq::Color mover);
  // Plies a takeback asked by `proposer` undoes now (1 or 2), or 0 with *why set.
  int takeback_plies(xq::Color proposer, std::string* why) const;
  void take_back(int plies);  // the rules game rebuilt without its last `plies` moves

  GameConfig config_;
  xq::RulesGame game_;
  Clock clock_;
  int64_t no_show_extra_ms_ = 0;  // downtime during the no-show time (extend_no_show)
  std::vector<GameEvent> events_;
  std::vector<std::pair<Millis, Millis>> ply_clocks_;
  ClientMoveIndex client_moves_;  // idempotency: (side, client_move_id) → version of its Move event
  std::optional<xq::Color> offer_by_;
  int offers_[2] = {0, 0};
  int64_t wall_ms_ = 0;
  bool may_offer_again_[2] = {true, true};  // false from an offer until the opponent moves
  std::optional<xq::Color> takeback_by_;
  bool may_propose_again_[2] = {true, true};  // false from a declined proposal until the opponent moves
  int time_gifts_[2] = {0, 0};
  int takebacks_[2] = {0, 0};  // accepted, by proposer
  uint64_t last_takeback_version_ = 0;
};

}  // namespace gs
