// Process-wide counters exported at /metrics in the Prometheus text format. Lock-free counters;
// the histogram uses fixed buckets.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace gs {

class Metrics {
 public:
  std::atomic<int64_t> connections{0};
  std::atomic<int64_t> connections_total{0};
  std::atomic<int64_t> live_games{0};
  std::atomic<int64_t> games_started_total{0};
  std::atomic<int64_t> games_finished_total{0};
  std::atomic<int64_t> moves_total{0};
  std::atomic<int64_t> moves_judged_off_io_total{0};  // played on the judge thread (GameActor::handle)
  std::atomic<int64_t> frames_in_total{0};
  std::atomic<int64_t> frames_out_total{0};
  std::atomic<int64_t> slow_readers_dropped_total{0};
  std::atomic<int64_t> sockets{0};                  // open client sockets (HTTP and WebSocket)
  std::atomic<int64_t> connections_refused_per_address_total{0};  // 429: --max-connections-per-address
  std::atomic<int64_t> sockets_refused_total{0};    // closed at accept: --max-sockets reached

  void error(int code);  // counts an error sent to a client, by ErrorCode number
  void observe_move_latency(double seconds);
  void observe_redis_latency(double seconds);  // one Redis round trip
  std::string render() const;

 private:
  // Finer around the 20 ms a move should stay under (docs/benchmarks.md), so a p99 can be read off it.
  static constexpr std::array<double, 13> kBuckets{0.0005, 0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.025,
                                                   0.05,   0.1,   0.25,   1.0};
  std::array<std::atomic<int64_t>, kBuckets.size() + 1> bucket_counts_{};
  std::atomic<int64_t> latency_count_{0};
  std::atomic<int64_t> latency_sum_us_{0};
  std::array<std::atomic<int64_t>, kBuckets.size() + 1> redis_counts_{};
  std::atomic<int64_t> redis_count_{0};
  std::atomic<int64_t> redis_sum_us_{0};
  std::array<std::atomic<int64_t>, 64> errors_{};
};

}  // namespace gs
