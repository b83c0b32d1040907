// What a club's deletion waits for (matchmaker/service/club.h): its events not yet finished or
// cancelled, found among the events' public views.
#include "club.h"

#include <gtest/gtest.h>

namespace xq::mm {
namespace {

std::string view(const std::string& club_id, const std::string& stage) {
  return R"({"config":{"id":"x","club_id":")" + club_id + R"("},"stage":")" + stage + R"("})";
}

TEST(ClubDeletion, OnlyFinishedAndCancelledEventsLetItGo) {
  for (const char* stage : {"registration", "running", "paused"}) EXPECT_TRUE(stage_blocks_club_deletion(stage)) << stage;
  for (const char* stage : {"finished", "cancelled"}) EXPECT_FALSE(stage_blocks_club_deletion(stage)) << stage;
}

TEST(ClubDeletion, TheClubsLiveEventsBlockItOthersDoNot) {
  const std::vector<std::pair<std::string, std::string>> views = {
      {"a", view("east", "running")},        {"b", view("east", "finished")}, {"c", view("west", "running")},
      {"d", R"({"config":{"id":"d"},"stage":"registration"})"},  // no club
      {"e", view("east", "cancelled")},      {"f", view("east", "registration")},
      {"g", "not json"},                     {"h", R"({"config":{"club_id":7},"stage":"running"})"},
      {"i", view("east", "paused")},         {"j", view("eastern", "running")}};
  EXPECT_EQ(events_blocking_club_deletion("east", views), (std::vector<std::string>{"a", "f", "i"}));
  EXPECT_TRUE(events_blocking_club_deletion("north", views).empty());
}

TEST(ClubDeletion, TheRefusalNamesTheEventsThatBlockIt) {
  EXPECT_EQ(club_deletion_refusal({}), "");
  EXPECT_EQ(club_deletion_refusal({"spring"}), "the club has events not finished or cancelled (spring): finish or cancel them first");
  EXPECT_EQ(club_deletion_refusal({"a", "b", "c", "d", "e", "f", "g"}),
            "the club has events not finished or cancelled (a, b, c, d, e and 2 more): finish or cancel them first");
}

}  // namespace
}  // namespace xq::mm
