// The deploy recipes agree with the programs and with each other: the image installs every
// library its programs load, every flag a recipe passes exists, and the compose file, the
// Kubernetes manifests, the systemd unit and nginx.conf configure what the image reads.
#include <gtest/gtest.h>
#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "recipe_files.h"

namespace {

std::string run(const std::string& cmd) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
  }
  return out;
}

std::string bin(const std::string& program) { return std::string(XQ_BIN_DIR) + "/" + program; }

// "a.b.c.d" -> its 32 bits; throws if it is not a dotted quad.
uint32_t ipv4(const std::string& text) {
  std::smatch m;
  if (!std::regex_match(text, m, std::regex(R"((\d+)\.(\d+)\.(\d+)\.(\d+))"))) throw std::runtime_error("not IPv4: " + text);
  uint32_t a = 0;
  for (int i = 1; i <= 4; ++i) {
    const int octet = std::stoi(m[i].str());
    if (octet > 255) throw std::runtime_error("not IPv4: " + text);
    a = (a << 8) | static_cast<uint32_t>(octet);
  }
  return a;
}

// Whether `address` lies in `cidr` ("a.b.c.d/n").
bool in_cidr(const std::string& address, const std::string& cidr) {
  const size_t slash = cidr.find('/');
  const int bits = std::stoi(cidr.substr(slash + 1));
  const uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
  return (ipv4(address) & mask) == (ipv4(cidr.substr(0, slash)) & mask);
}

// The Debian package that owns `path` ("" if none). With merged /usr, ldd may name /lib/… for a
// file dpkg lists under /usr/lib/…, or the other way round.
std::string package_of(const std::string& path) {
  std::vector<std::string> candidates{path, "/usr" + path};
  if (char real[PATH_MAX]; realpath(path.c_str(), real)) candidates.emplace_back(real);
  for (const auto& c : candidates) {
    std::string out = run("dpkg -S '" + c + "' 2>/dev/null");
    if (auto colon = out.find(':'); colon != std::string::npos) return out.substr(0, colon);
  }
  return "";
}

const ImageRecipe& image() {
  static const ImageRecipe r = read_image_recipe(read_file(source_path("deploy/Dockerfile")));
  return r;
}

std::set<std::string> flags_in(const std::string& command) {
  auto v = all_matches(command, R"((?:^|[\s"])(--[a-z][a-z-]*))");
  return {v.begin(), v.end()};
}

// `program --help` lists `flag` as an option.
bool accepts(const std::string& program, const std::string& flag) {
  static std::map<std::string, std::string> help;
  if (!help.count(program)) help[program] = run("'" + bin(program) + "' --help 2>&1");
  return std::regex_search(help[program], std::regex("(^|\\s)" + flag + "(\\s|$)"));
}

// The environment variables `program --help` says it reads itself ("or env XQ_SECRET"): secrets
// are passed that way, since a command line is readable by every user of the host.
std::set<std::string> env_read_by(const std::string& program) {
  const auto found = all_matches(run("'" + bin(program) + "' --help 2>&1"), R"(env\s+(XQ_[A-Z_]+))");
  return {found.begin(), found.end()};
}

}  // namespace

// The runtime stage installs only what it lists on top of debian:12-slim; a program that loads a
// library from any other package would not start in the container.
TEST(DeployRecipes, TheImageInstallsEveryLibraryItsProgramsLoad) {
  ASSERT_EQ(image().base, "debian:12-slim");
  // What debian:12-slim has without asking: libc, and what apt and dpkg themselves link.
  std::set<std::string> present{"libc6", "libgcc-s1", "libstdc++6", "zlib1g"};
  present.insert(image().runtime_packages.begin(), image().runtime_packages.end());
  for (const std::string program : {"gameserver", "matchmaker", "xq", "xqbot"}) {
    const std::string ldd = run("ldd '" + bin(program) + "'");
    ASSERT_NE(ldd.find("libc.so"), std::string::npos) << program << ": " << ldd;
    EXPECT_EQ(ldd.find("not found"), std::string::npos) << program << ": " << ldd;
    for (const auto& path : all_matches(ldd, R"(=>\s+(/\S+))")) {
      const std::string pkg = package_of(path);
      ASSERT_FALSE(pkg.empty()) << program << " loads " << path << ", which no package owns";
      EXPECT_TRUE(present.count(pkg)) << program << " loads " << path << " from " << pkg
                                      << ", which deploy/Dockerfile's runtime stage does not install";
    }
  }
}

// The build stage copies only what the programs are built from: every folder the CMake files
// build must be among its COPY lines, or the image's build fails (clients/bot once was missing).
TEST(DeployRecipes, TheImageBuildCopiesEveryFolderTheBuildUses) {
  const std::string dockerfile = read_file(source_path("deploy/Dockerfile"));
  const auto copied_vec = all_matches(dockerfile, R"(COPY\s+(\S+)\s)");
  const std::set<std::string> copied(copied_vec.begin(), copied_vec.end());
  int checked = 0;
  for (const std::string dir : {"", "clients/"}) {
    const std::string lists = read_file(source_path(dir + "CMakeLists.txt"));
    for (const auto& sub : all_matches(lists, R"(add_subdirectory\((\w+)\))")) {
      if (dir.empty() && (sub == "tests" || sub == "clients")) continue;  // tests: off in the image; clients: by folder below
      ++checked;
      EXPECT_TRUE(copied.count(dir + sub + "/")) << dir + sub + "/ is built but deploy/Dockerfile does not COPY it";
    }
  }
  EXPECT_EQ(checked, 5) << "proto, gameserver, matchmaker, clients/loadgen, clients/bot";
  EXPECT_TRUE(copied.count("clients/CMakeLists.txt"));
  EXPECT_TRUE(copied.count("clients/xq/")) << "clients/CMakeLists.txt builds xq from it";
}

TEST(DeployRecipes, EveryFlagTheRecipesPassIsOneTheProgramsAccept) {
  const std::string compose = read_file(source_path("deploy/compose.yaml"));
  const std::string unit = read_file(source_path("deploy/systemd/xq-gameserver.service"));
  const std::string k8s_mm = read_file(source_path("deploy/k8s/matchmaker.yaml"));
  const std::string mm_unit = read_file(source_path("deploy/systemd/xq-matchmaker.service"));
  const std::string k8s_bot = read_file(source_path("deploy/k8s/bot.yaml"));
  std::vector<std::pair<std::string, std::string>> uses;  // program, command
  uses.emplace_back("gameserver", image().command);
  uses.emplace_back("gameserver", all_matches(unit, R"(ExecStart=(.*))").at(0));
  uses.emplace_back("matchmaker", compose_service(compose, "matchmaker").command.at(2));
  uses.emplace_back("matchmaker", all_matches(k8s_mm, R"(command:\s*(\[.*\]))").at(0));
  uses.emplace_back("matchmaker", all_matches(mm_unit, R"(ExecStart=(.*))").at(0));
  uses.emplace_back("xqbot", compose_service(compose, "bot").command.at(2));
  uses.emplace_back("xqbot", all_matches(k8s_bot, R"(command:\s*(\[.*\]))").at(0));
  for (const auto& [program, command] : uses) {
    EXPECT_NE(command.find(program), std::string::npos) << command;
    EXPECT_EQ(command.find("--secret"), std::string::npos) << "a secret on the command line: " << command;
    EXPECT_EQ(command.find("--admin-token"), std::string::npos) << "a secret on the command line: " << command;
    const auto flags = flags_in(command);
    EXPECT_FALSE(flags.empty()) << command;
    for (const auto& f : flags) EXPECT_TRUE(accepts(program, f)) << program << " has no " << f << " (in: " << command << ")";
  }
}

TEST(DeployRecipes, ComposeKubernetesAndNginxConfigureWhatTheImageReads) {
  const std::string compose = read_file(source_path("deploy/compose.yaml"));
  const std::string k8s_gs = read_file(source_path("deploy/k8s/gameserver.yaml"));
  const std::string k8s_redis = read_file(source_path("deploy/k8s/redis.yaml"));
  const std::string k8s_mm = read_file(source_path("deploy/k8s/matchmaker.yaml"));
  const std::string nginx = read_file(source_path("deploy/nginx.conf"));

  // Environment: the image's command reads these, and the program the secrets; what has no default
  // there must come from the deployment (the secret and the admin token), and a deployment sets
  // nothing the image ignores. The secrets are not on the command line (every user of the host
  // may read it).
  const auto read_vec = all_matches(image().command, R"(\$\{?(XQ_[A-Z_]+))");
  std::set<std::string> read(read_vec.begin(), read_vec.end());
  EXPECT_FALSE(read.count("XQ_SECRET") || read.count("XQ_ADMIN_TOKEN")) << "secrets on the command line: " << image().command;
  const std::set<std::string> by_program = env_read_by("gameserver");
  ASSERT_TRUE(by_program.count("XQ_SECRET") && by_program.count("XQ_ADMIN_TOKEN"));
  read.insert(by_program.begin(), by_program.end());
  ASSERT_TRUE(read.count("XQ_LISTEN") && read.count("XQ_REDIS") && read.count("XQ_SECRET")) << image().command;
  std::set<std::string> from_compose, from_k8s;
  for (const auto& [k, v] : compose_service(compose, "gameserver-1").environment) from_compose.insert(k);
  for (const auto& k : all_matches(k8s_gs, R"(name:\s*(XQ_[A-Z_]+))")) from_k8s.insert(k);
  for (const auto* set : {&from_compose, &from_k8s})
    for (const auto& k : *set) EXPECT_TRUE(read.count(k)) << k << " is set but the image's command does not read it";
  for (const auto& k : read)
    if (!image().env.count(k)) {
      EXPECT_TRUE(from_compose.count(k)) << "compose does not set " << k;
      EXPECT_TRUE(from_k8s.count(k)) << "the Kubernetes Deployment does not set " << k;
    }

  // One port everywhere: the image listens on it, exposes it, and the probes and Service use it.
  const std::string listen = image().env.at("XQ_LISTEN");
  const std::string port = listen.substr(listen.rfind(':') + 1);
  EXPECT_EQ(image().exposed, std::vector<std::string>{port});
  for (const auto& p : all_matches(k8s_gs, R"((?:containerPort|port|targetPort):\s*(\d+))")) {
    if (p != "80") EXPECT_EQ(p, port) << "a port in deploy/k8s/gameserver.yaml";
  }
  for (const auto& path : all_matches(k8s_gs, R"(path:\s*([^\s,}]+))")) EXPECT_EQ(path, "/healthz");
  // Readiness asks /healthz (503 while Redis is away); liveness only that the port accepts, so a
  // Redis outage does not restart every game server.
  EXPECT_NE(k8s_gs.find("readinessProbe: {httpGet: {path: /healthz"), std::string::npos);
  EXPECT_NE(k8s_gs.find("livenessProbe: {tcpSocket: {port: " + port), std::string::npos);
  // nginx proxies to the compose game servers on that port, at their fixed addresses (nginx
  // resolves host names only when it starts): each in the stack network's subnet, outside the
  // range Docker gives the other services (or one of them could hold it while its game server is
  // stopped), and different.
  const auto upstreams = all_matches(nginx, R"(server\s+([^\s;]+);)");
  ASSERT_EQ(upstreams.size(), 2u) << nginx;
  const auto subnets = all_matches(compose, R"(subnet:\s*([\d./]+))");
  const auto ranges = all_matches(compose, R"(ip_range:\s*([\d./]+))");
  ASSERT_EQ(subnets.size(), 1u) << compose;
  ASSERT_EQ(ranges.size(), 1u) << compose;
  std::set<std::string> addresses;
  for (const auto& name : {"gameserver-1", "gameserver-2"}) {
    const std::string address = compose_service(compose, name).ipv4_address;
    ASSERT_FALSE(address.empty()) << name << " has no ipv4_address in compose.yaml";
    addresses.insert(address);
    EXPECT_NE(std::find(upstreams.begin(), upstreams.end(), address + ":" + port), upstreams.end())
        << name << " (" << address << ") is not an upstream of nginx.conf";
    EXPECT_TRUE(in_cidr(address, subnets[0])) << name << " " << address << " is not in " << subnets[0];
    EXPECT_FALSE(in_cidr(address, ranges[0])) << name << " " << address << " is in the dynamic range " << ranges[0];
  }
  EXPECT_EQ(addresses.size(), 2u);
  EXPECT_TRUE(in_cidr(ranges[0].substr(0, ranges[0].find('/')), subnets[0])) << ranges[0] << " is not in " << subnets[0];

  // Redis and the matchmaker run the same way under compose and under Kubernetes.
  auto redis_cmd = compose_service(compose, "redis").command;
  ASSERT_FALSE(redis_cmd.empty());
  EXPECT_EQ(redis_cmd.front(), "redis-server");
  redis_cmd.erase(redis_cmd.begin());
  EXPECT_EQ(json_strings(all_matches(k8s_redis, R"(args:\s*(\[.*\]))").at(0)), redis_cmd);
  auto it = std::find(redis_cmd.begin(), redis_cmd.end(), "--appendonly");
  ASSERT_NE(it, redis_cmd.end());
  EXPECT_EQ(*(it + 1), "yes") << "the recipes run Redis with AOF on";
  std::string mm = compose_service(compose, "matchmaker").command.at(2);
  ASSERT_EQ(mm.rfind("exec ", 0), 0u) << mm;
  std::istringstream words(mm.substr(5));
  std::vector<std::string> mm_argv;
  for (std::string w; words >> w;) mm_argv.push_back(w);
  EXPECT_EQ(json_strings(all_matches(k8s_mm, R"(command:\s*(\[.*\]))").at(0)), mm_argv);
}
