// What the Sentinel and Redis Cluster failover tests both wait for: a Redis that answers, and a
// master the endpoint's discovery names.
#pragma once
#include <cstdint>
#include <string>

#include "store/redis.h"
#include "store/redis_endpoint.h"
#include "test_clients.h"

inline bool redis_answers(uint16_t port) {
  try {
    gs::Redis r("redis://127.0.0.1:" + std::to_string(port) + "/0", 1);
    return r.ping();
  } catch (const std::exception&) {
    return false;
  }
}

// Whether, within `ms`, the Sentinel or the cluster of `endpoint` names the Redis on `port` master.
inline bool master_becomes(const gs::RedisEndpoint& endpoint, uint16_t port, int ms) {
  return eventually([&] {
    try {
      return gs::current_master(endpoint).second == port;
    } catch (const std::exception&) {
      return false;
    }
  }, ms);
}
