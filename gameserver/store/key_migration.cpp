#include "store/key_migration.h"

#include <string>
#include <vector>

#include "store/redis.h"

namespace gs {

KeyMigration migrate_untagged_keys(Redis& redis) {
  KeyMigration out;
  if (redis.endpoint().uses_cluster()) return out;
  const std::string old_prefix = "xq:", new_prefix = "{xq}:";
  std::vector<std::string> old_keys;  // collected first: renaming while SCAN runs may visit a key twice
  redis.for_each_key(old_prefix, [&](const std::string& k) { old_keys.push_back(k); });
  for (const auto& k : old_keys) {
    const RedisReply r = redis.command({"RENAMENX", k, new_prefix + k.substr(old_prefix.size())});
    if (r.integer == 1)
      ++out.renamed;
    else
      ++out.skipped;
  }
  return out;
}

}  // namespace gs
