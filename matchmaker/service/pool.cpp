#include "pool.h"

#include <algorithm>
#include <cstdlib>

#include "pairing/matching.h"

namespace xq::mm {

int acceptable_gap(const PoolEntry& e, int64_t now_ms, const PoolPolicy& policy) {
  int64_t waited_s = std::max<int64_t>(0, now_ms - e.joined_ms) / 1000;
  return static_cast<int>(std::min<int64_t>(policy.max_gap, policy.base_gap + waited_s * policy.widen_per_second));
}

std::vector<PoolPair> match_pool(const std::vector<PoolEntry>& entries, int64_t now_ms, const PoolPolicy& policy) {
  // Sort by user id first so the result does not depend on the order entries were read in.
  std::vector<PoolEntry> e = entries;
  std::sort(e.begin(), e.end(), [](const PoolEntry& a, const PoolEntry& b) { return a.user_id < b.user_id; });
  const int n = static_cast<int>(e.size());
  // Weight = big constant - gap: maximum cardinality first, then the smallest total gap.
  std::vector<pairing::MatchEdge<int64_t>> edges;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (e[i].avoid == e[j].user_id || e[j].avoid == e[i].user_id) continue;
      int gap = std::abs(e[i].rating - e[j].rating);
      // Both players must accept the gap.
      if (gap > acceptable_gap(e[i], now_ms, policy) || gap > acceptable_gap(e[j], now_ms, policy)) continue;
      edges.push_back({i, j, 100000 - gap});
    }
  std::vector<PoolPair> out;
  if (edges.empty()) return out;
  std::vector<int> mate = pairing::max_weight_matching<int64_t>(n, edges, true);
  for (int i = 0; i < n; ++i) {
    int j = mate[i];
    if (j <= i) continue;
    bool i_first = e[i].joined_ms < e[j].joined_ms || (e[i].joined_ms == e[j].joined_ms && e[i].user_id < e[j].user_id);
    out.push_back(i_first ? PoolPair{e[i].user_id, e[j].user_id} : PoolPair{e[j].user_id, e[i].user_id});
  }
  return out;
}

}  // namespace xq::mm
