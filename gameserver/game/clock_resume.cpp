#include "game/clock_resume.h"

#include <algorithm>

namespace gs {

int64_t turn_time_used_before_resume(const ResumeFacts& f) {
  if (f.turn_started_ms <= 0 || f.run_until_ms <= 0 || f.now_ms < f.turn_started_ms) return 0;
  int64_t used;
  if (f.earlier && f.earlier->plies == f.plies && f.earlier->at_ms >= f.turn_started_ms)
    used = f.earlier->used_ms + std::max<int64_t>(0, f.run_until_ms - f.earlier->at_ms);  // run since that resumption
  else
    used = f.run_until_ms - f.turn_started_ms;
  // Never more than the turn has lasted (the servers' wall clocks may differ a little).
  return std::clamp<int64_t>(used, 0, f.now_ms - f.turn_started_ms);
}

}  // namespace gs
