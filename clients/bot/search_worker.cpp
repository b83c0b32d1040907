#include "search_worker.h"

#include <exception>

namespace xqbot {

SearchWorker::SearchWorker(std::function<void(SearchResult)> done) : done_(std::move(done)), thread_([this] { run(); }) {}

SearchWorker::~SearchWorker() {
  {
    std::lock_guard l(mu_);
    stop_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  thread_.join();
}

void SearchWorker::submit(SearchJob job) {
  {
    std::lock_guard l(mu_);
    queue_.push_back(std::move(job));
  }
  cv_.notify_one();
}

void SearchWorker::run() {
  for (;;) {
    SearchJob job;
    int64_t waiting_behind = 0;
    {
      std::unique_lock l(mu_);
      cv_.wait(l, [this] { return stop_ || !queue_.empty(); });
      if (stop_) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      waiting_behind = static_cast<int64_t>(queue_.size());
    }
    const auto start = SteadyClock::now();
    const int64_t waited = std::chrono::duration_cast<std::chrono::milliseconds>(start - job.asked_at).count();
    SearchResult r;
    r.game_id = job.game_id;
    r.plies = job.plies;
    r.fen = job.fen;
    // The games queued behind this one wait on their clocks meanwhile: they share the time.
    r.budget_ms = time_budget_ms(job.movetime_ms, job.remaining_ms - waited, job.increment_ms, waiting_behind + 1);
    try {
      xq::engine::Limits limits;
      limits.movetime_ms = r.budget_ms;
      if (job.max_depth > 0) limits.max_depth = job.max_depth;
      r.choice = xq::engine::choose_move(job.variant, job.fen, job.earlier_fens, limits, job.seed);
    } catch (const std::exception& e) {
      r.error = e.what();
    }
    r.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - start).count();
    done_(std::move(r));
  }
}

}  // namespace xqbot
