#include "net/client_address.h"

#include <arpa/inet.h>

#include <cstring>
#include <optional>
#include <stdexcept>

namespace gs {
namespace {

struct Ip {
  bool v6 = false;
  std::array<uint8_t, 16> bytes{};
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// An IPv4-mapped IPv6 address (::ffff:1.2.3.4, how a dual-stack socket shows IPv4 peers) reads as
// the IPv4 address, so a proxy listed as 127.0.0.1 matches either way.
std::optional<Ip> parse_ip(std::string_view text) {
  text = trim(text);
  // Some proxies write a port: "1.2.3.4:5678", "[2001:db8::1]:443".
  if (!text.empty() && text.front() == '[') {
    const size_t close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    text = text.substr(1, close - 1);
  } else if (const size_t colon = text.find(':'); colon != std::string_view::npos && text.find(':', colon + 1) == std::string_view::npos) {
    text = text.substr(0, colon);  // one colon: IPv4 with a port (IPv6 has at least two)
  }
  if (text.empty() || text.size() > 45) return std::nullopt;
  const std::string s(text);
  Ip ip;
  if (inet_pton(AF_INET, s.c_str(), ip.bytes.data()) == 1) return ip;
  if (inet_pton(AF_INET6, s.c_str(), ip.bytes.data()) != 1) return std::nullopt;
  static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(ip.bytes.data(), mapped, 12) == 0) {
    std::memmove(ip.bytes.data(), ip.bytes.data() + 12, 4);
    std::memset(ip.bytes.data() + 4, 0, 12);
    return ip;
  }
  ip.v6 = true;
  return ip;
}

std::string format(const Ip& ip) {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(ip.v6 ? AF_INET6 : AF_INET, ip.bytes.data(), buf, sizeof buf);
  return buf;
}

bool prefix_matches(const std::array<uint8_t, 16>& a, const std::array<uint8_t, 16>& b, int bits) {
  int i = 0;
  for (; bits >= 8; bits -= 8, ++i)
    if (a[i] != b[i]) return false;
  if (bits == 0) return true;
  const auto mask = static_cast<uint8_t>(0xff << (8 - bits));
  return (a[i] & mask) == (b[i] & mask);
}

}  // namespace

TrustedProxies TrustedProxies::parse(std::string_view list) {
  TrustedProxies out;
  while (!list.empty()) {
    const size_t comma = list.find(',');
    const std::string_view entry = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (entry.empty()) continue;
    const size_t slash = entry.find('/');
    const auto ip = parse_ip(entry.substr(0, slash));
    if (!ip) throw std::invalid_argument("trusted proxy '" + std::string(entry) + "' is not an address or network");
    Net net{ip->v6, ip->bytes, ip->v6 ? 128 : 32};
    if (slash != std::string_view::npos) {
      const std::string bits(entry.substr(slash + 1));
      const int max = net.prefix;
      if (bits.empty() || bits.size() > 3 || bits.find_first_not_of("0123456789") != std::string::npos ||
          std::stoi(bits) > max)
        throw std::invalid_argument("trusted proxy '" + std::string(entry) + "' has a bad prefix length");
      net.prefix = std::stoi(bits);
    }
    out.nets_.push_back(net);
  }
  return out;
}

bool TrustedProxies::contains(std::string_view address) const {
  const auto ip = parse_ip(address);
  if (!ip) return false;
  for (const Net& n : nets_)
    if (n.v6 == ip->v6 && prefix_matches(n.bytes, ip->bytes, n.prefix)) return true;
  return false;
}

bool is_loopback(std::string_view address) { return address.substr(0, 4) == "127." || address == "::1"; }

std::string limited_block(std::string_view address) {
  return address.empty() || is_loopback(address) ? std::string() : address_block(address);
}

std::string address_block(std::string_view address) {
  auto ip = parse_ip(address);
  if (!ip) return std::string(address);
  if (!ip->v6) return format(*ip);
  std::memset(ip->bytes.data() + 8, 0, 8);
  return format(*ip) + "/64";
}

std::string client_address(std::string_view peer, std::string_view forwarded_for, const TrustedProxies& trusted) {
  const auto peer_ip = parse_ip(peer);
  std::string client = peer_ip ? format(*peer_ip) : std::string(trim(peer));
  if (!peer_ip || !trusted.contains(client)) return client;
  // Right to left through the proxies' entries; the first one no trusted proxy wrote is the client.
  while (!forwarded_for.empty()) {
    const size_t comma = forwarded_for.rfind(',');
    const std::string_view entry = comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1);
    forwarded_for = comma == std::string_view::npos ? std::string_view{} : forwarded_for.substr(0, comma);
    const auto ip = parse_ip(entry);
    if (!ip) return client;  // garbage a proxy would not write: the last hop known is as far as we trust
    client = format(*ip);
    if (!trusted.contains(client)) return client;
  }
  return client;
}

}  // namespace gs
