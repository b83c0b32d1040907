#include "game/client_move_index.h"

#include <functional>

#include "game/game_session.h"

namespace gs {

static size_t slot_hash(xq::Color side, std::string_view id) {
  return std::hash<std::string_view>{}(id) ^ (side == xq::Color::Red ? 0 : 0x9e3779b97f4a7c15ull);
}

void ClientMoveIndex::add(const std::vector<GameEvent>& events, uint64_t version) {
  if ((used_ + 1) * 2 > slots_.size()) grow(events);
  insert(events, static_cast<uint32_t>(version));
  ++used_;
}

std::optional<uint64_t> ClientMoveIndex::find(const std::vector<GameEvent>& events, xq::Color side,
                                              std::string_view id) const {
  if (slots_.empty() || id.empty()) return std::nullopt;
  const size_t mask = slots_.size() - 1;
  for (size_t i = slot_hash(side, id) & mask;; i = (i + 1) & mask) {
    const uint32_t v = slots_[i];
    if (v == 0) return std::nullopt;
    const GameEvent& e = events[v - 1];
    if (e.side == side && e.client_move_id == id && !e.taken_back) return v;  // an id taken back may be used again
  }
}

void ClientMoveIndex::insert(const std::vector<GameEvent>& events, uint32_t version) {
  const GameEvent& e = events[version - 1];
  const size_t mask = slots_.size() - 1;
  size_t i = slot_hash(e.side, e.client_move_id) & mask;
  while (slots_[i] != 0) i = (i + 1) & mask;
  slots_[i] = version;
}

void ClientMoveIndex::grow(const std::vector<GameEvent>& events) {
  std::vector<uint32_t> old = std::move(slots_);
  slots_.assign(old.empty() ? 16 : old.size() * 2, 0);
  for (uint32_t v : old)
    if (v != 0) insert(events, v);
}

}  // namespace gs
