// Glicko-2 ratings per user and variant, in Redis (key schema: store/keys.h).
#pragma once
#include <string>

#include "game/game_session.h"
#include "rating/glicko2.h"
#include "store/redis.h"

namespace gs {

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

 private:
  std::string stored(const std::string& key);  // the key's JSON, "" if unset
  Redis& redis_;
};

std::string variant_name(xq::Variant v);

}  // namespace gs
