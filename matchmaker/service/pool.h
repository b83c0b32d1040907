// Quick pairing: players waiting in a pool (variant + time control) are matched by rating
// closeness. The acceptable gap widens with waiting time; among acceptable pairs the matching
// pairs as many players as possible with the smallest total rating gap (a minimum-cost matching).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace xq::mm {

struct PoolEntry {
  std::string user_id;
  int rating = 1500;
  int64_t joined_ms = 0;
  // Not to be paired with this player for now: their last pool game together was aborted (one
  // aborting at once would otherwise be paired with the same player again and again).
  std::string avoid = {};
};

struct PoolPolicy {
  int base_gap = 100;           // rating gap accepted at once
  int widen_per_second = 20;    // extra gap per second waited
  int max_gap = 1000;           // never pair further apart than this
};

// Gap a player accepts after waiting since joined_ms.
int acceptable_gap(const PoolEntry& e, int64_t now_ms, const PoolPolicy& policy);

struct PoolPair {
  std::string red, black;  // the longer-waiting player first (deterministic; the service then draws the colours)
};

// Pure: the same entries, time and policy give the same pairs. Unpaired players stay waiting.
std::vector<PoolPair> match_pool(const std::vector<PoolEntry>& entries, int64_t now_ms, const PoolPolicy& policy = {});

}  // namespace xq::mm
