// This node's link to the other game-server nodes (docs/ARCHITECTURE.md, "Several nodes"): a
// subscriber thread on xq:node:{me} and xq:nodes hands every message to the hub, and a ticker
// thread calls Hub::tick() (heartbeat, takeover of dead nodes' games, reaping of dead
// proxies). Both run on threads of their own because they block; the hub is thread-safe.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

namespace gs {

class Hub;

class NodeLink {
 public:
  NodeLink(Hub& hub, std::string redis_url, std::string node_id, int64_t tick_ms);
  ~NodeLink();
  void start();  // returns once subscribed (or after 5 s without Redis)
  void stop();

 private:
  void listen();
  void tick_loop();

  Hub& hub_;
  std::string redis_url_, node_id_;
  int64_t tick_ms_;
  std::atomic<bool> stop_{false};
  std::atomic<int> fd_{-1};
  std::atomic<bool> subscribed_{false};
  std::thread listener_, ticker_;
};

}  // namespace gs
