// What the multi-node tests do again and again: move a client to another node, sync until a
// survivor serves a game, a game between players of two nodes, and what Redis holds of a game.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "game/codec.h"
#include "store/game_store.h"
#include "store/keys.h"
#include "store/redis.h"
#include "test_clients.h"
#include "test_server.h"
#include "ws_client.h"

// Sync, retrying while the game has no reachable owner (the lease of a killed node runs out).
inline xq::v1::ServerMessage sync_until_served(TestClient& p, const std::string& gid, uint64_t last_version, int budget_ms = 15000) {
  xq::v1::ServerMessage r;
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms);
  do {
    xq::v1::ClientMessage m;
    m.mutable_sync()->set_game_id(gid);
    m.mutable_sync()->set_last_version(last_version);
    r = p.ws->request(m, 3000);
    if (r.has_reply()) return r;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  } while (std::chrono::steady_clock::now() < until);
  return r;
}

// X seeks as red on its node, Y accepts from another node; both get game_started.
inline std::string cross_node_game(TestClient& red, TestClient& black, xq::v1::Variant v, uint32_t initial_ms = 300'000,
                                   const xq::v1::RuleOptions* options = nullptr) {
  xq::v1::ClientMessage seek;
  seek.mutable_create_seek()->set_variant(v);
  if (options) *seek.mutable_create_seek()->mutable_rule_options() = *options;
  seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(initial_ms);
  seek.mutable_create_seek()->set_color(xq::v1::RED);
  auto r = red.ws->request(seek);
  EXPECT_TRUE(r.has_reply()) << r.DebugString();
  const std::string seek_id = r.reply().seek_id();
  // The seek is listed on the other node too.
  xq::v1::ClientMessage list;
  list.mutable_list_seeks();
  bool listed = false;
  for (int i = 0; i < 20 && !listed; ++i) {
    auto l = black.ws->request(list);
    for (const auto& s : l.seeks().seeks()) listed = listed || s.seek_id() == seek_id;
    if (!listed) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(listed) << "seek of another node not listed";
  return accept_and_start(red, black, seek_id);
}

// Red signed in on node `red_node` and Black on `black_node` (names `<tag>_red`, `<tag>_black`), in
// a game that Red seeks and Black accepts, so Red's node creates and owns it. `gid` is empty if it
// could not be made.
struct NodeGame {
  TestClient red, black;
  std::string gid;
};
inline NodeGame game_across_nodes(TestCluster& cluster, const std::string& tag, int red_node = 0, int black_node = 1,
                                  xq::v1::Variant v = xq::v1::XIANGQI) {
  NodeGame g{login_guest(cluster.port(red_node), tag + "_red"), login_guest(cluster.port(black_node), tag + "_black"), ""};
  g.gid = cross_node_game(g.red, g.black, v);
  if (!g.gid.empty()) {
    gs::Redis redis(cluster.redis_url());
    auto owner = redis.command({"GET", gs::keys::game_owner(g.gid)});
    EXPECT_EQ(owner.str, TestCluster::node_id(red_node)) << "the seeker's node owns the game";
  }
  return g;
}

// The usual start of a multi-node test: a cluster, a connection to its Redis, and a Xiangqi game
// that Red, on node 0 (its owner), plays against Black on node 1. Tests unpack it:
// `auto& [cluster, redis, red, black, gid] = c;`.
struct ClusterGame {
  TestCluster cluster;
  gs::Redis redis;
  TestClient red, black;
  std::string gid;
  ClusterGame(const std::string& tag, int nodes, int64_t lease_ms, int64_t tick_ms, std::vector<std::string> extra_args = {})
      : cluster(nodes, lease_ms, tick_ms, std::move(extra_args)), redis(cluster.redis_url()) {
    NodeGame g = game_across_nodes(cluster, tag);
    red = std::move(g.red), black = std::move(g.black), gid = g.gid;
  }
};

// The last frames a client received, for failure messages.
inline std::string last_frames(const TestClient& p, size_t n = 6) {
  std::string out;
  const auto& h = p.ws->history();
  for (size_t i = h.size() > n ? h.size() - n : 0; i < h.size(); ++i) out += "\n  " + h[i].ShortDebugString().substr(0, 300);
  return out;
}

// The game's owner node ("" when none).
inline std::string owner_of(gs::Redis& redis, const std::string& gid) {
  auto r = redis.command({"GET", gs::keys::game_owner(gid)});
  return r.type == gs::RedisReply::Type::String ? r.str : "";
}

// Waits (at most `seconds`) until `node` owns the game, e.g. after its owner stalled or died.
inline std::string wait_for_owner(gs::Redis& redis, const std::string& gid, const std::string& node, int seconds = 15) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (owner_of(redis, gid) != node && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return owner_of(redis, gid);
}

// The moves Redis holds for the game (ICCS without reveal letters); `ended`: whether it ended.
inline std::vector<std::string> stored_moves(gs::Redis& redis, const std::string& gid, bool* ended = nullptr) {
  std::vector<std::string> out;
  if (ended) *ended = false;
  for (auto& e : redis.command({"LRANGE", gs::keys::game_events(gid), "0", "-1"}).elements) {
    gs::GameEvent ev = gs::decode_event(e.str);
    if (ev.kind == gs::EventKind::Move) out.push_back(ev.iccs.substr(0, 4));
    if (ev.kind == gs::EventKind::Ended && ended) *ended = true;
  }
  return out;
}

