// The compose stack (deploy/compose.yaml) on this machine, without Docker: Redis with the compose
// flags, two game servers started by the image's own command with the compose environment, the
// matchmaker by its compose command, and nginx with deploy/nginx.conf in front. Only host names,
// the game servers' fixed addresses and ports are rewritten to loopback. Players reach everything
// through the proxy: the web client, /healthz, quick pairing (the matchmaker makes the game), play
// and watching; then the node that owns the game is killed and the game finishes through the proxy
// on the other node.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cluster_helpers.h"
#include "recipe_files.h"
#include "test_clients.h"
#include "test_server.h"
#include "ws_client.h"

using namespace xq::v1;
namespace fs = std::filesystem;

namespace {

const std::string kMetricsToken = "deploy-test-metrics-token";

std::string nginx_binary() { return fs::exists("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx"; }

bool wait_for_log(const std::string& path, const std::string& marker, int budget_ms) {
  for (int waited = 0; waited < budget_ms; waited += 50) {
    std::ifstream f(path);
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (text.find(marker) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

class ComposeStackOnOneBox : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/xq-deploy-XXXXXX";
    dir_ = mkdtemp(tmpl);
    const std::string compose = read_file(source_path("deploy/compose.yaml"));
    const ImageRecipe image = read_image_recipe(read_file(source_path("deploy/Dockerfile")));

    // Redis with the compose command's flags (AOF on).
    const auto redis_cmd = compose_service(compose, "redis").command;
    redis_port_ = start_listening(
        redis_, 0,
        [&](uint16_t port) {
          auto argv = redis_cmd;
          argv.insert(argv.end(), {"--port", std::to_string(port), "--bind", "127.0.0.1", "--dir", dir_});
          return argv;
        },
        dir_ + "/redis.log", kRedisReady, "redis-server");
    const std::string redis_host = "127.0.0.1:" + std::to_string(redis_port_);

    // The game servers: the image's CMD under the image's ENV overlaid with compose's environment.
    fs::create_directories(dir_ + "/web");
    std::ofstream(dir_ + "/web/index.html") << "<!doctype html><title>xq deploy test</title>";
    std::map<std::string, std::string> env = image.env;
    for (const auto& [k, v] : compose_service(compose, "gameserver-1").environment) env[k] = v;
    env["XQ_SECRET"] = "deploy-test-secret-0123456789";  // compose: ${XQ_SECRET:?set XQ_SECRET}
    env["XQ_ADMIN_TOKEN"] = TestServers::kAdminToken;
    env["XQ_METRICS_TOKEN"] = kMetricsToken;  // compose: ${XQ_METRICS_TOKEN:-}
    env["XQ_STATIC_DIR"] = dir_ + "/web";  // the image copies the web client there
    env["XQ_REDIS"] = replace_all(env.at("XQ_REDIS"), "redis:6379", redis_host);
    for (int i = 0; i < 2; ++i) {
      nodes_.push_back(std::make_unique<Process>());
      node_logs_.push_back(dir_ + "/gameserver-" + std::to_string(i + 1) + ".log");
      node_ports_.push_back(start_listening(
          *nodes_.back(), 0,
          [&](uint16_t port) {
            std::vector<std::string> argv{"env", "PATH=" + std::string(XQ_BIN_DIR) + ":" + std::getenv("PATH")};
            for (auto [k, v] : env) {
              if (k == "XQ_LISTEN") v = "127.0.0.1:" + std::to_string(port);  // 0.0.0.0:8080 in a container
              argv.push_back(k + "=" + v);
            }
            argv.insert(argv.end(), {"sh", "-c", image.command});
            return argv;
          },
          node_logs_.back(), kGameserverReady, "gameserver"));
    }

    // The matchmaker by its compose command.
    auto mm = compose_service(compose, "matchmaker").command;
    mm.at(2) = replace_all(mm.at(2), "redis:6379", redis_host);
    mm.insert(mm.begin(), {"env", "PATH=" + std::string(XQ_BIN_DIR) + ":" + std::getenv("PATH")});
    matchmaker_.start(mm, dir_ + "/matchmaker.log");
    ASSERT_TRUE(wait_for_log(dir_ + "/matchmaker.log", "matchmaker: running", 10000)) << read_file(dir_ + "/matchmaker.log");

    // nginx with deploy/nginx.conf as its server block: upstreams (the game servers' fixed
    // addresses in compose.yaml, on the image's port) and listen address rewritten.
    fs::create_directories(dir_ + "/nginx");
    const std::string listen = image.env.at("XQ_LISTEN");  // 0.0.0.0:8080
    const std::string image_port = listen.substr(listen.rfind(':') + 1);
    proxy_port_ = start_listening(
        nginx_, 0,
        [&](uint16_t port) {
          std::string site = read_file(source_path("deploy/nginx.conf"));
          for (int i = 0; i < 2; ++i) {
            const std::string address = compose_service(compose, "gameserver-" + std::to_string(i + 1)).ipv4_address;
            site = replace_all(site, "server " + address + ":" + image_port + ";", "server 127.0.0.1:" + std::to_string(node_ports_[i]) + ";");
          }
          site = replace_all(site, "listen 80;", "listen 127.0.0.1:" + std::to_string(port) + ";");
          const std::string d = dir_ + "/nginx/";
          std::ofstream(d + "site.conf") << site;
          // What the nginx image's own nginx.conf provides around conf.d/default.conf. One process
          // (no workers): a worker would outlive its master if the test died (the master is the
          // process that gets PR_SET_PDEATHSIG), still holding the port.
          std::ofstream(d + "nginx.conf") << "daemon off;\nmaster_process off;\nworker_processes 1;\npid " << d << "nginx.pid;\n"
                                          << "error_log " << d << "error.log notice;\n"
                                          << "events { worker_connections 1024; }\nhttp {\n  access_log " << d
                                          << "access.log;\n  client_body_temp_path " << d << "body;\n  proxy_temp_path "
                                          << d << "proxy;\n  fastcgi_temp_path " << d << "fastcgi;\n  uwsgi_temp_path " << d
                                          << "uwsgi;\n  scgi_temp_path " << d << "scgi;\n  include " << d << "site.conf;\n}\n";
          return std::vector<std::string>{nginx_binary(), "-p", d, "-e", d + "error.log", "-c", d + "nginx.conf"};
        },
        dir_ + "/nginx/error.log", "event method", "nginx");
  }

  void TearDown() override {
    nginx_.terminate();
    matchmaker_.terminate();
    for (auto& n : nodes_) n->terminate();
    redis_.kill_hard();
    if (HasFailure() || std::getenv("XQ_TEST_KEEP_LOGS")) {
      std::fprintf(stderr, "deploy test logs kept in %s\n", dir_.c_str());
      return;
    }
    fs::remove_all(dir_);
  }

  // The node whose log says it runs as `node_id`.
  int node_named(const std::string& node_id) {
    for (size_t i = 0; i < node_logs_.size(); ++i)
      if (read_file(node_logs_[i]).find("as node " + node_id) != std::string::npos) return static_cast<int>(i);
    return -1;
  }

  std::string dir_;
  uint16_t redis_port_ = 0, proxy_port_ = 0;
  Process redis_, matchmaker_, nginx_;
  std::vector<std::unique_ptr<Process>> nodes_;
  std::vector<uint16_t> node_ports_;
  std::vector<std::string> node_logs_;
};

}  // namespace

TEST_F(ComposeStackOnOneBox, PlayersPairPlayAndOutliveANodeThroughTheProxy) {
  std::string body;
  EXPECT_EQ(http_request(proxy_port_, "GET", "/healthz", body), 200);
  for (uint16_t p : node_ports_) EXPECT_EQ(http_request(p, "GET", "/healthz", body), 200) << "the probes' path";
  ASSERT_EQ(http_request(proxy_port_, "GET", "/", body), 200);
  EXPECT_NE(body.find("xq deploy test"), std::string::npos) << body;
  // The counters: the proxy keeps /metrics from the public but passes the dashboard's copy, which
  // needs the admin credential.
  EXPECT_EQ(http_request(proxy_port_, "GET", "/metrics", body), 404);
  EXPECT_EQ(http_request(proxy_port_, "GET", "/api/admin/metrics", body), 401);
  ASSERT_EQ(http_request(proxy_port_, "GET", "/api/admin/metrics", body, TestServers::kAdminToken), 200);
  EXPECT_NE(body.find("xq_connections"), std::string::npos) << body;
  // On a node's own port, the scraper's token opens /metrics.
  EXPECT_EQ(http_request(node_ports_[0], "GET", "/metrics", body), 401);
  EXPECT_EQ(http_request(node_ports_[0], "GET", "/metrics", body, kMetricsToken), 200);

  // Quick pairing through the proxy: the matchmaker pairs the two and a game server starts the game.
  TestClient a = login_guest(proxy_port_, "dep_a"), b = login_guest(proxy_port_, "dep_b"),
             fan = login_guest(proxy_port_, "dep_fan");
  for (TestClient* p : {&a, &b}) ASSERT_EQ(http_request(proxy_port_, "POST", "/api/pools/xiangqi/300000+0/join", body, p->token, "{}"), 200) << body;
  std::string gid;
  TestClient *red = nullptr, *black = nullptr;
  for (TestClient* p : {&a, &b}) {
    auto started = p->ws->wait_for([](const ServerMessage& m) { return m.has_game_started(); }, 15000);
    ASSERT_TRUE(started) << p->name << " was not paired";
    if (gid.empty()) gid = started->game_started().game_id();
    EXPECT_EQ(started->game_started().game_id(), gid);
    (started->game_started().you() == RED ? red : black) = p;
  }
  ASSERT_TRUE(red && black);
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  ASSERT_TRUE(fan.ws->request(watch).has_reply());

  const auto& mate = kMateInSeven;
  for (size_t i = 0; i < 3; ++i) {
    auto r = send_move(i % 2 == 0 ? *red : *black, gid, mate[i], "d" + std::to_string(i));
    ASSERT_TRUE(r.has_reply()) << r.DebugString();
  }

  // The node that owns the game dies (a container killed); the other takes the game over.
  gs::Redis redis("redis://127.0.0.1:" + std::to_string(redis_port_) + "/0");
  const std::string owner = owner_of(redis, gid);
  const int dead = node_named(owner);
  ASSERT_GE(dead, 0) << "owner " << owner;
  nodes_[static_cast<size_t>(dead)]->kill_hard();

  // Everyone reconnects through the proxy (which now reaches only the survivor) and syncs.
  for (TestClient* p : {red, black, &fan}) reconnect_to(*p, proxy_port_);
  auto synced = sync_until_served(*red, gid, 3);
  ASSERT_TRUE(synced.has_reply()) << "the game was not taken over: " << synced.DebugString();
  ASSERT_TRUE(fan.ws->request(watch).has_reply());
  for (size_t i = 3; i < mate.size(); ++i) {
    auto r = send_move(i % 2 == 0 ? *red : *black, gid, mate[i], "d" + std::to_string(i));
    ASSERT_TRUE(r.has_reply()) << mate[i] << ": " << r.DebugString();
    EXPECT_EQ(r.reply().version(), i + 1);
  }
  for (TestClient* p : {red, black, &fan}) {
    auto end = p->ws->wait_for([&](const ServerMessage& s) { return is_game_event(s, gid, GameEvent::GAME_ENDED); }, 5000);
    ASSERT_TRUE(end) << p->name;
    EXPECT_EQ(end->game_event().result().reason(), "checkmate");
  }
  EXPECT_EQ(stored_moves(redis, gid), mate);
  ASSERT_EQ(http_request(proxy_port_, "GET", "/api/games/" + gid, body), 200);
  EXPECT_NE(body.find("\"reason\":\"checkmate\""), std::string::npos) << body;
  EXPECT_TRUE(matchmaker_.alive());
}
