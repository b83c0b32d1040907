#include "store/redis.h"

#include "store/redis_endpoint.h"
#include "store/resp_command.h"

#include <hiredis/hiredis.h>

#include <sys/time.h>

#include <algorithm>
#include <chrono>

namespace gs {

Redis::Redis(std::string url, size_t connections) : endpoint_(parse_redis_url(url)) {
  for (size_t i = 0; i < std::max<size_t>(1, connections); ++i) slots_.push_back(std::make_unique<Slot>());
}

Redis::~Redis() {
  for (auto& s : slots_)
    if (s->ctx) redisFree(s->ctx);
}

void Redis::connect_locked(Slot& slot) {
  if (slot.ctx && !slot.ctx->err) return;
  if (slot.ctx) redisFree(slot.ctx);
  slot.ctx = nullptr;
  slot.ctx = connect_redis(endpoint_, timeval{2, 0});
}

static RedisReply convert(const redisReply* r) {
  RedisReply out;
  switch (r->type) {
    case REDIS_REPLY_INTEGER: out.type = RedisReply::Type::Int; out.integer = r->integer; break;
    case REDIS_REPLY_STRING: out.type = RedisReply::Type::String; out.str.assign(r->str, r->len); break;
    case REDIS_REPLY_STATUS: out.type = RedisReply::Type::Status; out.str.assign(r->str, r->len); break;
    case REDIS_REPLY_ARRAY:
      out.type = RedisReply::Type::Array;
      for (size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
      break;
    default: out.type = RedisReply::Type::Nil;
  }
  return out;
}

static int64_t steady_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void Redis::note_away(int64_t now_ms) {
  int64_t none = 0;
  away_since_ms_.compare_exchange_strong(none, now_ms);
}

void Redis::note_back(int64_t now_ms) {
  if (const int64_t since = away_since_ms_.exchange(0); since != 0) away_total_ms_ += std::max<int64_t>(0, now_ms - since);
}

int64_t Redis::unavailable_ms() const {
  const int64_t since = away_since_ms_.load();
  return away_total_ms_.load() + (since != 0 ? std::max<int64_t>(0, steady_now_ms() - since) : 0);
}

void Redis::mark_unavailable() {
  const int64_t now = steady_now_ms();
  note_away(now);
  down_until_ms_ = now + kRetryMs;
}

bool Redis::known_unavailable() const {
  const int64_t until = down_until_ms_.load();
  return until != 0 && steady_now_ms() < until;
}

void Redis::for_each_key(const std::string& prefix, const std::function<void(const std::string&)>& each) {
  std::string cursor = "0";
  do {
    RedisReply page = command({"SCAN", cursor, "MATCH", prefix + "*", "COUNT", "1000"});
    if (page.elements.size() != 2) throw RedisError("SCAN: unexpected reply");
    cursor = page.elements[0].str;
    for (const RedisReply& key : page.elements[1].elements) each(key.str);
  } while (cursor != "0");
}

RedisReply Redis::command(const std::vector<std::string>& args) {
  // Circuit breaker: a hung Redis made every caller wait for its own timeouts, and since callers
  // are the I/O threads, the whole server stopped answering (pings included) while Redis hung.
  bool probe = false;
  if (const int64_t until = down_until_ms_.load(); until != 0) {
    bool idle = false;
    if (steady_now_ms() < until || !probing_.compare_exchange_strong(idle, true))
      throw RedisUnavailable("redis unavailable (retrying)");
    probe = true;
  }
  try {
    RedisReply r = command_pooled(args);
    if (probe) note_back(steady_now_ms()), down_until_ms_ = 0, probing_ = false;
    return r;
  } catch (const RedisUnavailable&) {
    const int64_t now = steady_now_ms();
    note_away(now);
    down_until_ms_ = now + kRetryMs;
    if (probe) probing_ = false;
    throw;
  } catch (...) {  // Redis answered (with an error)
    if (probe) note_back(steady_now_ms()), down_until_ms_ = 0, probing_ = false;
    throw;
  }
}

RedisReply Redis::command_pooled(const std::vector<std::string>& args) {
  // Take an idle connection if there is one; otherwise queue on one in turn.
  const size_t n = slots_.size(), start = next_.fetch_add(1) % n;
  for (size_t i = 0; i < n; ++i) {
    Slot& s = *slots_[(start + i) % n];
    std::unique_lock lock(s.mu, std::try_to_lock);
    if (lock.owns_lock()) return command_on(s, args);
  }
  Slot& s = *slots_[start];
  std::lock_guard lock(s.mu);
  return command_on(s, args);
}

RedisReply Redis::command_on(Slot& slot, const std::vector<std::string>& args) {
  redisContext*& ctx_ = slot.ctx;
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (auto& a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  // One retry: the first failure may just be a connection that went stale (Redis restarted). Not
  // after a timeout (Redis hangs: a second wait would not help) nor on a fresh connection.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const bool reused = ctx_ && !ctx_->err;
    connect_locked(slot);
    auto t0 = std::chrono::steady_clock::now();
    void* raw = nullptr;
    if (append_command(ctx_, argv.size(), argv.data(), lens.data())) redisGetReply(ctx_, &raw);
    auto* r = static_cast<redisReply*>(raw);
    if (observer_) observer_(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!r) {
      const std::string why = ctx_->errstr;
      const bool timed_out = ctx_->err == REDIS_ERR_IO && (why.find("temporarily unavailable") != std::string::npos ||
                                                           why.find("timed out") != std::string::npos);
      redisFree(ctx_);
      ctx_ = nullptr;
      if (attempt == 1 || timed_out || !reused) throw RedisUnavailable("redis connection lost: " + why);
      continue;
    }
    if (r->type == REDIS_REPLY_ERROR) {
      std::string msg(r->str, r->len);
      freeReplyObject(r);
      if (is_redirection(msg)) {  // not (or no longer) the master: find it again
        redisFree(ctx_);
        ctx_ = nullptr;
        throw RedisUnavailable("redis: " + msg);
      }
      throw RedisError("redis: " + msg);
    }
    RedisReply out = convert(r);
    freeReplyObject(r);
    return out;
  }
  throw RedisError("unreachable");
}

bool Redis::ping() {
  try {
    return command({"PING"}).str == "PONG";
  } catch (const RedisError&) {
    return false;
  }
}

}  // namespace gs
