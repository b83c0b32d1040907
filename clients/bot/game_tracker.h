// What xqbot knows of one game it plays: the position as the server shows it to the bot (for Jieqi
// that view never holds the face-down identities), the positions before it, the clocks, and the
// bot's own move in flight. Pure bookkeeping on protocol messages: no network, no threads.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "rules/types.h"
#include "xq.pb.h"

namespace xqbot {

using SteadyClock = std::chrono::steady_clock;

// The side to move in a FEN ("... w ..." / "... b ..."); SIDE_NONE if the FEN does not say.
xq::v1::Side side_to_move(const std::string& fen);

// Thinking time for one move: min(movetime, remaining/30 + increment/2), never more than a third
// of what is left, and at least 50 ms; divided by `sharing`, the searches of other games waiting
// behind this one plus one: each of them waits on its own clock while this one runs, so together
// they take what one search would.
int64_t time_budget_ms(int64_t movetime_ms, int64_t remaining_ms, int64_t increment_ms, int64_t sharing = 1);

// The --movetime-ms bound for the move at `plies`: a first move (plies 0 or 1) is due within the
// server's first-move time (30 s by default) or the game is aborted, so it thinks 5 s at most.
int64_t movetime_for_ply(int64_t movetime_ms, uint32_t plies);

struct GameTracker {
  std::string id;
  xq::v1::Variant variant = xq::v1::XIANGQI;
  xq::v1::Side you = xq::v1::SIDE_NONE;
  std::string opponent;  // name
  uint32_t initial_ms = 0, increment_ms = 0;
  bool rated = false;
  bool takebacks_allowed = false;

  uint64_t version = 0;           // last event applied
  uint32_t plies = 0;             // plies played
  std::string fen;                // current position as the bot sees it ("" while unknown)
  std::vector<std::string> earlier_fens;  // positions before it, oldest first (as far as known)
  uint32_t red_ms = 0, black_ms = 0;
  xq::v1::Side running = xq::v1::SIDE_NONE;
  SteadyClock::time_point clock_at{};  // when the clocks above were received
  bool over = false;
  xq::v1::GameResult result;
  bool opponent_present = true;

  // The bot's move in flight (sent, not yet seen played), resent with the same id after a reconnect.
  std::string pending_move_id, pending_iccs;
  uint32_t pending_ply = 0;  // the ply it is meant to be
  bool searching = false;    // a search for the current position is queued or running
  int last_score = 0;        // centipawns for the bot, from its latest search
  int min_depth = 0, max_depth = 0;  // the depths its searches in this game reached (for the log)
  int failed_moves = 0;      // refused moves at the current ply (ILLEGAL_MOVE and the like)

  // What an applied message asks of the bot.
  enum class Change { None, Position, DrawOffered, TakebackProposed, Ended, Gap };

  // A full state (game_started, or game_state after watch/sync): everything is replaced. The
  // earlier positions are kept where they still fit (same game, not fewer plies than before).
  void apply_state(const xq::v1::GameState& s, SteadyClock::time_point now);
  // One event. Old versions are ignored (None); a version beyond the next is a Gap (ask for sync).
  Change apply_event(const xq::v1::GameEvent& e, SteadyClock::time_point now);

  xq::v1::Side opponent_side() const { return you == xq::v1::RED ? xq::v1::BLACK : xq::v1::RED; }
  bool my_turn() const { return !over && !fen.empty() && side_to_move(fen) == you; }
  // The bot's clock now, counting down since it was received when it runs.
  int64_t my_remaining_ms(SteadyClock::time_point now) const;
  xq::Variant rules_variant() const { return variant == xq::v1::JIEQI ? xq::Variant::Jieqi : xq::Variant::Xiangqi; }
  std::string describe() const;  // "xiangqi 600+5 vs guest-bob, xqbot plays red"

 private:
  void take_clock(const xq::v1::ClockState& c, SteadyClock::time_point now);
};

const char* variant_name(xq::v1::Variant v);
const char* side_name(xq::v1::Side s);
const char* outcome_name(xq::v1::Outcome o);

}  // namespace xqbot
