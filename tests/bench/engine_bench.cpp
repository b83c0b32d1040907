// Speed of the computer opponent's search (recorded in docs/engine.md).
#include <benchmark/benchmark.h>

#include "engine/engine.h"
#include "rules/fen.h"

using namespace xq;

// Time to complete depth N from the Xiangqi start (no time or node limit), and nodes per second.
static void BM_EngineXiangqiStartDepth(benchmark::State& state) {
  engine::Limits limits;
  limits.movetime_ms = 0;
  limits.max_depth = static_cast<int>(state.range(0));
  uint64_t nodes = 0;
  for (auto _ : state) {
    engine::Choice c = engine::choose_move(Variant::Xiangqi, kXiangqiStartFen, {}, limits, 1);
    benchmark::DoNotOptimize(c);
    nodes = c.nodes;
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_EngineXiangqiStartDepth)->Arg(5)->Arg(6)->Arg(7)->Unit(benchmark::kMillisecond);

// Jieqi start (all pieces face-down), 4 samples, depth N each.
static void BM_EngineJieqiStartDepth(benchmark::State& state) {
  engine::Limits limits;
  limits.movetime_ms = 0;
  limits.max_depth = static_cast<int>(state.range(0));
  uint64_t nodes = 0;
  for (auto _ : state) {
    engine::Choice c = engine::choose_move(Variant::Jieqi, kJieqiStartFen, {}, limits, 1);
    benchmark::DoNotOptimize(c);
    nodes = c.nodes;
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_EngineJieqiStartDepth)->Arg(4)->Arg(5)->Unit(benchmark::kMillisecond);

// Depth reached in one second from the Xiangqi start, as the bot plays by default.
static void BM_EngineXiangqiStartOneSecond(benchmark::State& state) {
  engine::Limits limits;
  limits.movetime_ms = 1000;
  int depth = 0;
  uint64_t nodes = 0;
  for (auto _ : state) {
    engine::Choice c = engine::choose_move(Variant::Xiangqi, kXiangqiStartFen, {}, limits, 1);
    depth = c.depth;
    nodes = c.nodes;
  }
  state.counters["depth"] = depth;
  state.counters["nodes"] = static_cast<double>(nodes);
}
BENCHMARK(BM_EngineXiangqiStartOneSecond)->Iterations(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
