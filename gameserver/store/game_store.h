// Durable storage of games in Redis (key schema: store/keys.h).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "game/game_session.h"
#include "store/redis.h"

namespace gs {

class GameStore {
 public:
  explicit GameStore(Redis& redis) : redis_(redis) {}

  void create(const GameConfig& c);  // meta + live set
  // Creates the game only if no game with this id exists (games requested by the matchmaker may be
  // requested twice). Returns false if it already existed.
  bool create_if_absent(const GameConfig& c);
  // Appends events (first.version must be the next version) and the snapshot, atomically.
  // Throws RedisError; then nothing was written.
  void append(const GameSession& s, const std::vector<GameEvent>& events);
  // Writes the archive record and moves the game from the live set to the finished set. A
  // tournament game's result is also appended to the results stream for the matchmaker (which
  // ignores a result it already has, so a repeated archive is harmless).
  void archive(const GameSession& s);
  std::vector<std::string> live_game_ids();
  // Rebuilds a live game by replaying its events. Throws on corrupt data.
  GameSession load(const std::string& id);
  std::optional<std::string> archived(const std::string& id);

 private:
  Redis& redis_;
};

}  // namespace gs
