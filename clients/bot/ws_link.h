// One WebSocket connection of xqbot (binary frames, ws:// only). Beast lives in ws_link.cpp alone, so
// the rest of the bot compiles without it. Everything runs on the io_context's one thread.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace boost::asio {
class io_context;
}

namespace xqbot {

class WsLink {
 public:
  struct Handlers {
    std::function<void()> on_open;                      // handshake done: frames may be sent
    std::function<void(std::string)> on_frame;          // one binary frame received
    std::function<void(const std::string&)> on_closed;  // connect failed or the link broke (once)
  };
  // Starts connecting at once (TCP connect and handshake bounded by `connect_timeout_ms`).
  static std::shared_ptr<WsLink> open(boost::asio::io_context& ioc, const std::string& host, uint16_t port,
                                      const std::string& target, Handlers handlers, int connect_timeout_ms = 5000);
  virtual ~WsLink() = default;
  virtual void send(std::string frame) = 0;  // queued; dropped once the link is closed
  virtual void close() = 0;                  // closes without calling on_closed
};

}  // namespace xqbot
