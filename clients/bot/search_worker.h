// xqbot's search thread: one search at a time, in the order asked, so that the connection's thread
// never waits for the engine (it goes on reading, answering pings and other games). A search with
// others queued behind it gets a share of its time (time_budget_ms), so that many games at once
// do not run the bot's clocks down while each waits for the others.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "game_tracker.h"

namespace xqbot {

struct SearchJob {
  std::string game_id;
  uint32_t plies = 0;  // plies played before the move searched for
  std::string fen;     // the position as the bot sees it
  xq::Variant variant = xq::Variant::Xiangqi;
  std::vector<std::string> earlier_fens;
  // The thinking time is fixed when the search starts, from the clock as it was when asked
  // (a search that waited behind another has less time left).
  int64_t movetime_ms = 1000, remaining_ms = 0, increment_ms = 0;
  int max_depth = 0;  // 0: no bound but the time
  SteadyClock::time_point asked_at{};
  uint64_t seed = 0;
};

struct SearchResult {
  std::string game_id;
  uint32_t plies = 0;
  std::string fen;
  xq::engine::Choice choice;
  int64_t budget_ms = 0, elapsed_ms = 0;
  std::string error;  // the engine threw (a FEN it does not read): no move
};

class SearchWorker {
 public:
  // `done` runs on the worker thread: hand the result over to the thread that owns the games.
  explicit SearchWorker(std::function<void(SearchResult)> done);
  ~SearchWorker();  // finishes the running search, drops the queued ones
  void submit(SearchJob job);

 private:
  void run();
  std::function<void(SearchResult)> done_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<SearchJob> queue_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace xqbot
