// Speed figures of the rules library (recorded in docs/benchmarks.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "rules/adjudication.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/jieqi.h"
#include "rules/notation.h"
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

// The label of every move of 40 random games (120 plies each), each a fresh label_move under CXA:
// Xiangqi (0) and Jieqi (1). Only repetitions and the nine-round rule ask for labels; this shows
// their spread, p50 to the slowest (positions full of checks, where the refutation search runs
// out of nodes). One iteration: the answers kept per thread would make a second one cheaper.
static void BM_LabelEveryMove(benchmark::State& state) {
  const Variant v = state.range(0) ? Variant::Jieqi : Variant::Xiangqi;
  std::vector<double> ms;
  for (auto _ : state) {
    std::mt19937_64 rng(7);
    for (int game = 0; game < 40; ++game) {
      Position pos = parse_fen(v == Variant::Jieqi ? kJieqiStartFen : kXiangqiStartFen, v);
      if (v == Variant::Jieqi) assign_from_pool(pos, rng());
      for (int ply = 0; ply < 120; ++ply) {
        MoveList list;
        pos.generate_legal(list);
        if (list.size == 0) break;
        const Move m = list.moves[rng() % list.size];
        const auto t0 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(label_move(pos, m, Ruleset::Cxa));
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        pos.make(m);
      }
    }
  }
  std::sort(ms.begin(), ms.end());
  state.counters["labels"] = static_cast<double>(ms.size());
  state.counters["p50_ms"] = ms[ms.size() / 2];
  state.counters["p99_ms"] = ms[ms.size() * 99 / 100];
  state.counters["p999_ms"] = ms[ms.size() * 999 / 1000];
  state.counters["slowest_ms"] = ms.back();
}
BENCHMARK(BM_LabelEveryMove)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);

// Two inputs the fuzzers found slow (docs/fuzzing.md): every move of a Jieqi position full of
// checks labelled (0), and a Xiangqi game from the start whose shuffles end in a repetition, played
// under CXA with the nine-round rule (1). One iteration each, for the same reason as above.
static void BM_FuzzedSlowInputs(benchmark::State& state) {
  double slowest = 0;
  for (auto _ : state) {
    if (state.range(0) == 0) {
      const Position pos = parse_fen("1p1k5/3A2B2/2nA5/4b2c1/5P1R1/P2r5/9/7a1/8r/1b2K4 w", Variant::Jieqi);
      MoveList list;
      pos.generate_legal(list);
      for (Move m : list) {
        const auto t0 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(label_move(pos, m, Ruleset::Cxa));
        slowest = std::max(slowest, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
    } else {
      RulesGame g(GameRules::defaults(Variant::Xiangqi), parse_fen(kXiangqiStartFen, Variant::Xiangqi));
      for (const char* m :
           {"a0a1", "a6a5", "b0c2", "c6c5", "a1b1", "a5a4", "g0i2", "a4a3", "c0e2", "a3a2", "b1i1", "i6i5", "b2b3",
            "g6g5", "i1c1", "e6e5", "c1f1", "i5i4", "h0g2", "c5c4", "e0e1", "c4c3", "f1f7", "g5g4", "e1d1", "g4f4",
            "d1e1", "f4e4", "e1d1", "e4f4", "d0e1", "a2a1", "i0i1", "a1a0", "d1d2", "a0b0", "e1d0", "b0a0", "d0e1",
            "a0b0", "e1d0", "b0a0", "d0e1"}) {
        const auto t0 = std::chrono::steady_clock::now();
        g.play(m);
        slowest = std::max(slowest, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      if (g.result().reason != "repetition_draw") state.SkipWithError("the fuzzed game no longer ends in a repetition");
    }
  }
  state.counters["slowest_ms"] = slowest;
}
BENCHMARK(BM_FuzzedSlowInputs)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
