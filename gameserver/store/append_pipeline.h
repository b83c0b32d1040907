// One writer thread that sends the games' appends to Redis in batches (pipelining): it takes every
// append queued while the previous batch was in flight, writes them all, then reads their replies.
// The io threads never wait for Redis on the move path; a game waits (on its strand, without
// blocking a thread) for its own append to complete before it acknowledges anything, so
// "acknowledged => in Redis" holds. Appends of one game never overlap (the actor has at most one
// in flight), so their order is the order of submission.
#pragma once
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "store/batch_thread.h"
#include "store/writer_connection.h"

namespace gs {


class AppendPipeline {
 public:
  // Called on the writer thread: nullptr = done; else a RedisError (RedisUnavailable when Redis did
  // not answer). Must be quick (post the rest to a strand).
  using Done = std::function<void(std::exception_ptr)>;

  explicit AppendPipeline(Redis& redis);
  // Destroying it sends what is still queued, then stops (batches_ is destroyed first).
  AppendPipeline(const AppendPipeline&) = delete;
  AppendPipeline& operator=(const AppendPipeline&) = delete;

  // An EVALSHA command; `script` is its source, sent with EVAL when Redis lacks it (NOSCRIPT).
  void submit(std::vector<std::string> evalsha, const char* script, Done done);

 private:
  struct Item {
    std::vector<std::string> cmd;
    const char* script;
    Done done;
  };
  void process(std::vector<Item>& batch);
  Redis& redis_;
  WriterConnection conn_;  // writer thread only
  BatchThread<Item> batches_;  // last: its thread starts once the rest exists
};

}  // namespace gs
