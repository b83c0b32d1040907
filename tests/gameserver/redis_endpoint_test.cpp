// Redis URLs: one server or a Sentinel group.
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

TEST(RedisEndpoint, BadUrlsAreRejected) {
  for (const char* bad : {"redis://host:port/0", "redis://host:6379/x", "redis-sentinel://s1:26379",
                          "redis-sentinel://s1:26379//0", "redis-sentinel:///m/0", "redis://h:99999999/0"})
    EXPECT_THROW(parse_redis_url(bad), std::invalid_argument) << bad;
}
