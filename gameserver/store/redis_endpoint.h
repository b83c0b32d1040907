// Where Redis is: the one parser of Redis URLs and the one place that opens a hiredis connection,
// used by the pooled client, the pub/sub listeners and the stream consumers.
//
//   redis://host:port/db                          one server
//   redis-sentinel://h1:p1,h2:p2/master-name/db    ask the Sentinels for the current master of
//                                                  `master-name` at every (re)connect, so a failover
//                                                  is followed by the next reconnect
//   redis-cluster://h1:p1,h2:p2                   a Redis Cluster: every key of ours carries the
//                                                  hash tag {xq} (store/keys.h), so all live in one
//                                                  slot; at every (re)connect the seeds are asked
//                                                  which master serves it, and a redirection
//                                                  (MOVED, a failover) is followed the same way
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
  std::vector<std::pair<std::string, int>> cluster_seeds;  // redis-cluster:// only
  int db = 0;
  bool uses_sentinel() const { return !sentinels.empty(); }
  bool uses_cluster() const { return !cluster_seeds.empty(); }
};

// The hash tag of every key (store/keys.h): in a Redis Cluster the slot of all our data.
inline constexpr const char* kClusterHashTag = "xq";

// An error reply that means "not here": the server is no (longer a) master of our data (READONLY
// after a Sentinel failover; MOVED, ASK, CLUSTERDOWN or TRYAGAIN in a cluster). The connection is
// dropped so that the next one asks again where the master is.
bool is_redirection(const std::string& error_reply);

// Throws std::invalid_argument on a malformed URL.
RedisEndpoint parse_redis_url(const std::string& url);

// The current master's address: the URL's host, the first Sentinel's answer, or the master the
// first answering cluster seed names for the slot of kClusterHashTag.
// Throws RedisUnavailable-style RedisError when no Sentinel knows the master.
std::pair<std::string, int> current_master(const RedisEndpoint& e);

// A connected context to the current master with the database selected; never null. Throws
// RedisError when it cannot connect. A Sentinel-found server is checked to really be a master
// (a stale answer during a failover would otherwise give a read-only replica).
redisContext* connect_redis(const RedisEndpoint& e, const timeval& timeout);

}  // namespace gs
