#include "auth/auth.h"

#include <chrono>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <boost/json.hpp>
#include <cctype>
#include <cstdlib>
#include <stdexcept>

#include "game/one_line_text.h"
#include "rules/jieqi.h"
#include "store/keys.h"
#include "store/lua_script.h"
#include "store/rate_window.h"

namespace json = boost::json;

namespace gs {
namespace {

std::string hex(const unsigned char* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    s += d[p[i] >> 4];
    s += d[p[i] & 15];
  }
  return s;
}

// Lower-case hex only, as hex() writes it: "" for anything else, so a token has one spelling
// (an upper-cased or otherwise re-spelled payload is not the same token).
std::string unhex(const std::string& h) {
  std::string out;
  if (h.size() % 2) return out;
  auto v = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; };
  for (size_t i = 0; i + 1 < h.size(); i += 2) {
    const int hi = v(h[i]), lo = v(h[i + 1]);
    if (hi < 0 || lo < 0) return {};
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

// The account and its entry in the id index, in one step: an account missing from the index could
// not be banned.
constexpr const char* kCreateAccount = R"lua(
if not redis.call('SET', KEYS[1], ARGV[1], 'NX') then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1
)lua";

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower((unsigned char)c));
  return s;
}

bool equal_ct(const std::string& a, const std::string& b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

const char* role_name(Role r) {
  switch (r) {
    case Role::Organiser: return "organiser";
    case Role::Admin: return "admin";
    case Role::Player: break;
  }
  return "player";
}

std::optional<Role> parse_role(const std::string& s) {
  if (s == "player") return Role::Player;
  if (s == "organiser" || s == "organizer") return Role::Organiser;
  if (s == "admin") return Role::Admin;
  return std::nullopt;
}

// ASCII letters, digits, _ and -, and Chinese characters (CJK Unified Ideographs and Extension A:
// a club's players are known by their Chinese names, often of two characters). 3 to 20 characters,
// or 2 to 20 with a Chinese one. Nothing else: no look-alike letters of other scripts, no spaces.
bool valid_user_name(const std::string& name) {
  size_t chars = 0;
  bool chinese = false;
  for (size_t i = 0; i < name.size(); ++chars) {
    const auto b = static_cast<unsigned char>(name[i]);
    if (b < 0x80) {
      if (!std::isalnum(b) && b != '_' && b != '-') return false;
      ++i;
      continue;
    }
    // A three-byte UTF-8 sequence in U+3400..U+4DBF or U+4E00..U+9FFF.
    if (name.size() - i < 3) return false;
    const auto b1 = static_cast<unsigned char>(name[i + 1]), b2 = static_cast<unsigned char>(name[i + 2]);
    if ((b & 0xF0) != 0xE0 || (b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80) return false;
    const unsigned cp = ((b & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
    if (!((cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF))) return false;
    chinese = true;
    i += 3;
  }
  return chars >= (chinese ? 2u : 3u) && chars <= 20;
}

Auth::Auth(Redis& redis, std::string secret, int64_t ttl) : redis_(redis), secret_(std::move(secret)), ttl_ms_(ttl) {
  if (secret_.size() < 16) throw std::invalid_argument("secret must have at least 16 characters");
}

std::string Auth::hash_password(const std::string& password, const std::string& salt_hex) {
  std::string salt = unhex(salt_hex);
  unsigned char out[32];
  if (EVP_PBE_scrypt(password.data(), password.size(), reinterpret_cast<const unsigned char*>(salt.data()),
                     salt.size(), 1 << 14, 8, 1, 64ull << 20, out, sizeof out) != 1)
    throw std::runtime_error("scrypt failed");
  return hex(out, sizeof out);
}

bool is_guest_name(const std::string& name) { return lower(name).rfind("guest", 0) == 0; }

bool valid_password(const std::string& password) {
  // 6-200 bytes, no control characters, and not only blanks (six spaces, or six ideographic
  // spaces, are a password nobody means). No NUL above all: the hash keys HMAC with the password,
  // which pads a key with zero bytes, so "" and "\0\0\0\0\0\0" would be one password (security
  // review, 2026-12-04).
  if (password.size() < 6 || password.size() > 200 || !shows_something(password)) return false;
  for (size_t i = 0; i < password.size();) {
    const uint32_t cp = next_code_point(password, i);
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return false;
  }
  return true;
}

User Auth::make_guest(const std::string& wanted) {
  User u;
  u.id = "g-" + xq::random_hex(8);
  // "guest-bob" asks for guest-bob, not guest-guest-bob; a name still starting with "guest" after
  // that (or none) gets part of the id.
  std::string name = wanted;
  if (lower(name).rfind("guest-", 0) == 0) name = name.substr(6);
  u.name = valid_user_name(name) && !is_guest_name(name) ? "guest-" + name : "guest-" + u.id.substr(2, 6);
  u.guest = true;
  return u;
}

std::string unique_guest_name(const User& guest) { return guest.name + "-" + guest.id.substr(2, 4); }

bool is_user_id(const std::string& id) {
  if (id.size() != 18 || (id[0] != 'g' && id[0] != 'u') || id[1] != '-') return false;
  for (size_t i = 2; i < id.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(id[i])) || std::isupper(static_cast<unsigned char>(id[i]))) return false;
  return true;
}

Auth::Error Auth::register_user(const std::string& name, const std::string& password, User& out,
                                const std::string& address) {
  if (!valid_user_name(name) || !valid_password(password)) return Error::BadRequest;
  if (is_guest_name(name)) return Error::BadRequest;  // guest names are reserved
  // A registration takes its place in the address's hour first; one that fails gives it back.
  std::vector<std::string> counter;
  if (registrations_per_hour_ > 0 && !address.empty()) {
    counter.push_back(keys::registrations_from(address));
    if (!take_places(redis_, counter, {registrations_per_hour_}, kRegistrationWindowMs)) return Error::TooManyRegistrations;
  }
  std::string salt = xq::random_hex(16);
  User u{"u-" + xq::random_hex(8), name, false};
  json::object rec{{"id", u.id}, {"name", name}, {"salt", salt}, {"hash", hash_password(password, salt)}};
  RedisReply r;
  try {
    r = eval_script(redis_, kCreateAccount, {keys::user(lower(name)), keys::kAccountIds}, {json::serialize(rec), u.id, lower(name)});
  } catch (const std::exception&) {
    if (!counter.empty()) give_back_places(redis_, counter);
    throw;
  }
  if (r.integer == 0) {
    if (!counter.empty()) give_back_places(redis_, counter);
    return Error::NameTaken;
  }
  out = u;
  return Error::None;
}

std::optional<std::string> Auth::account_name(const std::string& user_id) {
  // The id index gives the key of the account's record, which holds the name as written.
  RedisReply lower_name = redis_.command({"HGET", keys::kAccountIds, user_id});
  if (lower_name.type != RedisReply::Type::String) return std::nullopt;
  RedisReply rec = redis_.command({"GET", keys::user(lower_name.str)});
  if (rec.type != RedisReply::Type::String) return std::nullopt;
  boost::system::error_code ec;
  const json::value v = json::parse(rec.str, ec);
  const auto* name = !ec && v.is_object() ? v.as_object().if_contains("name") : nullptr;
  if (!name || !name->is_string()) return std::nullopt;
  return std::string(name->as_string());
}

Auth::Error Auth::check_password(const std::string& name, const std::string& password, const std::string& address,
                                  json::object& rec, std::string* raw) {
  if (!valid_user_name(name)) return Error::BadCredentials;
  // No account has these (valid_password): with the hash's zero padding they could match one.
  if (password.empty() || password.find('\0') != std::string::npos) return Error::BadCredentials;
  auto r = redis_.command({"GET", keys::user(lower(name))});
  if (r.type != RedisReply::Type::String) return Error::BadCredentials;
  // Password guessing: every try takes a place in the window before any hashing (on every node);
  // past the limits tries are refused until the window ends, and a right password gives its place
  // back, so only wrong ones count.
  const std::vector<std::string> counters{keys::login_failures_from(lower(name), address), keys::login_failures(lower(name))};
  if (!take_places(redis_, counters, {kMaxLoginFailures, kMaxLoginFailuresAllAddresses}, kLoginFailureWindowMs)) return Error::TooManyFailures;
  rec = json::parse(r.str).as_object();
  if (raw) *raw = r.str;
  std::string salt = json::value_to<std::string>(rec.at("salt"));
  if (!equal_ct(hash_password(password, salt), json::value_to<std::string>(rec.at("hash")))) return Error::BadCredentials;
  give_back_places(redis_, counters);
  return Error::None;
}

Auth::Error Auth::login(const std::string& name, const std::string& password, User& out, const std::string& address) {
  json::object rec;
  if (Error e = check_password(name, password, address, rec); e != Error::None) return e;
  out = {json::value_to<std::string>(rec.at("id")), json::value_to<std::string>(rec.at("name")), false};
  if (banned(out.id)) return Error::Banned;
  return Error::None;
}

// The new record only over the one the password was checked against (two changes at once: one
// wins, the other is told), with the time from which sessions are current.
static const char* kChangePasswordScript = R"lua(
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[4])
return 1
)lua";

Auth::Error Auth::change_password(const User& u, const std::string& current, const std::string& fresh, const std::string& address) {
  if (u.guest || !valid_password(fresh)) return Error::BadRequest;
  // Only changes made count here (wrong passwords count as failed logins): someone holding a stolen
  // session cannot use up the owner's changes.
  const std::vector<std::string> changes{keys::password_changes(u.id)};
  if (!take_places(redis_, changes, {kPasswordChangesPerHour}, 3'600'000)) return Error::TooManyFailures;
  json::object rec;
  std::string before;
  if (Error e = check_password(u.name, current, address, rec, &before); e != Error::None) {
    give_back_places(redis_, changes);
    return e;
  }
  if (rec.at("id").as_string() != u.id) return Error::BadCredentials;  // the name went to another account
  const std::string salt = xq::random_hex(16);
  rec["salt"] = salt;
  rec["hash"] = hash_password(fresh, salt);
  // Sessions signed in until now end: a token is current only if issued from this time on.
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  RedisReply done = eval_script(redis_, kChangePasswordScript, {keys::user(lower(u.name)), keys::sessions_from(u.id)},
                                {before, json::serialize(rec), std::to_string(now), std::to_string(ttl_ms_)});
  if (done.integer == 1) return Error::None;
  give_back_places(redis_, changes);  // not made
  return Error::Conflict;
}

void Auth::end_sessions(const User& u) {
  if (u.guest) return;
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  redis_.command({"SET", keys::sessions_from(u.id), std::to_string(now), "PX", std::to_string(ttl_ms_)});
}

bool Auth::session_current(const User& u) {
  if (u.guest || u.token_expires_ms == 0) return true;
  RedisReply r = redis_.command({"GET", keys::sessions_from(u.id)});
  if (r.type != RedisReply::Type::String) return true;
  // Tokens carry their expiry; they were issued ttl before it.
  return u.token_expires_ms - ttl_ms_ >= std::stoll(r.str);
}

std::string Auth::issue_token(const User& u, int64_t now_ms) const {
  std::string payload = "v1|" + u.id + "|" + u.name + "|" + (u.guest ? "g" : "r") + "|" + std::to_string(now_ms + ttl_ms_);
  unsigned char mac[32];
  unsigned int len = 0;
  HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
       reinterpret_cast<const unsigned char*>(payload.data()), payload.size(), mac, &len);
  return hex(reinterpret_cast<const unsigned char*>(payload.data()), payload.size()) + "." + hex(mac, len);
}

std::optional<User> Auth::verify_token(const std::string& token, int64_t now_ms) const {
  auto dot = token.find('.');
  if (dot == std::string::npos || token.size() > 1024) return std::nullopt;
  std::string payload = unhex(token.substr(0, dot));
  unsigned char mac[32];
  unsigned int len = 0;
  HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
       reinterpret_cast<const unsigned char*>(payload.data()), payload.size(), mac, &len);
  if (!equal_ct(hex(mac, len), token.substr(dot + 1))) return std::nullopt;
  // v1|id|name|g|exp
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t i = 0; i <= payload.size(); ++i)
    if (i == payload.size() || payload[i] == '|') {
      parts.push_back(payload.substr(start, i - start));
      start = i + 1;
    }
  if (parts.size() != 5 || parts[0] != "v1") return std::nullopt;
  int64_t expires = 0;
  try {
    expires = std::stoll(parts[4]);
  } catch (...) {
    return std::nullopt;
  }
  if (expires < now_ms) return std::nullopt;
  return User{parts[1], parts[2], parts[3] == "g", expires};
}

bool Auth::may_exist(const std::string& user_id) {
  if (user_id.rfind("u-", 0) != 0) return true;
  if (redis_.command({"HEXISTS", keys::kAccountIds, user_id}).integer == 1) return true;
  return redis_.command({"EXISTS", keys::kAccountIdsComplete}).integer == 0;
}

void Auth::index_accounts() {
  if (redis_.command({"EXISTS", keys::kAccountIdsComplete}).integer == 1) return;
  const std::string prefix = keys::user("");
  redis_.for_each_key(prefix, [&](const std::string& key) {
    RedisReply rec = redis_.command({"GET", key});
    boost::system::error_code ec;
    const json::value v = rec.type == RedisReply::Type::String ? json::parse(rec.str, ec) : json::value();
    const auto* id = !ec && v.is_object() ? v.as_object().if_contains("id") : nullptr;
    if (id && id->is_string()) redis_.command({"HSET", keys::kAccountIds, std::string(id->as_string()), key.substr(prefix.size())});
  });
  redis_.command({"SET", keys::kAccountIdsComplete, "1"});
}

void Auth::remember_account(const User& u) {
  if (!u.guest) redis_.command({"HSET", keys::kAccountIds, u.id, lower(u.name)});
}

bool Auth::banned(const std::string& user_id) {
  return redis_.command({"SISMEMBER", keys::kBanned, user_id}).integer == 1;
}
void Auth::ban(const std::string& user_id) { redis_.command({"SADD", keys::kBanned, user_id}); }
bool Auth::unban(const std::string& user_id) { return redis_.command({"SREM", keys::kBanned, user_id}).integer == 1; }
std::vector<std::string> Auth::banned_ids() {
  std::vector<std::string> out;
  for (auto& e : redis_.command({"SMEMBERS", keys::kBanned}).elements) out.push_back(std::move(e.str));
  std::sort(out.begin(), out.end());
  return out;
}

Role Auth::role_of(const User& u) {
  if (u.guest) return Role::Player;
  auto r = redis_.command({"HGET", keys::kRoles, u.id});
  if (r.type != RedisReply::Type::String) return Role::Player;
  return parse_role(r.str).value_or(Role::Player);
}

bool Auth::is_bot(const User& u) {
  return !u.guest && redis_.command({"SISMEMBER", keys::kBots, u.id}).integer == 1;
}

Auth::Error Auth::set_bot(const std::string& name, bool bot, User& out) {
  auto u = find_user(name);
  if (!u) return Error::UnknownUser;
  redis_.command({bot ? "SADD" : "SREM", keys::kBots, u->id});
  out = *u;
  return Error::None;
}

std::optional<User> Auth::find_user(const std::string& name) {
  if (!valid_user_name(name)) return std::nullopt;
  auto r = redis_.command({"GET", keys::user(lower(name))});
  if (r.type != RedisReply::Type::String) return std::nullopt;
  json::value rec = json::parse(r.str);
  return User{json::value_to<std::string>(rec.at("id")), json::value_to<std::string>(rec.at("name")), false};
}

Auth::Error Auth::set_role(const std::string& name, Role role, User& out) {
  auto u = find_user(name);
  if (!u) return Error::UnknownUser;
  if (role == Role::Player)
    redis_.command({"HDEL", keys::kRoles, u->id});
  else
    redis_.command({"HSET", keys::kRoles, u->id, role_name(role)});
  out = *u;
  return Error::None;
}

}  // namespace gs
