// Lua scripts run by Redis: sent as EVALSHA (40 bytes instead of the script), with EVAL when
// Redis lacks the script (NOSCRIPT: first use, or after a restart).
#pragma once
#include <string>
#include <vector>

#include "store/redis.h"

namespace gs {

std::string script_sha1(const char* script);  // hex, as EVALSHA wants it
RedisReply eval_script(Redis& redis, const char* script, std::vector<std::string> keys, std::vector<std::string> args);

}  // namespace gs
