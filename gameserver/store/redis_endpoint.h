// Where Redis is: the one parser of Redis URLs and the one place that opens a hiredis connection,
// used by the pooled client, the pub/sub listeners and the stream consumers.
//
//   redis://host:port/db                          one server
//   redis-sentinel://h1:p1,h2:p2/master-name/db    ask the Sentinels for the current master of
//                                                  `master-name` at every (re)connect, so a failover
//                                                  is followed by the next reconnect
#pragma once
#include <string>
#include <utility>
#include <vector>

struct redisContext;
struct timeval;

namespace gs {

struct RedisEndpoint {
  std::string host = "127.0.0.1";  // redis:// only
  int port = 6379;
  std::vector<std::pair<std::string, int>> sentinels;  // redis-sentinel:// only
  std::string master_name;
  int db = 0;
  bool uses_sentinel() const { return !sentinels.empty(); }
};

// Throws std::invalid_argument on a malformed URL.
RedisEndpoint parse_redis_url(const std::string& url);

// The current master's address: the URL's host, or the first Sentinel's answer.
// Throws RedisUnavailable-style RedisError when no Sentinel knows the master.
std::pair<std::string, int> current_master(const RedisEndpoint& e);

// A connected context to the current master with the database selected; never null. Throws
// RedisError when it cannot connect. A Sentinel-found server is checked to really be a master
// (a stale answer during a failover would otherwise give a read-only replica).
redisContext* connect_redis(const RedisEndpoint& e, const timeval& timeout);

}  // namespace gs
