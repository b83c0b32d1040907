// Lua functions for claiming and releasing a game's ownership (keys: store/keys.h), shared by the
// scripts that do only that (game_leases.cpp) and those that also create or archive the game
// (game_store.cpp). A script is these definitions followed by its own body.
#pragma once

namespace gs {

inline constexpr const char* kLeaseLuaFunctions = R"lua(
-- The claim holds while the owner's heartbeat lives: a living other owner keeps the game.
local function claim_game(owner_key, known_key, node, id, prefix)
  local cur = redis.call('GET', owner_key)
  if cur ~= node then
    if cur and redis.call('EXISTS', prefix .. cur .. ':alive') == 1 then return 0 end
    redis.call('SET', owner_key, node)
    if cur then redis.call('SREM', prefix .. cur .. ':games', id) end
  end
  redis.call('SADD', prefix .. node .. ':games', id)
  redis.call('SADD', known_key, node)
  return 1
end
local function release_game(owner_key, node, id, prefix)
  if redis.call('GET', owner_key) == node then redis.call('DEL', owner_key) end
  redis.call('SREM', prefix .. node .. ':games', id)
end
)lua";

}  // namespace gs
