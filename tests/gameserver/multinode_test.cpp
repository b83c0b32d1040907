// Several game-server nodes on one Redis: cross-node play and watching through request
// forwarding, game ownership under node heartbeats, takeover after a node is killed or stalled,
// fencing of a node that no longer owns a game.
#include <boost/json.hpp>
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <cstring>
#include <condition_variable>
#include <map>
#include <set>
#include <thread>

#include "cluster_helpers.h"
#include "game/codec.h"
#include "game/game_session.h"
#include "jieqi_audit.h"
#include "rules/fen.h"
#include "rules/jieqi.h"
#include "rules/position.h"
#include "server/node_wire.h"
#include "store/game_store.h"
#include "store/key_migration.h"
#include "store/keys.h"
#include "store/rating_store.h"
#include "store/redis.h"
#include "store/redis_endpoint.h"
#include "test_clients.h"
#include "test_server.h"
#include "ws_client.h"

using namespace xq::v1;

namespace {

using NodeClient = TestClient;

NodeClient guest_on(uint16_t port, const std::string& name) { return login_guest(port, name); }

bool is_event(const ServerMessage& s, const std::string& gid, GameEvent::Kind k) { return is_game_event(s, gid, k); }

double ms_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

ServerMessage watch(NodeClient& p, const std::string& gid) {
  ClientMessage m;
  m.mutable_watch_game()->set_game_id(gid);
  return p.ws->request(m);
}

bool saw(const NodeClient& p, const std::function<bool(const ServerMessage&)>& pred) {
  for (const auto& f : p.ws->history())
    if (pred(f)) return true;
  return false;
}

ServerMessage move(NodeClient& p, const std::string& gid, const std::string& iccs, const std::string& cmid) {
  return send_move(p, gid, iccs, cmid);
}

const std::vector<std::string>& kMate = kMateInSeven;

}  // namespace

// (a) Red on node 0, Black on node 1, a spectator on node 1: a Jieqi game played to the end across
// nodes; every frame of the spectator and of each player passes the secrecy audit.
TEST(GameServerMultiNode, PlayersOnTwoNodesPlayJieqiAndTheSpectatorSeesNoSecret) {
  TestCluster cluster(2);
  NodeClient red = guest_on(cluster.port(0), "mn_red"), black = guest_on(cluster.port(1), "mn_black"),
         fan = guest_on(cluster.port(1), "mn_fan");
  std::string gid = cross_node_game(red, black, JIEQI);
  ASSERT_FALSE(gid.empty());
  gs::Redis redis(cluster.redis_url());
  EXPECT_EQ(owner_of(redis, gid), TestCluster::node_id(0));  // the seek's node created and owns it
  {  // the game is listed on the other node too
    ClientMessage list;
    list.mutable_list_games();
    auto games = fan.ws->request(list);
    bool found = false;
    for (const auto& g : games.games().games()) found = found || (g.game_id() == gid && g.red().name() == red.name);
    EXPECT_TRUE(found) << games.DebugString();
  }
  ASSERT_TRUE(watch(fan, gid).has_reply());
  ASSERT_TRUE(fan.ws->wait_for([&](const ServerMessage& s) { return s.has_game_state(); }));

  uint64_t seed = 777, version = 0;
  bool over = false;
  int played = 0;
  for (int ply = 0; ply < 40 && !over; ++ply) {
    NodeClient& p = ply % 2 == 0 ? red : black;
    std::string fen = xq::kJieqiStartFen;
    if (version > 0) {
      auto ev = p.ws->wait_for([&](const ServerMessage& s) {
        return s.has_game_event() && s.game_event().game_id() == gid && s.game_event().version() == version;
      });
      ASSERT_TRUE(ev) << "ply " << ply;
      fen = ev->game_event().fen();
    }
    const std::string iccs = pick_jieqi_move(fen, seed);
    ASSERT_FALSE(iccs.empty());
    auto r = move(p, gid, iccs, "j" + std::to_string(ply));
    ASSERT_TRUE(r.has_reply()) << iccs << " " << r.DebugString();
    version = r.reply().version();
    ++played;
    over = p.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); }, 30).has_value();
    if (ply == 1) {  // node 1's game list counts node 1's spectator of node 0's game (as of the last move)
      NodeClient lister = guest_on(cluster.port(1), "mn_lister");
      uint32_t listed = 0;
      EXPECT_TRUE(eventually([&] {
        ClientMessage list;
        list.mutable_list_games();
        const ServerMessage games = lister.ws->request(list);
        for (const auto& g : games.games().games())
          if (g.game_id() == gid) listed = g.spectators();
        return listed == 1;
      }, 5000)) << listed;
    }
  }
  if (!over) {
    ClientMessage resign;
    resign.mutable_resign()->set_game_id(gid);
    ASSERT_TRUE(red.ws->request(resign).has_reply());
  }
  for (NodeClient* p : {&red, &black, &fan})
    if (!saw(*p, [&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); }))
      ASSERT_TRUE(p->ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); }))
          << p->name;

  std::string assignment, salt, commitment;
  for (const auto& f : fan.ws->history())
    if (is_event(f, gid, GameEvent::GAME_ENDED)) {
      assignment = f.game_event().result().assignment();
      salt = f.game_event().result().salt();
    }
  for (const auto& f : black.ws->history())
    if (f.has_game_started()) commitment = f.game_started().commitment();
  ASSERT_EQ(assignment.size(), 30u);
  EXPECT_TRUE(xq::verify_commitment(commitment, assignment, salt));
  audit(fan.ws->history(), gid, SIDE_NONE, assignment, salt, std::min(11, played - 1));
  audit(red.ws->history(), gid, RED, assignment, salt, std::min(11, played - 1));
  audit(black.ws->history(), gid, BLACK, assignment, salt, std::min(11, played - 1));
  // The finished game's record is served by either node, and its lease is gone (once the
  // archive, which runs in the background, is written).
  std::string body;
  ASSERT_EQ(cluster.http_get(1, "/api/games/" + gid, body), 200);
  EXPECT_TRUE(eventually([&] { return owner_of(redis, gid).empty(); }, 5000)) << owner_of(redis, gid);
}

// A player on a node that does not own the game gets its move's event as the answer too
// (MakeMove.event_is_reply), through the owner's forwarding.
// A player's seek held by one node goes when its game starts on another (review, 2026-12-04: a
// player with a page on each node accepted a seek there and still had its own open here, which a
// third player then took up: two live games at once).
TEST(GameServerMultiNode, APlayersSeekOnOneNodeGoesWhenItsGameStartsOnAnother) {
  TestCluster cluster(2);
  NodeClient p = guest_on(cluster.port(1), "os_p"), x = guest_on(cluster.port(0), "os_x"), q = guest_on(cluster.port(1), "os_q");
  ClientMessage seek;
  seek.mutable_create_seek()->set_variant(XIANGQI);
  seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(300'000);
  const ServerMessage mine = p.ws->request(seek);  // held by node 1
  ASSERT_TRUE(mine.has_reply()) << mine.DebugString();
  seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(420'000);
  const ServerMessage theirs = x.ws->request(seek);  // held by node 0
  ASSERT_TRUE(theirs.has_reply()) << theirs.DebugString();
  ClientMessage accept;
  accept.mutable_accept_seek()->set_seek_id(theirs.reply().seek_id());
  const ServerMessage started = p.ws->request(accept);  // the game starts on node 0
  ASSERT_TRUE(started.has_reply()) << started.DebugString();
  accept.mutable_accept_seek()->set_seek_id(mine.reply().seek_id());
  const ServerMessage second = q.ws->request(accept);
  EXPECT_EQ(error_of(second), UNKNOWN_SEEK) << second.DebugString();
  // Node 1 drops the seek from its lobby at its next sweeps: one made afresh is the player's only one.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ClientMessage list;
  list.mutable_list_seeks();
  const ServerMessage listed = q.ws->request(list);
  for (const auto& k : listed.seeks().seeks()) EXPECT_NE(k.seek_id(), mine.reply().seek_id()) << "still listed";
}

TEST(GameServerMultiNode, MoveEventAnswersAMoverOnAnotherNode) {
  TestCluster cluster(2);
  NodeClient red = guest_on(cluster.port(0), "mne_red"), black = guest_on(cluster.port(1), "mne_black");
  std::string gid = cross_node_game(red, black, XIANGQI);
  ASSERT_FALSE(gid.empty());
  gs::Redis redis(cluster.redis_url());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  ASSERT_TRUE(move(red, gid, "h2e2", "r1").has_reply());
  ClientMessage m;
  m.set_request_id(4242);
  m.mutable_move()->set_game_id(gid);
  m.mutable_move()->set_iccs("h9g7");
  m.mutable_move()->set_client_move_id("b1");
  m.mutable_move()->set_event_is_reply(true);
  black.ws->send(m);
  auto answer = black.ws->wait_for([](const ServerMessage& s) { return s.request_id() == 4242; });
  ASSERT_TRUE(answer);
  ASSERT_TRUE(is_event(*answer, gid, GameEvent::MOVE)) << answer->DebugString();
  EXPECT_EQ(answer->game_event().version(), 2u);
  auto pushed = red.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 2; });
  ASSERT_TRUE(pushed);
  EXPECT_EQ(pushed->request_id(), 0u);
}

// (b) Three nodes; the game's owner is killed with SIGKILL mid-game (a move in flight). The
// clients reconnect to the surviving nodes with their tokens, sync, and finish the game; the log
// holds every acknowledged move exactly once. A spectator on a surviving node keeps receiving the
// game without asking.
TEST(GameServerMultiNode, KillDashNineOfTheOwnerGameContinuesOnTheOtherNodes) {
  TestCluster cluster(3, 2000, 250);
  gs::Redis redis(cluster.redis_url());
  NodeClient red = guest_on(cluster.port(0), "k9m_red"), black = guest_on(cluster.port(1), "k9m_black"),
         fan = guest_on(cluster.port(2), "k9m_fan");
  std::string gid = cross_node_game(red, black, XIANGQI);
  ASSERT_FALSE(gid.empty());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  ASSERT_TRUE(watch(fan, gid).has_reply());

  std::vector<std::string> acked;
  for (size_t i = 0; i < 4; ++i) {
    NodeClient& p = i % 2 == 0 ? red : black;
    auto r = move(p, gid, kMate[i], "m" + std::to_string(i));
    ASSERT_TRUE(r.has_reply()) << r.DebugString();
    EXPECT_EQ(r.reply().version(), i + 1);
    acked.push_back(kMate[i]);
  }
  // Black (on node 1, routed to node 0) sees red's moves; the spectator too.
  ASSERT_TRUE(fan.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 4; }));
  // Chat across nodes: Black's line (node 1) reaches Red (node 0), the spectator's (node 2) its
  // own room only.
  auto say = [&](NodeClient& who, const std::string& text) { return send_chat(who, gid, text); };
  auto heard = [](NodeClient& who, const std::string& text, int ms = 3000) { return chat_line(who, text, ms); };
  ASSERT_TRUE(say(black, "from node 1").has_reply());
  ASSERT_TRUE(heard(red, "from node 1"));
  ASSERT_TRUE(say(fan, "from node 2").has_reply());
  ASSERT_TRUE(heard(fan, "from node 2"));
  EXPECT_FALSE(heard(red, "from node 2", 300));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the lines are stored off the io thread

  // Red sends move 5 and node 0 dies at once: the move may or may not have been stored.
  {
    ClientMessage m;
    m.set_request_id(999);
    m.mutable_move()->set_game_id(gid);
    m.mutable_move()->set_iccs(kMate[4]);
    m.mutable_move()->set_client_move_id("m4");
    red.ws->send(m);
  }
  cluster.kill_node(0);
  const auto killed = std::chrono::steady_clock::now();

  reconnect_to(red, cluster.port(2));
  // Both players sync from what they had; served once a survivor took over. The spectator, whose
  // own node survived, does nothing: its node follows the game to the new owner by itself.
  for (NodeClient* p : {&red, &black}) {
    auto r = sync_until_served(*p, gid, 4);
    ASSERT_TRUE(r.has_reply()) << p->name << ": " << r.DebugString();
    EXPECT_GE(r.reply().version(), 4u);
  }
  // The new owner read the chat back: Red, on a new connection, is shown Black's line.
  EXPECT_TRUE(heard(red, "from node 1")) << "the chat did not follow the game to its new owner";
  std::string new_owner = owner_of(redis, gid);
  EXPECT_TRUE(new_owner == TestCluster::node_id(1) || new_owner == TestCluster::node_id(2)) << new_owner;
  EXPECT_LT(std::chrono::steady_clock::now() - killed, std::chrono::seconds(12));

  // The move in flight is resent with its id: stored exactly once either way.
  auto r5 = move(red, gid, kMate[4], "m4");
  ASSERT_TRUE(r5.has_reply()) << r5.DebugString();
  EXPECT_EQ(r5.reply().version(), 5u);
  for (size_t i = 5; i < kMate.size(); ++i) {
    NodeClient& p = i % 2 == 0 ? red : black;
    auto r = move(p, gid, kMate[i], "m" + std::to_string(i));
    ASSERT_TRUE(r.has_reply()) << kMate[i] << ": " << r.DebugString();
    EXPECT_EQ(r.reply().version(), i + 1);
  }
  for (NodeClient* p : {&red, &black, &fan}) {
    auto end = p->ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); }, 5000);
    ASSERT_TRUE(end) << p->name << " got: " << last_frames(*p);
    EXPECT_EQ(end->game_event().result().reason(), "checkmate");
  }
  // The spectator saw every move once, in order (catch-up after the takeover included).
  std::vector<std::string> seen;
  for (const auto& f : fan.ws->history())
    if (is_event(f, gid, GameEvent::MOVE) && f.game_event().version() == seen.size() + 1)
      seen.push_back(f.game_event().move().iccs().substr(0, 4));
  EXPECT_EQ(seen, kMate);
  bool ended = false;
  EXPECT_EQ(stored_moves(redis, gid, &ended), kMate);
  EXPECT_TRUE(ended);
  std::string body;
  ASSERT_EQ(cluster.http_get(1, "/api/games/" + gid, body), 200);
  EXPECT_NE(body.find("\"reason\":\"checkmate\""), std::string::npos) << body;
}

// A takeover charges the side to move the part of its turn the dead node ran (known from its last
// heartbeat), not the time until a survivor took the game (the lease).
TEST(GameServerMultiNode, TakeoverChargesTheTurnTheDeadNodeRanButNotTheGap) {
  ClusterGame c("tc", 2, 2000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  auto black_clock = [&] {
    EXPECT_TRUE(watch(black, gid).has_reply());
    auto st = black.ws->wait_for([&](const ServerMessage& s) { return s.has_game_state() && s.game_state().game_id() == gid; });
    return st ? st->game_state().clock() : ClockState{};
  };
  // After both first moves: the clocks wait for them (GameSession::clocks_wait_for_first_moves).
  ASSERT_TRUE(move(red, gid, kMate[0], "t0").has_reply());
  ASSERT_TRUE(move(black, gid, kMate[1], "t1").has_reply());
  ASSERT_TRUE(move(red, gid, kMate[2], "t2").has_reply());
  const auto turn = std::chrono::steady_clock::now();
  const uint32_t had = black_clock().black_ms();
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // Black thinks; node 0 runs the game
  const double thought = ms_between(turn, std::chrono::steady_clock::now());
  cluster.kill_node(0);
  const auto killed = std::chrono::steady_clock::now();
  auto r = sync_until_served(black, gid, 3);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(1));
  const ClockState after = black_clock();
  ASSERT_EQ(after.running(), BLACK);
  const double used = had - after.black_ms();
  const double gap = ms_between(killed, std::chrono::steady_clock::now());
  EXPECT_GE(used, thought - 250 - 300) << "the turn up to the dead node's last heartbeat is charged";
  // Nobody ran the game from the last heartbeat until the takeover, at least the lease less a tick.
  EXPECT_LE(used, thought + gap - 1500) << "the takeover's wait is not charged (gap " << gap << " ms)";
}

// The connections of the taking node that followed the game on the dead owner hear its clock at
// the takeover, without asking: their pages counted the gap on, which the new owner charges to
// nobody, and stayed seconds short until the next move (flaky-network review, 2026-12-05).
TEST(GameServerMultiNode, FollowersOnTheTakingNodeHearTheLiveClockAtATakeover) {
  ClusterGame c("lc", 2, 2000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  ASSERT_TRUE(move(red, gid, kMate[0], "l0").has_reply());
  ASSERT_TRUE(move(black, gid, kMate[1], "l1").has_reply());
  ASSERT_TRUE(move(red, gid, kMate[2], "l2").has_reply());
  auto ev = black.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 3; });
  ASSERT_TRUE(ev) << last_frames(black);
  const auto heard = std::chrono::steady_clock::now();
  const uint32_t had = ev->game_event().clock().black_ms();
  const uint64_t killed_wall = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                         std::chrono::system_clock::now().time_since_epoch()).count());
  cluster.kill_node(0);
  // Black asks for nothing: its node takes the game over at a tick once the lease has run out.
  auto st = black.ws->wait_for([&](const ServerMessage& s) {
    return s.has_game_state() && s.game_state().game_id() == gid && s.game_state().clock().server_time_ms() > killed_wall;
  }, 10000);
  ASSERT_TRUE(st) << last_frames(black);
  EXPECT_EQ(owner_of(redis, gid), TestCluster::node_id(1));
  const ClockState& clock = st->game_state().clock();
  EXPECT_EQ(clock.running(), BLACK);
  const double counted = ms_between(heard, std::chrono::steady_clock::now());  // what the page counted down
  const double charged = double(had) - clock.black_ms();
  EXPECT_LT(charged, counted - 1000) << "the page hears that the gap (a 2 s lease) was not charged";
  EXPECT_EQ(st->game_state().version(), 3u);
}

// A clean stop (SIGTERM) deletes the node's heartbeat: another node takes its games over at its
// next tick, long before the lease would have run out.
TEST(GameServerMultiNode, CleanStopHandsGamesOverAtOnce) {
  ClusterGame c("cs", 2, 60000, 300);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_TRUE(move(red, gid, kMate[0], "c0").has_reply());
  const auto t0 = std::chrono::steady_clock::now();
  cluster.stop_node(0);
  reconnect_to(red, cluster.port(1));
  auto r = sync_until_served(red, gid, 1, 8000);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(8));  // not the 60 s lease
  EXPECT_EQ(owner_of(redis, gid), TestCluster::node_id(1));
  auto b = move(black, gid, kMate[1], "c1");
  ASSERT_TRUE(b.has_reply()) << b.DebugString();
  EXPECT_EQ(b.reply().version(), 2u);
  EXPECT_EQ(redis.command({"EXISTS", gs::keys::node_alive(TestCluster::node_id(0))}).integer, 0);
}

// A node that takes a game over because a request for it came in (not at its tick) serves its own
// connections that followed the game on the old owner at once: Black, on the taking node, hears
// Red's next move then, not at the next tick (up to a tick late, review 2026-12-04; the tick here
// is 30 s, so only the takeover itself can have moved Black over).
TEST(GameServerMultiNode, FollowersOnTheTakingNodeHearTheFirstMoveAfterATakeoverOnRequest) {
  ClusterGame c("fo", 2, 60000, 30000);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  ASSERT_TRUE(play_mate_opening(red, black, gid, 2, "f"));
  cluster.stop_node(0);
  reconnect_to(red, cluster.port(1));
  ASSERT_TRUE(sync_until_served(red, gid, 2, 8000).has_reply());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(1));
  auto r = move(red, gid, kMate[2], "f2");
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  EXPECT_TRUE(black.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 3; }, 5000))
      << last_frames(black);
  // Once each, whatever path it came by.
  int heard = 0;
  for (const auto& f : black.ws->history()) heard += is_event(f, gid, GameEvent::MOVE) && f.game_event().version() == 3;
  EXPECT_EQ(heard, 1);
}

// A node stalled past the lease time (SIGSTOP) loses its games to the others; when it resumes it
// finds its heartbeat lapsed, drops the games taken meanwhile, and sends its connections to their
// new owner. The game is never played on two nodes.
TEST(GameServerMultiNode, StalledNodeResumesWithoutPlayingATakenGame) {
  ClusterGame c("st", 2, 2000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_TRUE(play_mate_opening(red, black, gid, 2, "s"));

  cluster.freeze_node(0);
  ASSERT_EQ(wait_for_owner(redis, gid, TestCluster::node_id(1)), TestCluster::node_id(1))
      << "node 1 did not take the game of the stalled node";

  // Red comes back through node 1 and plays on.
  NodeClient red2;
  red2.token = red.token, red2.user_id = red.user_id, red2.name = red.name;
  reconnect_to(red2, cluster.port(1));
  auto s = sync_until_served(red2, gid, 2);
  ASSERT_TRUE(s.has_reply()) << s.DebugString();
  auto m2 = move(red2, gid, kMate[2], "s2");
  ASSERT_TRUE(m2.has_reply()) << m2.DebugString();
  EXPECT_EQ(m2.reply().version(), 3u);

  cluster.thaw_node(0);
  // Red's old connection to node 0 is followed to node 1: it hears black's next move from there.
  auto m3 = move(black, gid, kMate[3], "s3");
  ASSERT_TRUE(m3.has_reply()) << m3.DebugString();
  EXPECT_EQ(m3.reply().version(), 4u);
  // (Node 0 notices at its first tick, 250 ms; the 5 s budget stays below its periodic full check,
  // 30 ticks, so this fails if the lapsed heartbeat went unnoticed.)
  auto ev = red.ws->wait_for([&](const ServerMessage& f) {
    return is_event(f, gid, GameEvent::MOVE) && f.game_event().version() == 4;
  }, 5000);
  ASSERT_TRUE(ev) << last_frames(red);
  EXPECT_EQ(owner_of(redis, gid), TestCluster::node_id(1));
  bool ended = false;
  EXPECT_EQ(stored_moves(redis, gid, &ended), (std::vector<std::string>{kMate[0].substr(0, 4), kMate[1].substr(0, 4),
                                                                         kMate[2].substr(0, 4), kMate[3].substr(0, 4)}));
  EXPECT_FALSE(ended);
}

// The owner is killed and restarted at once under the same name: its heartbeat never lapses and
// the game's owner stays the same, but the proxies through which the other node's connections
// followed the game died with it. The restarted node says it is up, and they subscribe again
// (fault review: black, on the other node, never heard red's next move).
TEST(GameServerMultiNode, FollowersOfANodeRestartedUnderItsOwnNameHearTheGameAgain) {
  ClusterGame c("ri", 2, 8000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  ASSERT_TRUE(play_mate_opening(red, black, gid, 2, "r"));

  cluster.kill_node(0);
  cluster.restart_node(0);
  EXPECT_EQ(owner_of(redis, gid), TestCluster::node_id(0)) << "the heartbeat did not lapse: same owner";
  NodeClient red2;
  red2.token = red.token, red2.user_id = red.user_id, red2.name = red.name;
  reconnect_to(red2, cluster.port(0));
  ASSERT_TRUE(sync_until_served(red2, gid, 2).has_reply());
  auto m2 = move(red2, gid, kMate[2], "r2");
  ASSERT_TRUE(m2.has_reply()) << m2.DebugString();
  EXPECT_EQ(m2.reply().version(), 3u);
  // Black's connection to node 1 hears it without asking (a tick, 250 ms; the lease is 8 s).
  auto ev = black.ws->wait_for([&](const ServerMessage& f) {
    return is_event(f, gid, GameEvent::MOVE) && f.game_event().version() == 3;
  }, 4000);
  ASSERT_TRUE(ev) << last_frames(black);
  ASSERT_TRUE(move(black, gid, kMate[3], "r3").has_reply());
  auto back = red2.ws->wait_for([&](const ServerMessage& f) {
    return is_event(f, gid, GameEvent::MOVE) && f.game_event().version() == 4;
  }, 4000);
  EXPECT_TRUE(back) << last_frames(red2);
}

// A move forwarded to the owner while it stood still (SIGSTOP past its lease) is read when it runs
// again, after another node took the game over and played that move on the player's resend. The
// stalled node's append is refused and it reloads the game from Redis, new move included; its own
// spectator must still be sent that move (fault review: it resynced from the reloaded copy's
// version, and a player there never heard the opponent's move).
TEST(GameServerMultiNode, ASpectatorOfAStalledOwnerHearsTheMoveTheNewOwnerPlayed) {
  ClusterGame c("sp", 2, 2000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  for (size_t i = 0; i < 3; ++i) ASSERT_TRUE(move(i % 2 ? black : red, gid, kMate[i], "p" + std::to_string(i)).has_reply());
  NodeClient fan = guest_on(cluster.port(0), "sp_fan");
  ASSERT_TRUE(watch(fan, gid).has_reply());

  cluster.freeze_node(0);
  ClientMessage m;  // black's move, forwarded by node 1 to the stalled owner: no answer yet
  m.set_request_id(777);
  m.mutable_move()->set_game_id(gid);
  m.mutable_move()->set_iccs(kMate[3]);
  m.mutable_move()->set_client_move_id("p3");
  black.ws->send(m);
  ASSERT_EQ(wait_for_owner(redis, gid, TestCluster::node_id(1)), TestCluster::node_id(1))
      << "node 1 did not take the game of the stalled node";
  ServerMessage played;  // the client's resend, same move id
  for (int i = 0; i < 40 && !played.has_reply(); ++i) {
    played = move(black, gid, kMate[3], "p3");
    if (!played.has_reply()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_TRUE(played.has_reply()) << played.DebugString();

  cluster.thaw_node(0);
  auto moved = [&](const ServerMessage& f) { return is_event(f, gid, GameEvent::MOVE) && f.game_event().version() == 4; };
  if (!saw(fan, moved)) EXPECT_TRUE(fan.ws->wait_for(moved, 5000)) << last_frames(fan);
  bool ended = false;
  EXPECT_EQ(stored_moves(redis, gid, &ended).size(), 4u) << "the move was played once";
}

// A request forwarded to an owner that stands still (SIGSTOP, its lease far from lapsing) is
// answered by the client's own node after --forward-timeout-ms: NODE_NOT_ANSWERING, which says
// the request may still be carried out. It is, once the owner runs again, and the answer still
// reaches the client; the resend the error invites is played once. (Before, the client heard
// nothing until the owner resumed or lost its lease.)
TEST(GameServerMultiNode, ARequestToAStalledOwnerIsAnsweredByTheClientsNode) {
  ClusterGame c("fw", 2, 60000, 250, {"--forward-timeout-ms", "1500"});
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_TRUE(move(red, gid, kMate[0], "f0").has_reply());

  cluster.freeze_node(0);
  const auto t0 = std::chrono::steady_clock::now();
  const ServerMessage late = send_move(black, gid, kMate[1], "f1", 8000);
  const auto waited = std::chrono::steady_clock::now() - t0;
  ASSERT_TRUE(late.has_error()) << late.DebugString();
  EXPECT_EQ(late.error().code(), xq::v1::NODE_NOT_ANSWERING) << late.DebugString();
  EXPECT_EQ(late.error().game_id(), gid);
  EXPECT_GE(waited, std::chrono::milliseconds(1400));
  EXPECT_LT(waited, std::chrono::milliseconds(6000));
  // The client's node still serves everything else meanwhile.
  EXPECT_TRUE(guest_on(cluster.port(1), "fw_other").ws);

  cluster.thaw_node(0);
  const uint64_t rid = late.request_id();
  auto answered = black.ws->wait_for([&](const ServerMessage& f) { return f.request_id() == rid && !f.has_error(); }, 5000);
  ASSERT_TRUE(answered) << "the owner's late answer: " << last_frames(black);
  const ServerMessage again = move(black, gid, kMate[1], "f1");
  ASSERT_TRUE(again.has_reply()) << again.DebugString();
  EXPECT_TRUE(again.reply().duplicate());
  EXPECT_EQ(again.reply().version(), 2u);
  EXPECT_EQ(stored_moves(redis, gid).size(), 2u) << "played once";
}

// A server upgraded over a Redis written before every key carried the cluster hash tag renames
// the old keys at start ("xq:…" → "{xq}:…"), so its accounts, bans and ratings stay; a key whose
// new name is taken already is left as it was.
TEST(GameServerMultiNode, KeysFromBeforeTheHashTagAreRenamedAtStart) {
  TestCluster cluster(1, 5000, 250);
  gs::Redis redis(cluster.redis_url());
  redis.command({"SET", "xq:rating:xiangqi:u-old", "{\"rating\":1712}"});
  redis.command({"SADD", "xq:banned", "u-bad"});
  redis.command({"SET", "xq:archive:g-both", "old"});
  redis.command({"SET", gs::keys::archive("g-both"), "new"});
  cluster.kill_node(0);
  cluster.restart_node(0);
  EXPECT_EQ(redis.command({"GET", gs::keys::rating("xiangqi", "u-old")}).str, "{\"rating\":1712}");
  EXPECT_EQ(redis.command({"EXISTS", "xq:rating:xiangqi:u-old"}).integer, 0);
  EXPECT_EQ(redis.command({"SISMEMBER", gs::keys::kBanned, "u-bad"}).integer, 1);
  EXPECT_EQ(redis.command({"GET", gs::keys::archive("g-both")}).str, "new") << "never overwritten";
  EXPECT_EQ(redis.command({"GET", "xq:archive:g-both"}).str, "old");
  const gs::KeyMigration again = gs::migrate_untagged_keys(redis);
  EXPECT_EQ(again.renamed, 0u);
  EXPECT_EQ(again.skipped, 1u);
}

// A node that stalled past its lease still holds a copy of a game another node took over and
// played on. A move sent to it by the side to move must not be refused as out of turn by that old
// copy (R2 review, after a Redis outage: NOT_YOUR_TURN, which the web client takes as final): it
// is played, or answered STORAGE_UNAVAILABLE so that the client retries on the game's owner.
TEST(GameServerMultiNode, AStaleCopyDoesNotRefuseTheSideToMove) {
  ClusterGame c("sc", 2, 2000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  ASSERT_TRUE(play_mate_opening(red, black, gid, 3, "c"));
  NodeClient fan = guest_on(cluster.port(0), "sc_fan");
  ASSERT_TRUE(watch(fan, gid).has_reply());

  cluster.freeze_node(0);
  ASSERT_EQ(wait_for_owner(redis, gid, TestCluster::node_id(1)), TestCluster::node_id(1))
      << "node 1 did not take the game of the stalled node";
  // Black plays on through node 1; node 0's copy has not heard of it.
  NodeClient black2;
  black2.token = black.token, black2.user_id = black.user_id, black2.name = black.name;
  reconnect_to(black2, cluster.port(1));
  ASSERT_TRUE(sync_until_served(black2, gid, 3).has_reply());
  ASSERT_TRUE(move(black2, gid, kMate[3], "c3").has_reply());

  // Red's move reaches node 0 while it is still stalled, and is read as soon as it runs again.
  ClientMessage m;
  m.set_request_id(4242);
  m.mutable_move()->set_game_id(gid);
  m.mutable_move()->set_iccs(kMate[4]);
  m.mutable_move()->set_client_move_id("c4");
  red.ws->send(m);
  cluster.thaw_node(0);
  auto answer = red.ws->wait_for([](const ServerMessage& f) { return f.request_id() == 4242; }, 10'000);
  ASSERT_TRUE(answer) << last_frames(red);
  EXPECT_NE(error_of(*answer), NOT_YOUR_TURN) << answer->DebugString();
  if (!answer->has_reply() && !answer->has_game_event()) {
    EXPECT_EQ(error_of(*answer), STORAGE_UNAVAILABLE) << answer->DebugString();
    ServerMessage again;  // the client's retry
    for (int i = 0; i < 30 && !again.has_reply() && !again.has_game_event(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      again = move(red, gid, kMate[4], "c4");
    }
    EXPECT_TRUE(again.has_reply() || again.has_game_event()) << again.DebugString();
  }
  bool ended = false;
  EXPECT_EQ(stored_moves(redis, gid, &ended).size(), 5u);
  // The spectator on node 0 hears black's move that node 1 stored meanwhile, then red's: its
  // subscription follows the game from the version it had, not from the version of the copy that
  // node 0 reloaded when red's append was refused (fault review: a player there never heard the
  // opponent's move, its clock running).
  for (uint64_t v : {4u, 5u}) {
    auto moved = [&](const ServerMessage& f) { return is_event(f, gid, GameEvent::MOVE) && f.game_event().version() == v; };
    if (!saw(fan, moved)) EXPECT_TRUE(fan.ws->wait_for(moved, 5000)) << "version " << v << "\n" << last_frames(fan);
  }
}

// A spectator's node follows a game whose owner changed; if its request does not reach the new
// owner (nobody listened on that node's channel yet), it tries again at a later tick instead of
// waiting for the next change of owner.
TEST(GameServerMultiNode, FollowingAGameIsRetriedWhenTheRequestWasNotHeard) {
  TestCluster cluster(2, 60000, 250);
  gs::Redis redis(cluster.redis_url());
  NodeClient red = guest_on(cluster.port(0), "rt_red"), black = guest_on(cluster.port(0), "rt_black"),
             fan = guest_on(cluster.port(1), "rt_fan");
  std::string gid = cross_node_game(red, black, XIANGQI);
  ASSERT_FALSE(gid.empty());
  ASSERT_TRUE(watch(fan, gid).has_reply());

  // A living node "ghost" takes the game but does not listen yet: node 1's first request is lost.
  redis.command({"SET", gs::keys::node_alive("ghost"), "1", "PX", "60000"});
  redis.command({"SET", gs::keys::game_owner(gid), "ghost"});
  // Node 1's follow is not heard (a few ticks pass); the fan, who asked nothing, is told nothing.
  EXPECT_FALSE(fan.ws->wait_for([&](const ServerMessage& s) { return s.has_error(); }, 1500)) << last_frames(fan);
  // Now it listens: node 1 sends the spectator's sync again by itself.
  redisContext* sub = gs::connect_redis(gs::parse_redis_url(cluster.redis_url()), timeval{10, 0});
  ASSERT_TRUE(sub);
  const std::string channel = gs::keys::node_channel("ghost");
  freeReplyObject(redisCommand(sub, "SUBSCRIBE %b", channel.data(), channel.size()));
  bool heard = false;
  for (int i = 0; i < 20 && !heard; ++i) {
    void* raw = nullptr;
    if (redisGetReply(sub, &raw) != REDIS_OK || !raw) break;
    auto* r = static_cast<redisReply*>(raw);
    if (r->type == REDIS_REPLY_ARRAY && r->elements == 3 && r->element[2]->type == REDIS_REPLY_STRING) {
      auto nm = gs::decode_node_message(std::string_view(r->element[2]->str, r->element[2]->len));
      ClientMessage m;
      heard = nm && nm->kind == gs::NodeMessage::Kind::Request && m.ParseFromString(nm->payload) && m.has_sync() &&
              m.sync().game_id() == gid && nm->from_node == TestCluster::node_id(1);
    }
    freeReplyObject(r);
  }
  redisFree(sub);
  EXPECT_TRUE(heard) << "node 1 did not follow the game again";
}

// (c) Fencing: a node whose game was taken cannot append, and takes the game back (reloading it
// from Redis) once the new owner is dead.
TEST(GameServerMultiNode, NodeWithoutTheLeaseCannotAppend) {
  TestCluster cluster(1, 60000, 300);  // long lease: only the test changes the owner
  gs::Redis redis(cluster.redis_url());
  NodeClient red = guest_on(cluster.port(0), "fe_red"), black = guest_on(cluster.port(0), "fe_black");
  const std::string gid = start_game(red, black);
  ASSERT_FALSE(gid.empty());
  ASSERT_TRUE(move(red, gid, "h2e2", "f1").has_reply());

  // Another (living) node "takes" the game.
  redis.command({"SET", gs::keys::node_alive("intruder"), "1", "PX", "60000"});
  redis.command({"SET", gs::keys::game_owner(gid), "intruder"});
  auto refused = move(black, gid, "h9g7", "f2");
  ASSERT_TRUE(refused.has_error()) << refused.DebugString();
  EXPECT_EQ(refused.error().code(), STORAGE_UNAVAILABLE);
  EXPECT_EQ(redis.command({"LLEN", gs::keys::game_events(gid)}).integer, 1);
  // The owner "intruder" does not answer: the request is refused, nothing is written.
  EXPECT_EQ(move(black, gid, "h9g7", "f2").error().code(), STORAGE_UNAVAILABLE);
  EXPECT_EQ(redis.command({"LLEN", gs::keys::game_events(gid)}).integer, 1);

  // The intruder dies: the node reloads the game from Redis and play goes on.
  redis.command({"DEL", gs::keys::node_alive("intruder")});
  auto ok = move(black, gid, "h9g7", "f2");
  ASSERT_TRUE(ok.has_reply()) << ok.DebugString();
  EXPECT_EQ(ok.reply().version(), 2u);
  EXPECT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  EXPECT_EQ(stored_moves(redis, gid), (std::vector<std::string>{"h2e2", "h9g7"}));
  // Red, subscribed to the dropped actor, was re-subscribed to the reloaded game by itself.
  auto ev = red.ws->wait_for([&](const ServerMessage& s) {
    return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 2;
  });
  ASSERT_TRUE(ev) << last_frames(red);
  EXPECT_EQ(ev->game_event().move().iccs().substr(0, 4), "h9g7");
}

// A taker on another node that has not sent anything for the game yet (it only received
// game_started through its node) still follows it: when the owner dies, its node re-subscribes it
// at the new owner and the opponent's next move reaches it without a request.
TEST(GameServerMultiNode, SilentTakerOnAnotherNodeFollowsTheGameToItsNewOwner) {
  ClusterGame c("sf", 3, 2000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  cluster.kill_node(0);
  reconnect_to(red, cluster.port(2));
  auto r = sync_until_served(red, gid, 0);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  ASSERT_TRUE(move(red, gid, kMate[0], "f0").has_reply());
  auto ev = black.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE); }, 8000);
  ASSERT_TRUE(ev) << "black's node did not follow the game" << last_frames(black);
  EXPECT_EQ(ev->game_event().version(), 1u);
}

// A player connected to another node than its game's owner gets no seek-list pushes while the
// game is live (like a player on the owner's node), and the current list when the game ends.
TEST(GameServerMultiNode, PlayerOnAnotherNodeGetsNoSeekListsWhilePlaying) {
  TestCluster cluster(2);
  NodeClient seeker = guest_on(cluster.port(1), "sl_seeker"), lobby = guest_on(cluster.port(1), "sl_lobby");
  NodeGame g = game_across_nodes(cluster, "sl");
  ASSERT_FALSE(g.gid.empty());
  NodeClient &red = g.red, &black = g.black;
  for (NodeClient* c : {&lobby, &black}) {  // they show a lobby, so pushes reach them
    ClientMessage list;
    list.mutable_list_seeks();
    ASSERT_TRUE(c->ws->request(list).has_seeks());
  }
  const std::string gid = g.gid;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the pushes of the game's own seek
  drain(black, 50);
  const size_t black_from = black.ws->history().size();
  constexpr int kSeeks = 3;
  open_seeks(seeker, kSeeks);
  if (HasFatalFailure()) return;
  ASSERT_TRUE(lobby.ws->wait_for([&](const ServerMessage& s) { return s.has_seeks() && s.request_id() == 0 && s.seeks().seeks_size() == kSeeks; }, 4000))
      << "the lobby on the same node gets the list";
  while (black.ws->next(300)) {
  }
  for (size_t i = black_from; i < black.ws->history().size(); ++i)
    EXPECT_FALSE(black.ws->history()[i].has_seeks()) << "a seek list reached a player in a live game";

  ClientMessage resign;
  resign.mutable_resign()->set_game_id(gid);
  ASSERT_TRUE(red.ws->request(resign).has_reply());
  auto list = black.ws->wait_for([&](const ServerMessage& s) { return s.has_seeks() && s.request_id() == 0; }, 3000);
  ASSERT_TRUE(list) << "no seek list when the game ended";
  EXPECT_EQ(list->seeks().seeks_size(), kSeeks);
}

// Presence and forfeit claims work whichever side of the node boundary the leaver is: a player who
// leaves its node (not the game's owner) is seen as gone by the owner, and a player whose opponent
// left the owner's node is told so through its own node and may claim from there.
TEST(GameServerMultiNode, ClaimVictoryAcrossNodes) {
  TestCluster cluster(2);
  auto claim = [](NodeClient& p, const std::string& gid) {
    ClientMessage m;
    m.mutable_claim_victory()->set_game_id(gid);
    return p.ws->request(m);
  };
  for (const bool remote_leaves : {true, false}) {
    const std::string tag = remote_leaves ? "cr" : "cl";
    NodeGame g = game_across_nodes(cluster, tag);  // owned by node 0, red's
    ASSERT_FALSE(g.gid.empty());
    NodeClient &red = g.red, &black = g.black;
    const std::string gid = g.gid;
    // Both have moved: while a first move is due there are no claims (the game would be aborted).
    ASSERT_TRUE(move(red, gid, "h2e2", tag + "1").has_reply()) << tag;
    ASSERT_TRUE(move(black, gid, "h9g7", tag + "2").has_reply()) << tag;
    NodeClient& leaver = remote_leaves ? black : red;
    NodeClient& stayer = remote_leaves ? red : black;
    EXPECT_EQ(error_of(claim(stayer, gid)), CLAIM_NOT_ALLOWED) << tag << ": the opponent is connected";
    leaver.ws.reset();
    auto gone = stayer.ws->wait_for(
        [&](const ServerMessage& s) { return s.has_presence() && s.presence().game_id() == gid && !s.presence().present(); }, 5000);
    ASSERT_TRUE(gone) << tag << ": no presence change" << last_frames(stayer);
    EXPECT_EQ(gone->presence().side(), remote_leaves ? BLACK : RED);
    std::this_thread::sleep_for(std::chrono::milliseconds(600));  // the cluster allows claims after 500 ms
    auto r = claim(stayer, gid);
    ASSERT_TRUE(r.has_reply()) << tag << ": " << r.DebugString();
    auto end = stayer.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); });
    ASSERT_TRUE(end) << tag;
    EXPECT_EQ(end->game_event().result().outcome(), remote_leaves ? RED_WINS : BLACK_WINS);
    EXPECT_EQ(end->game_event().result().reason(), "forfeit");
  }
}

// A direct challenge to a user connected to another node: the target sees it pushed and accepts.
TEST(GameServerMultiNode, DirectChallengeToAUserOnAnotherNode) {
  TestCluster cluster(2);
  NodeClient alice = guest_on(cluster.port(0), "dc_alice"), bob = guest_on(cluster.port(1), "dc_bob");
  ClientMessage ch;
  ch.mutable_challenge()->set_user_name(bob.name);
  ch.mutable_challenge()->set_variant(XIANGQI);
  ch.mutable_challenge()->mutable_time_control()->set_initial_ms(600'000);
  ch.mutable_challenge()->set_color(RED);
  auto r = alice.ws->request(ch);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  const std::string seek_id = r.reply().seek_id();
  auto pushed = bob.ws->wait_for([&](const ServerMessage& s) {
    if (!s.has_seeks()) return false;
    for (const auto& k : s.seeks().seeks())
      if (k.seek_id() == seek_id) return true;
    return false;
  });
  ASSERT_TRUE(pushed) << last_frames(bob);
  ClientMessage acc;
  acc.mutable_accept_seek()->set_seek_id(seek_id);
  auto a = bob.ws->request(acc);
  ASSERT_TRUE(a.has_reply()) << a.DebugString();
  const std::string gid = a.reply().game_id();
  for (NodeClient* p : {&alice, &bob})
    ASSERT_TRUE(p->ws->wait_for([&](const ServerMessage& s) { return s.has_game_started() && s.game_started().game_id() == gid; }))
        << p->name;
  ASSERT_TRUE(move(alice, gid, "h2e2", "a1").has_reply());
  ASSERT_TRUE(move(bob, gid, "h9g7", "b1").has_reply());
  // Nobody of that name is connected anywhere.
  ClientMessage bad = ch;
  bad.mutable_challenge()->set_user_name("nobody_anywhere");
  EXPECT_TRUE(alice.ws->request(bad).has_error());
}

// Crossing challenges made on two nodes (each player's own): the first accept marks the other void
// in Redis, so the second accept, forwarded to the other node, is refused there and starts nothing.
TEST(GameServerMultiNode, CrossingChallengesOnTwoNodesStartOneGame) {
  TestCluster cluster(2);
  NodeClient ann = guest_on(cluster.port(0), "xc_ann"), ben = guest_on(cluster.port(1), "xc_ben");
  const std::string from_ann = challenge(ann, ben.name), from_ben = challenge(ben, ann.name);
  ClientMessage acc;
  acc.mutable_accept_seek()->set_seek_id(from_ben);
  ASSERT_TRUE(ann.ws->request(acc).has_reply());
  acc.mutable_accept_seek()->set_seek_id(from_ann);
  const ServerMessage second = ben.ws->request(acc);
  EXPECT_EQ(error_of(second), UNKNOWN_SEEK) << second.DebugString();
  EXPECT_NE(second.error().message().find("void"), std::string::npos) << second.DebugString();
  gs::Redis redis(cluster.redis_url(), 1);
  EXPECT_EQ(redis.command({"HEXISTS", gs::keys::kSeeks, from_ann}).integer, 0) << "the void challenge is gone";
}

// Presence across nodes: a user is challengeable from another node while connected, not after
// the last connection closes, and not once their node has died.
TEST(GameServerMultiNode, PresenceFollowsConnectionsAndNodes) {
  TestCluster cluster(3, 2000, 250);
  gs::Redis redis(cluster.redis_url());
  NodeClient alice = guest_on(cluster.port(0), "pr_alice");
  auto carol = std::make_unique<NodeClient>(guest_on(cluster.port(1), "pr_carol"));
  NodeClient dave = guest_on(cluster.port(2), "pr_dave");
  auto challenge = [&](const std::string& name) {
    ClientMessage ch;
    ch.mutable_challenge()->set_user_name(name);
    ch.mutable_challenge()->set_variant(XIANGQI);
    ch.mutable_challenge()->mutable_time_control()->set_initial_ms(600'000);
    return alice.ws->request(ch);
  };
  // Polls until the challenge is refused (a close or a node's death takes effect asynchronously).
  auto refused_within = [&](const std::string& name, int budget_ms) {
    auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms);
    for (;;) {
      auto r = challenge(name);
      if (r.has_error()) return true;
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  };
  EXPECT_TRUE(challenge(carol->name).has_reply());
  EXPECT_TRUE(challenge(dave.name).has_reply());
  EXPECT_EQ(redis.command({"HGET", gs::keys::node_online(TestCluster::node_id(1)), carol->name}).str, carol->user_id);

  carol.reset();  // her only connection closes
  EXPECT_TRUE(refused_within("pr_carol", 10000));
  EXPECT_EQ(redis.command({"HEXISTS", gs::keys::node_online(TestCluster::node_id(1)), "pr_carol"}).integer, 0);

  cluster.kill_node(2);  // dave's node dies without a word: he stops counting once its heartbeat lapses
  EXPECT_TRUE(refused_within(dave.name, 15000));
  // With no games left, the dead node is forgotten, its presence hash with it.
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (redis.command({"SISMEMBER", gs::keys::kKnownNodes, TestCluster::node_id(2)}).integer == 1 &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(redis.command({"SISMEMBER", gs::keys::kKnownNodes, TestCluster::node_id(2)}).integer, 0);
  EXPECT_EQ(redis.command({"EXISTS", gs::keys::node_online(TestCluster::node_id(2))}).integer, 0);
}

// What holds per user holds across nodes: a guest coming back (on another node) to a name a newer
// guest took meanwhile gets a suffix; the open-seek limit counts the seeks made through every node;
// a rated challenge to a guest is refused at once.
TEST(GameServerMultiNode, OneNameAndOneSeekLimitPerUserAcrossNodes) {
  TestCluster cluster(2);
  gs::Redis redis(cluster.redis_url());
  NodeClient first = guest_on(cluster.port(0), "twin");
  const std::string name = first.name;
  first.ws.reset();  // leaves; its name is free once its presence is gone
  ASSERT_TRUE(eventually([&] { return redis.command({"HEXISTS", gs::keys::node_online(TestCluster::node_id(0)), name}).integer == 0; }, 5000));
  NodeClient second = guest_on(cluster.port(0), "twin");
  ASSERT_EQ(second.name, name);
  first.ws = std::make_unique<WsClient>(cluster.port(1));
  ClientMessage hello;
  hello.mutable_hello()->set_token(first.token);
  auto back = first.ws->request(hello);
  ASSERT_TRUE(back.has_reply()) << back.DebugString();
  EXPECT_EQ(back.reply().user().user_id(), first.user_id);
  EXPECT_EQ(back.reply().user().name(), name + "-" + first.user_id.substr(2, 4)) << "one name, one person";

  auto seek = [](NodeClient& p) {
    ClientMessage m;
    m.mutable_create_seek()->set_variant(XIANGQI);
    m.mutable_create_seek()->mutable_time_control()->set_initial_ms(600'000);
    return p.ws->request(m);
  };
  NodeClient second_elsewhere{std::make_unique<WsClient>(cluster.port(1)), second.token, second.user_id, second.name};
  ClientMessage again;
  again.mutable_hello()->set_token(second.token);
  ASSERT_TRUE(second_elsewhere.ws->request(again).has_reply());
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(seek(second).has_reply()) << i;
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(seek(second_elsewhere).has_reply()) << i;
  EXPECT_EQ(error_of(seek(second_elsewhere)), BAD_REQUEST) << "10 open seeks in all, through two nodes";
  EXPECT_EQ(error_of(seek(second)), BAD_REQUEST);

  NodeClient member = register_account(cluster.port(1), "rated_member");
  ClientMessage ch;
  ch.mutable_challenge()->set_user_name(back.reply().user().name());
  ch.mutable_challenge()->set_variant(XIANGQI);
  ch.mutable_challenge()->mutable_time_control()->set_initial_ms(600'000);
  ch.mutable_challenge()->set_rated(true);
  auto r = member.ws->request(ch);
  EXPECT_EQ(error_of(r), BAD_REQUEST) << r.DebugString();
  EXPECT_NE(r.error().message().find("guest"), std::string::npos) << r.DebugString();
  ch.mutable_challenge()->set_rated(false);
  EXPECT_TRUE(member.ws->request(ch).has_reply()) << "a casual challenge to the guest stands";
}

// Two guests asking for one name at the same instant on two nodes get two names: neither node has
// the other's presence entry yet when it checks, so the name is reserved in Redis as it is given.
TEST(GameServerMultiNode, GuestsSigningInAtOnceOnTwoNodesGetTwoNames) {
  TestCluster cluster(2);
  for (int round = 0; round < 12; ++round) {
    WsClient a(cluster.port(0)), b(cluster.port(1));
    ClientMessage m;
    m.set_request_id(1);
    m.mutable_login_guest()->set_name("same" + std::to_string(round));
    a.send(m);
    b.send(m);
    auto reply_to = [](WsClient& ws) { return ws.wait_for([](const ServerMessage& s) { return s.request_id() == 1; }); };
    auto ra = reply_to(a), rb = reply_to(b);
    ASSERT_TRUE(ra && ra->has_reply() && rb && rb->has_reply()) << round;
    EXPECT_NE(ra->reply().user().name(), rb->reply().user().name()) << "round " << round;
  }
}

// Admin actions reach other nodes: adjudicating a game owned by node 0 through node 1, imposing the
// move limit there, and a ban closing the user's connection to the other node.
TEST(GameServerMultiNode, AdminAdjudicatesAndBansAcrossNodes) {
  TestCluster cluster(2);
  NodeClient red = guest_on(cluster.port(0), "ad_red"), black = guest_on(cluster.port(1), "ad_black");
  std::string gid = cross_node_game(red, black, XIANGQI);
  ASSERT_FALSE(gid.empty());
  std::string body;
  EXPECT_EQ(cluster.http_post(1, "/api/admin/games/" + gid + "/move-limit", "", body), 409)
      << "the game's rules (read from Redis on the other node) have no move limit on request: " << body;
  ASSERT_EQ(cluster.http_post(1, "/api/admin/games/" + gid + "/adjudicate", R"({"outcome":"black-wins","reason":"test"})", body), 200)
      << body;
  for (NodeClient* p : {&red, &black}) {
    auto end = p->ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); });
    ASSERT_TRUE(end) << p->name << last_frames(*p);
    EXPECT_EQ(end->game_event().result().outcome(), BLACK_WINS);
  }
  // The arbiter's move limit, asked on node 1, is imposed by node 0 in a game whose rules have it.
  RuleOptions limit;
  limit.set_requested_move_limit_plies(40);
  const std::string limited = cross_node_game(red, black, XIANGQI, 300'000, &limit);
  ASSERT_FALSE(limited.empty());
  ASSERT_EQ(cluster.http_post(1, "/api/admin/games/" + limited + "/move-limit", "", body), 200) << body;
  for (NodeClient* p : {&red, &black}) {
    auto told = p->ws->wait_for([&](const ServerMessage& s) { return is_event(s, limited, GameEvent::MOVE_LIMIT_REQUESTED); });
    ASSERT_TRUE(told) << p->name << last_frames(*p);
    EXPECT_EQ(told->game_event().requested_move_limit().requested_by(), SIDE_NONE);
  }
  // Node 0's answer comes back to node 1: a second limit is refused there, not reported done.
  EXPECT_EQ(cluster.http_post(1, "/api/admin/games/" + limited + "/move-limit", R"({"side":"red"})", body), 409) << body;
  EXPECT_NE(body.find("already runs"), std::string::npos) << body;
  ASSERT_EQ(cluster.http_post(1, "/api/admin/games/" + limited + "/abort", "", body), 200) << body;
  EXPECT_EQ(cluster.http_post(1, "/api/admin/games/" + limited + "/abort", "", body), 409) << "over by then: " << body;
  // A ban asked on node 1 of a player whose game node 0 holds: node 0 tells the player why, closes
  // the socket and ends the game, lost by them; the opponent on node 1 hears of it.
  const std::string live = cross_node_game(red, black, XIANGQI);
  ASSERT_FALSE(live.empty());
  ASSERT_EQ(cluster.http_post(1, "/api/admin/users/" + red.user_id + "/ban", "", body), 200) << body;
  auto told = red.ws->wait_for([](const ServerMessage& s) { return s.has_error(); }, 5000);
  ASSERT_TRUE(told) << last_frames(red);
  EXPECT_EQ(told->error().code(), BANNED);
  auto over = black.ws->wait_for([&](const ServerMessage& s) { return is_event(s, live, GameEvent::GAME_ENDED); }, 5000);
  ASSERT_TRUE(over) << last_frames(black);
  EXPECT_EQ(over->game_event().result().outcome(), BLACK_WINS);
  EXPECT_EQ(over->game_event().result().reason(), "banned");
  EXPECT_FALSE(red.ws->wait_for([](const ServerMessage&) { return false; }, 2000));
  EXPECT_TRUE(red.ws->closed());
}

// The admin's connection list, asked on any node, shows that node's connections and the users
// signed in on the other living nodes (so a dashboard behind a load balancer sees everyone).
TEST(GameServerMultiNode, AdminSeesTheUsersOfEveryNode) {
  TestCluster cluster(2, 2000, 250);
  NodeClient here = guest_on(cluster.port(0), "av_here"), there = guest_on(cluster.port(1), "av_there");
  auto connections = [&] {
    std::string body;
    EXPECT_EQ(http_request(cluster.port(0), "GET", "/api/admin/connections", body, TestServers::kAdminToken), 200) << body;
    return boost::json::parse(body);
  };
  const boost::json::value v = connections();
  EXPECT_EQ(v.at("node").as_string(), TestCluster::node_id(0));
  bool local = false;
  for (const auto& c : v.at("connections").as_array()) local = local || c.at("user_id").as_string() == here.user_id;
  EXPECT_TRUE(local) << v;
  ASSERT_EQ(v.at("elsewhere").as_array().size(), 1u) << v;
  const auto& other = v.at("elsewhere").as_array()[0];
  EXPECT_EQ(other.at("node").as_string(), TestCluster::node_id(1));
  EXPECT_EQ(other.at("user").as_string(), there.name);
  EXPECT_EQ(other.at("user_id").as_string(), there.user_id);
  // In a game node 0 holds, the other node's player is listed by its own node, with the game; node 0
  // does not list the relay it serves that player through (review, 2026-12-04).
  const std::string gid = cross_node_game(here, there, XIANGQI);
  ASSERT_FALSE(gid.empty());
  const boost::json::value on_0 = connections();
  for (const auto& c : on_0.at("connections").as_array())
    EXPECT_NE(c.at("user_id").as_string(), there.user_id) << "a relayed connection listed: " << c;
  std::string body;
  ASSERT_EQ(http_request(cluster.port(1), "GET", "/api/admin/connections", body, TestServers::kAdminToken), 200) << body;
  bool follows = false;
  const boost::json::value on_1 = boost::json::parse(body);
  for (const auto& c : on_1.at("connections").as_array())
    if (c.at("user_id").as_string() == there.user_id)
      for (const auto& g : c.at("games").as_array()) follows = follows || g.as_string() == gid;
  EXPECT_TRUE(follows) << "node 1 lists its player's game on node 0: " << body;
  // A dead node's users leave the list with its heartbeat.
  cluster.kill_node(1);
  bool gone = false;
  for (int i = 0; i < 40 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    gone = connections().at("elsewhere").as_array().empty();
  }
  EXPECT_TRUE(gone);
}

// The store's ownership primitives (heartbeats, claims, takeover lists) and the fenced append,
// directly against Redis.
TEST(GameServerMultiNode, LeasesAndFencedAppendInTheStore) {
  TestCluster cluster(0);
  gs::Redis redis(cluster.redis_url());
  gs::GameStore a(redis, "node-a", 60000), b(redis, "node-b", 60000);
  EXPECT_TRUE(a.heartbeat());  // first beat: "lapsed" (no heartbeat before)
  EXPECT_FALSE(a.heartbeat());
  b.heartbeat();
  gs::GameConfig cfg;
  cfg.id = "fence1";
  cfg.tc = {60'000, 0};
  cfg.red = {"u-r", "r", false};
  cfg.black = {"u-b", "b", false};
  a.create(cfg);  // creator owns it
  EXPECT_EQ(a.owner("fence1").value_or(""), "node-a");
  EXPECT_FALSE(b.claim("fence1"));  // node-a is alive
  EXPECT_TRUE(a.claim("fence1"));   // re-claim of its own game
  EXPECT_EQ(b.claimable({"fence1", "nobody"}), (std::vector<std::string>{"nobody"}));
  EXPECT_EQ(a.claimable({"fence1"}), (std::vector<std::string>{"fence1"}));
  EXPECT_TRUE(b.games_of_dead_nodes(100).empty());

  gs::GameSession s(cfg);
  s.start_clock(0);
  std::vector<gs::GameEvent> ev;
  ASSERT_EQ(s.move(xq::Color::Red, "h2e2", "x", 100, 0, ev), gs::Status::Ok);
  try {
    b.append(s, ev);
    ADD_FAILURE() << "append without owning the game succeeded";
  } catch (const std::exception& e) {
    EXPECT_TRUE(gs::is_not_owner(e)) << e.what();
  }
  EXPECT_EQ(redis.command({"LLEN", gs::keys::game_events("fence1")}).integer, 0);
  a.append(s, ev);
  EXPECT_EQ(redis.command({"LLEN", gs::keys::game_events("fence1")}).integer, 1);

  // node-a's heartbeat stops: its game is listed for takeover and b's claim moves it, fencing a.
  a.stop_heartbeat();
  EXPECT_FALSE(a.owner("fence1").value_or("").empty());  // a still counts itself the owner
  EXPECT_FALSE(b.owner("fence1"));                        // for the others there is no living owner
  EXPECT_EQ(b.claimable({"fence1"}), (std::vector<std::string>{"fence1"}));
  EXPECT_EQ(b.games_of_dead_nodes(100), (std::vector<std::string>{"fence1"}));
  EXPECT_TRUE(a.lost_games({"fence1"}).empty());
  EXPECT_TRUE(b.claim("fence1"));
  EXPECT_EQ(b.owner("fence1").value_or(""), "node-b");
  EXPECT_EQ(a.lost_games({"fence1"}), (std::vector<std::string>{"fence1"}));
  EXPECT_THROW(a.append(s, ev), gs::RedisError);
  EXPECT_TRUE(a.heartbeat());  // it had lapsed: a must look for lost games (as the hub does)
  EXPECT_FALSE(a.claim("fence1"));  // node-b is alive
  // node-a, dead again and now without games, is forgotten by the next takeover pass.
  a.stop_heartbeat();
  EXPECT_TRUE(b.games_of_dead_nodes(100).empty());
  EXPECT_EQ(redis.command({"SISMEMBER", gs::keys::kKnownNodes, "node-a"}).integer, 0);
  EXPECT_EQ(redis.command({"SISMEMBER", gs::keys::kKnownNodes, "node-b"}).integer, 1);

  // Release frees only one's own claim.
  a.release("fence1");
  EXPECT_EQ(b.owner("fence1").value_or(""), "node-b");
  b.release("fence1");
  EXPECT_FALSE(b.owner("fence1"));
  EXPECT_EQ(redis.command({"SCARD", gs::keys::node_games("node-b")}).integer, 0);
}

// The writer thread sends many games' appends in one script call: each game still gets its own
// answer. Of 240 games appended at once, those another node owns are refused (NOT_OWNER) and those
// whose list is not at the expected length get a version conflict; neither writes anything, and
// the others are stored, each with its own events (and its snapshot if it came with one), in fewer
// calls than appends.
TEST(GameServerMultiNode, BatchedAppendsAnswerEachGame) {
  TestCluster cluster(0);
  gs::Redis redis(cluster.redis_url());
  gs::GameStore a(redis, "node-a", 60000), b(redis, "node-b", 60000);
  a.heartbeat();
  b.heartbeat();
  constexpr int kGames = 240;
  std::vector<gs::GameSession> sessions;
  std::vector<std::vector<gs::GameEvent>> events(kGames);
  for (int i = 0; i < kGames; ++i) {
    gs::GameConfig cfg;
    cfg.id = "batch" + std::to_string(i);
    cfg.tc = {60'000, 0};
    cfg.red = {"u-r", "r", false};
    cfg.black = {"u-b", "b", false};
    (i % 3 == 1 ? b : a).create(cfg);  // every third game from 1 is node-b's
    sessions.emplace_back(cfg);
    sessions.back().start_clock(0);
    ASSERT_EQ(sessions.back().move(xq::Color::Red, i % 2 ? "h2e2" : "b2e2", "x", 100, 0, events[i]), gs::Status::Ok);
    // Every third game from 2 already holds an event: the append expects an empty list.
    if (i % 3 == 2) redis.command({"RPUSH", gs::keys::game_events(cfg.id), "earlier"});
  }
  std::mutex mu;
  std::condition_variable cv;
  int done = 0;
  std::vector<std::string> outcome(kGames);
  // One append first, so that Redis has the script (its first call is an EVAL) before the count.
  {
    gs::GameConfig cfg;
    cfg.id = "batch-first";
    cfg.tc = {60'000, 0};
    cfg.red = {"u-r", "r", false};
    cfg.black = {"u-b", "b", false};
    a.create(cfg);
    gs::GameSession first(cfg);
    first.start_clock(0);
    std::vector<gs::GameEvent> ev;
    ASSERT_EQ(first.move(xq::Color::Red, "h2e2", "x", 100, 0, ev), gs::Status::Ok);
    std::promise<std::exception_ptr> stored;
    a.append_async(first, ev, 0, true, [&](std::exception_ptr e) { stored.set_value(e); });
    ASSERT_EQ(stored.get_future().get(), nullptr);
  }
  redis.command({"CONFIG", "RESETSTAT"});
  for (int i = 0; i < kGames; ++i)
    a.append_async(sessions[i], events[i], 0, /*with_snapshot=*/i % 2 == 0, [&, i](std::exception_ptr e) {
      std::string what = "stored";
      try {
        if (e) std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        what = ex.what();
      }
      std::lock_guard l(mu);
      outcome[i] = what;
      ++done;
      cv.notify_all();
    });
  {
    std::unique_lock l(mu);
    ASSERT_TRUE(cv.wait_for(l, std::chrono::seconds(20), [&] { return done == kGames; }));
  }
  for (int i = 0; i < kGames; ++i) {
    const std::string key = gs::keys::game_events("batch" + std::to_string(i));
    const auto list = redis.command({"LRANGE", key, "0", "-1"});
    // The snapshot is written with the events when asked for, never without them.
    const auto snap = redis.command({"GET", gs::keys::game_snap("batch" + std::to_string(i))});
    if (i % 3 == 0 && i % 2 == 0)
      EXPECT_NE(snap.str.find("\"version\":1,"), std::string::npos) << i << ": " << snap.str;
    else
      EXPECT_EQ(snap.type, gs::RedisReply::Type::Nil) << i << ": " << snap.str;
    if (i % 3 == 0) {
      EXPECT_EQ(outcome[i], "stored") << i;
      ASSERT_EQ(list.elements.size(), 1u) << i;
      EXPECT_EQ(gs::decode_event(list.elements[0].str).iccs, i % 2 ? "h2e2" : "b2e2") << i;
    } else if (i % 3 == 1) {
      EXPECT_NE(outcome[i].find("NOT_OWNER"), std::string::npos) << i << ": " << outcome[i];
      EXPECT_TRUE(list.elements.empty()) << i;
    } else {
      EXPECT_NE(outcome[i].find("version conflict: have 1"), std::string::npos) << i << ": " << outcome[i];
      EXPECT_EQ(list.elements.size(), 1u) << i;
    }
  }
  const std::string stats = redis.command({"INFO", "commandstats"}).str;
  const size_t at = stats.find("cmdstat_evalsha:calls=");
  ASSERT_NE(at, std::string::npos) << stats;
  const long calls = std::atol(stats.c_str() + at + std::strlen("cmdstat_evalsha:calls="));
  EXPECT_GE(calls, (kGames + 63) / 64);  // at most 64 games a call
  EXPECT_LT(calls, kGames) << "no two appends shared a call";
}

// Two nodes finish rated games of the same player at the same moment: every game counts once in
// her rating (no update is lost to the other node's), and a game archived twice counts once.
TEST(GameServerMultiNode, RatingsOfGamesFinishedOnTwoNodesAtOnceAllCount) {
  TestCluster cluster(0);
  constexpr int kGames = 150;
  auto finished_game = [](const std::string& id, const std::string& opponent) {
    gs::GameConfig cfg;
    cfg.id = id;
    cfg.tc = {60'000, 0};
    cfg.rated = true;
    cfg.red = {"u-hero", "hero", false};
    cfg.black = {opponent, opponent, false};
    gs::GameSession s(cfg);
    s.start_clock(0);
    std::vector<gs::GameEvent> ev;
    EXPECT_EQ(s.move(xq::Color::Red, "h2e2", "", 100, 0, ev), gs::Status::Ok);
    EXPECT_EQ(s.move(xq::Color::Black, "h9g7", "", 200, 0, ev), gs::Status::Ok);
    EXPECT_EQ(s.resign(xq::Color::Black, 300, ev), gs::Status::Ok);
    return s;
  };
  auto node = [&](const std::string& name) {
    gs::Redis redis(cluster.redis_url(), 1);
    gs::RatingStore ratings(redis);
    for (int i = 0; i < kGames; ++i) {
      gs::GameSession s = finished_game(name + "-" + std::to_string(i), "u-" + name + "-" + std::to_string(i));
      ratings.apply(s);
      ratings.apply(s);  // archived again (e.g. after a crash): must not count twice
    }
  };
  std::thread a(node, "a"), b(node, "b");
  a.join();
  b.join();
  gs::Redis redis(cluster.redis_url(), 1);
  gs::RatingStore ratings(redis);
  const gs::Rating hero = ratings.get("xiangqi", "u-hero");
  EXPECT_EQ(hero.games, 2 * kGames);
  EXPECT_GT(hero.rating, 1500.0);  // she won them all
  for (const char* n : {"a", "b"})
    for (int i = 0; i < kGames; i += 37) EXPECT_EQ(ratings.get("xiangqi", std::string("u-") + n + "-" + std::to_string(i)).games, 1);
}

// A game request whose creation was cut short (its config stored, the game never made live: a
// crash or a Redis error between the two steps) is finished when the request comes again, with
// the stored config, so a Jieqi game keeps the assignment behind the commitment it was given. A
// request for a game that is live already changes nothing.
TEST(GameServerMultiNode, CutShortGameCreationIsFinishedWhenTheRequestComesAgain) {
  TestCluster cluster(1);
  gs::Redis redis(cluster.redis_url());
  NodeClient red = guest_on(cluster.port(0), "cs_red"), black = guest_on(cluster.port(0), "cs_black");
  gs::GameConfig cfg;
  cfg.id = "cut-short-1";
  cfg.variant = xq::Variant::Jieqi;
  cfg.tc = {300'000, 0};
  cfg.red = {red.user_id, red.name, true};
  cfg.black = {black.user_id, black.name, true};
  xq::Assignment a = xq::draw_assignment();
  cfg.assignment = a.to_string();
  cfg.salt = xq::random_hex(16);
  cfg.commitment = xq::commitment(a, cfg.salt);
  redis.command({"SET", gs::keys::game_meta(cfg.id), gs::encode_config(cfg)});  // step one only

  boost::json::object spec{{"game_id", cfg.id},
                    {"variant", "jieqi"},
                    {"initial_ms", 300000},
                    {"red", boost::json::object{{"user_id", red.user_id}, {"name", red.name}}},
                    {"black", boost::json::object{{"user_id", black.user_id}, {"name", black.name}}}};
  auto request = [&] { redis.command({"XADD", "{xq}:games:create", "*", "game_id", cfg.id, "body", boost::json::serialize(spec)}); };
  auto started = [&](NodeClient& p, int ms) {
    return p.ws->wait_for([&](const ServerMessage& s) { return s.has_game_started() && s.game_started().game_id() == cfg.id; }, ms);
  };
  request();
  std::string red_fen;
  for (NodeClient* p : {&red, &black}) {
    auto st = started(*p, 10'000);
    ASSERT_TRUE(st) << p->name << " got no game_started: the cut-short creation was not finished";
    EXPECT_EQ(st->game_started().commitment(), cfg.commitment) << "the stored assignment must be the game's";
    if (p == &red) red_fen = st->game_started().fen();
  }
  EXPECT_EQ(redis.command({"SISMEMBER", gs::keys::kLiveGames, cfg.id}).integer, 1);
  uint64_t seed = 1;
  ASSERT_TRUE(send_move(red, cfg.id, pick_jieqi_move(red_fen, seed)).has_reply());

  request();  // again, for a live game that has begun: nothing happens
  EXPECT_FALSE(started(red, 1'500)) << "a live game was started again";
  EXPECT_EQ(redis.command({"LLEN", gs::keys::game_events(cfg.id)}).integer, 1);

  // A request delivered again for a live game nobody has moved in yet (its first node may have died
  // before telling the players): the players are told again.
  spec["game_id"] = "cut-short-2";
  spec["variant"] = "xiangqi";
  auto ready = [&](int ms) {
    return red.ws->wait_for([&](const ServerMessage& s) { return s.has_notice() && s.notice().game_id() == "cut-short-2"; }, ms);
  };
  redis.command({"XADD", "{xq}:games:create", "*", "game_id", "cut-short-2", "body", boost::json::serialize(spec)});
  ASSERT_TRUE(ready(10'000));
  redis.command({"XADD", "{xq}:games:create", "*", "game_id", "cut-short-2", "body", boost::json::serialize(spec)});
  EXPECT_TRUE(ready(10'000)) << "the players were not told again about a game nobody has moved in";
}

// A chat line from a connection that never watched the game, sent to another node's game, is
// refused and leaves nothing behind: when the game moves to a new owner, that connection is not
// made a silent spectator of it (it used to be: a forwarded request marked the game as followed).
TEST(GameServerMultiNode, ARefusedChatLineFollowsNoGame) {
  TestCluster cluster(3, 2000, 250);
  NodeClient red = guest_on(cluster.port(0), "rc_red"), black = guest_on(cluster.port(1), "rc_black"),
             lurker = guest_on(cluster.port(2), "rc_lurker");
  const std::string gid = cross_node_game(red, black, XIANGQI);
  ASSERT_FALSE(gid.empty());
  auto say = [&](NodeClient& who) { return send_chat(who, gid, "hello?"); };
  EXPECT_EQ(error_of(say(lurker)), BAD_REQUEST) << "only a watcher writes in a game's chat";
  ASSERT_TRUE(move(red, gid, kMate[0], "r0").has_reply());
  cluster.kill_node(0);
  reconnect_to(red, cluster.port(1));
  ASSERT_TRUE(sync_until_served(red, gid, 1).has_reply());
  ASSERT_TRUE(move(black, gid, kMate[1], "b1").has_reply());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // several follow ticks
  EXPECT_FALSE(saw(lurker, [&](const ServerMessage& s) {
    return (s.has_game_event() && s.game_event().game_id() == gid) || (s.has_presence() && s.presence().game_id() == gid) ||
           (s.has_game_state() && s.game_state().game_id() == gid);
  })) << "the lurker was made a spectator: " << last_frames(lurker);
  EXPECT_EQ(error_of(say(lurker)), BAD_REQUEST) << "still not a watcher";
}

// After the end the chat stays open while the game lingers on its node: Black, on another node
// than the game's, says "gg" and Red hears it (the end released the owner key, so Black's node
// sends the line to the node it followed the game on). Once that node lets the game go, a line is
// refused with GAME_OVER on either node.
TEST(GameServerMultiNode, AGoodGameAfterTheEndReachesThePlayerOnTheOtherNode) {
  ClusterGame c("gg", 2, 2000, 250, {"--finished-linger-ms", "3000"});
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_TRUE(move(red, gid, kMate[0], "r0").has_reply());
  ClientMessage resign;
  resign.mutable_resign()->set_game_id(gid);
  ASSERT_TRUE(black.ws->request(resign).has_reply());
  ASSERT_TRUE(red.ws->wait_for([&](const ServerMessage& s) {
    return s.has_game_event() && s.game_event().game_id() == gid && s.game_event().kind() == GameEvent::GAME_ENDED;
  }, 3000));
  ASSERT_EQ(wait_for_owner(redis, gid, "", 5), "") << "the end (its archive) releases the game";
  const ServerMessage from_black = send_chat(black, gid, "gg");
  ASSERT_TRUE(from_black.has_reply()) << from_black.DebugString();
  EXPECT_TRUE(chat_line(red, "gg")) << "Red did not hear Black's line" << last_frames(red);
  EXPECT_TRUE(chat_line(black, "gg")) << last_frames(black);
  ASSERT_TRUE(send_chat(red, gid, "thanks").has_reply());
  EXPECT_TRUE(chat_line(black, "thanks")) << last_frames(black);
  std::this_thread::sleep_for(std::chrono::milliseconds(4500));  // the game leaves node 0's memory
  EXPECT_EQ(error_of(send_chat(black, gid, "still there?")), GAME_OVER);
  EXPECT_EQ(error_of(send_chat(red, gid, "still there?")), GAME_OVER);
}

// A ban while the game's node is down cannot end the game there; the node that takes the game
// over ends it, lost by the banned player, as the ban would have (review, 2026-12-04: the game
// went on with the banned player's clock running, and the opponent had to claim it).
TEST(GameServerMultiNode, AGameOfAPlayerBannedWhileItsNodeWasDownEndsWhenTakenOver) {
  ClusterGame c("bd", 2, 2000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  ASSERT_TRUE(move(red, gid, kMate[0], "r0").has_reply());
  cluster.kill_node(0);  // the game's owner
  std::string body;
  ASSERT_EQ(cluster.http_post(1, "/api/admin/users/" + red.user_id + "/ban", "", body), 200) << body;
  EXPECT_NE(body.find("\"games_ended\":0"), std::string::npos) << "its node is down: " << body;
  ASSERT_TRUE(sync_until_served(black, gid, 1).has_reply()) << last_frames(black);
  auto over = black.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); }, 5000);
  ASSERT_TRUE(over) << last_frames(black);
  EXPECT_EQ(over->game_event().result().outcome(), BLACK_WINS);
  EXPECT_EQ(over->game_event().result().reason(), "banned");
}

// A player of a killed node reconnects to another node and syncs until that node takes the game
// over: each missed event reaches it once (it used to get them twice: once for its sync, once as a
// follower of the game caught up by the takeover its own sync caused), and no error answers a
// request it did not make (review, 2026-12-04).
TEST(GameServerMultiNode, APlayerWhoseSyncCausesTheTakeoverGetsEachMissedEventOnce) {
  ClusterGame c("once", 2, 2000, 250);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(move(i % 2 == 0 ? red : black, gid, kMate[i], "m" + std::to_string(i)).has_reply());
  cluster.kill_node(0);  // the game's owner, and Red's node
  reconnect_to(red, cluster.port(1));
  ASSERT_TRUE(sync_until_served(red, gid, 1).has_reply()) << last_frames(red);
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // a few ticks: any second copy arrives
  std::map<uint64_t, int> seen;
  int unasked_errors = 0;
  for (const ServerMessage& s : red.ws->history()) {
    if (s.has_game_event() && s.game_event().game_id() == gid) ++seen[s.game_event().version()];
    if (s.has_error() && s.request_id() == 0) ++unasked_errors;
  }
  EXPECT_EQ(seen, (std::map<uint64_t, int>{{2, 1}, {3, 1}, {4, 1}})) << last_frames(red, 12);
  EXPECT_EQ(unasked_errors, 0) << last_frames(red, 12);
}

// `p` offers a draw; then, once the ticks have had time to send any second copy, the versions of
// the game's events `p` received, in order, with the offer's answer as 100 + its version (a Reply:
// the offerer gets no event of its own offer).
std::vector<uint64_t> offer_draw_then_versions_seen(NodeClient& p, const std::string& gid) {
  ClientMessage offer;
  offer.mutable_offer_draw()->set_game_id(gid);
  const ServerMessage offered = p.ws->request(offer);
  EXPECT_TRUE(offered.has_reply()) << offered.DebugString();
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  std::vector<uint64_t> versions;
  for (const ServerMessage& s : p.ws->history()) {
    if (s.has_game_event() && s.game_event().game_id() == gid) versions.push_back(s.game_event().version());
    if (s.request_id() == offered.request_id() && s.has_reply()) versions.push_back(100 + s.reply().version());
  }
  return versions;
}

// A player whose node lives acts on a game right after another node took it over, before its own
// node's tick has followed the game there (review, 2026-12-04: black's draw offer went to the new
// owner, which subscribed black's connection only from the offer on, and red's move in between
// never reached black). The events it missed come first, each once, then its own; the same after
// the owner restarted under its own name.
TEST(GameServerMultiNode, APlayerActingRightAfterATakeoverIsSentWhatItMissedFirst) {
  // A slow tick (1.5 s): black's offer goes out a few milliseconds after red's move, well inside it.
  ClusterGame c("actfirst", 3, 4000, 1500);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(move(i % 2 == 0 ? red : black, gid, kMate[i], "m" + std::to_string(i)).has_reply());
  ASSERT_TRUE(black.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 4; }));
  cluster.kill_node(0);  // the owner, and Red's node
  reconnect_to(red, cluster.port(2));
  ASSERT_TRUE(sync_until_served(red, gid, 4).has_reply()) << last_frames(red);
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(2)) << "red's sync took the game over";
  ASSERT_TRUE(move(red, gid, kMate[4], "m4").has_reply());
  // Red's move reached black before the answer to its offer, once.
  EXPECT_EQ(offer_draw_then_versions_seen(black, gid), (std::vector<uint64_t>{1, 2, 3, 4, 5, 106})) << last_frames(black, 10);
}

// The same when the owner restarted under its own name (its heartbeat did not lapse, so the owner
// is unchanged): the restart it announced tells black's node that the owner no longer serves
// black, so black's offer is preceded by a catch-up.
TEST(GameServerMultiNode, APlayerActingRightAfterItsOwnersRestartIsSentWhatItMissedFirst) {
  ClusterGame c("actrestart", 2, 8000, 1500);
  auto& [cluster, redis, red, black, gid] = c;
  ASSERT_FALSE(gid.empty());
  for (int i = 0; i < 2; ++i) ASSERT_TRUE(move(i % 2 == 0 ? red : black, gid, kMate[i], "m" + std::to_string(i)).has_reply());
  ASSERT_TRUE(black.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 2; }));
  cluster.kill_node(0);
  cluster.restart_node(0);
  ASSERT_EQ(owner_of(redis, gid), TestCluster::node_id(0));
  reconnect_to(red, cluster.port(0));
  ASSERT_TRUE(sync_until_served(red, gid, 2).has_reply()) << last_frames(red);
  ASSERT_TRUE(move(red, gid, kMate[2], "m2").has_reply());
  EXPECT_EQ(offer_draw_then_versions_seen(black, gid), (std::vector<uint64_t>{1, 2, 3, 104})) << last_frames(black, 10);
}
