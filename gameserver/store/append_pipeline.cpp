#include "store/append_pipeline.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <chrono>
#include <cstring>

#include "store/redis.h"
#include "store/redis_endpoint.h"

namespace gs {

AppendPipeline::AppendPipeline(Redis& redis)
    : redis_(redis), conn_(redis), batches_(1024, [this](std::vector<Item>& batch) { process(batch); }) {}  // bounded: replies come back soon

void AppendPipeline::submit(std::vector<std::string> evalsha, const char* script, Done done) {
  batches_.push(Item{std::move(evalsha), script, std::move(done)});
}

void AppendPipeline::process(std::vector<Item>& batch) {
  const size_t n = batch.size();
  std::vector<std::exception_ptr> result(n);
  std::vector<bool> use_eval(n, false);
  std::vector<size_t> todo(n);
  for (size_t i = 0; i < n; ++i) todo[i] = i;
  bool lost_before = false;
  // Redis known to be away (this writer or another client saw it fail moments ago): fail at once
  // rather than make every game wait out a timeout again; a later batch probes.
  if (redis_.known_unavailable()) {
    for (size_t i = 0; i < n; ++i) {
      try {
        batch[i].done(std::make_exception_ptr(RedisUnavailable("redis unavailable (retrying)")));
      } catch (...) {
      }
    }
    return;
  }
  // Rounds: the first send; again after a lost connection (once, like Redis::command) and for
  // the commands whose script Redis did not have (then with EVAL).
  for (int round = 0; round < 4 && !todo.empty(); ++round) {
    bool fresh = false;  // a connection made for this round (a failure on it is not a stale one)
    redisContext* ctx = nullptr;
    try {
      ctx = conn_.get(fresh);
    } catch (const RedisError& e) {
      for (size_t i : todo) result[i] = std::make_exception_ptr(RedisUnavailable(e.what()));
      todo.clear();
      break;
    }
    std::vector<const char*> argv;
    std::vector<size_t> lens;
    for (size_t i : todo) {
      const auto& cmd = batch[i].cmd;
      argv.clear();
      lens.clear();
      for (size_t a = 0; a < cmd.size(); ++a) {
        if (use_eval[i] && a == 0) argv.push_back("EVAL"), lens.push_back(4);
        else if (use_eval[i] && a == 1) argv.push_back(batch[i].script), lens.push_back(std::strlen(batch[i].script));
        else argv.push_back(cmd[a].data()), lens.push_back(cmd[a].size());
      }
      redisAppendCommandArgv(ctx, static_cast<int>(argv.size()), argv.data(), lens.data());
    }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<size_t> again;
    bool lost = false, drop = false;
    size_t answered = 0;
    for (size_t i : todo) {
      void* raw = nullptr;
      if (lost || redisGetReply(ctx, &raw) != REDIS_OK || !raw) {
        lost = true;
        again.push_back(i);
        continue;
      }
      ++answered;
      auto* r = static_cast<redisReply*>(raw);
      if (r->type == REDIS_REPLY_ERROR) {
        std::string msg(r->str, r->len);
        if (msg.rfind("NOSCRIPT", 0) == 0 && !use_eval[i]) {
          use_eval[i] = true;
          again.push_back(i);
        } else if (msg.rfind("READONLY", 0) == 0) {  // a master demoted by a failover: find the new one
          drop = true;
          result[i] = std::make_exception_ptr(RedisUnavailable("redis: " + msg));
        } else {
          result[i] = std::make_exception_ptr(RedisError("redis: " + msg));
        }
      }
      freeReplyObject(r);
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (size_t k = 0; k < answered; ++k) redis_.observe_latency(s);
    // A timeout means Redis hangs (a second wait would not help); a fresh connection that fails is
    // no stale one: neither is retried, and Redis counts as away for the other clients too.
    const bool timed_out = lost && ctx->err == REDIS_ERR_IO &&
                           (std::strstr(ctx->errstr, "temporarily unavailable") || std::strstr(ctx->errstr, "timed out"));
    if (lost || drop) {
      conn_.drop();
    }
    if (lost && (lost_before || timed_out || fresh)) {
      redis_.mark_unavailable();
      for (size_t i : again) result[i] = std::make_exception_ptr(RedisUnavailable("redis connection lost"));
      again.clear();
    }
    lost_before = lost_before || lost;
    todo = std::move(again);
  }
  for (size_t i : todo) result[i] = std::make_exception_ptr(RedisUnavailable("redis: append not completed"));
  for (size_t i = 0; i < n; ++i) {
    try {
      batch[i].done(result[i]);
    } catch (...) {
    }
  }
}

}  // namespace gs
