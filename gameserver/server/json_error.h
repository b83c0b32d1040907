// The HTTP API's error answer, `{"error": message}` with the status, written once for every
// endpoint but the tournament API's, whose errors also carry a stable `code`.
#pragma once
#include <string>

#include "server/http_api.h"

namespace gs {

HttpResult json_error(int status, const std::string& message);

}  // namespace gs
