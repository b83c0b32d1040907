#include "pairing/matching.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace xq::pairing;

namespace {

// Exhaustive optimum: (cardinality, weight) lexicographic when maxcard.
std::pair<int, std::int64_t> brute(int n, const std::vector<MatchEdge<std::int64_t>>& edges, bool maxcard) {
  std::vector<std::vector<std::int64_t>> w(n, std::vector<std::int64_t>(n, INT64_MIN));
  for (auto& e : edges) w[e.u][e.v] = w[e.v][e.u] = std::max(w[e.u][e.v], e.w);
  std::pair<int, std::int64_t> best{0, 0};
  std::vector<char> used(n, 0);
  std::function<void(int, int, std::int64_t)> rec = [&](int i, int card, std::int64_t sum) {
    while (i < n && used[i]) ++i;
    if (i == n) {
      std::pair<int, std::int64_t> cur = maxcard ? std::make_pair(card, sum) : std::make_pair(0, sum);
      if (cur > best) best = cur;
      return;
    }
    used[i] = 1;
    rec(i + 1, card, sum);  // i unmatched
    for (int j = i + 1; j < n; ++j)
      if (!used[j] && w[i][j] != INT64_MIN) {
        used[j] = 1;
        rec(i + 1, card + 1, sum + w[i][j]);
        used[j] = 0;
      }
    used[i] = 0;
  };
  rec(0, 0, 0);
  return best;
}

template <class W>
std::pair<int, std::int64_t> evaluate(const std::vector<int>& mate,
                                      const std::vector<MatchEdge<std::int64_t>>& edges) {
  int card = 0;
  std::int64_t sum = 0;
  for (std::size_t v = 0; v < mate.size(); ++v) {
    if (mate[v] < 0) continue;
    EXPECT_EQ(mate[mate[v]], static_cast<int>(v));
    if (mate[v] > static_cast<int>(v)) {
      ++card;
      std::int64_t best = INT64_MIN;
      for (auto& e : edges)
        if ((e.u == static_cast<int>(v) && e.v == mate[v]) || (e.v == static_cast<int>(v) && e.u == mate[v]))
          best = std::max(best, e.w);
      EXPECT_NE(best, INT64_MIN);
      sum += best;
    }
  }
  return {card, sum};
}

}  // namespace

TEST(Matching, RandomGraphsMatchBruteForce) {
  std::mt19937_64 rng(12345);
  for (int iter = 0; iter < 3000; ++iter) {
    int n = 1 + static_cast<int>(rng() % 11);
    int density = 20 + static_cast<int>(rng() % 80);
    int wmax = (iter % 3 == 0) ? 3 : 100;
    std::vector<MatchEdge<std::int64_t>> edges;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        if (static_cast<int>(rng() % 100) < density)
          edges.push_back({i, j, static_cast<std::int64_t>(rng() % wmax) + ((iter % 5 == 0) ? -20 : 0)});
    for (bool maxcard : {true, false}) {
      auto mate = max_weight_matching<std::int64_t>(n, edges, maxcard);
      auto got = evaluate<std::int64_t>(mate, edges);
      auto want = brute(n, edges, maxcard);
      if (!maxcard) got.first = 0;
      ASSERT_EQ(got, want) << "iter " << iter << " n " << n << " maxcard " << maxcard;
      // Same problem in wide arithmetic, shifted above 64 bits.
      std::vector<MatchEdge<Wide<4>>> wide;
      for (auto& e : edges) {
        Wide<4> w = Wide<4>::from_int(e.w);
        w.add_field(1, 100);  // constant offset keeps the maxcard optimum
        wide.push_back({e.u, e.v, w});
      }
      if (maxcard) {
        std::vector<std::pair<int, int>> plain;
        for (auto& e : edges) plain.emplace_back(e.u, e.v);
        auto cm = max_cardinality_matching(n, plain);
        int card = 0;
        for (int v = 0; v < n; ++v) card += cm[v] > v;
        ASSERT_EQ(card, want.first) << "cardinality iter " << iter;
      }
      if (maxcard && want.first * 2 == n) {
        // Warm start is exact whenever a perfect matching exists.
        auto mate3 = max_weight_matching<std::int64_t>(n, edges, true, true);
        ASSERT_EQ(evaluate<std::int64_t>(mate3, edges), want) << "warm iter " << iter;
      }
      if (maxcard) {
        auto mate2 = max_weight_matching<Wide<4>>(n, wide, true);
        ASSERT_EQ(evaluate<std::int64_t>(mate2, edges), want) << "wide iter " << iter;
      }
    }
  }
}

TEST(Matching, CardinalityOnly) {
  // Path 0-1-2-3: perfect matching {0-1, 2-3}.
  auto m = max_cardinality_matching(4, {{0, 1}, {1, 2}, {2, 3}});
  EXPECT_EQ(m[0], 1);
  EXPECT_EQ(m[2], 3);
  // Odd cycle of 5 plus pendant: size 3.
  auto m2 = max_cardinality_matching(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {4, 5}});
  int c = 0;
  for (int v : m2) c += v >= 0;
  EXPECT_EQ(c, 6);
}

TEST(WideInt, Arithmetic) {
  Wide<2> a = Wide<2>::from_int(-5);
  Wide<2> b = Wide<2>::from_int(7);
  EXPECT_TRUE(a < b);
  EXPECT_EQ((a + b), Wide<2>::from_int(2));
  EXPECT_EQ((a - b), Wide<2>::from_int(-12));
  EXPECT_EQ(a.half(), Wide<2>::from_int(-3));
  Wide<2> big;
  big.add_field(3, 70);
  EXPECT_EQ(big.field(70, 2), 3u);
  EXPECT_TRUE(b < big);
}
