// What an arbiter may give as the reason of a ruling (POST /api/admin/games/{id}/adjudicate and an
// event's /adjudicate): words of its own, blank for the plain word, and a no-show's words mean the
// forfeit the scoring knows.
#include <gtest/gtest.h>

#include "server/http_api.h"

using gs::adjudication_reason_error;

TEST(AdjudicationReason, ANoShowInAnyOfItsWordsIsTheForfeit) {
  for (std::string reason : {"弃权", " 弃权 ", "棄權", "缺席", "No-show", "no show", "FORFEIT", "forfeited"}) {
    EXPECT_EQ(adjudication_reason_error(reason), "") << reason;
    EXPECT_EQ(reason, "forfeit");
  }
}

TEST(AdjudicationReason, OwnWordsStayBlankReadsAdjudicationAndNoResultIsRefused) {
  std::string own = "  second foul ", blank = "\u3000", abort = "abort", mate = "Checkmate";
  EXPECT_EQ(adjudication_reason_error(own), "");
  EXPECT_EQ(own, "second foul");
  EXPECT_EQ(adjudication_reason_error(blank), "");
  EXPECT_EQ(blank, "adjudication");
  EXPECT_NE(adjudication_reason_error(abort), "");
  EXPECT_NE(adjudication_reason_error(mate), "");
}
