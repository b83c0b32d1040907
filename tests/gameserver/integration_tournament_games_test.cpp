// End-to-end tests of games the tournament matchmaker schedules (the xq:games:create stream):
// spectator delay, the first-move deadline (and outside tournaments), the event's rule options.
#include "game/codec.h"
#include "integration_fixture.h"

// Asks for a game as the matchmaker does (the xq:games:create stream): `extra` adds to the spec of
// a 10-minute Xiangqi game between red and black. Returns Red's game_started, if it came.
static std::optional<ServerMessage> schedule_game(Client& red, Client& black, const std::string& id,
                                                  const boost::json::object& extra) {
  boost::json::object spec{{"game_id", id}, {"variant", "xiangqi"}, {"initial_ms", 600000},
                           {"red", boost::json::object{{"user_id", red.user_id}, {"name", red.name}}},
                           {"black", boost::json::object{{"user_id", black.user_id}, {"name", black.name}}}};
  for (const auto& [k, v] : extra) spec[k] = v;
  gs::Redis redis(g_servers->redis_url());
  redis.command({"XADD", "{xq}:games:create", "*", "game_id", id, "body", boost::json::serialize(spec)});
  return red.ws->wait_for([](const ServerMessage& s) { return s.has_game_started(); }, 5000);
}

// Tournament broadcast delay: a game requested by the matchmaker with spectator_delay_ms shows
// spectators every move that much later (players are not delayed), and its HTTP record waits
// for the end.
TEST_F(GameServer, TournamentSpectatorsSeeMovesLate) {
  Client red = guest("dl_red"), black = guest("dl_black"), fan = guest("dl_fan");
  auto started = schedule_game(red, black, "delay-test-1",
                               {{"event_id", "ev-delay"}, {"round", 3}, {"board", 2}, {"spectator_delay_ms", 1500}});
  ASSERT_TRUE(started) << "the game server did not take the matchmaker's request";
  const std::string gid = started->game_started().game_id();
  EXPECT_EQ(gid, "delay-test-1");
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  ASSERT_TRUE(fan.ws->request(watch).has_reply());
  ASSERT_TRUE(move(red, gid, "h2e2").has_reply());
  EXPECT_TRUE(wait_event(black, gid, GameEvent::MOVE, 1000)) << "players are not delayed";
  EXPECT_FALSE(wait_event(fan, gid, GameEvent::MOVE, 700)) << "the spectator must not see the move yet";
  std::string body;
  EXPECT_EQ(g_servers->http_get("/api/games/" + gid, body), 403) << body;
  EXPECT_EQ(g_servers->http_get("/api/games/" + gid + "/pgn", body), 403) << body;
  // Nor do the game lists tell its progress, except to the admin.
  auto listed = [&](const std::string& path, const std::string& token) {
    std::string b;
    EXPECT_EQ(g_servers->http_get(path, b, token), 200) << b;
    const boost::json::value v = boost::json::parse(b);
    for (const auto& g : v.at("games").as_array())
      if (g.at("id").as_string() == gid) return g.as_object();
    ADD_FAILURE() << gid << " not listed in " << path;
    return boost::json::object{};
  };
  const boost::json::object shown = listed("/api/games", ""), admin_view = listed("/api/admin/games", TestServers::kAdminToken);
  EXPECT_EQ(shown.at("plies").to_number<int64_t>(), 0);
  EXPECT_EQ(shown.at("running").as_string(), "");
  EXPECT_TRUE(shown.at("delayed").as_bool());
  EXPECT_EQ(admin_view.at("plies").to_number<int64_t>(), 1);
  // Both lists name the event, round and board (an arbiter looks for "round 3, board 2").
  for (const auto* g : {&shown, &admin_view}) {
    EXPECT_EQ(g->at("event_id").as_string(), "ev-delay");
    EXPECT_EQ(g->at("round").to_number<int64_t>(), 3);
    EXPECT_EQ(g->at("board").to_number<int64_t>(), 2);
    EXPECT_EQ(g->at("pool").as_string(), "");
  }
  ClientMessage games;
  games.mutable_list_games();
  const ServerMessage listed_games = fan.ws->request(games);
  for (const auto& g : listed_games.games().games())
    if (g.game_id() == gid) EXPECT_EQ(g.plies(), 0u) << "list_games hides the progress too";
  auto late = wait_event(fan, gid, GameEvent::MOVE, 3000);
  ASSERT_TRUE(late) << "the spectator sees the move after the delay";
  EXPECT_EQ(late->game_event().move().iccs(), "h2e2");
  // A spectator arriving now sees the position as it stood 1.5 s ago: after h2e2, before h9g7.
  ASSERT_TRUE(move(black, gid, "h9g7").has_reply());
  Client late_fan = guest("dl_late");
  auto st = late_fan.ws->request(watch);
  ASSERT_TRUE(st.has_reply());
  EXPECT_EQ(st.reply().version(), 1u);
  auto state = late_fan.ws->wait_for([](const ServerMessage& s) { return s.has_game_state(); }, 1000);
  ASSERT_TRUE(state);
  EXPECT_EQ(state->game_state().moves_size(), 1);
  EXPECT_TRUE(wait_event(late_fan, gid, GameEvent::MOVE, 3000)) << "then h9g7 arrives late";
  // Tournament games cannot be aborted.
  EXPECT_EQ(error_of(action(red, gid, "abort")), ABORT_NOT_ALLOWED);
}

// A spectator of a delayed game that watches again (or syncs) on the same connection gets each
// move once: the frames queued for its first watch are dropped, the second sends them anew
// (security review: every delayed event came twice).
TEST_F(GameServer, ADelayedSpectatorWatchingTwiceGetsEachMoveOnce) {
  Client red = guest("dl2_red"), black = guest("dl2_black"), fan = guest("dl2_fan");
  auto started = schedule_game(red, black, "delay-test-2", {{"event_id", "ev-delay-2"}, {"spectator_delay_ms", 800}});
  ASSERT_TRUE(started) << "the game server did not take the matchmaker's request";
  const std::string gid = started->game_started().game_id();
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  ASSERT_TRUE(fan.ws->request(watch).has_reply());
  ASSERT_TRUE(move(red, gid, "h2e2").has_reply());
  ASSERT_TRUE(fan.ws->request(watch).has_reply()) << "watched again before the move is shown";
  ClientMessage sync;
  sync.mutable_sync()->set_game_id(gid);
  sync.mutable_sync()->set_last_version(0);
  ASSERT_TRUE(fan.ws->request(sync).has_reply()) << "and synced";
  auto first = wait_event(fan, gid, GameEvent::MOVE, 3000);
  ASSERT_TRUE(first) << "the move is shown after the delay";
  EXPECT_EQ(first->game_event().move().iccs(), "h2e2");
  EXPECT_FALSE(wait_event(fan, gid, GameEvent::MOVE, 1500)) << "and only once";
}

// A tournament game tells each viewer, until both sides have moved, how long the side to move has
// left to make its first move before the no-show forfeit (relative, so no clock needs to agree).
TEST_F(GameServer, TournamentGamesTellTheFirstMoveDeadline) {
  Client red = guest("fm_red"), black = guest("fm_black"), fan = guest("fm_fan");
  constexpr int64_t kNoShowMs = 600000;
  auto started = schedule_game(red, black, "first-move-due-1",
                               {{"event_id", "ev-first-move"}, {"initial_ms", 900000}, {"no_show_ms", kNoShowMs}});
  ASSERT_TRUE(started) << "the game server did not take the matchmaker's request";
  const std::string gid = started->game_started().game_id();
  EXPECT_GT(started->game_started().first_move_due_in_ms(), kNoShowMs - 10000);
  EXPECT_LE(started->game_started().first_move_due_in_ms(), kNoShowMs);
  auto due_for = [&](Client& c) -> int64_t {
    ClientMessage watch;
    watch.mutable_watch_game()->set_game_id(gid);
    EXPECT_TRUE(c.ws->request(watch).has_reply());
    auto st = c.ws->wait_for([&](const ServerMessage& s) { return s.has_game_state() && s.game_state().game_id() == gid; }, 2000);
    return st ? st->game_state().first_move_due_in_ms() : -1;
  };
  ASSERT_TRUE(move(red, gid, "h2e2").has_reply());
  const int64_t after_red = due_for(fan);
  EXPECT_GT(after_red, kNoShowMs - 10000) << "Black's first move is still due";
  EXPECT_LE(after_red, started->game_started().first_move_due_in_ms());
  ASSERT_TRUE(move(black, gid, "h9g7").has_reply());
  EXPECT_EQ(due_for(fan), 0) << "both have moved: no deadline any more";
  EXPECT_FALSE(started->game_started().first_move_aborts()) << "a tournament game is forfeited, not aborted";
  // A casual game has the server's first-move time (30 s by default), after which it is aborted.
  const std::string casual = start_game(red, black);
  ASSERT_FALSE(casual.empty());
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(casual);
  ASSERT_TRUE(fan.ws->request(watch).has_reply());
  auto st = fan.ws->wait_for([&](const ServerMessage& s) { return s.has_game_state() && s.game_state().game_id() == casual; }, 2000);
  ASSERT_TRUE(st);
  EXPECT_GT(st->game_state().first_move_due_in_ms(), 20'000u);
  EXPECT_LE(st->game_state().first_move_due_in_ms(), 30'000u);
  EXPECT_TRUE(st->game_state().first_move_aborts());
}

// Outside tournaments a side that has not made its first move in time aborts the game: Red's time
// runs from the start, Black's from Red's first move; once both have moved only the clocks count.
TEST(FirstMoveDeadline, ASideThatDoesNotMakeItsFirstMoveAbortsTheGame) {
  constexpr int kFirstMoveMs = 1000;
  TestServers srv(TestServers::Options{.gameserver_args = {"--first-move-ms", std::to_string(kFirstMoveMs)}});
  Client red = login_guest(srv.port(), "fmd_red"), black = login_guest(srv.port(), "fmd_black"),
         fan = login_guest(srv.port(), "fmd_fan");
  auto ended = [&](Client& c, const std::string& gid, int ms) {
    return c.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); }, ms);
  };
  {  // Red never moves
    const std::string gid = start_game(red, black);
    ClientMessage watch;
    watch.mutable_watch_game()->set_game_id(gid);
    ASSERT_TRUE(fan.ws->request(watch).has_reply());
    auto st = fan.ws->wait_for([&](const ServerMessage& s) { return s.has_game_state() && s.game_state().game_id() == gid; }, 2000);
    ASSERT_TRUE(st);
    EXPECT_GT(st->game_state().first_move_due_in_ms(), 0u);
    EXPECT_LE(st->game_state().first_move_due_in_ms(), static_cast<uint32_t>(kFirstMoveMs));
    EXPECT_TRUE(st->game_state().first_move_aborts());
    for (Client* c : {&red, &black, &fan}) {
      auto end = ended(*c, gid, 5000);
      ASSERT_TRUE(end) << c->name << ": the game was not aborted";
      EXPECT_EQ(end->game_event().result().outcome(), ABORTED);
      EXPECT_EQ(end->game_event().result().reason(), "abort");
      EXPECT_EQ(end->game_event().side(), RED) << "the event names the side that did not move";
    }
    EXPECT_EQ(error_of(move(red, gid, "h2e2")), GAME_OVER);
  }
  {  // Red moves at once, Black never does: Black's time runs from Red's move
    const std::string gid = start_game(red, black);
    ASSERT_TRUE(move(red, gid, "h2e2").has_reply());
    const ServerMessage claim = action(red, gid, "claim_victory");
    EXPECT_EQ(error_of(claim), CLAIM_NOT_ALLOWED) << "no claim while a first move is due: the game is aborted instead";
    EXPECT_NE(claim.error().message().find("first move"), std::string::npos) << claim.DebugString();
    EXPECT_FALSE(ended(black, gid, kFirstMoveMs / 2)) << "Black has its own time";
    auto end = ended(black, gid, 5000);
    ASSERT_TRUE(end) << "Black's missing first move did not abort the game";
    EXPECT_EQ(end->game_event().result().outcome(), ABORTED);
    EXPECT_EQ(end->game_event().side(), BLACK);
  }
  {  // an abort by hand names who aborted; other ends name nobody
    const std::string gid = start_game(red, black);
    ASSERT_TRUE(move(red, gid, "h2e2").has_reply());
    ASSERT_TRUE(action(black, gid, "abort").has_reply());
    auto end = ended(red, gid, 2000);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->game_event().side(), BLACK);
    const std::string gid2 = start_game(red, black);
    ASSERT_TRUE(action(red, gid2, "resign").has_reply());
    auto resigned = ended(black, gid2, 2000);
    ASSERT_TRUE(resigned);
    EXPECT_EQ(resigned->game_event().side(), SIDE_NONE);
  }
  {  // both move: the game goes on past the deadline
    const std::string gid = start_game(red, black);
    ASSERT_TRUE(move(red, gid, "h2e2").has_reply());
    ASSERT_TRUE(move(black, gid, "h9g7").has_reply());
    EXPECT_FALSE(ended(red, gid, kFirstMoveMs * 2)) << "both have moved";
    ASSERT_TRUE(move(red, gid, "h0g2").has_reply());
  }
}

// A game the matchmaker requests carries the event's rule options into the game.
TEST_F(GameServer, ScheduledGamesTakeTheEventsRuleOptions) {
  Client red = guest("sro_red"), black = guest("sro_black");
  auto started = schedule_game(red, black, "rule-options-1",
                               {{"event_id", "ev-rules"}, {"variant", "jieqi"}, {"repetitions", 4},
                                {"pawns_advisors_elephants_free", true}});
  ASSERT_TRUE(started) << "the game server did not take the matchmaker's request";
  EXPECT_EQ(started->game_started().rule_options().repetitions(), 4u);
  EXPECT_TRUE(started->game_started().rule_options().pawns_advisors_elephants_free());
}

// A player banned as the matchmaker paired them (the ban crossed the round's pairing): the game
// server ends the game it is asked for at once, lost by the banned player, rather than leaving the
// opponent to wait out the no-show time (review, 2026-12-05).
TEST_F(GameServer, AnEventGameOfABannedPlayerEndsAtItsCreation) {
  Client red = guest("bn_red"), black = guest("bn_black");
  gs::Redis redis(g_servers->redis_url());
  redis.command({"SADD", gs::keys::kBanned, black.user_id});  // the ban's list, black's page left open
  auto started = schedule_game(red, black, "banned-pair-1", {{"event_id", "ev-ban"}, {"round", 1}, {"board", 1}, {"no_show_ms", 600000}});
  ASSERT_TRUE(started) << "the game is made (the event's result comes from it)";
  auto over = wait_event(red, "banned-pair-1", GameEvent::GAME_ENDED, 3000);
  redis.command({"SREM", gs::keys::kBanned, black.user_id});
  ASSERT_TRUE(over) << "the game ends without waiting for the no-show time";
  EXPECT_EQ(over->game_event().result().outcome(), RED_WINS);
  EXPECT_EQ(over->game_event().result().reason(), "banned");
}

// A first move that reaches an event game the moment it exists (its player sent it at once) is
// charged from the game's start: the start is queued before any other thread can find the game.
// Before, a move that came in between ran on a clock never started and was charged the hours since
// the clock's origin, losing on time at once (seen in the seed events' test under load).
TEST_F(GameServer, AFirstMoveSentAsTheEventGameIsMadeIsChargedFromItsStart) {
  Client red = guest("fa_red"), black = guest("fa_black");
  gs::Redis redis(g_servers->redis_url());
  for (int i = 0; i < 20; ++i) {
    const std::string gid = "first-at-once-" + std::to_string(i);
    const boost::json::object spec{{"game_id", gid}, {"variant", "xiangqi"}, {"initial_ms", 600000}, {"event_id", "ev-at-once"},
                                   {"red", boost::json::object{{"user_id", red.user_id}, {"name", red.name}}},
                                   {"black", boost::json::object{{"user_id", black.user_id}, {"name", black.name}}}};
    redis.command({"XADD", "{xq}:games:create", "*", "game_id", gid, "body", boost::json::serialize(spec)});
    ServerMessage r;
    for (int tries = 0; tries < 20000; ++tries) {  // the same client move id: played once
      r = move(red, gid, "h2e2", "at-once");
      if (r.has_error() && r.error().code() == RATE_LIMITED) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      else if (!r.has_error() || r.error().code() != UNKNOWN_GAME) break;
    }
    ASSERT_TRUE(r.has_reply()) << gid << ": " << r.DebugString();
    // The HTTP record follows the acknowledgement (it is rebuilt once the actor is done with it).
    std::string body;
    ASSERT_TRUE(eventually([&] {
      return g_servers->http_get("/api/games/" + gid, body) == 200 && !boost::json::parse(body).at("moves").as_array().empty();
    }, 3000)) << body;
    const auto record = boost::json::parse(body);
    const auto& first = record.at("moves").as_array().at(0);
    EXPECT_GT(first.at("red_ms").to_number<int64_t>(), 600000 - 10000) << gid << ": " << body;
    EXPECT_EQ(record.at("result").as_string(), "ongoing") << body;
  }
}

// An event game the matchmaker decided while its request still waited in the stream (a player
// disqualified at the round's start: the organiser's action found no game to end, and kept the
// decision for its creation, as the event API does): the game ends so as it is made, instead of
// being played as if nothing had happened (review, 2026-12-05).
TEST_F(GameServer, AnEventGameDecidedBeforeItsCreationEndsAsItIsMade) {
  Client red = guest("dc_red"), black = guest("dc_black");
  gs::Redis redis(g_servers->redis_url());
  redis.command({"SET", gs::keys::game_decided("decided-early-1"), R"({"outcome":"black-wins","reason":"disqualified"})"});
  auto started = schedule_game(red, black, "decided-early-1", {{"event_id", "ev-dq"}, {"round", 1}, {"board", 1}, {"no_show_ms", 600000}});
  ASSERT_TRUE(started) << "the game is made (the event's result comes from it)";
  auto over = wait_event(red, "decided-early-1", GameEvent::GAME_ENDED, 3000);
  ASSERT_TRUE(over) << "the game ends at once";
  EXPECT_EQ(over->game_event().result().outcome(), BLACK_WINS);
  EXPECT_EQ(over->game_event().result().reason(), "disqualified");
}

// A creation cut short (the node stored the game's config and died before the game went live) is
// finished by the request that comes again, with the stored config but its times from now: an hour
// later, the stored creation time would have ended the game by no-show before anyone could move.
TEST_F(GameServer, ACreationCutShortIsFinishedWithItsTimesCountedFromNow) {
  Client red = guest("cs_red"), black = guest("cs_black");
  gs::GameConfig stored;
  stored.id = "cut-short-1";
  stored.variant = xq::Variant::Xiangqi;
  stored.tc = {600000, 0};
  stored.red = {red.user_id, red.name};
  stored.black = {black.user_id, black.name};
  stored.event_id = "ev-cut-short";
  stored.no_show_ms = 600000;
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  stored.created_at_ms = now - 3600'000;
  gs::Redis redis(g_servers->redis_url());
  redis.command({"SET", gs::keys::game_meta(stored.id), gs::encode_config(stored)});
  auto started = schedule_game(red, black, stored.id, {{"event_id", "ev-cut-short"}, {"no_show_ms", 600000}});
  ASSERT_TRUE(started) << "the request finishes the creation";
  EXPECT_FALSE(wait_event(red, stored.id, GameEvent::GAME_ENDED, 1000)) << "no no-show before anyone could move";
  std::string body;
  ASSERT_EQ(g_servers->http_get("/api/games/" + stored.id, body), 200) << body;
  const auto record = boost::json::parse(body);
  EXPECT_EQ(record.at("result").as_string(), "ongoing") << body;
  EXPECT_GE(record.at("created_at_ms").to_number<int64_t>(), now - 60'000) << body;
  EXPECT_GT(started->game_started().first_move_due_in_ms(), 600000 - 60'000);
  ASSERT_TRUE(move(red, stored.id, "h2e2").has_reply());
}
