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

}  // namespace xq::mm
