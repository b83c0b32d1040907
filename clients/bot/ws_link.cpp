#include "ws_link.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace xqbot {
namespace {

class BeastLink : public WsLink, public std::enable_shared_from_this<BeastLink> {
 public:
  BeastLink(asio::io_context& ioc, Handlers h) : resolver_(ioc), ws_(ioc), h_(std::move(h)) {}

  void start(const std::string& host, uint16_t port, const std::string& target, int timeout_ms) {
    host_ = host + ":" + std::to_string(port);
    target_ = target;
    timeout_ = std::chrono::milliseconds(timeout_ms);
    resolver_.async_resolve(host, std::to_string(port),
                            [self = shared_from_this()](beast::error_code ec, tcp::resolver::results_type r) {
                              if (ec) return self->fail("resolve: " + ec.message());
                              self->connect(r);
                            });
  }

  void send(std::string frame) override {
    if (done_ || !open_) return;
    out_.push_back(std::move(frame));
    if (out_.size() == 1) write_next();
  }

  void close() override {
    if (done_) return;
    done_ = true;
    beast::error_code ec;
    resolver_.cancel();
    beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ec);
    beast::get_lowest_layer(ws_).close();
  }

 private:
  void connect(const tcp::resolver::results_type& r) {
    beast::get_lowest_layer(ws_).expires_after(timeout_);
    beast::get_lowest_layer(ws_).async_connect(r, [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
      if (ec) return self->fail("connect: " + ec.message());
      self->handshake();
    });
  }

  void handshake() {
    beast::get_lowest_layer(ws_).expires_after(timeout_);
    ws_.async_handshake(host_, target_, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->fail("handshake: " + ec.message());
      // From here on the WebSocket's own timeouts: it answers the server's pings, and pings a
      // silent server itself, so a dead link is noticed without traffic of ours.
      beast::get_lowest_layer(self->ws_).expires_never();
      websocket::stream_base::timeout t{};
      t.handshake_timeout = std::chrono::seconds(10);
      t.idle_timeout = std::chrono::seconds(40);
      t.keep_alive_pings = true;
      self->ws_.set_option(t);
      self->ws_.binary(true);
      self->ws_.read_message_max(8 << 20);
      self->open_ = true;
      self->read();
      if (!self->done_ && self->h_.on_open) self->h_.on_open();
    });
  }

  void read() {
    ws_.async_read(in_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->fail("read: " + ec.message());
      std::string frame = beast::buffers_to_string(self->in_.data());
      self->in_.consume(self->in_.size());
      if (!self->done_ && self->h_.on_frame) self->h_.on_frame(std::move(frame));
      if (!self->done_) self->read();
    });
  }

  void write_next() {
    ws_.async_write(asio::buffer(out_.front()), [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->fail("write: " + ec.message());
      self->out_.pop_front();
      if (!self->out_.empty() && !self->done_) self->write_next();
    });
  }

  void fail(const std::string& why) {
    if (done_) return;
    close();
    if (h_.on_closed) h_.on_closed(why);
  }

  tcp::resolver resolver_;
  websocket::stream<beast::tcp_stream> ws_;
  Handlers h_;
  std::string host_, target_;
  std::chrono::milliseconds timeout_{5000};
  beast::flat_buffer in_;
  std::deque<std::string> out_;
  bool open_ = false, done_ = false;
};

}  // namespace

std::shared_ptr<WsLink> WsLink::open(asio::io_context& ioc, const std::string& host, uint16_t port,
                                     const std::string& target, Handlers handlers, int connect_timeout_ms) {
  auto link = std::make_shared<BeastLink>(ioc, std::move(handlers));
  link->start(host, port, target, connect_timeout_ms);
  return link;
}

}  // namespace xqbot
