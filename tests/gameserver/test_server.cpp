#include "test_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "store/redis.h"

uint16_t free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

void Process::start(const std::vector<std::string>& argv, const std::string& log_path) {
  pid_ = fork();
  if (pid_ == 0) {
    // Dies with the test program (a crash, a timeout's kill, a closed pipe) instead of lingering.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    int fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  if (pid_ < 0) throw std::runtime_error("fork failed");
}

void Process::kill_hard() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void Process::signal(int sig) {
  if (pid_ > 0) ::kill(pid_, sig);
}

bool Process::alive() {
  if (pid_ <= 0) return false;
  if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
    pid_ = -1;
    return false;
  }
  return true;
}

void Process::terminate() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  // A server must stop cleanly when asked (a crash here once left a node's heartbeat behind).
  if (WIFSIGNALED(status) && WTERMSIG(status) != SIGTERM)
    ADD_FAILURE() << "process " << pid_ << " died of signal " << WTERMSIG(status) << " when asked to stop";
  else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    ADD_FAILURE() << "process " << pid_ << " exited with status " << WEXITSTATUS(status) << " when asked to stop";
  pid_ = -1;
}

static bool can_connect(uint16_t port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

static size_t file_size(const std::string& path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  return f ? static_cast<size_t>(f.tellg()) : 0;
}

static bool log_says(const std::string& path, size_t from, const char* marker) {
  std::ifstream f(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return text.size() > from && text.find(marker, from) != std::string::npos;
}

// Waits until `p` says in its log (after offset `from`) that it listens, and the port answers.
// False if it exited first: a port from free_port() can be taken by another test's process before
// ours binds it, and a connect alone would then reach that other process (two clusters could then
// share one Redis under the same node names).
static bool wait_listening(Process& p, const std::string& log, size_t from, const char* marker, uint16_t port,
                           const char* what) {
  for (int i = 0; i < 400; ++i) {
    if (!p.alive()) return false;
    if (log_says(log, from, marker) && can_connect(port)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  throw std::runtime_error(std::string(what) + " did not start");
}

// Starts a server on `port`, or (port 0) on a free port, trying another one if it was taken.
// Returns the port it listens on.
uint16_t start_listening(Process& p, uint16_t port, const std::function<std::vector<std::string>(uint16_t)>& argv,
                                const std::string& log, const char* marker, const char* what) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    const uint16_t at = port ? port : free_port();
    const size_t from = file_size(log);
    p.start(argv(at), log);
    if (wait_listening(p, log, from, marker, at, what)) return at;
    if (port) break;  // a fixed port: no other to try
  }
  throw std::runtime_error(std::string(what) + " could not listen");
}

TestServers::TestServers(Options o) : opt_(o) {
  char tmpl[] = "/tmp/xq-gs-test-XXXXXX";
  dir_ = mkdtemp(tmpl);
  redis_port_ = opt_.redis_port;
  start_redis();
  start_gameserver();
}

void TestServers::start_redis() {
  redis_port_ = start_listening(
      redis_, redis_port_,
      [&](uint16_t port) {
        std::vector<std::string> argv{"redis-server", "--port", std::to_string(port), "--bind", "127.0.0.1",
                                      "--save", "", "--dir", dir_};
        if (opt_.durable_redis) argv.insert(argv.end(), {"--appendonly", "yes", "--appendfsync", "always"});
        else argv.insert(argv.end(), {"--appendonly", "no"});
        return argv;
      },
      dir_ + "/redis.log", kRedisReady, "redis-server");
  redis_url_ = "redis://127.0.0.1:" + std::to_string(opt_.redis_proxy_port ? opt_.redis_proxy_port : redis_port_) + "/0";
}

void TestServers::restart_redis() {
  redis_.kill_hard();
  start_redis();  // on the same port: redis_port_ is set now
}

void TestServers::start_gameserver() {
  // XQ_GAMESERVER_BIN runs another build of the server (e.g. a sanitizer build) under the same tests.
  const char* bin = std::getenv("XQ_GAMESERVER_BIN") ? std::getenv("XQ_GAMESERVER_BIN") : GAMESERVER_BIN;
  gs_port_ = start_listening(
      game_, gs_port_,  // a restart keeps the port
      [&](uint16_t port) {
        std::vector<std::string> argv{bin, "--listen", "127.0.0.1:" + std::to_string(port), "--redis",
                                      redis_url_, "--secret", "integration-test-secret-0123456789", "--admin-token",
                                      kAdminToken, "--static-dir", dir_, "--node-id", "node-" + std::to_string(port)};
        const auto& extra = opt_.gameserver_args;
        if (std::find(extra.begin(), extra.end(), "--claim-after-ms") == extra.end())
          argv.insert(argv.end(), {"--claim-after-ms", "500"});  // tests of claims need not wait long
        if (std::find(extra.begin(), extra.end(), "--registrations-per-hour") == extra.end())
          argv.insert(argv.end(), {"--registrations-per-hour", "0"});  // every test registers from 127.0.0.1
        argv.insert(argv.end(), extra.begin(), extra.end());
        if (opt_.gameserver_fd_limit > 0) {  // prlimit (util-linux) execs the server in its place
          const std::string n = std::to_string(opt_.gameserver_fd_limit);
          argv.insert(argv.begin(), {"prlimit", "--nofile=" + n + ":" + n, "--"});
        }
        return argv;
      },
      dir_ + "/gameserver.log", kGameserverReady, "gameserver");
}

TestServers::~TestServers() {
  game_.terminate();
  redis_.kill_hard();
  // XQ_TEST_KEEP_LOGS=1 keeps the logs (e.g. sanitizer reports from the server) for inspection.
  if (std::getenv("XQ_TEST_KEEP_LOGS")) {
    std::fprintf(stderr, "test server logs kept in %s\n", dir_.c_str());
    return;
  }
  std::string cmd = "rm -rf '" + dir_ + "'";
  if (std::system(cmd.c_str()) != 0) {
  }
}

static int http(uint16_t port, const std::string& request, std::string& body, std::string* headers = nullptr) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    close(fd);
    return -1;
  }
  if (write(fd, request.data(), request.size()) < 0) {
  }
  std::string resp;
  char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) resp.append(buf, static_cast<size_t>(n));
  close(fd);
  auto sp = resp.find(' ');
  auto hdr_end = resp.find("\r\n\r\n");
  if (sp == std::string::npos || hdr_end == std::string::npos) return -1;
  body = resp.substr(hdr_end + 4);
  if (headers) *headers = resp.substr(0, hdr_end + 2);
  return std::atoi(resp.c_str() + sp + 1);
}

int http_raw(uint16_t port, const std::string& request, std::string& body) { return http(port, request, body); }

int http_request(uint16_t port, const std::string& method, const std::string& path, std::string& body,
                 const std::string& bearer, const std::string& payload, std::string* headers) {
  std::string req = method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n";
  if (!bearer.empty()) req += "Authorization: Bearer " + bearer + "\r\n";
  if (method != "GET") req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(payload.size()) + "\r\n";
  return http(port, req + "\r\n" + payload, body, headers);
}

int TestServers::http_get(const std::string& path, std::string& body, const std::string& bearer) {
  return http_request(gs_port_, "GET", path, body, bearer);
}

int TestServers::http_post(const std::string& path, const std::string& payload, std::string& body,
                           const std::string& bearer) {
  return http_request(gs_port_, "POST", path, body, bearer, payload);
}

TestCluster::TestCluster(int nodes, int64_t lease_ms, int64_t tick_ms, std::vector<std::string> extra_args)
    : lease_ms_(lease_ms), tick_ms_(tick_ms), extra_args_(std::move(extra_args)) {
  char tmpl[] = "/tmp/xq-gs-cluster-XXXXXX";
  dir_ = mkdtemp(tmpl);
  const uint16_t redis_port = start_listening(
      redis_, 0,
      [&](uint16_t port) {
        return std::vector<std::string>{"redis-server", "--port", std::to_string(port), "--bind", "127.0.0.1",
                                        "--save", "", "--appendonly", "no", "--dir", dir_};
      },
      dir_ + "/redis.log", kRedisReady, "redis-server");
  redis_url_ = "redis://127.0.0.1:" + std::to_string(redis_port) + "/0";
  for (int i = 0; i < nodes; ++i) {
    nodes_.push_back(std::make_unique<Process>());
    ports_.push_back(start_node(i, 0));
  }
}

uint16_t TestCluster::start_node(int node, uint16_t port) {
  return start_listening(
      *nodes_.at(static_cast<size_t>(node)), port,
      [&](uint16_t at) {
        std::vector<std::string> argv{
            GAMESERVER_BIN, "--listen", "127.0.0.1:" + std::to_string(at), "--redis", redis_url_, "--secret",
            "integration-test-secret-0123456789", "--admin-token", TestServers::kAdminToken, "--static-dir", dir_,
            "--claim-after-ms", "500", "--node-id", node_id(node), "--lease-ms", std::to_string(lease_ms_),
            "--tick-ms", std::to_string(tick_ms_)};
        argv.insert(argv.end(), extra_args_.begin(), extra_args_.end());
        return argv;
      },
      dir_ + "/" + node_id(node) + ".log", kGameserverReady, "gameserver");
}

void TestCluster::restart_node(int node) {
  nodes_.at(static_cast<size_t>(node))->kill_hard();  // no-op if it is not running
  start_node(node, port(node));
}

TestCluster::~TestCluster() {
  for (auto& n : nodes_) n->terminate();
  redis_.kill_hard();
  // A failed test shows what the nodes said (their follow / takeover lines explain most failures).
  const bool failed = ::testing::Test::HasFailure();
  if (failed)
    for (size_t i = 0; i < nodes_.size(); ++i) {
      std::string cmd = "tail -n 40 '" + dir_ + "/" + node_id(static_cast<int>(i)) + ".log' >&2";
      std::fprintf(stderr, "---- %s.log (last 40 lines)\n", node_id(static_cast<int>(i)).c_str());
      if (std::system(cmd.c_str()) != 0) {
      }
    }
  if (failed || std::getenv("XQ_TEST_KEEP_LOGS")) {
    std::fprintf(stderr, "test cluster logs kept in %s\n", dir_.c_str());
    return;
  }
  std::string cmd = "rm -rf '" + dir_ + "'";
  if (std::system(cmd.c_str()) != 0) {
  }
}

int TestCluster::http_get(int node, const std::string& path, std::string& body) {
  return http_request(port(node), "GET", path, body);
}

int TestCluster::http_post(int node, const std::string& path, const std::string& payload, std::string& body,
                           const std::string& bearer) {
  return http_request(port(node), "POST", path, body, bearer, payload);
}
