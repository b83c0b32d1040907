// Plain HTTP endpoints, independent of Beast: /healthz, /metrics, /api/... (JSON) and static files.
#pragma once
#include <string>

namespace gs {

class Hub;

struct HttpResult {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// `admin_token`: the value of the Authorization ("Bearer …") or X-Admin-Token header.
HttpResult handle_http(Hub& hub, const std::string& method, const std::string& target, const std::string& body,
                       const std::string& admin_token);

}  // namespace gs
