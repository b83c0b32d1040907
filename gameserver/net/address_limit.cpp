#include "net/address_limit.h"

#include "net/client_address.h"

namespace gs {

bool ConnectionsPerAddress::try_acquire(std::string_view client_address, int64_t max, Slot& out) {
  std::string block = limited_block(client_address);
  if (max <= 0 || block.empty()) return true;
  std::lock_guard l(mu_);
  int64_t& n = open_[block];
  if (n >= max) return false;
  ++n;
  out = Slot(this, std::move(block));
  return true;
}

int64_t ConnectionsPerAddress::open_from(std::string_view client_address) {
  const std::string block = limited_block(client_address);
  if (block.empty()) return 0;
  std::lock_guard l(mu_);
  auto it = open_.find(block);
  return it == open_.end() ? 0 : it->second;
}

void ConnectionsPerAddress::release(const std::string& block) {
  std::lock_guard l(mu_);
  auto it = open_.find(block);
  if (it != open_.end() && --it->second <= 0) open_.erase(it);
}

}  // namespace gs
