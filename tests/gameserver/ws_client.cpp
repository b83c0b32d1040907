#include "ws_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <stdexcept>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

// One read is always outstanding; next() runs the io_context until it completes or time runs
// out, so a timeout never cancels a read (which would break the WebSocket stream).
struct WsClient::Impl {
  asio::io_context ioc;
  websocket::stream<tcp::socket> ws{ioc};
  beast::flat_buffer buf;
  std::deque<std::string> frames;
  bool closed = false;
  bool reading = false;

  void read() {
    reading = true;
    ws.async_read(buf, [this](beast::error_code ec, size_t) {
      reading = false;
      if (ec) {
        closed = true;
        return;
      }
      frames.push_back(beast::buffers_to_string(buf.data()));
      buf.consume(buf.size());
      read();
    });
  }
};

WsClient::WsClient(uint16_t port, const std::string& forwarded_for) : impl_(std::make_unique<Impl>()) {
  tcp::resolver resolver(impl_->ioc);
  asio::connect(impl_->ws.next_layer(), resolver.resolve("127.0.0.1", std::to_string(port)));
  if (!forwarded_for.empty())
    impl_->ws.set_option(websocket::stream_base::decorator(
        [forwarded_for](websocket::request_type& req) {  // one header line per '\n'-separated part
          size_t from = 0;
          for (size_t nl; (nl = forwarded_for.find('\n', from)) != std::string::npos; from = nl + 1)
            req.insert("X-Forwarded-For", forwarded_for.substr(from, nl - from));
          req.insert("X-Forwarded-For", forwarded_for.substr(from));
        }));
  impl_->ws.handshake("127.0.0.1:" + std::to_string(port), "/ws");
  impl_->ws.binary(true);
  impl_->ws.read_message_max(64 << 20);
  impl_->read();
}

WsClient::~WsClient() {
  beast::error_code ec;
  impl_->ws.next_layer().close(ec);
  impl_->ioc.restart();
  impl_->ioc.run_for(std::chrono::milliseconds(50));
}

bool WsClient::closed() const { return impl_->closed; }

void WsClient::send(xq::v1::ClientMessage m) { send_raw(m.SerializeAsString(), true); }

void WsClient::send_raw(const std::string& bytes, bool binary) {
  if (impl_->closed) return;
  beast::error_code ec;
  impl_->ws.binary(binary);
  impl_->ws.write(asio::buffer(bytes), ec);
  impl_->ws.binary(true);
  if (ec) impl_->closed = true;
}

bool WsClient::pump(int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (impl_->frames.empty() && !impl_->closed) {
    auto left = deadline - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) break;
    impl_->ioc.restart();
    impl_->ioc.run_one_for(left);
  }
  if (impl_->frames.empty()) return false;
  xq::v1::ServerMessage m;
  if (!m.ParseFromString(impl_->frames.front())) throw std::runtime_error("server sent an undecodable frame");
  impl_->frames.pop_front();
  history_.push_back(m);
  backlog_.push_back(std::move(m));
  return true;
}

std::optional<xq::v1::ServerMessage> WsClient::next(int timeout_ms) {
  if (backlog_.empty() && !pump(timeout_ms)) return std::nullopt;
  auto m = backlog_.front();
  backlog_.erase(backlog_.begin());
  return m;
}

std::optional<xq::v1::ServerMessage> WsClient::wait_for(const std::function<bool(const xq::v1::ServerMessage&)>& pred,
                                                        int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  size_t checked = 0;
  while (true) {
    for (; checked < backlog_.size(); ++checked) {
      if (pred(backlog_[checked])) {
        auto m = backlog_[checked];
        backlog_.erase(backlog_.begin() + static_cast<long>(checked));
        return m;
      }
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0 || !pump(static_cast<int>(left.count()))) {
      if (std::chrono::steady_clock::now() >= deadline || impl_->closed) return std::nullopt;
    }
  }
}

xq::v1::ServerMessage WsClient::request(xq::v1::ClientMessage m, int timeout_ms) {
  uint64_t rid = 1000000 + next_request_id_++;
  m.set_request_id(rid);
  send(m);
  auto r = wait_for([rid](const auto& s) {
                      return s.request_id() == rid && (s.has_reply() || s.has_error() || s.has_pong() ||
                                                       s.has_seeks() || s.has_games());
                    },
                    timeout_ms);
  if (!r) throw std::runtime_error("no answer to request " + std::to_string(rid));
  return *r;
}
