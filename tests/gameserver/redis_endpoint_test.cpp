// Redis URLs: one server, a Sentinel group or a Redis Cluster; which error replies redirect.
#include "store/redis_endpoint.h"

#include <gtest/gtest.h>

#include <stdexcept>

using gs::parse_redis_url;

TEST(RedisEndpoint, PlainUrls) {
  auto e = parse_redis_url("redis://10.0.0.5:6380/3");
  EXPECT_FALSE(e.uses_sentinel());
  EXPECT_EQ(e.host, "10.0.0.5");
  EXPECT_EQ(e.port, 6380);
  EXPECT_EQ(e.db, 3);
  e = parse_redis_url("redis://redis");
  EXPECT_EQ(e.host, "redis");
  EXPECT_EQ(e.port, 6379);
  EXPECT_EQ(e.db, 0);
  e = parse_redis_url("127.0.0.1:7000");  // scheme optional
  EXPECT_EQ(e.port, 7000);
}

TEST(RedisEndpoint, SentinelUrls) {
  auto e = parse_redis_url("redis-sentinel://s1:26379,s2,10.1.1.1:26380/xqmaster/2");
  ASSERT_TRUE(e.uses_sentinel());
  ASSERT_EQ(e.sentinels.size(), 3u);
  EXPECT_EQ(e.sentinels[0], std::make_pair(std::string("s1"), 26379));
  EXPECT_EQ(e.sentinels[1], std::make_pair(std::string("s2"), 26379));
  EXPECT_EQ(e.sentinels[2], std::make_pair(std::string("10.1.1.1"), 26380));
  EXPECT_EQ(e.master_name, "xqmaster");
  EXPECT_EQ(e.db, 2);
  EXPECT_EQ(parse_redis_url("redis-sentinel://s1/m").db, 0);
}

TEST(RedisEndpoint, ClusterUrls) {
  auto e = parse_redis_url("redis-cluster://n1:7000,n2,10.1.1.1:7002");
  ASSERT_TRUE(e.uses_cluster());
  EXPECT_FALSE(e.uses_sentinel());
  ASSERT_EQ(e.cluster_seeds.size(), 3u);
  EXPECT_EQ(e.cluster_seeds[0], std::make_pair(std::string("n1"), 7000));
  EXPECT_EQ(e.cluster_seeds[1], std::make_pair(std::string("n2"), 6379));
  EXPECT_EQ(e.cluster_seeds[2], std::make_pair(std::string("10.1.1.1"), 7002));
  EXPECT_EQ(e.db, 0);
  EXPECT_TRUE(parse_redis_url("redis-cluster://n1:7000/0").uses_cluster());
}

TEST(RedisEndpoint, RedirectionsAreTold) {
  for (const char* moved : {"READONLY You can't write against a read only replica.", "MOVED 1234 10.0.0.2:7001",
                            "ASK 1234 10.0.0.2:7001", "CLUSTERDOWN The cluster is down", "TRYAGAIN Multiple keys request during rehashing of slot"})
    EXPECT_TRUE(gs::is_redirection(moved)) << moved;
  for (const char* other : {"ERR unknown command", "WRONGTYPE Operation against a key holding the wrong kind of value",
                            "NOSCRIPT No matching script", "MOVEDX", "ERR MOVED"})
    EXPECT_FALSE(gs::is_redirection(other)) << other;
}

TEST(RedisEndpoint, BadUrlsAreRejected) {
  for (const char* bad : {"redis://host:port/0", "redis://host:6379/x", "redis-sentinel://s1:26379",
                          "redis-sentinel://s1:26379//0", "redis-sentinel:///m/0", "redis://h:99999999/0",
                          "redis-cluster://", "redis-cluster://n1:7000/1", "redis-cluster://n1:x"})
    EXPECT_THROW(parse_redis_url(bad), std::invalid_argument) << bad;
}
