// The load generator is how every figure of docs/benchmarks.md is made, so it is tested too: its
// parsing of the server's histograms, and short real runs against a real server (both set-up
// modes, both variants) whose report must show moves delivered, no errors, no desync, and the
// server's own share of the latency; and the baselines the scale issue's ratio is taken against
// (the bare echo, and the relay that has a move's wire without the game server).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <regex>
#include <string>
#include <sys/wait.h>

#include "server_metrics.h"
#include "test_server.h"

namespace {

TEST(LoadgenServerMetrics, ParsesHistogramsAndBoundsTheirQuantiles) {
  const std::string before =
      "# TYPE xq_move_latency_seconds histogram\n"
      "xq_move_latency_seconds_bucket{le=\"0.001\"} 10\n"
      "xq_move_latency_seconds_bucket{le=\"0.01\"} 20\n"
      "xq_move_latency_seconds_bucket{le=\"+Inf\"} 20\n"
      "xq_redis_latency_seconds_bucket{le=\"0.001\"} 5\n"
      "xq_redis_latency_seconds_bucket{le=\"+Inf\"} 5\n";
  const std::string after =
      "xq_move_latency_seconds_bucket{le=\"0.001\"} 100\n"  // +90 at most 1 ms
      "xq_move_latency_seconds_bucket{le=\"0.01\"} 119\n"   // +9 up to 10 ms
      "xq_move_latency_seconds_bucket{le=\"+Inf\"} 120\n"   // +1 beyond
      "xq_move_latency_seconds_sum 0.5\n"
      "xq_redis_latency_seconds_bucket{le=\"0.001\"} 5\n"
      "xq_redis_latency_seconds_bucket{le=\"+Inf\"} 5\n";
  const lg::Buckets b = lg::parse_histogram(before, "xq_move_latency_seconds");
  const lg::Buckets a = lg::parse_histogram(after, "xq_move_latency_seconds");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_DOUBLE_EQ(a[1].first, 0.01);
  EXPECT_DOUBLE_EQ(a[1].second, 119);
  EXPECT_DOUBLE_EQ(lg::bucket_count(b, a), 100);
  EXPECT_DOUBLE_EQ(*lg::bucket_quantile(b, a, 0.5), 0.001);
  EXPECT_DOUBLE_EQ(*lg::bucket_quantile(b, a, 0.99), 0.01);
  EXPECT_EQ(lg::bound_ms(b, a, 0.99), "<= 10 ms");
  EXPECT_EQ(lg::bound_ms(b, a, 1.0), "> 10 ms");  // the sample beyond the last finite bucket
  // No samples in between, or readings that do not match: nothing to say.
  const lg::Buckets redis = lg::parse_histogram(after, "xq_redis_latency_seconds");
  EXPECT_FALSE(lg::bucket_quantile(lg::parse_histogram(before, "xq_redis_latency_seconds"), redis, 0.5));
  EXPECT_EQ(lg::bound_ms(redis, redis, 0.5), "-");
  EXPECT_DOUBLE_EQ(lg::bucket_count(redis, a), 0);
  EXPECT_TRUE(lg::parse_histogram("", "xq_move_latency_seconds").empty());
  // From nothing (the server was not there before): everything counts.
  EXPECT_DOUBLE_EQ(lg::bucket_count({}, a), 120);
}

struct LoadgenRun {
  int status = -1;
  std::string out;
};

LoadgenRun run_loadgen(const std::string& args) {
  LoadgenRun r;
  const std::string cmd = std::string(LOADGEN_BIN) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

double number_after(const std::string& out, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(pattern + R"(\s*([0-9.]+))"))) return -1;
  return std::stod(m[1]);
}

void expect_a_clean_run(const LoadgenRun& r, int games, int interval_ms) {
  ASSERT_EQ(r.status, 0) << r.out;
  const double rate = number_after(r.out, R"(\nmoves/s)");
  // Every game moves once per interval; on a loaded test machine allow a wide margin, but not none.
  EXPECT_GT(rate, 0.3 * 1000.0 * games / interval_ms) << r.out;
  EXPECT_NE(r.out.find("errors by code         none"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stalled moves (>10000ms) 0, desync 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 setups failed"), std::string::npos) << r.out;
  // The server's own histogram saw the moves of the window (it counts every move, loadgen only
  // those whose event arrived in the window, so they differ a little).
  const double served = number_after(r.out, R"(server move time.*\(n=)");
  const double measured = number_after(r.out, R"(move latency.*\(n=)");
  EXPECT_GT(measured, 0) << r.out;
  EXPECT_GT(served, 0.8 * measured) << r.out;
  EXPECT_LT(served, 1.2 * measured + 50) << r.out;
  EXPECT_NE(r.out.find("server redis"), std::string::npos) << r.out;
}

TEST(Loadgen, PlaysXiangqiThroughHandoffAndRematchAndReportsTheServersShare) {
  TestServers s;
  const LoadgenRun r = run_loadgen("--port " + std::to_string(s.port()) +
                            " --games 12 --threads 1 --setup-mode handoff --restart-mode rematch --resign-at-plies 16"
                            " --move-interval-ms 40 --warmup-s 1 --duration-s 3 --report-s 1");
  expect_a_clean_run(r, 12, 40);
  // Games resigned and were set up again by their players' own connections.
  EXPECT_GT(number_after(r.out, R"(\(after a refused move\),)"), 0) << r.out;
  EXPECT_NE(r.out.find("server p99 <="), std::string::npos) << r.out;  // the per-second lines
}

TEST(Loadgen, PlaysJieqiDirectlyWithoutTheServersMetricsWhenAskedNotTo) {
  TestServers s;
  LoadgenRun r = run_loadgen("--port " + std::to_string(s.port()) +
                      " --games 6 --threads 2 --variant jieqi --move-interval-ms 40 --warmup-s 1 --duration-s 2"
                      " --report-s 1");
  expect_a_clean_run(r, 6, 40);
  r = run_loadgen("--port " + std::to_string(s.port()) +
                  " --games 4 --variant jieqi --move-interval-ms 40 --warmup-s 1 --duration-s 1 --server-metrics false");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("server move time"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("errors by code         none"), std::string::npos) << r.out;
}

// The baselines, against the real echo_server: the echo (a round trip per message) and the relay
// (a message back to its sender and to the paired connection, which answers it), each reporting
// its rate and latency; the relay's messages are counted at the partner, so a relay that only
// echoed (as a plain echo server does) would report none.
TEST(Loadgen, MeasuresTheEchoAndTheRelayBaselines) {
  for (const bool relay : {false, true}) {
    Process echo;
    const uint16_t port = start_listening(
        echo, 0,
        [&](uint16_t p) {
          return std::vector<std::string>{ECHO_SERVER_BIN, "--listen", "127.0.0.1:" + std::to_string(p),
                                          "--threads", "1", "--max-seconds", "60", "--relay", relay ? "true" : "false"};
        },
        ::testing::TempDir() + "/echo_server.log", "echo_server listening on", "echo_server");
    const LoadgenRun r = run_loadgen("--echo" + std::string(relay ? " --echo-relay" : "") + " --port " +
                                     std::to_string(port) + " --connections 20 --threads 1 --warmup-s 1 --duration-s 1");
    ASSERT_EQ(r.status, 0) << r.out;
    const std::string rate_line = relay ? R"(\nrelay messages/s)" : R"(\necho messages/s)";
    EXPECT_GT(number_after(r.out, rate_line), 100) << r.out;
    EXPECT_GT(number_after(r.out, relay ? R"(send -> partner gets.*\(n=)" : R"(round trip.*\(n=)"), 100) << r.out;
  }
  // The plain echo server under loadgen's relay mode: every message comes back to its own sender
  // only, which is no move made.
  Process echo;
  const uint16_t port = start_listening(
      echo, 0,
      [&](uint16_t p) {
        return std::vector<std::string>{ECHO_SERVER_BIN, "--listen", "127.0.0.1:" + std::to_string(p), "--threads",
                                        "1", "--max-seconds", "60"};
      },
      ::testing::TempDir() + "/echo_server.log", "echo_server listening on", "echo_server");
  const LoadgenRun r = run_loadgen("--echo --echo-relay --port " + std::to_string(port) +
                                   " --connections 4 --threads 1 --warmup-s 1 --duration-s 1");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(number_after(r.out, R"(\nrelay messages/s)"), 0) << r.out;
}

}  // namespace
