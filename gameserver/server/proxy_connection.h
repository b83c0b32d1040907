// A connection of another node as seen by the node that owns a game: requests forwarded over
// Redis arrive "from" it, and what the game sends to it (already rendered for that viewer, so
// Jieqi secrecy is applied here, by the owner) is published back to the origin node, which writes
// the bytes to its socket. A proxy whose origin stops listening (PUBLISH reaches nobody: the node
// died) marks itself closed; the hub reaps it.
#pragma once
#include <atomic>
#include <iostream>

#include "server/connection.h"
#include "server/node_wire.h"
#include "store/keys.h"
#include "store/redis.h"

namespace gs {

// Proxy connection ids live far above the WebSocket sessions' ids.
inline constexpr uint64_t kProxyIdBase = uint64_t{1} << 62;
inline bool is_proxy_id(uint64_t id) { return id >= kProxyIdBase; }

class ProxyConnection : public Connection {
 public:
  ProxyConnection(uint64_t id, Redis& redis, std::string origin_node, uint64_t origin_conn)
      : Connection(id, "node:" + origin_node + "/" + std::to_string(origin_conn)),
        redis_(redis),
        origin_node_(std::move(origin_node)),
        origin_conn_(origin_conn) {}

  void send(std::string frame) override {
    if (closed_) return;
    NodeMessage m;
    m.kind = NodeMessage::Kind::Frame;
    m.conn = origin_conn_;
    m.payload = std::move(frame);
    try {
      if (redis_.command({"PUBLISH", keys::node_channel(origin_node_), encode(m)}).integer == 0) closed_ = true;
    } catch (const std::exception& e) {
      std::cerr << "proxy " << remote() << ": " << e.what() << '\n';
    }
  }
  void close() override { closed_ = true; }
  bool closed() const { return closed_; }
  const std::string& origin_node() const { return origin_node_; }
  uint64_t origin_conn() const { return origin_conn_; }

 private:
  Redis& redis_;
  const std::string origin_node_;
  const uint64_t origin_conn_;
  std::atomic<bool> closed_{false};
};

}  // namespace gs
