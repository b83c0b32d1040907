// Chat lines reported to the moderators. A reader reports a line they may read (the players' room:
// a player of the game; the spectators' room: anyone else), not their own; a line is listed once; the admin reads
// the reports newest first and decides (read the game's chat, ban the writer).
#pragma once
#include <cstddef>
#include <string>

#include "server/http_api.h"

namespace gs {

class Hub;

// POST /api/games/{id}/chat/report {seq}: `credential` is the caller's session token, `address`
// the client's address block (net/client_address.h; "" = not counted).
HttpResult report_chat_line(Hub& hub, const std::string& game_id, const std::string& body, const std::string& credential,
                            const std::string& address);
// GET /api/admin/chat-reports: the newest `limit` reports.
HttpResult chat_reports(Hub& hub, size_t limit);

}  // namespace gs
