#include "net/runtime.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <iostream>
#include <thread>
#include <vector>

namespace asio = boost::asio;

namespace gs {

int64_t steady_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}
int64_t wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

struct Runtime::Impl {
  asio::io_context ioc;
  int threads;
  explicit Impl(int n) : ioc(n), threads(n) {}
};

Runtime::Runtime(int threads) : impl_(std::make_unique<Impl>(threads < 1 ? 1 : threads)) {}
Runtime::~Runtime() = default;
void* Runtime::io_context() { return &impl_->ioc; }
void Runtime::stop() { impl_->ioc.stop(); }
void Runtime::run() {
  auto guard = asio::make_work_guard(impl_->ioc);
  std::vector<std::thread> extra;
  for (int i = 1; i < impl_->threads; ++i) extra.emplace_back([this] { impl_->ioc.run(); });
  impl_->ioc.run();
  for (auto& t : extra) t.join();
}

struct Strand::Impl {
  asio::strand<asio::io_context::executor_type> strand;
  asio::steady_timer timer;
  uint64_t generation = 0;  // guards against a cancelled timer's handler running late
  explicit Impl(asio::io_context& ioc) : strand(asio::make_strand(ioc)), timer(strand) {}
};

Strand::Strand(Runtime& rt)
    : impl_(std::make_shared<Impl>(*static_cast<asio::io_context*>(rt.io_context()))) {}
Strand::~Strand() { impl_->timer.cancel(); }

// A handler that throws must not take the process down with it (Asio would rethrow from run()).
static void guarded(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    std::cerr << "handler failed: " << e.what() << '\n';
  } catch (...) {
    std::cerr << "handler failed\n";
  }
}

void Strand::post(std::function<void()> fn) {
  asio::post(impl_->strand, [impl = impl_, fn = std::move(fn)] { guarded(fn); });
}

// Must be called on the strand (the timer object is not thread-safe).
void Strand::set_timer(int64_t deadline_ms, std::function<void()> fn) {
  uint64_t gen = ++impl_->generation;
  auto delay = std::chrono::milliseconds(std::max<int64_t>(0, deadline_ms - steady_ms()));
  impl_->timer.expires_after(delay);
  std::weak_ptr<Impl> weak = impl_;
  impl_->timer.async_wait([weak, gen, fn = std::move(fn)](const boost::system::error_code& ec) {
    auto impl = weak.lock();
    if (ec || !impl || impl->generation != gen) return;
    guarded(fn);
  });
}

void Strand::cancel_timer() {
  ++impl_->generation;
  impl_->timer.cancel();
}

}  // namespace gs
