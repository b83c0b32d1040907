#include "server/node_link.h"

#include <hiredis/hiredis.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <iostream>

#include "server/hub.h"
#include "server/node_wire.h"
#include "store/keys.h"
#include "store/redis.h"
#include "store/redis_endpoint.h"

namespace gs {

NodeLink::NodeLink(Hub& hub, std::string redis_url, std::string node_id, int64_t tick_ms)
    : hub_(hub), redis_url_(std::move(redis_url)), node_id_(std::move(node_id)), tick_ms_(tick_ms) {}

NodeLink::~NodeLink() { stop(); }

void NodeLink::start() {
  listener_ = std::thread([this] { listen(); });
  // Other nodes may forward to this one as soon as it serves: be listening by then.
  for (int i = 0; i < 250 && !subscribed_; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  // The first tick before the node serves: its heartbeat must be up when its users sign in
  // (presence counts only for living nodes).
  try {
    hub_.tick();
  } catch (const std::exception& e) {
    std::cerr << "gameserver: node tick: " << e.what() << '\n';
  }
  ticker_ = std::thread([this] { tick_loop(); });
}

void NodeLink::stop() {
  stop_ = true;
  if (int fd = fd_.load(); fd >= 0) ::shutdown(fd, SHUT_RDWR);  // wakes the blocked subscriber
  if (listener_.joinable()) listener_.join();
  if (ticker_.joinable()) ticker_.join();
}

void NodeLink::tick_loop() {
  auto next = std::chrono::steady_clock::now();
  while (!stop_) {
    next += std::chrono::milliseconds(tick_ms_);
    // Sleep in small steps so stop() is quick.
    while (!stop_ && std::chrono::steady_clock::now() < next) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (stop_) break;
    const auto started = std::chrono::steady_clock::now();
    try {
      hub_.tick();
    } catch (const std::exception& e) {
      std::cerr << "gameserver: node tick: " << e.what() << '\n';
    }
    const auto took = std::chrono::steady_clock::now() - started;
    // A slow tick delays heartbeats, takeovers and the following of moved games: say so.
    if (took > std::chrono::milliseconds(tick_ms_))
      std::cerr << "node " << node_id_ << ": tick took "
                << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms\n";
    if (std::chrono::steady_clock::now() > next + std::chrono::milliseconds(tick_ms_)) next = std::chrono::steady_clock::now();
  }
}

void NodeLink::listen() {
  const RedisEndpoint endpoint = parse_redis_url(redis_url_);
  const std::string mine = keys::node_channel(node_id_);
  while (!stop_) {
    redisContext* ctx = nullptr;
    try {
      ctx = connect_redis(endpoint, timeval{1, 0});
    } catch (const RedisError&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      continue;
    }
    timeval no_timeout{0, 0};
    redisSetTimeout(ctx, no_timeout);
    redisEnableKeepAlive(ctx);  // a vanished Redis host would otherwise block this read for good
    fd_ = ctx->fd;
    if (stop_) ::shutdown(ctx->fd, SHUT_RDWR);
    if (auto* r = static_cast<redisReply*>(
            redisCommand(ctx, "SUBSCRIBE %b %b", mine.data(), mine.size(), keys::kNodesChannel.data(), keys::kNodesChannel.size()))) {
      freeReplyObject(r);
      subscribed_ = true;
    }
    while (!stop_) {
      void* raw = nullptr;
      if (redisGetReply(ctx, &raw) != REDIS_OK) break;
      auto* reply = static_cast<redisReply*>(raw);
      if (reply && reply->type == REDIS_REPLY_ARRAY && reply->elements == 3 && reply->element[2]->type == REDIS_REPLY_STRING &&
          std::string_view(reply->element[0]->str, reply->element[0]->len) == "message") {
        if (auto m = decode_node_message(std::string_view(reply->element[2]->str, reply->element[2]->len))) {
          try {
            hub_.on_node_message(*m);
          } catch (const std::exception& e) {
            std::cerr << "gameserver: node message: " << e.what() << '\n';
          }
        } else {
          std::cerr << "gameserver: malformed node message dropped\n";
        }
      }
      if (reply) freeReplyObject(reply);
    }
    fd_ = -1;
    redisFree(ctx);
    if (!stop_) std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
}

}  // namespace gs
