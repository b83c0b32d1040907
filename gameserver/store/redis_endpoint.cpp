#include "store/redis_endpoint.h"

#include <hiredis/hiredis.h>
#include <sys/time.h>

#include <optional>
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

std::vector<std::pair<std::string, int>> host_list(const std::string& hosts, int default_port) {
  std::vector<std::pair<std::string, int>> out;
  size_t start = 0;
  while (start <= hosts.size()) {
    const auto comma = hosts.find(',', start);
    const std::string one = hosts.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!one.empty()) out.push_back(host_port(one, default_port));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

redisContext* open_probe(const std::string& host, int port, std::string& why) {
  timeval tv{1, 0};
  redisContext* c = redisConnectWithTimeout(host.c_str(), port, tv);
  if (!c || c->err) {
    why = host + ":" + std::to_string(port) + ": " + (c ? c->errstr : "allocation failed");
    if (c) redisFree(c);
    return nullptr;
  }
  redisSetTimeout(c, tv);
  return c;
}

// Asks one cluster node which master serves our slot (CLUSTER KEYSLOT, then CLUSTER SLOTS:
// [[first, last, [ip, port, id, …] master, replicas…], …]). Empty on failure, with `why`.
std::optional<std::pair<std::string, int>> cluster_master(const std::string& host, int port, std::string& why) {
  redisContext* c = open_probe(host, port, why);
  if (!c) return std::nullopt;
  std::optional<std::pair<std::string, int>> out;
  const std::string where = host + ":" + std::to_string(port);
  auto* slot = static_cast<redisReply*>(redisCommand(c, "CLUSTER KEYSLOT %s", kClusterHashTag));
  auto* slots = slot && slot->type == REDIS_REPLY_INTEGER ? static_cast<redisReply*>(redisCommand(c, "CLUSTER SLOTS")) : nullptr;
  if (!slot || slot->type != REDIS_REPLY_INTEGER) {
    why = where + ": CLUSTER KEYSLOT failed (" + (slot && slot->type == REDIS_REPLY_ERROR ? std::string(slot->str, slot->len) : command_error(c)) + ")";
  } else if (!slots || slots->type != REDIS_REPLY_ARRAY) {
    why = where + ": CLUSTER SLOTS failed (" + (slots && slots->type == REDIS_REPLY_ERROR ? std::string(slots->str, slots->len) : command_error(c)) + ")";
  } else {
    for (size_t i = 0; i < slots->elements && !out; ++i) {
      const redisReply* range = slots->element[i];
      if (range->type != REDIS_REPLY_ARRAY || range->elements < 3 || range->element[0]->integer > slot->integer ||
          range->element[1]->integer < slot->integer)
        continue;
      const redisReply* master = range->element[2];
      if (master->type != REDIS_REPLY_ARRAY || master->elements < 2 || master->element[1]->type != REDIS_REPLY_INTEGER) continue;
      std::string ip = master->element[0]->type == REDIS_REPLY_STRING ? std::string(master->element[0]->str, master->element[0]->len) : "";
      if (ip.empty() || ip == "?") ip = host;  // a node that does not know its own address: the one asked
      out.emplace(ip, static_cast<int>(master->element[1]->integer));
    }
    if (!out) why = where + ": no master serves slot " + std::to_string(slot->integer);
  }
  if (slots) freeReplyObject(slots);
  if (slot) freeReplyObject(slot);
  redisFree(c);
  return out;
}

}  // namespace

bool is_redirection(const std::string& error_reply) {
  for (const char* prefix : {"READONLY", "MOVED ", "ASK ", "CLUSTERDOWN", "TRYAGAIN"})
    if (error_reply.rfind(prefix, 0) == 0) return true;
  return false;
}

RedisEndpoint parse_redis_url(const std::string& url) {
  RedisEndpoint e;
  const std::string cluster_scheme = "redis-cluster://";
  if (url.rfind(cluster_scheme, 0) == 0) {
    std::string hosts = url.substr(cluster_scheme.size());
    if (const auto slash = hosts.find('/'); slash != std::string::npos) {
      // A cluster has database 0 only.
      if (parse_db(hosts.substr(slash + 1)) != 0) throw std::invalid_argument("a Redis Cluster has database 0 only");
      hosts = hosts.substr(0, slash);
    }
    e.cluster_seeds = host_list(hosts, 6379);
    if (e.cluster_seeds.empty()) throw std::invalid_argument("redis-cluster:// URL without a node address");
    return e;
  }
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
    e.sentinels = host_list(hosts, 26379);
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
  std::string why;
  if (e.uses_cluster()) {
    for (const auto& [host, port] : e.cluster_seeds)
      if (auto master = cluster_master(host, port, why)) return *master;
    throw RedisUnavailable("no cluster node named the master of our slot: " + why);
  }
  if (!e.uses_sentinel()) return {e.host, e.port};
  for (const auto& [host, port] : e.sentinels) {
    redisContext* c = open_probe(host, port, why);
    if (!c) continue;
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
  if (e.uses_sentinel() || e.uses_cluster()) {  // the answer may be stale during a failover
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
