#include "store/rating_store.h"

#include <boost/json.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include "store/keys.h"
#include "store/lua_script.h"

namespace json = boost::json;

namespace gs {

std::string variant_name(xq::Variant v) { return v == xq::Variant::Jieqi ? "jieqi" : "xiangqi"; }

// A stored rating ("" = none yet: a new player's default).
static Rating decode_rating(const std::string& stored) {
  Rating out;
  if (stored.empty()) return out;
  json::value v = json::parse(stored);
  const json::object& o = v.as_object();
  out.rating = o.at("rating").to_number<double>();
  out.deviation = o.at("deviation").to_number<double>();
  out.volatility = o.at("volatility").to_number<double>();
  out.games = static_cast<int>(o.at("games").to_number<int64_t>());
  return out;
}

static std::string encode_rating(const Rating& x) {
  json::object o{{"rating", x.rating}, {"deviation", x.deviation}, {"volatility", x.volatility}, {"games", x.games}};
  return json::serialize(o);
}

std::string RatingStore::stored(const std::string& key) {
  RedisReply r = redis_.command({"GET", key});
  return r.type == RedisReply::Type::String ? r.str : std::string();
}

Rating RatingStore::get(const std::string& variant, const std::string& user_id) {
  return decode_rating(stored(keys::rating(variant, user_id)));
}

// Marks the game as rated and writes both new ratings in one step, but only if neither rating
// changed since it was read (another node may finish another game of the same player meanwhile):
// 1 = applied, 0 = this game was applied before, -1 = a rating changed, read again. The
// leaderboard, the names it shows and both players' rating histories change in the same step.
static const char* kApplyScript = R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local red = redis.call('GET', KEYS[2]) or ''
local black = redis.call('GET', KEYS[3]) or ''
if red ~= ARGV[1] or black ~= ARGV[2] then return -1 end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[5])
redis.call('SET', KEYS[2], ARGV[3])
redis.call('SET', KEYS[3], ARGV[4])
redis.call('ZADD', KEYS[4], ARGV[7], ARGV[6], ARGV[10], ARGV[9])
redis.call('HSET', KEYS[5], ARGV[6], ARGV[8], ARGV[9], ARGV[11])
redis.call('LPUSH', KEYS[6], ARGV[12])
redis.call('LTRIM', KEYS[6], 0, ARGV[14] - 1)
redis.call('LPUSH', KEYS[7], ARGV[13])
redis.call('LTRIM', KEYS[7], 0, ARGV[14] - 1)
return 1
)lua";

void RatingStore::apply(const GameSession& s) {
  const GameConfig& c = s.config();
  const xq::Result& r = s.result();
  if (!c.rated || !r.over() || r.reason == "abort" || s.plies() < 2) return;
  const std::string variant = variant_name(c.variant);
  const std::string red_key = keys::rating(variant, c.red.user_id), black_key = keys::rating(variant, c.black.user_id);
  const double red_score = r.outcome == xq::Outcome::RedWins ? 1 : r.outcome == xq::Outcome::BlackWins ? 0 : 0.5;
  // Once per game, even if the archive step runs again after a crash; never half-applied.
  for (int attempt = 0; attempt < 20; ++attempt) {
    const std::string red_json = stored(red_key), black_json = stored(black_key);
    const Rating red = decode_rating(red_json), black = decode_rating(black_json);
    Rating red2 = glicko2_update(red, {{black, red_score}}), black2 = glicko2_update(black, {{red, 1 - red_score}});
    const int64_t at = s.events().empty() ? c.created_at_ms : s.events().back().at_ms;
    auto point = [&](const Rating& x) {
      return json::serialize(json::object{{"at", at}, {"rating", std::lround(x.rating)}, {"game_id", c.id}});
    };
    RedisReply done = eval_script(redis_, kApplyScript,
                                  {keys::rated_game(c.id), red_key, black_key, keys::leaderboard(variant), keys::kAccountNames,
                                   keys::rating_history(variant, c.red.user_id), keys::rating_history(variant, c.black.user_id)},
                                  {red_json, black_json, encode_rating(red2), encode_rating(black2), "2592000",
                                   c.red.user_id, std::to_string(red2.rating), c.red.name,
                                   c.black.user_id, std::to_string(black2.rating), c.black.name,
                                   point(red2), point(black2), std::to_string(kRatingHistory)});
    if (done.integer >= 0) return;
    // Another game of a player was applied meanwhile: read again after a random pause, so that two
    // nodes that collided do not collide again in step.
    thread_local std::minstd_rand jitter{std::random_device{}()};
    std::this_thread::sleep_for(std::chrono::microseconds(jitter() % (100u << std::min(attempt, 6))));
  }
  throw RedisError("rating of game " + c.id + " not applied: the players' ratings kept changing");
}

// KEYS: the rating, the variant's leaderboard, the names, the id index; ARGV: the user id, the
// account record key's prefix. A player already on the board (a result applied since) is left.
static const char* kIndexScript = R"lua(
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return 0 end
local stored = redis.call('GET', KEYS[1])
if not stored then return 0 end
redis.call('ZADD', KEYS[2], cjson.decode(stored).rating, ARGV[1])
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 0 then
  local lower = redis.call('HGET', KEYS[4], ARGV[1])
  local record = lower and redis.call('GET', ARGV[2] .. lower)
  if record then redis.call('HSET', KEYS[3], ARGV[1], cjson.decode(record).name) end
end
return 1
)lua";

void RatingStore::index_leaderboards() {
  if (redis_.command({"EXISTS", keys::kLeaderboardsComplete}).integer == 1) return;
  const std::string prefix = "{xq}:rating:";
  redis_.for_each_key(prefix, [&](const std::string& key) {
    const std::string rest = key.substr(prefix.size());  // {variant}:{user}
    const size_t colon = rest.find(':');
    if (colon == std::string::npos) return;
    const std::string variant = rest.substr(0, colon), user = rest.substr(colon + 1);
    if (variant != "xiangqi" && variant != "jieqi") return;
    eval_script(redis_, kIndexScript, {key, keys::leaderboard(variant), keys::kAccountNames, keys::kAccountIds},
                {user, keys::user("")});
  });
  redis_.command({"SET", keys::kLeaderboardsComplete, "1"});
}

std::string RatingStore::rating_history_json(const std::string& variant, const std::string& user_id) {
  RedisReply r = redis_.command({"LRANGE", keys::rating_history(variant, user_id), "0", std::to_string(kRatingHistory - 1)});
  json::array points;
  for (auto it = r.elements.rbegin(); it != r.elements.rend(); ++it) {
    boost::system::error_code ec;
    json::value p = json::parse(it->str, ec);
    if (!ec && p.is_object()) points.push_back(std::move(p));
  }
  return json::serialize(json::object{{"variant", variant}, {"points", std::move(points)}});
}

std::string RatingStore::ratings_json(const std::string& user_id) {
  json::object out;
  for (const char* v : {"xiangqi", "jieqi"}) {
    Rating x = get(v, user_id);
    out[v] = json::object{{"rating", std::lround(x.rating)}, {"deviation", std::lround(x.deviation)},
                          {"volatility", x.volatility}, {"games", x.games}, {"provisional", x.deviation > kProvisionalDeviation}};
  }
  return json::serialize(out);
}

std::string RatingStore::leaderboard_json(const std::string& variant, size_t limit) {
  limit = std::min(limit, kMaxLeaderboardLimit);  // 0: an empty page, as every list reads it
  json::array players;
  size_t rank = 0;
  long last_shown = 0;
  // Banned players are left out: read in chunks until the page is full or the board ends.
  constexpr size_t kChunk = 100;
  for (size_t from = 0; players.size() < limit; from += kChunk) {
    RedisReply ids = redis_.command({"ZREVRANGE", keys::leaderboard(variant), std::to_string(from), std::to_string(from + kChunk - 1)});
    if (ids.elements.empty()) break;
    std::vector<std::string> names_cmd{"HMGET", keys::kAccountNames}, ratings_cmd{"MGET"}, banned_cmd{"SMISMEMBER", keys::kBanned};
    for (const auto& id : ids.elements) {
      names_cmd.push_back(id.str);
      ratings_cmd.push_back(keys::rating(variant, id.str));
      banned_cmd.push_back(id.str);
    }
    RedisReply names = redis_.command(names_cmd), ratings = redis_.command(ratings_cmd), banned = redis_.command(banned_cmd);
    for (size_t i = 0; i < ids.elements.size() && players.size() < limit; ++i) {
      if (i < banned.elements.size() && banned.elements[i].integer == 1) continue;
      if (i >= ratings.elements.size() || ratings.elements[i].type != RedisReply::Type::String) continue;
      const Rating x = decode_rating(ratings.elements[i].str);
      const bool named = i < names.elements.size() && names.elements[i].type == RedisReply::Type::String;
      // Equal ratings (as shown, rounded) share a rank; the next rank counts them all ("1, 2, 2, 4").
      const long shown = std::lround(x.rating);
      if (players.empty() || shown != last_shown) rank = players.size() + 1;
      last_shown = shown;
      players.push_back(json::object{{"rank", rank}, {"user_id", ids.elements[i].str},
                                     {"name", named ? names.elements[i].str : ids.elements[i].str},
                                     {"rating", std::lround(x.rating)}, {"deviation", std::lround(x.deviation)},
                                     {"games", x.games}, {"provisional", x.deviation > kProvisionalDeviation}});
    }
    if (ids.elements.size() < kChunk) break;
  }
  return json::serialize(json::object{{"variant", variant}, {"players", std::move(players)}});
}

}  // namespace gs
