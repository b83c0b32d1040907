// What a game session keeps per ply: the heap a live game holds grows with its length, and a
// server holds thousands of live games. What a takeback costs: it replays the game from the
// start. And what storing a move's event costs (its JSON for Redis, once a move). Run:
// build/bin/session_bench
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <memory>
#include <random>

#include "game/codec.h"
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

// A takeback agreed at ply 200 of a seeded random game (never ending early): propose, accept
// (the game rebuilt from its first 198 plies), then the two plies played again.
static void BM_TakebackAtPly200(benchmark::State& state) {
  GameConfig c;
  c.id = "tb";
  c.variant = xq::Variant::Xiangqi;
  c.tc = {3'600'000, 0};
  c.red = {"u-r", "r", false};
  c.black = {"u-b", "b", false};
  GameSession s(c);
  std::mt19937 rng(9);
  s.start_clock(0);
  std::vector<GameEvent> out;
  Millis now = 0;
  for (int tries = 0; s.plies() < 200; ++tries) {
    if (s.over()) s = GameSession(c), s.start_clock(0);
    const auto legal = s.rules_game().legal_moves();
    s.move(s.rules_game().position().side_to_move(), xq::to_iccs(legal[rng() % legal.size()]), "", now += 10, 0, out);
  }
  for (auto _ : state) {
    const std::string a = s.events()[s.version() - 2].iccs, b = s.events()[s.version() - 1].iccs;
    const xq::Color red = xq::Color::Red, black = xq::Color::Black;
    s.propose_takeback(red, now += 10, out);  // red to move: red's move and black's reply
    if (s.accept_takeback(black, now += 10, out) != Status::Ok || s.plies() != 198) state.SkipWithError("not taken back");
    s.move(red, a, "", now += 10, 0, out);
    s.move(black, b, "", now += 10, 0, out);
  }
}
BENCHMARK(BM_TakebackAtPly200)->Unit(benchmark::kMicrosecond);

// A move's event as the append script stores it.
static void BM_EncodeMoveEvent(benchmark::State& state) {
  GameEvent e;
  e.version = 123;
  e.kind = EventKind::Move;
  e.side = xq::Color::Black;
  e.red_ms = 1'234'567;
  e.black_ms = 1'198'004;
  e.at_ms = 1'764'950'000'123;
  e.iccs = "h9g7";
  e.client_move_id = "lg-122";
  e.lag_ms = 12;
  for (auto _ : state) benchmark::DoNotOptimize(encode_event(e));
}
BENCHMARK(BM_EncodeMoveEvent);

BENCHMARK_MAIN();
