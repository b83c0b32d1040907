// A few threads for slow work that must not run on the io threads: a password hash (scrypt) costs
// about 40 ms of CPU, which on an io thread would stall every game served by it. Bounded: when the
// queue is full, try_post refuses and the caller answers "retry".
#pragma once
#include <sys/resource.h>
#include <unistd.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gs {

class WorkerPool {
 public:
  // nice > 0 lowers the threads' scheduling priority (Linux sets it per thread): on a busy machine
  // the io threads, which carry the moves, then get the CPU before this slow work does.
  WorkerPool(size_t threads, size_t max_queue, int nice = 0) : max_queue_(max_queue) {
    for (size_t i = 0; i < threads; ++i)
      threads_.emplace_back([this, nice] {
        if (nice != 0) setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), nice);  // best effort
        run();
      });
  }
  ~WorkerPool() { stop(); }
  // Refuses new work (try_post returns false), runs what is queued, joins the threads. Idempotent.
  // Pools whose tasks post to each other are stopped before either is destroyed (Hub::~Hub).
  void stop() {
    {
      std::lock_guard l(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_)
      if (t.joinable()) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  bool try_post(std::function<void()> fn) {
    {
      std::lock_guard l(mu_);
      if (stop_ || queue_.size() >= max_queue_) return false;
      queue_.push_back(std::move(fn));
    }
    cv_.notify_one();
    return true;
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> fn;
      {
        std::unique_lock l(mu_);
        cv_.wait(l, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;
        fn = std::move(queue_.front());
        queue_.pop_front();
      }
      fn();
    }
  }
  const size_t max_queue_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace gs
