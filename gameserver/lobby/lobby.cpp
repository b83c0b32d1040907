#include "lobby/lobby.h"

#include <algorithm>
#include <boost/json.hpp>

#include "rules/jieqi.h"

namespace gs {

std::string Lobby::add(const User& owner, SeekSpec spec, std::string target, int owner_rating, std::string owner_block) {
  std::string id = "s-" + xq::random_hex(6);
  seeks_[id] = SeekEntry{id, owner, std::move(spec), std::move(target), owner_rating, std::move(owner_block)};
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

bool challenge_between(const SeekEntry& s, const std::string& a, const std::string& b) {
  return (s.owner.id == a && s.target_user_id == b) || (s.owner.id == b && s.target_user_id == a);
}

std::vector<std::string> Lobby::remove_challenges_between(const std::string& a, const std::string& b) {
  std::vector<std::string> ids;
  std::erase_if(seeks_, [&](const auto& kv) {
    if (!challenge_between(kv.second, a, b)) return false;
    ids.push_back(kv.first);
    return true;
  });
  return ids;
}

bool seek_visible_to(const SeekEntry& s, const std::string& user_id) {
  return s.target_user_id.empty() || s.target_user_id == user_id || s.owner.id == user_id;
}

size_t listed_seeks(const std::vector<SeekEntry>& seeks, const std::string& user_id, size_t limit,
                    std::vector<bool>& shown) {
  shown.assign(seeks.size(), false);
  size_t visible = 0, listed = 0;
  for (size_t i = 0; i < seeks.size(); ++i)  // theirs first: a user always sees what concerns them
    if (seeks[i].owner.id == user_id || (!seeks[i].target_user_id.empty() && seek_visible_to(seeks[i], user_id))) {
      ++visible;
      if (listed < limit) shown[i] = true, ++listed;
    }
  for (size_t i = 0; i < seeks.size(); ++i)
    if (seeks[i].owner.id != user_id && seeks[i].target_user_id.empty()) {
      ++visible;
      if (listed < limit) shown[i] = true, ++listed;
    }
  return visible;
}

std::vector<SeekEntry> Lobby::visible_to(const std::string& user_id) const {
  std::vector<SeekEntry> out;
  for (const auto& [id, s] : seeks_)
    if (seek_visible_to(s, user_id)) out.push_back(s);
  return out;
}

std::string encode_seek(const SeekEntry& s, const std::string& node) {
  boost::json::object o{{"id", s.id},
                        {"node", node},
                        {"owner_id", s.owner.id},
                        {"owner_name", s.owner.name},
                        {"owner_guest", s.owner.guest},
                        {"owner_rating", s.owner_rating},
                        {"owner_block", s.owner_block},
                        {"target", s.target_user_id},
                        {"variant", s.spec.variant == xq::Variant::Jieqi ? "jieqi" : "xiangqi"},
                        {"initial_ms", s.spec.tc.initial_ms},
                        {"increment_ms", s.spec.tc.increment_ms},
                        {"color", !s.spec.color ? "" : *s.spec.color == xq::Color::Red ? "red" : "black"},
                        {"ruleset", s.spec.ruleset},
                        {"capture_visibility", s.spec.capture_visibility},
                        {"rated", s.spec.rated},
                        {"rating_min", s.spec.rating_min},
                        {"rating_max", s.spec.rating_max}};
  write_rule_options(s.spec.options, o);
  return boost::json::serialize(o);
}

std::optional<StoredSeek> decode_seek(const std::string& text) {
  try {
    auto v = boost::json::parse(text);
    const auto& o = v.as_object();
    auto str = [&](const char* k) { return std::string(o.at(k).as_string()); };
    StoredSeek out;
    SeekEntry& s = out.seek;
    s.id = str("id");
    out.node = str("node");
    s.owner = User{str("owner_id"), str("owner_name"), o.at("owner_guest").as_bool()};
    s.target_user_id = str("target");
    if (const auto* r = o.if_contains("owner_rating")) s.owner_rating = r->to_number<int>();  // absent in older entries
    if (const auto* b = o.if_contains("owner_block")) s.owner_block = std::string(b->as_string());  // likewise
    s.spec.variant = str("variant") == "jieqi" ? xq::Variant::Jieqi : xq::Variant::Xiangqi;
    s.spec.tc.initial_ms = o.at("initial_ms").to_number<int64_t>();
    s.spec.tc.increment_ms = o.at("increment_ms").to_number<int64_t>();
    std::string color = str("color");
    if (color == "red") s.spec.color = xq::Color::Red;
    else if (color == "black") s.spec.color = xq::Color::Black;
    s.spec.ruleset = str("ruleset");
    s.spec.capture_visibility = str("capture_visibility");
    s.spec.options = read_rule_options(o);
    s.spec.rated = o.at("rated").as_bool();
    s.spec.rating_min = o.at("rating_min").to_number<int>();
    s.spec.rating_max = o.at("rating_max").to_number<int>();
    return out;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

size_t Lobby::owned_by(const std::string& user_id) const {
  return static_cast<size_t>(std::count_if(seeks_.begin(), seeks_.end(), [&](const auto& kv) { return kv.second.owner.id == user_id; }));
}

size_t Lobby::made_from(const std::string& block) const {
  if (block.empty()) return 0;
  return static_cast<size_t>(std::count_if(seeks_.begin(), seeks_.end(), [&](const auto& kv) { return kv.second.owner_block == block; }));
}

size_t Lobby::remove_user(const std::string& user_id) {
  return std::erase_if(seeks_, [&](const auto& kv) { return kv.second.owner.id == user_id; });
}

std::vector<std::string> Lobby::remove_open_seeks_of(const std::string& user_id) {
  std::vector<std::string> ids;
  for (const SeekEntry& e : take_open_seeks_of(user_id)) ids.push_back(e.id);
  return ids;
}

std::vector<SeekEntry> Lobby::take_open_seeks_of(const std::string& user_id) {
  std::vector<SeekEntry> taken;
  std::erase_if(seeks_, [&](const auto& kv) {
    const bool open = kv.second.owner.id == user_id && kv.second.target_user_id.empty();
    if (open) taken.push_back(kv.second);
    return open;
  });
  return taken;
}

std::vector<std::string> Lobby::ids() const {
  std::vector<std::string> out;
  for (const auto& kv : seeks_) out.push_back(kv.first);
  return out;
}

bool Lobby::remove(const std::string& id) { return seeks_.erase(id) > 0; }

}  // namespace gs
