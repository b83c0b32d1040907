#include "server/metrics.h"

#include <sstream>

#include "xq.pb.h"

namespace gs {

void Metrics::error(int code) {
  if (code >= 0 && code < static_cast<int>(errors_.size())) errors_[code]++;
}

void Metrics::observe_move_latency(double s) {
  size_t i = 0;
  while (i < kBuckets.size() && s > kBuckets[i]) ++i;
  bucket_counts_[i]++;
  latency_count_++;
  latency_sum_us_ += static_cast<int64_t>(s * 1e6);
}

void Metrics::observe_redis_latency(double s) {
  size_t i = 0;
  while (i < kBuckets.size() && s > kBuckets[i]) ++i;
  redis_counts_[i]++;
  redis_count_++;
  redis_sum_us_ += static_cast<int64_t>(s * 1e6);
}

std::string Metrics::render() const {
  std::ostringstream o;
  auto gauge = [&](const char* name, const char* help, const char* type, int64_t v) {
    o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n' << name << ' ' << v << '\n';
  };
  gauge("xq_connections", "Open WebSocket connections.", "gauge", connections);
  gauge("xq_connections_total", "WebSocket connections accepted.", "counter", connections_total);
  gauge("xq_live_games", "Games in progress on this server.", "gauge", live_games);
  gauge("xq_games_started_total", "Games started.", "counter", games_started_total);
  gauge("xq_games_finished_total", "Games finished.", "counter", games_finished_total);
  gauge("xq_moves_total", "Moves accepted.", "counter", moves_total);
  gauge("xq_moves_judged_off_io_total", "Moves played on the judge thread (a repetition may be judged).", "counter",
        moves_judged_off_io_total);
  gauge("xq_frames_in_total", "WebSocket frames received.", "counter", frames_in_total);
  gauge("xq_frames_out_total", "WebSocket frames sent.", "counter", frames_out_total);
  gauge("xq_slow_readers_dropped_total", "Connections closed because their send queue was full.", "counter",
        slow_readers_dropped_total);
  gauge("xq_sockets", "Open client sockets (HTTP and WebSocket).", "gauge", sockets);
  gauge("xq_connections_refused_per_address_total", "WebSocket upgrades refused (429) because their client address held --max-connections-per-address.",
        "counter", connections_refused_per_address_total);
  gauge("xq_sockets_refused_total", "Client sockets closed at accept because --max-sockets were open.", "counter",
        sockets_refused_total);
  o << "# HELP xq_move_latency_seconds Time from receiving a move to acknowledging it (incl. Redis).\n"
       "# TYPE xq_move_latency_seconds histogram\n";
  int64_t cum = 0;
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    cum += bucket_counts_[i];
    o << "xq_move_latency_seconds_bucket{le=\"" << kBuckets[i] << "\"} " << cum << '\n';
  }
  cum += bucket_counts_[kBuckets.size()];
  o << "xq_move_latency_seconds_bucket{le=\"+Inf\"} " << cum << '\n';
  o << "xq_move_latency_seconds_sum " << static_cast<double>(latency_sum_us_) / 1e6 << '\n';
  o << "xq_move_latency_seconds_count " << latency_count_ << '\n';
  o << "# HELP xq_redis_latency_seconds Redis round trips of this server (commands and scripts).\n"
       "# TYPE xq_redis_latency_seconds histogram\n";
  cum = 0;
  for (size_t i = 0; i < kBuckets.size(); ++i) {
    cum += redis_counts_[i];
    o << "xq_redis_latency_seconds_bucket{le=\"" << kBuckets[i] << "\"} " << cum << '\n';
  }
  cum += redis_counts_[kBuckets.size()];
  o << "xq_redis_latency_seconds_bucket{le=\"+Inf\"} " << cum << '\n';
  o << "xq_redis_latency_seconds_sum " << static_cast<double>(redis_sum_us_) / 1e6 << '\n';
  o << "xq_redis_latency_seconds_count " << redis_count_ << '\n';
  o << "# HELP xq_errors_total Errors sent to clients, by code.\n# TYPE xq_errors_total counter\n";
  for (size_t i = 0; i < errors_.size(); ++i)
    if (errors_[i] > 0)
      o << "xq_errors_total{code=\"" << xq::v1::ErrorCode_Name(static_cast<xq::v1::ErrorCode>(i)) << "\"} "
        << errors_[i] << '\n';
  return o.str();
}

}  // namespace gs
