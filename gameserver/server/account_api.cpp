#include "server/account_api.h"

#include <boost/json.hpp>

#include "net/runtime.h"
#include "server/caller.h"
#include "server/json_error.h"
#include "server/hub.h"

namespace json = boost::json;

namespace gs {
namespace {

constexpr int64_t kCloseOldSocketsAfterMs = 2000;
constexpr const char* kSignInFirst = "sign in first (Authorization: Bearer <session token>)";
constexpr const char* kInvalidSession = "invalid or expired credential: not a valid session token (sign in again)";

}  // namespace

HttpResult change_password(Hub& hub, const std::string& body, const std::string& credential, const std::string& address) {
  const Caller caller = identify_caller(hub, credential);
  if (!caller.user) return json_error(401, caller.refused_credential ? kInvalidSession : kSignInFirst);
  if (caller.user->guest) return json_error(400, "guests have no password: register an account");
  boost::system::error_code ec;
  const json::value in = json::parse(body.empty() ? "{}" : body, ec);
  const json::object* o = !ec ? in.if_object() : nullptr;
  const json::string* current = o && o->contains("password") ? o->at("password").if_string() : nullptr;
  const json::string* fresh = o && o->contains("new_password") ? o->at("new_password").if_string() : nullptr;
  if (!current || !fresh) return json_error(400, "body: {\"password\": the current one, \"new_password\": 6-200 bytes}");
  // A banned account gets no fresh sessions (its sign-ins are refused too).
  if (hub.auth().banned(caller.user->id)) return json_error(403, "this account is banned");
  // The same password again would end every session and use up one of the hour's changes for nothing.
  if (*current == *fresh) return json_error(400, "new_password: the same as the current one");
  switch (hub.auth().change_password(*caller.user, std::string(*current), std::string(*fresh), address)) {
    case Auth::Error::None: break;
    case Auth::Error::BadRequest: return json_error(400, "new_password: 6-200 bytes of UTF-8, no control characters, not only blanks");
    case Auth::Error::TooManyFailures:
      return json_error(429, "too many wrong passwords or password changes for this account: try again later");
    case Auth::Error::Conflict: return json_error(409, "the password was changed meanwhile by another request: sign in again");
    default: return json_error(403, "wrong password");
  }
  // This browser stays signed in with a fresh token; every other session has ended. Sockets
  // already signed in with an old token (a thief's, say) are closed shortly: long enough after
  // this answer for the caller to keep the fresh token, so that its own socket comes back with it.
  hub.disconnect_later(caller.user->id, kCloseOldSocketsAfterMs);
  User u = *caller.user;
  return {200, "application/json", json::serialize(json::object{{"ok", true}, {"token", hub.auth().issue_token(u, wall_ms())}})};
}

HttpResult sign_out_everywhere(Hub& hub, const std::string& credential) {
  const Caller caller = identify_caller(hub, credential);
  if (!caller.user) return json_error(401, caller.refused_credential ? kInvalidSession : kSignInFirst);
  if (caller.user->guest) return json_error(400, "guests have no other sessions to end: register an account");
  if (hub.auth().banned(caller.user->id)) return json_error(403, "this account is banned");
  hub.auth().end_sessions(*caller.user);
  hub.disconnect_later(caller.user->id, kCloseOldSocketsAfterMs);  // as after a password change
  return {200, "application/json",
          json::serialize(json::object{{"ok", true}, {"token", hub.auth().issue_token(*caller.user, wall_ms())}})};
}

}  // namespace gs
