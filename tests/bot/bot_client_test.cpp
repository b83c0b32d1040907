// xqbot against the real server: a throwaway redis-server and the real gameserver (tests/gameserver
// fixtures), the real xqbot binary as a process, and a guest playing it over WebSocket. The tests
// do not depend on which move the engine chooses, only that it answers with legal ones.
// Also the bot's pure parts: its seek specs, server URL, time budget and game bookkeeping.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "bot_options.h"
#include "engine/engine.h"
#include "game_tracker.h"
#include "rules/fen.h"
#include "rules/position.h"
#include "test_clients.h"
#include "test_server.h"
#include "xq.pb.h"

namespace v1 = xq::v1;
using v1::ServerMessage;

namespace {

// ---------- the pure parts ----------

TEST(BotOptions, SeekSpecsParse) {
  auto s = xqbot::parse_seek_specs("xiangqi 600+5, Jieqi 300+0,jieqi 60");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].variant, v1::XIANGQI);
  EXPECT_EQ(s[0].initial_ms, 600'000u);
  EXPECT_EQ(s[0].increment_ms, 5'000u);
  EXPECT_EQ(s[1].variant, v1::JIEQI);
  EXPECT_EQ(s[1].increment_ms, 0u);
  EXPECT_EQ(s[2].initial_ms, 60'000u);
  EXPECT_EQ(xqbot::describe(s[0]), "xiangqi 600+5");
  EXPECT_TRUE(xqbot::parse_seek_specs("").empty());
  EXPECT_THROW(xqbot::parse_seek_specs("chess 600+5"), std::invalid_argument);
  EXPECT_THROW(xqbot::parse_seek_specs("xiangqi"), std::invalid_argument);
  EXPECT_THROW(xqbot::parse_seek_specs("xiangqi 0+5"), std::invalid_argument);
  EXPECT_THROW(xqbot::parse_seek_specs("xiangqi 600+500"), std::invalid_argument);
  EXPECT_THROW(xqbot::parse_seek_specs("xiangqi ten+5"), std::invalid_argument);
}

TEST(BotOptions, ServerUrlParses) {
  auto u = xqbot::parse_server_url("ws://127.0.0.1:8080/ws");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "127.0.0.1");
  EXPECT_EQ(u->port, 8080);
  EXPECT_EQ(u->target, "/ws");
  u = xqbot::parse_server_url("ws://example.org");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->port, 80);
  EXPECT_EQ(u->target, "/ws");
  u = xqbot::parse_server_url("ws://[::1]:9000/ws");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, 9000);
  EXPECT_FALSE(xqbot::parse_server_url("wss://example.org/ws"));
  EXPECT_FALSE(xqbot::parse_server_url("ws://host:0/ws"));
  EXPECT_FALSE(xqbot::parse_server_url("ws://:8080/ws"));
}

TEST(BotTimeBudget, FollowsTheClock) {
  EXPECT_EQ(xqbot::time_budget_ms(1000, 600'000, 5'000), 1000);       // plenty: the upper bound
  EXPECT_EQ(xqbot::time_budget_ms(5000, 60'000, 0), 2000);            // a thirtieth of what is left
  EXPECT_EQ(xqbot::time_budget_ms(5000, 3'000, 60'000), 1000);        // never a third of the clock or more
  EXPECT_EQ(xqbot::time_budget_ms(1000, 100, 0), 50);                 // at least 50 ms
  // Searches of other games queued behind: they share the time (each waits on its own clock).
  EXPECT_EQ(xqbot::time_budget_ms(300, 15'000, 0, 8), 37);
  EXPECT_EQ(xqbot::time_budget_ms(300, 1'500, 0, 8), 6);             // the 50 ms floor shared too
  EXPECT_EQ(xqbot::time_budget_ms(300, 15'000, 0, 0), 300) << "nobody behind";
  // A first move is due within the server's first-move time: it never thinks long.
  EXPECT_EQ(xqbot::movetime_for_ply(60'000, 0), 5'000);
  EXPECT_EQ(xqbot::movetime_for_ply(60'000, 1), 5'000);
  EXPECT_EQ(xqbot::movetime_for_ply(60'000, 2), 60'000);
  EXPECT_EQ(xqbot::movetime_for_ply(1'000, 0), 1'000);
  EXPECT_EQ(xqbot::side_to_move(xq::kXiangqiStartFen), v1::RED);
  EXPECT_EQ(xqbot::side_to_move("4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1"), v1::BLACK);
  EXPECT_EQ(xqbot::side_to_move("garbage"), v1::SIDE_NONE);
}

// A takeback returns to the position before the undone plies, with the history before it.
TEST(BotGameTracker, MovesAndTakebacks) {
  xqbot::GameTracker g;
  v1::GameState s;
  s.set_game_id("g1");
  s.set_you(v1::BLACK);
  s.set_fen(xq::kXiangqiStartFen);
  s.set_version(0);
  const auto now = xqbot::SteadyClock::now();
  g.apply_state(s, now);
  EXPECT_FALSE(g.my_turn());
  const std::string fens[] = {"f1 b", "f2 w", "f3 b"};
  for (uint32_t i = 0; i < 3; ++i) {
    v1::GameEvent e;
    e.set_game_id("g1");
    e.set_version(i + 1);
    e.set_kind(v1::GameEvent::MOVE);
    e.set_side(i % 2 ? v1::BLACK : v1::RED);
    e.mutable_move()->set_ply(i + 1);
    e.set_fen(fens[i]);
    EXPECT_EQ(g.apply_event(e, now), xqbot::GameTracker::Change::Position);
  }
  EXPECT_TRUE(g.my_turn());
  EXPECT_EQ(g.plies, 3u);
  EXPECT_EQ(g.earlier_fens.size(), 3u);
  v1::GameEvent old;
  old.set_version(2);
  EXPECT_EQ(g.apply_event(old, now), xqbot::GameTracker::Change::None);
  v1::GameEvent gap;
  gap.set_version(9);
  EXPECT_EQ(g.apply_event(gap, now), xqbot::GameTracker::Change::Gap);
  v1::GameEvent tb;
  tb.set_version(4);
  tb.set_kind(v1::GameEvent::TAKEN_BACK);
  tb.set_plies_undone(2);
  tb.set_fen("f1 b");
  EXPECT_EQ(g.apply_event(tb, now), xqbot::GameTracker::Change::Position);
  EXPECT_EQ(g.plies, 1u);
  ASSERT_EQ(g.earlier_fens.size(), 1u);
  EXPECT_EQ(g.earlier_fens[0], xq::kXiangqiStartFen);
  v1::GameEvent offer;
  offer.set_version(5);
  offer.set_kind(v1::GameEvent::DRAW_OFFERED);
  offer.set_side(v1::RED);
  EXPECT_EQ(g.apply_event(offer, now), xqbot::GameTracker::Change::DrawOffered);
}

// ---------- against the real server ----------

constexpr const char* kBotName = "xqbot";

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

class BotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    srv_ = std::make_unique<TestServers>();
    log_ = srv_->dir() + "/xqbot.log";
    std::ofstream(srv_->dir() + "/xqbot-password") << "bot-password-42\n";
    std::vector<std::pair<std::string, std::string>> flags{
        {"--server", "ws://127.0.0.1:" + std::to_string(srv_->port()) + "/ws"},
        {"--name", kBotName},
        {"--password-file", srv_->dir() + "/xqbot-password"},
        {"--movetime-ms", "100"},
        {"--poll-ms", "300"},
        {"--claim-after-s", "0"},
        {"--max-seconds", "120"}};
    const auto extra = extra_args();
    for (size_t i = 0; i + 1 < extra.size(); i += 2) {  // a fixture's flags replace the defaults
      auto it = std::find_if(flags.begin(), flags.end(), [&](const auto& f) { return f.first == extra[i]; });
      if (it != flags.end()) it->second = extra[i + 1];
      else flags.emplace_back(extra[i], extra[i + 1]);
    }
    std::vector<std::string> argv{XQBOT_BIN};
    for (const auto& [k, v] : flags) argv.insert(argv.end(), {k, v});
    argv_ = argv;
    bot_.start(argv, log_);
    ASSERT_TRUE(log_says("signed in as", 10'000)) << bot_log();
  }
  void restart_bot() { bot_.start(argv_, log_); }
  void TearDown() override {
    if (HasFailure()) std::fprintf(stderr, "---- xqbot's log\n%s\n", bot_log().c_str());
    bot_.terminate();  // SIGTERM: the bot must stop cleanly (exit status 0)
    srv_.reset();
  }
  virtual std::vector<std::string> extra_args() const { return {}; }
  std::string bot_log() const { return read_file(log_); }
  bool log_says(const std::string& text, int ms) {
    return eventually([&] { return bot_log().find(text) != std::string::npos; }, ms);
  }
  size_t log_count(const std::string& text) const {
    const std::string s = bot_log();
    size_t n = 0;
    for (size_t at = s.find(text); at != std::string::npos; at = s.find(text, at + 1)) ++n;
    return n;
  }

  // The bot's open (not targeted) seek of `variant` as `viewer` sees the lobby; empty if none
  // appears within `ms`.
  v1::Seek bot_seek(TestClient& viewer, v1::Variant variant, int ms = 5000, const std::string& not_id = "") {
    v1::Seek found;
    eventually(
        [&] {
          v1::ClientMessage m;
          m.mutable_list_seeks();
          auto r = viewer.ws->request(m);
          for (const auto& s : r.seeks().seeks())
            if (s.owner().name() == kBotName && s.target_user_id().empty() && s.variant() == variant &&
                s.seek_id() != not_id) {
              found = s;
              return true;
            }
          return false;
        },
        ms);
    return found;
  }

  std::unique_ptr<TestServers> srv_;
  Process bot_;
  std::vector<std::string> argv_;
  std::string log_;
};

// One game as the guest plays it against the bot.
struct Game {
  std::string gid;
  v1::Variant variant = v1::XIANGQI;
  v1::Side me = v1::SIDE_NONE;
  std::string fen;
  uint32_t plies = 0;
  uint64_t version = 0;
  uint64_t seed = 7;
  int bot_moves = 0;
  std::string ended;  // the reason, once the game ended on the board (a real engine may mate a random mover)
};

Game game_from(const v1::GameState& s) {
  Game g;
  g.gid = s.game_id();
  g.variant = s.variant();
  g.me = s.you();
  g.fen = s.fen();
  g.plies = static_cast<uint32_t>(s.moves_size());
  g.version = s.version();
  return g;
}

xq::Variant rules_variant(v1::Variant v) { return v == v1::JIEQI ? xq::Variant::Jieqi : xq::Variant::Xiangqi; }

// A legal move in `fen` (pseudo-random from `seed`; Jieqi: captures first, as the fixtures pick).
std::string pick_move(const std::string& fen, v1::Variant v, uint64_t& seed) {
  if (v == v1::JIEQI) return pick_jieqi_move(fen, seed);
  xq::Position pos = xq::parse_fen(fen, xq::Variant::Xiangqi);
  xq::MoveList ml;
  pos.generate_legal(ml);
  if (ml.size == 0) return "";
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return xq::to_iccs(ml.moves[(seed >> 33) % ml.size]);
}

bool legal_in(const std::string& fen, v1::Variant v, const std::string& iccs) {
  xq::Position pos = xq::parse_fen(fen, rules_variant(v));
  xq::MoveList ml;
  pos.generate_legal(ml);
  for (auto m : ml)
    if (xq::to_iccs(m) == iccs.substr(0, 4)) return true;
  return false;
}

// Waits for the MOVE of `side` at ply `ply` and takes its position.
// An end the rules decide (mate, repetition, the move limit, material): a game may end so at any
// move, the guests' too (their little engine knows no history and may check for ever and lose by
// it); a timeout, an abort or a forfeit is the bot's failing.
bool ended_by_the_rules(const std::string& reason) {
  static const std::set<std::string> kRules = {"checkmate",       "stalemate",  "perpetual_check", "perpetual_chase",
                                               "repetition_draw", "move_limit", "dead_material"};
  return kRules.count(reason) > 0;
}

::testing::AssertionResult await_move(TestClient& p, Game& g, v1::Side side, int ms = 8000) {
  const uint32_t ply = g.plies + 1;
  auto e = p.ws->wait_for(
      [&](const ServerMessage& s) {
        return (is_game_event(s, g.gid, v1::GameEvent::MOVE) && s.game_event().side() == side &&
                s.game_event().move().ply() == ply) ||
               is_game_event(s, g.gid, v1::GameEvent::GAME_ENDED);
      },
      ms);
  if (!e) return ::testing::AssertionFailure() << "no move of " << xqbot::side_name(side) << " at ply " << ply;
  if (e->game_event().kind() == v1::GameEvent::GAME_ENDED) {
    g.ended = e->game_event().result().reason();
    if (ended_by_the_rules(g.ended)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "the game ended (" << g.ended << ") at ply " << g.plies;
  }
  if (side != g.me) {
    if (!legal_in(g.fen, g.variant, e->game_event().move().iccs()))
      return ::testing::AssertionFailure() << "the bot played " << e->game_event().move().iccs() << ", illegal in " << g.fen;
    ++g.bot_moves;
  }
  g.fen = e->game_event().fen();
  g.plies = ply;
  g.version = e->game_event().version();
  if (g.fen.empty()) {
    // A move that ends the game comes with GAME_ENDED, which carries the position.
    auto end = p.ws->wait_for([&](const ServerMessage& s) { return is_game_event(s, g.gid, v1::GameEvent::GAME_ENDED); }, ms);
    if (!end) return ::testing::AssertionFailure() << "a move without a position, and no end of the game";
    g.ended = end->game_event().result().reason();
    g.fen = end->game_event().fen();
    if (!ended_by_the_rules(g.ended))
      return ::testing::AssertionFailure() << "the game ended (" << g.ended << ") at ply " << g.plies;
  }
  return ::testing::AssertionSuccess();
}

v1::Side other(v1::Side s) { return s == v1::RED ? v1::BLACK : v1::RED; }

// The guest moves when it is its turn, then the bot must answer; `rounds` of that.
void play_rounds(TestClient& p, Game& g, int rounds) {
  if (xqbot::side_to_move(g.fen) != g.me) ASSERT_TRUE(await_move(p, g, other(g.me)));  // the bot opens
  for (int i = 0; i < rounds && g.ended.empty(); ++i) {
    const std::string mv = pick_move(g.fen, g.variant, g.seed);
    ASSERT_FALSE(mv.empty()) << "no legal move for the guest in " << g.fen;
    auto r = send_move(p, g.gid, mv, "t-" + std::to_string(g.plies + 1));
    ASSERT_TRUE(r.has_reply()) << r.DebugString();
    ASSERT_TRUE(await_move(p, g, g.me));
    if (!g.ended.empty()) return;
    ASSERT_TRUE(await_move(p, g, other(g.me)));
  }
}

Game accept(TestClient& p, const v1::Seek& seek) {
  v1::ClientMessage acc;
  acc.mutable_accept_seek()->set_seek_id(seek.seek_id());
  auto a = p.ws->request(acc);
  EXPECT_TRUE(a.has_reply()) << a.DebugString();
  auto st = p.ws->wait_for([&](const ServerMessage& s) { return s.has_game_started(); }, 5000);
  EXPECT_TRUE(st) << "no game_started";
  return st ? game_from(st->game_started()) : Game{};
}

v1::ServerMessage action(TestClient& p, const std::string& gid, v1::GameAction* (v1::ClientMessage::*field)()) {
  v1::ClientMessage m;
  (m.*field)()->set_game_id(gid);
  return p.ws->request(m);
}

// (1) The lobby shows the bot's seeks, one per variant.
TEST_F(BotTest, LobbyShowsSeeksForBothVariants) {
  TestClient guest = login_guest(srv_->port(), "lobby");
  const v1::Seek x = bot_seek(guest, v1::XIANGQI), j = bot_seek(guest, v1::JIEQI);
  ASSERT_FALSE(x.seek_id().empty()) << "no Xiangqi seek of the bot";
  ASSERT_FALSE(j.seek_id().empty()) << "no Jieqi seek of the bot";
  EXPECT_EQ(x.time_control().initial_ms(), 600'000u);
  EXPECT_EQ(x.time_control().increment_ms(), 5'000u);
  EXPECT_FALSE(x.rated());
}

// (2) A guest takes the Xiangqi seek and plays; the bot answers each move with a legal one.
// (3) Once the game has started, the bot has a Xiangqi seek open again.
TEST_F(BotTest, PlaysXiangqiAndPostsItsSeekAgain) {
  TestClient guest = login_guest(srv_->port(), "player");
  const v1::Seek seek = bot_seek(guest, v1::XIANGQI);
  ASSERT_FALSE(seek.seek_id().empty());
  Game g = accept(guest, seek);
  ASSERT_FALSE(g.gid.empty());
  EXPECT_EQ(g.variant, v1::XIANGQI);

  TestClient lobby = login_guest(srv_->port(), "watcher");
  const v1::Seek again = bot_seek(lobby, v1::XIANGQI, 5000, seek.seek_id());
  EXPECT_FALSE(again.seek_id().empty()) << "the bot did not post a Xiangqi seek again";

  play_rounds(guest, g, 5);
  EXPECT_TRUE(g.bot_moves >= 5 || !g.ended.empty()) << g.bot_moves;
  EXPECT_TRUE(log_says("game start " + g.gid, 1000));
}

// (4) A challenge by name is accepted, and a Jieqi game is played a few moves.
TEST_F(BotTest, AcceptsAChallengeAndPlaysJieqi) {
  TestClient guest = login_guest(srv_->port(), "challenger");
  v1::ClientMessage c;
  c.mutable_challenge()->set_user_name(kBotName);
  c.mutable_challenge()->set_variant(v1::JIEQI);
  c.mutable_challenge()->mutable_time_control()->set_initial_ms(180'000);
  c.mutable_challenge()->mutable_time_control()->set_increment_ms(2'000);
  auto r = guest.ws->request(c);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  auto st = guest.ws->wait_for([](const ServerMessage& s) { return s.has_game_started(); }, 8000);
  ASSERT_TRUE(st) << "the bot did not accept the challenge";
  Game g = game_from(st->game_started());
  EXPECT_EQ(g.variant, v1::JIEQI);
  EXPECT_EQ(st->game_started().time_control().initial_ms(), 180'000u);
  play_rounds(guest, g, 4);
  EXPECT_TRUE(g.bot_moves >= 4 || !g.ended.empty()) << g.bot_moves;
}

// (5) A draw offer is answered (either way), and a resignation ends the game: the bot logs the
// end and goes on (its seek is open again).
TEST_F(BotTest, AnswersADrawOfferAndSurvivesAResignation) {
  TestClient guest = login_guest(srv_->port(), "offerer");
  Game g = accept(guest, bot_seek(guest, v1::XIANGQI));
  ASSERT_FALSE(g.gid.empty());
  play_rounds(guest, g, 1);  // the bot has moved: the guest is to move

  auto offer = action(guest, g.gid, &v1::ClientMessage::mutable_offer_draw);
  ASSERT_TRUE(offer.has_reply()) << offer.DebugString();
  auto answer = guest.ws->wait_for(
      [&](const ServerMessage& s) {
        return (is_game_event(s, g.gid, v1::GameEvent::DRAW_DECLINED) && s.game_event().side() == other(g.me)) ||
               is_game_event(s, g.gid, v1::GameEvent::GAME_ENDED);
      },
      5000);
  ASSERT_TRUE(answer) << "the bot did not answer the draw offer";

  if (answer->game_event().kind() == v1::GameEvent::GAME_ENDED) {  // accepted: resign in a new game
    EXPECT_EQ(answer->game_event().result().reason(), "agreement");
    ASSERT_TRUE(log_says("game end " + g.gid, 3000));
    g = accept(guest, bot_seek(guest, v1::XIANGQI));
    ASSERT_FALSE(g.gid.empty());
  }
  auto res = action(guest, g.gid, &v1::ClientMessage::mutable_resign);
  ASSERT_TRUE(res.has_reply()) << res.DebugString();
  auto ended = guest.ws->wait_for([&](const ServerMessage& s) { return is_game_event(s, g.gid, v1::GameEvent::GAME_ENDED); });
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->game_event().result().reason(), "resignation");
  EXPECT_TRUE(log_says("game end " + g.gid + " " + (g.me == v1::RED ? "black-wins" : "red-wins") + " (resignation)", 3000));
  EXPECT_EQ(log_count("game end " + g.gid), 1u);
  EXPECT_TRUE(bot_.alive());
  TestClient lobby = login_guest(srv_->port(), "after");
  EXPECT_FALSE(bot_seek(lobby, v1::XIANGQI).seek_id().empty()) << "no seek of the bot after the game";
  // And it still plays.
  Game next = accept(lobby, bot_seek(lobby, v1::JIEQI));
  ASSERT_FALSE(next.gid.empty());
  play_rounds(lobby, next, 1);
}

// (6) The gameserver is killed and started again mid-game (same Redis, same port): the bot
// reconnects by itself, resumes the game and answers moves.
TEST_F(BotTest, ResumesItsGameAfterAServerRestart) {
  TestClient guest = login_guest(srv_->port(), "survivor");
  Game g = accept(guest, bot_seek(guest, v1::XIANGQI));
  ASSERT_FALSE(g.gid.empty());
  play_rounds(guest, g, 2);

  srv_->crash_gameserver();
  srv_->start_gameserver();
  reconnect_to(guest, srv_->port());
  v1::ClientMessage sync;
  sync.mutable_sync()->set_game_id(g.gid);
  sync.mutable_sync()->set_last_version(g.version);
  auto r = guest.ws->request(sync, 8000);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  ASSERT_TRUE(log_says("signed in again", 10'000)) << "the bot did not reconnect";

  play_rounds(guest, g, 3);
  EXPECT_TRUE(g.bot_moves >= 5 || !g.ended.empty()) << g.bot_moves;
  EXPECT_TRUE(bot_.alive());
}

// The bot itself is killed mid-game and started again: it finds its game (list_games) and plays on.
TEST_F(BotTest, TakesUpItsGameAfterItsOwnRestart) {
  TestClient guest = login_guest(srv_->port(), "patient");
  Game g = accept(guest, bot_seek(guest, v1::XIANGQI));
  ASSERT_FALSE(g.gid.empty());
  play_rounds(guest, g, 1);
  bot_.kill_hard();
  restart_bot();
  ASSERT_TRUE(log_says("game resumed " + g.gid, 10'000)) << "the bot did not take up its game";
  play_rounds(guest, g, 2);
}

// A takeback proposed in a casual game is granted; the bot then answers the new move.
TEST_F(BotTest, GrantsATakebackInACasualGame) {
  TestClient guest = login_guest(srv_->port(), "regretful");
  Game g = accept(guest, bot_seek(guest, v1::XIANGQI));
  ASSERT_FALSE(g.gid.empty());
  play_rounds(guest, g, 2);
  auto p = action(guest, g.gid, &v1::ClientMessage::mutable_propose_takeback);
  ASSERT_TRUE(p.has_reply()) << p.DebugString();
  auto tb = guest.ws->wait_for([&](const ServerMessage& s) { return is_game_event(s, g.gid, v1::GameEvent::TAKEN_BACK); });
  ASSERT_TRUE(tb) << "the bot did not grant the takeback";
  EXPECT_EQ(tb->game_event().side(), other(g.me));
  EXPECT_EQ(tb->game_event().plies_undone(), 2u);
  g.fen = tb->game_event().fen();
  g.plies -= tb->game_event().plies_undone();
  g.seed += 99;  // another move this time
  play_rounds(guest, g, 2);
}

// A challenge with less than --min-initial-s (60 s by default) on the clock is declined: one
// connection carries all the bot's games, and blitz against many at once would be lost on time.
TEST_F(BotTest, DeclinesChallengesFasterThanItsMinimum) {
  TestClient guest = login_guest(srv_->port(), "hurried");
  v1::ClientMessage c;
  c.mutable_challenge()->set_user_name(kBotName);
  c.mutable_challenge()->set_variant(v1::XIANGQI);
  c.mutable_challenge()->mutable_time_control()->set_initial_ms(30'000);
  auto r = guest.ws->request(c);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  EXPECT_TRUE(log_says("declining the challenge " + r.reply().seek_id() + " of guest-hurried: less than 60 s", 5000));
  EXPECT_FALSE(guest.ws->wait_for([](const ServerMessage& s) { return s.has_game_started(); }, 300));
  c.mutable_challenge()->mutable_time_control()->set_initial_ms(60'000);
  ASSERT_TRUE(guest.ws->request(c).has_reply());
  EXPECT_TRUE(guest.ws->wait_for([](const ServerMessage& s) { return s.has_game_started(); }, 5000)) << "a minute is enough";
}

// At its limit of games the bot keeps no seek open and declines challenges; when a game ends it
// seeks again.
class BotAtOneGameTest : public BotTest {
 protected:
  std::vector<std::string> extra_args() const override { return {"--max-games", "1"}; }
};

TEST_F(BotAtOneGameTest, DeclinesChallengesWhileFull) {
  TestClient player = login_guest(srv_->port(), "first");
  Game g = accept(player, bot_seek(player, v1::XIANGQI));
  ASSERT_FALSE(g.gid.empty());

  TestClient other_guest = login_guest(srv_->port(), "second");
  EXPECT_TRUE(eventually(
      [&] {
        v1::ClientMessage m;
        m.mutable_list_seeks();
        auto r = other_guest.ws->request(m);
        for (const auto& s : r.seeks().seeks())
          if (s.owner().name() == kBotName) return false;
        return true;
      },
      5000))
      << "the bot still seeks while at its limit";

  v1::ClientMessage c;
  c.mutable_challenge()->set_user_name(kBotName);
  c.mutable_challenge()->set_variant(v1::XIANGQI);
  c.mutable_challenge()->mutable_time_control()->set_initial_ms(300'000);
  auto r = other_guest.ws->request(c);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  const std::string challenge = r.reply().seek_id();
  EXPECT_TRUE(log_says("declining the challenge " + challenge, 5000));
  EXPECT_TRUE(eventually(
      [&] {
        v1::ClientMessage m;
        m.mutable_list_seeks();
        auto l = other_guest.ws->request(m);
        for (const auto& s : l.seeks().seeks())
          if (s.seek_id() == challenge) return false;
        return true;
      },
      5000))
      << "the declined challenge is still listed";
  EXPECT_FALSE(other_guest.ws->wait_for([](const ServerMessage& s) { return s.has_game_started(); }, 300));

  auto res = action(player, g.gid, &v1::ClientMessage::mutable_resign);
  ASSERT_TRUE(res.has_reply()) << res.DebugString();
  EXPECT_FALSE(bot_seek(other_guest, v1::XIANGQI).seek_id().empty()) << "no seek after the game ended";
  EXPECT_FALSE(bot_seek(other_guest, v1::JIEQI).seek_id().empty()) << "no seek after the game ended";
}

// Many fast games at once (the bot has one search thread and one connection): each game's search
// shares its time with the searches queued behind it, and the bot sends up to 16 frames a second,
// so none of the games runs the bot's clock down. Eight guests challenge it at 30+0 and answer its
// moves at once, 24 times; with --movetime-ms 300 unshared, each of its moves could cost it up to
// 2.4 s of waiting and searching, and at 8 frames a second 1 s more (it lost all eight of such
// games on time at 12+0).
class BotAtEightGamesTest : public BotTest {
 protected:
  std::vector<std::string> extra_args() const override {
    return {"--movetime-ms", "300", "--max-games", "8", "--seek", "", "--min-initial-s", "10"};
  }
};

TEST_F(BotAtEightGamesTest, ManyFastGamesAtOnceDoNotLoseOnTime) {
  constexpr int kGames = 8, kRounds = 24;
  std::vector<TestClient> guests;
  std::vector<Game> games(kGames);
  for (int i = 0; i < kGames; ++i) guests.push_back(login_guest(srv_->port(), "fast" + std::to_string(i)));
  for (int i = 0; i < kGames; ++i) {
    v1::ClientMessage c;
    c.mutable_challenge()->set_user_name(kBotName);
    c.mutable_challenge()->set_variant(i % 2 ? v1::JIEQI : v1::XIANGQI);
    c.mutable_challenge()->mutable_time_control()->set_initial_ms(30'000);
    ASSERT_TRUE(guests[i].ws->request(c).has_reply());
  }
  for (int i = 0; i < kGames; ++i) {
    auto st = guests[i].ws->wait_for([](const ServerMessage& s) { return s.has_game_started(); }, 10'000);
    ASSERT_TRUE(st) << "the bot did not take challenge " << i;
    games[i] = game_from(st->game_started());
    games[i].seed += i;
  }
  std::vector<std::thread> players;
  std::vector<std::string> failures(kGames);
  for (int i = 0; i < kGames; ++i)
    players.emplace_back([&, i] {
      Game& g = games[i];
      auto fail = [&](const std::string& why) { failures[i] = "game " + std::to_string(i) + ": " + why + " at ply " + std::to_string(g.plies) + " in '" + g.fen + "'"; };
      try {
      if (xqbot::side_to_move(g.fen) != g.me)
        if (auto r = await_move(guests[i], g, other(g.me), 15'000); !r) return fail(r.message());
      for (int k = 0; k < kRounds && g.ended.empty(); ++k) {
        // The guests play a little engine of their own (a random mover is mated too soon to
        // run a clock down), and answer at once.
        xq::engine::Limits quick;
        quick.movetime_ms = 0;
        quick.max_nodes = 2000;
        const std::string mv = xq::engine::choose_move(rules_variant(g.variant), g.fen, {}, quick, g.seed + k).move;
        if (mv.empty()) return;  // mated or stalemated by the bot: fine
        if (!send_move(guests[i], g.gid, mv, "f-" + std::to_string(g.plies + 1)).has_reply()) return fail("move refused");
        if (auto r = await_move(guests[i], g, g.me, 15'000); !r) return fail(r.message());
        if (!g.ended.empty()) return;
        if (auto r = await_move(guests[i], g, other(g.me), 15'000); !r) return fail(r.message());  // a timeout ends it
      }
      } catch (const std::exception& e) {
        fail(e.what());
      }
    });
  for (auto& t : players) t.join();
  for (const auto& f : failures) EXPECT_TRUE(f.empty()) << f;
  EXPECT_EQ(log_count("(timeout), xqbot lost"), 0u) << "the bot lost on time";
}

// An easier opponent (--max-depth): every search stops at that depth, however much time it has;
// the bot's end-of-game line says how deep its searches went.
class BotAtDepthOneTest : public BotTest {
 protected:
  std::vector<std::string> extra_args() const override { return {"--max-depth", "1", "--movetime-ms", "3000"}; }
};

TEST_F(BotAtDepthOneTest, SearchesNoDeeperThanItsLimit) {
  TestClient guest = login_guest(srv_->port(), "beginner");
  Game g = accept(guest, bot_seek(guest, v1::XIANGQI));
  ASSERT_FALSE(g.gid.empty());
  play_rounds(guest, g, 4);
  ASSERT_GE(g.bot_moves, 4) << "ended: " << g.ended;
  ASSERT_TRUE(action(guest, g.gid, &v1::ClientMessage::mutable_resign).has_reply());
  EXPECT_TRUE(log_says("game end " + g.gid, 3000));
  EXPECT_EQ(log_count("game end " + g.gid), 1u);
  EXPECT_EQ(log_count("; searched 1-1 plies deep"), 1u) << bot_log();
}

// With --claim-after-s, an opponent who left is claimed against: the game ends by forfeit.
class BotClaimingTest : public BotTest {
 protected:
  std::vector<std::string> extra_args() const override { return {"--claim-after-s", "1"}; }
};

TEST_F(BotClaimingTest, ClaimsTheGameOfAnOpponentWhoLeft) {
  TestClient guest = login_guest(srv_->port(), "leaver");
  Game g = accept(guest, bot_seek(guest, v1::XIANGQI));
  ASSERT_FALSE(g.gid.empty());
  play_rounds(guest, g, 1);
  guest.ws.reset();  // gone without a word
  EXPECT_TRUE(log_says("game end " + g.gid + " " + (g.me == v1::RED ? "black-wins" : "red-wins") + " (forfeit)", 8000));
}

}  // namespace
