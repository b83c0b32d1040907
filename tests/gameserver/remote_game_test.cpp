// RemoteGame: how a node passes on the frames of a game another node serves to a connection here.
#include "server/remote_game.h"

#include <gtest/gtest.h>

namespace {

TEST(RemoteGame, AnEventArrivingTwiceIsPassedOnOnce) {
  // The client syncs from 6; a follow's sync from 6 is in flight too (the game changed owner), so
  // the owner sends 7 and 8 twice.
  gs::RemoteGame g{"n2", 0, true};
  g.synced_from(6);
  EXPECT_TRUE(g.pass(7, true));
  EXPECT_TRUE(g.pass(8, true));
  EXPECT_FALSE(g.pass(7, true));
  EXPECT_FALSE(g.pass(8, true));
  EXPECT_TRUE(g.pass(9, true));
  EXPECT_EQ(g.version, 9u);
}

TEST(RemoteGame, AnswersAndStatesAlwaysPass) {
  gs::RemoteGame g{"n1", 5, false};
  EXPECT_TRUE(g.pass(5, false)) << "a move's answer or a full state at the same version";
  EXPECT_TRUE(g.pass(3, false));
  EXPECT_EQ(g.version, 5u) << "an older answer does not move the version back";
}

TEST(RemoteGame, AClientSyncingFromAnOlderVersionGetsTheEventsAgain) {
  gs::RemoteGame g{"n1", 0, false};
  g.synced_from(2);
  EXPECT_TRUE(g.pass(3, true));
  EXPECT_TRUE(g.pass(4, true));
  g.synced_from(2);  // it asks again: it says it has only 2
  EXPECT_TRUE(g.pass(3, true));
  EXPECT_TRUE(g.pass(4, true));
  EXPECT_FALSE(g.pass(4, true));
}

}  // namespace
