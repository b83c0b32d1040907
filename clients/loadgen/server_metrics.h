// The game server's own latency histograms (GET /metrics, Prometheus text), read by loadgen
// before and after a window so it can report the server's share of a move's latency next to its
// own end-to-end figure: frame received -> move acknowledged (xq_move_latency_seconds) and the
// Redis append (xq_redis_latency_seconds). Pure parsing here; loadgen does the HTTP request.
#pragma once
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace lg {

// Cumulative buckets of one histogram: (upper bound in seconds, count of samples <= it), in the
// order the server lists them (ascending, +Inf last). Empty if the metric is absent.
using Buckets = std::vector<std::pair<double, double>>;

inline Buckets parse_histogram(const std::string& text, const std::string& name) {
  Buckets out;
  const std::string prefix = name + "_bucket{le=\"";
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    const size_t close = line.find("\"}", prefix.size());
    if (close == std::string::npos) continue;
    const std::string le = line.substr(prefix.size(), close - prefix.size());
    const double bound = le == "+Inf" ? INFINITY : std::strtod(le.c_str(), nullptr);
    out.emplace_back(bound, std::strtod(line.c_str() + close + 2, nullptr));
  }
  return out;
}

// Samples between two readings of the same histogram (0 if they do not match).
inline double bucket_count(const Buckets& before, const Buckets& after) {
  if (after.empty() || (!before.empty() && before.size() != after.size())) return 0;
  return after.back().second - (before.empty() ? 0 : before.back().second);
}

// The upper bound of the bucket that holds quantile q of the samples between two readings: "at most
// this many seconds" (buckets are coarse). Nothing if there were no samples.
inline std::optional<double> bucket_quantile(const Buckets& before, const Buckets& after, double q) {
  const double total = bucket_count(before, after);
  if (total <= 0) return std::nullopt;
  for (size_t i = 0; i < after.size(); ++i) {
    const double n = after[i].second - (before.empty() ? 0 : before[i].second);
    if (n >= q * total) return after[i].first;
  }
  return after.back().first;
}

// "<= 25 ms", "> 10000 ms" for the +Inf bucket, "-" without samples.
inline std::string bound_ms(const Buckets& before, const Buckets& after, double q) {
  const auto s = bucket_quantile(before, after, q);
  if (!s) return "-";
  if (std::isinf(*s)) {
    const double top = after.size() >= 2 ? after[after.size() - 2].first : 0;
    return "> " + std::to_string(static_cast<long long>(top * 1000)) + " ms";
  }
  std::ostringstream o;
  o << "<= " << *s * 1000 << " ms";
  return o.str();
}

}  // namespace lg
