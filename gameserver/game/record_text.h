// A game record as PGN-style text (the tag pairs of the WXF/PGN tradition, then numbered moves in
// ICCS with the Chinese notation and the mover's clock as comments), made from the JSON record that
// GET /api/games/{id} serves — so the text can never show more than the JSON does.
#pragma once
#include <string>

namespace gs {

// Throws std::exception when `record_json` is not a game record.
std::string record_text(const std::string& record_json);

}  // namespace gs
