// JSON forms of game configs and events, as stored in Redis and returned by the HTTP API.
// Contains the Jieqi secret: never send these strings to a client of a live game.
#pragma once
#include <string>

#include "game/game_session.h"

namespace gs {

std::string encode_config(const GameConfig& c);
GameConfig decode_config(const std::string& json);  // throws std::exception on bad input
std::string encode_event(const GameEvent& e);
GameEvent decode_event(const std::string& json);    // throws std::exception on bad input

// The archive record of a finished game: players, variant, ruleset, time control, moves with
// clock times, result and reason, Jieqi assignment + salt + commitment.
std::string archive_record(const GameSession& s);

}  // namespace gs
