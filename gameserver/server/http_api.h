// Plain HTTP endpoints, independent of Beast: /healthz, /metrics, /api/... (JSON) and static files.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace gs {

class Hub;

struct HttpResult {
  HttpResult() = default;
  HttpResult(int s, std::string type, std::string b) : status(s), content_type(std::move(type)), body(std::move(b)) {}
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  // Header lines the status requires (RFC 9110): a 405's Allow, a 426's Upgrade.
  std::vector<std::pair<std::string, std::string>> headers;
};

// The 405 of a resource that takes `allow` (e.g. "GET, HEAD"), with its JSON error.
HttpResult method_not_allowed(const std::string& allow, const std::string& message);

// Where a request runs. Static files and /metrics are answered at once (Io); the API may wait on
// Redis, the matchmaker or a game (Api: a worker pool); /healthz pings Redis (Probe: its own
// thread, so slow API requests do not fail the health checks). Decided from the path as
// handle_http reads it, so "//api/…" is an API request too.
enum class HttpLane { Io, Api, Probe };
HttpLane http_lane(const std::string& target);

// An adjudication's reason (the admin's and an event organiser's): "" if it may be used; a blank
// one becomes "adjudication".
std::string adjudication_reason_error(std::string& reason);

// `admin_token`: the value of the Authorization ("Bearer …") or X-Admin-Token header.
// `client_address`: the client's (net/client_address.h), for the limits per address.
HttpResult handle_http(Hub& hub, const std::string& method, const std::string& target, const std::string& body,
                       const std::string& admin_token, const std::string& client_address = "");

}  // namespace gs
