// The game server's side of the matchmaker link (streams described in gameserver/store/matchmaker_bus.h):
// takes "create game" requests from the xq:games:create stream (consumer group "gameservers", so
// each request goes to one node; creation is idempotent by game id) and forwards the matchmaker's
// live notices (pub/sub xq:mm:notify) to the connected players. Each loop runs on its own thread
// with its own Redis connection, because both block.
#pragma once
#include <atomic>
#include <string>
#include <thread>

namespace gs {

class Hub;

class MatchmakerBridge {
 public:
  MatchmakerBridge(Hub& hub, std::string redis_url, std::string node_id);
  ~MatchmakerBridge();
  void start();
  void stop();

 private:
  void consume_game_requests();
  void forward_notices();

  Hub& hub_;
  std::string redis_url_, node_id_;
  std::atomic<bool> stop_{false};
  std::atomic<int> notice_fd_{-1};  // the subscriber's socket, shut down by stop() to end its read
  std::thread requests_, notices_;
};

}  // namespace gs
