// What a signed-in player does to their own account over HTTP: change the password.
#pragma once
#include <string>

#include "server/http_api.h"

namespace gs {

class Hub;

// POST /api/account/password {password, new_password}: `credential` is the caller's session token,
// `address` the client's (the wrong-password limit per address).
HttpResult change_password(Hub& hub, const std::string& body, const std::string& credential, const std::string& address);

}  // namespace gs
