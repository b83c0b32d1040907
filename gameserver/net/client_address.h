// Who a client is, by address, for the limits kept per address (new accounts, password guesses).
// Behind a reverse proxy every socket comes from the proxy; the proxy names the client in
// X-Forwarded-For (all its header lines, joined with commas), which is believed only from the proxies the operator lists (--trusted-proxies):
// anyone else could write any address there.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gs {

class TrustedProxies {
 public:
  // A comma-separated list of addresses and networks ("127.0.0.1,::1,10.0.0.0/8"); "" trusts none.
  // Throws std::invalid_argument naming a bad entry.
  static TrustedProxies parse(std::string_view list);
  bool contains(std::string_view address) const;
  bool empty() const { return nets_.empty(); }

 private:
  struct Net {
    bool v6 = false;
    std::array<uint8_t, 16> bytes{};
    int prefix = 0;  // leading bits that must match
  };
  std::vector<Net> nets_;
};

// The client's address: the socket's peer, unless the peer is a trusted proxy; then the right-most
// entry of X-Forwarded-For that is not itself a trusted proxy (each proxy appends the address it
// saw; entries further left are the client's own word). The result is a bare address in its
// canonical form (IPv4-mapped IPv6 written as IPv4).
std::string client_address(std::string_view peer, std::string_view forwarded_for, const TrustedProxies& trusted);

// What the limits per address count: an IPv4 address, or an IPv6 address's /64 (one host usually
// holds a whole /64, so counting single IPv6 addresses would give it any number of tries).
std::string address_block(std::string_view address);

// 127.0.0.0/8 or ::1 (the host itself).
bool is_loopback(std::string_view address);

// The block a limit per address counts `address` under, or "" for an address no such limit holds
// back: an unknown one, or the host's own loopback (the load generator, the tests, a local proxy
// that names no client).
std::string limited_block(std::string_view address);

}  // namespace gs
