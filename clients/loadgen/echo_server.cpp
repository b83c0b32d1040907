// echo_server: a bare Beast WebSocket echo server (same thread/strand layout as the game server:
// one io_context, N threads, one strand per connection). The baseline for loadgen --echo: the
// machine's WebSocket message rate without any game logic or Redis.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <cstdlib>
#include <iostream>
#include <memory>
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
  explicit Session(S&& s) : ws_(std::forward<S>(s)) {}
  void run() {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(1 << 20);
    ws_.async_accept([self = this->shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }

 private:
  void read() {
    ws_.async_read(buf_, [self = this->shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return;
      self->ws_.binary(self->ws_.got_binary());
      self->ws_.async_write(self->buf_.data(), [self](beast::error_code ec2, size_t) {
        if (ec2) return;
        self->buf_.consume(self->buf_.size());
        self->read();
      });
    });
  }
  websocket::stream<Socket> ws_;
  beast::flat_buffer buf_;
};

using StrandSocket = asio::basic_stream_socket<tcp, asio::strand<asio::io_context::executor_type>>;

void accept(tcp::acceptor& acc, asio::io_context& ioc, bool drained_reads) {
  acc.async_accept(asio::make_strand(ioc), [&acc, &ioc, drained_reads](beast::error_code ec, StrandSocket s) {
    if (!ec && drained_reads)
      std::make_shared<Session<xqnet::DrainedSocket<StrandSocket::executor_type>>>(std::move(s))->run();
    else if (!ec)
      std::make_shared<Session<beast::tcp_stream>>(tcp::socket(std::move(s)))->run();
    if (acc.is_open()) accept(acc, ioc, drained_reads);
  });
}

}  // namespace

int run(int argc, char** argv) {
  std::string listen = "127.0.0.1:9001";
  int threads = 2;
  double max_seconds = 3600;
  bool drained_reads = false;
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
    else if (a == "--drained-reads") {
      const std::string v = val();
      if (v != "true" && v != "false") {
        std::cerr << "--drained-reads: true or false, not " << v << "\n";
        return 2;
      }
      drained_reads = v == "true";
    }
    else {
      std::cout << "usage: echo_server [--listen 127.0.0.1:9001] [--threads 2] [--max-seconds 3600] [--drained-reads false]\n"
                   "Echoes every WebSocket message; exits on SIGINT/SIGTERM or after --max-seconds.\n";
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
  accept(acc, ioc, drained_reads);
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
