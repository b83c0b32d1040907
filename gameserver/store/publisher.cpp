#include "store/publisher.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <iostream>

#include "store/redis.h"
#include "store/redis_endpoint.h"
#include "store/resp_command.h"

namespace gs {

Publisher::Publisher(Redis& redis) : redis_(redis), conn_(redis), batches_(1024, [this](std::vector<Item>& batch) { process(batch); }) {}

void Publisher::publish(std::string channel, std::string message, Done done) {
  batches_.push(Item{std::move(channel), std::move(message), std::move(done)});
}

void Publisher::process(std::vector<Item>& batch) {
  std::vector<long long> receivers(batch.size(), -1);
  size_t from = 0;  // the first message without a reply
  // Two rounds: a connection found dead before any reply (Redis restarted since the last batch)
  // is replaced and the batch sent again; Redis never read those messages.
  for (int round = 0; round < 2 && from < batch.size(); ++round) {
    if (redis_.known_unavailable()) break;  // fail fast; a later batch probes again
    bool fresh = false;
    redisContext* ctx = nullptr;
    try {
      ctx = conn_.get(fresh);
    } catch (const RedisError& e) {
      std::cerr << "publisher: " << e.what() << '\n';
      break;
    }
    for (size_t i = from; i < batch.size(); ++i) {
      const char* argv[3] = {"PUBLISH", batch[i].channel.data(), batch[i].message.data()};
      const size_t lens[3] = {7, batch[i].channel.size(), batch[i].message.size()};
      append_command(ctx, 3, argv, lens);
    }
    const size_t sent_from = from;
    for (; from < batch.size(); ++from) {
      void* raw = nullptr;
      if (redisGetReply(ctx, &raw) != REDIS_OK || !raw) break;
      auto* r = static_cast<redisReply*>(raw);
      receivers[from] = r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
      freeReplyObject(r);
    }
    if (from == batch.size()) break;
    std::cerr << "publisher: " << (ctx->errstr[0] ? ctx->errstr : "no reply") << '\n';
    conn_.drop();
    if (fresh || from != sent_from) {  // a new connection failed, or Redis read part of the batch
      redis_.mark_unavailable();
      break;
    }
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    if (!batch[i].done) continue;
    try {
      batch[i].done(receivers[i]);
    } catch (...) {
    }
  }
}

}  // namespace gs
