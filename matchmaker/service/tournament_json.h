// Tournament ⇄ JSON (Boost.JSON): the form a tournament is stored in Redis and served by the API.
#pragma once
#include <boost/json/value.hpp>
#include <string>
#include <vector>

#include "tournament.h"

namespace xq::mm {

boost::json::value to_json(const Tournament& t);
Tournament tournament_from_json(const boost::json::value& v);  // throws std::exception on bad input
// Event settings as sent by an organiser (all optional but id/name); throws TournamentError.
EventConfig config_from_json(const boost::json::value& v);
// A new event's settings naming a field no event has (top level or in "pairing") are refused
// (TournamentError bad_request), as a change is: a typo must not pass for a setting.
void refuse_unknown_settings(const boost::json::value& event);
boost::json::value config_to_json(const EventConfig& c);
// An event's settings with an organiser's changes laid over them (the fields of config_from_json,
// "pairing" merged field by field). A field no event has, or one fixed at creation (id, club_id,
// organiser), is refused (TournamentError bad_request): a typo must not pass for a change. A
// top-level field set to null returns to its default (a repetition option, e.g.).
EventConfig config_with_changes(const EventConfig& base, const boost::json::value& changes);
// The settings that differ between two configs, by name ("name", "pairing.rounds", …).
std::vector<std::string> changed_settings(const EventConfig& a, const EventConfig& b);
// Standings with every tiebreak column, for the API and the web client.
boost::json::value standings_json(const Tournament& t);
// What anyone may read of an event (no join code, no internal bookkeeping): config, stage,
// players with user ids and pairing numbers, rounds with boards, results and explain lines, game
// slots, play-off.
boost::json::value public_json(const Tournament& t);
// Per player and round: opponent (player id, -2 bye, -1 not paired), colour of game 1, points.
boost::json::value crosstable_json(const Tournament& t);

}  // namespace xq::mm
