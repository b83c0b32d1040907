// The accounts an admin marked as computer players (Redis set xq:bots, Auth::set_bot), for the seek
// lists: those are rendered many times a second, so the set is read at most once a second. A mark
// therefore shows on every node's lists within a second, on seeks made before it too.
#pragma once
#include <cstdint>
#include <mutex>
#include <set>
#include <string>

namespace gs {

class Redis;

class BotIds {
 public:
  explicit BotIds(Redis& redis) : redis_(redis) {}
  bool contains(const std::string& user_id);

 private:
  Redis& redis_;
  std::mutex mu_;
  std::set<std::string> ids_;
  int64_t read_at_ms_ = -1;  // steady clock; -1: never read
};

}  // namespace gs
