#include "store/rate_window.h"

#include "store/lua_script.h"

namespace gs {
namespace {

// KEYS: the counters; ARGV: the window (ms), then each counter's limit.
const char* const kTakeScript = R"lua(
for i, k in ipairs(KEYS) do
  if tonumber(redis.call('GET', k) or '0') >= tonumber(ARGV[i + 1]) then return 0 end
end
for _, k in ipairs(KEYS) do
  redis.call('SET', k, '0', 'NX', 'PX', ARGV[1])
  redis.call('INCR', k)
end
return 1
)lua";

// A DECR of a counter whose window ended would make one without an expiry.
const char* const kGiveBackScript = R"lua(
for _, k in ipairs(KEYS) do
  if redis.call('EXISTS', k) == 1 then redis.call('DECR', k) end
end
return 1
)lua";

}  // namespace

bool take_places(Redis& redis, const std::vector<std::string>& counters, const std::vector<int>& limits, int64_t window_ms) {
  std::vector<std::string> args{std::to_string(window_ms)};
  for (int l : limits) args.push_back(std::to_string(l));
  return eval_script(redis, kTakeScript, counters, args).integer == 1;
}

void give_back_places(Redis& redis, const std::vector<std::string>& counters) {
  try {
    eval_script(redis, kGiveBackScript, counters, {});
  } catch (const std::exception&) {  // Redis away: the try stays counted until its window ends
  }
}

}  // namespace gs
