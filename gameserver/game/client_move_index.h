// Which Move event a client_move_id was played under, for idempotent resends (GameSession::move).
// The ids stay where they already are, in the game's events; the index holds only the events'
// versions, in an open-addressing table: 4–8 bytes a move where a hash map of the ids cost a heap
// node of about 100 bytes a move, kept for the whole game.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "rules/types.h"

namespace gs {

struct GameEvent;

class ClientMoveIndex {
 public:
  // events[version - 1] is a Move event with a client_move_id not yet in the index.
  void add(const std::vector<GameEvent>& events, uint64_t version);
  // The version of the side's Move event played under `id`, if any.
  std::optional<uint64_t> find(const std::vector<GameEvent>& events, xq::Color side, std::string_view id) const;

 private:
  void insert(const std::vector<GameEvent>& events, uint32_t version);
  void grow(const std::vector<GameEvent>& events);

  std::vector<uint32_t> slots_;  // versions, 0 = empty; a power of two in size, at most half full
  size_t used_ = 0;
};

}  // namespace gs
