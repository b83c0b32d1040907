#pragma once
// Maximum-weight matching in general graphs (Edmonds' blossom algorithm,
// primal-dual, O(n^3)). Written for this project from the published
// algorithm description (Galil 1986 / Edmonds 1965).
#include <cstdint>
#include <vector>

#include "pairing/wide.h"

namespace xq::pairing {

template <class W>
struct MatchEdge {
  int u = 0;
  int v = 0;
  W w{};
};

// Returns mate[v] (or -1). With max_cardinality the matching has maximum
// size and maximum weight among those; otherwise maximum weight.
// Weights must be integers; they are doubled internally so all duals stay
// integral. warm_start (max_cardinality only) starts from a greedy matching on
// tight edges: much faster on large tie-heavy graphs, and exact whenever the
// result is a perfect matching (the pairing engine only accepts perfect ones);
// a non-perfect result may then not have maximum weight.
template <class W>
std::vector<int> max_weight_matching(int n, const std::vector<MatchEdge<W>>& edges,
                                     bool max_cardinality, bool warm_start = false);

// Plain maximum-cardinality matching (all weights equal).
std::vector<int> max_cardinality_matching(int n, const std::vector<std::pair<int, int>>& edges);

}  // namespace xq::pairing
