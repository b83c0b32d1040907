// A small synchronous Redis client (hiredis) shared by threads: one connection behind a mutex,
// reconnected on demand. Calls are short (local Redis), so blocking a strand briefly is fine.
#pragma once
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct redisContext;

namespace gs {

struct RedisError : std::runtime_error {
  using std::runtime_error::runtime_error;
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
  // url: redis://host:port/db
  explicit Redis(std::string url);
  ~Redis();
  Redis(const Redis&) = delete;
  Redis& operator=(const Redis&) = delete;

  // Runs one command (binary-safe arguments). Throws RedisError on connection or command error.
  RedisReply command(const std::vector<std::string>& args);
  bool ping();
  // Called with the duration (seconds) of every round trip, e.g. to feed /metrics.
  void set_latency_observer(std::function<void(double)> f) { observer_ = std::move(f); }

 private:
  void connect_locked();
  std::string host_;
  int port_ = 6379;
  int db_ = 0;
  std::mutex mu_;
  redisContext* ctx_ = nullptr;
  std::function<void(double)> observer_;
};

}  // namespace gs
