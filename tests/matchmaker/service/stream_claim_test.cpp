// The matchmaker service against a real redis-server (started here on a free port, killed at the
// end): what a crashed leader read from the streams and never acknowledged is handled by the next
// leader, which runs under another consumer name (deploy/systemd: --consumer mm-%H).
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "service.h"
#include "store/matchmaker_bus.h"
#include "store/redis.h"

using namespace xq::mm;
namespace bus = xq::bus;

namespace {

uint16_t free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

// A throwaway redis-server, nothing saved to disk.
class TestRedis {
 public:
  TestRedis() {
    // Another process may take the free port before ours binds it: then it exits, and another is tried.
    for (int attempt = 0; attempt < 8 && !redis_; ++attempt) {
      const uint16_t port = free_port();
      pid_ = fork();
      if (pid_ == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);  // dies with the test program
        if (int null = open("/dev/null", O_WRONLY); null >= 0) {  // its start-up banner is noise here
          dup2(null, 1);
          dup2(null, 2);
        }
        const std::string p = std::to_string(port);
        execlp("redis-server", "redis-server", "--port", p.c_str(), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no", "--dir", "/tmp", static_cast<char*>(nullptr));
        _exit(127);
      }
      if (pid_ < 0) throw std::runtime_error("fork failed");
      auto redis = std::make_unique<gs::Redis>("redis://127.0.0.1:" + std::to_string(port) + "/0");
      for (int i = 0; i < 100; ++i) {
        if (waitpid(pid_, nullptr, WNOHANG) == pid_) break;  // exited: the port was taken
        if (redis->ping()) {
          redis_ = std::move(redis);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(gs::Redis::kRetryMs + 10));
      }
      if (!redis_) stop();
    }
    if (!redis_) throw std::runtime_error("redis-server did not start");
  }
  ~TestRedis() {
    redis_.reset();
    stop();
  }
  gs::Redis& redis() { return *redis_; }

 private:
  void stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  pid_t pid_ = -1;
  std::unique_ptr<gs::Redis> redis_;
};

int64_t pending_count(gs::Redis& redis, const std::string& stream) {
  // XPENDING stream group (summary): [count, smallest id, greatest id, [[consumer, count], …]]
  return redis.command({"XPENDING", stream, bus::kMatchmakerGroup}).elements.at(0).integer;
}

void create_groups(gs::Redis& redis) {
  for (const auto& stream : {bus::kCommands, bus::kGameResults})
    redis.command({"XGROUP", "CREATE", stream, bus::kMatchmakerGroup, "0", "MKSTREAM"});
}

const char* kPool = "xiangqi:300000+0";
void add_pool_join(gs::Redis& redis, const std::string& command_id, const std::string& user) {
  redis.command({"XADD", bus::kCommands, "*", "id", command_id, "body",
                 R"({"cmd":"pool_join","pool":")" + std::string(kPool) + R"(","user_id":")" + user + R"(","rating":1600})"});
}

// Runs a matchmaker with consumer "new" (it becomes leader: no other holds the lease) until the
// reply to `command_id` arrives and nothing is pending any more, or 5 s have passed. Returns the
// reply ("" if none came).
std::string run_new_leader_until_answered(gs::Redis& redis, const std::string& command_id) {
  ServiceOptions options;
  options.consumer = "new";
  options.instance = "new-host-1";
  options.lease_ms = 3000;
  options.pool_offline_grace_ms = 600000;  // the players are connected to no game server: keep them in the pool
  MatchmakerService service(redis, options);
  std::atomic<bool> stop{false};
  std::thread runner([&] { service.run(stop); });
  std::string answer;
  for (int i = 0; i < 50; ++i) {
    if (answer.empty()) {
      gs::RedisReply r = redis.command({"LPOP", bus::reply(command_id)});
      if (r.type == gs::RedisReply::Type::String) answer = r.str;
    }
    if (!answer.empty() && pending_count(redis, bus::kCommands) == 0 && pending_count(redis, bus::kGameResults) == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  stop = true;
  runner.join();
  return answer;
}

}  // namespace

// The review's reproduction: a leader reads a pool_join and a game result (XREADGROUP as consumer
// "old") and dies before XACK; a matchmaker with consumer "new" becomes leader. It used to re-read
// only its own pending entries, so these stayed pending under "old" for ever: the player never
// joined the pool and nobody got an answer.
TEST(StreamClaim, NewLeaderHandlesWhatTheCrashedLeaderReadButNeverAcknowledged) {
  TestRedis server;
  gs::Redis& redis = server.redis();
  create_groups(redis);
  add_pool_join(redis, "cmd-1", "u1");
  redis.command({"XADD", bus::kGameResults, "*", "game_id", "g1", "body", R"({"event_id":"no-such-event","outcome":"draw"})"});
  // The old leader's read, never acknowledged.
  gs::RedisReply read = redis.command({"XREADGROUP", "GROUP", bus::kMatchmakerGroup, "old", "COUNT", "10", "STREAMS",
                                       bus::kCommands, bus::kGameResults, ">", ">"});
  ASSERT_EQ(read.elements.size(), 2u);
  ASSERT_EQ(pending_count(redis, bus::kCommands), 1);
  ASSERT_EQ(pending_count(redis, bus::kGameResults), 1);

  EXPECT_EQ(run_new_leader_until_answered(redis, "cmd-1"), R"({"ok":true})") << "the pool_join read by \"old\" got no answer";
  EXPECT_EQ(redis.command({"HEXISTS", bus::pool(kPool), "u1"}).integer, 1) << "u1 is not in the pool";
  EXPECT_EQ(pending_count(redis, bus::kCommands), 0);
  EXPECT_EQ(pending_count(redis, bus::kGameResults), 0);
}

// Taking the entries over is no delivery: one the old leader was given 7 times is handled on its
// 8th (the bound is 8), not dropped as if it had crashed the matchmaker once more.
TEST(StreamClaim, TakingOverAnEntryKeepsItsDeliveryCount) {
  TestRedis server;
  gs::Redis& redis = server.redis();
  create_groups(redis);
  add_pool_join(redis, "cmd-2", "u2");
  redis.command({"XREADGROUP", "GROUP", bus::kMatchmakerGroup, "old", "STREAMS", bus::kCommands, ">"});
  for (int i = 0; i < 6; ++i)  // each crashed restart of "old" read it again
    redis.command({"XREADGROUP", "GROUP", bus::kMatchmakerGroup, "old", "STREAMS", bus::kCommands, "0"});
  gs::RedisReply counts = redis.command({"XPENDING", bus::kCommands, bus::kMatchmakerGroup, "-", "+", "10"});
  ASSERT_EQ(counts.elements.size(), 1u);
  ASSERT_EQ(counts.elements[0].elements.at(3).integer, 7);

  EXPECT_EQ(run_new_leader_until_answered(redis, "cmd-2"), R"({"ok":true})");
  EXPECT_EQ(redis.command({"HEXISTS", bus::pool(kPool), "u2"}).integer, 1) << "u2 is not in the pool";
  EXPECT_EQ(pending_count(redis, bus::kCommands), 0);
}
