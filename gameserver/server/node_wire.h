// Messages between game-server nodes over Redis pub/sub (channel xq:node:{node} for one node,
// xq:nodes for all). Pure encoding, no I/O. Binary-safe: every field is "<length>:<bytes>".
//
//   Request  origin → owner    a client's ClientMessage (bytes) with the authenticated user, the
//                              origin node and the origin connection id; the owner answers through
//                              a proxy connection whose frames come back as Frame messages.
//   Frame    owner → origin    one ServerMessage (bytes, already rendered for that viewer) for
//                              connection `conn` of the origin node.
//   Close    origin → owner    connection `conn` of the origin node is gone: drop its proxy.
//   Seeks    broadcast         the seek list changed: push it to local clients.
//   Notice   broadcast         a ServerMessage (bytes) for every local connection of `users`.
//   Admin    → owner           end game users[0] with outcome users[1] and reason users[2].
//   Ban      broadcast         close every local connection of users[0]; if that user is banned (not
//                              only disconnected), also end their live games held here.
//   Up       broadcast         node `from_node` (re)started: the proxies of its previous life are
//                              gone, so connections following its games subscribe again.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gs {

struct NodeMessage {
  enum class Kind : char { Request = 'R', Frame = 'F', Close = 'C', Seeks = 'S', Notice = 'N', Admin = 'A', Ban = 'B', Up = 'U' };
  Kind kind = Kind::Frame;
  std::string from_node;
  uint64_t conn = 0;
  std::string user_id, user_name;
  bool guest = true;
  int hops = 0;  // how often a Request was forwarded already (bounded against ping-pong)
  std::string payload;
  std::vector<std::string> users;
};

std::string encode(const NodeMessage& m);
std::optional<NodeMessage> decode_node_message(std::string_view bytes);  // nullopt if malformed

}  // namespace gs
