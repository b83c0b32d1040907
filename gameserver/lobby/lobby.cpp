#include "lobby/lobby.h"

#include <algorithm>

#include "rules/jieqi.h"

namespace gs {

std::string Lobby::add(const User& owner, SeekSpec spec, std::string target) {
  std::string id = "s-" + xq::random_hex(6);
  seeks_[id] = SeekEntry{id, owner, std::move(spec), std::move(target)};
  return id;
}

bool Lobby::cancel(const std::string& id, const std::string& user_id) {
  auto it = seeks_.find(id);
  if (it == seeks_.end() || (it->second.owner.id != user_id && it->second.target_user_id != user_id)) return false;
  seeks_.erase(it);  // a challenge may be cancelled by its target too (= declined)
  return true;
}

std::optional<SeekEntry> Lobby::find(const std::string& id) const {
  auto it = seeks_.find(id);
  if (it == seeks_.end()) return std::nullopt;
  return it->second;
}

std::optional<SeekEntry> Lobby::take(const std::string& id, const std::string& taker) {
  auto it = seeks_.find(id);
  if (it == seeks_.end() || it->second.owner.id == taker) return std::nullopt;
  if (!it->second.target_user_id.empty() && it->second.target_user_id != taker) return std::nullopt;
  SeekEntry e = std::move(it->second);
  seeks_.erase(it);
  return e;
}

std::vector<SeekEntry> Lobby::visible_to(const std::string& user_id) const {
  std::vector<SeekEntry> out;
  for (const auto& [id, s] : seeks_)
    if (s.target_user_id.empty() || s.target_user_id == user_id || s.owner.id == user_id) out.push_back(s);
  return out;
}

size_t Lobby::owned_by(const std::string& user_id) const {
  return static_cast<size_t>(std::count_if(seeks_.begin(), seeks_.end(), [&](const auto& kv) { return kv.second.owner.id == user_id; }));
}

size_t Lobby::remove_user(const std::string& user_id) {
  return std::erase_if(seeks_, [&](const auto& kv) { return kv.second.owner.id == user_id; });
}

}  // namespace gs
