#include "game/clock.h"

#include <algorithm>

namespace gs {

LagPolicy LagPolicy::for_time_control(const TimeControl& tc) {
  LagPolicy p;
  // Roughly: games under a minute get a tenth of the refill of longer ones.
  Millis estimate = tc.initial_ms + 40 * tc.increment_ms;
  if (estimate < 60'000) p.gain_per_move_ms = 10 + estimate / 1000;
  else p.gain_per_move_ms = std::min<Millis>(250, 70 + estimate / 6000);
  p.start_quota_ms = 3 * p.gain_per_move_ms;
  p.max_quota_ms = 7 * p.gain_per_move_ms;
  return p;
}

Clock::Clock(TimeControl tc) : tc_(tc), lag_(LagPolicy::for_time_control(tc)) {
  remaining_[0] = remaining_[1] = tc.initial_ms;
  quota_[0] = quota_[1] = lag_.start_quota_ms;
}

void Clock::start(xq::Color side, Millis now) {
  side_ = side;
  running_ = true;
  turn_start_ = now;
}

void Clock::stop(Millis now) {
  if (!running_) return;
  // Within the flag's grace the time may have run out already: none is left, not less than none.
  remaining_[xq::index(side_)] = std::max<Millis>(0, remaining(side_, now));
  running_ = false;
}

Millis Clock::credit_for(Millis now, Millis reported_lag_ms) const {
  const Millis elapsed = std::max<Millis>(0, now - turn_start_);
  return std::clamp<Millis>(reported_lag_ms, 0, std::min(quota_[xq::index(side_)], elapsed));
}

bool Clock::in_time(Millis now, Millis reported_lag_ms) const {
  if (!running_) return true;
  const Millis elapsed = std::max<Millis>(0, now - turn_start_);
  return remaining_[xq::index(side_)] - (elapsed - credit_for(now, reported_lag_ms)) > 0;
}

Millis Clock::press(Millis now, Millis reported_lag_ms) {
  int i = xq::index(side_);
  // A clock not started charges nothing (a move that reached a game before its start charged the
  // time since the clock's origin, hours: review, 2026-12-05).
  Millis elapsed = running_ ? std::max<Millis>(0, now - turn_start_) : 0;
  Millis comp = credit_for(now, reported_lag_ms);
  replay_compensation(side_, comp);
  remaining_[i] = remaining_[i] - (elapsed - comp) + tc_.increment_ms;
  Millis left = remaining_[i];
  start(xq::opposite(side_), now);
  return left;
}

Millis Clock::remaining(xq::Color side, Millis now) const {
  Millis r = remaining_[xq::index(side)];
  if (running_ && side == side_) r -= std::max<Millis>(0, now - turn_start_);
  return r;
}

void Clock::replay_compensation(xq::Color mover, Millis credited_ms) {
  int i = xq::index(mover);
  last_comp_ = credited_ms;
  quota_[i] = std::min(lag_.max_quota_ms, quota_[i] - credited_ms + lag_.gain_per_move_ms);
}

void Clock::set_remaining(Millis red_ms, Millis black_ms) {
  remaining_[0] = red_ms;
  remaining_[1] = black_ms;
}

}  // namespace gs
