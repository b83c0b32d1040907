#include "store/lua_script.h"

#include <openssl/sha.h>

#include <cstring>

namespace gs {

std::string script_sha1(const char* script) {
  unsigned char md[SHA_DIGEST_LENGTH];
  SHA1(reinterpret_cast<const unsigned char*>(script), std::strlen(script), md);
  std::string hex;
  for (unsigned char b : md) hex += "0123456789abcdef"[b >> 4], hex += "0123456789abcdef"[b & 15];
  return hex;
}

RedisReply eval_script(Redis& redis, const char* script, std::vector<std::string> keys, std::vector<std::string> args) {
  std::vector<std::string> cmd{"EVALSHA", script_sha1(script), std::to_string(keys.size())};
  cmd.insert(cmd.end(), std::make_move_iterator(keys.begin()), std::make_move_iterator(keys.end()));
  cmd.insert(cmd.end(), std::make_move_iterator(args.begin()), std::make_move_iterator(args.end()));
  try {
    return redis.command(cmd);
  } catch (const RedisError& e) {
    if (std::string(e.what()).find("NOSCRIPT") == std::string::npos) throw;
    cmd[0] = "EVAL";
    cmd[1] = script;
    return redis.command(cmd);
  }
}

}  // namespace gs
