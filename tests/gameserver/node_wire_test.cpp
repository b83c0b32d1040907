// Pure parts of the multi-node code: the node message encoding and the shared seek JSON.
#include <gtest/gtest.h>

#include <algorithm>

#include "lobby/lobby.h"
#include "server/node_wire.h"

using namespace gs;

TEST(GameServerNodeWire, RoundTripsEveryFieldBinarySafe) {
  NodeMessage m;
  m.kind = NodeMessage::Kind::Request;
  m.from_node = "node:7";
  m.conn = (uint64_t{1} << 62) + 5;
  m.user_id = "g-1234";
  m.user_name = "guest-x:y";
  m.guest = false;
  m.hops = 2;
  m.payload = std::string("\0\1:12:\xff", 7);
  m.users = {"a", "", "c:d"};
  auto d = decode_node_message(encode(m));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, m.kind);
  EXPECT_EQ(d->from_node, m.from_node);
  EXPECT_EQ(d->conn, m.conn);
  EXPECT_EQ(d->user_id, m.user_id);
  EXPECT_EQ(d->user_name, m.user_name);
  EXPECT_EQ(d->guest, m.guest);
  EXPECT_EQ(d->hops, 2);
  EXPECT_EQ(d->payload, m.payload);
  EXPECT_EQ(d->users, m.users);
  // Every kind survives the trip.
  for (auto kind : {NodeMessage::Kind::Frame, NodeMessage::Kind::Close, NodeMessage::Kind::Seeks,
                    NodeMessage::Kind::Notice, NodeMessage::Kind::Admin, NodeMessage::Kind::Ban, NodeMessage::Kind::Up}) {
    m.kind = kind;
    auto k = decode_node_message(encode(m));
    ASSERT_TRUE(k) << static_cast<char>(kind);
    EXPECT_EQ(k->kind, kind);
  }
}

TEST(GameServerNodeWire, RejectsMalformedInput) {
  NodeMessage m;
  m.payload = "abc";
  std::string ok = encode(m);
  EXPECT_TRUE(decode_node_message(ok));
  EXPECT_FALSE(decode_node_message(""));
  EXPECT_FALSE(decode_node_message("Z" + ok.substr(1)));
  EXPECT_FALSE(decode_node_message(ok + "x"));  // trailing bytes
  for (size_t cut = 1; cut < ok.size(); ++cut) EXPECT_FALSE(decode_node_message(ok.substr(0, cut))) << cut;
  EXPECT_FALSE(decode_node_message("F99999999999:x"));
}

TEST(GameServerSeekJson, RoundTripsAndFiltersVisibility) {
  SeekEntry s;
  s.id = "s-1";
  s.owner = User{"u-1", "alice", false};
  s.spec.variant = xq::Variant::Jieqi;
  s.spec.tc = {180'000, 2'000};
  s.spec.color = xq::Color::Black;
  s.spec.ruleset = "axf";
  s.spec.capture_visibility = "both";
  s.spec.options = {5, true};
  s.spec.rated = true;
  s.spec.rating_min = 1200;
  s.spec.rating_max = 1800;
  s.target_user_id = "u-2";
  s.owner_rating = 1623;
  auto d = decode_seek(encode_seek(s, "node-3"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->node, "node-3");
  EXPECT_EQ(d->seek.id, "s-1");
  EXPECT_EQ(d->seek.owner.name, "alice");
  EXPECT_FALSE(d->seek.owner.guest);
  EXPECT_EQ(d->seek.spec.variant, xq::Variant::Jieqi);
  EXPECT_EQ(d->seek.spec.tc.increment_ms, 2'000);
  EXPECT_EQ(d->seek.spec.color, xq::Color::Black);
  EXPECT_EQ(d->seek.spec.ruleset, "axf");
  EXPECT_EQ(d->seek.spec.capture_visibility, "both");
  EXPECT_EQ(d->seek.spec.options, (RuleOptions{5, true}));
  EXPECT_TRUE(d->seek.spec.rated);
  EXPECT_EQ(d->seek.spec.rating_max, 1800);
  EXPECT_EQ(d->seek.owner_rating, 1623);
  EXPECT_TRUE(seek_visible_to(d->seek, "u-2"));
  EXPECT_TRUE(seek_visible_to(d->seek, "u-1"));
  EXPECT_FALSE(seek_visible_to(d->seek, "u-3"));  // a challenge is private
  EXPECT_FALSE(decode_seek("{\"id\":1}"));
  EXPECT_FALSE(decode_seek("not json"));
}

TEST(GameServerSeekList, CappedWithTheUsersOwnSeeksAndChallengesFirst) {
  std::vector<SeekEntry> seeks;
  auto add = [&](const std::string& id, const std::string& owner, const std::string& target = "") {
    SeekEntry s;
    s.id = id;
    s.owner = User{owner, owner, true};
    s.target_user_id = target;
    seeks.push_back(s);
  };
  for (int i = 0; i < 5; ++i) add("p" + std::to_string(i), "other");  // public seeks
  add("x", "other", "someone-else");  // a challenge to another user: never listed for "me"
  add("to-me", "other", "me");
  add("mine", "me");
  std::vector<bool> shown;
  EXPECT_EQ(listed_seeks(seeks, "me", 3, shown), 7u);  // all visible: 5 public, one to me, mine
  EXPECT_EQ(shown, (std::vector<bool>{true, false, false, false, false, false, true, true}));
  EXPECT_EQ(listed_seeks(seeks, "me", 100, shown), 7u);
  EXPECT_EQ(std::count(shown.begin(), shown.end(), true), 7);
  EXPECT_FALSE(shown[5]);
  EXPECT_EQ(listed_seeks(seeks, "someone-else", 0, shown), 7u);  // 5 public, "mine", and their challenge
  EXPECT_EQ(std::count(shown.begin(), shown.end(), true), 0);
  // No user: the public seeks, what a user with no seek and no challenge sees (a push builds it once).
  EXPECT_EQ(listed_seeks(seeks, "", 100, shown), 6u);
  EXPECT_EQ(shown, (std::vector<bool>{true, true, true, true, true, false, false, true}));
  std::vector<bool> stranger;
  EXPECT_EQ(listed_seeks(seeks, "stranger", 100, stranger), 6u);
  EXPECT_EQ(stranger, shown);
}
