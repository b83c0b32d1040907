// Pairing one round of a 1,000-player event (target < 1 s).
#include <benchmark/benchmark.h>

#include "pairing/swiss.h"
#include "pairing/tiebreaks.h"
#include "sim.h"

using namespace xq::pairing;
using namespace xq::pairing::test;

namespace {

// History of `played` rounds for n players (single games unless two_games).
Event history(int n, int played, bool two_games) {
  SimConfig c;
  c.players = n;
  c.rounds = played;
  c.games_per_round = two_games ? 2 : 1;
  c.seed = 42;
  c.withdraw_pct = 0;
  c.late_join_pct = 0;
  c.pause_pct = 0;
  Event ev;
  run_tournament(c, ev, [](const Event&, const PairingResult&) {});
  ev.settings.rounds = 9;
  return ev;
}

void BM_PairRound(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int played = static_cast<int>(state.range(1));
  const bool two = state.range(2) != 0;
  Event ev = history(n, played, two);
  for (auto _ : state) {
    PairingResult r = pair_round(ev);
    if (!r.ok) state.SkipWithError(r.error.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetLabel(std::to_string(n) + " players, round " + std::to_string(played + 1) +
                 (two ? ", two games" : ", one game"));
}

void BM_Standings(benchmark::State& state) {
  Event ev = history(static_cast<int>(state.range(0)), 7, false);
  ev.settings.tiebreaks = tiebreak_preset("jieqi");
  for (auto _ : state) benchmark::DoNotOptimize(compute_standings(ev));
}

}  // namespace

BENCHMARK(BM_PairRound)
    ->Args({1000, 1, 0})
    ->Args({1000, 3, 0})
    ->Args({1000, 6, 0})
    ->Args({1000, 3, 1})
    ->Args({1000, 6, 1})
    ->Args({100, 6, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK(BM_Standings)->Arg(1000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_MAIN();
