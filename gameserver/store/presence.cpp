#include "store/presence.h"

#include <algorithm>
#include <vector>

#include "store/keys.h"
#include "store/lua_script.h"

namespace gs {

// KEYS: known nodes. ARGV: user name, node key prefix.
static const char* kFindScript = R"lua(
for _, n in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[2] .. n .. ':alive') == 1 then
    local id = redis.call('HGET', ARGV[2] .. n .. ':online', ARGV[1])
    if id then return id end
  end
end
return false
)lua";

void Presence::add(const std::string& name, const std::string& user_id) {
  redis_.command({"HSET", keys::node_online(node_), name, user_id});
}

void Presence::remove(const std::string& name) { redis_.command({"HDEL", keys::node_online(node_), name}); }

void Presence::resync(const std::function<std::map<std::string, std::string>()>& connected) {
  const std::string key = keys::node_online(node_);
  // Read first, then ask who is connected: an entry a sign-in wrote before the read belongs to a
  // connection that already had its user, so the list below has it and it is not deleted.
  auto stored = redis_.command({"HGETALL", key});
  const auto users = connected();
  std::vector<std::string> gone{"HDEL", key};
  for (size_t i = 0; i + 1 < stored.elements.size(); i += 2) {
    auto it = users.find(stored.elements[i].str);
    if (it == users.end()) gone.push_back(stored.elements[i].str);
  }
  for (size_t at = 2; at < gone.size(); at += 500) {  // bounded commands
    std::vector<std::string> cmd{"HDEL", key};
    cmd.insert(cmd.end(), gone.begin() + at, gone.begin() + std::min(gone.size(), at + 500));
    redis_.command(cmd);
  }
  std::vector<std::string> cmd{"HSET", key};
  for (const auto& [name, id] : users) {
    cmd.push_back(name);
    cmd.push_back(id);
    if (cmd.size() >= 1002) {
      redis_.command(cmd);
      cmd.resize(2);
    }
  }
  if (cmd.size() > 2) redis_.command(cmd);
}

std::vector<Presence::OnlineUser> Presence::elsewhere() {
  std::vector<OnlineUser> out;
  for (const auto& n : redis_.command({"SMEMBERS", keys::kKnownNodes}).elements) {
    if (n.str == node_ || redis_.command({"EXISTS", keys::node_alive(n.str)}).integer != 1) continue;
    auto users = redis_.command({"HGETALL", keys::node_online(n.str)});
    for (size_t i = 0; i + 1 < users.elements.size(); i += 2)
      out.push_back({n.str, users.elements[i].str, users.elements[i + 1].str});
  }
  return out;
}

std::optional<std::string> Presence::find(const std::string& name) {
  auto r = eval_script(redis_, kFindScript, {keys::kKnownNodes}, {name, keys::kNodePrefix});
  if (r.type != RedisReply::Type::String) return std::nullopt;
  return r.str;
}

}  // namespace gs
