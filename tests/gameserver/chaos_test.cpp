// Many games across three nodes while nodes die and come back. Every game has its players on two
// different nodes; each round, the side to move in every game sends a move without waiting, and
// some rounds a node is killed (SIGKILL) or restarted under its own name with those moves in
// flight. Clients of a dead node reconnect to a living one and resend an unanswered move with its
// client move id. In the end Redis must hold, for every game, exactly the moves that were
// acknowledged, in order, once each, and the game's end; and a finished game answers as over on
// every node, even after all of them restarted.
#include <gtest/gtest.h>

#include <array>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cluster_helpers.h"
#include "rules/fen.h"
#include "rules/position.h"
#include "test_clients.h"
#include "test_server.h"
#include "ws_client.h"

using namespace xq::v1;

namespace {

constexpr int kNodes = 3;

struct ChaosGame {
  std::string id;
  TestClient red, black;
  int red_home = 0, black_home = 0;  // the node each player connects to while it lives
  xq::Position pos = xq::parse_fen(xq::kXiangqiStartFen, xq::Variant::Xiangqi);
  std::vector<std::string> acked;
  std::string pending;  // the move sent this round ("" = none)
  xq::Move pending_move{};
  uint64_t pending_rid = 0;
  bool over = false;
};

class Chaos {
 public:
  explicit Chaos(TestCluster& cluster) : cluster_(cluster) { alive_.fill(true); }

  void kill(int node) {
    cluster_.kill_node(node);
    alive_[static_cast<size_t>(node)] = false;
  }
  void restart(int node) {
    cluster_.restart_node(node);
    alive_[static_cast<size_t>(node)] = true;
  }

  // The client's connection, renewed on a living node (its home if alive) if the old one closed.
  void ensure_connected(TestClient& p, int home) {
    if (!p.ws->closed()) return;
    for (int k = 0; k < kNodes; ++k) {
      const int node = (home + k) % kNodes;
      if (alive_[static_cast<size_t>(node)]) return reconnect_to(p, cluster_.port(node));
    }
    FAIL() << "no living node";
  }

  // Sends the game's next move (random, legal) without waiting for the answer.
  void send_next(ChaosGame& g, uint64_t& seed) {
    xq::MoveList ml;
    g.pos.generate_legal(ml);
    if (ml.size == 0) {
      g.over = true;  // mated or stalemated by the last move: the server ended the game
      return;
    }
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    g.pending_move = ml.moves[(seed >> 33) % ml.size];
    g.pending = xq::to_iccs(g.pending_move);
    send_pending(g);
  }

  // Waits for the answer to the pending move; resends it (same client move id) on a new connection
  // or after a retryable refusal until the game's owner (maybe a new one) acknowledges it.
  void settle(ChaosGame& g) {
    if (g.pending.empty()) return;
    TestClient& p = mover(g);
    for (int attempt = 0; attempt < 80; ++attempt) {
      // A request that reached a node as it died is never answered: wait briefly, then resend
      // (a late answer to the first send only confirms the same stored move).
      auto r = p.ws->wait_for([&](const ServerMessage& s) { return s.request_id() == g.pending_rid; }, 700);
      if (r && r->has_reply()) {
        ASSERT_EQ(r->reply().version(), g.acked.size() + 1) << g.id << " " << g.pending;
        g.acked.push_back(g.pending);
        g.pos.make(g.pending_move);
        g.pending.clear();
        return;
      }
      if (r && r->has_error()) {
        const auto code = r->error().code();
        if (code == GAME_OVER) {  // ended by the rules (e.g. repetition) with the last acknowledged move
          g.over = true;
          g.pending.clear();
          return;
        }
        ASSERT_TRUE(code == STORAGE_UNAVAILABLE || code == UNKNOWN_GAME) << g.id << " " << g.pending << ": " << r->DebugString();
      }
      // No answer (the node that had the request died), or the game awaits its new owner.
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      send_pending(g);
    }
    FAIL() << g.id << ": move " << g.pending << " never acknowledged";
  }

  void resign(ChaosGame& g) {
    ServerMessage r;
    for (int attempt = 0; attempt < 80; ++attempt) {
      ensure_connected(g.red, g.red_home);
      ClientMessage m;
      m.mutable_resign()->set_game_id(g.id);
      r = g.red.ws->request(m, 2000);
      if (r.has_reply() || error_of(r) == GAME_OVER) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    FAIL() << g.id << ": resign never acknowledged: " << r.ShortDebugString() << last_frames(g.red);
  }

 private:
  TestClient& mover(ChaosGame& g) { return g.acked.size() % 2 == 0 ? g.red : g.black; }

  void send_pending(ChaosGame& g) {
    TestClient& p = mover(g);
    ensure_connected(p, &p == &g.red ? g.red_home : g.black_home);
    ClientMessage m;
    m.set_request_id(g.pending_rid = next_rid_++);
    m.mutable_move()->set_game_id(g.id);
    m.mutable_move()->set_iccs(g.pending);
    m.mutable_move()->set_client_move_id("m" + std::to_string(g.acked.size()));
    p.ws->send(m);
  }

  TestCluster& cluster_;
  std::array<bool, kNodes> alive_{};
  uint64_t next_rid_ = 1'000'000;  // above the WsClient's own request ids
};

}  // namespace

TEST(GameServerChaos, ManyGamesOutliveKilledAndRestartedNodes) {
  constexpr int kGames = 24, kRounds = 24;
  TestCluster cluster(kNodes, 2000, 250);
  gs::Redis redis(cluster.redis_url());
  Chaos chaos(cluster);
  std::vector<ChaosGame> games(kGames);
  for (int i = 0; i < kGames; ++i) {
    ChaosGame& g = games[static_cast<size_t>(i)];
    g.red_home = i % kNodes;
    g.black_home = (i + 1) % kNodes;
    g.red = login_guest(cluster.port(g.red_home), "cr" + std::to_string(i));
    g.black = login_guest(cluster.port(g.black_home), "cb" + std::to_string(i));
    g.id = cross_node_game(g.red, g.black, XIANGQI);
    ASSERT_FALSE(g.id.empty());
  }

  uint64_t seed = 20261201;
  for (int round = 0; round < kRounds; ++round) {
    for (auto& g : games)
      if (!g.over) chaos.send_next(g, seed);
    // With this round's moves in flight:
    if (round == 5) chaos.kill(0);       // its games are taken over by nodes 1 and 2
    if (round == 11) {                   // node 0 comes back; node 1 dies
      chaos.restart(0);
      chaos.kill(1);
    }
    if (round == 17) chaos.restart(1);
    if (round == 20) {  // killed and restarted at once: it resumes its own games (its lease still runs)
      chaos.kill(2);
      chaos.restart(2);
    }
    for (auto& g : games) {
      chaos.settle(g);
      if (HasFatalFailure()) return;
    }
  }
  for (auto& g : games)
    if (!g.over) chaos.resign(g);

  // Every node restarts: the finished games are in no node's memory now and still answer as over.
  for (int n = 0; n < kNodes; ++n) chaos.restart(n);
  for (auto& g : games) {
    reconnect_to(g.red, cluster.port(g.red_home));
    ClientMessage m;
    m.mutable_resign()->set_game_id(g.id);
    EXPECT_EQ(error_of(g.red.ws->request(m)), GAME_OVER) << g.id;
  }

  size_t moves = 0;
  for (auto& g : games) {
    bool ended = false;
    EXPECT_EQ(stored_moves(redis, g.id, &ended), g.acked) << g.id << ": Redis holds other moves than were acknowledged";
    EXPECT_TRUE(ended) << g.id;
    moves += g.acked.size();
  }
  EXPECT_GE(moves, static_cast<size_t>(kGames * kRounds / 2));
}
