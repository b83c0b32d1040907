// The client's address behind trusted proxies (net/client_address.h).
#include "net/client_address.h"

#include <gtest/gtest.h>

#include <stdexcept>

using gs::client_address;
using gs::TrustedProxies;

TEST(ClientAddress, ThePeerUnlessItIsATrustedProxy) {
  const auto none = TrustedProxies::parse("");
  EXPECT_EQ(client_address("203.0.113.9", "198.51.100.1", none), "203.0.113.9") << "no proxy trusted: the header is ignored";
  const auto local = TrustedProxies::parse("127.0.0.1, ::1");
  EXPECT_EQ(client_address("203.0.113.9", "198.51.100.1", local), "203.0.113.9") << "an untrusted peer's header is its own word";
  EXPECT_EQ(client_address("127.0.0.1", "", local), "127.0.0.1") << "a local client without a proxy";
  EXPECT_EQ(client_address("::ffff:127.0.0.1", "198.51.100.1", local), "198.51.100.1") << "IPv4 on a dual-stack socket";
  EXPECT_EQ(client_address("::1", "2001:db8::7", local), "2001:db8::7");
}

TEST(ClientAddress, TheRightMostEntryNoTrustedProxyWrote) {
  const auto proxies = TrustedProxies::parse("127.0.0.1,10.0.0.0/8");
  // The client forged "1.1.1.1"; its proxy appended the address it really saw; an inner proxy too.
  EXPECT_EQ(client_address("127.0.0.1", "1.1.1.1, 198.51.100.20, 10.1.2.3", proxies), "198.51.100.20");
  EXPECT_EQ(client_address("127.0.0.1", "10.9.9.9,10.1.2.3", proxies), "10.9.9.9") << "only proxies: the furthest";
  EXPECT_EQ(client_address("127.0.0.1", "not-an-address, 10.1.2.3", proxies), "10.1.2.3")
      << "garbage: as far as the trusted hops go";
  EXPECT_EQ(client_address("127.0.0.1", " [2001:db8::1] ", proxies), "2001:db8::1");
  EXPECT_EQ(client_address("127.0.0.1", "198.51.100.20:5678", proxies), "198.51.100.20") << "a port";
  EXPECT_EQ(client_address("127.0.0.1", "[2001:db8::1]:443", proxies), "2001:db8::1");
}

TEST(ClientAddress, LimitsCountAnIpv6HostByItsSlash64) {
  EXPECT_EQ(gs::address_block("198.51.100.20"), "198.51.100.20");
  EXPECT_EQ(gs::address_block("2001:db8:1:2:aaaa:bbbb:cccc:dddd"), "2001:db8:1:2::/64");
  EXPECT_EQ(gs::address_block("2001:db8:1:2::1"), gs::address_block("2001:db8:1:2:ffff::9"));
  EXPECT_NE(gs::address_block("2001:db8:1:2::1"), gs::address_block("2001:db8:1:3::1"));
  EXPECT_EQ(gs::address_block(""), "");
}

TEST(ClientAddress, NetworksAndBadEntries) {
  const auto p = TrustedProxies::parse("192.168.0.0/23,fd00::/8");
  EXPECT_TRUE(p.contains("192.168.1.255"));
  EXPECT_FALSE(p.contains("192.168.2.0"));
  EXPECT_TRUE(p.contains("fd12:3456::1"));
  EXPECT_FALSE(p.contains("fe80::1"));
  EXPECT_FALSE(p.contains("192.168.1.1x"));
  EXPECT_TRUE(TrustedProxies::parse("0.0.0.0/0").contains("8.8.8.8"));
  EXPECT_THROW(TrustedProxies::parse("localhost"), std::invalid_argument);
  EXPECT_THROW(TrustedProxies::parse("10.0.0.0/33"), std::invalid_argument);
  EXPECT_THROW(TrustedProxies::parse("10.0.0.0/"), std::invalid_argument);
  EXPECT_THROW(TrustedProxies::parse("::1/-1"), std::invalid_argument);
}
