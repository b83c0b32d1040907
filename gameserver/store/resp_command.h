// A Redis command in the protocol's request form (RESP: an array of bulk strings), written by
// hand: hiredis's formatter (redisAppendCommandArgv → sdscatfmt) cost ~6,000 instructions an
// append under load, a tenth of a move's whole work in the server (callgrind, 2026-12-05).
#pragma once
#include <cstddef>
#include <string>

struct redisContext;

namespace gs {

std::string resp_command(size_t argc, const char* const* argv, const size_t* lens);
// Queued on the context as redisAppendCommandArgv does; false if hiredis refused it.
bool append_command(redisContext* ctx, size_t argc, const char* const* argv, const size_t* lens);

}  // namespace gs
