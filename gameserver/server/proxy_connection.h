// A connection of another node as seen by the node that owns a game: requests forwarded over
// Redis arrive "from" it, and what the game sends to it (already rendered for that viewer, so
// Jieqi secrecy is applied here, by the owner) is published back to the origin node, which writes
// the bytes to its socket. A proxy whose origin stops listening (PUBLISH reaches nobody: the node
// died) marks itself closed; the hub reaps it. Frames go out through the node's Publisher, so the
// game's strand never waits for Redis.
#pragma once
#include <atomic>
#include <memory>

#include "server/connection.h"
#include "server/node_wire.h"
#include "store/keys.h"
#include "store/publisher.h"

namespace gs {

// Proxy connection ids live far above the WebSocket sessions' ids.
inline constexpr uint64_t kProxyIdBase = uint64_t{1} << 62;
inline bool is_proxy_id(uint64_t id) { return id >= kProxyIdBase; }

class ProxyConnection : public Connection {
 public:
  ProxyConnection(uint64_t id, Publisher& publisher, std::string origin_node, uint64_t origin_conn)
      : Connection(id, "node:" + origin_node + "/" + std::to_string(origin_conn)),
        publisher_(publisher),
        origin_node_(std::move(origin_node)),
        origin_conn_(origin_conn) {}

  void send(std::string frame) override {
    if (*closed_) return;
    NodeMessage m;
    m.kind = NodeMessage::Kind::Frame;
    m.conn = origin_conn_;
    m.payload = std::move(frame);
    publisher_.publish(keys::node_channel(origin_node_), encode(m), [closed = closed_](long long receivers) {
      if (receivers == 0) *closed = true;  // its node is gone (a Redis failure is no proof of that)
    });
  }
  void close() override { *closed_ = true; }
  bool closed() const { return *closed_; }
  const std::string& origin_node() const { return origin_node_; }
  uint64_t origin_conn() const { return origin_conn_; }

 private:
  Publisher& publisher_;
  const std::string origin_node_;
  const uint64_t origin_conn_;
  // Shared with the publish callbacks, which may run after the proxy is gone.
  std::shared_ptr<std::atomic<bool>> closed_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace gs
