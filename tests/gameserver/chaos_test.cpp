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
#include "rules/jieqi.h"
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
  // The true position (Jieqi: with the secret identities, read from Redis for the audit).
  xq::Position pos = xq::parse_fen(xq::kXiangqiStartFen, xq::Variant::Xiangqi);
  std::string assignment, salt;  // Jieqi
  std::vector<int> darks{30};    // Jieqi: face-down pieces left after each ply
  std::map<size_t, Side> dark_captured_by;  // Jieqi: ply → side that captured a face-down piece
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
    auto& archive = archives_[&p];  // what the old connection received, for the audit
    archive.insert(archive.end(), p.ws->history().begin(), p.ws->history().end());
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
        if (xq::is_dark(g.pos.at(g.pending_move.to)))
          g.dark_captured_by[g.acked.size()] = g.pos.side_to_move() == xq::Color::Red ? RED : BLACK;
        g.pos.make(g.pending_move);
        int darks = 0;
        for (int sq = 0; sq < 90; ++sq) darks += xq::is_dark(g.pos.at(static_cast<xq::Square>(sq)));
        g.darks.push_back(darks);
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
        // NODE_NOT_ANSWERING: the node the request went to died before answering it.
        ASSERT_TRUE(code == STORAGE_UNAVAILABLE || code == NODE_NOT_ANSWERING || code == UNKNOWN_GAME)
            << g.id << " " << g.pending << ": " << r->DebugString();
      }
      // No answer (the node that had the request died), or the game awaits its new owner.
      std::this_thread::sleep_for(std::chrono::milliseconds(150));
      send_pending(g);
    }
    FAIL() << g.id << ": move " << g.pending << " never acknowledged";
  }

  // Every frame the client received, over all its connections.
  std::vector<ServerMessage> frames_of(const TestClient& p) {
    std::vector<ServerMessage> all = archives_[&p];
    all.insert(all.end(), p.ws->history().begin(), p.ws->history().end());
    return all;
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
  std::map<const TestClient*, std::vector<ServerMessage>> archives_;
  uint64_t next_rid_ = 1'000'000;  // above the WsClient's own request ids
};

// Jieqi secrecy through the churn, for one viewer of one game: until the end no frame carries the
// secret assignment or salt; every position it was shown has as many face-down pieces as the true
// game had at that version (fewer would mean an identity shown before its reveal); and a captured
// face-down piece's identity reaches only the side that captured it.
void audit_secrecy(const ChaosGame& g, const std::vector<ServerMessage>& frames, Side viewer, const std::string& who) {
  auto darks_in = [](const std::string& fen) {
    int n = 0;
    for (char c : fen.substr(0, fen.find(' '))) n += c == 'X' || c == 'x';
    return n;
  };
  auto truth = [&](uint64_t version) { return version < g.darks.size() ? g.darks[version] : -1; };
  size_t checked = 0;
  for (const auto& f : frames) {
    const GameState* st = f.has_game_state() ? &f.game_state() : f.has_game_started() ? &f.game_started() : nullptr;
    if ((st ? st->game_id() : f.has_game_event() ? f.game_event().game_id() : "") != g.id) continue;
    if (f.has_game_event() && f.game_event().kind() == GameEvent::GAME_ENDED) break;  // all public from here
    if (st && st->result().outcome() != ONGOING) break;
    const std::string bytes = f.SerializeAsString();
    EXPECT_EQ(bytes.find(g.assignment), std::string::npos) << who << " was sent the assignment of " << g.id;
    EXPECT_EQ(bytes.find(g.salt), std::string::npos) << who << " was sent the salt of " << g.id;
    if (st) {
      EXPECT_EQ(darks_in(st->fen()), truth(st->version())) << who << ", " << g.id << " state at version " << st->version();
      ++checked;
      continue;
    }
    const GameEvent& e = f.game_event();
    // The game's last move may be rendered after its end, when everything is public.
    if (e.kind() != GameEvent::MOVE || e.version() >= g.acked.size()) continue;
    if (!e.fen().empty()) {
      EXPECT_EQ(darks_in(e.fen()), truth(e.version())) << who << ", " << g.id << " after move " << e.version();
      ++checked;
    }
    if (auto cap = g.dark_captured_by.find(e.version()); cap != g.dark_captured_by.end() && cap->second != viewer)
      EXPECT_EQ(e.move().captured_type(), "") << who << " learned the face-down piece captured at " << g.id << " ply " << e.version();
  }
  EXPECT_GT(checked, 0u) << who << " saw no position of " << g.id;
}

// The scenario of the file comment with `n_games` games of `variant`; Jieqi games are also audited
// for secrecy (every player's and spectator's frames, over all their connections).
void run_chaos(Variant variant, int n_games) {
  const int kGames = n_games, kRounds = 24;
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
    g.id = cross_node_game(g.red, g.black, variant);
    ASSERT_FALSE(g.id.empty());
    if (variant == JIEQI) {  // the true position, with the secret the server drew
      const gs::GameConfig cfg = gs::decode_config(redis.command({"GET", gs::keys::game_meta(g.id)}).str);
      g.assignment = cfg.assignment;
      g.salt = cfg.salt;
      ASSERT_EQ(g.assignment.size(), 30u);
      g.pos = xq::parse_fen(xq::kJieqiStartFen, xq::Variant::Jieqi);
      xq::apply_assignment(g.pos, xq::Assignment::from_string(g.assignment));
    }
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
      if (::testing::Test::HasFatalFailure()) return;
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
  if (variant == JIEQI)
    for (const auto& g : games) {
      audit_secrecy(g, chaos.frames_of(g.red), RED, "red of " + g.id);
      audit_secrecy(g, chaos.frames_of(g.black), BLACK, "black of " + g.id);
      for (const auto& f : fans) audit_secrecy(g, chaos.frames_of(f.client), SIDE_NONE, "spectator on node " + std::to_string(f.home));
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

}  // namespace

TEST(GameServerChaos, ManyGamesOutliveKilledAndRestartedNodes) { run_chaos(XIANGQI, 24); }

// The same with Jieqi games: also no secret identity reaches anyone early through takeovers,
// resyncs and resent moves.
TEST(GameServerChaos, JieqiSecretsHoldThroughKilledAndRestartedNodes) { run_chaos(JIEQI, 12); }
