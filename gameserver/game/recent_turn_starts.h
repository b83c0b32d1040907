// When each of a game's last few turns began on this node (steady time), keyed by the plies played
// before that turn. A rollback after a failed Redis write returns to one of them, and the side to
// move keeps the time it has used. A fixed ring, because it is written on every move.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace gs {

class RecentTurnStarts {
 public:
  static constexpr std::size_t kKept = 4;

  // Records the turn after `plies` plies unless it is known already (its first start counts).
  void record(uint32_t plies, int64_t started_ms) {
    if (find(plies)) return;
    Slot* target = &slots_[0];  // a free slot, else the earliest turn's
    for (Slot& s : slots_) {
      if (!s.used) { target = &s; break; }
      if (s.plies < target->plies) target = &s;
    }
    *target = Slot{plies, started_ms, true};
  }

  std::optional<int64_t> find(uint32_t plies) const {
    for (const Slot& s : slots_)
      if (s.used && s.plies == plies) return s.started_ms;
    return std::nullopt;
  }

  // The turn after `plies` started `ms` later than recorded (time given back to it).
  void credit(uint32_t plies, int64_t ms) {
    for (Slot& s : slots_)
      if (s.used && s.plies == plies) s.started_ms += ms;
  }

  // Turns after `plies` never happened (the game went back to that turn).
  void forget_after(uint32_t plies) {
    for (Slot& s : slots_)
      if (s.used && s.plies > plies) s.used = false;
  }

 private:
  struct Slot {
    uint32_t plies = 0;
    int64_t started_ms = 0;
    bool used = false;
  };
  std::array<Slot, kKept> slots_{};
};

}  // namespace gs
