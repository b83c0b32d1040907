// Tournament ⇄ JSON (Boost.JSON): the form a tournament is stored in Redis and served by the API.
#pragma once
#include <boost/json/value.hpp>
#include <string>

#include "tournament.h"

namespace xq::mm {

boost::json::value to_json(const Tournament& t);
Tournament tournament_from_json(const boost::json::value& v);  // throws std::exception on bad input
// Event settings as sent by an organiser (all optional but id/name); throws TournamentError.
EventConfig config_from_json(const boost::json::value& v);
boost::json::value config_to_json(const EventConfig& c);
// Standings with every tiebreak column, for the API and the web client.
boost::json::value standings_json(const Tournament& t);
// What anyone may read of an event (no join code, no internal bookkeeping): config, stage,
// players with user ids and pairing numbers, rounds with boards, results and explain lines, game
// slots, play-off.
boost::json::value public_json(const Tournament& t);
// Per player and round: opponent (player id, -2 bye, -1 not paired), colour of game 1, points.
boost::json::value crosstable_json(const Tournament& t);

}  // namespace xq::mm
