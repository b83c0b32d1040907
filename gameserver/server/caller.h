// Who is calling the HTTP API, decided in one place: the operator's admin credential
// (`--admin-token`), or a session token whose account may hold a role (player, organiser, admin).
#pragma once
#include <optional>
#include <string>

#include "auth/auth.h"

namespace gs {

class Hub;

struct Caller {
  std::optional<User> user;      // the session's account (none for the operator's credential)
  Role role = Role::Player;
  bool operator_credential = false;
  bool banned = false;
  bool refused_credential = false;  // one was given, but it is neither the admin token nor a valid session

  bool admin() const { return operator_credential || (user && !banned && role == Role::Admin); }
  bool organiser() const { return admin() || (user && !banned && role == Role::Organiser); }
};

// Whether `given` is the configured secret `expected` (compared in constant time; an empty
// `expected` is a secret not configured, which nothing matches).
bool same_secret(const std::string& given, const std::string& expected);

// `credential`: the X-Admin-Token header, else the Authorization bearer value (may be empty).
Caller identify_caller(Hub& hub, const std::string& credential);

}  // namespace gs
