#include "bot_ids.h"

#include <chrono>

#include "store/keys.h"
#include "store/redis.h"

namespace gs {

bool BotIds::contains(const std::string& user_id) {
  if (user_id.rfind("u-", 0) != 0) return false;  // guests are never marked
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now().time_since_epoch()).count();
  std::lock_guard l(mu_);
  if (read_at_ms_ < 0 || now - read_at_ms_ >= 1000) {
    try {
      std::set<std::string> fresh;
      for (auto& e : redis_.command({"SMEMBERS", keys::kBots}).elements) fresh.insert(std::move(e.str));
      ids_ = std::move(fresh);
    } catch (const std::exception&) {
      // Redis away: the last set read stands (a mark is shown, not enforced).
    }
    read_at_ms_ = now;
  }
  return ids_.count(user_id) > 0;
}

}  // namespace gs
