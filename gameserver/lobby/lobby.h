// Open seeks and direct challenges (a challenge is a seek only its target can see and accept).
// Plain data structure; the hub serialises access.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "auth/user.h"
#include "game/clock.h"
#include "game/rule_options.h"
#include "rules/types.h"

namespace gs {

struct SeekSpec {
  xq::Variant variant = xq::Variant::Xiangqi;
  TimeControl tc;
  std::optional<xq::Color> color;  // the owner's colour; nullopt = random
  std::string ruleset = "cxa";
  std::string capture_visibility = "capturer";  // Jieqi only
  RuleOptions options;
  bool rated = false;
  int rating_min = 0, rating_max = 0;  // 0 = no bound on the taker's rating
};

struct SeekEntry {
  std::string id;
  User owner;
  SeekSpec spec;
  std::string target_user_id;  // non-empty: a challenge
  int owner_rating = 0;        // the owner's rating in the seek's variant when it was made; 0: a guest
  // The owner's client address block (net/client_address.h, limited_block), for the limit of open
  // seeks per address; "" when no such limit holds. Stored, never shown to anyone.
  std::string owner_block;
};

// A seek as stored in the shared seek hash (xq:seeks) so every node can list it; `node` is the node
// holding it (accepts are forwarded there). decode_seek: nullopt if malformed.
struct StoredSeek {
  SeekEntry seek;
  std::string node;
};
std::string encode_seek(const SeekEntry& s, const std::string& node);
std::optional<StoredSeek> decode_seek(const std::string& json);
bool seek_visible_to(const SeekEntry& s, const std::string& user_id);
// A challenge (a seek for one user) between these two players, whoever made it.
bool challenge_between(const SeekEntry& s, const std::string& a, const std::string& b);
// A user's seek list: the seeks visible to them, but at most `limit` — their own seeks and the
// challenges to them first, then the public ones in the order given — so that a lobby of
// thousands of open seeks does not send each of its users thousands of them, many times a
// second. Sets shown[i] for each listed seek; returns how many were visible in all.
size_t listed_seeks(const std::vector<SeekEntry>& seeks, const std::string& user_id, size_t limit,
                    std::vector<bool>& shown);

class Lobby {
 public:
  std::string add(const User& owner, SeekSpec spec, std::string target_user_id = "", int owner_rating = 0,
                  std::string owner_block = "");
  bool cancel(const std::string& id, const std::string& user_id);
  std::optional<SeekEntry> find(const std::string& id) const;
  // Removes and returns the seek if `taker` may accept it.
  std::optional<SeekEntry> take(const std::string& id, const std::string& taker_user_id);
  std::vector<SeekEntry> visible_to(const std::string& user_id) const;
  size_t remove_user(const std::string& user_id);  // owner went offline; returns seeks removed
  // Removes the user's open seeks (not its challenges): a game of theirs has started, and a seek
  // taken up now would start a second one. Returns their ids.
  std::vector<std::string> remove_open_seeks_of(const std::string& user_id);
  std::vector<SeekEntry> take_open_seeks_of(const std::string& user_id);  // the same, the seeks returned
  std::vector<std::string> ids() const;                                   // every seek held here
  bool remove(const std::string& id);
  // Removes this node's challenges between the two players (a game between them just started from
  // one of them: crossing rematch offers); returns their ids.
  std::vector<std::string> remove_challenges_between(const std::string& a, const std::string& b);
  size_t owned_by(const std::string& user_id) const;  // open seeks and challenges the user made
  size_t made_from(const std::string& block) const;   // ... those made from this address block ("" = none)
  void restore(const SeekEntry& e) { seeks_[e.id] = e; }  // undo take() when a game could not start

 private:
  std::map<std::string, SeekEntry> seeks_;
};

}  // namespace gs
