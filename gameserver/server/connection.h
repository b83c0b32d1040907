// A client connection as the game logic sees it: something to send frames to. Implemented by the
// WebSocket session (net/); tests and logic never see Beast.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "auth/auth.h"

namespace gs {

class Connection {
 public:
  // `remote`: the socket's peer (host:port), shown to admins; `client_address`: the client's address
  // behind any trusted proxy (net/client_address.h), for limits per address ("" = unknown).
  Connection(uint64_t id, std::string remote, std::string client_address = "")
      : id_(id), remote_(std::move(remote)), client_address_(std::move(client_address)) {}
  virtual ~Connection() = default;

  // Queues one binary frame; thread-safe, never blocks. Dropped if the connection is closed.
  virtual void send(std::string frame) = 0;
  virtual void close() = 0;  // thread-safe

  uint64_t id() const { return id_; }
  const std::string& remote() const { return remote_; }
  const std::string& client_address() const { return client_address_; }
  std::optional<User> user() const {
    std::lock_guard l(mu_);
    return user_;
  }
  void set_user(User u) {
    std::lock_guard l(mu_);
    user_ = std::move(u);
  }
  // The token bucket of the frames this connection may send (the hub asks once per frame). Kept
  // here rather than in a hub map: no shared lock and no lookup on every frame.
  bool take_token(double per_second, double burst, int64_t now_ms) {
    std::lock_guard l(mu_);
    tokens_ = std::min(burst, tokens_ + static_cast<double>(now_ms - refill_ms_) * per_second / 1000.0);
    refill_ms_ = now_ms;
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }
  // One of its requests waits on a worker pool (Hub::route), so frames arriving meanwhile are held
  // back in order. Kept here for the same reason as the tokens: read without the hub's lock on
  // every frame. Set only while a frame of this connection is being routed, cleared by the pool
  // under the hub's lock: a false read is final, a true one is checked again under the lock.
  bool request_off_io() const { return off_io_.load(std::memory_order_acquire); }
  void set_request_off_io(bool on) { off_io_.store(on, std::memory_order_release); }

  // Application pings that come regularly (two within `within_ms`: the web client pings every
  // 5 s; a load generator's idle connections once a minute do not count) promise more of them, so
  // a shorter silence means a dead link (ServerOptions::heartbeat_idle_ms). Called by the hub.
  void note_ping(int64_t now_ms, int64_t within_ms) {
    const int64_t last = last_ping_ms_.exchange(now_ms, std::memory_order_relaxed);
    if (within_ms > 0 && last > 0 && now_ms - last <= within_ms && !heartbeat_.exchange(true, std::memory_order_relaxed))
      on_heartbeat_start();
  }
  bool heartbeat() const { return heartbeat_.load(std::memory_order_relaxed); }

 protected:
  virtual void on_heartbeat_start() {}  // the socket's watch starts using the shorter period

 private:
  const uint64_t id_;
  const std::string remote_;
  const std::string client_address_;
  mutable std::mutex mu_;
  std::optional<User> user_;
  double tokens_ = 0;       // full at the first frame (refill from time 0)
  int64_t refill_ms_ = 0;
  std::atomic<bool> off_io_{false};
  std::atomic<bool> heartbeat_{false};
  std::atomic<int64_t> last_ping_ms_{0};
};

}  // namespace gs
