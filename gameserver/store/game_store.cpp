#include "store/game_store.h"

#include <boost/json.hpp>
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "game/codec.h"
#include "store/keys.h"
#include "store/matchmaker_bus.h"
#include "store/lease_lua.h"
#include "store/lua_script.h"
#include "store/rating_store.h"

namespace gs {

// KEYS: meta, owner, known nodes, live games. ARGV: config, node ("" on a single node), game id,
// node key prefix. The config, the creating node's claim and the live set in one round trip;
// atomic, so no sweeper sees the game live without an owner.
static const std::string kCreateScript = std::string(kLeaseLuaFunctions) + R"lua(
redis.call('SET', KEYS[1], ARGV[1])
if ARGV[2] ~= '' then claim_game(KEYS[2], KEYS[3], ARGV[2], ARGV[3], ARGV[4]) end
redis.call('SADD', KEYS[4], ARGV[3])
return 1
)lua";

void GameStore::create(const GameConfig& c) {
  eval_script(redis_, kCreateScript.c_str(), {keys::game_meta(c.id), keys::game_owner(c.id), keys::kKnownNodes, keys::kLiveGames},
              {encode_config(c), node_, c.id, keys::kNodePrefix});
}

// Appends the events of one or more games (the writer thread sends many in one call:
// store/append_pipeline.h), each only if its list has the expected length: a replayed request can
// never interleave events of one game. Fencing: a game's node id, if not empty, must be in its
// owner key, so a node whose game was taken over (its heartbeat lapsed, store/game_leases.cpp)
// cannot write any more.
// KEYS, per game: events list, snapshot, owner. ARGV, per game: the number of its events, the
// list's expected length, the snapshot ('' = leave it), the node id, then the events. Returns, per
// game, the new length, or why nothing was written (NOT_OWNER, version conflict).
static const char* kAppendScript = R"lua(
local out, a = {}, 1
for g = 1, #KEYS, 3 do
  local count, expected = tonumber(ARGV[a]), tonumber(ARGV[a + 1])
  local snap, node, first = ARGV[a + 2], ARGV[a + 3], a + 4
  a = first + count
  if node ~= '' and redis.call('GET', KEYS[g + 2]) ~= node then
    out[#out + 1] = 'NOT_OWNER'
  else
    local n = redis.call('LLEN', KEYS[g])
    if n ~= expected then
      out[#out + 1] = 'version conflict: have ' .. n
    else
      redis.call('RPUSH', KEYS[g], unpack(ARGV, first, a - 1))
      if snap ~= '' then redis.call('SET', KEYS[g + 1], snap) end
      out[#out + 1] = n + count
    end
  end
end
return out
)lua";

bool is_not_owner(const std::exception& e) { return std::string(e.what()).find("NOT_OWNER") != std::string::npos; }

AppendPipeline::Part GameStore::append_part(const GameSession& s, const std::vector<GameEvent>& events,
                                           uint32_t spectators, bool with_snapshot) const {
  const auto& id = s.config().id;
  std::string snap;
  if (with_snapshot)
    snap = "{\"version\":" + std::to_string(s.version()) + ",\"plies\":" + std::to_string(s.plies()) +
           ",\"red_ms\":" + std::to_string(s.clock().stored(xq::Color::Red)) +
           ",\"black_ms\":" + std::to_string(s.clock().stored(xq::Color::Black)) + ",\"result\":\"" +
           xq::outcome_name(s.result().outcome) + "\",\"spectators\":" + std::to_string(spectators) + "}";
  AppendPipeline::Part part;
  part.keys = {keys::game_events(id), keys::game_snap(id), keys::game_owner(id)};
  part.args.reserve(4 + events.size());
  part.args.push_back(std::to_string(events.size()));
  part.args.push_back(std::to_string(events.front().version - 1));
  part.args.push_back(std::move(snap));
  part.args.push_back(node_);
  for (const auto& e : events) part.args.push_back(encode_event(e));
  return part;
}

void GameStore::append(const GameSession& s, const std::vector<GameEvent>& events, uint32_t spectators) {
  if (events.empty()) return;
  AppendPipeline::Part part = append_part(s, events, spectators, true);
  const RedisReply r = eval_script(redis_, kAppendScript, std::move(part.keys), std::move(part.args));
  if (r.type != RedisReply::Type::Array || r.elements.size() != 1) throw RedisError("redis: unexpected reply to the append script");
  const RedisReply& stored = r.elements.front();
  if (stored.type == RedisReply::Type::String || stored.type == RedisReply::Type::Status) throw RedisError("redis: " + stored.str);
  if (stored.type != RedisReply::Type::Int) throw RedisError("redis: unexpected reply to the append script");
}

void GameStore::append_async(const GameSession& s, const std::vector<GameEvent>& events, uint32_t spectators,
                             bool with_snapshot, AppendPipeline::Done done) {
  if (events.empty()) return done(nullptr);
  std::call_once(pipeline_once_, [this] { pipeline_ = std::make_unique<AppendPipeline>(redis_, kAppendScript); });
  pipeline_->submit(append_part(s, events, spectators, with_snapshot), std::move(done));
}

// KEYS: archive record, finished games, present, away, live games, owner, the players' game
// lists (2), then what replays the game: config, events, snapshot, resumption mark (4).
// ARGV: record, end (ms), game id, steps, node ("" on a single node), node key prefix, games
// kept per player, how long the replay keys stay (ms, 0 = for ever).
// steps "record": the record and the finished list; "finish": the game leaves the live set and
// its owner's claim, and its replay keys get their expiry; "all": both, atomically (one round
// trip instead of five).
static const std::string kArchiveScript = std::string(kLeaseLuaFunctions) + R"lua(
if ARGV[4] ~= 'finish' then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
  for i = 7, 8 do
    redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
    redis.call('ZREMRANGEBYRANK', KEYS[i], 0, -1 - tonumber(ARGV[7]))
  end
end
if ARGV[4] ~= 'record' then
  redis.call('DEL', KEYS[3], KEYS[4])
  redis.call('SREM', KEYS[5], ARGV[3])
  if ARGV[5] ~= '' then release_game(KEYS[6], ARGV[5], ARGV[3], ARGV[6]) end
  if tonumber(ARGV[8]) > 0 then
    for i = 9, 12 do redis.call('PEXPIRE', KEYS[i], ARGV[8]) end
  end
end
return 1
)lua";

// Every step is idempotent, and the game leaves the live set last: if anything fails or the node
// dies on the way, the game is still live, so a node loads it again (finished) and archives it
// again. (Leaving the live set first lost the tournament result and the rating update of a game
// whose archive was cut short.) A game with neither does it all in one script.
void GameStore::archive(const GameSession& s) {
  const auto& id = s.config().id;
  int64_t end = s.events().empty() ? 0 : s.events().back().at_ms;
  const bool more_steps = s.config().rated || s.config().tournament();
  auto run = [&](const char* steps, std::string record) {
    eval_script(redis_, kArchiveScript.c_str(),
                {keys::archive(id), keys::kFinishedGames, keys::game_present(id), keys::game_away(id),
                 keys::kLiveGames, keys::game_owner(id), keys::user_games(s.config().red.user_id),
                 keys::user_games(s.config().black.user_id), keys::game_meta(id), keys::game_events(id),
                 keys::game_snap(id), keys::game_resumed(id)},
                {std::move(record), std::to_string(end), id, steps, node_, keys::kNodePrefix,
                 std::to_string(keys::kUserGamesKept), std::to_string(replay_kept_ms_)});
  };
  if (!s.config().pool.empty() && (s.result().reason == "abort" || s.plies() < 2)) {
    // An aborted pool game, or one ended before both sides moved (a resignation at once, unrated
    // like an abort: review, 2026-12-04): its two players are not paired again for a while.
    const std::string red = s.config().red.user_id, black = s.config().black.user_id;
    const std::string px = std::to_string(xq::bus::kPoolAvoidMs);
    redis_.command({"SET", xq::bus::pool_avoid(red), black, "PX", px});
    redis_.command({"SET", xq::bus::pool_avoid(black), red, "PX", px});
  }
  if (!s.config().pool.empty()) {
    // Its players may join a pool again (the matchmaker's mark from their pairing; only this game's).
    static const char* kUnmarkScript =
        "for i = 1, #KEYS do if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end end return 1";
    eval_script(redis_, kUnmarkScript, {xq::bus::pool_paired(s.config().red.user_id), xq::bus::pool_paired(s.config().black.user_id)},
                {id});
  }
  if (!more_steps) return run("all", archive_record(s));
  run("record", archive_record(s));
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
    // The matchmaker ignores a result it already has (an archive that runs again).
    redis_.command({"XADD", xq::bus::kGameResults, "*", "game_id", id, "body", boost::json::serialize(body)});
  }
  run("finish", "");
}

void GameStore::append_chat(const std::string& id, const ChatEntry& line) {
  const std::string key = keys::game_chat(id);
  redis_.command({"RPUSH", key, encode_chat(line)});
  redis_.command({"LTRIM", key, std::to_string(-keys::kChatLinesKept), "-1"});
  redis_.command({"PEXPIRE", key, std::to_string(keys::kChatKeptMs)});
}

std::vector<ChatEntry> GameStore::load_chat(const std::string& id) {
  std::vector<ChatEntry> out;
  for (const auto& line : redis_.command({"LRANGE", keys::game_chat(id), "0", "-1"}).elements) {
    try {
      out.push_back(decode_chat(line.str));
    } catch (const std::exception&) {  // a damaged line is skipped, not the game
    }
  }
  return out;
}

bool GameStore::create_if_absent(GameConfig& c) {
  // A finished game's config may have expired (replay_kept_ms): its id stays taken for ever.
  if (is_finished(c.id)) return false;
  auto r = redis_.command({"SET", keys::game_meta(c.id), encode_config(c), "NX"});
  if (r.type == RedisReply::Type::Nil) {
    // The game was created before: by an earlier request that completed, or by one cut short
    // between its steps (a crash or a Redis error before the game joined the live set; the request
    // is then delivered again). A game that is live or over is done; one that is neither was
    // never started, and this request finishes creating it, with the stored config (a Jieqi
    // game's assignment was drawn then, and its commitment may have been shown).
    if (is_live(c.id) || is_finished(c.id))
      return false;
    auto meta = redis_.command({"GET", keys::game_meta(c.id)});
    if (meta.type != RedisReply::Type::String) return false;
    GameConfig stored = decode_config(meta.str);
    if (!node_.empty() && !claim(c.id)) return false;  // another node is finishing it
    // Its times count from now: the first attempt may be long past (its request came again after
    // 15 s or an outage), and the no-show or first-move deadline would end it before anyone could move.
    stored.created_at_ms = c.created_at_ms;
    c = std::move(stored);
    redis_.command({"SET", keys::game_meta(c.id), encode_config(c)});
  } else if (!node_.empty() && !claim(c.id)) {
    return false;  // a node that saw it stored but not live took it to finish it (this one stalled)
  }
  redis_.command({"SADD", keys::kLiveGames, c.id});
  return true;
}

bool GameStore::is_finished(const std::string& id) {
  return redis_.command({"ZSCORE", keys::kFinishedGames, id}).type != RedisReply::Type::Nil;
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

void GameStore::mark_present(const std::string& id, xq::Color side) {
  redis_.command({"SADD", keys::game_present(id), side == xq::Color::Red ? "red" : "black"});
}


std::array<bool, 2> GameStore::present(const std::string& id) {
  std::array<bool, 2> out{false, false};
  for (auto& e : redis_.command({"SMEMBERS", keys::game_present(id)}).elements)
    out[xq::index(e.str == "red" ? xq::Color::Red : xq::Color::Black)] = true;
  return out;
}

static const char* side_field(xq::Color side) { return side == xq::Color::Red ? "red" : "black"; }

void GameStore::set_away(const std::string& id, xq::Color side, int64_t since_wall_ms) {
  redis_.command({"HSET", keys::game_away(id), side_field(side), std::to_string(since_wall_ms)});
}

void GameStore::clear_away(const std::string& id, xq::Color side) {
  redis_.command({"HDEL", keys::game_away(id), side_field(side)});
}

std::array<int64_t, 2> GameStore::away(const std::string& id) {
  std::array<int64_t, 2> out{0, 0};
  auto r = redis_.command({"HGETALL", keys::game_away(id)});
  for (size_t i = 0; i + 1 < r.elements.size(); i += 2)
    out[xq::index(r.elements[i].str == "red" ? xq::Color::Red : xq::Color::Black)] = std::atoll(r.elements[i + 1].str.c_str());
  return out;
}

std::optional<std::string> GameStore::archived(const std::string& id) {
  auto r = redis_.command({"GET", keys::archive(id)});
  if (r.type != RedisReply::Type::String) return std::nullopt;
  return r.str;
}

}  // namespace gs
