// Redis Cluster: the game server finds the master of its slot through any node of the cluster
// (--redis redis-cluster://…): every key carries the hash tag {xq}, so all of them, and every Lua
// script's keys, live in one slot. After a failover of that slot's master to its replica the
// server follows the redirection and the game goes on with every acknowledged move kept.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
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

bool can_bind(uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

// A cluster node also listens on its port + 10000 (the cluster bus).
uint16_t free_node_port() {
  for (;;) {
    const uint16_t p = free_port();
    if (p < 55000 && can_bind(static_cast<uint16_t>(p + 10000))) return p;
  }
}

int run(const std::vector<std::string>& argv, const std::string& log) {
  std::string cmd;
  for (const auto& a : argv) cmd += "'" + a + "' ";
  return std::system((cmd + ">>" + log + " 2>&1").c_str());
}

}  // namespace

TEST(GameServerRedisCluster, FindsItsSlotsMasterAndFollowsAFailover) {
  char tmpl[] = "/tmp/xq-cluster-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string log = dir + "/redis-cli.log";
  std::vector<uint16_t> ports;
  for (int i = 0; i < 4; ++i) ports.push_back(free_node_port());
  std::vector<Process> nodes(4);
  for (int i = 0; i < 4; ++i) {
    const std::string sub = dir + "/n" + std::to_string(i);
    std::filesystem::create_directories(sub);
    nodes[i].start({"redis-server", "--port", std::to_string(ports[i]), "--bind", "127.0.0.1", "--save", "",
                    "--appendonly", "yes", "--appendfsync", "always", "--dir", sub, "--cluster-enabled", "yes",
                    "--cluster-config-file", sub + "/nodes.conf", "--cluster-node-timeout", "2000"},
                   sub + "/redis.log");
  }
  ASSERT_TRUE(eventually([&] { return redis_answers(ports[0]) && redis_answers(ports[1]) && redis_answers(ports[2]) && redis_answers(ports[3]); }, 5000));
  ASSERT_EQ(run({"redis-cli", "--cluster", "create", "127.0.0.1:" + std::to_string(ports[0]),
                 "127.0.0.1:" + std::to_string(ports[1]), "127.0.0.1:" + std::to_string(ports[2]), "--cluster-yes"},
                log),
            0)
      << "redis-cli --cluster create failed: " << log;

  // Through any node: the master that serves the slot of {xq}.
  const gs::RedisEndpoint seeds = gs::parse_redis_url("redis-cluster://127.0.0.1:" + std::to_string(ports[2]) +
                                                      ",127.0.0.1:" + std::to_string(ports[0]));
  uint16_t master_port = 0;
  ASSERT_TRUE(eventually([&] {
    try {
      master_port = static_cast<uint16_t>(gs::current_master(seeds).second);
      gs::Redis m("redis://127.0.0.1:" + std::to_string(master_port) + "/0", 1);
      return m.command({"CLUSTER", "INFO"}).str.find("cluster_state:ok") != std::string::npos;
    } catch (const std::exception&) {
      return false;
    }
  }, 10000)) << "the cluster came up";
  gs::Redis on_master("redis://127.0.0.1:" + std::to_string(master_port) + "/0", 1);
  const long long slot = on_master.command({"CLUSTER", "KEYSLOT", gs::kClusterHashTag}).integer;

  // The fourth node becomes the replica of that master.
  const std::string master_id = on_master.command({"CLUSTER", "MYID"}).str;
  ASSERT_EQ(run({"redis-cli", "--cluster", "add-node", "127.0.0.1:" + std::to_string(ports[3]),
                 "127.0.0.1:" + std::to_string(master_port), "--cluster-slave", "--cluster-master-id", master_id},
                log),
            0)
      << "redis-cli --cluster add-node failed: " << log;

  // The server is given two nodes, neither of which need be the master.
  const uint16_t gs_port = free_port();
  Process server;
  const std::string url = "redis-cluster://127.0.0.1:" + std::to_string(ports[2]) + ",127.0.0.1:" + std::to_string(ports[1]);
  server.start({GAMESERVER_BIN_FOR_SENTINEL, "--listen", "127.0.0.1:" + std::to_string(gs_port), "--redis", url,
                "--secret", "cluster-test-secret-0123456789", "--node-id", "cluster-node", "--admin-token", "x"},
               dir + "/gameserver.log");
  ASSERT_TRUE(accepts_websockets(gs_port, 10000));

  TestClient red = login_guest(gs_port, "clu_red"), black = login_guest(gs_port, "clu_black");
  const std::string gid = start_game(red, black, XIANGQI, 600'000);
  ASSERT_FALSE(gid.empty());
  for (size_t i = 0; i < 3; ++i) ASSERT_TRUE(play_through_outage(i % 2 ? black : red, gid, kMate[i], 5000)) << kMate[i];
  EXPECT_EQ(on_master.command({"CLUSTER", "KEYSLOT", gs::keys::game_events(gid)}).integer, slot);
  EXPECT_EQ(on_master.command({"LLEN", gs::keys::game_events(gid)}).integer, 3) << "the moves are on the slot's master";

  // A coordinated failover: the replica takes the slot over, the old master turns replica and
  // answers MOVED; the server asks the cluster again.
  gs::Redis on_replica("redis://127.0.0.1:" + std::to_string(ports[3]) + "/0", 1);
  ASSERT_TRUE(eventually([&] {
    const std::string info = on_replica.command({"INFO", "replication"}).str;
    return info.find("master_link_status:up") != std::string::npos;
  }, 15000)) << "the replica is in sync";
  ASSERT_TRUE(eventually([&] { return on_master.command({"WAIT", "1", "1000"}).integer == 1; }, 10000));
  on_replica.command({"CLUSTER", "FAILOVER"});
  ASSERT_TRUE(master_becomes(seeds, ports[3], 20000)) << "the replica took the slot over";

  for (size_t i = 3; i < kMate.size(); ++i) ASSERT_TRUE(play_through_outage(i % 2 ? black : red, gid, kMate[i], 15000)) << kMate[i];
  auto end = red.ws->wait_for([&](const ServerMessage& m) {
    return m.has_game_event() && m.game_event().game_id() == gid && m.game_event().kind() == GameEvent::GAME_ENDED;
  }, 5000);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->game_event().result().reason(), "checkmate");

  // The new master holds every move exactly once, then the end.
  auto events = on_replica.command({"LRANGE", gs::keys::game_events(gid), "0", "-1"});
  ASSERT_EQ(events.elements.size(), kMate.size() + 1);
  for (size_t i = 0; i < kMate.size(); ++i)
    EXPECT_NE(events.elements[i].str.find("\"" + kMate[i] + "\""), std::string::npos) << events.elements[i].str;

  server.terminate();
  for (auto& n : nodes) n.kill_hard();
  if (!std::getenv("XQ_TEST_KEEP_LOGS")) std::filesystem::remove_all(dir);
}
