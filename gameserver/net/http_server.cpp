#include "net/http_server.h"

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <deque>
#include <iostream>
#include <string_view>
#include <utility>

#include "net/address_limit.h"
#include "net/drained_socket.h"
#include "net/runtime.h"
#include "server/game_actor.h"
#include "server/http_api.h"
#include "server/hub.h"
#include "server/metrics.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;

namespace gs {
namespace {

std::atomic<uint64_t> g_next_connection_id{1};

// A WebSocket connection's socket bound to its own strand by type: posting a frame to it skips
// the type-erased any_io_executor, and the WebSocket stream sits on the socket directly (its own
// timer does the timeouts, so beast::tcp_stream's per-operation timer bookkeeping is not needed).
using StrandExecutor = asio::strand<asio::io_context::executor_type>;
using StrandSocket = asio::basic_stream_socket<tcp, StrandExecutor>;

StrandSocket rebind_to_new_strand(tcp::socket&& s, asio::io_context& ioc) {
  StrandSocket out(asio::make_strand(ioc));
  beast::error_code ec;
  const auto protocol = s.local_endpoint(ec).protocol();
  if (ec) return out;  // already gone: the session fails at its first operation
  out.assign(protocol, s.release(ec), ec);
  return out;
}

// RFC 6455 4.2.1: the key is the base64 of 16 bytes (24 characters, the last two "=="). Beast only
// checks that it is there and not too long, so "x" was accepted.
bool valid_websocket_key(beast::string_view field) {
  constexpr std::string_view kBase64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string_view key(field.data(), field.size());
  return key.size() == 24 && key.substr(22) == "==" && key.substr(0, 22).find_first_not_of(kBase64) == std::string_view::npos;
}

// Counts a client socket in Metrics::sockets for as long as it is open (moved from the HTTP
// session to the WebSocket session at the upgrade), for --max-sockets.
class SocketSlot {
 public:
  explicit SocketSlot(Metrics& m) : m_(&m) { ++m_->sockets; }
  SocketSlot(SocketSlot&& o) noexcept : m_(std::exchange(o.m_, nullptr)) {}
  SocketSlot(const SocketSlot&) = delete;
  SocketSlot& operator=(const SocketSlot&) = delete;
  SocketSlot& operator=(SocketSlot&&) = delete;
  ~SocketSlot() {
    if (m_) --m_->sockets;
  }

 private:
  Metrics* m_;
};

class WsSession : public Connection, public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(StrandSocket&& socket, SocketSlot&& slot, ConnectionsPerAddress::Slot&& place, Hub& hub, std::string remote,
            std::string client_address)
      : Connection(g_next_connection_id++, std::move(remote), std::move(client_address)),
        ws_(WsSocket(std::move(socket))),
        slot_(std::move(slot)),
        place_(std::move(place)),
        hub_(hub) {}

  void run(http::request<http::string_body> req) {
    // Beast's own idle timeout re-arms a timer on every read (a cancelled wait and a new one per
    // frame: 5-10 % of the moves at saturation); watch() checks the silence twice per idle period.
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.control_callback([this](websocket::frame_type, beast::string_view) { last_heard_ms_ = steady_ms(); });
    ws_.read_message_max(hub_.options().hard_frame_bytes);
    ws_.binary(true);
    ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->opened_ = true;
      self->hub_.on_open(self);
      self->opened_ms_ = self->last_heard_ms_ = steady_ms();
      self->watch();
      self->do_read();
    });
  }

  void send(std::string frame) override {
    asio::post(ws_.get_executor(), [self = shared_from_this(), f = std::move(frame)]() mutable {
      if (self->closed_ || self->close_when_sent_) return;
      const ServerOptions& o = self->hub_.options();
      if (self->queue_.size() >= o.send_queue_frames || self->queued_bytes_ + f.size() > o.send_queue_bytes)
        return self->drop_slow_reader();
      self->queued_bytes_ += f.size();
      self->queue_.push_back(std::move(f));
      if (!self->writing_) self->do_write();
    });
  }

  // A close the server's logic asks for (a ban, a disconnect, the sign-in deadline): the frames
  // queued before it go out first, so the client is told why; then the closing handshake. (Closing
  // at once dropped a frame queued behind a write still in flight: a banned player sometimes never
  // read BANNED.)
  void close() override {
    asio::post(ws_.get_executor(), [self = shared_from_this()] {
      if (self->closed_) return;
      if (self->writing_ || !self->queue_.empty()) self->close_when_sent_ = true;  // do_write closes
      else self->close_now();
    });
  }

 private:
  // Every half idle period (or sooner, for the sign-in deadline): a socket that never signed in
  // only holds a slot (one host could take them all), so it is closed at the deadline; one silent
  // for half the idle time is pinged (browsers and WebSocket libraries answer by themselves), and
  // one that leaves the ping unanswered for half the idle time is a dead link (lost Wi-Fi, a frozen
  // client): reset, so that its slot is free and its player counts as gone. Silent 1–1.5 idle
  // times in all (idle_ms(): shorter for a client that pings by itself).
  void watch() {
    const ServerOptions& o = hub_.options();
    const int64_t idle = idle_ms();
    const int64_t period = idle > 0 ? std::max<int64_t>(1, idle / 2) : o.login_deadline_ms;
    const int64_t until_deadline = opened_ms_ + o.login_deadline_ms - steady_ms();
    const bool signed_in = user().has_value();
    watch_timer_.expires_after(std::chrono::milliseconds(signed_in ? period : std::max<int64_t>(1, std::min(period, until_deadline))));
    watch_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec || self->closed_) return;
      const ServerOptions& o = self->hub_.options();
      const int64_t now = steady_ms();
      if (!self->user() && now - self->opened_ms_ >= o.login_deadline_ms && !self->request_off_io()) {  // a sign-in still being hashed is no idle socket
        send_error(*self, 0, xq::v1::NOT_AUTHENTICATED, "not signed in in time: connection closed", self->hub_.metrics());
        return self->close();  // posted after the error frame, which goes out first
      }
      // A link is dead only after a ping went unanswered for half the idle time. (Judging by the
      // silence alone dropped live clients: a pong heard just after one check left the next check
      // short of "ping", and the one after past "dead", with no ping in between.)
      if (const int64_t idle = self->idle_ms(); idle > 0) {
        const int64_t half = idle / 2;
        const bool awaiting_pong = self->ping_sent_ms_ > self->last_heard_ms_;
        if (awaiting_pong && now - self->ping_sent_ms_ >= half) return self->drop_dead_link();
        if (!awaiting_pong && now - self->last_heard_ms_ >= half) {
          self->ping_sent_ms_ = now;
          self->ws_.async_ping({}, [self](beast::error_code) {});
        }
      }
      self->watch();
    });
  }

  // The silence after which this link counts as dead: shorter once the client has shown that it
  // pings by itself (Connection::heartbeat).
  int64_t idle_ms() const {
    const ServerOptions& o = hub_.options();
    if (!heartbeat() || o.heartbeat_idle_ms <= 0) return o.idle_timeout_ms;
    return o.idle_timeout_ms > 0 ? std::min(o.idle_timeout_ms, o.heartbeat_idle_ms) : o.heartbeat_idle_ms;
  }

  // Re-arms the watch at once with the shorter period (the wait in progress may be 15 s long).
  void on_heartbeat_start() override {
    asio::post(ws_.get_executor(), [self = shared_from_this()] {
      if (self->closed_ || !self->opened_) return;
      self->watch();  // replaces the pending wait, which ends as cancelled
    });
  }

  void do_read() {
    ws_.async_read(buf_, [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec) return finish();
    last_heard_ms_ = steady_ms();
    std::string data = beast::buffers_to_string(buf_.data());
    buf_.consume(buf_.size());
    auto self = shared_from_this();
    if (!ws_.got_binary()) hub_.on_text_frame(self);
    else hub_.on_frame(self, data);
    do_read();
  }

  void do_write() {
    writing_ = true;
    ws_.async_write(asio::buffer(queue_.front()), [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->finish();
      self->queued_bytes_ -= self->queue_.front().size();
      self->queue_.pop_front();
      if (self->queue_.empty() || self->closed_) {
        self->writing_ = false;
        if (self->close_when_sent_) self->close_now();
      } else {
        self->do_write();
      }
    });
  }

  // Forgets the queued frames except the one being written: its buffer belongs to the pending
  // async_write until that completes.
  void clear_queue() {
    while (queue_.size() > (writing_ ? 1 : 0)) {
      queued_bytes_ -= queue_.back().size();
      queue_.pop_back();
    }
  }

  // The client is not reading. A closing handshake would wait behind the stuck write forever (the
  // connection stayed open until the idle timeout, its games still publishing to it), so the
  // socket is reset instead: the pending read and write fail and finish() tells the hub.
  void drop_slow_reader() {
    hub_.metrics().slow_readers_dropped_total++;
    drop_dead_link();
  }

  void drop_dead_link() {
    closed_ = true;
    clear_queue();
    auto& sock = ws_.next_layer();
    beast::error_code ignored;
    sock.set_option(asio::socket_base::linger(true, 0), ignored);  // RST: do not keep the unread bytes
    sock.close(ignored);
  }

  void close_now() {
    if (closed_) return;
    closed_ = true;
    clear_queue();
    ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) { self->finish(); });
  }

  void finish() {
    closed_ = true;
    watch_timer_.cancel();  // its wait holds the session (and its socket slot) until it ends
    if (opened_ && !finished_) {
      finished_ = true;
      hub_.on_close(shared_from_this());
    }
  }

  // Reads skip Asio's extra read that only finds the queue empty (net/drained_socket.h).
  using WsSocket = xqnet::DrainedSocket<StrandExecutor>;
  websocket::stream<WsSocket> ws_;
  asio::basic_waitable_timer<std::chrono::steady_clock, asio::wait_traits<std::chrono::steady_clock>, StrandExecutor> watch_timer_{ws_.get_executor()};
  int64_t opened_ms_ = 0, last_heard_ms_ = 0, ping_sent_ms_ = 0;  // steady ms: the upgrade, the last frame (or pong) received
  SocketSlot slot_;
  ConnectionsPerAddress::Slot place_;  // in the count of its client address
  Hub& hub_;
  beast::flat_buffer buf_;
  std::deque<std::string> queue_;
  size_t queued_bytes_ = 0;
  bool writing_ = false, closed_ = false, opened_ = false, finished_ = false;
  bool close_when_sent_ = false;  // close() came while frames were queued: close once they are out
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Hub& hub) : stream_(std::move(socket)), slot_(hub.metrics()), hub_(hub) {}
  void run() {
    asio::dispatch(stream_.get_executor(), [self = shared_from_this()] { self->do_read(); });
  }

 private:
  void do_read() {
    req_ = {};
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buf_, req_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

  // Answers a request that cannot be served and closes the connection.
  void refuse(http::status status, std::string json, std::vector<std::pair<http::field, std::string>> headers = {}) {
    auto res = std::make_shared<http::response<http::string_body>>(status, 11);
    res->set(http::field::server, "xq-gameserver");
    for (auto& [field, value] : headers) res->set(field, std::move(value));
    res->set(http::field::content_type, "application/json");
    res->body() = std::move(json);
    res->keep_alive(false);
    res->prepare_payload();
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, size_t) {
      beast::error_code ignored;
      self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
      // Reads and drops the rest of the request for a while: closing with it unread would reset
      // the connection, and a client still sending would never see the answer.
      if (!ec) self->drain(std::make_shared<std::array<char, 16384>>());
    });
  }

  void on_read(beast::error_code ec) {
    // Answered, not just dropped: an oversized request, and one the parser refused (a bad method,
    // target, version, header or length). A client that closed or went quiet gets nothing.
    if (ec == http::error::body_limit) return refuse(http::status::payload_too_large, R"({"error":"request body too large: at most 1 MiB"})");
    if (ec == http::error::header_limit)
      return refuse(http::status::request_header_fields_too_large, R"({"error":"request headers too large: at most 8 KiB"})");
    if (ec && ec.category() == beast::error_code(http::error::bad_target).category() && ec != http::error::end_of_stream &&
        ec != http::error::partial_message)
      return refuse(http::status::bad_request, R"({"error":"malformed HTTP request"})");
    if (ec) {
      beast::error_code ignored;
      stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
      return;
    }
    std::string target(req_.target());
    std::string remote, address;  // the socket's peer; the client's address (net/client_address.h)
    {
      beast::error_code e2;
      auto ep = stream_.socket().remote_endpoint(e2);
      if (!e2) {
        remote = ep.address().to_string() + ":" + std::to_string(ep.port());
        // Repeated header lines are one comma-separated list (a proxy may add a line of its own).
        std::string forwarded;
        for (auto [it, end] = req_.equal_range("X-Forwarded-For"); it != end; ++it)
          forwarded.append(forwarded.empty() ? "" : ",").append(it->value().data(), it->value().size());
        address = gs::client_address(ep.address().to_string(), forwarded, hub_.options().trusted_proxies);
      }
    }
    if (websocket::is_upgrade(req_) && target.substr(0, target.find('?')) == "/ws") {
      if (!valid_websocket_key(req_[http::field::sec_websocket_key]))
        return refuse(http::status::bad_request, R"j({"error":"Sec-WebSocket-Key must be the base64 of 16 bytes (RFC 6455)"})j");
      // Answered as the server's other errors are (Beast's own answer was plain text), with the
      // version it speaks, as RFC 6455 (4.4) asks.
      if (req_[http::field::sec_websocket_version] != "13")
        return refuse(http::status::upgrade_required, R"j({"error":"Sec-WebSocket-Version must be 13 (RFC 6455)"})j",
                      {{http::field::sec_websocket_version, "13"}});
      ConnectionsPerAddress::Slot place;
      const int64_t per_address = hub_.options().max_connections_per_address;
      if (!hub_.connections_per_address().try_acquire(address, per_address, place)) {
        hub_.metrics().connections_refused_per_address_total++;
        return refuse(http::status::too_many_requests,
                      R"({"error":"too many connections from your address (at most )" + std::to_string(per_address) +
                          R"(): close some","code":"too_many_connections"})");
      }
      stream_.expires_never();
      auto& ioc = static_cast<asio::io_context&>(stream_.get_executor().context());
      std::make_shared<WsSession>(rebind_to_new_strand(stream_.release_socket(), ioc), std::move(slot_), std::move(place), hub_,
                                  remote, std::move(address))
          ->run(std::move(req_));
      return;
    }
    // An explicit X-Admin-Token wins over a session token in Authorization.
    std::string token(req_["X-Admin-Token"]);
    if (token.empty()) {
      token = std::string(req_[http::field::authorization]);
      if (beast::iequals(std::string_view(token).substr(0, 7), "Bearer ")) {
        token = token.substr(7);  // the scheme has no case
      } else if (!token.empty() && token.find(' ') == std::string::npos) {
        // A bare token is refused rather than guessed at: one form to check.
        HttpResult r{401, "application/json", R"({"error":"Authorization must be \"Bearer <token>\""})"};
        r.headers.emplace_back("WWW-Authenticate", "Bearer");
        return respond(std::move(r));
      } else {
        // Another scheme is not ours (a proxy's Basic login, which browsers then send with every
        // request): the request goes on without a credential, and one that needs it is refused so.
        token.clear();
      }
    }
    std::string method(req_.method_string());
    // The API may wait (Redis, the matchmaker's answer, a game's strand): off the io threads. Static
    // files and /metrics are answered from memory or disk here.
    if (const HttpLane lane = http_lane(target); lane != HttpLane::Io) {
      auto job = [self = shared_from_this(), method, target, token, address]() mutable {
        HttpResult r = handle_http(self->hub_, method, target, self->req_.body(), token, address);
        asio::post(self->stream_.get_executor(), [self, r = std::move(r)]() mutable { self->respond(std::move(r)); });
      };
      if (!hub_.post_http(std::move(job), lane == HttpLane::Probe))
        respond({503, "application/json", R"({"error":"busy: retry in a moment"})"});
      return;
    }
    respond(handle_http(hub_, method, target, req_.body(), token, address));
  }

  void respond(HttpResult r) {
    auto res = std::make_shared<http::response<http::string_body>>(static_cast<http::status>(r.status), req_.version());
    res->set(http::field::server, "xq-gameserver");
    res->set(http::field::content_type, r.content_type);
    // No other site may frame the pages (a Resign button under a decoy) or have a file sniffed
    // into another type; links out carry no referrer. The page runs only its own scripts and talks
    // only to its own server (the token it keeps would be worth stealing with an injected script).
    res->set("X-Content-Type-Options", "nosniff");
    res->set("X-Frame-Options", "DENY");
    res->set("Content-Security-Policy",
             "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
             "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
    res->set("Referrer-Policy", "no-referrer");
    // The API's answers are private and live (tokens, a game's state): kept by no cache. The web
    // client's files may be.
    const std::string_view path(req_.target().data(), req_.target().size());
    if (path.substr(0, 5) == "/api/" || path.substr(0, 8) == "/metrics") res->set(http::field::cache_control, "no-store");
    for (const auto& [name, value] : r.headers) res->set(name, value);
    res->keep_alive(req_.keep_alive());
    if (req_.method() == http::verb::head) {
      res->content_length(r.body.size());  // what a GET would carry, without it
    } else {
      res->body() = std::move(r.body);
      res->prepare_payload();
    }
    http::async_write(stream_, *res, [self = shared_from_this(), res](beast::error_code ec, size_t) {
      if (ec) return;
      if (!res->keep_alive()) {
        beast::error_code ignored;
        self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        return;
      }
      self->do_read();
    });
  }

  void drain(std::shared_ptr<std::array<char, 16384>> scratch, size_t drained = 0) {
    if (drained == 0) stream_.expires_after(std::chrono::seconds(5));
    stream_.async_read_some(asio::buffer(*scratch), [self = shared_from_this(), scratch, drained](beast::error_code ec, size_t n) {
      if (!ec && drained + n < (64u << 20)) self->drain(scratch, drained + n);  // else EOF, timeout or enough
    });
  }

  beast::tcp_stream stream_;
  SocketSlot slot_;
  ConnectionsPerAddress::Slot place_;  // in the count of its client address
  Hub& hub_;
  beast::flat_buffer buf_;
  http::request<http::string_body> req_;
};

}  // namespace

struct HttpServer::Impl : std::enable_shared_from_this<HttpServer::Impl> {
  Runtime& rt;
  asio::io_context& ioc;
  Hub& hub;
  tcp::acceptor acceptor;
  asio::signal_set signals;
  asio::steady_timer retry;  // accepting again after running out of descriptors

  // The acceptor lives on a strand: the signal handler closes it while the accept loop may be
  // re-arming it on another thread, and Asio sockets are not safe for concurrent use (that race
  // crashed a node now and then when it was asked to stop).
  Impl(Runtime& r, Hub& h, const std::string& host, uint16_t port)
      : rt(r),
        ioc(*static_cast<asio::io_context*>(r.io_context())),
        hub(h),
        acceptor(asio::make_strand(ioc)),
        signals(acceptor.get_executor()),
        retry(acceptor.get_executor()) {
    tcp::endpoint ep(asio::ip::make_address(host), port);
    acceptor.open(ep.protocol());
    acceptor.set_option(asio::socket_base::reuse_address(true));
    acceptor.bind(ep);
    acceptor.listen(asio::socket_base::max_listen_connections);
  }

  void accept() {
    acceptor.async_accept(asio::make_strand(ioc), [self = shared_from_this()](beast::error_code ec, tcp::socket s) {
      if (ec == asio::error::operation_aborted) return;  // closed: stopping
      if (!ec) {
        const int64_t cap = self->hub.options().max_sockets;
        if (cap > 0 && self->hub.metrics().sockets.load() >= cap) {
          self->hub.metrics().sockets_refused_total++;
          beast::error_code ignored;
          s.close(ignored);  // full: the descriptors left are Redis's
        } else {
          // Without TCP_NODELAY a small frame (a move's ack) written after a large one (a seek
          // list) waited for the client's delayed ACK: ~40 ms added to moves whenever the lobby was busy.
          beast::error_code ignored;
          s.set_option(tcp::no_delay(true), ignored);
          std::make_shared<HttpSession>(std::move(s), self->hub)->run();
        }
      } else if (ec == asio::error::no_descriptors || ec == asio::error::no_buffer_space ||
                 ec == asio::error::no_memory || ec.value() == ENFILE) {
        // Out of descriptors or memory: the pending connection stays queued, so accepting again at
        // once fails again at once (a busy loop that took a core). Wait a little.
        self->retry.expires_after(std::chrono::milliseconds(100));
        self->retry.async_wait([self](beast::error_code e) {
          if (!e && self->acceptor.is_open()) self->accept();
        });
        return;
      }
      if (self->acceptor.is_open()) self->accept();
    });
  }
};

HttpServer::HttpServer(Runtime& rt, Hub& hub, const std::string& host, uint16_t port)
    : impl_(std::make_shared<Impl>(rt, hub, host, port)) {}
HttpServer::~HttpServer() = default;
uint16_t HttpServer::port() const { return impl_->acceptor.local_endpoint().port(); }
void HttpServer::start() { impl_->accept(); }

void HttpServer::stop_on_signals() {
  impl_->signals.add(SIGINT);
  impl_->signals.add(SIGTERM);
  impl_->signals.async_wait([impl = impl_](beast::error_code, int) {
    beast::error_code ignored;
    impl->acceptor.close(ignored);
    impl->rt.stop();
  });
}

}  // namespace gs
