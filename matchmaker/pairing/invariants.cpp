#include "pairing/invariants.h"

#include <algorithm>
#include <functional>

#include "pairing/matching.h"
#include "pairing/swiss.h"

namespace xq::pairing {
namespace {

constexpr std::size_t kLocalCheckBoards = 150;

// Is there a pairing of all available players (bye to one of `bye_ok`
// when odd) using allowed pairs, optionally only colour-legal ones?
bool feasible(const Event& ev, const PairingProblem& pp, const std::vector<char>& bye_ok,
              bool colour_legal_only) {
  const int n = static_cast<int>(pp.players.size());
  std::vector<std::pair<int, int>> edges;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (!pair_allowed(ev, pp, i, j)) continue;
      if (colour_legal_only && ev.settings.games_per_round == 1) {
        auto f = pair_fields(ev, pp, i, j);
        if (f[pp.f_colour_abs] != 0) continue;
      }
      edges.emplace_back(i, j);
    }
  if (pp.needs_bye)
    for (int i = 0; i < n; ++i)
      if (bye_ok[i]) edges.emplace_back(i, n);
  const int nv = n + (pp.needs_bye ? 1 : 0);
  auto mate = max_cardinality_matching(nv, edges);
  return std::all_of(mate.begin(), mate.end(), [](int m) { return m >= 0; });
}

}  // namespace

static void check_optimal(const Event& ev, const PairingProblem& pp, const std::vector<std::pair<int, int>>& pairs,
                          int bye_local, const std::function<void(const std::string&)>& fail);

std::vector<std::string> check_round(const Event& ev, const Round& round, bool for_completion, bool allow_rematches) {
  std::vector<std::string> v;
  auto fail = [&](const std::string& s) { v.push_back(s); };
  PairingProblem pp = make_problem(ev, round.unavailable, allow_rematches);
  const int np = static_cast<int>(ev.players.size());
  const int n = static_cast<int>(pp.players.size());
  std::vector<int> local(np, -1);
  for (int i = 0; i < n; ++i) local[pp.players[i]] = i;
  std::vector<int> seen(np, 0);
  int byes = 0, bye_local = -1;
  std::vector<std::pair<int, int>> pairs;
  for (const Board& b : round.boards) {
    if (b.a < 0 || b.a >= np || (b.b != kBye && (b.b < 0 || b.b >= np))) {
      fail("board with an invalid player id");
      return v;
    }
    seen[b.a]++;
    if (local[b.a] < 0) fail(player_label(ev, b.a) + " is paired but not available");
    if (b.b == kBye) {
      ++byes;
      bye_local = local[b.a];
      continue;
    }
    seen[b.b]++;
    if (local[b.b] < 0) fail(player_label(ev, b.b) + " is paired but not available");
    if (b.a == b.b) fail(player_label(ev, b.a) + " is paired with themselves");
    if (local[b.a] >= 0 && local[b.b] >= 0) {
      pairs.emplace_back(local[b.a], local[b.b]);
      if (!pair_allowed(ev, pp, local[b.a], local[b.b]))
        fail("rematch or forbidden pair: " + player_label(ev, b.a) + " – " + player_label(ev, b.b));
    }
  }
  for (int p = 0; p < np; ++p) {
    if (seen[p] > 1) fail(player_label(ev, p) + " appears " + std::to_string(seen[p]) + " times");
    if (local[p] >= 0 && seen[p] == 0) fail(player_label(ev, p) + " is available but not paired");
  }
  if (byes > 1) fail("more than one bye");
  if (byes != (pp.needs_bye ? 1 : 0)) fail("bye count does not match the field parity");
  if (!v.empty() || pp.round == 1) return v;

  // Colours follow the allocation rule.
  for (const Board& b : round.boards) {
    if (b.b == kBye) continue;
    ColourChoice c = allocate_colours(ev, pp.st, b.a, b.b, pp.round);
    if (c.red != b.a) fail("colours of " + player_label(ev, b.a) + " – " + player_label(ev, b.b) + " differ from the rule");
  }
  if (for_completion) {
    std::vector<int> mate(n, -1);
    for (auto [a, b] : pairs) mate[a] = b, mate[b] = a;
    if (bye_local >= 0) mate[bye_local] = n;
    if (!following_rounds_pairable(ev, pp, mate)) fail("paired for completion, yet the rounds after it have no pairing");
  } else {
    check_optimal(ev, pp, pairs, bye_local, fail);
  }
  std::vector<Board> ordered = round.boards;
  order_boards(ev, pp.st, ordered);
  for (std::size_t k = 0; k < ordered.size(); ++k)
    if (ordered[k].a != round.boards[k].a || ordered[k].b != round.boards[k].b) {
      fail("boards are not in board order");
      break;
    }
  return v;
}

// The soft rules hold as well as they can: a repeated bye, a colour-rule break or a higher bye only
// when unavoidable, and no better pairing by exchanging the partners of two boards (or the bye).
static void check_optimal(const Event& ev, const PairingProblem& pp, const std::vector<std::pair<int, int>>& pairs,
                          int bye_local, const std::function<void(const std::string&)>& fail) {
  const int n = static_cast<int>(pp.players.size());
  auto obj = round_objective(ev, pp, pairs, bye_local);
  const std::uint64_t bye_rep = bye_local >= 0 ? obj[pp.f_bye_repeat] : 0;
  std::vector<char> bye_ok(n, 0);
  // Repeated bye (or bye after a forfeit win) only when unavoidable.
  if (bye_local >= 0 && bye_rep > 0) {
    for (int i = 0; i < n; ++i) bye_ok[i] = bye_fields(pp, i)[pp.f_bye_repeat] == 0;
    if (feasible(ev, pp, bye_ok, false)) fail("repeated bye although another player could take it");
  }
  for (int i = 0; i < n; ++i) bye_ok[i] = bye_fields(pp, i)[pp.f_bye_repeat] <= bye_rep;
  // Colour-rule breaks only when unavoidable (given the bye constraint above).
  const bool colour_checked = ev.settings.games_per_round == 1 && ev.settings.colour_rules_hard;
  if (colour_checked && obj[pp.f_colour_abs] > 0 && feasible(ev, pp, bye_ok, true))
    fail("colour rule broken (3 in a row or difference > 2) although avoidable");
  // The bye goes to the lowest score group that can take it. Skipped when the
  // round already needs colour-rule breaks: comparing would then need the
  // full objective (the brute-force tests cover that case).
  if (bye_local >= 0 && !(colour_checked && obj[pp.f_colour_abs] > 0)) {
    const bool keep_colour = colour_checked;
    for (int i = 0; i < n; ++i) {
      if (!bye_ok[i] || pp.group[i] <= pp.group[bye_local]) continue;
      std::vector<char> only(n, 0);
      only[i] = 1;
      if (feasible(ev, pp, only, keep_colour)) {
        fail("bye given to score " + std::to_string(pp.st[pp.players[bye_local]].score) +
             " although player " + std::to_string(pp.players[i]) + " with score " +
             std::to_string(pp.st[pp.players[i]].score) + " could take it");
        break;
      }
    }
  }
  // Local optimality: no exchange of partners between two boards (or with the
  // bye) gives a better objective. Bounded so it stays cheap at run time.
  if (pairs.size() <= kLocalCheckBoards) {
    using Obj = std::vector<std::uint64_t>;
    auto fields = [&](int i, int j) { return pair_fields(ev, pp, i, j); };
    auto plus = [](Obj a, const Obj& b) {
      for (std::size_t k = 0; k < a.size(); ++k) a[k] += b[k];
      return a;
    };
    bool reported = false;
    for (std::size_t x = 0; x < pairs.size() && !reported; ++x) {
      auto [a, b] = pairs[x];
      Obj cur_ab = fields(a, b);
      for (std::size_t y = x + 1; y < pairs.size() && !reported; ++y) {
        auto [c, d] = pairs[y];
        Obj cur = plus(cur_ab, fields(c, d));
        const int alt[2][4] = {{a, c, b, d}, {a, d, b, c}};
        for (const auto& q : alt) {
          if (!pair_allowed(ev, pp, q[0], q[1]) || !pair_allowed(ev, pp, q[2], q[3])) continue;
          if (plus(fields(q[0], q[1]), fields(q[2], q[3])) < cur) {
            fail("exchanging partners of boards " + std::to_string(pp.players[a]) + "-" +
                 std::to_string(pp.players[b]) + " and " + std::to_string(pp.players[c]) + "-" +
                 std::to_string(pp.players[d]) + " gives a better pairing");
            reported = true;
            break;
          }
        }
      }
      if (bye_local >= 0 && !reported) {
        Obj cur = plus(cur_ab, bye_fields(pp, bye_local));
        const int alt[2][3] = {{a, bye_local, b}, {b, bye_local, a}};  // new bye, pair
        for (const auto& q : alt) {
          if (!pair_allowed(ev, pp, q[1], q[2])) continue;
          if (plus(bye_fields(pp, q[0]), fields(q[1], q[2])) < cur) {
            fail("giving the bye to " + std::to_string(pp.players[q[0]]) + " gives a better pairing");
            reported = true;
            break;
          }
        }
      }
    }
  }
}

}  // namespace xq::pairing
