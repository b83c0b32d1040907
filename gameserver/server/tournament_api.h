// HTTP endpoints for tournaments, clubs and quick-pairing pools (docs/tournaments.md). Reads the
// views the matchmaker keeps in Redis and turns requests into matchmaker commands (a Redis stream),
// waiting briefly for the reply. No tournament logic lives here.
#pragma once
#include <string>
#include <vector>

#include "server/http_api.h"

namespace gs {

class Hub;

// `parts` is the path split at '/', starting with "api". `token`: a session token or the admin token.
// `client_address`: the client's, for the join-code tries per address ("" = not counted).
HttpResult handle_tournament_api(Hub& hub, const std::string& method, const std::vector<std::string>& parts,
                                 const std::string& body, const std::string& token, const std::string& client_address = "");
// The one method an endpoint of this API answers ("GET" or "POST"), or nullptr where it answers
// both or the path is none.
const char* tournament_method_of(const std::vector<std::string>& parts);

}  // namespace gs
