#include "pairing/swiss.h"

#include <algorithm>
#include <cstdlib>
#include <queue>
#include <tuple>

#include "pairing/explain.h"
#include "pairing/invariants.h"
#include "pairing/matching.h"
#include "pairing/round1.h"

namespace xq::pairing {
namespace {

int bits_for(std::uint64_t max_value) {
  int b = 1;
  while ((1ULL << b) <= max_value && b < 63) ++b;
  return b;
}

// Above this many players only pairs whose score groups are close get an
// edge (with a full-graph retry if that leaves players unpaired); exact
// optimality is tested up to 12 players, where the full graph is always used.
constexpr int kSparseThreshold = 128;
constexpr int kSparseWindow = 3;
// Fields up to this size check that the next round stays pairable (one re-solve per pair when it
// does not); in larger fields rematch-free pairings abound.
constexpr int kLookaheadMaxPlayers = 40;
// At most this many matchings solved while looking for a pairing that keeps the next round pairable.
constexpr int kLookaheadSolves = 400;
// Steps of the search for the rounds after the next one, per pairing checked.
constexpr long kLookaheadSteps = 20000;

template <int L>
std::vector<int> solve_packed(int nv, const std::vector<std::pair<int, int>>& ends,
                              const std::vector<std::vector<std::uint64_t>>& fields,
                              const std::vector<int>& offsets, int total_bits) {
  std::vector<MatchEdge<Wide<L>>> edges;
  edges.reserve(ends.size());
  Wide<L> big;
  big.add_field(1, total_bits);
  for (std::size_t k = 0; k < ends.size(); ++k) {
    Wide<L> pen;
    for (std::size_t f = 0; f < offsets.size(); ++f) pen.add_field(fields[k][f], offsets[f]);
    edges.push_back({ends[k].first, ends[k].second, big - pen});
  }
  return max_weight_matching<Wide<L>>(nv, edges, true, true);
}

}  // namespace

PairingProblem make_problem(const Event& ev, const std::vector<int>& unavailable, bool allow_rematches) {
  PairingProblem pp;
  pp.allow_rematches = allow_rematches;
  const int rounds_done = static_cast<int>(ev.rounds.size());
  pp.round = rounds_done + 1;
  pp.st = compute_states(ev, rounds_done);
  for (int p = 0; p < static_cast<int>(ev.players.size()); ++p)
    if (is_available(ev, pp.st, p, pp.round, unavailable)) pp.players.push_back(p);
  std::sort(pp.players.begin(), pp.players.end(), [&](int a, int b) {
    if (pp.st[a].score != pp.st[b].score) return pp.st[a].score > pp.st[b].score;
    return number_before(ev, a, b);
  });
  for (int p : pp.players) {
    int s = pp.st[p].score;
    if (pp.group_score.empty() || pp.group_score.back() != s) {
      pp.group_score.push_back(s);
      pp.group_size.push_back(0);
    }
    pp.group.push_back(static_cast<int>(pp.group_score.size()) - 1);
    pp.group_pos.push_back(pp.group_size.back()++);
    pp.pref.push_back(colour_pref(pp.st[p]));
  }
  const int n = static_cast<int>(pp.players.size());
  pp.needs_bye = n % 2 == 1;
  pp.forfeit_win_blocks_bye = ev.settings.bye_blocked_by_forfeit_win;
  const int count_bits = bits_for(static_cast<std::uint64_t>(n) + 2);
  auto add = [&](const std::string& name, int bits) {
    pp.field_names.push_back(name);
    pp.field_bits.push_back(bits);
    return static_cast<int>(pp.field_names.size()) - 1;
  };
  const bool hard = ev.settings.colour_rules_hard;
  // A second bye (or one after a forfeit win) is never given unless the organiser allows rematches
  // (pair_round fails instead, as for a rematch); then it weighs more than a rematch: "the fewest
  // rematches" keeps byes fresh (FIDE C.04.1: both are absolute criteria).
  pp.f_bye_repeat = add("bye_repeat", bits_for(static_cast<std::uint64_t>(rounds_done) + 2));
  if (allow_rematches) pp.f_rematch = add("rematches", count_bits);
  if (hard) pp.f_colour_abs = add("colour_absolute", count_bits);
  pp.f_bye_level = add("bye_level", bits_for(pp.group_score.size() + 1));
  // Among the lowest group's eligible players the bye goes to the highest pairing number (the 空号
  // habit), before the score principle and colours (swiss-pairing.md §6.3, priority 2).
  pp.f_bye_number = add("bye_not_highest_number", count_bits);
  const int groups = static_cast<int>(pp.group_score.size());
  pp.f_boundary0 = static_cast<int>(pp.field_names.size());
  // Per score group, top-down: how many of its players float down, then how
  // far below the next group they go (同分 first, else 近分, top group first).
  for (int g = 0; g + 1 < groups; ++g) {
    add("downfloats_from_" + std::to_string(pp.group_score[g]), bits_for(static_cast<std::uint64_t>(n) / 2 + 1));
    add("extra_gap_from_" + std::to_string(pp.group_score[g]),
        bits_for(static_cast<std::uint64_t>(n / 2 + 1) * static_cast<std::uint64_t>(groups)));
  }
  if (!hard) pp.f_colour_abs = add("colour_absolute", count_bits);
  pp.f_colour_strong = add("colour_strong_unmet", count_bits);
  pp.f_colour_mild = add("colour_mild_unmet", count_bits);
  pp.f_float1 = add("float_repeat_last_round", count_bits);
  pp.f_float2 = add("float_repeat_two_rounds_ago", count_bits);
  pp.f_order = add("off_group_order", count_bits);
  return pp;
}

bool pair_allowed(const Event& ev, const PairingProblem& pp, int i, int j) {
  int a = pp.players[i], b = pp.players[j];
  if (pp.st[a].met.count(b) && !pp.allow_rematches) return false;
  for (auto [x, y] : ev.settings.forbidden)
    if ((x == a && y == b) || (x == b && y == a)) return false;
  return true;
}

std::vector<std::uint64_t> pair_fields(const Event& ev, const PairingProblem& pp, int i, int j) {
  std::vector<std::uint64_t> f(pp.field_names.size(), 0);
  int a = pp.players[i], b = pp.players[j];
  if (pp.f_rematch >= 0 && pp.st[a].met.count(b)) f[pp.f_rematch] = 1;
  if (ev.settings.games_per_round == 1) {
    const Settings& set = ev.settings;
    const int half_max = (pp.round - 1) * set.win_points;  // 50% of the maximum so far, times two
    const bool topscorers = set.relax_colour_last_round_topscorers && pp.round == set.rounds &&
                            2 * pp.st[a].score > half_max && 2 * pp.st[b].score > half_max;
    ColourChoice c = allocate_colours(ev, pp.st, a, b, pp.round);
    for (int k = 0; k < 2; ++k) {
      int loc = k == 0 ? i : j;
      int p = pp.players[loc];
      Colour got = p == c.red ? Colour::Red : Colour::Black;
      if (!topscorers && colour_violates(pp.st[p], got)) f[pp.f_colour_abs]++;
      const ColourPref& pr = pp.pref[loc];
      if (pr.due != Colour::None && pr.due != got) {
        if (pr.strength >= PrefStrength::Strong)
          f[pp.f_colour_strong]++;
        else
          f[pp.f_colour_mild]++;
      }
    }
  }
  int gi = pp.group[i], gj = pp.group[j];
  if (gi == gj) {
    // Off the group order (see GroupOrder). Deliberately coarse: any top-half
    // player against any bottom-half one is equally fine; finer costs remove
    // the ties that keep the matching fast on big groups.
    int lo = std::min(pp.group_pos[i], pp.group_pos[j]), hi = std::max(pp.group_pos[i], pp.group_pos[j]);
    bool fits;
    if (ev.settings.group_order == GroupOrder::Adjacent) {
      fits = lo % 2 == 0 && hi == lo + 1;
    } else {
      int half = pp.group_size[gi] / 2;
      fits = lo < half && hi >= half;
    }
    f[pp.f_order] = fits ? 0 : 1;
  }
  if (gi != gj) {
    int hi = gi < gj ? i : j, lo = hi == i ? j : i;
    int top = std::min(gi, gj);
    f[pp.f_boundary0 + 2 * top]++;
    f[pp.f_boundary0 + 2 * top + 1] += static_cast<std::uint64_t>(std::abs(gi - gj) - 1);
    auto repeat = [&](int loc, int dir) {
      const auto& rs = pp.st[pp.players[loc]].rounds;
      int n = static_cast<int>(rs.size());
      if (n >= 1 && rs[n - 1].float_dir == dir) f[pp.f_float1]++;
      if (n >= 2 && rs[n - 2].float_dir == dir) f[pp.f_float2]++;
    };
    repeat(hi, -1);
    repeat(lo, +1);
  }
  return f;
}

std::vector<std::uint64_t> bye_fields(const PairingProblem& pp, int i) {
  std::vector<std::uint64_t> f(pp.field_names.size(), 0);
  const PlayerState& s = pp.st[pp.players[i]];
  f[pp.f_bye_repeat] = static_cast<std::uint64_t>(s.byes) + (s.forfeit_win && pp.forfeit_win_blocks_bye ? 1 : 0);
  f[pp.f_bye_level] = static_cast<std::uint64_t>(pp.group_score.size() - 1 - pp.group[i]);
  f[pp.f_bye_number] = static_cast<std::uint64_t>(pp.players.size() - 1 - i);
  return f;
}

std::vector<std::uint64_t> round_objective(const Event& ev, const PairingProblem& pp,
                                           const std::vector<std::pair<int, int>>& pairs, int bye) {
  std::vector<std::uint64_t> sum(pp.field_names.size(), 0);
  for (auto [i, j] : pairs) {
    auto f = pair_fields(ev, pp, i, j);
    for (std::size_t k = 0; k < f.size(); ++k) sum[k] += f[k];
  }
  if (bye >= 0) {
    auto f = bye_fields(pp, bye);
    for (std::size_t k = 0; k < f.size(); ++k) sum[k] += f[k];
  }
  return sum;
}

void order_boards(const Event& ev, const std::vector<PlayerState>& st, std::vector<Board>& boards) {
  auto key = [&](const Board& b) {
    if (b.b == kBye) return std::make_tuple(1, 0, 0, ev.players[b.a].number);
    int sa = st[b.a].score, sb = st[b.b].score;
    return std::make_tuple(0, -std::max(sa, sb), -(sa + sb),
                           std::min(ev.players[b.a].number, ev.players[b.b].number));
  };
  std::stable_sort(boards.begin(), boards.end(),
                   [&](const Board& x, const Board& y) { return key(x) < key(y); });
}

namespace {

// Do `depth` more rounds of perfect matchings exist on `adj` (bitmask of allowed partners per
// vertex), each using up its pairs? Pairs the lowest unmatched vertex first. After `budget` steps
// it answers yes: a guess must never keep the engine from a pairing.
bool rounds_of_matchings(std::vector<std::uint64_t>& adj, std::uint64_t unmatched, std::vector<std::pair<int, int>>& chosen,
                         std::uint64_t all, int depth, long& budget) {
  if (--budget < 0) return true;
  if (unmatched == 0) {
    if (depth <= 1) return true;
    for (auto [a, b] : chosen) adj[a] &= ~(1ULL << b), adj[b] &= ~(1ULL << a);
    std::vector<std::pair<int, int>> next;
    const bool ok = rounds_of_matchings(adj, all, next, all, depth - 1, budget);
    for (auto [a, b] : chosen) adj[a] |= 1ULL << b, adj[b] |= 1ULL << a;
    return ok;
  }
  const int v = __builtin_ctzll(unmatched);
  for (std::uint64_t cand = adj[v] & unmatched & ~(1ULL << v); cand; cand &= cand - 1) {
    const int u = __builtin_ctzll(cand);
    chosen.emplace_back(v, u);
    const bool ok = rounds_of_matchings(adj, unmatched & ~(1ULL << v) & ~(1ULL << u), chosen, all, depth, budget);
    chosen.pop_back();
    if (ok) return true;
  }
  return false;
}

}  // namespace

// Can the rounds after this one (up to the event's last) be paired without a rematch, a forbidden
// pair or a second bye, if this round is `mate`? The next round is checked exactly; the ones after
// by a bounded search. A bye goes only to a player who has had none (nor a forfeit win, where that
// blocks it) and is not this round's; in the rounds after, each bye edge is used up as a pair is.
bool following_rounds_pairable(const Event& ev, const PairingProblem& pp, const std::vector<int>& mate) {
  const int n = static_cast<int>(pp.players.size());
  const int nv = n + (pp.needs_bye ? 1 : 0);
  std::vector<std::pair<int, int>> edges;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j)
      if (mate[i] != j && pair_allowed(ev, pp, i, j)) edges.emplace_back(i, j);
    if (pp.needs_bye && mate[i] != n && bye_fields(pp, i)[pp.f_bye_repeat] == 0) edges.emplace_back(i, n);
  }
  const std::vector<int> next = max_cardinality_matching(nv, edges);
  if (!std::all_of(next.begin(), next.end(), [](int m) { return m >= 0; })) return false;
  const int depth = ev.settings.rounds - pp.round;
  if (depth <= 1 || nv > 64) return true;
  std::vector<std::uint64_t> adj(nv, 0);
  for (auto [a, b] : edges) adj[a] |= 1ULL << b, adj[b] |= 1ULL << a;
  const std::uint64_t all = nv == 64 ? ~0ULL : (1ULL << nv) - 1;
  std::vector<std::pair<int, int>> chosen;
  long budget = kLookaheadSteps;
  return rounds_of_matchings(adj, all, chosen, all, depth, budget);
}

namespace {

// Rounds 2+ (and a round 1 whose fixed scheme cannot avoid a forbidden pair).
bool matching_boards(const Event& ev, const PairingProblem& pp, PairingResult& res) {
  const int n = static_cast<int>(pp.players.size());
  if (n == 0) return true;
  const int nv = n + (pp.needs_bye ? 1 : 0);
  // Field offsets: the last field is least significant.
  std::vector<int> offsets(pp.field_bits.size());
  int total = 0;
  for (int k = static_cast<int>(pp.field_bits.size()) - 1; k >= 0; --k) {
    offsets[k] = total;
    total += pp.field_bits[k];
  }
  const int need = total + 5;  // headroom for doubling inside the solver and the sign
  if (need > 1024) {
    res.error = "too many score groups for the weight width";
    return false;
  }
  // The best perfect matching of the round's graph with the pairs `in` (a pair or the bye edge
  // (i, n)) and without the pairs `out`; empty if there is none.
  using Edge = std::pair<int, int>;
  auto solve = [&](bool sparse, const std::vector<Edge>& in, const std::vector<Edge>& out) {
    std::vector<int> fixed(nv, -1);
    for (auto [i, j] : in) fixed[i] = j, fixed[j] = i;
    auto usable = [&](int i, int j) {
      if (std::find(out.begin(), out.end(), Edge{i, j}) != out.end()) return false;
      return (fixed[i] < 0 && fixed[j] < 0) || fixed[i] == j;
    };
    std::vector<Edge> ends;
    std::vector<std::vector<std::uint64_t>> fields;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        if (sparse && pp.group[j] - pp.group[i] > kSparseWindow) break;
        if (!pair_allowed(ev, pp, i, j) || !usable(i, j)) continue;
        ends.emplace_back(i, j);
        fields.push_back(pair_fields(ev, pp, i, j));
      }
    if (pp.needs_bye)
      for (int i = 0; i < n; ++i) {
        if (!usable(i, n)) continue;
        ends.emplace_back(i, n);
        fields.push_back(bye_fields(pp, i));
      }
    std::vector<int> mate;
    if (need <= 64) mate = solve_packed<1>(nv, ends, fields, offsets, total);
    else if (need <= 128) mate = solve_packed<2>(nv, ends, fields, offsets, total);
    else if (need <= 256) mate = solve_packed<4>(nv, ends, fields, offsets, total);
    else if (need <= 512) mate = solve_packed<8>(nv, ends, fields, offsets, total);
    else mate = solve_packed<16>(nv, ends, fields, offsets, total);
    if (!std::all_of(mate.begin(), mate.end(), [](int m) { return m >= 0; })) mate.clear();
    return mate;
  };
  std::vector<int> mate = solve(n > kSparseThreshold, {}, {});
  if (mate.empty() && n > kSparseThreshold) mate = solve(false, {}, {});
  if (mate.empty()) {
    res.error = pp.allow_rematches ? "no legal pairing exists: every pairing has a forbidden pair"
                                   : "no legal pairing exists: every pairing repeats a meeting or a forbidden pair";
    return false;
  }
  auto objective_of = [&](const std::vector<int>& m) {
    std::vector<Edge> pairs;
    int bye = -1;
    for (int i = 0; i < n; ++i) {
      if (m[i] == n) bye = i;
      else if (m[i] > i) pairs.emplace_back(i, m[i]);
    }
    return round_objective(ev, pp, pairs, bye);
  };
  // Completion (FIDE C.04: a pairing must let the event go on). In a small field the best pairing
  // can leave the next round with none at all (the late rounds of 8 players over 7 rounds are
  // nearly a round robin). Then the best pairing that keeps the next round pairable is taken:
  // pairings are visited best first (Murty's partition of the matchings: each candidate's
  // alternatives keep its first k-1 pairs and lose its k-th) until one passes. If none passes
  // within the budget, the best pairing stands and the next round asks the organiser.
  if (!pp.allow_rematches && pp.round < ev.settings.rounds && n <= kLookaheadMaxPlayers &&
      !following_rounds_pairable(ev, pp, mate)) {
    struct Node {
      std::vector<std::uint64_t> obj;
      std::vector<int> mate;
      std::vector<Edge> in, out;
    };
    auto worse = [](const Node& a, const Node& b) { return b.obj < a.obj; };
    std::priority_queue<Node, std::vector<Node>, decltype(worse)> queue(worse);
    const std::uint64_t bye_repeats = objective_of(mate)[pp.f_bye_repeat];
    queue.push({objective_of(mate), mate, {}, {}});
    for (int solves = 0; !queue.empty() && solves < kLookaheadSolves;) {
      Node best = queue.top();
      queue.pop();
      // Completion never buys a second bye: the pairings left all give one (they come best first).
      if (best.obj[pp.f_bye_repeat] > bye_repeats) break;
      if (following_rounds_pairable(ev, pp, best.mate)) {
        mate = std::move(best.mate);
        res.looked_ahead = true;
        break;
      }
      std::vector<Edge> free_pairs;  // its pairs not fixed by its node, in a fixed order
      for (int i = 0; i < n; ++i) {
        const int j = best.mate[i];
        if (j > i && std::find(best.in.begin(), best.in.end(), Edge{i, j}) == best.in.end()) free_pairs.emplace_back(i, j);
      }
      std::vector<Edge> in = best.in;
      for (const Edge& e : free_pairs) {
        std::vector<Edge> out = best.out;
        out.push_back(e);
        std::vector<int> alt = solve(false, in, out);
        ++solves;
        if (!alt.empty()) queue.push({objective_of(alt), std::move(alt), in, std::move(out)});
        in.push_back(e);
      }
    }
  }
  // A second bye is no more a way out than a rematch: the organiser decides (allow_rematches keeps
  // byes fresh at the cost of the fewest rematches, or an edited pairing).
  for (int i = 0; i < n; ++i)
    if (mate[i] == n && bye_fields(pp, i)[pp.f_bye_repeat] > 0) {
      if (!pp.allow_rematches) {
        res.error = "no legal pairing exists: every pairing repeats a meeting, pairs a forbidden pair or gives a player a second bye";
        return false;
      }
      res.repeated_byes.push_back(player_label(ev, pp.players[i]));
    }
  std::vector<std::pair<int, int>> pairs;
  int bye = -1;
  for (int i = 0; i < n; ++i) {
    if (mate[i] == n) {
      bye = i;
      res.record.boards.push_back({pp.players[i], kBye, {}});
    } else if (mate[i] > i) {
      pairs.emplace_back(i, mate[i]);
      ColourChoice c = allocate_colours(ev, pp.st, pp.players[i], pp.players[mate[i]], pp.round);
      res.record.boards.push_back({c.red, c.black, {}});
    }
  }
  res.objective = round_objective(ev, pp, pairs, bye);
  return true;
}

bool has_forbidden(const Event& ev, const std::vector<Board>& boards) {
  for (const Board& b : boards)
    for (auto [x, y] : ev.settings.forbidden)
      if ((x == b.a && y == b.b) || (x == b.b && y == b.a)) return true;
  return false;
}

}  // namespace

PairingResult pair_round(const Event& ev, const std::vector<int>& unavailable, bool allow_rematches) {
  PairingResult res;
  PairingProblem pp = make_problem(ev, unavailable, allow_rematches);
  res.round = pp.round;
  res.record.unavailable = unavailable;
  std::sort(res.record.unavailable.begin(), res.record.unavailable.end());
  if (pp.round == 1) {
    res.record.boards = round1_boards(ev, pp);
    if (has_forbidden(ev, res.record.boards)) {
      res.record.boards.clear();
      if (!matching_boards(ev, pp, res)) return res;
    }
  } else if (!matching_boards(ev, pp, res)) {
    return res;
  }
  order_boards(ev, pp.st, res.record.boards);
  res.explain = explain_round(ev, pp, res.record);
  res.explain_zh = explain_round(ev, pp, res.record, Lang::Zh);
  if (allow_rematches) {
    const std::vector<PlayerState>& st = pp.st;
    for (const Board& b : res.record.boards)
      if (b.b != kBye && st[b.a].met.count(b.b)) res.rematches.push_back(player_label(ev, b.a) + " – " + player_label(ev, b.b));
  }
  if (ev.settings.self_check) res.violations = check_round(ev, res.record, res.looked_ahead, allow_rematches);
  res.ok = res.violations.empty();
  if (!res.ok) res.error = "invariant violated: " + res.violations.front();
  return res;
}

}  // namespace xq::pairing
