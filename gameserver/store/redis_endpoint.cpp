#include "store/redis_endpoint.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <stdexcept>

#include "store/redis.h"

namespace gs {
namespace {

std::pair<std::string, int> host_port(const std::string& s, int default_port) {
  if (s.empty()) return {"127.0.0.1", default_port};
  auto colon = s.rfind(':');
  if (colon == std::string::npos) return {s, default_port};
  const std::string port = s.substr(colon + 1);
  if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5)
    throw std::invalid_argument("bad port in Redis address '" + s + "'");
  return {colon == 0 ? "127.0.0.1" : s.substr(0, colon), std::stoi(port)};
}

int parse_db(const std::string& s) {
  if (s.empty()) return 0;
  if (s.find_first_not_of("0123456789") != std::string::npos || s.size() > 4)
    throw std::invalid_argument("bad database number '" + s + "' in Redis URL");
  return std::stoi(s);
}

std::string command_error(redisContext* c) { return c && c->errstr[0] ? c->errstr : "no reply"; }

}  // namespace

RedisEndpoint parse_redis_url(const std::string& url) {
  RedisEndpoint e;
  const std::string sentinel_scheme = "redis-sentinel://";
  if (url.rfind(sentinel_scheme, 0) == 0) {
    std::string rest = url.substr(sentinel_scheme.size());
    const auto slash = rest.find('/');
    if (slash == std::string::npos) throw std::invalid_argument("redis-sentinel:// URLs name the master: redis-sentinel://host:port,…/master[/db]");
    const std::string hosts = rest.substr(0, slash);
    rest = rest.substr(slash + 1);
    const auto slash2 = rest.find('/');
    e.master_name = rest.substr(0, slash2);
    if (slash2 != std::string::npos) e.db = parse_db(rest.substr(slash2 + 1));
    if (e.master_name.empty()) throw std::invalid_argument("redis-sentinel:// URL without a master name");
    size_t start = 0;
    while (start <= hosts.size()) {
      const auto comma = hosts.find(',', start);
      const std::string one = hosts.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (!one.empty()) e.sentinels.push_back(host_port(one, 26379));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (e.sentinels.empty()) throw std::invalid_argument("redis-sentinel:// URL without a Sentinel address");
    return e;
  }
  std::string rest = url.rfind("redis://", 0) == 0 ? url.substr(8) : url;
  const auto slash = rest.find('/');
  if (slash != std::string::npos) {
    e.db = parse_db(rest.substr(slash + 1));
    rest = rest.substr(0, slash);
  }
  std::tie(e.host, e.port) = host_port(rest, 6379);
  return e;
}

std::pair<std::string, int> current_master(const RedisEndpoint& e) {
  if (!e.uses_sentinel()) return {e.host, e.port};
  std::string why;
  for (const auto& [host, port] : e.sentinels) {
    timeval tv{1, 0};
    redisContext* c = redisConnectWithTimeout(host.c_str(), port, tv);
    if (!c || c->err) {
      why = host + ":" + std::to_string(port) + ": " + (c ? c->errstr : "allocation failed");
      if (c) redisFree(c);
      continue;
    }
    redisSetTimeout(c, tv);
    auto* r = static_cast<redisReply*>(
        redisCommand(c, "SENTINEL get-master-addr-by-name %b", e.master_name.data(), e.master_name.size()));
    if (r && r->type == REDIS_REPLY_ARRAY && r->elements == 2 && r->element[0]->type == REDIS_REPLY_STRING &&
        r->element[1]->type == REDIS_REPLY_STRING) {
      std::pair<std::string, int> out{std::string(r->element[0]->str, r->element[0]->len),
                                      std::atoi(r->element[1]->str)};
      freeReplyObject(r);
      redisFree(c);
      return out;
    }
    why = host + ":" + std::to_string(port) + " does not know master '" + e.master_name + "'" +
          (r ? "" : " (" + command_error(c) + ")");
    if (r) freeReplyObject(r);
    redisFree(c);
  }
  throw RedisUnavailable("no Sentinel gave the master's address: " + why);
}

redisContext* connect_redis(const RedisEndpoint& e, const timeval& timeout) {
  const auto [host, port] = current_master(e);
  redisContext* c = redisConnectWithTimeout(host.c_str(), port, timeout);
  const std::string where = host + ":" + std::to_string(port);
  if (!c || c->err) {
    const std::string why = c ? c->errstr : "allocation failed";
    if (c) redisFree(c);
    throw RedisUnavailable("redis connect " + where + ": " + why);
  }
  redisSetTimeout(c, timeout);
  if (e.uses_sentinel()) {
    auto* r = static_cast<redisReply*>(redisCommand(c, "ROLE"));
    const bool master = r && r->type == REDIS_REPLY_ARRAY && r->elements > 0 && r->element[0]->type == REDIS_REPLY_STRING &&
                        std::string(r->element[0]->str, r->element[0]->len) == "master";
    if (r) freeReplyObject(r);
    if (!master) {
      redisFree(c);
      throw RedisUnavailable("redis " + where + " is not (yet) the master");
    }
  }
  if (e.db != 0) {
    auto* r = static_cast<redisReply*>(redisCommand(c, "SELECT %d", e.db));
    const bool ok = r && r->type != REDIS_REPLY_ERROR;
    if (r) freeReplyObject(r);
    if (!ok) {
      redisFree(c);
      throw RedisError("redis " + where + ": SELECT " + std::to_string(e.db) + " failed");
    }
  }
  return c;
}

}  // namespace gs
