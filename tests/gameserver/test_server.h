// Real processes for the integration tests: a throwaway redis-server and the gameserver binary,
// each on a free port, killed at the end.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

uint16_t free_port();

class Process {
 public:
  Process() = default;
  ~Process() { kill_hard(); }
  void start(const std::vector<std::string>& argv, const std::string& log_path);
  void kill_hard();   // SIGKILL, like a crash
  void terminate();   // SIGTERM and wait
  bool running() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
};

class TestServers {
 public:
  TestServers();  // starts redis + gameserver; throws if they do not come up
  ~TestServers();
  void start_gameserver();
  void crash_gameserver() { game_.kill_hard(); }
  void crash_redis() { redis_.kill_hard(); }
  uint16_t port() const { return gs_port_; }
  const std::string& redis_url() const { return redis_url_; }
  // GET over HTTP/1.1; returns status and fills body.
  int http_get(const std::string& path, std::string& body, const std::string& bearer = "");
  int http_post(const std::string& path, const std::string& payload, std::string& body, const std::string& bearer = "");
  static constexpr const char* kAdminToken = "test-admin-token";

 private:
  std::string dir_;
  uint16_t redis_port_ = 0, gs_port_ = 0;
  std::string redis_url_;
  Process redis_, game_;
};

// Several game servers ("node-0", "node-1", …) sharing one throwaway Redis.
class TestCluster {
 public:
  explicit TestCluster(int nodes, int64_t lease_ms = 3000, int64_t tick_ms = 300);
  ~TestCluster();
  uint16_t port(int node) const { return ports_.at(static_cast<size_t>(node)); }
  static std::string node_id(int node) { return "node-" + std::to_string(node); }
  void kill_node(int node) { nodes_.at(static_cast<size_t>(node))->kill_hard(); }
  void stop_node(int node) { nodes_.at(static_cast<size_t>(node))->terminate(); }  // SIGTERM
  const std::string& redis_url() const { return redis_url_; }
  int http_get(int node, const std::string& path, std::string& body);
  // As admin unless another bearer token (e.g. a player's session) is given.
  int http_post(int node, const std::string& path, const std::string& payload, std::string& body,
                const std::string& bearer = TestServers::kAdminToken);

 private:
  std::string dir_, redis_url_;
  std::vector<uint16_t> ports_;
  Process redis_;
  std::vector<std::unique_ptr<Process>> nodes_;
};
