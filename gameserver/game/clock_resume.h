// How much of the side to move's current turn a node taking up a live game charges to that side
// (a restart, a deploy, a takeover after a crash). The decision is "time while no game server ran
// is charged to nobody": the time a server did run counts, the gap does not. A server's last
// heartbeat (or its clean stop) tells when it stopped running the game; an earlier resumption
// during the same turn is remembered, so a second gap is not charged for the first.
#pragma once
#include <cstdint>
#include <optional>

namespace gs {

struct EarlierResume {
  uint64_t plies = 0;   // the game's plies when it was resumed
  int64_t at_ms = 0;    // wall: when
  int64_t used_ms = 0;  // the turn's time charged up to then
};

struct ResumeFacts {
  uint64_t plies = 0;            // plies played: identifies the turn
  int64_t turn_started_ms = 0;   // wall: the last move, or the game's creation (0 = unknown)
  int64_t run_until_ms = 0;      // wall: when the server that last ran the game stopped (0 = unknown)
  int64_t now_ms = 0;            // wall
  std::optional<EarlierResume> earlier;
};

// Milliseconds of the current turn to charge to the side to move on resuming; 0 when unknown.
int64_t turn_time_used_before_resume(const ResumeFacts& f);

}  // namespace gs
