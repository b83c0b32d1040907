// Accounts and session tokens. Guests get a random id; registered accounts store an scrypt hash
// in Redis. Tokens are "payload.hmac" with HMAC-SHA256 over the payload under the server secret,
// so any server holding the secret can check them without a lookup.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "auth/user.h"
#include "store/redis.h"

namespace boost::json {
class object;
}

namespace gs {

// What an account may do beyond playing. Organisers create events and clubs; admins also watch
// over every game and account. Held in Redis (not in the token) so a grant or a demotion takes
// effect at once; guests are always players.
enum class Role { Player, Organiser, Admin };
const char* role_name(Role r);
std::optional<Role> parse_role(const std::string& s);

class Auth {
 public:
  enum class Error { None, BadCredentials, NameTaken, BadRequest, Banned, UnknownUser, TooManyFailures, TooManyRegistrations,
                     Conflict };
  // Password guessing. An account takes kMaxLoginFailures wrong passwords per window from one
  // client address, and kMaxLoginFailuresAllAddresses from all: one guesser locks the account only
  // for itself, and many guessers together get 100 tries a minute, not 100 per address.
  static constexpr int kMaxLoginFailures = 10;
  static constexpr int kMaxLoginFailuresAllAddresses = 100;
  static constexpr int64_t kLoginFailureWindowMs = 60'000;  // counted from the first of them
  static constexpr int64_t kRegistrationWindowMs = 3'600'000;

  Auth(Redis& redis, std::string secret, int64_t token_ttl_ms = 30LL * 24 * 3600 * 1000);

  User make_guest(const std::string& wanted_name);
  // `address`: the client's (net/client_address.h), for the limits per address; "" = not counted.
  Error register_user(const std::string& name, const std::string& password, User& out, const std::string& address = "");
  Error login(const std::string& name, const std::string& password, User& out, const std::string& address = "");
  // New accounts per client address and hour (0: no limit): account names are a namespace anyone
  // can fill, and each costs a Redis key for ever.
  void set_registrations_per_hour(int n) { registrations_per_hour_ = n; }

  std::string issue_token(const User& u, int64_t now_ms) const;
  std::optional<User> verify_token(const std::string& token, int64_t now_ms) const;
  // Changes an account's password: the current one must be given (a wrong one counts as a failed
  // login) and the new one must do for a new account; kPasswordChangesPerHour per account (two
  // scrypt hashes each). Every session signed in before ends: its token is no longer current
  // (session_current), so a stolen one stops working. Conflict: another change came first.
  static constexpr int kPasswordChangesPerHour = 5;
  Error change_password(const User& u, const std::string& current, const std::string& fresh, const std::string& address = "");
  // Ends every session of the account signed in until now (as a password change does), keeping
  // the password: "sign out everywhere". Guests: nothing to end (their tokens are not tracked).
  void end_sessions(const User& u);
  // False for an account's token issued before its last password change or end_sessions (guests:
  // always true).
  bool session_current(const User& u);

  // False only for an account id ("u-…") that no account has; guests are not stored, so a guest id
  // may always be one. Lenient (true) until index_accounts has run once on this Redis.
  bool may_exist(const std::string& user_id);
  // Puts the accounts made before the id index existed into it, once per Redis (a marker says it
  // is done; two nodes doing it at once write the same entries). Called at start.
  void index_accounts();
  // Puts a registered account that signs in into the id index: one made meanwhile by a node that
  // predates the index (a rolling update) is found from then on.
  void remember_account(const User& u);

  bool banned(const std::string& user_id);
  void ban(const std::string& user_id);
  bool unban(const std::string& user_id);  // false if the id was not banned
  std::vector<std::string> banned_ids();

  Role role_of(const User& u);
  // Computer players (the operator's xqbot accounts): marked by an admin, by account id, so that a
  // person cannot take the mark by taking a name first. Shown to players as Player.bot.
  bool is_bot(const User& u);
  Error set_bot(const std::string& name, bool bot, User& out);
  // Grants a role to the registered account `name` (guests cannot hold one); `out` gets the account.
  Error set_role(const std::string& name, Role role, User& out);
  // The registered account called `name`, if any.
  std::optional<User> find_user(const std::string& name);
  // The name of the account with this id (through the id index below), if there is one.
  std::optional<std::string> account_name(const std::string& user_id);

  // scrypt (N=2^14, r=8, p=1) of the password with the salt, hex. Exposed for tests.
  static std::string hash_password(const std::string& password, const std::string& salt_hex);

 private:
  // The account's stored record in `rec` (and as stored, in `raw`) if `password` is its password;
  // tries counted as logins.
  Error check_password(const std::string& name, const std::string& password, const std::string& address,
                       boost::json::object& rec, std::string* raw = nullptr);
  Redis& redis_;
  std::string secret_;
  int64_t ttl_ms_;
  int registrations_per_hour_ = 0;
};

bool valid_user_name(const std::string& name);
// A password an account may take: 6-200 bytes, not only spaces and tabs.
bool valid_password(const std::string& password);
bool is_guest_name(const std::string& name);  // "guest…" in any case: kept for guests
// A guest's name made distinct from another guest's of the same name: 4 characters of its id.
std::string unique_guest_name(const User& guest);
// The shape of the ids this server gives: "g-" (guests) or "u-" (accounts) and 16 hex digits.
bool is_user_id(const std::string& id);

}  // namespace gs
