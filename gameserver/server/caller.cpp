#include "server/caller.h"

#include <openssl/crypto.h>

#include <chrono>

#include "server/hub.h"

namespace gs {

bool same_secret(const std::string& given, const std::string& expected) {
  return !expected.empty() && given.size() == expected.size() &&
         CRYPTO_memcmp(given.data(), expected.data(), expected.size()) == 0;
}

Caller identify_caller(Hub& hub, const std::string& credential) {
  Caller c;
  if (same_secret(credential, hub.options().admin_token)) {
    c.operator_credential = true;
    c.role = Role::Admin;
    return c;
  }
  if (credential.empty()) return c;
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch()).count();
  c.user = hub.auth().verify_token(credential, now);
  if (c.user && !hub.auth().session_current(*c.user)) c.user.reset();  // signed out by a password change
  if (!c.user) {
    c.refused_credential = true;
    return c;
  }
  c.banned = hub.auth().banned(c.user->id);
  c.role = hub.auth().role_of(*c.user);
  return c;
}

}  // namespace gs
