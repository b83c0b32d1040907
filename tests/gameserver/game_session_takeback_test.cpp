// Takebacks by agreement and gifts of time: who may ask, what is undone, the clocks, the lapse of
// a proposal, Jieqi's hidden identities, and that all of it survives a replay from storage.
#include <gtest/gtest.h>

#include "game/codec.h"
#include "game/game_session.h"
#include "rules/jieqi.h"
#include "rules/view.h"

using namespace gs;
using xq::Color;

namespace {

GameConfig casual(xq::Variant v = xq::Variant::Xiangqi) {
  GameConfig c;
  c.id = "g1";
  c.variant = v;
  c.tc = {60'000, 0};
  c.red = {"u-red", "red", false};
  c.black = {"u-black", "black", false};
  if (v == xq::Variant::Jieqi) c.assignment = xq::draw_assignment().to_string();
  return c;
}

struct Game {
  GameSession s;
  std::vector<GameEvent> ev;
  Millis now = 0;
  std::string why;
  explicit Game(GameConfig c) : s(std::move(c)) { s.start_clock(0); }
  Status move(Color side, const char* iccs) {
    now += 1'000;
    return s.move(side, iccs, "", now, 0, ev);
  }
  Status propose(Color side) { return s.propose_takeback(side, now, ev, &why); }
  Status accept(Color side) { return s.accept_takeback(side, now, ev, &why); }
  Status decline(Color side) { return s.decline_takeback(side, now, ev, &why); }
  GameSession replayed() const {
    GameSession r(decode_config(encode_config(s.config())));
    for (const auto& e : s.events()) r.replay(decode_event(encode_event(e)));
    return r;
  }
};

std::string fen(const GameSession& s) { return xq::view_fen(s.rules_game(), xq::Viewer::Spectator); }

}  // namespace

TEST(Takeback, TheProposersMoveAndTheReplyToItAreUndone) {
  Game g(casual());
  const std::string start = fen(g.s);
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
  const std::string after_red = fen(g.s);
  ASSERT_EQ(g.move(Color::Black, "h9g7"), Status::Ok);
  // Black's own last move only (it is red's turn): one ply.
  ASSERT_EQ(g.propose(Color::Black), Status::Ok);
  EXPECT_EQ(g.s.takeback_proposed_by(), Color::Black);
  ASSERT_EQ(g.accept(Color::Red), Status::Ok);
  EXPECT_EQ(g.s.plies(), 1u);
  EXPECT_EQ(fen(g.s), after_red);
  EXPECT_EQ(g.s.events().back().kind, EventKind::TakenBack);
  EXPECT_EQ(g.s.events().back().undone, 1);
  EXPECT_EQ(g.s.last_takeback_version(), g.s.version());
  EXPECT_FALSE(g.s.takeback_proposed_by());
  // Black replies otherwise; red, to move, asks: its move and the reply go, two plies.
  ASSERT_EQ(g.move(Color::Black, "b9c7"), Status::Ok);
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.accept(Color::Black), Status::Ok);
  EXPECT_EQ(g.s.plies(), 0u);
  EXPECT_EQ(fen(g.s), start);
  EXPECT_EQ(g.s.events().back().undone, 2);
  // Play goes on from there, with a different move, and the versions only grow.
  ASSERT_EQ(g.move(Color::Red, "b2e2"), Status::Ok);
  EXPECT_EQ(g.s.events().back().ply, 1u);
  EXPECT_EQ(g.s.version(), 8u);
}

TEST(Takeback, TheClocksKeepTheTimeUsedAndTheSideToMoveRuns) {
  Game g(casual());
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);  // red used 1 s
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  g.now += 3'000;  // black thinks 3 s, then agrees
  ASSERT_EQ(g.accept(Color::Black), Status::Ok);
  EXPECT_EQ(g.s.clock().remaining(Color::Red, g.now), 59'000);
  EXPECT_EQ(g.s.clock().remaining(Color::Black, g.now), 57'000);
  EXPECT_EQ(g.s.clock().side_running(), Color::Red);
  EXPECT_EQ(g.s.clock().remaining(Color::Red, g.now + 500), 58'500);
}

TEST(Takeback, RefusalsSayWhy) {
  Game g(casual());
  EXPECT_EQ(g.propose(Color::Red), Status::TakebackNotAllowed);
  EXPECT_EQ(g.why, "you have no move to take back");
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
  EXPECT_EQ(g.propose(Color::Black), Status::TakebackNotAllowed);
  EXPECT_EQ(g.why, "you have no move to take back");
  EXPECT_EQ(g.accept(Color::Black), Status::TakebackNotAllowed);
  EXPECT_EQ(g.why, "there is no takeback proposal from your opponent to answer");
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  EXPECT_EQ(g.propose(Color::Red), Status::TakebackNotAllowed);
  EXPECT_EQ(g.why, "your takeback proposal still stands");
  EXPECT_EQ(g.accept(Color::Red), Status::TakebackNotAllowed);  // one's own proposal
  ASSERT_EQ(g.decline(Color::Black), Status::Ok);
  EXPECT_FALSE(g.s.takeback_proposed_by());
  EXPECT_EQ(g.propose(Color::Red), Status::TakebackNotAllowed);
  EXPECT_EQ(g.why, "you may ask again once your opponent has moved");
  ASSERT_EQ(g.move(Color::Black, "h9g7"), Status::Ok);
  EXPECT_EQ(g.propose(Color::Red), Status::Ok);

  GameConfig rated = casual();
  rated.rated = true;
  Game r(rated);
  ASSERT_EQ(r.move(Color::Red, "h2e2"), Status::Ok);
  EXPECT_FALSE(r.s.takebacks_allowed());
  EXPECT_EQ(r.propose(Color::Red), Status::TakebackNotAllowed);
  EXPECT_EQ(r.why, "no takebacks in rated games");

  GameConfig event = casual();
  event.event_id = "spring";
  Game t(event);
  ASSERT_EQ(t.move(Color::Red, "h2e2"), Status::Ok);
  EXPECT_EQ(t.propose(Color::Red), Status::TakebackNotAllowed);
  EXPECT_EQ(t.why, "no takebacks in tournament games");
}

TEST(Takeback, AProposalLapsesWhenEitherSideMovesAndCrossingProposalsAgree) {
  Game g(casual());
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.move(Color::Black, "h9g7"), Status::Ok);  // answered by a move
  EXPECT_FALSE(g.s.takeback_proposed_by());
  EXPECT_EQ(g.accept(Color::Black), Status::TakebackNotAllowed);
  // Both ask: the second proposal accepts the first (black's own move, one ply).
  ASSERT_EQ(g.propose(Color::Black), Status::Ok);
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  EXPECT_EQ(g.s.plies(), 1u);
  EXPECT_EQ(g.s.events().back().kind, EventKind::TakenBack);
}

TEST(Takeback, AStandingDrawOfferGoesWithTheMovesTakenBack) {
  Game g(casual());
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(g.s.offer_draw(Color::Red, g.now, g.ev), Status::Ok);
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.accept(Color::Black), Status::Ok);
  EXPECT_FALSE(g.s.draw_offer_by());
}

TEST(Takeback, JieqiRevealsAndHiddenCapturesCannotBeHiddenAgain) {
  Game g(casual(xq::Variant::Jieqi));
  ASSERT_EQ(g.move(Color::Red, "e0e1"), Status::Ok);  // the general: nothing revealed
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.accept(Color::Black), Status::Ok);
  EXPECT_EQ(g.s.plies(), 0u);
  ASSERT_EQ(g.move(Color::Red, "b2b9"), Status::Ok);  // a face-down cannon takes a face-down horse
  EXPECT_EQ(g.propose(Color::Red), Status::TakebackNotAllowed);
  EXPECT_EQ(g.why, "a Jieqi piece revealed or captured face down cannot be hidden again");
  ASSERT_EQ(g.move(Color::Black, "e9e8"), Status::Ok);
  ASSERT_EQ(g.move(Color::Red, "e0e1"), Status::Ok);
  ASSERT_EQ(g.move(Color::Black, "e8e9"), Status::Ok);
  // Red's own general move and black's reply: both plain, so both may go.
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.accept(Color::Black), Status::Ok);
  EXPECT_EQ(g.s.plies(), 2u);
  EXPECT_TRUE(g.s.rules_game().moves().front().captured);  // the reveal stays played
}

TEST(Takeback, ReplayFromStorageRebuildsTheSameGame) {
  for (auto v : {xq::Variant::Xiangqi, xq::Variant::Jieqi}) {
    Game g(casual(v));
    ASSERT_EQ(g.move(Color::Red, "e0e1"), Status::Ok);
    ASSERT_EQ(g.move(Color::Black, "e9e8"), Status::Ok);
    ASSERT_EQ(g.propose(Color::Red), Status::Ok);
    ASSERT_EQ(g.decline(Color::Black), Status::Ok);
    ASSERT_EQ(g.move(Color::Red, "e1e0"), Status::Ok);
    ASSERT_EQ(g.propose(Color::Black), Status::Ok);
    ASSERT_EQ(g.accept(Color::Red), Status::Ok);
    ASSERT_EQ(g.s.give_time(Color::Red, g.now, g.ev), Status::Ok);
    ASSERT_EQ(g.move(Color::Black, "e9e8"), Status::Ok);
    ASSERT_EQ(g.propose(Color::Black), Status::Ok);  // left standing

    GameSession r = g.replayed();
    EXPECT_EQ(r.version(), g.s.version());
    EXPECT_EQ(r.plies(), g.s.plies());
    EXPECT_EQ(fen(r), fen(g.s));
    EXPECT_EQ(r.ply_clocks(), g.s.ply_clocks());
    EXPECT_EQ(r.takeback_proposed_by(), Color::Black);
    EXPECT_EQ(r.last_takeback_version(), g.s.last_takeback_version());
    EXPECT_EQ(r.clock().stored(Color::Black), g.s.clock().stored(Color::Black));
    EXPECT_EQ(r.events().back().ply, 0u);  // a proposal is no move
    EXPECT_EQ(r.events()[r.version() - 2].ply, g.s.plies());
  }
}

TEST(Takeback, ARecordBuiltBeforeATakebackIsRebuilt) {
  Game g(casual());
  RecordCache cache;
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(g.move(Color::Black, "h9g7"), Status::Ok);
  EXPECT_NE(archive_record(g.s, cache).find("h9g7"), std::string::npos);
  ASSERT_EQ(g.propose(Color::Black), Status::Ok);
  ASSERT_EQ(g.accept(Color::Red), Status::Ok);
  ASSERT_EQ(g.move(Color::Black, "b9c7"), Status::Ok);  // as many plies as before, not the same
  const std::string record = archive_record(g.s, cache);
  EXPECT_EQ(record.find("h9g7"), std::string::npos);
  EXPECT_NE(record.find("b9c7"), std::string::npos);
  EXPECT_EQ(record, archive_record(g.s));
}

TEST(GiveTime, AddsToTheOpponentsClockButNotInTournaments) {
  Game g(casual());
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);  // red 59 s; black runs
  g.now += 2'000;
  ASSERT_EQ(g.s.give_time(Color::Red, g.now, g.ev, &g.why), Status::Ok);
  EXPECT_EQ(g.s.clock().remaining(Color::Black, g.now), 60'000 - 2'000 + GameSession::kTimeGiftMs);
  EXPECT_EQ(g.s.clock().remaining(Color::Red, g.now), 59'000);
  EXPECT_EQ(g.s.events().back().kind, EventKind::TimeGiven);
  EXPECT_EQ(g.s.events().back().black_ms, 60'000 + GameSession::kTimeGiftMs);  // stored as at the turn's start
  ASSERT_EQ(g.s.give_time(Color::Black, g.now, g.ev, &g.why), Status::Ok);  // to the side not running
  EXPECT_EQ(g.s.clock().remaining(Color::Red, g.now), 59'000 + GameSession::kTimeGiftMs);
  EXPECT_EQ(g.s.time_gifts_left(Color::Red), GameSession::kMaxTimeGifts - 1);
  for (int i = 1; i < GameSession::kMaxTimeGifts; ++i) ASSERT_EQ(g.s.give_time(Color::Red, g.now, g.ev), Status::Ok);
  EXPECT_EQ(g.s.time_gifts_left(Color::Red), 0);
  EXPECT_EQ(g.s.time_gifts_left(Color::Black), GameSession::kMaxTimeGifts - 1);
  EXPECT_EQ(g.s.give_time(Color::Red, g.now, g.ev, &g.why), Status::GiveTimeNotAllowed);
  EXPECT_EQ(g.why, "no more than 20 gifts of time in one game");

  GameConfig event = casual();
  event.event_id = "spring";
  Game t(event);
  EXPECT_EQ(t.s.time_gift_ms(), 0);
  EXPECT_EQ(t.s.time_gifts_left(Color::Red), 0);
  EXPECT_EQ(t.s.takebacks_left(Color::Red), 0);
  EXPECT_EQ(t.s.give_time(Color::Red, 0, t.ev, &t.why), Status::GiveTimeNotAllowed);
  EXPECT_EQ(t.why, "no time can be given in tournament games");
}

// A move sent for a position a takeback has since undone is refused, not played elsewhere (the
// proposer changed their mind and moved while the opponent was accepting).
TEST(Takeback, AMoveMeantForAPlyTakenBackIsRefused) {
  Game g(casual());
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(g.move(Color::Black, "h7e7"), Status::Ok);
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.accept(Color::Black), Status::Ok);  // reaches the server first
  std::string why;
  EXPECT_EQ(g.s.move(Color::Red, "b2e2", "", g.now += 1000, 0, g.ev, &why, 3), Status::PositionChanged);
  EXPECT_EQ(why, "this move was meant for ply 3, but the game is at ply 1 (a takeback came first)");
  EXPECT_EQ(g.s.plies(), 0u);
  EXPECT_EQ(g.s.move(Color::Red, "b2e2", "", g.now += 1000, 0, g.ev, &why, 1), Status::Ok);
  // A ply behind the game is a client out of step, not a takeback (review, 2026-12-04).
  EXPECT_EQ(g.s.move(Color::Black, "h9g7", "", g.now += 1000, 0, g.ev, &why, 1), Status::PositionChanged);
  EXPECT_EQ(why, "this move was meant for ply 1, but the game is at ply 2 (sync the game: it is not where you saw it)");
}

// The client move id of a move taken back may be used again: it is no resend of a move played.
TEST(Takeback, AClientMoveIdTakenBackIsFreeAgain) {
  Game g(casual());
  ASSERT_EQ(g.s.move(Color::Red, "h2e2", "m1", g.now += 1000, 0, g.ev), Status::Ok);
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.accept(Color::Black), Status::Ok);
  EXPECT_FALSE(g.s.find_client_move(Color::Red, "m1"));
  ASSERT_EQ(g.s.move(Color::Red, "h2e2", "m1", g.now += 1000, 0, g.ev), Status::Ok) << "played, not a duplicate";
  EXPECT_EQ(g.s.plies(), 1u);
  EXPECT_EQ(g.s.find_client_move(Color::Red, "m1"), std::optional<uint64_t>(g.s.version()));
  const GameSession r = g.replayed();
  EXPECT_EQ(r.find_client_move(Color::Red, "m1"), std::optional<uint64_t>(g.s.version()));
}

// A move limit on request ends a standing proposal (no takebacks while it runs), also on replay.
TEST(Takeback, AMoveLimitRequestEndsAStandingProposal) {
  GameConfig c = casual();
  c.options.requested_move_limit_plies = 80;
  Game g(c);
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.s.request_move_limit(Color::Black, g.now, g.ev), Status::Ok);
  EXPECT_FALSE(g.s.takeback_proposed_by());
  EXPECT_FALSE(g.replayed().takeback_proposed_by());
}

// With an increment, a move taken back loses the increment it earned, and a player asks for ten
// takebacks at most: a takeback loop gains no time and does not go on for ever.
TEST(Takeback, IncrementsGoBackAndTakebacksAreCapped) {
  GameConfig c = casual();
  c.tc = {60'000, 5'000};
  Game g(c);
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);  // red: 60 - 1 + 5 = 64 s
  ASSERT_EQ(g.propose(Color::Red), Status::Ok);
  ASSERT_EQ(g.accept(Color::Black), Status::Ok);
  EXPECT_EQ(g.s.clock().remaining(Color::Red, g.now), 59'000);
  for (int i = 1; i < GameSession::kMaxTakebacks; ++i) {
    ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
    ASSERT_EQ(g.propose(Color::Red), Status::Ok);
    ASSERT_EQ(g.accept(Color::Black), Status::Ok) << i;
  }
  ASSERT_EQ(g.move(Color::Red, "h2e2"), Status::Ok);
  EXPECT_EQ(g.s.takebacks_left(Color::Red), 0);
  EXPECT_EQ(g.s.takebacks_left(Color::Black), GameSession::kMaxTakebacks);
  EXPECT_EQ(g.propose(Color::Red), Status::TakebackNotAllowed);
  EXPECT_EQ(g.why, "no more than 10 takebacks for a player in one game");
  EXPECT_EQ(g.replayed().takebacks_left(Color::Red), 0) << "counted again from the stored events";
  EXPECT_EQ(g.replayed().rules_game().moves().size(), 1u);
  ASSERT_EQ(g.move(Color::Black, "h9g7"), Status::Ok);
  EXPECT_EQ(g.propose(Color::Black), Status::Ok) << "the other player still may";
}
