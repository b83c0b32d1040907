// Shared by the end-to-end tests (integration_*_test.cpp, one program: gameserver_integration_tests):
// a real redis-server, the real gameserver binary, real WebSocket clients. The GameServer fixture
// starts one pair of servers for all its tests (in every file); g_servers points at the servers the
// helpers talk to (some tests start their own and point it at them).
#pragma once

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <chrono>
#include <map>
#include <algorithm>
#include <set>
#include <thread>
#include <tuple>

#include "auth/auth.h"
#include "game/game_session.h"
#include "rules/fen.h"
#include "rules/jieqi.h"
#include "rules/position.h"
#include "store/game_store.h"
#include "store/keys.h"
#include "store/rating_store.h"
#include "store/redis.h"
#include "jieqi_audit.h"
#include "test_clients.h"
#include "test_server.h"
#include "ws_client.h"

using namespace xq::v1;

// Defined once, in integration_fixture.cpp.
extern TestServers* g_servers;

using Client = TestClient;

inline Client guest(const std::string& name) { return login_guest(g_servers->port(), name); }

inline void reconnect(Client& p) {
  p.ws = std::make_unique<WsClient>(g_servers->port());
  ClientMessage m;
  m.mutable_hello()->set_token(p.token);
  auto r = p.ws->request(m);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  EXPECT_EQ(r.reply().user().user_id(), p.user_id);
}

inline bool is_event(const ServerMessage& s, const std::string& gid, GameEvent::Kind k) { return is_game_event(s, gid, k); }

// A 5-minute Xiangqi seek in which the seeker plays Red (tests add rule options to it).
inline ClientMessage red_seek() {
  ClientMessage seek;
  seek.mutable_create_seek()->set_variant(XIANGQI);
  seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(300'000);
  seek.mutable_create_seek()->set_color(RED);
  return seek;
}

// A guest watching game `gid` as a spectator.
inline Client spectator(const std::string& name, const std::string& gid) {
  Client c = guest(name);
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  EXPECT_TRUE(c.ws->request(watch).has_reply()) << name << " cannot watch " << gid;
  return c;
}

inline std::optional<ServerMessage> wait_event(Client& p, const std::string& gid, GameEvent::Kind k, int ms = 3000) {
  return p.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, k); }, ms);
}

inline ServerMessage move(Client& p, const std::string& gid, const std::string& iccs, const std::string& cmid = "") {
  return send_move(p, gid, iccs, cmid);
}

inline ServerMessage action(Client& p, const std::string& gid, const char* what) {
  ClientMessage m;
  std::string w = what;
  GameAction* a = w == "resign"         ? m.mutable_resign()
                  : w == "offer_draw"   ? m.mutable_offer_draw()
                  : w == "accept_draw"  ? m.mutable_accept_draw()
                  : w == "decline_draw" ? m.mutable_decline_draw()
                  : w == "abort"        ? m.mutable_abort()
                  : w == "claim_draw"   ? m.mutable_claim_draw()
                  : w == "unwatch"      ? m.mutable_unwatch_game()
                  : w == "propose_takeback" ? m.mutable_propose_takeback()
                  : w == "accept_takeback"  ? m.mutable_accept_takeback()
                  : w == "decline_takeback" ? m.mutable_decline_takeback()
                  : w == "give_time"        ? m.mutable_give_time()
                                        : m.mutable_claim_victory();
  a->set_game_id(gid);
  return p.ws->request(m);
}

inline const std::vector<std::string>& kMate = kMateInSeven;

class GameServer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { g_servers = new TestServers(); }
  static void TearDownTestSuite() {
    delete g_servers;
    g_servers = nullptr;
  }
};
