// Tries counted per time window in Redis, the same on every node: password guesses, new accounts
// and join codes per client address. A try takes its place before the work it guards (a password
// hash, a matchmaker round trip) in one script, so simultaneous tries on many sockets cannot all
// pass a check made before any of them counted; one that turns out not to count gives it back.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "store/redis.h"

namespace gs {

// One place in each counter's window if every counter is below its limit (a window starts with its
// counter's first try); false = refused, nothing taken. Throws RedisError.
bool take_places(Redis& redis, const std::vector<std::string>& counters, const std::vector<int>& limits, int64_t window_ms);
// Gives back what take_places took (never throws; a window that ended meanwhile is left alone).
void give_back_places(Redis& redis, const std::vector<std::string>& counters);

}  // namespace gs
