// echo_server: a bare Beast WebSocket echo server (same thread/strand layout as the game server:
// one io_context, N threads, one strand per connection). The baseline for loadgen --echo: the
// machine's WebSocket message rate without any game logic or Redis.
// --relay true: connections are paired in the order they arrive, and a message goes back to its
// sender and to the partner, as a move does (the mover's answer and the opponent's event): the
// wire's share of a move, measured without rules, clocks or Redis (loadgen --echo --echo-relay).
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdlib>
#include <iostream>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common.h"
#include "net/drained_socket.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace {

// Socket is tcp::socket behind beast::tcp_stream (bare Beast, the baseline) or
// xqnet::DrainedSocket (--drained-reads true: the game server's reads, to measure what they save).
template <class Socket>
class Session : public std::enable_shared_from_this<Session<Socket>> {
 public:
  template <class S>
  explicit Session(S&& s, bool relay) : ws_(std::forward<S>(s)), relay_(relay) {}
  void run() {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(1 << 20);
    ws_.binary(true);  // relayed messages (loadgen's are binary)
    ws_.async_accept([self = this->shared_from_this()](beast::error_code ec) {
      if (ec) return;
      if (self->relay_) self->pair_up();
      self->read();
    });
  }

 private:
  using Message = std::shared_ptr<const std::string>;

  // The first of two arrivals waits for the second; an unpaired session's messages come back to it alone.
  void pair_up() {
    static std::mutex mu;
    static std::weak_ptr<Session> waiting;
    std::lock_guard l(mu);
    if (auto other = waiting.lock()) {
      {
        std::lock_guard lp(partner_mu_);
        partner_ = other;
      }
      std::lock_guard lo(other->partner_mu_);  // the waiting one reads already
      other->partner_ = this->shared_from_this();
      waiting.reset();
    } else {
      waiting = this->shared_from_this();
    }
  }

  void read() {
    ws_.async_read(buf_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      if (!self->relay_) {
        self->ws_.binary(self->ws_.got_binary());
        self->ws_.async_write(self->buf_.data(), [self](beast::error_code ec2, size_t) {
          if (ec2) return;
          self->buf_.consume(self->buf_.size());
          self->read();
        });
        return;
      }
      auto data = self->buf_.cdata();
      auto m = std::make_shared<const std::string>(static_cast<const char*>(data.data()), data.size());
      self->buf_.consume(self->buf_.size());
      self->queue(m);
      std::shared_ptr<Session> partner;
      {
        std::lock_guard l(self->partner_mu_);
        partner = self->partner_.lock();
      }
      if (partner) asio::post(partner->ws_.get_executor(), [partner, m] { partner->queue(m); });
      self->read();
    });
  }

  void queue(Message m) {  // on this session's strand
    out_.push_back(std::move(m));
    if (out_.size() == 1) write_front();
  }
  void write_front() {
    ws_.async_write(asio::buffer(*out_.front()), [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      self->out_.pop_front();
      if (!self->out_.empty()) self->write_front();
    });
  }

  websocket::stream<Socket> ws_;
  beast::flat_buffer buf_;
  const bool relay_;
  std::mutex partner_mu_;  // partner_ is set once, from the partner's accept, maybe on another thread
  std::weak_ptr<Session> partner_;
  std::deque<Message> out_;
};

using StrandSocket = asio::basic_stream_socket<tcp, asio::strand<asio::io_context::executor_type>>;

void accept(tcp::acceptor& acc, asio::io_context& ioc, bool drained_reads, bool relay) {
  acc.async_accept(asio::make_strand(ioc), [&acc, &ioc, drained_reads, relay](beast::error_code ec, StrandSocket s) {
    if (!ec && drained_reads)
      std::make_shared<Session<xqnet::DrainedSocket<StrandSocket::executor_type>>>(std::move(s), relay)->run();
    else if (!ec)
      std::make_shared<Session<beast::tcp_stream>>(beast::tcp_stream(std::move(s)), relay)->run();
    if (acc.is_open()) accept(acc, ioc, drained_reads, relay);
  });
}

}  // namespace

int run(int argc, char** argv) {
  std::string listen = "127.0.0.1:9001";
  int threads = 2;
  double max_seconds = 3600;
  bool drained_reads = false, relay = false;
  auto flag = [](const std::string& name, const std::string& v, bool& out) {
    if (v != "true" && v != "false") {
      std::cerr << name << ": true or false, not " << v << "\n";
      std::exit(2);
    }
    out = v == "true";
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--listen") listen = val();
    else if (a == "--threads") threads = std::stoi(val());
    else if (a == "--max-seconds") max_seconds = std::stod(val());
    else if (a == "--drained-reads") flag(a, val(), drained_reads);
    else if (a == "--relay") flag(a, val(), relay);
    else {
      std::cout << "usage: echo_server [--listen 127.0.0.1:9001] [--threads 2] [--max-seconds 3600] [--drained-reads false]\n"
                   "                   [--relay false]\n"
                   "Echoes every WebSocket message; with --relay true also sends it to the connection paired with\n"
                   "the sender (paired in arrival order). Exits on SIGINT/SIGTERM or after --max-seconds.\n";
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  uint64_t fds = lg::raise_fd_limit(1 << 20);
  auto colon = listen.rfind(':');
  asio::io_context ioc(threads);
  tcp::acceptor acc(ioc);
  tcp::endpoint ep(asio::ip::make_address(listen.substr(0, colon)),
                   static_cast<uint16_t>(std::stoi(listen.substr(colon + 1))));
  try {
    acc.open(ep.protocol());
    acc.set_option(asio::socket_base::reuse_address(true));
    acc.bind(ep);
    acc.listen(asio::socket_base::max_listen_connections);
  } catch (const std::exception& e) {
    std::cerr << "echo_server: cannot listen on " << listen << ": " << e.what() << "\n";
    return 1;
  }
  accept(acc, ioc, drained_reads, relay);
  asio::signal_set sig(ioc, SIGINT, SIGTERM);
  sig.async_wait([&](beast::error_code, int) { ioc.stop(); });
  asio::steady_timer stop(ioc, std::chrono::milliseconds(static_cast<int64_t>(max_seconds * 1000)));
  stop.async_wait([&](beast::error_code ec) {
    if (!ec) ioc.stop();
  });
  std::cout << "echo_server listening on " << acc.local_endpoint() << " threads=" << threads << " fd_limit=" << fds
            << std::endl;
  std::vector<std::thread> ts;
  for (int i = 1; i < threads; ++i) ts.emplace_back([&] { ioc.run(); });
  ioc.run();
  for (auto& t : ts) t.join();
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a bad --listen or number
    std::cerr << "echo_server: bad option value (" << e.what() << "); --help lists the options\n";
    return 2;
  }
}
