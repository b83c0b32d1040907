#include "store/rating_store.h"

#include <boost/json.hpp>
#include <cmath>

#include "store/keys.h"

namespace json = boost::json;

namespace gs {

std::string variant_name(xq::Variant v) { return v == xq::Variant::Jieqi ? "jieqi" : "xiangqi"; }

Rating RatingStore::get(const std::string& variant, const std::string& user_id) {
  RedisReply r = redis_.command({"GET", keys::rating(variant, user_id)});
  Rating out;
  if (r.type != RedisReply::Type::String) return out;
  auto o = json::parse(r.str).as_object();
  out.rating = o.at("rating").to_number<double>();
  out.deviation = o.at("deviation").to_number<double>();
  out.volatility = o.at("volatility").to_number<double>();
  out.games = static_cast<int>(o.at("games").to_number<int64_t>());
  return out;
}

void RatingStore::apply(const GameSession& s) {
  const GameConfig& c = s.config();
  const xq::Result& r = s.result();
  if (!c.rated || !r.over() || r.reason == "abort" || s.plies() < 2) return;
  // Once per game, even if the archive step runs again after a crash.
  if (redis_.command({"SET", keys::rated_game(c.id), "1", "NX", "EX", "2592000"}).type == RedisReply::Type::Nil) return;
  const std::string variant = variant_name(c.variant);
  Rating red = get(variant, c.red.user_id), black = get(variant, c.black.user_id);
  double red_score = r.outcome == xq::Outcome::RedWins ? 1 : r.outcome == xq::Outcome::BlackWins ? 0 : 0.5;
  Rating red2 = glicko2_update(red, {{black, red_score}}), black2 = glicko2_update(black, {{red, 1 - red_score}});
  auto save = [&](const std::string& user, const Rating& x) {
    json::object o{{"rating", x.rating}, {"deviation", x.deviation}, {"volatility", x.volatility}, {"games", x.games}};
    redis_.command({"SET", keys::rating(variant, user), json::serialize(o)});
  };
  save(c.red.user_id, red2);
  save(c.black.user_id, black2);
}

std::string RatingStore::ratings_json(const std::string& user_id) {
  json::object out;
  for (const char* v : {"xiangqi", "jieqi"}) {
    Rating x = get(v, user_id);
    out[v] = json::object{{"rating", std::lround(x.rating)}, {"deviation", std::lround(x.deviation)},
                          {"volatility", x.volatility}, {"games", x.games}, {"provisional", x.deviation > 110}};
  }
  return json::serialize(out);
}

}  // namespace gs
