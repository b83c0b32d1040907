// The Hub's admin actions: the connections list, ending or limiting a game as arbiter, bans and
// disconnects (on every node).
#include "server/hub.h"

#include <boost/json.hpp>
#include <chrono>
#include <future>
#include <optional>

#include "rules/jieqi.h"
#include "store/keys.h"

namespace json = boost::json;

namespace gs {
namespace v1 = xq::v1;

std::string Hub::connections_json() {
  json::array arr;
  {
    std::lock_guard l(mu_);
    for (const auto& [id, ci] : conns_) {
      // Another node's client as a game of this node sees it: listed by its own node (a user
      // shown twice, with an id beyond what a browser's numbers hold; review, 2026-12-04).
      if (is_proxy_id(id)) continue;
      auto cc = ci.conn.lock();
      if (!cc) continue;
      auto u = cc->user();
      json::array games;  // the games it follows, here or on other nodes
      for (const auto& g : ci.games) games.push_back(json::string(g));
      for (const auto& [g, remote] : ci.remote_games) games.push_back(json::string(g));
      arr.push_back(json::object{{"id", id},
                                 {"remote", cc->remote()},
                                 {"address", cc->client_address()},
                                 {"user", u ? u->name : ""},
                                 {"user_id", u ? u->id : ""},
                                 {"games", games}});
    }
  }
  // The other nodes' signed-in users, from their presence hashes (Redis: not under mu_).
  json::array others;
  for (const auto& u : presence_.elsewhere())
    others.push_back(json::object{{"node", u.node}, {"user", u.name}, {"user_id", u.user_id}});
  return json::serialize(json::object{{"node", options_.node_id}, {"connections", arr}, {"elsewhere", others}});
}

// An arbiter's or the matchmaker's end of a game: "red-wins", "black-wins", "draw" (by `reason`,
// "adjudication" when none), anything else an abort.
static xq::Result admin_result(const std::string& outcome, const std::string& reason) {
  if (outcome == "red-wins") return xq::Result::win(xq::Color::Red, reason.empty() ? "adjudication" : reason);
  if (outcome == "black-wins") return xq::Result::win(xq::Color::Black, reason.empty() ? "adjudication" : reason);
  if (outcome == "draw") return {xq::Outcome::Draw, reason.empty() ? "adjudication" : reason};
  return {xq::Outcome::Draw, "abort"};
}

void Hub::decide_at_creation(const std::string& id, const std::string& action, const std::string& reason) {
  redis_.command({"SET", keys::game_decided(id), json::serialize(json::object{{"outcome", action}, {"reason", reason}}), "PX",
                  std::to_string(keys::kDecidedKeptMs)});
}

std::optional<xq::Result> Hub::decided_before_creation(const std::string& id) {
  const RedisReply r = redis_.command({"GET", keys::game_decided(id)});
  if (r.type != RedisReply::Type::String) return std::nullopt;
  try {
    const json::value v = json::parse(r.str);
    return admin_result(std::string(v.at("outcome").as_string()), std::string(v.at("reason").as_string()));
  } catch (const std::exception&) {  // not ours: the game is played
    return std::nullopt;
  }
}

std::string Hub::admin_game_action(const std::string& id, const std::string& outcome, const std::string& reason,
                                   bool wait) {
  if (outcome != "red-wins" && outcome != "black-wins" && outcome != "draw" && outcome != "abort" && outcome != "move-limit")
    return "bad outcome";
  // For "move-limit", `reason` names the side it is imposed on: "red", "black", or "" for both.
  if (outcome == "move-limit" && !reason.empty() && reason != "red" && reason != "black")
    return "side must be red, black or both";
  static const std::string kNoLimit = "this game has no move limit on request";
  std::string owner;
  std::shared_ptr<GameActor> a;
  try {
    a = locate(id, owner);
  } catch (const RedisError&) {
    return kNotStored;
  }
  if (!a && !owner.empty()) {  // another node's game: it ends it
    if (outcome == "move-limit") {  // refused here if the game's rules have no such limit
      try {
        auto meta = redis_.command({"GET", keys::game_meta(id)});
        if (meta.type != RedisReply::Type::String || decode_config(meta.str).options.requested_move_limit_plies <= 0)
          return kNoLimit;
      } catch (const std::exception&) {  // Redis away or a bad record: not imposed
        return kNotStored;
      }
    }
    // The owner takes or refuses it on the game's strand and pushes its answer to a list of its
    // own, which this request waits for (on a connection of its own: BLPOP blocks it).
    const std::string reply_key = keys::admin_reply(xq::random_hex(12));
    NodeMessage nm;
    nm.kind = NodeMessage::Kind::Admin;
    nm.from_node = options_.node_id;
    nm.users = {id, outcome, reason};
    if (wait) nm.users.push_back(reply_key);
    if (redis_.command({"PUBLISH", keys::node_channel(owner), encode(nm)}).integer <= 0) return kNotAnswered;
    if (!wait) return "";
    try {
      Redis answers(options_.redis_url);
      const RedisReply r = answers.command({"BLPOP", reply_key, "10"});
      if (r.type == RedisReply::Type::Array && r.elements.size() == 2) return r.elements[1].str == "ok" ? "" : r.elements[1].str;
    } catch (const std::exception&) {
    }
    return kNotAnswered;
  }
  if (!a || a->finished()) {
    try {  // never a game here (a mistyped id: 404), or one that is over (409)
      if (!a && redis_.command({"EXISTS", keys::game_meta(id), keys::archive(id)}).integer == 0) return kNoSuchGame;
    } catch (const std::exception&) {  // cannot tell an unknown id from a game no node runs
      return kNotStored;
    }
    return a ? "the game is already over" : "the game is not live: it is over, or no node runs it";
  }
  static const std::string kLimitRuns = "the move limit already runs in this game";
  // The checks above are a first answer; the game's strand has the last word (a player may resign,
  // or another arbiter act, in between), and the answer says whether this action took effect.
  auto applied = std::make_shared<std::promise<GameActor::AdminResult>>();
  std::future<GameActor::AdminResult> answer = applied->get_future();
  if (outcome == "move-limit") {
    if (a->config().options.requested_move_limit_plies <= 0) return kNoLimit;
    if (a->move_limit_running()) return kLimitRuns;
    std::optional<xq::Color> on_side;
    if (!reason.empty()) on_side = reason == "red" ? xq::Color::Red : xq::Color::Black;
    a->post([on_side, applied](GameActor& g) { applied->set_value(g.admin_move_limit(on_side)); });
  } else {
    const xq::Result r = admin_result(outcome, reason);
    a->post([r, applied](GameActor& g) { applied->set_value(g.admin_end(r)); });
  }
  if (!wait) return "";
  try {
    if (answer.wait_for(std::chrono::seconds(10)) != std::future_status::ready) return kNotAnswered;
    const GameActor::AdminResult result = answer.get();
    if (result == GameActor::AdminResult::Applied) return "";
    if (result == GameActor::AdminResult::NotStored) return kNotStored;  // not "over": the game goes on
  } catch (const std::future_error&) {  // the game was dropped before it ran the action
  }
  if (outcome != "move-limit" || a->finished()) return "the game is already over";
  return a->move_limit_running() ? kLimitRuns : "the move limit could not be imposed";
}

size_t Hub::ban(const std::string& user_id) {
  auth_.ban(user_id);
  // The games held here are counted and ended here (the node does not act on its own Ban message).
  const size_t ended = end_games_of_banned(user_id);
  disconnect(user_id, true);  // the other nodes hear of it, and end the user's games they hold
  return ended;
}

size_t Hub::close_connections_of(const std::string& user_id, bool banned) {
  auto conns = connections_of(user_id);
  for (auto& c : conns) {
    // The client is told why (the close is posted after the frame, which goes out first).
    if (banned) send_error(*c, 0, v1::BANNED, "this account is banned", metrics_);
    c->close();
  }
  return conns.size();
}

// A banned player's live games held here end at once, lost by them (reason "banned"): the
// opponent is not left waiting to claim a win, nor the clock running for nobody.
size_t Hub::end_games_of_banned(const std::string& user_id) {
  std::vector<std::shared_ptr<GameActor>> theirs;
  {
    std::lock_guard l(mu_);
    for (const auto& [id, a] : games_)
      if (!a->finished() && (a->config().red.user_id == user_id || a->config().black.user_id == user_id))
        theirs.push_back(a);
  }
  for (const auto& a : theirs) {
    const xq::Color winner = a->config().red.user_id == user_id ? xq::Color::Black : xq::Color::Red;
    a->post([r = xq::Result::win(winner, "banned")](GameActor& g) { g.admin_end(r); });
  }
  return theirs.size();
}

void Hub::disconnect_later(const std::string& user_id, int64_t delay_ms) {
  std::lock_guard l(later_mu_);
  disconnect_due_.emplace_back(steady_ms() + delay_ms, user_id);
}

size_t Hub::disconnect(const std::string& user_id, bool banned, bool* told_others) {
  const size_t closed = close_connections_of(user_id, banned);
  NodeMessage nm;  // the other nodes close the user's connections too (and end their games if banned)
  nm.kind = NodeMessage::Kind::Ban;
  nm.from_node = options_.node_id;
  nm.users = {user_id};
  bool told = true;
  try {
    redis_.command({"PUBLISH", keys::kNodesChannel, encode(nm)});
  } catch (const std::exception&) {
    told = false;
  }
  if (told_others) *told_others = told;
  return closed;
}

}  // namespace gs
