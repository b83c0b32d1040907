// The game state machine without network or Redis: moves, turn order, idempotent client move ids,
// draw-offer rules, abort window, resignation, time forfeit, replay.
#include "game/game_session.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <random>

#include "game/codec.h"
#include "rules/jieqi.h"

using namespace gs;
using xq::Color;

namespace {

GameConfig xiangqi(Millis initial = 60'000, Millis inc = 0) {
  GameConfig c;
  c.id = "g1";
  c.variant = xq::Variant::Xiangqi;
  c.tc = {initial, inc};
  c.red = {"u-red", "red", false};
  c.black = {"u-black", "black", false};
  return c;
}

struct Fixture {
  GameSession s;
  std::vector<GameEvent> ev;
  Millis now = 0;
  explicit Fixture(GameConfig c) : s(std::move(c)) { s.start_clock(0); }
  Status move(Color side, const char* iccs, const char* id = "") {
    now += 100;
    return s.move(side, iccs, id, now, 0, ev);
  }
};

}  // namespace

TEST(GameSession, MovesAlternateAndAreVersioned) {
  Fixture f(xiangqi());
  EXPECT_EQ(f.move(Color::Black, "h9g7"), Status::NotYourTurn);
  EXPECT_EQ(f.move(Color::Red, "h2e2", "m1"), Status::Ok);
  EXPECT_EQ(f.s.version(), 1u);
  EXPECT_EQ(f.move(Color::Red, "b2e2"), Status::NotYourTurn);
  EXPECT_EQ(f.move(Color::Black, "h9h5"), Status::Illegal);
  EXPECT_EQ(f.move(Color::Black, "zz"), Status::Illegal);
  for (const char* bad : {"z9z0", "a0a0", "j0j1", "a0a10", "", "h9g7h9g7", "\xff\xfe\xfd\xfc"})
    EXPECT_EQ(f.move(Color::Black, bad), Status::Illegal) << bad;
  // A move text with bytes that are not printable ASCII is refused before the rules see it: their
  // error quotes the move, and a NUL or a control character has no place in an answer (review).
  std::string why;
  EXPECT_EQ(f.s.move(Color::Black, std::string("h9\0g7", 5), "", f.now, 0, f.ev, &why), Status::Illegal);
  EXPECT_EQ(why, "expected ICCS like h2e2");
  EXPECT_EQ(f.move(Color::Black, "h9g7", "m1"), Status::Ok);  // ids are per player
  EXPECT_EQ(f.s.version(), 2u);
  ASSERT_EQ(f.ev.size(), 2u);
  EXPECT_EQ(f.ev[1].version, 2u);
  EXPECT_EQ(f.ev[1].ply, 2u);
  EXPECT_EQ(f.ev[1].iccs, "h9g7");
}

TEST(GameSession, ResentClientMoveIdIsNotReplayed) {
  Fixture f(xiangqi());
  ASSERT_EQ(f.move(Color::Red, "h2e2", "abc"), Status::Ok);
  EXPECT_EQ(f.move(Color::Red, "h2e2", "abc"), Status::Duplicate);
  EXPECT_EQ(f.s.find_client_move(Color::Red, "abc"), std::optional<uint64_t>(1));
  EXPECT_EQ(f.s.plies(), 1u);
}

// The same ids on both sides, and a draw offer between moves (versions are not plies).
TEST(GameSession, ClientMoveIdsArePerSideAndMapToVersions) {
  Fixture f(xiangqi());
  ASSERT_EQ(f.move(Color::Red, "h0g2", "id-0"), Status::Ok);    // version 1
  ASSERT_EQ(f.s.offer_draw(Color::Red, f.now, f.ev), Status::Ok);  // version 2
  ASSERT_EQ(f.move(Color::Black, "h9g7", "id-0"), Status::Ok);  // version 3
  ASSERT_EQ(f.move(Color::Red, "g2h0", "id-1"), Status::Ok);    // version 4
  EXPECT_EQ(f.s.find_client_move(Color::Red, "id-0"), std::optional<uint64_t>(1));
  EXPECT_EQ(f.s.find_client_move(Color::Black, "id-0"), std::optional<uint64_t>(3));
  EXPECT_EQ(f.s.find_client_move(Color::Red, "id-1"), std::optional<uint64_t>(4));
  EXPECT_FALSE(f.s.find_client_move(Color::Black, "id-1"));  // Red's only
  EXPECT_FALSE(f.s.find_client_move(Color::Red, ""));
  EXPECT_FALSE(f.s.find_client_move(Color::Red, "id-9"));
  EXPECT_EQ(f.move(Color::Black, "g7h9", "id-0"), Status::Duplicate);  // Black played id-0 already
  EXPECT_EQ(f.s.plies(), 3u);
}

// Many ids: the index grows from 16 slots to hundreds, and every id is still found, after a
// replay of the stored events too. (A seeded random game: the same moves every run.)
TEST(GameSession, ClientMoveIdsOfHundredsOfMovesAreFoundAfterReplay) {
  GameConfig cfg = xiangqi(3'600'000);
  Fixture f(cfg);
  std::mt19937 rng(5);
  while (!f.s.over() && f.s.plies() < 400) {
    const auto legal = f.s.rules_game().legal_moves();
    const Color side = f.s.rules_game().position().side_to_move();
    ASSERT_EQ(f.move(side, xq::to_iccs(legal[rng() % legal.size()]).c_str(), ("m" + std::to_string(f.s.plies())).c_str()),
              Status::Ok);
  }
  ASSERT_GE(f.s.plies(), 150u);
  GameSession r(decode_config(encode_config(cfg)));
  for (const auto& e : f.s.events()) r.replay(decode_event(encode_event(e)));
  for (const GameEvent& e : f.s.events()) {
    if (e.kind != EventKind::Move) continue;
    EXPECT_EQ(f.s.find_client_move(e.side, e.client_move_id), std::optional<uint64_t>(e.version)) << e.client_move_id;
    EXPECT_EQ(r.find_client_move(e.side, e.client_move_id), std::optional<uint64_t>(e.version)) << e.client_move_id;
    EXPECT_FALSE(f.s.find_client_move(xq::opposite(e.side), e.client_move_id)) << e.client_move_id;
  }
}

TEST(GameSession, ClockChargesMoverAndFlagEndsGame) {
  Fixture f(xiangqi(1'000));
  f.now = 300;
  ASSERT_EQ(f.s.move(Color::Red, "h2e2", "", f.now, 0, f.ev), Status::Ok);
  EXPECT_EQ(f.s.clock().stored(Color::Red), 700);
  const Millis grace = f.s.clock().quota(Color::Black);  // what Black's lag quota could still credit
  EXPECT_EQ(f.s.flag_deadline(), std::optional<Millis>(1'300 + grace));
  EXPECT_FALSE(f.s.check_flag(1'300 + grace - 1, f.ev));
  EXPECT_TRUE(f.s.check_flag(1'300 + grace, f.ev));
  EXPECT_EQ(f.s.result().outcome, xq::Outcome::RedWins);
  EXPECT_EQ(f.s.result().reason, "timeout");
  EXPECT_EQ(f.ev.back().kind, EventKind::Ended);
  EXPECT_FALSE(f.s.flag_deadline());
}

// An outage (no move could be stored, or no server ran) is charged to nobody: the side to move's
// flag and the no-show deadline move by it; the opponent's clock is untouched.
TEST(GameSession, AnOutageMovesTheFlagAndTheNoShowDeadline) {
  GameConfig c = xiangqi(1'000);
  c.created_at_ms = 50'000;
  c.event_id = "ev";
  c.no_show_ms = 10'000;
  Fixture f(c);
  f.now = 300;
  ASSERT_EQ(f.s.move(Color::Red, "h2e2", "", f.now, 0, f.ev), Status::Ok);
  const Millis grace = f.s.clock().quota(Color::Black);
  ASSERT_EQ(f.s.flag_deadline(), std::optional<Millis>(1'300 + grace));
  ASSERT_EQ(f.s.no_show_deadline_wall(), std::optional<int64_t>(60'000));
  f.s.credit_outage(2'000);
  EXPECT_EQ(f.s.flag_deadline(), std::optional<Millis>(3'300 + grace));
  EXPECT_EQ(f.s.no_show_deadline_wall(), std::optional<int64_t>(62'000));
  EXPECT_FALSE(f.s.check_flag(3'299 + grace, f.ev));
  EXPECT_EQ(f.s.clock().remaining(Color::Red, 3'299), 700) << "Red's clock does not move";
  ASSERT_EQ(f.s.move(Color::Black, "h9g7", "", 3'000, 0, f.ev), Status::Ok);
  EXPECT_EQ(f.s.clock().stored(Color::Black), 1'000 - 700) << "Black paid for its turn less the outage";
  f.s.credit_outage(-5);  // nothing taken
  EXPECT_EQ(f.s.flag_deadline(), std::optional<Millis>(3'000 + 700 + f.s.clock().quota(Color::Red)));
}

// A move that reaches the server after its side's time ran out, but within the grace the lag quota
// allows, stands when the lag it reports covers the overrun (it was sent in time), and loses on
// time when it does not: the flag timer does not beat a move still on its way.
TEST(GameSession, AMoveInTheFlagsGraceStandsOnlyWithTheLagItReports) {
  for (bool enough_lag : {true, false}) {
    Fixture f(xiangqi(1'000));
    const Millis grace = f.s.clock().quota(Color::Red);
    ASSERT_GT(grace, 10);
    const Millis at = 1'000 + grace / 2;  // the time ran out grace/2 ago
    EXPECT_FALSE(f.s.check_flag(at, f.ev)) << "the flag waits for the grace";
    std::vector<GameEvent> out;
    const Status st = f.s.move(Color::Red, "h2e2", "", at, enough_lag ? grace : grace / 4, out);
    if (enough_lag) {
      ASSERT_EQ(st, Status::Ok);
      EXPECT_EQ(f.s.clock().stored(Color::Red), 1'000 - (at - grace)) << "charged the time less the credited lag";
      EXPECT_EQ(f.ev.size(), 0u);
      EXPECT_FALSE(f.s.over());
    } else {
      EXPECT_EQ(st, Status::GameOver);
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].kind, EventKind::Ended);
      EXPECT_EQ(out[0].reason, "timeout");
      EXPECT_EQ(out[0].red_ms, 0);
      EXPECT_EQ(f.s.plies(), 0u) << "the late move was not played";
    }
  }
}

// In the grace only a move may still come in time: the side whose time has run out loses on time
// if it does anything else (its draw acceptance, abort, resignation or claim is no move on its way),
// and a takeback then loses on time whoever agrees to it (the overrun would be carried back into the
// game). The other side's own actions stand: its opponent's move may still be on its way.
TEST(GameSession, InTheFlagsGraceOnlyAMoveStands) {
  const Millis overrun = 5;  // Red's time ran out 5 ms ago, within its grace
  auto red_out_of_time = [&](Fixture& f) {
    f.now = 1'000 + overrun;
    ASSERT_FALSE(f.s.check_flag(f.now, f.ev)) << "the timer waits for the grace";
  };
  auto lost_on_time = [](const Fixture& f, Status st, const char* what) {
    EXPECT_EQ(st, Status::GameOver) << what;
    EXPECT_EQ(f.s.result().outcome, xq::Outcome::BlackWins) << what;
    EXPECT_EQ(f.s.result().reason, "timeout") << what;
    EXPECT_EQ(f.s.clock().stored(Color::Red), 0) << what << ": no negative time stored";
  };
  {
    Fixture f(xiangqi(1'000));
    ASSERT_EQ(f.s.offer_draw(Color::Black, 0, f.ev), Status::Ok);
    red_out_of_time(f);
    lost_on_time(f, f.s.accept_draw(Color::Red, f.now, f.ev), "accept_draw");
  }
  {
    Fixture f(xiangqi(1'000));
    red_out_of_time(f);
    lost_on_time(f, f.s.abort(Color::Red, f.now, f.ev), "abort");
  }
  {
    Fixture f(xiangqi(1'000));
    red_out_of_time(f);
    lost_on_time(f, f.s.claim(Color::Red, false, f.now, f.ev), "claim");
  }
  {  // Black proposes taking back its move while Red thinks; Red's time runs out; Red accepts
    GameConfig c = xiangqi(1'000);
    Fixture f(c);
    ASSERT_EQ(f.s.move(Color::Red, "h2e2", "", 0, 0, f.ev), Status::Ok);
    ASSERT_EQ(f.s.move(Color::Black, "h9g7", "", 0, 0, f.ev), Status::Ok);
    ASSERT_EQ(f.s.propose_takeback(Color::Black, 0, f.ev), Status::Ok);
    red_out_of_time(f);
    lost_on_time(f, f.s.accept_takeback(Color::Red, f.now, f.ev), "accept_takeback by the side out of time");
  }
  {  // Red proposed; Red's time runs out; Black accepts: the takeback comes too late all the same
    Fixture f(xiangqi(1'000));
    ASSERT_EQ(f.s.move(Color::Red, "h2e2", "", 0, 0, f.ev), Status::Ok);
    ASSERT_EQ(f.s.move(Color::Black, "h9g7", "", 0, 0, f.ev), Status::Ok);
    ASSERT_EQ(f.s.propose_takeback(Color::Red, 0, f.ev), Status::Ok);
    red_out_of_time(f);
    lost_on_time(f, f.s.accept_takeback(Color::Black, f.now, f.ev), "accept_takeback by the opponent");
  }
  {  // the other side's proposal of a takeback is no takeback yet: Red's move may still come
    Fixture f(xiangqi(1'000));
    ASSERT_EQ(f.s.move(Color::Red, "h2e2", "", 0, 0, f.ev), Status::Ok);
    ASSERT_EQ(f.s.move(Color::Black, "h9g7", "", 0, 0, f.ev), Status::Ok);
    red_out_of_time(f);
    EXPECT_EQ(f.s.propose_takeback(Color::Black, f.now, f.ev), Status::Ok);
    EXPECT_FALSE(f.s.over());
    EXPECT_EQ(f.s.move(Color::Red, "b2d2", "", f.now, f.s.clock().quota(Color::Red), f.ev), Status::Ok) << "in time with its lag";
  }
  {  // the other side's resignation stands: Red's move might have been on its way
    Fixture f(xiangqi(1'000));
    red_out_of_time(f);
    EXPECT_EQ(f.s.resign(Color::Black, f.now, f.ev), Status::Ok);
    EXPECT_EQ(f.s.result().reason, "resignation");
    EXPECT_EQ(f.s.result().outcome, xq::Outcome::RedWins);
  }
}

TEST(GameSession, LateMoveLosesOnTime) {
  Fixture f(xiangqi(1'000));
  std::vector<GameEvent> out;
  EXPECT_EQ(f.s.move(Color::Red, "h2e2", "", 5'000, 0, out), Status::GameOver);
  ASSERT_EQ(out.size(), 1u);  // the flag event must still be stored and published
  EXPECT_EQ(out[0].reason, "timeout");
  EXPECT_EQ(f.s.result().outcome, xq::Outcome::BlackWins);
}

TEST(GameSession, DrawOfferRules) {
  Fixture f(xiangqi());
  std::string why;  // each refusal says which rule refused it
  EXPECT_EQ(f.s.accept_draw(Color::Black, 1, f.ev, &why), Status::OfferNotAllowed);  // nothing offered
  EXPECT_EQ(why, "there is no draw offer from your opponent to answer");
  EXPECT_EQ(f.s.offer_draw(Color::Red, 1, f.ev), Status::Ok);
  EXPECT_EQ(f.s.offer_draw(Color::Red, 2, f.ev, &why), Status::OfferNotAllowed);  // already standing
  EXPECT_EQ(why, "your draw offer still stands");
  EXPECT_EQ(f.s.accept_draw(Color::Red, 2, f.ev), Status::OfferNotAllowed);  // own offer
  EXPECT_EQ(f.s.decline_draw(Color::Black, 3, f.ev), Status::Ok);
  EXPECT_EQ(f.s.offer_draw(Color::Red, 4, f.ev, &why), Status::OfferNotAllowed);  // opponent has not moved
  EXPECT_EQ(why, "you may offer a draw again once your opponent has moved");
  ASSERT_EQ(f.move(Color::Red, "h2e2"), Status::Ok);
  EXPECT_EQ(f.s.offer_draw(Color::Red, f.now, f.ev), Status::OfferNotAllowed);  // still not
  ASSERT_EQ(f.move(Color::Black, "h9g7"), Status::Ok);
  EXPECT_EQ(f.s.offer_draw(Color::Red, f.now, f.ev), Status::Ok);  // 2nd offer; black offered 0
  // The offer lapses when the side it was made to moves instead of answering.
  ASSERT_EQ(f.move(Color::Red, "h0g2"), Status::Ok);
  EXPECT_TRUE(f.s.draw_offer_by());
  ASSERT_EQ(f.move(Color::Black, "i9h9"), Status::Ok);
  EXPECT_FALSE(f.s.draw_offer_by());
  // A third offer would be more than twice as many as black's zero.
  ASSERT_EQ(f.move(Color::Red, "i0h0"), Status::Ok);
  ASSERT_EQ(f.move(Color::Black, "b9c7"), Status::Ok);
  EXPECT_EQ(f.s.offer_draw(Color::Red, f.now, f.ev, &why), Status::OfferNotAllowed);
  EXPECT_EQ(why, "no more than twice as many draw offers as your opponent (you 2, your opponent 0)");
  // Black may still offer (1 <= 2 * 2); red accepts.
  EXPECT_EQ(f.s.offer_draw(Color::Black, f.now, f.ev), Status::Ok);
  EXPECT_EQ(f.s.accept_draw(Color::Red, f.now, f.ev), Status::Ok);
  EXPECT_EQ(f.s.result().outcome, xq::Outcome::Draw);
  EXPECT_EQ(f.s.result().reason, "agreement");
}

TEST(GameSession, AbortOnlyBeforeBothSidesMoved) {
  {
    Fixture f(xiangqi());
    ASSERT_EQ(f.move(Color::Red, "h2e2"), Status::Ok);
    EXPECT_EQ(f.s.abort(Color::Black, f.now, f.ev), Status::Ok);
    EXPECT_EQ(f.s.result().reason, "abort");
    EXPECT_TRUE(f.ev.back().aborted_by);
    EXPECT_EQ(f.ev.back().side, Color::Black);
  }
  Fixture f(xiangqi());
  ASSERT_EQ(f.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(f.move(Color::Black, "h9g7"), Status::Ok);
  std::string why;
  EXPECT_EQ(f.s.abort(Color::Red, f.now, f.ev, &why), Status::AbortNotAllowed);
  EXPECT_EQ(why, "a game can be aborted only until both sides have moved");
  EXPECT_EQ(std::string(status_text(Status::NotYourTurn)), "it is not your turn");
}

// While a first move can still abort the game, only its countdown runs: the main clocks wait for
// both first moves, which are charged nothing and earn their increment; Black's starts Red's clock.
// A takeback before then, a tournament game or no countdown: the clock runs from the start.
TEST(GameSession, TheClocksWaitForBothFirstMovesWhileAFirstMoveCanAbortTheGame) {
  GameConfig c = xiangqi(60'000, 2'000);
  c.first_move_ms = 30'000;
  {
    GameSession s(c);
    s.start_clock(0);
    std::vector<GameEvent> out;
    EXPECT_TRUE(s.clocks_wait_for_first_moves());
    EXPECT_FALSE(s.clock().running());
    EXPECT_FALSE(s.flag_deadline()) << "no flag before the first moves: the countdown aborts instead";
    ASSERT_EQ(s.move(Color::Red, "h2e2", "", 20'000, 0, out), Status::Ok);
    EXPECT_EQ(s.clock().stored(Color::Red), 62'000) << "20 s of thought, charged nothing; the increment earned";
    EXPECT_FALSE(s.clock().running()) << "Black's countdown runs, not Black's clock";
    ASSERT_EQ(s.move(Color::Black, "h9g7", "", 45'000, 0, out), Status::Ok);
    EXPECT_EQ(s.clock().stored(Color::Black), 62'000);
    EXPECT_FALSE(s.clocks_wait_for_first_moves());
    ASSERT_TRUE(s.clock().running());
    EXPECT_EQ(s.clock().side_running(), Color::Red);
    EXPECT_EQ(s.clock().remaining(Color::Red, 50'000), 57'000) << "Red's clock from Black's first move";
    ASSERT_EQ(s.move(Color::Red, "h0g2", "", 50'000, 0, out), Status::Ok);
    EXPECT_EQ(s.clock().stored(Color::Red), 59'000);
    GameSession replayed(decode_config(encode_config(c)));
    for (const GameEvent& e : s.events()) replayed.replay(decode_event(encode_event(e)));
    replayed.start_clock(60'000);
    EXPECT_EQ(replayed.clock().remaining(Color::Black, 61'000), 61'000) << "a reload runs the clock after the first moves";
  }
  {  // a takeback of the first move: the players have met, the clock runs (less the increment)
    GameSession s(c);
    s.start_clock(0);
    std::vector<GameEvent> out;
    ASSERT_EQ(s.move(Color::Red, "h2e2", "", 5'000, 0, out), Status::Ok);
    ASSERT_EQ(s.propose_takeback(Color::Red, 6'000, out), Status::Ok);
    ASSERT_EQ(s.accept_takeback(Color::Black, 7'000, out), Status::Ok);
    ASSERT_EQ(s.plies(), 0u);
    EXPECT_TRUE(s.clock().running());
    EXPECT_EQ(s.clock().remaining(Color::Red, 8'000), 59'000);
  }
  for (const bool tournament : {true, false}) {  // a tournament game, or no first-move countdown
    GameConfig t = c;
    if (tournament) t.event_id = "ev", t.no_show_ms = 600'000;
    else t.first_move_ms = 0;
    GameSession s(t);
    s.start_clock(0);
    std::vector<GameEvent> out;
    EXPECT_TRUE(s.clock().running());
    ASSERT_EQ(s.move(Color::Red, "h2e2", "", 20'000, 0, out), Status::Ok);
    EXPECT_EQ(s.clock().stored(Color::Red), 42'000) << (tournament ? "tournament" : "no countdown");
  }
}

// Outside tournaments a side that has not made its first move in time aborts the game (unrated):
// Red's time runs from the game's creation, Black's from Red's first move; an outage lengthens the
// deadlines after it; once both have moved, or after a takeback, the clocks alone decide.
TEST(GameSession, AFirstMoveNotMadeInTimeAbortsTheGame) {
  GameConfig c = xiangqi();
  c.created_at_ms = 50'000;
  c.first_move_ms = 10'000;
  {
    GameSession s(c);
    s.start_clock(0);
    std::vector<GameEvent> out;
    EXPECT_EQ(s.first_move_abort_wall(), std::optional<int64_t>(60'000));
    EXPECT_EQ(s.first_move_due_wall(), s.first_move_abort_wall());
    EXPECT_FALSE(s.no_show_deadline_wall()) << "not a tournament game";
    s.credit_outage(2'000);
    EXPECT_EQ(s.first_move_abort_wall(), std::optional<int64_t>(62'000));
    s.set_wall_time(55'000);
    ASSERT_EQ(s.move(Color::Red, "h2e2", "", 5'000, 0, out), Status::Ok);
    // Black's own ten seconds from Red's move; the outage credited in Red's turn stays (kept so,
    // a rollback of a first move that could not be stored restores the same deadline).
    EXPECT_EQ(s.first_move_abort_wall(), std::optional<int64_t>(67'000));
    EXPECT_FALSE(s.check_first_move(66'999, true, 16'999, out));
    EXPECT_FALSE(s.over());
    s.set_wall_time(67'000);
    EXPECT_TRUE(s.check_first_move(67'000, true, 17'000, out));
    EXPECT_EQ(s.result().outcome, xq::Outcome::Draw);
    EXPECT_EQ(s.result().reason, "abort");
    EXPECT_EQ(out.back().kind, EventKind::Ended);
    EXPECT_TRUE(out.back().aborted_by) << "the abort names the side that did not move";
    EXPECT_EQ(out.back().side, Color::Black);
    EXPECT_FALSE(s.first_move_due_wall()) << "nothing is due in a finished game";
    GameSession replayed(decode_config(encode_config(c)));
    for (const GameEvent& e : s.events()) replayed.replay(decode_event(encode_event(e)));
    EXPECT_EQ(replayed.result().reason, "abort");
    const GameEvent stored = decode_event(encode_event(s.events().back()));
    EXPECT_TRUE(stored.aborted_by);
    EXPECT_EQ(stored.side, Color::Black);
  }
  {  // Red never moved: aborted all the same, whoever came
    GameSession s(c);
    s.start_clock(0);
    std::vector<GameEvent> out;
    EXPECT_TRUE(s.check_first_move(60'000, false, 10'000, out));
    EXPECT_EQ(s.result().reason, "abort");
    EXPECT_TRUE(out.back().aborted_by);
    EXPECT_EQ(out.back().side, Color::Red);
  }
  {  // both moved: no deadline; a takeback back to the start brings none back
    GameSession s(c);
    s.start_clock(0);
    std::vector<GameEvent> out;
    s.set_wall_time(51'000);
    ASSERT_EQ(s.move(Color::Red, "h2e2", "", 1'000, 0, out), Status::Ok);
    ASSERT_EQ(s.move(Color::Black, "h9g7", "", 2'000, 0, out), Status::Ok);
    EXPECT_FALSE(s.first_move_due_wall());
    ASSERT_EQ(s.propose_takeback(Color::Black, 2'100, out), Status::Ok);
    ASSERT_EQ(s.accept_takeback(Color::Red, 2'200, out), Status::Ok);
    ASSERT_EQ(s.plies(), 1u);
    EXPECT_FALSE(s.first_move_due_wall());
    EXPECT_FALSE(s.check_first_move(1'000'000, true, 3'000, out));
    EXPECT_FALSE(s.over());
  }
  {  // a tournament game keeps its no-show rule instead
    GameConfig t = c;
    t.event_id = "ev";
    t.no_show_ms = 600'000;
    GameSession s(t);
    s.start_clock(0);
    std::vector<GameEvent> out;
    EXPECT_FALSE(s.first_move_abort_wall());
    EXPECT_EQ(s.first_move_due_wall(), std::optional<int64_t>(650'000));
    EXPECT_FALSE(s.check_first_move(649'999, true, 1'000, out));
    EXPECT_TRUE(s.check_first_move(650'000, true, 1'000, out));
    EXPECT_EQ(s.result().reason, "forfeit");
    EXPECT_FALSE(out.back().aborted_by);
    EXPECT_FALSE(decode_event(encode_event(out.back())).aborted_by);
  }
  EXPECT_EQ(decode_config(encode_config(c)).first_move_ms, 10'000);
  GameConfig pooled = c;
  pooled.pool = "xiangqi:180000+2000";
  EXPECT_EQ(decode_config(encode_config(pooled)).pool, pooled.pool) << "a pool game keeps its pool when stored";
  EXPECT_EQ(decode_config(encode_config(c)).pool, "");
  boost::json::object stored_before = boost::json::parse(encode_config(c)).as_object();
  stored_before.erase("first_move_ms");
  EXPECT_EQ(decode_config(boost::json::serialize(stored_before)).first_move_ms, 0) << "games stored before the rule keep none";
}

TEST(GameSession, ResignAndNothingAfter) {
  Fixture f(xiangqi());
  EXPECT_EQ(f.s.resign(Color::Red, 1, f.ev), Status::Ok);
  EXPECT_EQ(f.s.result().outcome, xq::Outcome::BlackWins);
  EXPECT_EQ(f.s.result().reason, "resignation");
  EXPECT_EQ(f.move(Color::Red, "h2e2"), Status::GameOver);
  EXPECT_EQ(f.s.resign(Color::Black, 2, f.ev), Status::GameOver);
}

TEST(GameSession, ReplayOfStoredEventsRebuildsTheSameGame) {
  GameConfig cfg = xiangqi();
  Fixture f(cfg);
  ASSERT_EQ(f.move(Color::Red, "h2e2", "a"), Status::Ok);
  ASSERT_EQ(f.s.offer_draw(Color::Red, f.now, f.ev), Status::Ok);
  ASSERT_EQ(f.move(Color::Black, "h9g7", "b"), Status::Ok);
  ASSERT_EQ(f.s.resign(Color::Black, f.now, f.ev), Status::Ok);

  GameSession r(decode_config(encode_config(cfg)));
  for (const auto& e : f.s.events()) r.replay(decode_event(encode_event(e)));
  EXPECT_EQ(r.version(), f.s.version());
  EXPECT_EQ(r.plies(), 2u);
  EXPECT_EQ(r.result().reason, "resignation");
  EXPECT_EQ(r.find_client_move(Color::Black, "b"), std::optional<uint64_t>(3));
  EXPECT_EQ(r.ply_clocks(), f.s.ply_clocks());
}

TEST(GameSession, ReplayRejectsAGap) {
  Fixture f(xiangqi());
  ASSERT_EQ(f.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(f.move(Color::Black, "h9g7"), Status::Ok);
  GameSession r(xiangqi());
  EXPECT_THROW(r.replay(f.s.events()[1]), std::runtime_error);
}

TEST(GameSession, JieqiFlagFallLosesWhenTheOpponentCanMate) {
  // (The draw case, bare kings, cannot arise from the start position quickly; RulesGame::can_mate
  // is tested with the rules library.)
  GameConfig c = xiangqi(1'000);
  c.variant = xq::Variant::Jieqi;
  xq::Assignment a = xq::draw_assignment();
  c.assignment = a.to_string();
  c.salt = xq::random_hex(16);
  c.commitment = xq::commitment(a, c.salt);
  Fixture f(c);
  EXPECT_TRUE(f.s.check_flag(2'000, f.ev));  // after the time and the grace
  EXPECT_EQ(f.s.result().outcome, xq::Outcome::BlackWins);
  EXPECT_EQ(f.s.result().reason, "timeout");
}

// A Jieqi move may carry the two letters of jieqi-rules.md §9.2 (the mover's reveal, then the
// captured face-down piece's identity); the server's secret decides both, and the stored move
// keeps its squares only. Seven characters are not a move.
TEST(GameSession, JieqiMoveMayNameTheRevealAndTheCapturedPiece) {
  GameConfig c = xiangqi();
  c.variant = xq::Variant::Jieqi;
  c.assignment = xq::draw_assignment().to_string();
  Fixture f(c);
  // The face-down piece on b2 moves as a cannon: over b7's piece onto b9's.
  EXPECT_EQ(f.move(Color::Red, "b2b9Rnx"), Status::Illegal);
  EXPECT_EQ(f.move(Color::Red, "b2b9Rn"), Status::Ok);
  EXPECT_EQ(f.s.events().back().iccs, "b2b9");
  EXPECT_TRUE(f.s.rules_game().moves().back().captured);
}

TEST(GameSession, MoveLimitOnRequestIsAnEventAndSurvivesReplay) {
  GameConfig cfg = xiangqi();
  Fixture without(cfg);
  std::string why;
  EXPECT_EQ(without.s.request_move_limit(Color::Black, 0, without.ev, &why), Status::LimitNotAllowed);
  EXPECT_NE(why.find("no move limit on request"), std::string::npos);
  EXPECT_EQ(without.s.version(), 0u);

  cfg.options.requested_move_limit_plies = 20;
  cfg.options.repetitions = 12;  // the shuffle below repeats every 4 plies: judged only at the 12th time
  Fixture f(cfg);
  ASSERT_EQ(f.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(f.s.request_move_limit(Color::Black, f.now, f.ev), Status::Ok);
  ASSERT_EQ(f.ev.back().kind, EventKind::MoveLimitRequested);
  EXPECT_EQ(f.ev.back().side, Color::Black);
  EXPECT_EQ(f.s.request_move_limit(Color::Red, f.now, f.ev, &why), Status::LimitNotAllowed);
  EXPECT_NE(why.find("already running"), std::string::npos);
  // Knights out and back for 20 plies after the request.
  const char* shuffle[] = {"h9g7", "b0c2", "g7h9", "c2b0", "b9c7", "h0g2", "c7b9", "g2h0"};
  Color side = Color::Black;
  for (int i = 0; i < 19; ++i, side = xq::opposite(side)) ASSERT_EQ(f.move(side, shuffle[i % 8]), Status::Ok) << i;
  EXPECT_FALSE(f.s.over()) << f.s.result().reason;
  EXPECT_EQ(f.s.rules_game().requested_limit()->counted_plies, 19);

  GameSession r(decode_config(encode_config(cfg)));
  for (const auto& e : f.s.events()) r.replay(decode_event(encode_event(e)));
  ASSERT_TRUE(r.rules_game().requested_limit());
  EXPECT_EQ(r.rules_game().requested_limit()->requester, Color::Black);
  EXPECT_EQ(r.rules_game().requested_limit()->counted_plies, 19);

  ASSERT_EQ(f.move(side, shuffle[19 % 8]), Status::Ok);
  EXPECT_EQ(f.s.result().outcome, xq::Outcome::Draw);
  EXPECT_EQ(f.s.result().reason, "requested_move_limit");
  EXPECT_EQ(f.s.request_move_limit(Color::Red, f.now, f.ev), Status::GameOver);
}

TEST(GameSession, MoveLimitImposedByAnArbiterIsMarkedAndReplayed) {
  GameConfig cfg = xiangqi();
  cfg.options.requested_move_limit_plies = 40;
  Fixture f(cfg);
  ASSERT_EQ(f.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(f.s.impose_move_limit(f.now, f.ev), Status::Ok);
  ASSERT_TRUE(f.ev.back().by_arbiter);
  EXPECT_EQ(f.s.request_move_limit(Color::Black, f.now, f.ev), Status::LimitNotAllowed);
  ASSERT_EQ(f.move(Color::Black, "h9g7"), Status::Ok);
  GameSession r(decode_config(encode_config(cfg)));
  for (const auto& e : f.s.events()) r.replay(decode_event(encode_event(e)));
  ASSERT_TRUE(r.rules_game().requested_limit());
  EXPECT_FALSE(r.rules_game().requested_limit()->requester) << "the arbiter's, for neither side";
  EXPECT_EQ(r.rules_game().requested_limit()->counted_plies, 1);
  EXPECT_TRUE(r.events()[1].by_arbiter);
  EXPECT_FALSE(r.events()[1].one_side);
  EXPECT_FALSE(decode_event(encode_event(f.s.events()[0])).by_arbiter);
}

TEST(GameSession, MoveLimitImposedByAnArbiterOnOneSideIsReplayedForThatSide) {
  GameConfig cfg = xiangqi();
  cfg.options.requested_move_limit_plies = 40;
  Fixture f(cfg);
  ASSERT_EQ(f.move(Color::Red, "h2e2"), Status::Ok);
  ASSERT_EQ(f.s.impose_move_limit(f.now, f.ev, Color::Black), Status::Ok);
  ASSERT_TRUE(f.ev.back().by_arbiter);
  ASSERT_TRUE(f.ev.back().one_side);
  EXPECT_EQ(f.ev.back().side, Color::Black);
  GameSession r(decode_config(encode_config(cfg)));
  for (const auto& e : f.s.events()) r.replay(decode_event(encode_event(e)));
  ASSERT_TRUE(r.rules_game().requested_limit());
  EXPECT_EQ(r.rules_game().requested_limit()->requester, Color::Black);
  EXPECT_TRUE(r.rules_game().requested_limit()->by_arbiter);
  const std::string record = archive_record(r);
  EXPECT_NE(record.find("\"by\":\"arbiter\""), std::string::npos) << record;
  EXPECT_NE(record.find("\"on\":\"black\""), std::string::npos) << record;
}
