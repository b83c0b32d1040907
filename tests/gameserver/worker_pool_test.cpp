// WorkerPool: the bounded queue of slow work kept off the io threads, and the niceness its threads
// run at.
#include "server/worker_pool.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <vector>

namespace {

int own_thread_nice() { return getpriority(PRIO_PROCESS, static_cast<id_t>(gettid())); }

TEST(WorkerPool, RunsEveryTaskOfOneThreadInOrder) {
  std::vector<int> seen;
  {
    gs::WorkerPool pool(1, 100);
    for (int i = 0; i < 50; ++i) ASSERT_TRUE(pool.try_post([&seen, i] { seen.push_back(i); }));
  }  // the destructor runs what is queued
  ASSERT_EQ(seen.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(seen[i], i);
}

TEST(WorkerPool, RefusesWorkBeyondItsQueueAndAfterStop) {
  gs::WorkerPool pool(1, 2);
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  std::promise<void> started;
  ASSERT_TRUE(pool.try_post([gate, &started] {
    started.set_value();
    gate.wait();
  }));
  started.get_future().wait();  // the thread is busy; the queue is empty
  EXPECT_TRUE(pool.try_post([] {}));
  EXPECT_TRUE(pool.try_post([] {}));
  EXPECT_FALSE(pool.try_post([] {})) << "a third queued task exceeds max_queue 2";
  release.set_value();
  pool.stop();
  EXPECT_FALSE(pool.try_post([] {}));
  pool.stop();  // idempotent
}

TEST(WorkerPool, ThreadsRunAtTheNicenessAskedFor) {
  const int base = own_thread_nice();
  std::atomic<int> seen_default{-100}, seen_lowered{-100};
  {
    gs::WorkerPool plain(1, 4);
    gs::WorkerPool lowered(1, 4, 7);
    ASSERT_TRUE(plain.try_post([&] { seen_default = own_thread_nice(); }));
    ASSERT_TRUE(lowered.try_post([&] { seen_lowered = own_thread_nice(); }));
  }
  EXPECT_EQ(seen_default.load(), base);
  EXPECT_EQ(seen_lowered.load(), 7) << "the niceness is absolute, as setpriority sets it";
  EXPECT_EQ(own_thread_nice(), base) << "only the pool's own threads are lowered";
}

}  // namespace
