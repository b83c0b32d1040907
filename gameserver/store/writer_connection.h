// The hiredis connection of one writer thread (append_pipeline.h, publisher.h): its own, so a
// batch in flight never waits for the shared pool; made on first use and again after a failure.
#pragma once
#include <hiredis/hiredis.h>
#include <sys/time.h>

#include "store/redis.h"
#include "store/redis_endpoint.h"

namespace gs {

class WriterConnection {
 public:
  explicit WriterConnection(Redis& redis) : redis_(redis) {}
  ~WriterConnection() { drop(); }
  WriterConnection(const WriterConnection&) = delete;
  WriterConnection& operator=(const WriterConnection&) = delete;

  // The connection, made anew if there is none or the last one failed (then `fresh` = true).
  // Throws RedisError, and marks Redis unavailable for the other clients, if it cannot connect.
  redisContext* get(bool& fresh) {
    fresh = false;
    if (ctx_ && !ctx_->err) return ctx_;
    drop();
    try {
      ctx_ = connect_redis(redis_.endpoint(), timeval{2, 0});
    } catch (const RedisError&) {
      redis_.mark_unavailable();
      throw;
    }
    fresh = true;
    return ctx_;
  }
  void drop() {  // after a failure on it
    if (ctx_) redisFree(ctx_);
    ctx_ = nullptr;
  }

 private:
  Redis& redis_;
  redisContext* ctx_ = nullptr;
};

}  // namespace gs
