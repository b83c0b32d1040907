// Open WebSocket connections per client address, so that one host cannot take every socket a node
// has (security review, 2026-12-04: 100 sockets from one address locked everyone out of a node
// limited to 100, and 1,500 guests signed in from one address in 3 s). Addresses are counted by
// their block (net/client_address.h: an IPv4 address, an IPv6 /64). The host's own loopback is not
// counted: the load generator, the tests, a local proxy that names no client.
#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gs {

class ConnectionsPerAddress {
 public:
  // One connection's place in the count: released when it goes (moves along with its session).
  class Slot {
   public:
    Slot() = default;
    Slot(Slot&& o) noexcept : owner_(o.owner_), block_(std::move(o.block_)) { o.owner_ = nullptr; }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    Slot& operator=(Slot&& o) noexcept {
      if (this != &o) {
        if (owner_) owner_->release(block_);
        owner_ = o.owner_, block_ = std::move(o.block_);
        o.owner_ = nullptr;
      }
      return *this;
    }
    ~Slot() {
      if (owner_) owner_->release(block_);
    }

   private:
    friend class ConnectionsPerAddress;
    Slot(ConnectionsPerAddress* owner, std::string block) : owner_(owner), block_(std::move(block)) {}
    ConnectionsPerAddress* owner_ = nullptr;
    std::string block_;
  };

  // A place for a connection from `client_address`, or false when that address already holds
  // `max` (0: no limit). An unknown ("") or loopback address always gets an uncounted place.
  bool try_acquire(std::string_view client_address, int64_t max, Slot& out);
  int64_t open_from(std::string_view client_address);

 private:
  void release(const std::string& block);
  std::mutex mu_;
  std::unordered_map<std::string, int64_t> open_;
};

}  // namespace gs
