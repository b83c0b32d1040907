// What a signed-in player does to their own account over HTTP: change the password, sign out
// everywhere else.
#pragma once
#include <string>

#include "server/http_api.h"

namespace gs {

class Hub;

// POST /api/account/password {password, new_password}: `credential` is the caller's session token,
// `address` the client's (the wrong-password limit per address).
HttpResult change_password(Hub& hub, const std::string& body, const std::string& credential, const std::string& address);
// POST /api/account/sign-out-everywhere: every session of the caller's account ends (their tokens
// refused, their sockets closed shortly); the answer carries a fresh token for the caller.
HttpResult sign_out_everywhere(Hub& hub, const std::string& credential);

}  // namespace gs
