// loadgen: load generator for the game server over the real protocol (ws://HOST:PORT/ws, protobuf
// frames, docs/protocol.md). Usage and method: clients/loadgen/README.md.
//
// Layout: T worker threads, each with its own io_context run by that thread alone, so a
// connection and everything it touches (its game, both players of that game) live on one thread
// and need no locks. The main thread only orchestrates phases (posting to the workers) and prints
// statistics read from per-worker relaxed atomics.
//
// Phases: (1) connect + log in the players of M games (two guests per game), set up every game
// (owner: create_seek, other: accept_seek, both wait for game_started), with a bound on setups in
// flight; (2) connect + log in the idle connections (RSS before/after → bytes per idle
// connection); (3) play: each game makes one move every --move-interval-ms (random legal moves,
// seeded), finished games are set up again; warm-up, then the measured window; (4) report, close.
//
// Move latency = time from the mover sending `move` until the OPPONENT's connection has received
// the game_event for that ply.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/asio/basic_stream_socket.hpp>
#include <boost/asio/basic_waitable_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/program_options.hpp>
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "common.h"
#include "net/drained_socket.h"
#include "rules/fen.h"
#include "rules/position.h"
#include "server_metrics.h"
#include "xq.pb.h"

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace po = boost::program_options;
namespace v1 = xq::v1;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
// Concrete executor types instead of the type-erased any_io_executor of beast::tcp_stream and
// asio::steady_timer: every handler of every frame and timer copied and destroyed an
// any_io_executor (about 7 % of loadgen's CPU in perf). Everything of a worker runs on its one
// io_context anyway. The socket is a plain TCP socket: tcp_stream's per-operation timeout was
// only used for the connect (Conn::start arms its own timer for that). Its reads skip Asio's extra
// read that only finds the queue empty (net/drained_socket.h), as the game server's do.
using Executor = asio::io_context::executor_type;
using Socket = xqnet::DrainedSocket<Executor>;
using Timer = asio::basic_waitable_timer<Clock, asio::wait_traits<Clock>, Executor>;

namespace {

struct Options {
  std::string host = "127.0.0.1";
  int port = 8080;
  int second_port = 0;  // handoff mode: the acceptors (seat 1) connect here, so each game spans two nodes
  int threads = 2;
  int games = 100;
  int connections = 0;  // total; idle = connections - 2*games
  int move_interval_ms = 1000;
  double warmup_s = 5, duration_s = 30, report_s = 5;
  double ramp_timeout_s = 300;
  uint64_t seed = 1;
  std::string variant = "xiangqi";
  bool jieqi = false;  // variant == "jieqi"
  uint32_t initial_ms = 6u * 3600 * 1000;  // long: games end on the board, not by the flag
  int setup_concurrency = 32;
  int connect_concurrency = 256;
  bool idle_login = true;
  double idle_ping_s = 60;
  bool idle_list_seeks = false;  // idle connections ask for the seek list once (lobby watchers)
  bool restart = true;
  // > 0: each game resigns at a random ply between half this and this, so that games end (and are
  // set up again) at different times, as on a live server; 0: games end on the board only (the
  // move limit ends most of them at the same ply, i.e. all at once when they started together).
  int resign_at_plies = 0;
  // The games' rule set (cxa | axf | computer): what the server judges after each move differs
  // (CXA labels the moves of a nine-round cycle).
  std::string ruleset = "cxa";
  // First moves spread over one move interval plus this (seconds), so that games are of different
  // ages as on a live server; 0: all games start within one interval and grow in step (their move
  // histories reach the same sizes at the same moment, e.g. plies 64 and 128).
  double start_spread_s = 0;
  bool event_is_reply = true;  // MakeMove.event_is_reply, as the web client sends it
  long server_pid = 0, redis_pid = 0;
  bool echo = false;
  bool server_metrics = true;  // read the server's latency histograms (GET /metrics) around the window
  int echo_size = 40;
  int echo_interval_ms = 0;
  // --echo against `echo_server --relay true`: a message comes back to its sender and goes to the
  // paired connection, which answers it with its own: the wire of a move without the game server.
  bool echo_relay = false;
  double stall_ms = 10000;
  double hold_s = 0;  // keep the connections open this long after the report
  // direct: the two player connections log in, seek, accept and play.
  // handoff: a small pool of setup connections logs in the two guests and sets the game up; the
  // player connections then resume those sessions with hello{token} + sync (the reconnect path).
  std::string setup_mode = "direct";
  // handoff only, how a finished game is set up again: new-guests (two fresh guests on the setup
  // pool, then hello + sync on the players' connections, as at the start) or rematch (the two
  // players seek and accept again on their own connections, as people who stay online do).
  std::string restart_mode = "new-guests";
};
Options opt;

std::atomic<bool> g_playing{false};    // games may move
std::atomic<bool> g_measuring{false};  // latencies/moves are recorded
std::atomic<bool> g_stopping{false};
// handoff, first setup round: player connections wait until every game is set up, so that the
// lobby broadcasts during setup reach only the small setup pool.
std::atomic<bool> g_defer_players{true};

const char* error_name(int code) {
  auto* d = v1::ErrorCode_descriptor()->FindValueByNumber(code);
  return d ? d->name().c_str() : "?";
}

constexpr int kMaxCode = 64;
struct Stats {
  std::atomic<uint64_t> moves{0};        // opponent received the event (any time)
  std::atomic<uint64_t> moves_sent{0};
  std::atomic<uint64_t> frames_in{0}, frames_out{0};
  std::atomic<uint64_t> seek_frames{0};  // pushed seek lists received
  std::atomic<uint64_t> errors[kMaxCode] = {};
  std::atomic<uint64_t> connected{0}, logged_in{0}, connect_failed{0}, closed{0};
  std::atomic<uint64_t> games_started{0}, games_finished{0}, setups_failed{0}, handed_off{0};
  std::atomic<uint64_t> stalls{0}, desync{0}, resigns{0}, planned_resigns{0};
  // A move sent as the opponent's move ended the game (at --move-interval-ms 0 the next move can
  // leave before GAME_ENDED is read): GAME_OVER is the right answer, so not an error.
  std::atomic<uint64_t> moves_after_end{0};
  std::atomic<uint64_t> echoes{0};
  lg::Histogram move_lat;   // send → opponent got the event (measured window only)
  lg::Histogram ack_lat;    // send → mover got the reply
  lg::Histogram setup_lat;  // create_seek sent → both game_started
};

struct Worker;
struct Game;

inline void inc(std::atomic<uint64_t>& a, uint64_t n = 1) { a.fetch_add(n, std::memory_order_relaxed); }
inline uint64_t us_since(Clock::time_point t) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - t).count());
}

// ---------------------------------------------------------------- connection

enum class Kind { Player, Idle, Echo, Setup };

struct Conn {
  Worker& w;
  Kind kind;
  websocket::stream<Socket> ws;
  beast::flat_buffer rbuf;
  std::deque<std::string> wq;
  bool writing = false, open = false, dead = false, tcp_up = false;
  uint64_t next_rid = 1, login_rid = 0, seek_rid = 0, accept_rid = 0, move_rid = 0, relogin_rid = 0, sync_rid = 0;
  std::string token;  // handoff: hello{token} instead of login_guest
  Game* game = nullptr;
  int seat = 0;                       // 0 = seek owner, 1 = acceptor
  xq::Color color = xq::Color::Red;   // this game
  std::string fen;                    // Jieqi: position as this player last saw it
  Timer timer;                        // connect timeout / idle ping / echo pacing
  Clock::time_point echo_sent;
  uint64_t serial = 0;  // --echo-relay: tells this connection's messages from its partner's
  std::string payload;
  std::function<void(Conn&)> on_connected;  // connect/login outcome (logged in or failed)

  Conn(Worker& wk, Kind k);
  void start(const tcp::endpoint& ep);
  void send(const v1::ClientMessage& m) { send_raw(m.SerializeAsString()); }
  void send_raw(std::string s);
  void do_write();
  void do_read();
  void on_frame();
  void fail();
  uint64_t rid() { return next_rid++; }
  void idle_ping();
  void echo_send();
  void on_relayed();
};

// ---------------------------------------------------------------- game

struct Game {
  Worker& w;
  Conn* c[2] = {nullptr, nullptr};
  enum class St { Waiting, Queued, Seeking, Accepting, Starting, Playing, Ended } st = St::Waiting;
  int ready = 0;  // players logged in
  std::string game_id, seek_id;
  int started = 0;  // game_started received for this game
  // Xiangqi: both players see the same board. A bare position, not a RulesGame: the server
  // judges repetitions and limits, and the game's labels for the CXA nine-round rule cost this
  // process two thirds of its instructions in long random games (callgrind, 2026-12-05).
  std::optional<xq::Position> board;
  xq::Color to_move = xq::Color::Red;
  int ply = 0;  // plies known to the opponent side (applied)
  int resign_at = 0;  // --resign-at-plies: the side to move resigns at this ply (0 = never)
  bool restarted = false;  // set up again after an end (--start-spread-s applies to the first start only)
  // --restart-mode rematch: the players' own connections set the next game up (no setup pool).
  bool rematch() const {
    return restarted && opt.setup_mode == "handoff" && opt.restart_mode == "rematch" && c[0]->open && c[1]->open;
  }
  bool outstanding = false;
  int sent_ply = 0;
  Clock::time_point t_sent, t_setup;
  // The game's next move on its own fixed grid of --move-interval-ms. Not "the last send plus an
  // interval": a send made late by a busy moment would carry its lateness into every later move,
  // and the games delayed by one burst would go on moving together, each burst gathering more of
  // them (the 10 s windows' p99 climbed through a minute so).
  Clock::time_point next_due;
  bool stall_counted = false;
  Timer timer;
  uint64_t generation = 0;  // bumps on every (re)start: stale timers do nothing
  Conn* sc[2] = {nullptr, nullptr};  // handoff: the setup pair while setting up
  int relogged = 0, synced = 0;

  explicit Game(Worker& wk);
  Conn* of(xq::Color col) { return c[0]->color == col ? c[0] : c[1]; }
  void player_ready();
  void begin_setup();
  void on_reply(Conn& cn, const v1::ServerMessage& m);
  void on_move_answered(Conn& cn);
  void on_error(Conn& cn, const v1::ServerMessage& m);
  void on_started(Conn& cn, const v1::GameState& s);
  void on_event(Conn& cn, const v1::GameEvent& e);
  void schedule_move();
  void send_move();
  void send_seek(Conn* owner);
  void ended();
  void play_now();
  void on_relogin(Conn& cn, const v1::ServerMessage& m);
  void handoff();
  void player_resumed(Conn& cn);
  void on_synced(Conn& cn);
  void playing();
  void check_stall(Clock::time_point now);
};

struct Worker {
  int index;
  // One thread runs it and every socket/timer operation is started on that thread (the main
  // thread only posts), so the reactor's per-socket mutex can go; the scheduler keeps its lock.
  asio::io_context ioc{BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO};
  std::mt19937_64 rng;
  Stats stats;
  tcp::endpoint ep;
  tcp::endpoint ep_second;  // --second-port
  std::vector<std::unique_ptr<Conn>> conns;
  std::vector<std::unique_ptr<Game>> games;
  std::deque<Game*> setup_queue;
  int setups_in_flight = 0, setup_limit = 1;
  std::vector<Conn*> free_pairs;  // handoff: setup connections, two per pair
  std::deque<Conn*> connect_queue;
  int connects_in_flight = 0, connect_limit = 1;
  Timer stall_timer{ioc.get_executor()};
  std::thread th;

  Worker(int i, uint64_t seed) : index(i), rng(seed) {}

  // Stall watchdog for moves never delivered (a late delivery is counted by Game::on_event). One
  // sweep per worker every 100 ms instead of a timer armed per move and cancelled on delivery:
  // those were two timer-heap updates and a cancelled-handler completion per move.
  void sweep_stalls() {
    if (g_stopping) return;
    const auto now = Clock::now();
    for (auto& g : games) g->check_stall(now);
    stall_timer.expires_after(std::chrono::milliseconds(100));
    stall_timer.async_wait([this](beast::error_code ec) {
      if (!ec) sweep_stalls();
    });
  }

  void queue_connect(Conn* c) {
    connect_queue.push_back(c);
    pump_connects();
  }
  void pump_connects() {
    while (connects_in_flight < connect_limit && !connect_queue.empty()) {
      Conn* c = connect_queue.front();
      connect_queue.pop_front();
      ++connects_in_flight;
      c->start(c->kind == Kind::Player && c->seat == 1 && opt.second_port ? ep_second : ep);
    }
  }
  void connect_done() {
    --connects_in_flight;
    pump_connects();
  }
  void queue_setup(Game* g) {
    g->st = Game::St::Queued;
    setup_queue.push_back(g);
    pump_setups();
  }
  void pump_setups() {
    while (setups_in_flight < setup_limit && !setup_queue.empty() &&
           (opt.setup_mode != "handoff" || free_pairs.size() >= 2 || setup_queue.front()->rematch())) {
      Game* g = setup_queue.front();
      setup_queue.pop_front();
      ++setups_in_flight;
      g->begin_setup();
    }
  }
  void setup_done() {
    --setups_in_flight;
    pump_setups();
  }
  // handoff: a fresh setup connection joins the pool once its WebSocket is open.
  void new_setup_conn();
  void drop_setup_conn(Conn* c);
};

Conn::Conn(Worker& wk, Kind k) : w(wk), kind(k), ws(wk.ioc.get_executor()), timer(wk.ioc.get_executor()) {
  static std::atomic<uint64_t> serials{0};
  serial = ++serials;
}

void Worker::new_setup_conn() {
  auto c = std::make_unique<Conn>(*this, Kind::Setup);
  c->on_connected = [this](Conn& cn) {
    if (!cn.open) return;
    free_pairs.push_back(&cn);
    pump_setups();
  };
  Conn* p = c.get();
  conns.push_back(std::move(c));
  if (!g_stopping) queue_connect(p);
}

// A setup connection stays subscribed to the games it set up (the server unsubscribes on close
// only), so it is closed after one setup and replaced.
void Worker::drop_setup_conn(Conn* c) {
  c->game = nullptr;
  c->on_connected = nullptr;
  c->fail();
  new_setup_conn();
}

void Conn::start(const tcp::endpoint& ep) {
  // Connect timeout (the WebSocket handshake has its own, timeout::suggested below): closing the
  // socket ends the pending connect with an error.
  timer.expires_after(std::chrono::seconds(30));
  timer.async_wait([this](beast::error_code ec) {
    if (!ec && !tcp_up) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws).close(ignored);
    }
  });
  beast::get_lowest_layer(ws).async_connect(ep, [this](beast::error_code ec) {
    tcp_up = !ec;
    timer.cancel();
    if (ec) {
      inc(w.stats.connect_failed);
      w.connect_done();
      return fail();
    }
    beast::get_lowest_layer(ws).set_option(tcp::no_delay(true));
    ws.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
    ws.read_message_max(64 << 20);
    ws.async_handshake(opt.host + ":" + std::to_string(opt.port), "/ws", [this](beast::error_code ec2) {
      w.connect_done();
      if (ec2) {
        inc(w.stats.connect_failed);
        return fail();
      }
      open = true;
      ws.binary(true);
      if (kind != Kind::Setup) inc(w.stats.connected);
      do_read();
      if (kind == Kind::Echo) {
        payload.assign(static_cast<size_t>(std::max(opt.echo_size, opt.echo_relay ? 16 : 0)), 'x');
        if (on_connected) on_connected(*this);
        return;  // echoing starts in phase 3, once every connection is open
      }
      if (kind == Kind::Idle && !opt.idle_login) {
        if (on_connected) on_connected(*this);
        return idle_ping();
      }
      // Setup connections sign in too (as a placeholder guest; each setup signs in afresh): the
      // server closes a connection not signed in within its login deadline (30 s).
      v1::ClientMessage m;
      login_rid = rid();
      m.set_request_id(login_rid);
      if (!token.empty()) m.mutable_hello()->set_token(token);
      else m.mutable_login_guest()->set_name(kind == Kind::Idle ? "idle" : kind == Kind::Setup ? "lg-setup" : "lg");
      send(m);
    });
  });
}

void Conn::fail() {
  if (dead) return;
  dead = true;
  if (open && kind != Kind::Setup) inc(w.stats.closed);
  open = false;
  beast::error_code ec;
  beast::get_lowest_layer(ws).close(ec);
  timer.cancel();
  if (on_connected) {
    auto f = std::move(on_connected);
    on_connected = nullptr;
    f(*this);
  }
}

void Conn::send_raw(std::string s) {
  if (!open) return;
  inc(w.stats.frames_out);
  wq.push_back(std::move(s));
  if (!writing) do_write();
}

void Conn::do_write() {
  writing = true;
  ws.async_write(asio::buffer(wq.front()), [this](beast::error_code ec, size_t) {
    if (ec) {
      writing = false;
      return fail();
    }
    wq.pop_front();
    if (wq.empty()) writing = false;
    else do_write();
  });
}

void Conn::do_read() {
  ws.async_read(rbuf, [this](beast::error_code ec, size_t) {
    if (ec) return fail();
    inc(w.stats.frames_in);
    on_frame();
    rbuf.consume(rbuf.size());
    if (open) do_read();
  });
}

void Conn::idle_ping() {
  if (opt.idle_ping_s <= 0 || g_stopping) return;
  std::uniform_int_distribution<int64_t> jitter(static_cast<int64_t>(opt.idle_ping_s * 500),
                                                static_cast<int64_t>(opt.idle_ping_s * 1500));
  timer.expires_after(std::chrono::milliseconds(jitter(w.rng)));
  timer.async_wait([this](beast::error_code ec) {
    if (ec || !open) return;
    v1::ClientMessage m;
    m.set_request_id(rid());
    m.mutable_ping()->set_client_time_ms(0);
    send(m);
    idle_ping();
  });
}

void Conn::echo_send() {
  echo_sent = Clock::now();
  if (opt.echo_relay) {  // the sender and the send time travel with the message
    const uint64_t at = static_cast<uint64_t>(echo_sent.time_since_epoch().count());
    std::memcpy(payload.data(), &serial, 8);
    std::memcpy(payload.data() + 8, &at, 8);
  }
  send_raw(payload);
}

// --echo-relay: a message of the partner's is a move made; the answer is this side's own.
// A message of its own coming back (the mover's answer) is only counted as a frame.
void Conn::on_relayed() {
  auto data = rbuf.cdata();
  if (data.size() < 16) return;
  uint64_t from = 0, at = 0;
  std::memcpy(&from, data.data(), 8);
  std::memcpy(&at, static_cast<const char*>(data.data()) + 8, 8);
  if (from == serial) return;
  inc(w.stats.echoes);
  if (g_measuring.load(std::memory_order_relaxed))
    w.stats.move_lat.add(us_since(Clock::time_point(Clock::duration(static_cast<Clock::rep>(at)))));
  if (!g_stopping) echo_send();
}

void Conn::on_frame() {
  if (kind == Kind::Echo && opt.echo_relay) return on_relayed();
  if (kind == Kind::Echo) {
    inc(w.stats.echoes);
    if (g_measuring.load(std::memory_order_relaxed)) w.stats.move_lat.add(us_since(echo_sent));
    if (g_stopping) return;
    if (opt.echo_interval_ms <= 0) return echo_send();
    auto due = echo_sent + std::chrono::milliseconds(opt.echo_interval_ms);
    timer.expires_at(std::max(due, Clock::now()));
    timer.async_wait([this](beast::error_code ec) {
      if (!ec && open) echo_send();
    });
    return;
  }
  v1::ServerMessage m;
  auto data = rbuf.cdata();
  if (!m.ParseFromArray(data.data(), static_cast<int>(data.size()))) {
    inc(w.stats.errors[0]);
    return;
  }
  switch (m.body_case()) {
    case v1::ServerMessage::kError: {
      int code = std::clamp(static_cast<int>(m.error().code()), 0, kMaxCode - 1);
      const bool move_after_end = m.error().code() == v1::GAME_OVER && move_rid && m.request_id() == move_rid;
      inc(move_after_end ? w.stats.moves_after_end : w.stats.errors[code]);
      if (m.request_id() == login_rid) return fail();
      if (game) game->on_error(*this, m);
      return;
    }
    case v1::ServerMessage::kReply:
      if (m.request_id() == login_rid && login_rid) {
        login_rid = 0;
        inc(w.stats.logged_in);
        if (on_connected) {
          auto f = on_connected;
          if (kind != Kind::Player) on_connected = nullptr;  // players log in again on restarts (handoff)
          f(*this);
        }
        if (kind == Kind::Idle && opt.idle_list_seeks) {  // a lobby on screen: seek pushes follow
          v1::ClientMessage l;
          l.set_request_id(rid());
          l.mutable_list_seeks();
          send(l);
        }
        if (kind == Kind::Idle || kind == Kind::Setup) idle_ping();
        return;
      }
      if (m.request_id() == relogin_rid && relogin_rid && game) return game->on_relogin(*this, m);
      if (m.request_id() == sync_rid && sync_rid && game) return game->on_synced(*this);
      if (game) game->on_reply(*this, m);
      return;
    case v1::ServerMessage::kGameStarted:
      if (game) game->on_started(*this, m.game_started());
      return;
    case v1::ServerMessage::kGameEvent:
      if (!game) return;
      if (m.request_id() && m.request_id() == move_rid) game->on_move_answered(*this);
      game->on_event(*this, m.game_event());
      return;
    case v1::ServerMessage::kSeeks: inc(w.stats.seek_frames); return;
    default: return;
  }
}

// ---------------------------------------------------------------- game logic

Game::Game(Worker& wk) : w(wk), timer(wk.ioc.get_executor()) {}

// Counts the outstanding move as stalled (once) if it is older than --stall-ms.
void Game::check_stall(Clock::time_point now) {
  if (st != St::Playing || !outstanding || stall_counted) return;
  if (now - t_sent < std::chrono::duration<double, std::milli>(opt.stall_ms)) return;
  stall_counted = true;
  inc(w.stats.stalls);
}

void Game::player_ready() {
  if (++ready == 2) w.queue_setup(this);
}

void Game::begin_setup() {
  ++generation;
  timer.cancel();
  const bool handoff_mode = opt.setup_mode == "handoff";
  if ((!handoff_mode && (!c[0]->open || !c[1]->open)) || g_stopping) {
    st = St::Ended;
    inc(w.stats.setups_failed);
    return w.setup_done();
  }
  st = St::Seeking;
  game_id.clear();
  seek_id.clear();
  started = 0;
  ply = 0;
  sent_ply = 0;
  outstanding = false;
  stall_counted = false;
  to_move = xq::Color::Red;
  t_setup = Clock::now();
  uint64_t gen = generation;
  timer.expires_after(std::chrono::seconds(60));
  timer.async_wait([this, gen](beast::error_code ec) {
    if (ec || gen != generation || st == St::Playing || st == St::Ended) return;
    inc(w.stats.setups_failed);
    st = St::Ended;
    for (auto*& p : sc)
      if (p) {
        w.drop_setup_conn(p);
        p = nullptr;
      }
    w.setup_done();
  });
  if (handoff_mode && !rematch()) {
    // Two fresh guests on the setup pair; the seek follows when both are logged in.
    relogged = 0;
    synced = 0;
    for (int i = 0; i < 2; ++i) {
      sc[i] = w.free_pairs.back();
      w.free_pairs.pop_back();
      sc[i]->game = this;
      sc[i]->seat = i;
      v1::ClientMessage m;
      sc[i]->relogin_rid = sc[i]->rid();
      m.set_request_id(sc[i]->relogin_rid);
      m.mutable_login_guest()->set_name("lg");
      sc[i]->send(m);
    }
    return;
  }
  send_seek(c[0]);
}

void Game::send_seek(Conn* owner) {
  v1::ClientMessage m;
  owner->seek_rid = owner->rid();
  m.set_request_id(owner->seek_rid);
  auto* s = m.mutable_create_seek();
  s->set_variant(opt.jieqi ? v1::JIEQI : v1::XIANGQI);
  s->mutable_time_control()->set_initial_ms(opt.initial_ms);
  s->set_color(v1::SIDE_NONE);
  s->set_ruleset(opt.ruleset);
  owner->send(m);
}

void Game::on_relogin(Conn& cn, const v1::ServerMessage& m) {
  cn.relogin_rid = 0;
  c[cn.seat]->token = m.reply().token();
  if (++relogged == 2 && st == St::Seeking) send_seek(sc[0]);
}

// Setup done on the pair: the player connections take over the two sessions.
void Game::handoff() {
  for (int i = 0; i < 2; ++i) {
    c[i]->color = sc[i]->color;
    c[i]->fen = sc[i]->fen;
  }
  inc(w.stats.handed_off);
  w.setup_done();
  if (g_defer_players && !c[0]->open) {
    // connect_players() later. The pair goes now: its guests lose their last connection (a
    // lobby broadcast to the few connections logged in so far) and are resumed by hello later.
    for (auto*& p : sc) {
      w.drop_setup_conn(p);
      p = nullptr;
    }
    return;
  }
  for (int i = 0; i < 2; ++i) {
    Conn* p = c[i];
    if (p->open) {  // a restart: switch the open connection to the new guest
      v1::ClientMessage m;
      p->login_rid = p->rid();
      m.set_request_id(p->login_rid);
      m.mutable_hello()->set_token(p->token);
      p->send(m);
    } else if (!p->dead) {
      w.queue_connect(p);
    }
  }
}

void connect_players(Worker& w) {
  for (auto& g : w.games)
    if (g->st == Game::St::Starting)
      for (Conn* p : g->c)
        if (!p->open && !p->dead) w.queue_connect(p);
}

// A player connection is logged in as its guest: subscribe to the game.
void Game::player_resumed(Conn& cn) {
  v1::ClientMessage m;
  cn.sync_rid = cn.rid();
  m.set_request_id(cn.sync_rid);
  m.mutable_sync()->set_game_id(game_id);
  m.mutable_sync()->set_last_version(0);
  cn.send(m);
}

void Game::on_synced(Conn& cn) {
  cn.sync_rid = 0;
  if (++synced == 2 && st == St::Starting) playing();
}

void Game::on_reply(Conn& cn, const v1::ServerMessage& m) {
  Conn* owner = sc[0] ? sc[0] : c[0];
  Conn* taker = sc[1] ? sc[1] : c[1];
  if (&cn == owner && m.request_id() == cn.seek_rid && st == St::Seeking) {
    seek_id = m.reply().seek_id();
    st = St::Accepting;
    v1::ClientMessage a;
    taker->accept_rid = taker->rid();
    a.set_request_id(taker->accept_rid);
    a.mutable_accept_seek()->set_seek_id(seek_id);
    taker->send(a);
    return;
  }
  if (m.request_id() == cn.move_rid && cn.move_rid && m.reply().game_id() == game_id) on_move_answered(cn);
}

void Game::on_move_answered(Conn& cn) {
  cn.move_rid = 0;
  if (g_measuring.load(std::memory_order_relaxed)) w.stats.ack_lat.add(us_since(t_sent));
}

void Game::on_error(Conn& cn, const v1::ServerMessage& m) {
  if ((m.request_id() == cn.seek_rid && st == St::Seeking) || (m.request_id() == cn.accept_rid && st == St::Accepting)) {
    inc(w.stats.setups_failed);
    st = St::Ended;
    ++generation;
    timer.cancel();
    for (auto*& p : sc)
      if (p) {
        w.drop_setup_conn(p);
        p = nullptr;
      }
    return w.setup_done();
  }
  if (m.request_id() == cn.move_rid && cn.move_rid && m.error().code() == v1::GAME_OVER) {
    cn.move_rid = 0;  // the game ended on the opponent's move: GAME_ENDED comes (or came)
    return;
  }
  if (m.request_id() == cn.move_rid && cn.move_rid && st == St::Playing) {
    // A refused move (should not happen): resign so the game ends and is set up again.
    cn.move_rid = 0;
    inc(w.stats.resigns);
    v1::ClientMessage r;
    r.set_request_id(cn.rid());
    r.mutable_resign()->set_game_id(game_id);
    cn.send(r);
  }
}

void Game::on_started(Conn& cn, const v1::GameState& s) {
  if (st != St::Accepting && st != St::Starting) return;
  if (game_id.empty()) game_id = s.game_id();
  if (s.game_id() != game_id) return;
  st = St::Starting;
  cn.color = s.you() == v1::BLACK ? xq::Color::Black : xq::Color::Red;
  cn.fen = s.fen();
  if (++started < 2) return;
  // Both players know the game.
  if (sc[0]) return handoff();
  w.setup_done();
  playing();
}

void Game::playing() {
  for (auto*& p : sc)  // handoff: the players are subscribed; the setup pair goes
    if (p) {
      w.drop_setup_conn(p);
      p = nullptr;
    }
  ++generation;
  timer.cancel();
  w.stats.setup_lat.add(us_since(t_setup));
  inc(w.stats.games_started);
  if (!opt.jieqi) board.emplace(xq::Position::xiangqi_start());
  resign_at = opt.resign_at_plies > 0
                  ? std::uniform_int_distribution<int>(std::max(1, opt.resign_at_plies / 2), opt.resign_at_plies)(w.rng)
                  : 0;
  st = St::Playing;
  if (g_playing) play_now();
}

void Game::play_now() {
  // Spread the games' first moves over one interval (and, at the first start, --start-spread-s).
  const int spread_ms = restarted ? 0 : static_cast<int>(opt.start_spread_s * 1000);
  std::uniform_int_distribution<int> d(0, std::max(0, opt.move_interval_ms - 1 + spread_ms));
  next_due = Clock::now() + std::chrono::milliseconds(d(w.rng));
  schedule_move();
}

void Game::schedule_move() {
  if (st != St::Playing || g_stopping) return;
  auto due = std::max(next_due, Clock::now());
  uint64_t gen = generation;
  timer.expires_at(due);
  timer.async_wait([this, gen](beast::error_code ec) {
    if (ec || gen != generation) return;
    send_move();
  });
}

// A uniformly random legal move of `p`, none if it has none. Rejection sampling: a random
// pseudo-legal move is tested and, if illegal, dropped and another drawn, so every legal move is
// equally likely, as with generate_legal + one draw, but with one or two legality tests instead of
// one per candidate (generate_legal was ~5 % of loadgen's CPU).
std::optional<xq::Move> random_legal_move(const xq::Position& p, std::mt19937_64& rng) {
  xq::MoveList ml;
  p.generate_pseudo(ml);
  for (int n = ml.size; n > 0; --n) {
    const int i = std::uniform_int_distribution<int>(0, n - 1)(rng);
    if (p.is_legal(ml.moves[i])) return ml.moves[i];
    ml.moves[i] = ml.moves[n - 1];
  }
  return std::nullopt;
}

void Game::send_move() {
  if (st != St::Playing || outstanding || g_stopping) return;
  Conn* mover = of(to_move);
  if (resign_at > 0 && ply >= resign_at) {  // GAME_ENDED follows
    resign_at = 0;
    inc(w.stats.planned_resigns);
    v1::ClientMessage r;
    r.set_request_id(mover->rid());
    r.mutable_resign()->set_game_id(game_id);
    mover->send(r);
    return;
  }
  std::optional<xq::Move> pick;
  if (board) {
    pick = random_legal_move(*board, w.rng);
  } else {
    try {
      pick = random_legal_move(xq::parse_fen(mover->fen, xq::Variant::Jieqi), w.rng);
    } catch (const std::exception&) {
      inc(w.stats.desync);
    }
  }
  if (!pick) return;  // the game is over on the board; GAME_ENDED follows
  const xq::Move mv = *pick;
  v1::ClientMessage m;
  mover->move_rid = mover->rid();
  m.set_request_id(mover->move_rid);
  auto* mm = m.mutable_move();
  mm->set_game_id(game_id);
  mm->set_iccs(xq::to_iccs(mv));
  mm->set_client_move_id("m" + std::to_string(ply + 1));
  mm->set_event_is_reply(opt.event_is_reply);
  outstanding = true;
  stall_counted = false;
  sent_ply = ply + 1;
  t_sent = Clock::now();
  // The next slot on the grid; a game a whole interval behind (its opponent's move came late)
  // starts a new grid from now rather than sending its missed moves in a rush.
  const auto interval = std::chrono::milliseconds(opt.move_interval_ms);
  next_due = next_due + interval < t_sent ? t_sent + interval : next_due + interval;
  inc(w.stats.moves_sent);
  mover->send(m);
  // Stalls: Game::on_event (delivered late) and Worker::sweep_stalls (never delivered).
}

void Game::on_event(Conn& cn, const v1::GameEvent& e) {
  if (e.game_id() != game_id || (st != St::Playing && st != St::Starting)) return;
  if (opt.jieqi && !e.fen().empty()) cn.fen = e.fen();  // Xiangqi moves come from `board`
  if (e.kind() == v1::GameEvent::GAME_ENDED) {
    if (st == St::Playing) ended();
    return;
  }
  if (e.kind() != v1::GameEvent::MOVE) return;
  xq::Color mover = e.side() == v1::BLACK ? xq::Color::Black : xq::Color::Red;
  if (cn.color == mover) return;  // the mover's own copy
  int p = static_cast<int>(e.move().ply());
  if (p != ply + 1) {
    inc(w.stats.desync);
    return;
  }
  if (outstanding && p == sent_ply) {
    check_stall(Clock::now());  // delivered, but later than --stall-ms
    outstanding = false;
    if (g_measuring.load(std::memory_order_relaxed)) {
      w.stats.move_lat.add(us_since(t_sent));
      inc(w.stats.moves);
    }
  }
  ply = p;
  to_move = xq::opposite(mover);
  if (board) {
    const std::string& iccs = e.move().iccs();
    const xq::Square from = xq::parse_square(iccs, 0), to = iccs.size() >= 4 ? xq::parse_square(iccs, 2) : xq::kNoSquare;
    const xq::Move m{static_cast<uint8_t>(from), static_cast<uint8_t>(to), xq::NoType};
    if (from == xq::kNoSquare || to == xq::kNoSquare || !board->is_pseudo_legal(m) || !board->is_legal(m)) {
      inc(w.stats.desync);
      return;
    }
    board->make(m);  // a move that ended the game is followed by GAME_ENDED, before the next is due
  }
  ++generation;  // a stale timer handler does nothing
  schedule_move();
}

void Game::ended() {
  st = St::Ended;
  ++generation;
  timer.cancel();
  outstanding = false;
  inc(w.stats.games_finished);
  restarted = true;
  if (opt.restart && !g_stopping) w.queue_setup(this);
}

// ---------------------------------------------------------------- orchestration

std::vector<std::unique_ptr<Worker>> workers;

uint64_t sum(std::atomic<uint64_t> Stats::*f) {
  uint64_t s = 0;
  for (auto& w : workers) s += ((w->stats).*f).load(std::memory_order_relaxed);
  return s;
}
lg::HistSnap snap(lg::Histogram Stats::*f) {
  lg::HistSnap s;
  for (auto& w : workers) s.add((w->stats).*f);
  return s;
}
lg::HistSnap diff(const lg::HistSnap& a, const lg::HistSnap& b) {  // a - b
  lg::HistSnap d;
  for (int i = 0; i < lg::Histogram::kSize; ++i) {
    d.b[i] = a.b[i] - b.b[i];
    d.count += d.b[i];
  }
  return d;
}
std::map<int, uint64_t> errors() {
  std::map<int, uint64_t> out;
  for (int i = 0; i < kMaxCode; ++i) {
    uint64_t n = 0;
    for (auto& w : workers) n += w->stats.errors[i].load(std::memory_order_relaxed);
    if (n) out[i] = n;
  }
  return out;
}
std::string errors_str() {
  std::string s;
  for (auto [code, n] : errors()) s += std::string(s.empty() ? "" : " ") + error_name(code) + "=" + std::to_string(n);
  return s.empty() ? "none" : s;
}

double secs_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Waits until pred() or timeout; prints progress every 5 s.
bool wait_until(const std::function<bool()>& pred, double timeout_s, const std::function<std::string()>& progress) {
  auto t0 = Clock::now(), last = t0;
  while (!pred()) {
    if (secs_since(t0) > timeout_s) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (secs_since(last) >= 5) {
      last = Clock::now();
      std::printf("  ... %.0fs %s\n", secs_since(t0), progress().c_str());
      std::fflush(stdout);
    }
  }
  return true;
}

void post_all(const std::function<void(Worker&)>& f) {
  for (auto& w : workers) asio::post(w->ioc, [f, wp = w.get()] { f(*wp); });
}

// GET /metrics from the game server (--port); "" if it does not answer (an old server, another
// program). A blocking request from the main thread: the workers keep playing meanwhile.
std::string fetch_metrics() {
  if (opt.echo || !opt.server_metrics) return "";
  try {
    asio::io_context ioc;
    tcp::socket s(ioc);
    s.connect(tcp::endpoint(asio::ip::make_address(opt.host), static_cast<uint16_t>(opt.port)));
    const std::string req = "GET /metrics HTTP/1.0\r\nHost: " + opt.host + "\r\n\r\n";
    asio::write(s, asio::buffer(req));
    std::string out;
    beast::error_code ec;
    std::array<char, 16384> buf{};
    for (;;) {
      const size_t n = s.read_some(asio::buffer(buf), ec);
      out.append(buf.data(), n);
      if (ec) break;
    }
    const size_t body = out.find("\r\n\r\n");
    if (out.rfind("HTTP/1.", 0) != 0 || out.find(" 200 ") == std::string::npos || body == std::string::npos) return "";
    return out.substr(body + 4);
  } catch (const std::exception&) {
    return "";
  }
}

struct ServerLatency {
  lg::Buckets move, redis;  // xq_move_latency_seconds, xq_redis_latency_seconds
};
ServerLatency read_server_latency() {
  const std::string text = fetch_metrics();
  return {lg::parse_histogram(text, "xq_move_latency_seconds"), lg::parse_histogram(text, "xq_redis_latency_seconds")};
}

std::string kib(uint64_t k) {
  char b[64];
  std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(k) / 1024.0);
  return b;
}

int run() {
  const int n_players = opt.echo ? 0 : 2 * opt.games;
  const int total = std::max(opt.connections, n_players);
  const int n_idle = opt.echo ? 0 : total - n_players;
  const int n_echo = opt.echo ? total : 0;
  uint64_t fd_limit = lg::raise_fd_limit(static_cast<uint64_t>(total) + 1024);
  if (fd_limit < static_cast<uint64_t>(total) + 64)
    std::printf("warning: RLIMIT_NOFILE %llu is below %d connections\n", static_cast<unsigned long long>(fd_limit), total);
  tcp::endpoint ep(asio::ip::make_address(opt.host), static_cast<uint16_t>(opt.port));
  const long clk = sysconf(_SC_CLK_TCK);

  for (int i = 0; i < opt.threads; ++i) {
    workers.push_back(std::make_unique<Worker>(i, opt.seed * 1000003u + static_cast<uint64_t>(i)));
    auto& w = *workers.back();
    w.ep = ep;
    w.ep_second = tcp::endpoint(ep.address(), static_cast<uint16_t>(opt.second_port));
    w.setup_limit = std::max(1, (opt.setup_concurrency + opt.threads - 1) / opt.threads);
    w.connect_limit = std::max(1, (opt.connect_concurrency + opt.threads - 1) / opt.threads);
  }
  // Games and connections are created up front, distributed round-robin over workers.
  for (int g = 0; g < (opt.echo ? 0 : opt.games); ++g) {
    auto& w = *workers[static_cast<size_t>(g % opt.threads)];
    auto game = std::make_unique<Game>(w);
    for (int s = 0; s < 2; ++s) {
      auto c = std::make_unique<Conn>(w, Kind::Player);
      c->game = game.get();
      c->seat = s;
      Game* gp = game.get();
      c->on_connected = [gp](Conn& cn) {
        if (!cn.open) return;
        if (opt.setup_mode == "handoff") gp->player_resumed(cn);
        else gp->player_ready();
      };
      game->c[s] = c.get();
      w.conns.push_back(std::move(c));
    }
    w.games.push_back(std::move(game));
  }

  std::atomic<uint64_t> done_connecting{0};
  auto add_plain = [&](int n, Kind k) {
    for (int i = 0; i < n; ++i) {
      auto& w = *workers[static_cast<size_t>(i % opt.threads)];
      auto c = std::make_unique<Conn>(w, k);
      c->on_connected = [&done_connecting](Conn&) { done_connecting++; };
      w.conns.push_back(std::move(c));
    }
  };
  for (auto& w : workers) w->th = std::thread([wp = w.get()] {
    auto guard = asio::make_work_guard(wp->ioc);
    wp->sweep_stalls();
    wp->ioc.run();
  });

  const uint64_t rss0 = lg::rss_kib(opt.server_pid);
  std::printf("loadgen: %s target %s:%d, threads=%d, fd_limit=%llu\n", opt.echo ? "ECHO" : "GAME", opt.host.c_str(),
              opt.port, opt.threads, static_cast<unsigned long long>(fd_limit));
  if (opt.server_pid) std::printf("server pid %ld RSS at start: %s\n", opt.server_pid, kib(rss0).c_str());
  auto t_start = Clock::now();
  uint64_t rss_games = rss0, rss_idle = 0;

  if (!opt.echo) {
    // Phase 1: players + game setup.
    std::printf("phase 1: %d games (%d player connections), setup concurrency %d\n", opt.games, n_players,
                opt.setup_concurrency);
    std::fflush(stdout);
    post_all([](Worker& w) {
      if (opt.setup_mode == "handoff") {
        // Games are set up on the pool first; player connections connect when their game is ready.
        for (int i = 0; i < 2 * w.setup_limit; ++i) w.new_setup_conn();
        for (auto& g : w.games) w.queue_setup(g.get());
        return;
      }
      for (auto& c : w.conns) w.queue_connect(c.get());
    });
    auto t1 = Clock::now();
    if (opt.setup_mode == "handoff") {
      wait_until([&] { return sum(&Stats::handed_off) + sum(&Stats::setups_failed) >= static_cast<uint64_t>(opt.games); },
                 opt.ramp_timeout_s, [&] {
                   return "set_up=" + std::to_string(sum(&Stats::handed_off)) +
                          " setups_failed=" + std::to_string(sum(&Stats::setups_failed)) + " errors: " + errors_str();
                 });
      std::printf("  %llu games set up on the setup pool in %.1fs; connecting their players (hello + sync)\n",
                  static_cast<unsigned long long>(sum(&Stats::handed_off)), secs_since(t1));
      std::fflush(stdout);
      g_defer_players = false;
      post_all([](Worker& w) { connect_players(w); });
    }
    bool ok = wait_until(
        [&] {
          return sum(&Stats::games_started) + sum(&Stats::setups_failed) + sum(&Stats::connect_failed) / 2 >=
                 static_cast<uint64_t>(opt.games);
        },
        opt.ramp_timeout_s, [&] {
          return "logged_in=" + std::to_string(sum(&Stats::logged_in)) +
                 " games_started=" + std::to_string(sum(&Stats::games_started)) +
                 " setups_failed=" + std::to_string(sum(&Stats::setups_failed)) + " errors: " + errors_str();
        });
    double dt = secs_since(t1);
    auto sl = snap(&Stats::setup_lat);
    std::printf("  games started %llu/%d in %.1fs (%.0f games/s; setup latency p50 %.1f ms p99 %.1f ms)%s\n",
                static_cast<unsigned long long>(sum(&Stats::games_started)), opt.games, dt,
                static_cast<double>(sum(&Stats::games_started)) / dt, sl.quantile(0.5) / 1000, sl.quantile(0.99) / 1000,
                ok ? "" : "  [ramp timeout]");
    std::printf("  seek-list frames received by players: %llu, errors: %s\n",
                static_cast<unsigned long long>(sum(&Stats::seek_frames)), errors_str().c_str());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    rss_games = rss_idle = lg::rss_kib(opt.server_pid);
    if (opt.server_pid)
      std::printf("  server RSS with %d player connections and their games: %s\n", n_players, kib(rss_games).c_str());
  }

  // Phase 2: idle (or echo) connections.
  const int n_plain = opt.echo ? n_echo : n_idle;
  if (n_plain > 0) {
    add_plain(n_plain, opt.echo ? Kind::Echo : Kind::Idle);
    std::printf("phase 2: %d %s connections (connect concurrency %d)\n", n_plain,
                opt.echo ? "echo" : (opt.idle_login ? "idle logged-in" : "idle anonymous"), opt.connect_concurrency);
    std::fflush(stdout);
    if (opt.echo) g_measuring = false;
    post_all([](Worker& w) {
      for (auto& c : w.conns)
        if (c->kind == Kind::Idle || c->kind == Kind::Echo) w.queue_connect(c.get());
    });
    auto t2 = Clock::now();
    bool ok = wait_until([&] { return done_connecting.load() >= static_cast<uint64_t>(n_plain); }, opt.ramp_timeout_s,
                         [&] {
                           return "done=" + std::to_string(done_connecting.load()) +
                                  " connected=" + std::to_string(sum(&Stats::connected)) +
                                  " failed=" + std::to_string(sum(&Stats::connect_failed));
                         });
    std::printf("  %llu connected in total (%llu failed) in %.1fs%s\n",
                static_cast<unsigned long long>(sum(&Stats::connected)),
                static_cast<unsigned long long>(sum(&Stats::connect_failed)), secs_since(t2),
                ok ? "" : "  [ramp timeout]");
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    rss_idle = lg::rss_kib(opt.server_pid);
    if (opt.server_pid && !opt.echo) {
      uint64_t idle_ok = sum(&Stats::connected) - std::min<uint64_t>(sum(&Stats::connected), static_cast<uint64_t>(n_players));
      std::printf("  server RSS %s -> %s: %.0f bytes per idle connection (%llu idle)\n", kib(rss_games).c_str(),
                  kib(rss_idle).c_str(),
                  idle_ok ? (static_cast<double>(rss_idle) - static_cast<double>(rss_games)) * 1024.0 / static_cast<double>(idle_ok) : 0.0,
                  static_cast<unsigned long long>(idle_ok));
    }
  }

  // Phase 3: play.
  std::printf("phase 3: %s, warm-up %.0fs, measure %.0fs\n",
              opt.echo ? ("echo " + std::to_string(opt.echo_size) + "-byte messages, interval " +
                          std::to_string(opt.echo_interval_ms) + " ms")
                             .c_str()
                       : ("move every " + std::to_string(opt.move_interval_ms) + " ms per game").c_str(),
              opt.warmup_s, opt.duration_s);
  std::fflush(stdout);
  g_playing = true;
  post_all([](Worker& w) {
    for (auto& g : w.games)
      if (g->st == Game::St::Playing) g->play_now();
    for (auto& c : w.conns)
      if (c->kind == Kind::Echo && c->open) c->echo_send();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(opt.warmup_s * 1000)));
  g_measuring = true;
  auto m0 = Clock::now();
  auto moves0 = opt.echo ? sum(&Stats::echoes) : sum(&Stats::moves);
  auto lat0 = snap(&Stats::move_lat);
  uint64_t scpu0 = lg::cpu_ticks(opt.server_pid), rcpu0 = opt.redis_pid ? lg::cpu_ticks(opt.redis_pid) : 0,
           lcpu0 = lg::cpu_ticks(0);
  auto mach0 = lg::machine_ticks();
  auto fin0 = sum(&Stats::games_finished);
  auto prev_t = m0;
  auto prev_moves = moves0;
  auto prev_fin = fin0;
  uint64_t prev_scpu = scpu0, prev_rcpu = rcpu0, prev_lcpu = lcpu0;
  auto prev_lat = snap(&Stats::move_lat);
  const ServerLatency srv0 = read_server_latency();
  ServerLatency prev_srv = srv0;
  uint64_t rss_peak = 0;
  while (opt.duration_s - secs_since(m0) > 0.05) {
    double left = opt.duration_s - secs_since(m0);
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(std::min(left, opt.report_s) * 1000)));
    auto now_moves = opt.echo ? sum(&Stats::echoes) : sum(&Stats::moves);
    auto now_lat = snap(&Stats::move_lat);
    auto d = diff(now_lat, prev_lat);
    uint64_t rss = lg::rss_kib(opt.server_pid);
    rss_peak = std::max(rss_peak, rss);
    ServerLatency srv = read_server_latency();
    const std::string srv_p99 =
        lg::bucket_count(prev_srv.move, srv.move) > 0 ? "  server p99 " + lg::bound_ms(prev_srv.move, srv.move, 0.99) : "";
    prev_srv = std::move(srv);
    // Games ended and the server's CPU in the window: the tail follows the games' turnover.
    const uint64_t now_fin = sum(&Stats::games_finished), now_scpu = lg::cpu_ticks(opt.server_pid),
                   now_rcpu = opt.redis_pid ? lg::cpu_ticks(opt.redis_pid) : 0, now_lcpu = lg::cpu_ticks(0);
    auto pct = [&](uint64_t ticks) {
      return 100.0 * static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK)) / secs_since(prev_t);
    };
    std::printf("  t=%5.1fs %s/s=%8.0f  p50=%7.2fms p99=%7.2fms p999=%7.2fms%s  server_rss=%s  cpu server/redis/loadgen="
                "%.0f/%.0f/%.0f%%  games_ended=%llu  errors: %s\n",
                secs_since(m0), opt.echo ? "msgs" : "moves",
                static_cast<double>(now_moves - prev_moves) / secs_since(prev_t), d.quantile(0.5) / 1000,
                d.quantile(0.99) / 1000, d.quantile(0.999) / 1000, srv_p99.c_str(), kib(rss).c_str(),
                pct(now_scpu - prev_scpu), pct(now_rcpu - prev_rcpu), pct(now_lcpu - prev_lcpu),
                static_cast<unsigned long long>(now_fin - prev_fin), errors_str().c_str());
    prev_fin = now_fin;
    prev_scpu = now_scpu, prev_rcpu = now_rcpu, prev_lcpu = now_lcpu;
    std::fflush(stdout);
    prev_t = Clock::now();
    prev_moves = now_moves;
    prev_lat = std::move(now_lat);
  }
  g_measuring = false;
  double window = secs_since(m0);
  auto moves1 = opt.echo ? sum(&Stats::echoes) : sum(&Stats::moves);
  auto lat = diff(snap(&Stats::move_lat), lat0);
  const ServerLatency srv1 = read_server_latency();
  auto ack = snap(&Stats::ack_lat);
  uint64_t scpu1 = lg::cpu_ticks(opt.server_pid), rcpu1 = opt.redis_pid ? lg::cpu_ticks(opt.redis_pid) : 0,
           lcpu1 = lg::cpu_ticks(0);
  auto mach1 = lg::machine_ticks();
  uint64_t rss_end = lg::rss_kib(opt.server_pid);
  double rate = static_cast<double>(moves1 - moves0) / window;
  double offered = opt.echo ? 0 : 1000.0 * opt.games / std::max(1, opt.move_interval_ms);

  std::printf("\n==== RESULT (%s) ====\n", opt.echo ? "echo baseline" : "game server");
  if (opt.echo) {
    std::printf("connections            %d (%llu connected)\n", total, static_cast<unsigned long long>(sum(&Stats::connected)));
    if (opt.echo_relay)
      std::printf("relay messages/s       %.0f  (%d-byte binary frames, each back to its sender and to its partner, which answers)\n",
                  rate, static_cast<int>(std::max(opt.echo_size, 16)));
    else
      std::printf("echo messages/s        %.0f  (round trips of %d-byte binary frames, interval %d ms)\n", rate,
                  opt.echo_size, opt.echo_interval_ms);
    std::printf("%s p50 %.3f ms  p99 %.3f ms  p999 %.3f ms  (n=%llu)\n",
                opt.echo_relay ? "send -> partner gets  " : "round trip            ", lat.quantile(0.5) / 1000,
                lat.quantile(0.99) / 1000, lat.quantile(0.999) / 1000, static_cast<unsigned long long>(lat.count));
  } else {
    std::printf("connections            %d requested, %llu connected (%d players, %d idle), %llu closed, %llu failed\n",
                total, static_cast<unsigned long long>(sum(&Stats::connected)), n_players, n_idle,
                static_cast<unsigned long long>(sum(&Stats::closed)),
                static_cast<unsigned long long>(sum(&Stats::connect_failed)));
    std::printf("games                  %d concurrent; %llu started, %llu finished (%llu in window), %llu setups failed\n",
                opt.games, static_cast<unsigned long long>(sum(&Stats::games_started)),
                static_cast<unsigned long long>(sum(&Stats::games_finished)),
                static_cast<unsigned long long>(sum(&Stats::games_finished) - fin0),
                static_cast<unsigned long long>(sum(&Stats::setups_failed)));
    std::printf("moves/s                %.0f  (offered %.0f: %d games x 1 move / %d ms)\n", rate, offered, opt.games,
                opt.move_interval_ms);
    std::printf("move latency           p50 %.2f ms  p99 %.2f ms  p999 %.2f ms  max<=%.1f ms  mean %.2f ms  (n=%llu; mover send -> opponent receives event)\n",
                lat.quantile(0.5) / 1000, lat.quantile(0.99) / 1000, lat.quantile(0.999) / 1000,
                lat.quantile(1.0) / 1000, lat.mean() / 1000, static_cast<unsigned long long>(lat.count));
    std::printf("ack latency            p50 %.2f ms  p99 %.2f ms  (mover send -> its answer: %s)\n", ack.quantile(0.5) / 1000,
                ack.quantile(0.99) / 1000, opt.event_is_reply ? "its game_event" : "reply");
    // The server's part of it, from its own histograms (coarse buckets: "at most"). Moves counted
    // here include every node-local move in the window, not only this loadgen's.
    if (lg::bucket_count(srv0.move, srv1.move) > 0) {
      std::printf("server move time       p50 %s  p99 %s  p999 %s  (n=%.0f; frame received -> move acknowledged, /metrics)\n",
                  lg::bound_ms(srv0.move, srv1.move, 0.5).c_str(), lg::bound_ms(srv0.move, srv1.move, 0.99).c_str(),
                  lg::bound_ms(srv0.move, srv1.move, 0.999).c_str(), lg::bucket_count(srv0.move, srv1.move));
      std::printf("server redis           p50 %s  p99 %s  (n=%.0f; the server's Redis round trips, appends included)\n",
                  lg::bound_ms(srv0.redis, srv1.redis, 0.5).c_str(), lg::bound_ms(srv0.redis, srv1.redis, 0.99).c_str(),
                  lg::bucket_count(srv0.redis, srv1.redis));
    }
    std::printf("stalled moves (>%.0fms) %llu, desync %llu, resigns %llu (after a refused move), %llu (--resign-at-plies), "
                "%llu moves sent as the game ended (GAME_OVER)\n",
                opt.stall_ms, static_cast<unsigned long long>(sum(&Stats::stalls)),
                static_cast<unsigned long long>(sum(&Stats::desync)), static_cast<unsigned long long>(sum(&Stats::resigns)),
                static_cast<unsigned long long>(sum(&Stats::planned_resigns)),
                static_cast<unsigned long long>(sum(&Stats::moves_after_end)));
    std::printf("seek-list frames recv  %llu\n", static_cast<unsigned long long>(sum(&Stats::seek_frames)));
  }
  std::printf("errors by code         %s\n", errors_str().c_str());
  if (opt.server_pid) {
    std::printf("server RSS             start %s, after games %s, after idle %s, end %s (peak in window %s)\n",
                kib(rss0).c_str(), kib(rss_games).c_str(), kib(rss_idle).c_str(), kib(rss_end).c_str(),
                kib(rss_peak).c_str());
    std::printf("server CPU             %.0f%% of one core over the window\n",
                100.0 * static_cast<double>(scpu1 - scpu0) / static_cast<double>(clk) / window);
  }
  if (opt.redis_pid)
    std::printf("redis CPU              %.0f%% of one core\n",
                100.0 * static_cast<double>(rcpu1 - rcpu0) / static_cast<double>(clk) / window);
  std::printf("loadgen CPU            %.0f%% of one core\n",
              100.0 * static_cast<double>(lcpu1 - lcpu0) / static_cast<double>(clk) / window);
  {
    // Whatever else ran on the machine meanwhile (the box may be shared): busy CPU not accounted
    // for by the server, redis and loadgen.
    double ncpu = static_cast<double>(std::thread::hardware_concurrency());
    double busy = static_cast<double>(mach1.first - mach0.first), tot = static_cast<double>(mach1.second - mach0.second);
    double ours = static_cast<double>((scpu1 - scpu0) + (rcpu1 - rcpu0) + (lcpu1 - lcpu0));
    if (tot > 0)
      std::printf("machine CPU            %.0f%% busy of %d cores; other processes ~%.0f%% of one core\n",
                  100.0 * busy / tot, static_cast<int>(ncpu), std::max(0.0, 100.0 * ncpu * (busy - ours) / tot));
  }
  std::printf("total run time         %.1fs\n", secs_since(t_start));
  std::fflush(stdout);

  // Phase 4: stop. Sockets are closed abruptly (the server sees EOF); workers exit.
  g_stopping = true;
  if (opt.hold_s > 0) {
    std::printf("holding the connections open for %.0fs\n", opt.hold_s);
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(opt.hold_s * 1000)));
  }
  post_all([](Worker& w) {
    for (auto& g : w.games) g->timer.cancel();
    w.stall_timer.cancel();
    for (auto& c : w.conns) {
      c->on_connected = nullptr;
      c->fail();
    }
    w.ioc.stop();
  });
  for (auto& w : workers) w->th.join();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  po::options_description d("loadgen options");
  d.add_options()
      ("help,h", "show this help")
      ("host", po::value(&opt.host)->default_value(opt.host), "server address (loopback)")
      ("port", po::value(&opt.port)->default_value(opt.port), "server port (ws://host:port/ws)")
      ("second-port", po::value(&opt.second_port)->default_value(0), "handoff mode: the accepting player of each game connects to this port (another node), so every game is played across two nodes")
      ("threads", po::value(&opt.threads)->default_value(opt.threads), "client threads")
      ("games", po::value(&opt.games)->default_value(opt.games), "concurrent games (2 connections each)")
      ("connections", po::value(&opt.connections)->default_value(opt.connections), "total connections; the ones beyond 2*games are idle")
      ("move-interval-ms", po::value(&opt.move_interval_ms)->default_value(opt.move_interval_ms), "one move per game every this many ms (0 = as fast as possible)")
      ("warmup-s", po::value(&opt.warmup_s)->default_value(opt.warmup_s), "play this long before measuring")
      ("duration-s", po::value(&opt.duration_s)->default_value(opt.duration_s), "measured window")
      ("report-s", po::value(&opt.report_s)->default_value(opt.report_s), "progress line every this many seconds")
      ("ramp-timeout-s", po::value(&opt.ramp_timeout_s)->default_value(opt.ramp_timeout_s), "give up waiting for connections/game setup after this long")
      ("seed", po::value(&opt.seed)->default_value(opt.seed), "random seed (moves, jitter)")
      ("variant", po::value(&opt.variant)->default_value(opt.variant), "xiangqi | jieqi")
      ("initial-ms", po::value(&opt.initial_ms)->default_value(opt.initial_ms), "time control of the games")
      ("setup-mode", po::value(&opt.setup_mode)->default_value(opt.setup_mode), "direct | handoff (see README)")
      ("restart-mode", po::value(&opt.restart_mode)->default_value(opt.restart_mode),
       "handoff: new-guests | rematch (how a finished game is set up again; see README)")
      ("setup-concurrency", po::value(&opt.setup_concurrency)->default_value(opt.setup_concurrency), "game setups (seek+accept) in flight")
      ("connect-concurrency", po::value(&opt.connect_concurrency)->default_value(opt.connect_concurrency), "TCP+WebSocket handshakes in flight")
      ("idle-login", po::value(&opt.idle_login)->default_value(opt.idle_login), "idle connections log in as guests")
      ("idle-ping-s", po::value(&opt.idle_ping_s)->default_value(opt.idle_ping_s), "idle connections ping every ~this many s (0 = never)")
      ("idle-list-seeks", po::value(&opt.idle_list_seeks)->default_value(opt.idle_list_seeks),
       "idle connections ask list_seeks once after signing in, so they get the seek pushes (a lobby on screen)")
      ("restart", po::value(&opt.restart)->default_value(opt.restart), "set finished games up again")
      ("start-spread-s", po::value(&opt.start_spread_s)->default_value(opt.start_spread_s),
       "first moves spread over one interval plus this many seconds, so games are of different ages")
      ("resign-at-plies", po::value(&opt.resign_at_plies)->default_value(opt.resign_at_plies),
       "each game resigns at a random ply between half this and this, so games end at different times (0 = never)")
      ("ruleset", po::value(&opt.ruleset)->default_value(opt.ruleset), "the games' rule set: cxa | axf | computer")
      ("event-is-reply", po::value(&opt.event_is_reply)->default_value(opt.event_is_reply), "moves are answered by the mover's game_event, not a separate reply (the web client's way; false: the older two-frame answer)")
      ("server-pid", po::value(&opt.server_pid)->default_value(0), "server process: RSS and CPU are reported")
      ("redis-pid", po::value(&opt.redis_pid)->default_value(0), "redis process: CPU is reported")
      ("server-metrics", po::value(&opt.server_metrics)->default_value(opt.server_metrics),
       "read the server's move and Redis latency histograms (GET /metrics on --port) around the window and report them")
      ("hold-s", po::value(&opt.hold_s)->default_value(opt.hold_s), "keep connections open this long after the report (e.g. to stop the server first)")
      ("stall-ms", po::value(&opt.stall_ms)->default_value(opt.stall_ms), "a move not delivered after this long counts as stalled")
      ("echo", po::bool_switch(&opt.echo), "baseline: every connection sends --echo-size bytes to an echo server and waits for the echo")
      ("echo-size", po::value(&opt.echo_size)->default_value(opt.echo_size), "echo payload bytes")
      ("echo-interval-ms", po::value(&opt.echo_interval_ms)->default_value(opt.echo_interval_ms), "echo: per-connection pause between round trips (0 = closed loop)")
      ("echo-relay", po::bool_switch(&opt.echo_relay), "echo: against echo_server --relay true, answer the paired connection's messages (a move's wire: one frame in, two out)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, d), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n" << d;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << d;
    return 0;
  }
  if (opt.threads < 1 || opt.games < 0 || (opt.variant != "xiangqi" && opt.variant != "jieqi") ||
      (opt.setup_mode != "direct" && opt.setup_mode != "handoff") || (opt.second_port != 0 && opt.setup_mode != "handoff") ||
      (opt.restart_mode != "new-guests" && opt.restart_mode != "rematch")) {
    std::cerr << "bad arguments\n" << d;
    return 2;
  }
  opt.jieqi = opt.variant == "jieqi";
  // Everything is bounded: a watchdog ends the process if the run overshoots its budget.
  double budget = 2 * opt.ramp_timeout_s + opt.warmup_s + opt.duration_s + opt.hold_s + 60;
  std::thread([budget] {
    std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(budget * 1000)));
    std::fprintf(stderr, "loadgen: watchdog: run exceeded %.0fs, exiting\n", budget);
    std::_Exit(3);
  }).detach();
  return run();
}
