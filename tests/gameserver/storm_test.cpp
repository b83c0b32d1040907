// A storm of random requests from signed-in players on two nodes: seeks, accepts and cancels,
// moves (legal, illegal, out of turn, garbage, in other players' games), draw offers, resignations,
// aborts, claims, move limits on request, watching, syncing from any version, lists, pings and
// reconnects to either node.
// Whatever the order, every request gets an answer (a reply or a clear error, never INTERNAL),
// nobody succeeds in acting in a game they do not play, no Jieqi secret reaches a client before
// its game ends, the nodes stay up, and every stored game replays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "rules/fen.h"
#include "rules/position.h"
#include "store/game_store.h"
#include "store/keys.h"
#include "store/redis.h"
#include "test_clients.h"
#include "test_server.h"
#include "ws_client.h"

using namespace xq::v1;

namespace {

struct MyGame {
  Side me = SIDE_NONE;
  Variant variant = XIANGQI;
  std::string fen;
  uint64_t version = 0;
  bool over = false;
};

struct Player {
  std::string name;
  TestClient c;
  std::map<std::string, MyGame> games;
  std::vector<std::string> own_seeks, others_seeks;
  // Games this player plays, known from the seek it made or accepted before its game_started
  // push has been read (that push can come after the accept's answer, from the other node).
  std::set<std::string> playing;
};

class Storm {
 public:
  Storm(TestCluster& cluster, uint32_t seed) : cluster_(cluster), rng_(seed) {}

  void add_player(const std::string& name) {
    Player p;
    p.name = name;
    p.c = register_account(cluster_.port(pick(2)), name);
    ASSERT_FALSE(p.c.user_id.empty());
    players_.push_back(std::move(p));
  }

  void step() {
    Player& p = players_[static_cast<size_t>(pick(static_cast<int>(players_.size())))];
    absorb(p);
    const int k = pick(100);
    if (k < 10) create_seek(p);
    else if (k < 13) cancel_seek(p);
    else if (k < 23) accept_seek(p);
    else if (k < 60) move(p);
    else if (k < 66) intrude(p);
    else if (k < 78) act(p);
    else if (k < 86) watch_or_sync(p);
    else if (k < 96) list(p);
    else reconnect(p);
    absorb(p);
  }

  void finish_checks() {
    EXPECT_GT(moves_played_, 100) << "the storm should also play";
    EXPECT_GT(games_.size(), 10u);
    std::string codes;
    for (auto [code, n] : errors_) codes += " " + ErrorCode_Name(code) + "=" + std::to_string(n);
    std::fprintf(stderr, "[ info ] storm: %d requests, %d moves played, %zu games, %d intrusions refused; errors:%s\n",
                 requests_, moves_played_, games_.size(), intrusions_, codes.c_str());
    for (int n = 0; n < 2; ++n) {
      std::string body;
      EXPECT_EQ(cluster_.http_get(n, "/healthz", body), 200) << "node " << n;
    }
    // Every stored game replays, and no Jieqi secret reached anyone before its game ended.
    gs::Redis redis(cluster_.redis_url(), 1);
    gs::GameStore store(redis);
    std::map<std::string, std::pair<std::string, std::string>> secrets;  // game → assignment, salt
    for (const std::string& id : games_) {
      try {
        gs::GameSession s = store.load(id);
        if (!s.config().assignment.empty()) secrets[id] = {s.config().assignment, s.config().salt};
      } catch (const std::exception& e) {
        ADD_FAILURE() << "game " << id << " does not replay: " << e.what();
      }
    }
    for (const Player& p : players_) audit(p, secrets);
    for (const Player& p : old_connections_) audit(p, secrets);
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }

  ServerMessage request(Player& p, ClientMessage m) {
    ++requests_;
    ServerMessage r = p.c.ws->request(std::move(m), 10'000);
    EXPECT_NE(r.body_case(), ServerMessage::BODY_NOT_SET) << p.name << ": a request went unanswered";
    if (r.has_error()) {
      ++errors_[r.error().code()];
      EXPECT_NE(r.error().code(), INTERNAL) << r.error().message();
      EXPECT_NE(r.error().code(), ERROR_UNSPECIFIED) << r.error().message();
      EXPECT_FALSE(r.error().message().empty()) << "error " << r.error().code() << " without a message";
    }
    return r;
  }

  void note_state(Player& p, const GameState& st) {
    games_.insert(st.game_id());
    auto it = p.games.find(st.game_id());
    if (st.you() != SIDE_NONE && it == p.games.end()) it = p.games.emplace(st.game_id(), MyGame{}).first;
    if (it == p.games.end()) return;
    it->second.me = st.you();
    it->second.variant = st.variant();
    it->second.fen = st.fen();
    it->second.version = st.version();
    it->second.over = st.result().outcome() != ONGOING;
  }

  void absorb(Player& p) {
    while (auto m = p.c.ws->next(1)) {
      if (m->has_game_started()) note_state(p, m->game_started());
      if (m->has_game_state()) note_state(p, m->game_state());
      if (m->has_game_event()) {
        const GameEvent& e = m->game_event();
        games_.insert(e.game_id());
        auto it = p.games.find(e.game_id());
        if (it == p.games.end()) continue;
        if (!e.fen().empty()) it->second.fen = e.fen();
        it->second.version = std::max(it->second.version, e.version());
        if (e.kind() == GameEvent::GAME_ENDED) it->second.over = true;
      }
      if (m->has_seeks()) {
        p.others_seeks.clear();
        for (const Seek& s : m->seeks().seeks())
          if (s.owner().user_id() != p.c.user_id) p.others_seeks.push_back(s.seek_id());
      }
    }
  }

  std::string some_game_of(Player& p, bool live_only) {
    std::vector<std::string> ids;
    for (auto& [id, g] : p.games)
      if (!live_only || !g.over) ids.push_back(id);
    return ids.empty() ? "" : ids[static_cast<size_t>(pick(static_cast<int>(ids.size())))];
  }

  void create_seek(Player& p) {
    ClientMessage m;
    auto* s = m.mutable_create_seek();
    s->set_variant(pick(2) ? JIEQI : XIANGQI);
    s->mutable_time_control()->set_initial_ms(pick(2) ? 60'000 : 180'000);
    const Side colours[] = {RED, BLACK, SIDE_NONE};
    s->set_color(colours[pick(3)]);
    if (pick(2)) s->mutable_rule_options()->set_requested_move_limit_plies(20 + static_cast<uint32_t>(pick(60)));
    ServerMessage r = request(p, m);
    if (r.has_reply()) p.own_seeks.push_back(r.reply().seek_id());
  }

  void cancel_seek(Player& p) {
    ClientMessage m;
    const bool own = !p.own_seeks.empty() && pick(4) != 0;
    m.mutable_cancel_seek()->set_seek_id(own ? p.own_seeks.back() : (pick(2) ? "no-such-seek" : ""));
    if (own) p.own_seeks.pop_back();
    ServerMessage r = request(p, m);
    if (!own) EXPECT_TRUE(r.has_error()) << "cancelled a seek that is not one's own";
  }

  void accept_seek(Player& p) {
    ClientMessage m;
    const bool known = !p.others_seeks.empty() && pick(6) != 0;
    m.mutable_accept_seek()->set_seek_id(known ? p.others_seeks[static_cast<size_t>(pick(static_cast<int>(p.others_seeks.size())))]
                                               : "bogus-" + std::to_string(pick(1000)));
    ServerMessage r = request(p, m);
    if (r.has_reply()) {
      games_.insert(r.reply().game_id());
      p.playing.insert(r.reply().game_id());
      for (Player& owner : players_)
        if (std::find(owner.own_seeks.begin(), owner.own_seeks.end(), m.accept_seek().seek_id()) != owner.own_seeks.end())
          owner.playing.insert(r.reply().game_id());
    }
    if (!known) EXPECT_TRUE(r.has_error()) << "accepted a seek that does not exist";
  }

  void move(Player& p) {
    const std::string gid = some_game_of(p, true);
    if (gid.empty()) return create_seek(p);
    MyGame& g = p.games[gid];
    std::string iccs;
    bool legal_try = false;
    if (pick(10) == 0) {
      // (Not invalid UTF-8: such a frame cannot be decoded, so its answer has no request id;
      // undecodable frames are the fault tests' business.)
      const char* junk[] = {"", "zz", "a0a0", "e0e9", "h2e2X", "a0a1a2a3", "A0A1"};
      iccs = junk[pick(7)];
    } else if (!g.fen.empty()) {
      xq::Position pos = xq::parse_fen(g.fen, g.variant == JIEQI ? xq::Variant::Jieqi : xq::Variant::Xiangqi);
      xq::MoveList ml;
      pos.generate_legal(ml);
      if (ml.size > 0) iccs = xq::to_iccs(ml.moves[pick(static_cast<int>(ml.size))]);
      legal_try = ((pos.side_to_move() == xq::Color::Red) == (g.me == RED));
    }
    ClientMessage m;
    m.mutable_move()->set_game_id(gid);
    m.mutable_move()->set_iccs(iccs);
    m.mutable_move()->set_client_move_id(p.name + "-" + std::to_string(requests_));
    ServerMessage r = request(p, m);
    if (r.has_reply()) ++moves_played_;
    if (legal_try && r.has_error()) {
      // My view may be a few frames behind (the opponent moved, the game ended, a flag fell).
      const ErrorCode c = r.error().code();
      EXPECT_TRUE(c == NOT_YOUR_TURN || c == GAME_OVER || c == ILLEGAL_MOVE || c == RATE_LIMITED) << r.DebugString();
    }
  }

  // Acting in a game one does not play must never succeed.
  void intrude(Player& p) {
    std::vector<std::string> others;
    for (const std::string& id : games_)
      if (!p.games.count(id) && !p.playing.count(id)) others.push_back(id);
    if (others.empty()) return list(p);
    const std::string gid = others[static_cast<size_t>(pick(static_cast<int>(others.size())))];
    ClientMessage m;
    switch (pick(10)) {
      case 0: m.mutable_move()->set_game_id(gid), m.mutable_move()->set_iccs("h2e2"); break;
      case 6: m.mutable_request_move_limit()->set_game_id(gid); break;
      case 1: m.mutable_resign()->set_game_id(gid); break;
      case 2: m.mutable_offer_draw()->set_game_id(gid); break;
      case 3: m.mutable_accept_draw()->set_game_id(gid); break;
      case 4: m.mutable_abort()->set_game_id(gid); break;
      case 5: m.mutable_claim_victory()->set_game_id(gid); break;
      case 7: m.mutable_propose_takeback()->set_game_id(gid); break;
      case 8: m.mutable_give_time()->set_game_id(gid); break;
      default: m.mutable_claim_draw()->set_game_id(gid); break;
    }
    ServerMessage r = request(p, m);
    EXPECT_TRUE(r.has_error()) << p.name << " acted in " << gid << ", a game of others: " << r.DebugString();
    ++intrusions_;
  }

  void act(Player& p) {
    const std::string gid = some_game_of(p, pick(5) != 0);
    if (gid.empty()) return accept_seek(p);
    ClientMessage m;
    const int k = pick(100);
    if (k < 20) m.mutable_offer_draw()->set_game_id(gid);
    else if (k < 32) m.mutable_accept_draw()->set_game_id(gid);
    else if (k < 44) m.mutable_decline_draw()->set_game_id(gid);
    else if (k < 56) m.mutable_abort()->set_game_id(gid);
    else if (k < 64) m.mutable_claim_victory()->set_game_id(gid);
    else if (k < 68) m.mutable_claim_draw()->set_game_id(gid);
    else if (k < 74) m.mutable_request_move_limit()->set_game_id(gid);
    else if (k < 80) m.mutable_propose_takeback()->set_game_id(gid);
    else if (k < 86) m.mutable_accept_takeback()->set_game_id(gid);
    else if (k < 90) m.mutable_decline_takeback()->set_game_id(gid);
    else if (k < 94) m.mutable_give_time()->set_game_id(gid);
    else m.mutable_resign()->set_game_id(gid);
    request(p, m);
  }

  void watch_or_sync(Player& p) {
    if (games_.empty()) return list(p);
    auto it = games_.begin();
    std::advance(it, pick(static_cast<int>(games_.size())));
    ClientMessage m;
    const int k = pick(3);
    if (k == 0) m.mutable_watch_game()->set_game_id(pick(8) ? *it : "no-such-game");
    else if (k == 1) m.mutable_unwatch_game()->set_game_id(*it);
    else {
      m.mutable_sync()->set_game_id(*it);
      m.mutable_sync()->set_last_version(static_cast<uint64_t>(pick(4) == 0 ? 1'000'000 : pick(12)));
    }
    request(p, m);
  }

  void list(Player& p) {
    ClientMessage m;
    const int k = pick(3);
    if (k == 0) m.mutable_list_games()->set_limit(static_cast<uint32_t>(pick(600)));
    else if (k == 1) m.mutable_list_seeks();
    else m.mutable_ping()->set_client_time_ms(1);
    request(p, m);
  }

  // The connection drops; the player signs in again on either node and resyncs its live games.
  void reconnect(Player& p) {
    Player old;
    old.name = p.name;
    old.c.ws = std::move(p.c.ws);
    old_connections_.push_back(std::move(old));
    ClientMessage login;
    login.mutable_login()->set_name(p.name);
    login.mutable_login()->set_password("secret-pass");
    TestClient c = sign_in(cluster_.port(pick(2)), login);
    p.c.ws = std::move(c.ws);
    p.c.token = c.token;
    for (auto& [id, g] : p.games) {
      if (g.over) continue;
      ClientMessage s;
      s.mutable_sync()->set_game_id(id);
      s.mutable_sync()->set_last_version(0);
      request(p, s);
    }
  }

  // No frame names a Jieqi game's assignment or salt before that game's end reached the viewer.
  static void audit(const Player& p, const std::map<std::string, std::pair<std::string, std::string>>& secrets) {
    if (!p.c.ws) return;
    std::set<std::string> ended;
    for (const ServerMessage& f : p.c.ws->history()) {
      std::string gid = f.has_game_event()     ? f.game_event().game_id()
                        : f.has_game_state()   ? f.game_state().game_id()
                        : f.has_game_started() ? f.game_started().game_id()
                                               : "";
      if (f.has_game_event() && f.game_event().kind() == GameEvent::GAME_ENDED) ended.insert(gid);
      if (f.has_game_state() && f.game_state().result().outcome() != ONGOING) ended.insert(gid);
      const std::string bytes = f.SerializeAsString();
      for (const auto& [id, secret] : secrets) {
        if (ended.count(id)) continue;
        ASSERT_EQ(bytes.find(secret.first), std::string::npos) << p.name << " saw the assignment of " << id;
        ASSERT_EQ(bytes.find(secret.second), std::string::npos) << p.name << " saw the salt of " << id;
      }
    }
  }

  TestCluster& cluster_;
  std::mt19937 rng_;
  std::vector<Player> players_, old_connections_;
  std::set<std::string> games_;
  int requests_ = 0, moves_played_ = 0, intrusions_ = 0;
  std::map<ErrorCode, int> errors_;
};

}  // namespace

TEST(GameServerStorm, RandomRequestsFromPlayersOnTwoNodes) {
  // The per-connection rate limit is raised: the storm sends as fast as the answers come.
  TestCluster cluster(2, 3000, 300, {"--rate", "10000", "--burst", "10000"});
  const char* seed = std::getenv("STORM_SEED");  // another storm: STORM_SEED=n
  Storm storm(cluster, seed ? static_cast<uint32_t>(std::stoul(seed)) : 20261201u);
  for (int i = 0; i < 10; ++i) {
    storm.add_player("storm" + std::to_string(i));
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (int i = 0; i < 2500; ++i) {
    storm.step();
    if (::testing::Test::HasFatalFailure()) return;
  }
  storm.finish_checks();
}

// The HTTP API under random requests: any method, paths built from real and made-up segments
// (ids of live games, dot segments, encodings, long names), no token, a bad one, a player's or the
// admin's, bodies that are JSON or not. Every request gets a status below 500; admin paths answer
// 2xx only to the admin; the static file handler never serves a file outside its directory. (The
// tournament paths are left out: without a matchmaker they wait for it and answer 504.)
TEST(GameServerStorm, RandomHttpRequests) {
  TestCluster cluster(1);
  TestClient red = register_account(cluster.port(0), "hs_red"), black = register_account(cluster.port(0), "hs_black");
  const std::string gid = start_game(red, black);
  ASSERT_FALSE(gid.empty());

  std::mt19937 rng(7);
  auto pick = [&](size_t n) { return rng() % n; };
  const std::vector<std::string> methods = {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"};
  const std::vector<std::string> segments = {
      "api", "games", "admin", "accounts", "users", "connections", "ban", "disconnect", "role", "adjudicate",
      "abort", "pgn", "ratings", gid, red.user_id, "hs_red",
      "no-such-thing", "..", ".", "%2e%2e", "%00", "index.html", "assets", "metrics", "healthz",
      std::string(300, 'x'), "xiangqi", "180000+2000", "-1", "99999999999999999999"};
  const std::vector<std::string> tokens = {"", "bogus-token", red.token, "Bearer", TestServers::kAdminToken};
  const std::vector<std::string> bodies = {"", "{}", "null", "[1,2", "{\"outcome\":\"red_wins\",\"reason\":\"x\"}",
                                           "{\"role\":\"admin\"}", std::string(5000, '{')};
  int admin_ok = 0;
  for (int i = 0; i < 1500; ++i) {
    std::string path, method = methods[pick(methods.size())], token = tokens[pick(tokens.size())];
    if (pick(3) == 0) {  // a real endpoint with a fitting method, so that the credentials decide
      method = pick(2) ? "GET" : "POST";
      if (pick(2)) token = TestServers::kAdminToken;
      const std::vector<std::string> real = {
          "/api/games", "/api/games/" + gid, "/api/games/" + gid + "/pgn", "/api/users/" + red.user_id + "/ratings",
          "/api/admin/games", "/api/admin/connections", "/api/admin/accounts/hs_red",
          "/api/admin/accounts/hs_black/role", "/api/admin/users/" + black.user_id + "/disconnect",
          "/api/admin/games/" + gid + "/adjudicate", "/api/admin/games/no-such-game/abort"};
      path = real[pick(real.size())];
    } else {
      const size_t n = 1 + pick(5);
      if (pick(4) != 0) path = "/api";
      for (size_t k = 0; k < n; ++k) path += "/" + segments[pick(segments.size())];
    }
    if (pick(8) == 0) path += "?limit=" + std::to_string(static_cast<int>(pick(1000)) - 100) + "&offset=x";
    std::string body;
    const int status = http_request(cluster.port(0), method, path, body, token, bodies[pick(bodies.size())]);
    ASSERT_GT(status, 0) << method << " " << path << ": no answer";
    ASSERT_LT(status, 500) << method << " " << path << ": " << body;
    const bool admin_path = path.rfind("/api/admin", 0) == 0;
    if (admin_path && status < 300) {
      ASSERT_EQ(token, TestServers::kAdminToken) << method << " " << path << " answered " << status << " without the admin credential";
      ++admin_ok;
    }
    ASSERT_EQ(body.find("root:x:0:0"), std::string::npos) << path;  // /etc/passwd
  }
  std::string body;
  EXPECT_EQ(cluster.http_get(0, "/healthz", body), 200);
  // Static files: dot segments never leave the directory.
  for (const char* p : {"/../../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd", "/assets/../../../etc/passwd"}) {
    int st = http_request(cluster.port(0), "GET", p, body);
    EXPECT_NE(st, 200) << p;
    EXPECT_EQ(body.find("root:x:0:0"), std::string::npos) << p;
  }
  std::fprintf(stderr, "[ info ] http storm: %d admin requests succeeded with the admin token\n", admin_ok);
}
