// A small synchronous Redis client (hiredis) shared by threads: a few connections, each behind its
// own mutex and reconnected on demand, so several threads can wait on Redis at once (one connection
// behind one mutex capped the whole server at one round trip at a time). Calls are short (local
// Redis), so blocking a strand briefly is fine. A caller's successive commands complete in order
// because each call waits for its reply.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/redis_endpoint.h"

struct redisContext;

namespace gs {

struct RedisError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Redis did not answer (connection refused, lost, timed out, or known to be away): the command may
// or may not have run. A RedisError that is not a RedisUnavailable is Redis's own error reply.
struct RedisUnavailable : RedisError {
  using RedisError::RedisError;
};

// A reply flattened to what this server uses.
struct RedisReply {
  enum class Type { Nil, Int, String, Array, Status } type = Type::Nil;
  long long integer = 0;
  std::string str;
  std::vector<RedisReply> elements;
};

class Redis {
 public:
  // url: redis://host:port/db or redis-sentinel://host:port,…/master/db (store/redis_endpoint.h)
  explicit Redis(std::string url, size_t connections = 4);
  ~Redis();
  Redis(const Redis&) = delete;
  Redis& operator=(const Redis&) = delete;

  // Runs one command (binary-safe arguments). Throws RedisError on connection or command error.
  // After a connection failure Redis counts as away for kRetryMs: calls fail at once (no thread
  // waits on a dead or hung Redis); then one call at a time probes it until it answers.
  RedisReply command(const std::vector<std::string>& args);
  static constexpr int64_t kRetryMs = 300;
  bool ping();
  // Calls `each` with every key that starts with `prefix` (SCAN: never blocks Redis; a key added
  // meanwhile may or may not be seen). For one-off backfills at start, not for request paths.
  void for_each_key(const std::string& prefix, const std::function<void(const std::string&)>& each);
  // Called with the duration (seconds) of every round trip, e.g. to feed /metrics.
  void set_latency_observer(std::function<void(double)> f) { observer_ = std::move(f); }
  void observe_latency(double s) const {
    if (observer_) observer_(s);
  }
  const RedisEndpoint& endpoint() const { return endpoint_; }  // for connections of its own (pipelines)
  // Redis counts as away (as after a failed call): a connection of its own saw it fail or hang.
  void mark_unavailable();
  // Whether calls currently fail at once (Redis away and not yet due for a probe).
  bool known_unavailable() const;
  // Milliseconds (steady) Redis has counted as away in this process's life, the current absence
  // included: from the first failed call to the next answered one. Never decreases; games read it
  // to charge nobody for the time they could store no move.
  int64_t unavailable_ms() const;

 private:
  struct Slot {
    std::mutex mu;
    redisContext* ctx = nullptr;
  };
  void connect_locked(Slot& slot);
  RedisReply command_pooled(const std::vector<std::string>& args);
  RedisReply command_on(Slot& slot, const std::vector<std::string>& args);
  RedisEndpoint endpoint_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::atomic<size_t> next_{0};
  std::atomic<int64_t> down_until_ms_{0};  // steady ms; 0 = Redis answered last time
  std::atomic<int64_t> away_since_ms_{0};  // steady ms of the first failure of the current absence; 0 = none
  std::atomic<int64_t> away_total_ms_{0};  // absences that have ended
  void note_away(int64_t now_ms);
  void note_back(int64_t now_ms);
  std::atomic<bool> probing_{false};
  std::function<void(double)> observer_;
};

}  // namespace gs
