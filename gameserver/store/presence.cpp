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

// KEYS: known nodes. ARGV: node key prefix, then the name and user id of each user. Returns 1/0 per
// user: is that name signed in as that user on a node whose heartbeat lives?
static const char* kOnlineScript = R"lua(
local nodes = {}
for _, n in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. n .. ':alive') == 1 then nodes[#nodes + 1] = ARGV[1] .. n .. ':online' end
end
local out = {}
for i = 2, #ARGV, 2 do
  local on = 0
  for _, key in ipairs(nodes) do
    if redis.call('HGET', key, ARGV[i]) == ARGV[i + 1] then on = 1 break end
  end
  out[#out + 1] = on
end
return out
)lua";

std::set<std::string> Presence::online(Redis& redis, const std::map<std::string, std::string>& names) {
  std::set<std::string> out;
  if (names.empty()) return out;
  std::vector<std::string> args{keys::kNodePrefix}, ids;
  for (const auto& [id, name] : names) {
    args.push_back(name);
    args.push_back(id);
    ids.push_back(id);
  }
  RedisReply r = eval_script(redis, kOnlineScript, {keys::kKnownNodes}, std::move(args));
  for (size_t i = 0; i < ids.size() && i < r.elements.size(); ++i)
    if (r.elements[i].integer == 1) out.insert(ids[i]);
  return out;
}

void Presence::add(const std::string& name, const std::string& user_id) {
  redis_.command({"HSET", keys::node_online(node_), name, user_id});
}

bool Presence::claim_guest_name(const std::string& name, const std::string& user_id) {
  // SET NX GET: nil when the name was free (now ours), else the guest holding it.
  auto r = redis_.command({"SET", keys::guest_name_claim(name), user_id, "NX", "GET", "PX", "10000"});
  return r.type != RedisReply::Type::String || r.str == user_id;
}

// KEYS: this node's online hash, the name's reservation. ARGV: name, user id.
static const char* kRemoveScript = R"lua(
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
return 1
)lua";

void Presence::remove(const std::string& name, const std::string& user_id) {
  eval_script(redis_, kRemoveScript, {keys::node_online(node_), keys::guest_name_claim(name)}, {name, user_id});
}

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
