// gameserver: the WebSocket game server process. See docs/ARCHITECTURE.md.
#include <boost/program_options.hpp>
#include <google/protobuf/stubs/logging.h>
#include <execinfo.h>
#include <sys/resource.h>
#include <algorithm>
#include <csignal>
#include <iostream>
#include <unistd.h>

#include "auth/auth.h"
#include "net/http_server.h"
#include "net/runtime.h"
#include "server/hub.h"
#include "server/matchmaker_bridge.h"
#include "server/node_link.h"
#include "server/metrics.h"
#include "store/rating_store.h"
#include "store/key_migration.h"
#include "store/redis.h"

namespace po = boost::program_options;

// A crash leaves its stack in the log (addresses resolve with addr2line against this binary),
// then dies of the same signal, so supervisors and core dumps see it as before.
static void report_fatal_signal(int sig) {
  static const char head[] = "gameserver: fatal signal, stack:\n";
  if (write(2, head, sizeof head - 1) < 0) {
  }
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), 2);
  std::signal(sig, SIG_DFL);
  raise(sig);
}

// Protobuf logs an ERROR line for every client frame with invalid UTF-8 in a string field (the
// client gets BAD_FRAME already): a hostile client could fill the log at its frame rate. Only a
// fatal message is written.
static void protobuf_log(google::protobuf::LogLevel level, const char* file, int line, const std::string& message) {
  if (level == google::protobuf::LOGLEVEL_FATAL) std::cerr << "protobuf: " << file << ":" << line << ": " << message << '\n';
}

int main(int argc, char** argv) {
  google::protobuf::SetLogHandler(protobuf_log);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, report_fatal_signal);
  // A write to a Redis connection the peer already reset (a restart, a failover) must fail with
  // EPIPE, not kill the server (hiredis writes with plain write()).
  std::signal(SIGPIPE, SIG_IGN);
  std::string listen, redis_url, secret, node_id, trusted_proxies, chat_blocked_words;
  gs::ServerOptions opt;
  int threads = 2, registrations_per_hour = 20;
  int64_t finished_replay_s = opt.finished_replay_ms / 1000;
  po::options_description desc("gameserver options");
  desc.add_options()
      ("help,h", "show this help")
      ("listen", po::value(&listen)->default_value("127.0.0.1:8080"), "host:port to serve /ws, /api, /metrics, /healthz and static files")
      ("redis", po::value(&redis_url)->default_value("redis://127.0.0.1:6379/0"), "Redis URL: redis://host:port/db, redis-sentinel://host:port,host:port/master-name/db to follow a Sentinel-managed master, or redis-cluster://host:port,host:port for a Redis Cluster")
      ("secret", po::value(&secret), "token signing secret (>= 16 chars; or env XQ_SECRET)")
      ("admin-token", po::value(&opt.admin_token), "bearer token for /api/admin (or env XQ_ADMIN_TOKEN; empty = admin API off)")
      ("metrics-token", po::value(&opt.metrics_token),
       "bearer token GET /metrics requires (or env XQ_METRICS_TOKEN; the admin token is accepted too; empty = /metrics open)")
      ("static-dir", po::value(&opt.static_dir)->default_value("clients/web/dist"), "directory of the web client")
      ("threads", po::value(&threads)->default_value(2), "I/O threads")
      ("node-id", po::value(&node_id), "this node's unique name among the game servers sharing the Redis (game ownership, routing, stream groups; default: host-pid)")
      ("lease-ms", po::value(&opt.lease_ms)->default_value(opt.lease_ms), "node heartbeat lease: a dead node's games are taken over after this")
      ("tick-ms", po::value(&opt.tick_ms)->default_value(opt.tick_ms), "heartbeat / takeover period (well below --lease-ms)")
      ("forward-timeout-ms", po::value(&opt.forward_timeout_ms)->default_value(opt.forward_timeout_ms),
       "a request forwarded to the game's node and not answered this long gets NODE_NOT_ANSWERING (checked every tick)")
      ("max-frame", po::value(&opt.max_frame_bytes)->default_value(opt.max_frame_bytes), "largest accepted WebSocket frame (bytes)")
      ("rate", po::value(&opt.rate_per_second)->default_value(opt.rate_per_second), "frames per second allowed per connection (sustained)")
      ("burst", po::value(&opt.rate_burst)->default_value(opt.rate_burst), "frames allowed in a burst per connection")
      ("send-queue-frames", po::value(&opt.send_queue_frames)->default_value(opt.send_queue_frames), "frames queued for a client before it is dropped as a slow reader")
      ("send-queue-bytes", po::value(&opt.send_queue_bytes)->default_value(opt.send_queue_bytes), "bytes queued for a client before it is dropped as a slow reader")
      ("seek-push-interval-ms", po::value(&opt.seek_push_interval_ms)->default_value(opt.seek_push_interval_ms), "at most one seek-list push per this period (changes in between are coalesced)")
      ("seek-push-frames-per-s", po::value(&opt.seek_push_frames_per_s)->default_value(opt.seek_push_frames_per_s),
       "space the seek-list pushes so that they send at most this many frames per second (0: no limit)")
      ("max-sockets", po::value(&opt.max_sockets)->default_value(-1),
       "client sockets open at most; one more is closed at accept (-1: the file descriptor limit less 512 kept for Redis and files; 0: no cap)")
      ("max-connections-per-address", po::value(&opt.max_connections_per_address)->default_value(opt.max_connections_per_address),
       "WebSocket connections open at most from one client address (its IPv6 /64; loopback not counted); more get 429 (0: no limit)")
      ("max-followed-games", po::value(&opt.max_followed_games)->default_value(opt.max_followed_games),
       "games one connection may follow at once: a spectator's watch or sync beyond them is refused (a player's own games never are; 0: no limit)")
      ("max-seeks-per-address", po::value(&opt.max_seeks_per_address)->default_value(opt.max_seeks_per_address),
       "open seeks and challenges at most from one client address, on all nodes together (loopback not counted; 0: no limit)")
      ("finished-replay-s", po::value(&finished_replay_s)->default_value(finished_replay_s),
       "a finished game's events and config stay in Redis this long (0 = for ever); then its archive record alone serves it")
      ("finished-linger-ms", po::value(&opt.finished_linger_ms)->default_value(opt.finished_linger_ms), "finished games stay in memory this long for late syncs (then they are served from Redis)")
      ("background-nice", po::value(&opt.background_nice)->default_value(opt.background_nice),
       "niceness (0-19) of the threads for sign-ins, lobby requests, seek pushes and archives; above 0 the moves get the CPU first")
      ("claim-after-ms", po::value(&opt.claim_after_ms)->default_value(opt.claim_after_ms), "opponent absence before claim_victory is allowed")
      ("first-move-ms", po::value(&opt.first_move_ms)->default_value(opt.first_move_ms),
       "outside tournaments, a side that has not made its first move this long after its turn began aborts the game (0: never)")
      ("idle-timeout-ms", po::value(&opt.idle_timeout_ms)->default_value(opt.idle_timeout_ms),
       "close a WebSocket silent this long (the server pings it halfway; a live client's pong keeps it)")
      ("heartbeat-idle-ms", po::value(&opt.heartbeat_idle_ms)->default_value(opt.heartbeat_idle_ms),
       "the same for a WebSocket that sends application pings regularly (two within this period; the web "
       "client pings every 5 s), so its dead link is found sooner; the shorter of the two applies (0: off)")
      ("login-deadline-ms", po::value(&opt.login_deadline_ms)->default_value(opt.login_deadline_ms),
       "close a WebSocket not signed in this long after it opened")
      ("trusted-proxies", po::value(&trusted_proxies)->default_value("127.0.0.1,::1"),
       "reverse proxies whose X-Forwarded-For names the client (addresses or networks, comma-separated; \"\" = none; or env XQ_TRUSTED_PROXIES, which the flag overrides): the limits per client address count the address it names")
      ("registrations-per-hour", po::value(&registrations_per_hour)->default_value(registrations_per_hour),
       "new accounts per client address and hour (0: no limit)")
      ("chat-blocked-words", po::value(&chat_blocked_words),
       "file of words or phrases refused in chat lines, one per line ('#' starts a comment); matched ignoring case, spaces and punctuation");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n" << desc;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << desc;
    return 0;
  }
  if (opt.first_move_ms < 0 || opt.first_move_ms > 24LL * 3600 * 1000) {
    std::cerr << "--first-move-ms must be 0 (no such rule) to 86400000 (a day)\n";
    return 2;
  }
  if (finished_replay_s < 0) {
    std::cerr << "--finished-replay-s must be 0 (for ever) or more\n";
    return 2;
  }
  opt.finished_replay_ms = finished_replay_s * 1000;
  if (secret.empty() && std::getenv("XQ_SECRET")) secret = std::getenv("XQ_SECRET");
  if (opt.admin_token.empty() && std::getenv("XQ_ADMIN_TOKEN")) opt.admin_token = std::getenv("XQ_ADMIN_TOKEN");
  if (opt.metrics_token.empty() && std::getenv("XQ_METRICS_TOKEN")) opt.metrics_token = std::getenv("XQ_METRICS_TOKEN");
  // This flag has a default: not given means defaulted, not empty ("" is a value: no proxy).
  if (vm["trusted-proxies"].defaulted() && std::getenv("XQ_TRUSTED_PROXIES")) trusted_proxies = std::getenv("XQ_TRUSTED_PROXIES");
  auto colon = listen.rfind(':');
  if (colon == std::string::npos) {
    std::cerr << "--listen must be host:port\n";
    return 2;
  }
  if (!chat_blocked_words.empty()) try {
      opt.chat_filter = gs::ChatFilter::from_file(chat_blocked_words);
    } catch (const std::exception& e) {
      std::cerr << "--chat-blocked-words: " << e.what() << "\n";
      return 2;
    }
  try {
    opt.trusted_proxies = gs::TrustedProxies::parse(trusted_proxies);
  } catch (const std::exception& e) {
    std::cerr << "--trusted-proxies (or XQ_TRUSTED_PROXIES): " << e.what() << "\n";
    return 2;
  }
  if (opt.max_sockets < 0) {
    // Use the whole descriptor allowance, and keep a reserve out of the clients' reach.
    rlimit rl{};
    getrlimit(RLIMIT_NOFILE, &rl);
    if (rl.rlim_cur < rl.rlim_max) {
      rl.rlim_cur = rl.rlim_max;
      setrlimit(RLIMIT_NOFILE, &rl);
      getrlimit(RLIMIT_NOFILE, &rl);
    }
    constexpr int64_t kReserved = 512;
    const int64_t limit = static_cast<int64_t>(rl.rlim_cur);
    if (rl.rlim_cur == RLIM_INFINITY) opt.max_sockets = 0;
    else opt.max_sockets = limit > 2 * kReserved ? limit - kReserved : std::max<int64_t>(limit / 2, 1);
  }
  try {
    gs::Runtime runtime(threads);
    gs::Redis redis(redis_url);
    if (!redis.ping()) {
      std::cerr << "cannot reach Redis at " << redis_url << "\n";
      return 1;
    }
    try {  // keys written before every key carried the cluster hash tag (store/key_migration.h)
      if (auto moved = gs::migrate_untagged_keys(redis); moved.renamed + moved.skipped > 0)
        std::cerr << "gameserver: renamed " << moved.renamed << " keys to {xq}:… (" << moved.skipped << " left: new name taken)\n";
    } catch (const std::exception& e) {
      std::cerr << "gameserver: renaming old keys: " << e.what() << "\n";
    }
    gs::Auth auth(redis, secret);
    auth.set_registrations_per_hour(registrations_per_hour);
    try {
      auth.index_accounts();
    } catch (const std::exception& e) {  // not fatal: bans stay lenient until a start completes it
      std::cerr << "gameserver: indexing the accounts' ids: " << e.what() << "\n";
    }
    try {
      gs::RatingStore(redis).index_leaderboards();
    } catch (const std::exception& e) {  // not fatal: a later start completes it
      std::cerr << "gameserver: putting stored ratings on the leaderboards: " << e.what() << "\n";
    }
    gs::Metrics metrics;
    redis.set_latency_observer([&metrics](double s) { metrics.observe_redis_latency(s); });
    opt.redis_url = redis_url;
    if (node_id.empty()) {
      char host[256] = {0};
      gethostname(host, sizeof host - 1);
      node_id = std::string(host) + "-" + std::to_string(getpid());
    }
    opt.node_id = node_id;
    if (opt.tick_ms < 50 || opt.tick_ms * 2 > opt.lease_ms) {
      std::cerr << "--tick-ms must be >= 50 and at most half of --lease-ms\n";
      return 2;
    }
    gs::Hub hub(runtime, redis, auth, metrics, opt);
    gs::HttpServer server(runtime, hub, listen.substr(0, colon), static_cast<uint16_t>(std::stoi(listen.substr(colon + 1))));
    gs::NodeLink link(hub, redis_url, node_id, opt.tick_ms);  // other nodes: routing, leases, takeover
    link.start();
    size_t resumed = hub.recover();
    hub.announce_start();  // after its games are loaded: the others' followers subscribe again
    gs::MatchmakerBridge bridge(hub, redis_url, node_id);  // tournament and quick-pairing games
    bridge.start();
    server.start();
    server.stop_on_signals();
    std::cout << "gameserver listening on " << listen.substr(0, colon) << ":" << server.port() << " as node " << node_id
              << " (took up " << resumed
              << " live games at once; the others as their owners' leases lapse, or when first asked for)" << std::endl;
    runtime.run();
    bridge.stop();
    link.stop();
    hub.release_all();  // a clean stop hands its games over at once
  } catch (const std::exception& e) {
    std::cerr << "gameserver: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
