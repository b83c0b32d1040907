#include "store/append_pipeline.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <chrono>
#include <cstring>

#include "store/lua_script.h"
#include "store/redis.h"
#include "store/redis_endpoint.h"
#include "store/resp_command.h"

namespace gs {

AppendPipeline::AppendPipeline(Redis& redis, const char* script)
    : redis_(redis), script_(script), sha_(script_sha1(script)), conn_(redis),
      batches_(1024, [this](std::vector<Item>& batch) { process(batch); }) {}  // bounded: replies come back soon

void AppendPipeline::submit(Part part, Done done) { batches_.push(Item{std::move(part), std::move(done)}); }

void AppendPipeline::process(std::vector<Item>& batch) {
  const size_t n = batch.size();
  std::vector<std::exception_ptr> result(n);
  std::vector<size_t> todo(n);
  for (size_t i = 0; i < n; ++i) todo[i] = i;
  bool lost_before = false, use_eval = false;
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
  // the calls whose script Redis did not have (then with EVAL).
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
    // Calls of up to kPartsPerCall parts each, in order: calls[c] holds todo[calls[c]..calls[c+1]).
    const bool sent_with_eval = use_eval;
    std::vector<size_t> calls;
    std::vector<const char*> argv;
    std::vector<size_t> lens;
    for (size_t from = 0; from < todo.size(); from += kPartsPerCall) {
      const size_t to = std::min(todo.size(), from + kPartsPerCall);
      calls.push_back(from);
      argv.clear();
      lens.clear();
      size_t keys = 0;
      for (size_t k = from; k < to; ++k) keys += batch[todo[k]].part.keys.size();
      const std::string numkeys = std::to_string(keys);
      argv.push_back(sent_with_eval ? "EVAL" : "EVALSHA"), lens.push_back(std::strlen(argv.back()));
      argv.push_back(sent_with_eval ? script_ : sha_.c_str()), lens.push_back(sent_with_eval ? std::strlen(script_) : sha_.size());
      argv.push_back(numkeys.c_str()), lens.push_back(numkeys.size());
      for (size_t k = from; k < to; ++k)
        for (const auto& key : batch[todo[k]].part.keys) argv.push_back(key.data()), lens.push_back(key.size());
      for (size_t k = from; k < to; ++k)
        for (const auto& arg : batch[todo[k]].part.args) argv.push_back(arg.data()), lens.push_back(arg.size());
      append_command(ctx, argv.size(), argv.data(), lens.data());
    }
    calls.push_back(todo.size());
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<size_t> again;
    bool lost = false, drop = false;
    size_t answered = 0;
    for (size_t c = 0; c + 1 < calls.size(); ++c) {
      const size_t from = calls[c], to = calls[c + 1];
      auto fail_all = [&](std::exception_ptr e) {
        for (size_t k = from; k < to; ++k) result[todo[k]] = e;
      };
      void* raw = nullptr;
      if (lost || redisGetReply(ctx, &raw) != REDIS_OK || !raw) {
        lost = true;
        for (size_t k = from; k < to; ++k) again.push_back(todo[k]);
        continue;
      }
      answered += to - from;
      auto* r = static_cast<redisReply*>(raw);
      if (r->type == REDIS_REPLY_ERROR) {
        std::string msg(r->str, r->len);
        if (msg.rfind("NOSCRIPT", 0) == 0 && !sent_with_eval) {
          use_eval = true;
          for (size_t k = from; k < to; ++k) again.push_back(todo[k]);
        } else if (is_redirection(msg)) {  // not (or no longer) the master: find it again
          drop = true;
          fail_all(std::make_exception_ptr(RedisUnavailable("redis: " + msg)));
        } else {
          fail_all(std::make_exception_ptr(RedisError("redis: " + msg)));
        }
      } else if (r->type != REDIS_REPLY_ARRAY || r->elements != to - from) {
        fail_all(std::make_exception_ptr(RedisError("redis: unexpected reply to the append script")));
      } else {
        for (size_t k = from; k < to; ++k) {
          const redisReply* e = r->element[k - from];
          if (e->type == REDIS_REPLY_STRING || e->type == REDIS_REPLY_STATUS)
            result[todo[k]] = std::make_exception_ptr(RedisError("redis: " + std::string(e->str, e->len)));
          else if (e->type != REDIS_REPLY_INTEGER)
            result[todo[k]] = std::make_exception_ptr(RedisError("redis: unexpected reply to the append script"));
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
