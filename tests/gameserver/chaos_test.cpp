// Many games across three nodes while nodes die and come back. Every game has its players on two
// different nodes; each round, the side to move in every game sends a move without waiting, and
// some rounds a node is killed (SIGKILL) or restarted under its own name with those moves in
// flight. Clients of a dead node reconnect to a living one and resend an unanswered move with its
// client move id; a spectator on each node watches every game, and resyncs from where it was when
// its node dies. In the end Redis must hold, for every game, exactly the moves that were
// acknowledged, in order, once each, and the game's end; every spectator must have seen exactly
// that, each move once; and a finished game answers as over on every node, even after all of them
// restarted.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
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

// A spectator watching every game from one node, and what it saw of each game (moves by version).
struct Fan {
  TestClient client;
  int home = 0;
  size_t read = 0;  // frames of the current connection's history already looked at
  std::map<std::string, std::vector<std::string>> seen;
  std::map<std::string, bool> ended;
  std::vector<std::string> problems;  // duplicates, gaps, contradictions

  // Reads whatever has arrived and records it.
  void absorb() {
    while (client.ws->next(10)) {
    }
    const auto& h = client.ws->history();
    for (; read < h.size(); ++read) {
      const ServerMessage& m = h[read];
      if (m.has_game_event()) {
        const auto& e = m.game_event();
        auto& moves = seen[e.game_id()];
        if (e.kind() == GameEvent::GAME_ENDED) ended[e.game_id()] = true;
        if (e.kind() != GameEvent::MOVE) continue;
        const std::string iccs = e.move().iccs().substr(0, 4);
        if (e.version() == moves.size() + 1) moves.push_back(iccs);
        else if (e.version() > moves.size()) problems.push_back(e.game_id() + ": gap before version " + std::to_string(e.version()));
        else if (moves[e.version() - 1] != iccs) problems.push_back(e.game_id() + ": version " + std::to_string(e.version()) + " differs");
        else problems.push_back(e.game_id() + ": version " + std::to_string(e.version()) + " twice");
      } else if (m.has_game_state()) {  // a greeting or a full resync: the whole game so far
        const auto& st = m.game_state();
        auto& moves = seen[st.game_id()];
        std::vector<std::string> all;
        for (const auto& mv : st.moves()) all.push_back(mv.iccs().substr(0, 4));
        for (size_t i = 0; i < std::min(all.size(), moves.size()); ++i)
          if (all[i] != moves[i]) problems.push_back(st.game_id() + ": a state contradicts ply " + std::to_string(i + 1));
        if (all.size() >= moves.size()) moves = all;
        if (st.result().outcome() != ONGOING) ended[st.game_id()] = true;
      }
    }
  }
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

  // A spectator whose node died comes back on a living one and asks for what it missed.
  void keep_watching(Fan& f, const std::vector<ChaosGame>& games) {
    f.absorb();
    if (!f.client.ws->closed()) return;
    ensure_connected(f.client, f.home);
    f.read = 0;
    for (const auto& g : games) {
      if (f.ended[g.id]) continue;
      auto r = sync_until_served(f.client, g.id, f.seen[g.id].size());
      EXPECT_TRUE(r.has_reply()) << "spectator sync " << g.id << ": " << r.ShortDebugString();
    }
    f.absorb();
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

  // A spectator on each node watches every game.
  std::vector<Fan> fans(kNodes);
  for (int n = 0; n < kNodes; ++n) {
    Fan& f = fans[static_cast<size_t>(n)];
    f.home = n;
    f.client = login_guest(cluster.port(n), "fan" + std::to_string(n));
    for (const auto& g : games) {
      ClientMessage w;
      w.mutable_watch_game()->set_game_id(g.id);
      ASSERT_TRUE(f.client.ws->request(w).has_reply());
    }
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
    for (auto& f : fans) chaos.keep_watching(f, games);
  }
  for (auto& g : games)
    if (!g.over) chaos.resign(g);

  // Every spectator saw every game whole, in order, each move once (live, or caught up after its
  // node died), including the end.
  for (auto& f : fans) {
    for (int i = 0; i < 50; ++i) {  // until every end has arrived
      chaos.keep_watching(f, games);
      bool all = true;
      for (const auto& g : games) all = all && f.ended[g.id];
      if (all) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    for (const auto& g : games) {
      EXPECT_EQ(f.seen[g.id], g.acked) << "spectator on node " << f.home << ", game " << g.id;
      EXPECT_TRUE(f.ended[g.id]) << "spectator on node " << f.home << " did not see " << g.id << " end";
    }
    EXPECT_TRUE(f.problems.empty()) << "spectator on node " << f.home << ": " << f.problems.size() << " problems, first: "
                                    << f.problems.front();
  }

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
