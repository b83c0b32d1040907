// The network front: one TCP port serving /ws (binary protobuf WebSocket frames) and plain HTTP
// (handled by server/http_api). The only Beast code of the server lives behind this header.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

namespace gs {

class Hub;
class Runtime;

class HttpServer {
 public:
  // Binds and listens at once; throws std::exception if the address is unusable.
  HttpServer(Runtime& rt, Hub& hub, const std::string& host, uint16_t port);
  ~HttpServer();
  uint16_t port() const;
  void start();               // begins accepting (on the runtime's threads)
  void stop_on_signals();     // SIGINT/SIGTERM stop the runtime

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace gs
