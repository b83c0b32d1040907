#include <benchmark/benchmark.h>

#include "rules/fen.h"
#include "rules/perft.h"

static void BM_PerftStartDepth4(benchmark::State& state) {
  xq::Position p = xq::parse_fen(xq::kXiangqiStartFen, xq::Variant::Xiangqi);
  for (auto _ : state) benchmark::DoNotOptimize(xq::perft(p, 4));
}
BENCHMARK(BM_PerftStartDepth4)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
