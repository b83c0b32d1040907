// Which users are connected to which node, so a direct challenge can reach a user on any node.
// Each node keeps a hash of its users (xq:node:{node}:online); entries change when a user's first
// connection to the node signs in and when the last one closes, not every tick. A hash counts only
// while its node's heartbeat lives (store/game_store.h), so a crashed node's users drop out with it.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/redis.h"

namespace gs {

class Presence {
 public:
  Presence(Redis& redis, std::string node_id) : redis_(redis), node_(std::move(node_id)) {}
  void add(const std::string& name, const std::string& user_id);
  // The user left this node: its entry goes, and its name reservation with it (the name is free).
  void remove(const std::string& name, const std::string& user_id);
  // Makes the hash the users `connected` returns (name → id): a start clears a previous life's
  // entries, and a periodic resync heals a sign-in racing its user's last close.
  void resync(const std::function<std::map<std::string, std::string>()>& connected);
  // Reserves a guest name for this guest for a few seconds, until its presence entry shows it:
  // false when another guest reserved it first (two sign-ins of one name at once, on two nodes).
  bool claim_guest_name(const std::string& name, const std::string& user_id);
  // The id of the user with this name if connected to a living node.
  std::optional<std::string> find(const std::string& name);
  struct OnlineUser {
    std::string node, name, user_id;
  };
  // The users signed in on the other living nodes (for the admin's view of a whole deployment).
  std::vector<OnlineUser> elsewhere();
  // Which of these users (id → name) are signed in on any living node now (the matchmaker pairs
  // only them).
  static std::set<std::string> online(Redis& redis, const std::map<std::string, std::string>& names);

 private:
  Redis& redis_;
  std::string node_;
};

}  // namespace gs
