// Redis behind Sentinel: the game server finds the master through the Sentinels
// (--redis redis-sentinel://…), and after the master is killed and a replica promoted it finds the
// new master and the game goes on with every acknowledged move kept.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "store/keys.h"
#include "store/redis.h"
#include "store/redis_endpoint.h"
#include "failover_helpers.h"
#include "test_clients.h"
#include "test_server.h"
#include "ws_client.h"

using namespace xq::v1;

namespace {

const std::vector<std::string>& kMate = kMateInSeven;

}  // namespace

TEST(GameServerSentinel, FindsTheMasterAndFollowsAFailover) {
  char tmpl[] = "/tmp/xq-sentinel-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const uint16_t master_port = free_port(), replica_port = free_port(), sentinel_port = free_port(), gs_port = free_port();
  for (const char* sub : {"/m", "/r"}) std::filesystem::create_directories(dir + sub);
  Process master, replica, sentinel, server;
  master.start({"redis-server", "--port", std::to_string(master_port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "yes", "--appendfsync", "always", "--dir", dir + "/m"},
               dir + "/master.log");
  replica.start({"redis-server", "--port", std::to_string(replica_port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "yes", "--appendfsync", "always", "--dir", dir + "/r", "--replicaof", "127.0.0.1",
                 std::to_string(master_port)},
                dir + "/replica.log");
  {
    std::ofstream conf(dir + "/sentinel.conf");
    conf << "port " << sentinel_port << "\nbind 127.0.0.1\ndir " << dir << "\n"
         << "sentinel monitor xq 127.0.0.1 " << master_port << " 1\n"
         << "sentinel down-after-milliseconds xq 700\nsentinel failover-timeout xq 4000\n";
  }
  sentinel.start({"redis-server", dir + "/sentinel.conf", "--sentinel"}, dir + "/sentinel.log");
  ASSERT_TRUE(eventually([&] { return redis_answers(master_port) && redis_answers(replica_port); }, 5000));

  const std::string url = "redis-sentinel://127.0.0.1:" + std::to_string(sentinel_port) + "/xq/0";
  const gs::RedisEndpoint endpoint = gs::parse_redis_url(url);
  ASSERT_TRUE(master_becomes(endpoint, master_port, 5000));

  server.start({GAMESERVER_BIN_FOR_SENTINEL, "--listen", "127.0.0.1:" + std::to_string(gs_port), "--redis", url,
                "--secret", "sentinel-test-secret-0123456789", "--node-id", "sentinel-node", "--admin-token", "x"},
               dir + "/gameserver.log");
  ASSERT_TRUE(accepts_websockets(gs_port, 5000));

  TestClient red = login_guest(gs_port, "sent_red"), black = login_guest(gs_port, "sent_black");
  const std::string gid = start_game(red, black, XIANGQI, 600'000);
  ASSERT_FALSE(gid.empty());
  for (size_t i = 0; i < 3; ++i) ASSERT_TRUE(play_through_outage(i % 2 ? black : red, gid, kMate[i], 5000)) << kMate[i];

  // The moves are on the master; wait until the replica has them too (replication is
  // asynchronous: a write acknowledged but not yet copied can be lost in a failover — see
  // docs/deploy.md), and until the Sentinel knows the replica.
  gs::Redis on_master("redis://127.0.0.1:" + std::to_string(master_port) + "/0", 1);
  ASSERT_TRUE(eventually([&] { return on_master.command({"WAIT", "1", "1000"}).integer == 1; }, 10000));
  gs::Redis on_sentinel("redis://127.0.0.1:" + std::to_string(sentinel_port) + "/0", 1);
  ASSERT_TRUE(eventually([&] { return !on_sentinel.command({"SENTINEL", "REPLICAS", "xq"}).elements.empty(); }, 15000));

  master.kill_hard();
  ASSERT_TRUE(master_becomes(endpoint, replica_port, 20000)) << "the Sentinel promoted the replica";

  // The server follows the failover by itself; the game goes on to mate.
  for (size_t i = 3; i < kMate.size(); ++i) ASSERT_TRUE(play_through_outage(i % 2 ? black : red, gid, kMate[i], 15000)) << kMate[i];
  auto end = red.ws->wait_for([&](const ServerMessage& m) {
    return m.has_game_event() && m.game_event().game_id() == gid && m.game_event().kind() == GameEvent::GAME_ENDED;
  }, 5000);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->game_event().result().reason(), "checkmate");

  // The new master holds every move exactly once, then the end.
  gs::Redis on_new("redis://127.0.0.1:" + std::to_string(replica_port) + "/0", 1);
  auto events = on_new.command({"LRANGE", gs::keys::game_events(gid), "0", "-1"});
  ASSERT_EQ(events.elements.size(), kMate.size() + 1);
  for (size_t i = 0; i < kMate.size(); ++i)
    EXPECT_NE(events.elements[i].str.find("\"" + kMate[i] + "\""), std::string::npos) << events.elements[i].str;

  server.terminate();
  sentinel.kill_hard();
  replica.kill_hard();
  if (!std::getenv("XQ_TEST_KEEP_LOGS")) std::filesystem::remove_all(dir);
}
