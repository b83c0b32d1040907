// Chess clock arithmetic for one game: sudden death or Fischer increment, bounded lag
// compensation. Time is passed in (milliseconds from any monotonic origin) so tests use fake time.
#pragma once
#include <cstdint>

#include "rules/types.h"

namespace gs {

using Millis = int64_t;

struct TimeControl {
  Millis initial_ms = 0;
  Millis increment_ms = 0;  // Fischer; 0 = sudden death
};

// The time controls any game may have (seeks, pools, events alike): a typo must not start a game
// that ends at once or never. Empty when `tc` is one, else why not.
inline constexpr Millis kMinInitialMs = 1000, kMaxInitialMs = 6LL * 3600 * 1000, kMaxIncrementMs = 120'000;
inline const char* time_control_error(const TimeControl& tc) {
  if (tc.initial_ms < kMinInitialMs || tc.initial_ms > kMaxInitialMs || tc.increment_ms < 0 || tc.increment_ms > kMaxIncrementMs)
    return "time control: initial 1 s..6 h, increment <= 120 s";
  return nullptr;
}

// Lag compensation quota: each move may be credited the client's reported lag, but only out of a
// quota that refills slowly, so a lying client gains at most a bounded amount of time.
struct LagPolicy {
  Millis gain_per_move_ms = 100;  // quota refill per own move
  Millis start_quota_ms = 300;
  Millis max_quota_ms = 700;
  // Smaller for very fast games so compensation never dominates the time control.
  static LagPolicy for_time_control(const TimeControl& tc);
};

class Clock {
 public:
  explicit Clock(TimeControl tc);

  const TimeControl& time_control() const { return tc_; }
  // Starts `side`'s time at `now`. Used at game start and when resuming after a restart.
  void start(xq::Color side, Millis now);
  void stop(Millis now);  // freezes both clocks (game over)
  // The running side's turn gets `ms` back: time it could not use (no move could be stored).
  void credit_running(Millis ms) {
    if (running_) turn_start_ += ms;
  }
  bool running() const { return running_; }
  xq::Color side_running() const { return side_; }

  // The running side finished its move at `now`: charge elapsed time minus compensated lag, add
  // the increment, start the opponent. Returns the mover's remaining time after the move.
  Millis press(Millis now, Millis reported_lag_ms = 0);

  Millis remaining(xq::Color side, Millis now) const;  // may be negative (time ran out)
  // The running side's flag falls once no lag credit could bring a move back in time: when its
  // time has run out by more than its quota could still credit (a grace under a second or two: a
  // move sent in time but still on its way is not beaten by the server's timer, which made the
  // lag compensation useless at the flag, where it matters most). Meaningless if !running().
  Millis flag_deadline() const { return turn_start_ + remaining_[xq::index(side_)] + quota_[xq::index(side_)]; }
  Millis turn_start() const { return turn_start_; }  // when the running side's turn began
  bool flagged(Millis now) const { return running_ && now >= flag_deadline(); }
  // Whether a move of the running side arriving at `now` with `reported_lag_ms` is in time: its
  // time less the lag credited (press) is not used up. Within the grace, only with that credit.
  bool in_time(Millis now, Millis reported_lag_ms) const;

  // Restores stored remaining times (replay/recovery) without running the clock.
  void set_remaining(Millis red_ms, Millis black_ms);
  // Replays the lag-quota bookkeeping of a stored move of `mover` that was credited `credited_ms`
  // (recovery: the quota is not stored, so it is rebuilt move by move, as press() changed it).
  void replay_compensation(xq::Color mover, Millis credited_ms);
  Millis stored(xq::Color side) const { return remaining_[xq::index(side)]; }
  Millis quota(xq::Color side) const { return quota_[xq::index(side)]; }
  Millis last_compensation() const { return last_comp_; }  // lag credited by the last press

 private:
  Millis credit_for(Millis now, Millis reported_lag_ms) const;  // the lag a move at `now` is credited

  TimeControl tc_;
  LagPolicy lag_;
  Millis remaining_[2];
  Millis quota_[2];
  xq::Color side_ = xq::Color::Red;
  bool running_ = false;
  Millis turn_start_ = 0;
  Millis last_comp_ = 0;
};

}  // namespace gs
