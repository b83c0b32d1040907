// matchmaker: Swiss tournaments, clubs and quick-pairing pools. State in Redis; talks to the game
// servers only through Redis streams (gameserver/store/matchmaker_bus.h).
#include <boost/program_options.hpp>
#include <csignal>
#include <iostream>
#include <unistd.h>

#include "service.h"
#include "store/key_migration.h"
#include "store/redis.h"

namespace po = boost::program_options;

namespace {
std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }
}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a write to a reset Redis connection fails with EPIPE instead of killing us
  po::options_description opts("matchmaker options");
  opts.add_options()("help,h", "show this help")
      ("redis", po::value<std::string>()->default_value("redis://127.0.0.1:6379/0"), "Redis URL: redis://host:port/db, redis-sentinel://host:port,host:port/master-name/db to follow a Sentinel-managed master, or redis-cluster://host:port,host:port for a Redis Cluster")
      ("consumer", po::value<std::string>()->default_value("mm-1"), "consumer name in the Redis stream groups")
      ("pool-interval-ms", po::value<int>()->default_value(2000), "how often quick-pairing pools are matched")
      ("pool-offline-grace-ms", po::value<int64_t>()->default_value(10000), "a waiting player with no connection to a game server is not paired, and leaves the pool after this long")
      ("lease-ms", po::value<int64_t>()->default_value(10000), "leader lease: one matchmaker acts, others stand by and take over this long after it dies");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, opts), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "error: " << e.what() << "\n" << opts;
    return 2;
  }
  if (vm.count("help")) {
    std::cout << opts;
    return 0;
  }
  // A pass of the loop may take about a second; a shorter lease would lapse while the leader works.
  if (vm["lease-ms"].as<int64_t>() < 1000) {
    std::cerr << "error: --lease-ms must be at least 1000\n";
    return 2;
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  try {
    gs::Redis redis(vm["redis"].as<std::string>());
    try {  // whichever process starts first renames the keys written before the hash tag
      if (auto moved = gs::migrate_untagged_keys(redis); moved.renamed + moved.skipped > 0)
        std::cerr << "matchmaker: renamed " << moved.renamed << " keys to {xq}:… (" << moved.skipped << " left: new name taken)\n";
    } catch (const std::exception& e) {
      std::cerr << "matchmaker: renaming old keys: " << e.what() << "\n";
    }
    xq::mm::ServiceOptions options;
    options.consumer = vm["consumer"].as<std::string>();
    options.pool_interval_ms = vm["pool-interval-ms"].as<int>();
    options.pool_offline_grace_ms = vm["pool-offline-grace-ms"].as<int64_t>();
    options.lease_ms = vm["lease-ms"].as<int64_t>();
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    options.instance = std::string(host) + "-" + std::to_string(getpid());
    xq::mm::MatchmakerService service(redis, options);
    std::cerr << "matchmaker: running (redis " << vm["redis"].as<std::string>() << ")\n";
    service.run(g_stop);
  } catch (const std::exception& e) {
    std::cerr << "matchmaker: fatal: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
