// JSON forms of game configs and events, as stored in Redis and returned by the HTTP API.
// Contains the Jieqi secret: never send these strings to a client of a live game.
#pragma once
#include <string>

#include "game/chat.h"
#include "game/game_session.h"

namespace gs {

std::string encode_config(const GameConfig& c);
// A chat line as stored in the game's chat list (xq:game:{id}:chat). Decoding throws on a bad one.
std::string encode_chat(const ChatEntry& e);
ChatEntry decode_chat(const std::string& text);
GameConfig decode_config(const std::string& json);  // throws std::exception on bad input
std::string encode_event(const GameEvent& e);
GameEvent decode_event(const std::string& json);    // throws std::exception on bad input

// The archive record of a finished game: players, variant, ruleset, time control, moves with
// clock times, result and reason, Jieqi assignment + salt + commitment.
std::string archive_record(const GameSession& s);
// The same record, made faster for a live game that grows: while a game is not over each ply's
// entry never changes, so the entries already written are kept in `cache` and only the new plies
// are rendered (byte-identical to archive_record). Clear the cache when the game may have lost
// plies (a rollback). A finished game is always rebuilt in full.
struct RecordCache {
  size_t plies = 0;
  std::string moves;  // the JSON of the first `plies` entries of "moves", comma-separated
  uint64_t takeback_version = 0;  // the session's last takeback when the entries were made
};
std::string archive_record(const GameSession& s, RecordCache& cache);

}  // namespace gs
