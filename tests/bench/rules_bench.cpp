// Speed figures of the rules library (recorded in docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/jieqi.h"
#include "rules/perft.h"

using namespace xq;

static void BM_PerftXiangqiStart(benchmark::State& state) {
  Position p = parse_fen(kXiangqiStartFen, Variant::Xiangqi);
  const int depth = static_cast<int>(state.range(0));
  uint64_t nodes = 0;
  for (auto _ : state) benchmark::DoNotOptimize(nodes = perft(p, depth));
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_PerftXiangqiStart)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

// A deterministic 200-ply game of random legal moves (restarted if it ends early), so the
// benchmark measures what the server does per move: legality, make, mate/stalemate test,
// repetition lookup, move limit, dead material, notation.
static std::vector<std::string> random_game(Variant v, int plies, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (;;) {
    Position start = v == Variant::Jieqi ? parse_fen(kJieqiStartFen, v) : parse_fen(kXiangqiStartFen, v);
    if (v == Variant::Jieqi) assign_from_pool(start, rng());
    GameRules rules = GameRules::defaults(v);
    rules.move_limit_plies = 0;
    RulesGame g(rules, start);
    std::vector<std::string> moves;
    while (static_cast<int>(moves.size()) < plies && !g.result().over()) {
      auto legal = g.legal_moves();
      Move m = legal[rng() % legal.size()];
      moves.push_back(to_iccs(m));
      g.play(m);
    }
    if (static_cast<int>(moves.size()) == plies) return moves;
  }
}

static void BM_Play200PlyGame(benchmark::State& state) {
  const Variant v = state.range(0) ? Variant::Jieqi : Variant::Xiangqi;
  auto moves = random_game(v, 200, 42);
  Position start = v == Variant::Jieqi ? parse_fen(kJieqiStartFen, v) : parse_fen(kXiangqiStartFen, v);
  if (v == Variant::Jieqi) {
    std::mt19937_64 rng(42);
    assign_from_pool(start, rng());
  }
  GameRules rules = GameRules::defaults(v);
  rules.move_limit_plies = 0;
  for (auto _ : state) {
    RulesGame g(rules, start);
    for (const auto& m : moves) g.play(m);
    benchmark::DoNotOptimize(g.result());
  }
  state.counters["time/move"] = benchmark::Counter(static_cast<double>(moves.size()),
                                                 benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Play200PlyGame)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// A move that completes a third repetition: labelling the 8-ply window and judging it (spec F1,
// a cannon chasing a rook), i.e. the worst case of one move's adjudication.
static void BM_JudgeRepetitionWindow(benchmark::State& state) {
  const char* fen = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w";
  const std::vector<std::string> moves = {"c2a2", "a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2", "b7a7", "b2a2"};
  Position start = parse_fen(fen, Variant::Xiangqi);
  for (auto _ : state) {
    RulesGame g(GameRules::defaults(Variant::Xiangqi), start);
    for (const auto& m : moves) g.play(m);
    benchmark::DoNotOptimize(g.result());
    if (!g.result().over()) state.SkipWithError("the repetition did not end the game");
  }
}
BENCHMARK(BM_JudgeRepetitionWindow)->Unit(benchmark::kMillisecond);

// Whole games of uniformly random legal moves (200 Xiangqi games, fixed seed, at most 600 plies),
// without (0) and with (1) CXA's nine-round rule: what the rule costs per ply on average, and the
// slowest single ply (random play hangs pieces everywhere, the labels' worst case).
static void BM_RandomGamesNineRounds(benchmark::State& state) {
  GameRules rules = GameRules::defaults(Variant::Xiangqi);
  rules.adjudication.cxa_nine_round_cycles = state.range(0) != 0;
  const Position start = parse_fen(kXiangqiStartFen, Variant::Xiangqi);
  double plies = 0, worst_ms = 0;
  for (auto _ : state) {
    std::mt19937_64 rng(7);
    for (int game = 0; game < 200; ++game) {
      RulesGame g(rules, start);
      while (!g.result().over() && g.moves().size() < 600) {
        auto legal = g.legal_moves();
        const auto t0 = std::chrono::steady_clock::now();
        g.play(legal[rng() % legal.size()]);
        worst_ms = std::max(worst_ms, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        ++plies;
      }
    }
  }
  state.counters["time/ply"] = benchmark::Counter(plies, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["worst_ply_ms"] = worst_ms;
}
BENCHMARK(BM_RandomGamesNineRounds)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
