// Real processes for the integration tests: a throwaway redis-server and the gameserver binary,
// each on a free port, killed at the end.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

uint16_t free_port();

// An HTTP/1.1 request to 127.0.0.1:port (Connection: close; a body is sent as JSON unless GET).
// Returns the status (-1 if nothing answered) and fills body (and the header lines, if asked).
int http_request(uint16_t port, const std::string& method, const std::string& path, std::string& body,
                 const std::string& bearer = "", const std::string& payload = "", std::string* headers = nullptr);
// The same with the request written out in full (header lines as given, ending in an empty line).
int http_raw(uint16_t port, const std::string& request, std::string& body);

class Process {
 public:
  Process() = default;
  ~Process() { kill_hard(); }
  void start(const std::vector<std::string>& argv, const std::string& log_path);
  void kill_hard();   // SIGKILL, like a crash
  void terminate();   // SIGTERM and wait
  bool running() const { return pid_ > 0; }
  bool alive();  // started and not exited (reaps it if it exited)
  void signal(int sig);
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

// What redis-server and gameserver print once they accept connections.
inline constexpr const char* kRedisReady = "Ready to accept connections";
inline constexpr const char* kGameserverReady = "gameserver listening on";

// Starts `p` with argv(port) on `port`, or (port 0) on a free port, trying another one if the
// process exits (the port was taken); returns once its log (after what it held before) shows
// `marker` and the port accepts connections. Throws if it never does.
uint16_t start_listening(Process& p, uint16_t port, const std::function<std::vector<std::string>(uint16_t)>& argv,
                         const std::string& log, const char* marker, const char* what);

class TestServers {
 public:
  struct Options {
    // Redis with appendonly yes + appendfsync always, so a SIGKILLed Redis restarted on the same
    // directory has every write it acknowledged (what production should run).
    bool durable_redis = false;
    // Where the gameserver connects instead of Redis itself (e.g. a fault-injecting proxy in front
    // of redis_port()); 0 = Redis directly.
    uint16_t redis_proxy_port = 0;
    uint16_t redis_port = 0;  // 0 = a free one
    std::vector<std::string> gameserver_args;  // extra flags for the gameserver
    int gameserver_fd_limit = 0;  // > 0: the gameserver runs under `prlimit --nofile=N:N`
  };
  TestServers() : TestServers(Options{}) {}
  explicit TestServers(Options o);  // starts redis + gameserver; throws if they do not come up
  ~TestServers();
  void start_gameserver();
  void crash_gameserver() { game_.kill_hard(); }
  void stop_gameserver() { game_.terminate(); }  // SIGTERM: a clean stop, as in a deploy
  void crash_redis() { redis_.kill_hard(); }
  void freeze_redis() { redis_.signal(19 /* SIGSTOP */); }  // a hung Redis: connections open, no answers
  void thaw_redis() { redis_.signal(18 /* SIGCONT */); }
  // Starts redis-server again on the same port and directory (after crash_redis()).
  void restart_redis();
  bool gameserver_running() { return game_.alive(); }
  pid_t gameserver_pid() const { return game_.pid(); }
  uint16_t port() const { return gs_port_; }
  uint16_t redis_port() const { return redis_port_; }
  const std::string& dir() const { return dir_; }
  const std::string& redis_url() const { return redis_url_; }
  // GET over HTTP/1.1; returns status and fills body.
  int http_get(const std::string& path, std::string& body, const std::string& bearer = "");
  int http_post(const std::string& path, const std::string& payload, std::string& body, const std::string& bearer = "");
  static constexpr const char* kAdminToken = "test-admin-token";

 private:
  std::string dir_;
  uint16_t redis_port_ = 0, gs_port_ = 0;
  std::string redis_url_;
  Options opt_;
  Process redis_, game_;
  void start_redis();
};

// Several game servers ("node-0", "node-1", …) sharing one throwaway Redis.
class TestCluster {
 public:
  // extra_args: more gameserver flags for every node.
  explicit TestCluster(int nodes, int64_t lease_ms = 3000, int64_t tick_ms = 300,
                       std::vector<std::string> extra_args = {});
  ~TestCluster();
  uint16_t port(int node) const { return ports_.at(static_cast<size_t>(node)); }
  static std::string node_id(int node) { return "node-" + std::to_string(node); }
  void kill_node(int node) { nodes_.at(static_cast<size_t>(node))->kill_hard(); }
  // Starts a stopped or killed node again: same name, port and flags (a restarted container).
  void restart_node(int node);
  void stop_node(int node) { nodes_.at(static_cast<size_t>(node))->terminate(); }  // SIGTERM
  // A stalled node (SIGSTOP): sockets open, no heartbeat, no answers; thaw resumes it.
  void freeze_node(int node) { nodes_.at(static_cast<size_t>(node))->signal(19 /* SIGSTOP */); }
  void thaw_node(int node) { nodes_.at(static_cast<size_t>(node))->signal(18 /* SIGCONT */); }
  const std::string& redis_url() const { return redis_url_; }
  int http_get(int node, const std::string& path, std::string& body);
  // As admin unless another bearer token (e.g. a player's session) is given.
  int http_post(int node, const std::string& path, const std::string& payload, std::string& body,
                const std::string& bearer = TestServers::kAdminToken);

 private:
  std::string dir_, redis_url_;
  int64_t lease_ms_, tick_ms_;
  std::vector<std::string> extra_args_;
  std::vector<uint16_t> ports_;
  Process redis_;
  std::vector<std::unique_ptr<Process>> nodes_;
  uint16_t start_node(int node, uint16_t port);  // port 0: a free one
};
