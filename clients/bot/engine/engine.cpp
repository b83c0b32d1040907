// choose_move: parses the viewer's FEN, then searches it. Xiangqi (and a Jieqi position with no
// face-down piece) is one search. Jieqi with face-down pieces is searched by determinization:
// several samples of the hidden identities drawn from the view's pool (seeded by `seed`), each
// searched as a full-information game; the best moves of the samples are then scored in every
// sample and the move with the best average wins. Nothing but the view is read.
#include "engine.h"

#include <algorithm>
#include <memory>
#include <random>

#include "evaluate.h"
#include "jieqi_sampling.h"
#include "repetition_guard.h"
#include "rules/fen.h"
#include "rules/types.h"
#include "search.h"

namespace xq::engine {

namespace {

// A table about as large as the search can fill: by the node limit, else by the time (the search
// visits about 2,000 nodes a millisecond here), at most `cap`.
size_t table_entries(const Limits& limits, size_t cap, int share = 1) {
  uint64_t expect = 0;
  if (limits.max_nodes) expect = limits.max_nodes;
  if (limits.movetime_ms > 0) {
    const uint64_t by_time = static_cast<uint64_t>(limits.movetime_ms) * 2000;
    expect = expect ? std::min(expect, by_time) : by_time;
  }
  if (expect == 0) return cap;
  expect /= static_cast<uint64_t>(share);
  size_t n = 1 << 12;
  while (n < cap && n < expect) n *= 2;
  return n;
}

struct Deadlines {
  Clock::time_point start = Clock::now();
  int64_t movetime_ms = 0;
  // The instant at `frac` of the move time, or none without a time limit.
  std::optional<Clock::time_point> at(double frac) const {
    if (movetime_ms <= 0) return std::nullopt;
    return start + std::chrono::microseconds(static_cast<int64_t>(static_cast<double>(movetime_ms) * 1000.0 * frac));
  }
};

}  // namespace

Choice choose_move(Variant variant, const std::string& fen, const std::vector<std::string>& earlier_fens,
                   const Limits& limits, uint64_t seed) {
  Deadlines clock;
  clock.movetime_ms = limits.movetime_ms;
  const Position root = parse_fen(fen, variant);
  std::vector<EarlierPosition> earlier;
  earlier.reserve(earlier_fens.size());
  // The hash covers the board (face-down pieces as face-down) and the side to move, never hidden
  // identities, so the viewer's earlier FENs hash like the search's own positions.
  // `consecutive`: sides alternate up to this position (every ply given), so checks in a cycle
  // through them can be counted for the perpetual-check rule.
  bool consecutive = !earlier_fens.empty();
  std::vector<Position> history;
  history.reserve(earlier_fens.size());
  for (const std::string& f : earlier_fens) {
    history.push_back(parse_fen(f, variant));
    earlier.push_back({history.back().hash(), history.back().in_check()});
  }
  Color expect = root.side_to_move();
  for (auto it = history.rbegin(); it != history.rend(); ++it) {
    expect = opposite(expect);
    if (it->side_to_move() != expect) consecutive = false;
  }

  Choice choice;
  MoveList legal;
  root.generate_legal(legal);
  if (legal.size == 0) {
    choice.score = -kMate;
    return choice;
  }
  if (legal.size == 1) {
    choice.move = to_iccs(legal.moves[0]);
    choice.score = evaluate(root);
    return choice;
  }

  // Root moves the rules' repetition judgement would lose (perpetual chase and the like).
  std::vector<Move> excluded;
  if (!history.empty()) {
    const std::vector<bool> loses = repetition_losses(history, root, legal, 24, clock.at(0.2));
    for (int i = 0; i < legal.size; ++i)
      if (loses[static_cast<size_t>(i)]) excluded.push_back(legal.moves[i]);
  }

  const int depth = std::max(1, limits.max_depth);
  if (variant == Variant::Xiangqi || dark_count(root) == 0) {
    Searcher searcher(root, std::move(earlier), consecutive, table_entries(limits, size_t{1} << 20));
    searcher.exclude_root_moves(excluded);
    SearchBudget budget{depth, limits.max_nodes, clock.at(1.0), clock.at(0.5)};
    SearchResult r = searcher.iterate(budget);
    choice.move = to_iccs(r.best);
    choice.score = r.score;
    choice.depth = r.depth;
    choice.nodes = searcher.nodes();
    return choice;
  }

  // --- Jieqi determinization ---
  const int samples = std::clamp(limits.jieqi_samples, 1, 16);
  std::mt19937_64 rng(seed);
  std::vector<std::unique_ptr<Searcher>> searchers;
  std::vector<SearchResult> results;
  const uint64_t pass1_nodes = limits.max_nodes ? std::max<uint64_t>(1, limits.max_nodes * 6 / 10 / samples) : 0;
  uint64_t used = 0;
  for (int i = 0; i < samples; ++i) {
    Position sample = root;
    sample_identities(sample, rng);
    searchers.push_back(std::make_unique<Searcher>(sample, earlier, consecutive, table_entries(limits, size_t{1} << 18, samples)));
    searchers.back()->exclude_root_moves(excluded);
    const double span = 0.6 / samples;
    SearchBudget budget{depth, pass1_nodes, clock.at(span * (i + 1)), clock.at(span * (i + 0.5))};
    results.push_back(searchers.back()->iterate(budget));
    used += searchers.back()->nodes();
  }

  // Candidates: the samples' best moves, in order of first appearance.
  std::vector<Move> candidates;
  for (const SearchResult& r : results)
    if (std::find(candidates.begin(), candidates.end(), r.best) == candidates.end()) candidates.push_back(r.best);

  // Score every candidate in every sample, all at one depth a ply short of the shallowest sample
  // (so that the scores compare, and the pass fits in the time left; the tables are warm).
  // A mate in one sample is a mate in some of the worlds the view allows, not in all: averaged as
  // a large score (mates still ordered by distance), not as ±30,000, which swamped the others.
  auto averageable = [](int s) {
    if (s > kMateBound) return 10'000 + (s - kMateBound);
    if (s < -kMateBound) return -10'000 - (-s - kMateBound);
    return s;
  };
  std::vector<int64_t> total(candidates.size(), 0);
  int complete = 0;
  int common_depth = kMaxPly;
  for (const SearchResult& r : results) common_depth = std::min(common_depth, r.depth);
  common_depth = std::max(1, common_depth - 1);
  if (candidates.size() > 1 && common_depth >= 1) {
    for (int i = 0; i < samples; ++i) {
      if (results[i].depth == 0) continue;
      std::vector<int> scores(candidates.size());
      bool ok = true;
      for (size_t c = 0; c < candidates.size() && ok; ++c) {
        const uint64_t before = searchers[i]->nodes();
        uint64_t left = 0;
        if (limits.max_nodes) {
          if (used >= limits.max_nodes) { ok = false; break; }
          left = limits.max_nodes - used;
        }
        SearchBudget budget{depth, left, clock.at(1.0), std::nullopt};
        std::optional<int> s = searchers[i]->score_move(candidates[c], common_depth, budget);
        used += searchers[i]->nodes() - before;
        if (!s) ok = false;
        else scores[c] = *s;
      }
      if (!ok) break;
      for (size_t c = 0; c < candidates.size(); ++c) total[c] += averageable(scores[c]);
      ++complete;
    }
  }

  size_t pick = 0;
  if (candidates.size() > 1 && complete > 0) {
    for (size_t c = 1; c < candidates.size(); ++c)
      if (total[c] > total[pick]) pick = c;
    choice.score = static_cast<int>(total[pick] / complete);
  } else {
    // One candidate, or no sample scored them all: the move most samples chose, then the best
    // summed first-pass score.
    std::vector<int> votes(candidates.size(), 0);
    std::vector<int64_t> sum(candidates.size(), 0);
    for (const SearchResult& r : results) {
      size_t c = static_cast<size_t>(std::find(candidates.begin(), candidates.end(), r.best) - candidates.begin());
      ++votes[c];
      sum[c] += averageable(r.score);
    }
    for (size_t c = 1; c < candidates.size(); ++c)
      if (votes[c] > votes[pick] || (votes[c] == votes[pick] && sum[c] > sum[pick])) pick = c;
    choice.score = static_cast<int>(sum[pick] / votes[pick]);
  }
  choice.move = to_iccs(candidates[pick]);
  choice.samples = samples;
  choice.samples_scored = candidates.size() > 1 ? complete : samples;
  choice.depth = results[0].depth;
  for (const SearchResult& r : results) choice.depth = std::min(choice.depth, r.depth);
  for (const auto& s : searchers) choice.nodes += s->nodes();
  return choice;
}

}  // namespace xq::engine
