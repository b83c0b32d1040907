// A tournament with its players on two different game-server nodes: whichever node takes the
// matchmaker's "create game" request owns the game, and the player connected to the other node
// plays it through that node (requests forwarded over Redis). Game 2 of the two-game round is
// created after game 1's result reaches the matchmaker, and the event finishes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <boost/json.hpp>
#include <chrono>
#include <optional>
#include <thread>

#include "store/keys.h"
#include "store/redis.h"
#include "test_server.h"
#include "ws_client.h"

namespace json = boost::json;
using namespace xq::v1;

namespace {

struct NodePlayer {
  int node = 0;
  std::unique_ptr<WsClient> ws;
  std::string token, user_id;
};

NodePlayer login(TestCluster& c, int node, const std::string& name) {
  NodePlayer p{node, std::make_unique<WsClient>(c.port(node)), "", ""};
  ClientMessage m;
  m.mutable_login_guest()->set_name(name);
  ServerMessage r = p.ws->request(m);
  EXPECT_TRUE(r.has_reply()) << r.DebugString();
  p.token = r.reply().token();
  p.user_id = r.reply().user().user_id();
  return p;
}

// The player's next game (not `not_id`): the game_ready notice, then game_started with the
// player's view of it, whichever node created the game (the player's own node subscribes it there).
std::optional<GameState> next_game(NodePlayer& p, const std::string& not_id);

ServerMessage act(NodePlayer& p, ClientMessage m) {
  // A game being created or taken over may briefly be unreachable: retry a few times.
  ServerMessage r;
  for (int i = 0; i < 20; ++i) {
    r = p.ws->request(m);
    if (!r.has_error() || (r.error().code() != STORAGE_UNAVAILABLE && r.error().code() != NODE_NOT_ANSWERING &&
                           r.error().code() != UNKNOWN_GAME))
      return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return r;
}

std::optional<GameState> next_game(NodePlayer& p, const std::string& not_id) {
  auto ready = p.ws->wait_for(
      [&](const ServerMessage& s) {
        return s.has_notice() && s.notice().kind() == "game_ready" && s.notice().game_id() != not_id;
      },
      15000);
  if (!ready) return std::nullopt;
  const std::string gid = ready->notice().game_id();
  auto started = p.ws->wait_for([&](const ServerMessage& s) { return s.has_game_started() && s.game_started().game_id() == gid; }, 5000);
  EXPECT_TRUE(started) << p.user_id << ": game_ready for " << gid << " but no game_started";
  if (!started) return std::nullopt;
  return started->game_started();
}

}  // namespace

TEST(TournamentOnTwoNodes, PlayersOnDifferentNodesPlayATwoGameRound) {
  TestCluster cluster(2, 3000, 300);
  Process matchmaker;
  matchmaker.start({MATCHMAKER_BIN, "--redis", cluster.redis_url(), "--pool-interval-ms", "300", "--consumer", "mm-2n"},
                   "/tmp/xq-mm-2n-" + std::to_string(getpid()) + ".log");
  NodePlayer left = login(cluster, 0, "left"), right = login(cluster, 1, "right");

  std::string body;
  const json::object event{{"id", "two-nodes"}, {"name", "Two nodes"}, {"variant", "xiangqi"}, {"initial_ms", 300000},
                           {"pairing", json::object{{"rounds", 1}, {"games_per_round", 2}}}};
  ASSERT_EQ(cluster.http_post(0, "/api/events", json::serialize(event), body), 200) << body;
  ASSERT_EQ(cluster.http_post(0, "/api/events/two-nodes/join", "{}", body, left.token), 200) << body;
  ASSERT_EQ(cluster.http_post(1, "/api/events/two-nodes/join", "{}", body, right.token), 200) << body;
  ASSERT_EQ(cluster.http_post(1, "/api/events/two-nodes/start", "{}", body), 200) << body;

  gs::Redis redis(cluster.redis_url(), 1);
  std::string previous;
  bool left_was_red = false;
  for (int game = 1; game <= 2; ++game) {
    const auto left_view = next_game(left, previous);
    ASSERT_TRUE(left_view) << "left got no game " << game;
    const std::string gid = left_view->game_id();
    const auto right_view = next_game(right, previous);
    ASSERT_TRUE(right_view) << "right got no game " << game;
    ASSERT_EQ(right_view->game_id(), gid) << "both players are in the same game " << game;
    previous = gid;
    const std::string owner = redis.command({"GET", gs::keys::game_owner(gid)}).str;
    EXPECT_TRUE(owner == TestCluster::node_id(0) || owner == TestCluster::node_id(1)) << owner;
    const bool left_red = left_view->you() == RED;
    EXPECT_EQ(right_view->you(), left_red ? BLACK : RED);
    EXPECT_EQ(left_view->red().user_id(), left_red ? left.user_id : right.user_id);
    if (game == 2) EXPECT_NE(left_red, left_was_red) << "game 2 swaps colours";
    left_was_red = left_red;
    NodePlayer& red = left_red ? left : right;
    NodePlayer& black = left_red ? right : left;

    ClientMessage mv;
    mv.mutable_move()->set_game_id(gid);
    mv.mutable_move()->set_iccs("h2e2");
    mv.mutable_move()->set_client_move_id("2n-" + std::to_string(game));
    ASSERT_TRUE(act(red, mv).has_reply()) << "red on node " << red.node << " moves in a game owned by " << owner;
    ASSERT_TRUE(black.ws->wait_for([&](const ServerMessage& s) {
      return s.has_game_event() && s.game_event().game_id() == gid && s.game_event().kind() == GameEvent::MOVE;
    }, 5000)) << "black on node " << black.node << " sees the move";
    ClientMessage resign;
    resign.mutable_resign()->set_game_id(gid);
    ASSERT_TRUE(act(black, resign).has_reply());
    for (NodePlayer* p : {&red, &black})
      EXPECT_TRUE(p->ws->wait_for([&](const ServerMessage& s) {
        return s.has_game_event() && s.game_event().game_id() == gid && s.game_event().kind() == GameEvent::GAME_ENDED;
      }, 5000)) << "node " << p->node << " player sees the end";
  }

  // Both games' results reached the matchmaker: the event is finished, 2–2 on points.
  std::string stage;
  for (int i = 0; i < 60 && stage != "finished"; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (cluster.http_get(1, "/api/events/two-nodes", body) == 200) stage = std::string(json::parse(body).at("stage").as_string());
  }
  EXPECT_EQ(stage, "finished") << body;
  matchmaker.terminate();
}
