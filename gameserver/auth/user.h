// Who a connection or a request acts for: a signed-in guest or account. Plain data, so the pure
// parts (the lobby) can name users without the account store (auth/auth.h, Redis).
#pragma once
#include <cstdint>
#include <string>

namespace gs {

struct User {
  std::string id;    // "g-…" for guests, "u-…" for registered users
  std::string name;
  bool guest = true;
  int64_t token_expires_ms = 0;  // read from a session token: when it expires (0: not from a token)
};

}  // namespace gs
