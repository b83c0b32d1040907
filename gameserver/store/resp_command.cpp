#include "store/resp_command.h"

#include <hiredis/hiredis.h>

#include <charconv>

namespace gs {

namespace {
void put_header(std::string& out, char kind, size_t n) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  out += kind;
  out.append(digits, end);
  out += "\r\n";
}
}  // namespace

std::string resp_command(size_t argc, const char* const* argv, const size_t* lens) {
  size_t size = 16;
  for (size_t i = 0; i < argc; ++i) size += lens[i] + 16;
  std::string out;
  out.reserve(size);
  put_header(out, '*', argc);
  for (size_t i = 0; i < argc; ++i) {
    put_header(out, '$', lens[i]);
    out.append(argv[i], lens[i]);
    out += "\r\n";
  }
  return out;
}

bool append_command(redisContext* ctx, size_t argc, const char* const* argv, const size_t* lens) {
  const std::string cmd = resp_command(argc, argv, lens);
  return redisAppendFormattedCommand(ctx, cmd.data(), cmd.size()) == REDIS_OK;
}

}  // namespace gs
