// Glicko-2 ratings per user and variant, in Redis (key schema: store/keys.h).
#pragma once
#include <cstddef>
#include <string>

#include "game/game_session.h"
#include "rating/glicko2.h"
#include "store/redis.h"

namespace gs {

inline constexpr size_t kDefaultLeaderboardLimit = 50;
inline constexpr size_t kMaxLeaderboardLimit = 200;
inline constexpr double kProvisionalDeviation = 110;  // a rating this unsure is shown with a "?"

class RatingStore {
 public:
  explicit RatingStore(Redis& redis) : redis_(redis) {}
  // The user's rating in a variant ("xiangqi" | "jieqi"); a new player's default if none.
  Rating get(const std::string& variant, const std::string& user_id);
  // Applies a finished rated game to both players (each game is one rating period). Applied at
  // most once per game id, so archiving a game twice does not count it twice. Aborted games and
  // games in which a side never moved do not count.
  void apply(const GameSession& s);
  // {"xiangqi": {rating, deviation, volatility, games}, "jieqi": {...}}
  std::string ratings_json(const std::string& user_id);
  // The variant's rated players, best first, banned players left out: {"variant", "players":
  // [{rank, user_id, name, rating, deviation, games, provisional}]}, at most `limit`.
  std::string leaderboard_json(const std::string& variant, size_t limit);
  // Puts the ratings stored before the leaderboards existed on them (once per Redis: a marker key
  // says it is done). Each player is added in one atomic step from their stored rating, so a
  // result applied meanwhile is never overwritten by an older figure.
  void index_leaderboards();
  // The user's rating after each of their last rated results in the variant, oldest first:
  // {"variant", "points": [{at, rating, game_id}]}.
  std::string rating_history_json(const std::string& variant, const std::string& user_id);
  static constexpr int kRatingHistory = 200;

 private:
  std::string stored(const std::string& key);  // the key's JSON, "" if unset
  Redis& redis_;
};

std::string variant_name(xq::Variant v);

}  // namespace gs
