#include "store/game_store.h"

#include <openssl/sha.h>

#include <boost/json.hpp>
#include <algorithm>
#include <cstring>

#include "game/codec.h"
#include "store/keys.h"
#include "store/rating_store.h"

namespace gs {

void GameStore::create(const GameConfig& c) {
  redis_.command({"SET", keys::game_meta(c.id), encode_config(c)});
  if (!node_.empty()) claim(c.id);  // the creating node owns the game (before sweepers see it live)
  redis_.command({"SADD", keys::kLiveGames, c.id});
}

// Appends only if the list has the expected length: a replayed request can never interleave
// events of one game. Fencing: if ARGV[3] (a node id) is not empty, the owner key must hold it, so
// a node whose lease expired (and was taken over) cannot write any more.
static const char* kAppendScript = R"lua(
if ARGV[3] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[3] then return redis.error_reply('NOT_OWNER') end
local n = redis.call('LLEN', KEYS[1])
if n ~= tonumber(ARGV[1]) then return redis.error_reply('version conflict: have ' .. n) end
for i = 4, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
redis.call('SET', KEYS[2], ARGV[2])
return n + #ARGV - 3
)lua";

static const char* kClaimScript = R"lua(
local cur = redis.call('GET', KEYS[1])
if cur == false then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
if cur == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
)lua";

static const char* kRenewScript = R"lua(
local lost = {}
for i, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then redis.call('PEXPIRE', k, ARGV[2]) else lost[#lost + 1] = i end
end
return lost
)lua";

static const char* kReleaseScript = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
)lua";

static const char* kClaimableScript = R"lua(
local out = {}
for i, k in ipairs(KEYS) do
  local cur = redis.call('GET', k)
  if cur == false or cur == ARGV[1] then out[#out + 1] = i end
end
return out
)lua";

static std::string sha1_hex(const char* text) {
  unsigned char md[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(text), std::strlen(text), md);
  std::string hex;
  for (unsigned char b : md) hex += "0123456789abcdef"[b >> 4], hex += "0123456789abcdef"[b & 15];
  return hex;
}

bool is_not_owner(const std::exception& e) { return std::string(e.what()).find("NOT_OWNER") != std::string::npos; }

// EVALSHA sends 40 bytes instead of the script; EVAL loads it when Redis lacks it.
RedisReply GameStore::eval(const char* script, std::vector<std::string> keys, std::vector<std::string> args) {
  std::vector<std::string> cmd{"EVALSHA", sha1_hex(script), std::to_string(keys.size())};
  cmd.insert(cmd.end(), std::make_move_iterator(keys.begin()), std::make_move_iterator(keys.end()));
  cmd.insert(cmd.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  try {
    return redis_.command(cmd);
  } catch (const RedisError& e) {
    if (std::string(e.what()).find("NOSCRIPT") == std::string::npos) throw;
    cmd[0] = "EVAL";
    cmd[1] = script;
    return redis_.command(cmd);
  }
}

std::vector<std::string> GameStore::append_command(const GameSession& s, const std::vector<GameEvent>& events) {
  const auto& id = s.config().id;
  std::string snap = "{\"version\":" + std::to_string(s.version()) + ",\"plies\":" + std::to_string(s.plies()) +
                     ",\"red_ms\":" + std::to_string(s.clock().stored(xq::Color::Red)) +
                     ",\"black_ms\":" + std::to_string(s.clock().stored(xq::Color::Black)) + ",\"result\":\"" +
                     xq::outcome_name(s.result().outcome) + "\"}";
  std::vector<std::string> cmd;
  cmd.reserve(10 + events.size());
  static const std::string sha = sha1_hex(kAppendScript);
  for (auto& a : {std::string("EVALSHA"), sha, std::string("3"), keys::game_events(id),
                  keys::game_snap(id), keys::game_owner(id), std::to_string(events.front().version - 1)})
    cmd.push_back(a);
  cmd.push_back(std::move(snap));
  cmd.push_back(node_);
  for (const auto& e : events) cmd.push_back(encode_event(e));
  return cmd;
}

void GameStore::append(const GameSession& s, const std::vector<GameEvent>& events) {
  if (events.empty()) return;
  auto cmd = append_command(s, events);
  try {
    redis_.command(cmd);
  } catch (const RedisError& e) {
    if (std::string(e.what()).find("NOSCRIPT") == std::string::npos) throw;
    cmd[0] = "EVAL";
    cmd[1] = kAppendScript;
    redis_.command(cmd);
  }
}

void GameStore::append_async(const GameSession& s, const std::vector<GameEvent>& events, AppendPipeline::Done done) {
  if (events.empty()) return done(nullptr);
  std::call_once(pipeline_once_, [this] { pipeline_ = std::make_unique<AppendPipeline>(redis_); });
  pipeline_->submit(append_command(s, events), kAppendScript, std::move(done));
}

bool GameStore::claim(const std::string& id) {
  return eval(kClaimScript, {keys::game_owner(id)}, {node_, std::to_string(lease_ms_)}).integer == 1;
}

std::vector<std::string> GameStore::renew(const std::vector<std::string>& ids) {
  std::vector<std::string> lost;
  for (size_t at = 0; at < ids.size(); at += 500) {  // bounded script arguments
    std::vector<std::string> ks;
    for (size_t i = at; i < std::min(ids.size(), at + 500); ++i) ks.push_back(keys::game_owner(ids[i]));
    for (auto& e : eval(kRenewScript, std::move(ks), {node_, std::to_string(lease_ms_)}).elements)
      lost.push_back(ids[at + static_cast<size_t>(e.integer) - 1]);
  }
  return lost;
}

void GameStore::release(const std::string& id) { eval(kReleaseScript, {keys::game_owner(id)}, {node_}); }

std::optional<std::string> GameStore::owner(const std::string& id) {
  auto r = redis_.command({"GET", keys::game_owner(id)});
  if (r.type != RedisReply::Type::String) return std::nullopt;
  return r.str;
}

std::vector<std::string> GameStore::claimable(const std::vector<std::string>& ids) {
  std::vector<std::string> out;
  for (size_t at = 0; at < ids.size(); at += 500) {
    std::vector<std::string> ks;
    for (size_t i = at; i < std::min(ids.size(), at + 500); ++i) ks.push_back(keys::game_owner(ids[i]));
    for (auto& e : eval(kClaimableScript, std::move(ks), {node_}).elements)
      out.push_back(ids[at + static_cast<size_t>(e.integer) - 1]);
  }
  return out;
}

bool GameStore::is_live(const std::string& id) {
  return redis_.command({"SISMEMBER", keys::kLiveGames, id}).integer == 1;
}

void GameStore::archive(const GameSession& s) {
  const auto& id = s.config().id;
  redis_.command({"SET", keys::archive(id), archive_record(s)});
  int64_t end = s.events().empty() ? 0 : s.events().back().at_ms;
  redis_.command({"ZADD", keys::kFinishedGames, std::to_string(end), id});
  redis_.command({"SREM", keys::kLiveGames, id});
  if (!node_.empty()) release(id);  // a finished game needs no owner
  RatingStore(redis_).apply(s);
  if (s.config().tournament()) {
    const xq::Result& r = s.result();
    // Fouls: recorded rule violations (forbidden repetition, forfeits).
    auto foul = [&](xq::Color c) {
      bool lost = (c == xq::Color::Red ? r.outcome == xq::Outcome::BlackWins : r.outcome == xq::Outcome::RedWins);
      bool violation = r.reason.rfind("perpetual_", 0) == 0 || r.reason == "forfeit";
      return (lost && violation) || r.reason == "double_forfeit" ? 1 : 0;
    };
    boost::json::object body{{"event_id", s.config().event_id},
                             {"outcome", r.reason == "abort" ? "aborted" : xq::outcome_name(r.outcome)},
                             {"reason", r.reason},
                             {"red_fouls", foul(xq::Color::Red)},
                             {"black_fouls", foul(xq::Color::Black)},
                             {"plies", s.plies()}};
    redis_.command({"XADD", keys::kGameResults, "*", "game_id", id, "body", boost::json::serialize(body)});
  }
}

bool GameStore::create_if_absent(const GameConfig& c) {
  auto r = redis_.command({"SET", keys::game_meta(c.id), encode_config(c), "NX"});
  if (r.type == RedisReply::Type::Nil) return false;
  if (!node_.empty()) claim(c.id);
  redis_.command({"SADD", keys::kLiveGames, c.id});
  return true;
}

std::vector<std::string> GameStore::live_game_ids() {
  std::vector<std::string> ids;
  for (auto& e : redis_.command({"SMEMBERS", keys::kLiveGames}).elements) ids.push_back(e.str);
  return ids;
}

GameSession GameStore::load(const std::string& id) {
  auto meta = redis_.command({"GET", keys::game_meta(id)});
  if (meta.type != RedisReply::Type::String) throw std::runtime_error("game " + id + " has no meta");
  GameSession s(decode_config(meta.str));
  for (auto& e : redis_.command({"LRANGE", keys::game_events(id), "0", "-1"}).elements) s.replay(decode_event(e.str));
  return s;
}

std::optional<std::string> GameStore::archived(const std::string& id) {
  auto r = redis_.command({"GET", keys::archive(id)});
  if (r.type != RedisReply::Type::String) return std::nullopt;
  return r.str;
}

}  // namespace gs
