// The PGN-style text export is made from the JSON record, so it carries exactly what the JSON does:
// the Jieqi secret only once the game is over.
#include "game/record_text.h"

#include <gtest/gtest.h>

#include "game/codec.h"
#include "game/game_session.h"
#include "rules/jieqi.h"
#include "rules/view.h"

using namespace gs;
using xq::Color;

namespace {

GameConfig config(xq::Variant v) {
  GameConfig c;
  c.id = "g-text";
  c.variant = v;
  c.tc = {600'000, 5'000};
  c.red = {"u-red", "Red \"Dragon\"", false};
  c.black = {"u-black", "black", false};
  c.created_at_ms = 1'764'460'800'000;  // 2025-11-30 00:00 UTC
  if (v == xq::Variant::Jieqi) {
    xq::Assignment a = xq::draw_assignment();
    c.assignment = a.to_string();
    c.salt = xq::random_hex(16);
    c.commitment = xq::commitment(a, c.salt);
  }
  return c;
}

}  // namespace

TEST(RecordText, XiangqiMateHasTagsNumberedMovesClocksAndResult) {
  GameSession s(config(xq::Variant::Xiangqi));
  s.start_clock(0);
  std::vector<GameEvent> ev;
  Millis now = 0;
  for (const char* m : {"a0a1", "b7b8", "a1b1", "c9e7", "b2b9", "e9e8", "b1b8"}) {
    now += 1000;
    ASSERT_EQ(s.move(s.rules_game().position().side_to_move(), m, "", now, 0, ev), Status::Ok) << m;
  }
  ASSERT_TRUE(s.over());
  const std::string text = record_text(archive_record(s));
  EXPECT_NE(text.find("[Game \"Chinese Chess\"]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[Red \"Red \\\"Dragon\\\"\"]\n"), std::string::npos) << "quotes escaped:\n" << text;
  EXPECT_NE(text.find("[Date \"2025.11.30\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[Result \"1-0\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[Termination \"checkmate\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[TimeControl \"600+5\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("1. a0a1 {"), std::string::npos) << text;
  EXPECT_NE(text.find("4. b1b8 {"), std::string::npos) << text;
  EXPECT_NE(text.find("0:10:04}"), std::string::npos) << "red's clock after move 1 (10 min + 5 s - 1 s):\n" << text;
  EXPECT_EQ(text.substr(text.size() - 5), " 1-0\n") << text;
  EXPECT_EQ(text.find("Assignment"), std::string::npos);
  EXPECT_EQ(text.find("[Repetitions"), std::string::npos) << "default options are not tagged";
  EXPECT_NE(text.find("[Event \"Casual game\"]\n[Rated \"no\"]"), std::string::npos) << text;
}

// A rated game says so (the review found every game without an event called "Casual game"), and
// a time control of fractions of seconds keeps them.
TEST(RecordText, ARatedGameAndFractionalSecondsAreSaidAsTheyAre) {
  GameConfig c = config(xq::Variant::Xiangqi);
  c.rated = true;
  c.tc = {90'500, 1'500};
  GameSession s(c);
  const std::string text = record_text(archive_record(s));
  EXPECT_NE(text.find("[Event \"Rated game\"]\n[Rated \"yes\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[TimeControl \"90.5+1.5\"]"), std::string::npos) << text;
}

TEST(RecordText, AnAbortedGameHasNoResult) {
  GameSession s(config(xq::Variant::Xiangqi));
  s.start_clock(0);
  std::vector<GameEvent> out;
  std::string why;
  ASSERT_EQ(s.abort(Color::Red, 1'000, out, &why), Status::Ok) << why;
  const std::string text = record_text(archive_record(s));
  EXPECT_NE(text.find("[Result \"*\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("[Termination \"abort\"]"), std::string::npos) << text;
}

TEST(RecordText, RuleOptionsAreTagged) {
  GameConfig c = config(xq::Variant::Xiangqi);
  c.options.repetitions = 4;
  c.options.move_limit_plies = 80;
  c.options.counted_checks_per_side = 0;
  GameSession s(c);
  const std::string text = record_text(archive_record(s));
  EXPECT_NE(text.find("[Repetitions \"4\"]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[MoveLimitPlies \"80\"]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[CountedChecks \"0\"]\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("FreePawnsAdvisorsElephants"), std::string::npos) << text;
}

TEST(RecordText, JieqiSecretOnlyAfterTheEnd) {
  GameSession s(config(xq::Variant::Jieqi));
  s.start_clock(0);
  std::vector<GameEvent> ev;
  ASSERT_EQ(s.move(Color::Red, "a3a4", "", 100, 0, ev), Status::Ok);
  const std::string live = record_text(archive_record(s));
  EXPECT_NE(live.find("[Game \"Jieqi\"]"), std::string::npos) << live;
  EXPECT_NE(live.find("[Commitment \"" + s.config().commitment + "\"]"), std::string::npos) << live;
  EXPECT_EQ(live.find("Assignment"), std::string::npos) << live;
  EXPECT_EQ(live.find(s.config().salt), std::string::npos) << live;
  EXPECT_EQ(live.substr(live.size() - 2), "*\n") << live;

  ASSERT_EQ(s.resign(Color::Black, 200, ev), Status::Ok);
  const std::string done = record_text(archive_record(s));
  EXPECT_NE(done.find("[Assignment \"" + s.config().assignment + "\"]"), std::string::npos) << done;
  EXPECT_NE(done.find("[Salt \"" + s.config().salt + "\"]"), std::string::npos) << done;
  EXPECT_NE(done.find("[Result \"1-0\"]"), std::string::npos) << done;
}

TEST(RecordText, NotARecordThrows) {
  EXPECT_ANY_THROW(record_text("not json"));
  EXPECT_ANY_THROW(record_text("[1,2]"));
}

// The live record kept up to date ply by ply (GameActor) equals the record built in full, and the
// FEN-only view equals view_of's FEN for every viewer.
TEST(RecordText, IncrementalRecordEqualsTheFullOne) {
  for (auto variant : {xq::Variant::Xiangqi, xq::Variant::Jieqi}) {
    GameSession s(config(variant));
    s.start_clock(0);
    RecordCache cache;
    std::vector<GameEvent> ev;
    Millis now = 0;
    for (int ply = 0; ply < 120 && !s.over(); ++ply) {
      auto legal = s.rules_game().legal_moves();
      ASSERT_FALSE(legal.empty());
      // Prefer captures, so Jieqi has hidden captured pieces (revealed only at the end).
      xq::Move pick = legal[(ply * 7919) % legal.size()];
      for (const auto& m : legal)
        if (s.rules_game().position().at(m.to) != xq::kEmpty) pick = m;
      now += 1000;
      ASSERT_EQ(s.move(s.rules_game().position().side_to_move(), xq::to_iccs(pick), "", now, 0, ev), Status::Ok);
      ASSERT_EQ(archive_record(s, cache), archive_record(s)) << "ply " << ply;
      for (auto v : {xq::Viewer::Red, xq::Viewer::Black, xq::Viewer::Spectator})
        ASSERT_EQ(xq::view_fen(s.rules_game(), v), xq::view_of(s.rules_game(), v).fen) << "ply " << ply;
    }
    if (!s.over()) ASSERT_EQ(s.resign(s.rules_game().position().side_to_move(), now + 1, ev), Status::Ok);
    EXPECT_EQ(archive_record(s, cache), archive_record(s));
    for (auto v : {xq::Viewer::Red, xq::Viewer::Black, xq::Viewer::Spectator})
      EXPECT_EQ(xq::view_fen(s.rules_game(), v), xq::view_of(s.rules_game(), v).fen);
    RecordCache fresh;
    EXPECT_EQ(archive_record(s, fresh), archive_record(s));
  }
}

TEST(RecordText, MoveLimitOnRequestIsTaggedWithTheRequest) {
  GameConfig c = config(xq::Variant::Xiangqi);
  c.options.requested_move_limit_plies = 80;
  GameSession s(c);
  std::vector<GameEvent> out;
  ASSERT_EQ(s.move(Color::Red, "h2e2", "", 10, 0, out), Status::Ok);
  EXPECT_EQ(record_text(archive_record(s)).find("MoveLimitRequested"), std::string::npos);
  ASSERT_EQ(s.request_move_limit(Color::Black, 20, out), Status::Ok);
  const std::string text = record_text(archive_record(s));
  EXPECT_NE(text.find("[MoveLimitOnRequest \"80\"]\n"), std::string::npos) << text;
  EXPECT_NE(text.find("[MoveLimitRequested \"black after ply 1\"]\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("MoveLimitOnRequestForcingCap"), std::string::npos) << text;

  c.options.requested_move_limit_forcing_cap = 20;  // seed 001
  const std::string capped = record_text(archive_record(GameSession(c)));
  EXPECT_NE(capped.find("[MoveLimitOnRequestForcingCap \"20\"]\n"), std::string::npos) << capped;

  GameSession imposed(c);  // an arbiter's, on Red only
  ASSERT_EQ(imposed.impose_move_limit(30, out, Color::Red), Status::Ok);
  const std::string by_arbiter = record_text(archive_record(imposed));
  EXPECT_NE(by_arbiter.find("[MoveLimitRequested \"arbiter for red after ply 0\"]\n"), std::string::npos) << by_arbiter;
}
