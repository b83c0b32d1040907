// Clock arithmetic with fake time: sudden death, Fischer increment, flag, lag quota.
#include "game/clock.h"
#include "game/clock_resume.h"
#include "game/recent_turn_starts.h"

#include <gtest/gtest.h>

using gs::Clock;
using gs::EarlierResume;
using gs::ResumeFacts;
using gs::turn_time_used_before_resume;
using gs::TimeControl;
using gs::time_control_error;
using xq::Color;

TEST(Clock, SuddenDeathChargesOnlyTheRunningSide) {
  Clock c(TimeControl{60'000, 0});
  c.start(Color::Red, 1000);
  EXPECT_EQ(c.remaining(Color::Red, 6000), 55'000);
  EXPECT_EQ(c.remaining(Color::Black, 6000), 60'000);
  EXPECT_EQ(c.press(6000), 55'000);
  EXPECT_EQ(c.side_running(), Color::Black);
  EXPECT_EQ(c.remaining(Color::Red, 9000), 55'000);
  EXPECT_EQ(c.remaining(Color::Black, 9000), 57'000);
}

// A move on a clock never started is charged nothing (not the time since the clock's origin), and
// starts the opponent's time.
TEST(Clock, APressOfAClockNotStartedChargesNothing) {
  Clock c(TimeControl{60'000, 2'000});
  EXPECT_EQ(c.press(80'000'000), 62'000);
  EXPECT_TRUE(c.running());
  EXPECT_EQ(c.side_running(), Color::Black);
  EXPECT_EQ(c.remaining(Color::Black, 80'005'000), 55'000);
}

TEST(Clock, FischerIncrementAddedAfterOwnMove) {
  Clock c(TimeControl{25 * 60'000, 5'000});
  c.start(Color::Red, 0);
  EXPECT_EQ(c.press(10'000), 25 * 60'000 - 10'000 + 5'000);
  EXPECT_EQ(c.press(12'000), 25 * 60'000 - 2'000 + 5'000);
}

// The flag falls once the time is used up by more than the lag quota could still credit: a move
// arriving in that grace is in time only with the lag it reports, up to the quota.
TEST(Clock, FlagFallsAfterTheGraceTheQuotaAllows) {
  Clock c(TimeControl{1'000, 0});
  c.start(Color::Red, 500);
  const gs::Millis q = c.quota(Color::Red);
  ASSERT_GT(q, 0);
  EXPECT_EQ(c.flag_deadline(), 1'500 + q);
  EXPECT_FALSE(c.flagged(1'500 + q - 1));
  EXPECT_TRUE(c.flagged(1'500 + q));
  EXPECT_TRUE(c.in_time(1'499, 0));
  EXPECT_FALSE(c.in_time(1'500, 0)) << "time used up, no lag reported";
  EXPECT_TRUE(c.in_time(1'500 + q - 1, q)) << "the lag it reports brings it back";
  EXPECT_FALSE(c.in_time(1'500 + q - 1, q - 2)) << "not enough lag for that";
  EXPECT_FALSE(c.in_time(1'500 + q, 60'000)) << "never more than the quota";
  EXPECT_EQ(c.press(1'500 + q - 1, 60'000), 1) << "credited the quota: 1 ms left";
  EXPECT_EQ(c.flag_deadline(), 1'500 + q - 1 + 1'000 + c.quota(Color::Black)) << "Black's turn, its own quota";
  c.stop(1'600 + q);
  EXPECT_FALSE(c.flagged(5'000));  // a stopped clock never flags
  EXPECT_EQ(c.stored(Color::Black), 1'000 - 101);
  Clock d(TimeControl{1'000, 0});
  d.start(Color::Red, 0);
  d.stop(1'010);  // stopped in the grace (a resignation of the other side): no time, not less
  EXPECT_EQ(d.stored(Color::Red), 0);
}

TEST(Clock, LagCompensationIsBoundedByQuota) {
  Clock c(TimeControl{10 * 60'000, 0});
  const gs::Millis start_quota = c.quota(Color::Red);
  ASSERT_GT(start_quota, 0);
  c.start(Color::Red, 0);
  // A client claiming 10 s of lag gets at most its quota back.
  EXPECT_EQ(c.press(20'000, 10'000), 10 * 60'000 - 20'000 + start_quota);
  EXPECT_EQ(c.last_compensation(), start_quota);
  EXPECT_LT(c.quota(Color::Red), start_quota);
  // Compensation never exceeds the time actually elapsed.
  c.press(20'050);  // black
  c.press(20'060, 10'000);
  EXPECT_LE(c.last_compensation(), 10);
}

TEST(Clock, QuotaRefillsButIsCapped) {
  Clock c(TimeControl{10 * 60'000, 0});
  c.start(Color::Red, 0);
  gs::Millis t = 0;
  for (int i = 0; i < 50; ++i) {
    t += 1000;
    c.press(t);  // no lag claimed: the quota only grows
  }
  gs::Millis cap = gs::LagPolicy::for_time_control(c.time_control()).max_quota_ms;
  EXPECT_EQ(c.quota(Color::Red), cap);
  EXPECT_EQ(c.quota(Color::Black), cap);
}

// Resuming a stored game (game/clock_resume.h): the side to move pays for the part of its turn a
// server ran, never for the time no server ran.
TEST(ClockResume, ChargesTheTurnUpToWhenTheServerStopped) {
  ResumeFacts f;
  f.plies = 7, f.turn_started_ms = 100'000, f.run_until_ms = 106'000, f.now_ms = 130'000;
  EXPECT_EQ(turn_time_used_before_resume(f), 6'000) << "6 s ran, 24 s of downtime free";
  f.run_until_ms = 99'000;  // the last heartbeat came before the move
  EXPECT_EQ(turn_time_used_before_resume(f), 0);
  f.run_until_ms = 0;  // unknown (an older deployment): nothing charged, as before
  EXPECT_EQ(turn_time_used_before_resume(f), 0);
  f.turn_started_ms = 0, f.run_until_ms = 106'000;  // unknown turn start
  EXPECT_EQ(turn_time_used_before_resume(f), 0);
  f.turn_started_ms = 100'000, f.run_until_ms = 140'000;  // another node's clock ahead of ours
  EXPECT_EQ(turn_time_used_before_resume(f), 30'000) << "never more than the turn has lasted";
}

TEST(ClockResume, ASecondGapInOneTurnIsNotChargedForTheFirst) {
  ResumeFacts f;
  // Turn from 100 s; a crash at 106 s, resumed at 130 s with 6 s charged; crashed again at 140 s.
  f.plies = 7, f.turn_started_ms = 100'000, f.run_until_ms = 140'000, f.now_ms = 150'000;
  f.earlier = EarlierResume{7, 130'000, 6'000};
  EXPECT_EQ(turn_time_used_before_resume(f), 16'000) << "6 s before the first gap, 10 s after it";
  f.earlier->plies = 6;  // a resumption in an earlier turn says nothing about this one
  EXPECT_EQ(turn_time_used_before_resume(f), 40'000);
  f.earlier = EarlierResume{7, 130'000, 6'000};
  f.run_until_ms = 125'000;  // stopped before that resumption's first heartbeat
  EXPECT_EQ(turn_time_used_before_resume(f), 6'000);
}

TEST(RecentTurnStarts, KeepsTheFirstStartOfTheLastFourTurnsAndForgetsLaterOnes) {
  gs::RecentTurnStarts t;
  t.record(10, 1'000);
  t.record(10, 1'500);  // the same turn seen again (e.g. a draw offer): its start stays
  EXPECT_EQ(t.find(10), 1'000);
  for (uint32_t p = 11; p <= 14; ++p) t.record(p, p * 100);
  EXPECT_FALSE(t.find(10)) << "only the last four turns are kept";
  EXPECT_EQ(t.find(11), 1'100);
  EXPECT_EQ(t.find(14), 1'400);
  t.forget_after(12);
  EXPECT_EQ(t.find(12), 1'200);
  EXPECT_FALSE(t.find(13));
  EXPECT_FALSE(t.find(14));
  t.record(13, 9'000);  // the turn replayed after the rollback starts anew
  EXPECT_EQ(t.find(13), 9'000);
  EXPECT_EQ(t.find(11), 1'100);
  t.credit(13, 500);  // time given back to the turn (an outage): a rollback to it keeps it
  EXPECT_EQ(t.find(13), 9'500);
  EXPECT_EQ(t.find(11), 1'100);
}

// One set of bounds for every game's time control (seeks, pools and events read them here).
TEST(Clock, TimeControlsAreBoundedAlikeEverywhere) {
  EXPECT_EQ(time_control_error({1000, 0}), nullptr);
  EXPECT_EQ(time_control_error({6LL * 3600 * 1000, 120'000}), nullptr);
  EXPECT_NE(time_control_error({999, 0}), nullptr);
  EXPECT_NE(time_control_error({6LL * 3600 * 1000 + 1, 0}), nullptr);
  EXPECT_NE(time_control_error({60'000, 120'001}), nullptr);
  EXPECT_NE(time_control_error({60'000, -1}), nullptr);
  EXPECT_STREQ(time_control_error({0, 0}), "time control: initial 1 s..6 h, increment <= 120 s");
}
