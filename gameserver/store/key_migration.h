// Keys written before every key carried the Redis Cluster hash tag ("xq:…", now "{xq}:…",
// store/keys.h): renamed once at start so that a server upgraded over an existing Redis keeps its
// accounts, ratings, records and live games.
#pragma once
#include <cstddef>

namespace gs {

class Redis;

// Renames every "xq:…" key to "{xq}:…" unless the new name exists already (then the old key is
// left alone and counted as skipped). Not in a Redis Cluster (data from before the tag was never
// there). Says how many keys were renamed and how many left.
struct KeyMigration {
  size_t renamed = 0, skipped = 0;
};
KeyMigration migrate_untagged_keys(Redis& redis);

}  // namespace gs
