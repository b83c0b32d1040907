// A small synchronous WebSocket client for the integration tests (Beast lives in ws_client.cpp).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xq.pb.h"

class WsClient {
 public:
  // `forwarded_for`: sent as X-Forwarded-For, as a reverse proxy would (the server believes it from
  // loopback, its default --trusted-proxies); '\n' separates header lines.
  explicit WsClient(uint16_t port, const std::string& forwarded_for = "");
  ~WsClient();

  void send(xq::v1::ClientMessage m);  // request_id kept as given
  void send_raw(const std::string& bytes, bool binary = true);
  // Next frame (from the backlog first), or nullopt after timeout / when closed.
  std::optional<xq::v1::ServerMessage> next(int timeout_ms = 3000);
  // Waits for a frame matching `pred`; frames skipped on the way stay in the backlog.
  std::optional<xq::v1::ServerMessage> wait_for(const std::function<bool(const xq::v1::ServerMessage&)>& pred,
                                                int timeout_ms = 3000);
  // Sends with a fresh request_id and waits for the direct answer carrying it (Reply, Error, Pong,
  // SeekList or GameList; game states sent on the way stay in the backlog).
  xq::v1::ServerMessage request(xq::v1::ClientMessage m, int timeout_ms = 5000);
  bool closed() const;

  // Every frame ever received, decoded, in order (for secrecy audits).
  const std::vector<xq::v1::ServerMessage>& history() const { return history_; }

 private:
  bool pump(int timeout_ms);  // reads at most one frame into the backlog
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<xq::v1::ServerMessage> backlog_;
  std::vector<xq::v1::ServerMessage> history_;
  uint64_t next_request_id_ = 1;
};
