// What a game session keeps per ply: the heap a live game holds grows with its length, and a
// server holds thousands of live games. Run: build/bin/session_bench
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <memory>
#include <random>

#include "game/game_session.h"

using namespace gs;

// 300 seeded random games of up to 300 plies each, kept alive; the heap they hold (glibc's
// mallinfo2: bytes in use) divided by their plies.
static void BM_SessionHeapPerPly(benchmark::State& state) {
  double bytes_per_ply = 0;
  for (auto _ : state) {
    std::vector<std::unique_ptr<GameSession>> games;
    std::mt19937 rng(5);
    const size_t before = mallinfo2().uordblks;
    size_t plies = 0;
    for (int g = 0; g < 300; ++g) {
      GameConfig c;
      c.id = "g" + std::to_string(g);
      c.variant = xq::Variant::Xiangqi;
      c.tc = {3'600'000, 0};
      c.red = {"u-r", "r", false};
      c.black = {"u-b", "b", false};
      auto s = std::make_unique<GameSession>(c);
      s->start_clock(0);
      std::vector<GameEvent> out;
      Millis now = 0;
      while (!s->over() && s->plies() < 300) {
        const auto legal = s->rules_game().legal_moves();
        out.clear();
        s->move(s->rules_game().position().side_to_move(), xq::to_iccs(legal[rng() % legal.size()]),
                "lg-" + std::to_string(s->plies()), now += 10, 0, out);
      }
      plies += s->plies();
      games.push_back(std::move(s));
    }
    bytes_per_ply = static_cast<double>(mallinfo2().uordblks - before) / static_cast<double>(plies);
    benchmark::DoNotOptimize(games);
  }
  state.counters["bytes_per_ply"] = bytes_per_ply;
}
BENCHMARK(BM_SessionHeapPerPly)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
