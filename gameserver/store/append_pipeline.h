// One writer thread that sends the games' appends to Redis in batches: it takes every append
// queued while the previous batch was in flight and sends them as few script calls (up to
// kPartsPerCall games each, pipelined), then reads the replies. A script call costs Redis about
// 10 µs before its first command, so one call per move spent more of Redis on calling than on
// storing. The io threads never wait for Redis on the move path; a game waits (on its strand,
// without blocking a thread) for its own append to complete before it acknowledges anything, so
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
  // not answer; the script's reason for refusing this part, e.g. "redis: NOT_OWNER"). Must be quick
  // (post the rest to a strand).
  using Done = std::function<void(std::exception_ptr)>;
  // One game's share of a script call: its keys and arguments, laid end to end with the others'.
  // The script answers with an array holding, per part in order, an integer (stored) or a string
  // (why not).
  struct Part {
    std::vector<std::string> keys, args;
  };
  static constexpr size_t kPartsPerCall = 64;

  // `script`: the Lua source (sent with EVAL when Redis lacks it: NOSCRIPT); must outlive this.
  AppendPipeline(Redis& redis, const char* script);
  // Destroying it sends what is still queued, then stops (batches_ is destroyed first).
  AppendPipeline(const AppendPipeline&) = delete;
  AppendPipeline& operator=(const AppendPipeline&) = delete;

  void submit(Part part, Done done);

 private:
  struct Item {
    Part part;
    Done done;
  };
  void process(std::vector<Item>& batch);
  Redis& redis_;
  const char* script_;
  const std::string sha_;
  WriterConnection conn_;  // writer thread only
  BatchThread<Item> batches_;  // last: its thread starts once the rest exists
};

}  // namespace gs
