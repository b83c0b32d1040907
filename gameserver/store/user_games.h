// A player's finished games, newest first (GET /api/users/{id}/games): short summaries made from
// the archived records, so a profile page lists them without loading every move.
#pragma once
#include <cstddef>
#include <string>

#include "store/redis.h"

namespace gs {

inline constexpr size_t kDefaultUserGamesLimit = 20;
inline constexpr size_t kMaxUserGamesLimit = 100;

// {"games": [{id, variant, ruleset, rated, event_id, initial_ms, increment_ms, red:{user_id, name},
//   black:{…}, result, reason, plies, ended_ms}], "total": N}
std::string user_games_json(Redis& redis, const std::string& user_id, size_t offset, size_t limit);

}  // namespace gs
