// The server's threads and strands, without exposing Asio in headers (keeps compile times down).
// A Strand runs its handlers one at a time, in order: each game is driven by one strand, so the
// game code needs no locks.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>

namespace gs {

class Runtime;

class Strand {
 public:
  explicit Strand(Runtime& rt);
  ~Strand();
  void post(std::function<void()> fn);
  // A single timer per strand: fires `fn` on this strand at the steady-clock time `deadline_ms`
  // (see steady_ms()); setting it again replaces the previous deadline.
  void set_timer(int64_t deadline_ms, std::function<void()> fn);
  void cancel_timer();

  struct Impl;

 private:
  std::shared_ptr<Impl> impl_;
};

class Runtime {
 public:
  explicit Runtime(int threads);
  ~Runtime();
  void run();   // blocks: runs the io threads until stop()
  void stop();
  void* io_context();  // boost::asio::io_context*, for the network code only

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

int64_t steady_ms();  // monotonic milliseconds
int64_t wall_ms();    // Unix epoch milliseconds

}  // namespace gs
