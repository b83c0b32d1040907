// Game ownership: one owner key per game, one heartbeat per node (keys: store/keys.h).
//
// A node renews only its heartbeat each tick, however many games it runs. When the heartbeat
// lapses (the node crashed, stopped, or stalled past the lease time), any node may claim its
// games; the claim rewrites the owner key, and the append script's owner check fences the old
// node from then on, so no game is played on two nodes.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "store/game_store.h"
#include "store/keys.h"
#include "store/lease_lua.h"
#include "store/lua_script.h"

namespace gs {

// KEYS: heartbeat, known nodes, seen. ARGV: node, lease ms, wall ms now. Returns {1 if the heartbeat
// had lapsed else 0, the seen time it replaced or ''}.
static const char* kHeartbeatScript = R"lua(
local lapsed = redis.call('EXISTS', KEYS[1]) == 0
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
local before = redis.call('GET', KEYS[3]) or ''
redis.call('SET', KEYS[3], ARGV[3], 'PX', 604800000)
if lapsed then return {1, before} end
return {0, before}
)lua";

// KEYS: owner key, known nodes, resumed. ARGV: node, game id, node key prefix. Returns {0}, or {1,
// the previous owner or '', its seen time or '', the game's resumed record or ''}.
static const std::string kClaimScript = std::string(kLeaseLuaFunctions) + R"lua(
local cur = redis.call('GET', KEYS[1])
if claim_game(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3]) == 0 then return {0} end
local seen = cur and redis.call('GET', ARGV[3] .. cur .. ':seen')
return {1, cur or '', seen or '', redis.call('GET', KEYS[3]) or ''}
)lua";

// KEYS: owner key. ARGV: node, game id, node key prefix.
static const std::string kReleaseScript =
    std::string(kLeaseLuaFunctions) + "release_game(KEYS[1], ARGV[1], ARGV[2], ARGV[3])\nreturn 1\n";

// KEYS: owner keys. ARGV: node, node key prefix. The living owner of each game, or "".
static const char* kOwnersScript = R"lua(
local out = {}
for i, k in ipairs(KEYS) do
  local cur = redis.call('GET', k)
  if cur and (cur == ARGV[1] or redis.call('EXISTS', ARGV[2] .. cur .. ':alive') == 1) then out[i] = cur else out[i] = '' end
end
return out
)lua";

// KEYS: known nodes. ARGV: node, games per dead node, node key prefix.
static const char* kDeadNodesScript = R"lua(
local out = {}
for _, n in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if n ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. n .. ':alive') == 0 then
    local games = redis.call('SRANDMEMBER', ARGV[3] .. n .. ':games', tonumber(ARGV[2]))
    if #games == 0 then
      redis.call('SREM', KEYS[1], n)
      redis.call('DEL', ARGV[3] .. n .. ':online', ARGV[3] .. n .. ':seen')
    end
    for _, g in ipairs(games) do out[#out + 1] = g end
  end
end
return out
)lua";

static int64_t now_wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

static int64_t steady_now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

static int64_t number(const RedisReply& r) { return r.type == RedisReply::Type::String ? std::atoll(r.str.c_str()) : 0; }

bool GameStore::heartbeat() {
  auto r = eval_script(redis_, kHeartbeatScript, {keys::node_alive(node_), keys::kKnownNodes, keys::node_seen(node_)},
                       {node_, std::to_string(lease_ms_), std::to_string(now_wall_ms())});
  if (r.elements.size() < 2) return false;
  last_beat_ms_ = steady_now_ms();
  if (!heartbeat_started_) {
    previous_life_seen_ms_ = number(r.elements[1]);
    heartbeat_started_ = true;
  }
  return r.elements[0].integer == 1;
}

void GameStore::stop_heartbeat() {
  // Until now this node ran its games: the node taking them up charges their turns that far.
  redis_.command({"SET", keys::node_seen(node_), std::to_string(now_wall_ms()), "PX", "604800000"});
  redis_.command({"DEL", keys::node_alive(node_)});
}

bool GameStore::claim(const std::string& id, ResumeFacts* from) {
  auto r = eval_script(redis_, kClaimScript.c_str(), {keys::game_owner(id), keys::kKnownNodes, keys::game_resumed(id)},
                       {node_, id, keys::kNodePrefix});
  if (r.elements.empty() || r.elements[0].integer != 1) return false;
  if (from && r.elements.size() >= 4) {
    // This node's own game from its previous life: its first heartbeat here read when that ended.
    const bool own = r.elements[1].str == node_;
    from->run_until_ms = own && heartbeat_started_ ? previous_life_seen_ms_.load() : number(r.elements[2]);
    unsigned long long plies = 0;
    long long at = 0, used = 0;
    if (std::sscanf(r.elements[3].str.c_str(), "%llu:%lld:%lld", &plies, &at, &used) == 3)
      from->earlier = EarlierResume{plies, at, used};
  }
  return true;
}

void GameStore::set_resumed(const std::string& id, uint64_t plies, int64_t at_ms, int64_t used_ms) {
  redis_.command({"SET", keys::game_resumed(id),
                  std::to_string(plies) + ":" + std::to_string(at_ms) + ":" + std::to_string(used_ms), "PX", "86400000"});
}

void GameStore::release(const std::string& id) {
  eval_script(redis_, kReleaseScript.c_str(), {keys::game_owner(id)}, {node_, id, keys::kNodePrefix});
}

std::vector<std::string> GameStore::owners(const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (size_t at = 0; at < ids.size(); at += 500) {  // bounded script arguments
    std::vector<std::string> ks;
    for (size_t i = at; i < std::min(ids.size(), at + 500); ++i) ks.push_back(keys::game_owner(ids[i]));
    for (auto& e : eval_script(redis_, kOwnersScript, std::move(ks), {node_, keys::kNodePrefix}).elements)
      out.push_back(e.str);
  }
  out.resize(ids.size());
  return out;
}

std::optional<std::string> GameStore::owner(const std::string& id) {
  auto o = owners({id});
  if (o[0].empty()) return std::nullopt;
  return o[0];
}

std::vector<std::string> GameStore::claimable(const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  auto o = owners(ids);
  for (size_t i = 0; i < ids.size(); ++i)
    if (o[i].empty() || o[i] == node_) out.push_back(ids[i]);
  return out;
}

std::vector<std::string> GameStore::lost_games(const std::vector<std::string>& ids) {
  std::vector<std::string> lost;
  for (size_t at = 0; at < ids.size(); at += 500) {
    std::vector<std::string> cmd{"MGET"};
    for (size_t i = at; i < std::min(ids.size(), at + 500); ++i) cmd.push_back(keys::game_owner(ids[i]));
    auto r = redis_.command(cmd);
    for (size_t i = 0; i < r.elements.size(); ++i)
      if (r.elements[i].type != RedisReply::Type::String || r.elements[i].str != node_) lost.push_back(ids[at + i]);
  }
  return lost;
}

std::vector<std::string> GameStore::games_of_dead_nodes(size_t per_node) {
  std::vector<std::string> out;
  for (auto& e : eval_script(redis_, kDeadNodesScript, {keys::kKnownNodes}, {node_, std::to_string(per_node), keys::kNodePrefix})
                     .elements)
    out.push_back(e.str);
  return out;
}

bool GameStore::ownership_in_doubt() const {
  const int64_t now = steady_now_ms();
  return now < doubt_until_ms_.load() || (heartbeat_started_ && now - last_beat_ms_.load() > lease_ms_ * 3 / 4);
}

bool GameStore::owns(const std::string& id) {
  if (node_.empty()) return true;
  const RedisReply r = redis_.command({"GET", keys::game_owner(id)});
  return r.type == RedisReply::Type::String && r.str == node_;
}

bool GameStore::is_live(const std::string& id) {
  return redis_.command({"SISMEMBER", keys::kLiveGames, id}).integer == 1;
}

}  // namespace gs
