// A thread that takes everything queued while it was busy and handles it as one batch: the Redis
// writer threads (append_pipeline.h, publisher.h) write a whole batch of commands at once and then
// read their replies, so many games share one round trip.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gs {

template <class Item>
class BatchThread {
 public:
  using Handle = std::function<void(std::vector<Item>&)>;
  BatchThread(size_t max_batch, Handle handle) : max_batch_(max_batch), handle_(std::move(handle)) {
    thread_ = std::thread([this] { run(); });
  }
  ~BatchThread() { stop(); }
  BatchThread(const BatchThread&) = delete;
  BatchThread& operator=(const BatchThread&) = delete;

  void push(Item item) {
    {
      std::lock_guard l(mu_);
      queue_.push_back(std::move(item));
    }
    cv_.notify_one();
  }
  // Handles what is queued, then ends the thread. Idempotent.
  void stop() {
    {
      std::lock_guard l(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run() {
    std::vector<Item> batch;
    for (;;) {
      {
        std::unique_lock l(mu_);
        cv_.wait(l, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, nothing left
        while (!queue_.empty() && batch.size() < max_batch_) {
          batch.push_back(std::move(queue_.front()));
          queue_.pop_front();
        }
      }
      handle_(batch);
      batch.clear();
    }
  }
  const size_t max_batch_;
  const Handle handle_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace gs
