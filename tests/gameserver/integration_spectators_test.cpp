// End-to-end tests of spectators and Jieqi secrecy: watching and unwatching, the follow limit,
// spectator counts, the players' and spectators' chat rooms, hidden identities never leaked.
#include "integration_fixture.h"

// A spectator follows at most --max-followed-games games at once (security review, 2026-12-04:
// one connection watched any number); unwatching one makes room; a player's own game is never
// refused for it.
TEST(GameServerLimits, ASpectatorFollowsAtMostTheGamesAllowed) {
  TestServers::Options o;
  o.gameserver_args = {"--max-followed-games", "2"};
  TestServers own(o);
  std::vector<TestClient> players;
  std::vector<std::string> games;
  for (int i = 0; i < 3; ++i) {
    players.push_back(login_guest(own.port(), "fw_red" + std::to_string(i)));
    players.push_back(login_guest(own.port(), "fw_black" + std::to_string(i)));
    games.push_back(start_game(players[2 * i], players[2 * i + 1]));
  }
  TestClient fan = login_guest(own.port(), "fw_fan");
  auto watch = [](TestClient& p, const std::string& gid) {
    ClientMessage m;
    m.mutable_watch_game()->set_game_id(gid);
    return p.ws->request(m);
  };
  EXPECT_TRUE(watch(fan, games[0]).has_reply());
  EXPECT_TRUE(watch(fan, games[1]).has_reply());
  EXPECT_TRUE(watch(fan, games[1]).has_reply()) << "a game already followed is no new one";
  const ServerMessage refused = watch(fan, games[2]);
  EXPECT_EQ(error_of(refused), BAD_REQUEST);
  EXPECT_EQ(refused.error().message(), "watching too many games at once (at most 2): unwatch_game one first");
  ClientMessage sync;
  sync.mutable_sync()->set_game_id(games[2]);
  EXPECT_EQ(error_of(fan.ws->request(sync)), BAD_REQUEST) << "a sync follows too";
  ClientMessage unwatch;
  unwatch.mutable_unwatch_game()->set_game_id(games[0]);
  ASSERT_TRUE(fan.ws->request(unwatch).has_reply());
  EXPECT_TRUE(watch(fan, games[2]).has_reply());
  // Red of game 0 on a second connection watches games 1 and 2: its own game still syncs there.
  TestClient& red0 = players[0];
  reconnect_to(red0, own.port());
  EXPECT_TRUE(watch(red0, games[1]).has_reply());
  EXPECT_TRUE(watch(red0, games[2]).has_reply());
  ClientMessage own_sync;
  own_sync.mutable_sync()->set_game_id(games[0]);
  const ServerMessage mine = red0.ws->request(own_sync);
  EXPECT_FALSE(mine.has_error()) << mine.DebugString();
}

// A game followed to its end no longer counts (review, 2026-12-04: 64 watched games that ended,
// or 64 games played on one connection, left a spectator unable to watch anything until it
// reconnected): neither while it lingers in memory nor after.
TEST(GameServerLimits, GamesThatEndedNoLongerCountAgainstTheFollowLimit) {
  TestServers::Options o;
  o.gameserver_args = {"--max-followed-games", "1", "--finished-linger-ms", "300"};
  TestServers own(o);
  std::vector<TestClient> players;
  std::vector<std::string> games;
  for (int i = 0; i < 3; ++i) {
    players.push_back(login_guest(own.port(), "fe_red" + std::to_string(i)));
    players.push_back(login_guest(own.port(), "fe_black" + std::to_string(i)));
    games.push_back(start_game(players[2 * i], players[2 * i + 1]));
  }
  TestClient fan = login_guest(own.port(), "fe_fan");
  auto watch = [&](const std::string& gid) {
    ClientMessage m;
    m.mutable_watch_game()->set_game_id(gid);
    return fan.ws->request(m);
  };
  auto resign = [&](TestClient& p, const std::string& gid) {
    ClientMessage m;
    m.mutable_resign()->set_game_id(gid);
    ASSERT_FALSE(p.ws->request(m).has_error());
    ASSERT_TRUE(fan.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); }, 3000));
  };
  ASSERT_TRUE(watch(games[0]).has_reply());
  EXPECT_EQ(error_of(watch(games[1])), BAD_REQUEST) << "one game at most";
  resign(players[0], games[0]);
  EXPECT_TRUE(watch(games[1]).has_reply()) << "the game that ended (still in memory) no longer counts";
  resign(players[2], games[1]);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // both games leave memory
  EXPECT_TRUE(watch(games[2]).has_reply()) << "nor once it has left memory";
}

// How many people watch a game: each spectator's user once (two tabs are one person), in the
// state a watcher gets and in every live event; one who leaves counts no more.
TEST_F(GameServer, SpectatorsAreCountedOncePerPerson) {
  Client red = guest("sc_red"), black = guest("sc_black");
  const std::string gid = start_game(red, black);
  // The players hear of each change of the count at once (Presence with side SIDE_NONE).
  auto watching_told = [&](Client& player) {
    auto p = player.ws->wait_for([&](const ServerMessage& s) {
      return s.has_presence() && s.presence().game_id() == gid && s.presence().side() == SIDE_NONE;
    });
    return p ? static_cast<int>(p->presence().spectators()) : -1;
  };
  Client fan = spectator("sc_fan", gid);
  auto state_of = [&](Client& c) {
    auto st = c.ws->wait_for([&](const ServerMessage& s) { return s.has_game_state() && s.game_state().game_id() == gid; });
    return st ? st->game_state() : GameState{};
  };
  EXPECT_EQ(state_of(fan).spectators(), 1u);
  EXPECT_EQ(watching_told(red), 1);
  EXPECT_EQ(watching_told(black), 1);
  Client other = spectator("sc_other", gid);
  EXPECT_EQ(state_of(other).spectators(), 2u);
  EXPECT_EQ(watching_told(red), 2);
  Client fan_again{std::make_unique<WsClient>(g_servers->port()), fan.token, fan.user_id, fan.name};
  ClientMessage hello;
  hello.mutable_hello()->set_token(fan.token);
  ASSERT_TRUE(fan_again.ws->request(hello).has_reply());
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  ASSERT_TRUE(fan_again.ws->request(watch).has_reply());
  EXPECT_EQ(state_of(fan_again).spectators(), 2u) << "a second tab of one spectator";
  // The game lists say so too (the lobby's list_games and GET /api/games).
  ClientMessage list;
  list.mutable_list_games()->set_limit(500);
  const ServerMessage listed = red.ws->request(list);
  uint32_t listed_count = 99;
  for (const auto& g : listed.games().games())
    if (g.game_id() == gid) listed_count = g.spectators();
  EXPECT_EQ(listed_count, 2u);
  std::string body;
  ASSERT_EQ(g_servers->http_get("/api/games?limit=500", body), 200);
  const boost::json::value page = boost::json::parse(body);
  int64_t api_count = 99;
  for (const auto& g : page.at("games").as_array())
    if (g.at("id").as_string() == gid) api_count = g.at("spectators").to_number<int64_t>();
  EXPECT_EQ(api_count, 2);

  ASSERT_TRUE(move(red, gid, "h2e2").has_reply());
  auto ev = wait_event(fan, gid, GameEvent::MOVE);
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->game_event().spectators(), 2u);
  other.ws.reset();  // leaves
  EXPECT_EQ(watching_told(red), 1) << "a spectator who leaves is counted out at once";
  ASSERT_TRUE(move(black, gid, "h9g7").has_reply());
  ev = red.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 2; });
  ASSERT_TRUE(ev);
  EXPECT_EQ(ev->game_event().spectators(), 1u) << "the players see the count too";
}

// ---------------------------------------------------------------------------------------------
// Jieqi secrecy: decode every frame a spectator and each player receive and check that no hidden
// identity appears before the end (the checks: jieqi_audit.h).

TEST_F(GameServer, JieqiGameNeverLeaksHiddenIdentities) {
  Client red = guest("jq_red"), black = guest("jq_black"), fan = guest("jq_fan");
  std::string gid = start_game(red, black, JIEQI);
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  ASSERT_TRUE(fan.ws->request(watch).has_reply());

  std::string fen, commitment, live_record;
  uint64_t seed = 12345, version = 0;
  bool over = false;
  int played = 0;
  for (int ply = 0; ply < 40 && !over; ++ply) {
    Client& p = ply % 2 == 0 ? red : black;
    if (ply == 10) ASSERT_EQ(g_servers->http_get("/api/games/" + gid, live_record), 200);
    if (version == 0) {
      fen = xq::kJieqiStartFen;
    } else {  // each side moves from its own view of the position
      auto ev = p.ws->wait_for([&](const ServerMessage& s) {
        return s.has_game_event() && s.game_event().game_id() == gid && s.game_event().version() == version;
      });
      ASSERT_TRUE(ev);
      fen = ev->game_event().fen();
    }
    const std::string iccs = pick_jieqi_move(fen, seed);
    ASSERT_FALSE(iccs.empty());
    auto r = move(p, gid, iccs, "j" + std::to_string(ply));
    ASSERT_TRUE(r.has_reply()) << iccs << " " << r.DebugString();
    version = r.reply().version();
    ++played;
    auto last = p.ws->wait_for([&](const ServerMessage& s) {
      return s.has_game_event() && s.game_event().game_id() == gid && s.game_event().version() == version;
    });
    ASSERT_TRUE(last);
    // A game end is sent right after the move that caused it.
    over = p.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::GAME_ENDED); }, 20).has_value();
  }
  if (!over) ASSERT_TRUE(action(red, gid, "resign").has_reply());
  for (Client* p : {&red, &black, &fan})
    if (!p->ws->history().empty()) {
      bool seen = false;
      for (const auto& f : p->ws->history()) seen = seen || is_event(f, gid, GameEvent::GAME_ENDED);
      if (!seen) ASSERT_TRUE(wait_event(*p, gid, GameEvent::GAME_ENDED)) << p->name;
    }

  // The end reveals the secret, and it matches the commitment published at the start.
  std::string assignment, salt;
  for (const auto& f : fan.ws->history())
    if (f.has_game_event() && f.game_event().kind() == GameEvent::GAME_ENDED) {
      assignment = f.game_event().result().assignment();
      salt = f.game_event().result().salt();
    }
  for (const auto& f : red.ws->history())
    if (f.has_game_started()) commitment = f.game_started().commitment();
  ASSERT_EQ(assignment.size(), 30u);
  ASSERT_FALSE(salt.empty());
  EXPECT_TRUE(xq::verify_commitment(commitment, assignment, salt));
  if (!live_record.empty()) {  // the HTTP record of a live game holds no secret either
    EXPECT_EQ(live_record.find(assignment), std::string::npos);
    EXPECT_EQ(live_record.find(salt), std::string::npos);
  }

  std::string reason;
  for (const auto& f : fan.ws->history())
    if (is_event(f, gid, GameEvent::GAME_ENDED)) reason = f.game_event().result().reason();
  SCOPED_TRACE("the game ended after " + std::to_string(played) + " plies: " + reason);
  audit(fan.ws->history(), gid, SIDE_NONE, assignment, salt, std::min(11, played - 1));
  audit(red.ws->history(), gid, RED, assignment, salt, std::min(11, played - 1));
  audit(black.ws->history(), gid, BLACK, assignment, salt, std::min(11, played - 1));
}

// Naming a face-down piece's identity in a move (the capture suffix) tells a player nothing: every
// letter gets the same answer. The server once compared the letter with its secret before the move
// was found legal ("the captured piece is not a N"), so a player asked letter by letter from an
// empty square and learnt all 30 identities without moving.
TEST_F(GameServer, NamingAFaceDownPieceInAMoveRevealsNothing) {
  Client red = guest("jq_asker"), black = guest("jq_other");
  const std::string gid = start_game(red, black, JIEQI);
  int n = 0;
  for (const char* squares : {"e5b9", "e5a0", "e4h7"}) {  // a black, a red and a black face-down piece
    const bool red_piece = std::string(squares).substr(2) == "a0";  // its letters are upper case
    std::set<std::string> answers;
    for (char l : std::string("rnbacp")) {
      const char named = red_piece ? static_cast<char>(std::toupper(l)) : l;
      auto r = move(red, gid, std::string(squares) + named, "ask-" + std::to_string(n++));
      ASSERT_TRUE(r.has_error()) << r.DebugString();
      const std::string& m = r.error().message();
      answers.insert(std::to_string(r.error().code()) + m.substr(std::min(m.find(':'), m.size())));
    }
    EXPECT_EQ(answers.size(), 1u) << squares << ": " << *answers.begin() << " / " << *answers.rbegin();
  }
}

// The game's chat: the players' room reaches the two players only, the spectators' room the
// spectators only; bad lines and floods are refused with a code; a newcomer gets the room's lines.
TEST_F(GameServer, ChatRoomsKeepPlayersAndSpectatorsApart) {
  Client red = guest("chat_red"), black = guest("chat_black");
  const std::string gid = start_game(red, black);
  Client fan = spectator("chat_fan", gid);
  auto say = [&](Client& who, const std::string& text) { return send_chat(who, gid, text); };
  auto line_for = [](Client& who, const std::string& text, int ms = 3000) { return chat_line(who, text, ms); };

  ASSERT_TRUE(say(red, "good luck").has_reply());
  for (Client* p : {&red, &black}) {
    auto l = line_for(*p, "good luck");
    ASSERT_TRUE(l) << p->name;
    EXPECT_EQ(l->chat().game_id(), gid);
    EXPECT_EQ(l->chat().room(), xq::v1::ChatLine::PLAYERS);
    EXPECT_EQ(l->chat().from().user_id(), red.user_id);
    EXPECT_EQ(l->chat().from().name(), red.name);
    EXPECT_GT(l->chat().at_ms(), 0u);
  }
  ASSERT_TRUE(say(fan, "red is winning").has_reply());
  auto seen = line_for(fan, "red is winning");
  ASSERT_TRUE(seen);
  EXPECT_EQ(seen->chat().room(), xq::v1::ChatLine::SPECTATORS);
  EXPECT_FALSE(line_for(red, "red is winning", 300)) << "a spectator's line reached a player";
  EXPECT_FALSE(line_for(black, "red is winning", 100));
  EXPECT_FALSE(line_for(fan, "good luck", 100)) << "the players' line reached a spectator";

  // Refused lines: their code, nobody hears them.
  EXPECT_EQ(error_of(say(black, "two\nlines")), BAD_REQUEST);
  EXPECT_EQ(error_of(say(black, "   ")), BAD_REQUEST);
  EXPECT_EQ(error_of(say(black, std::string(201, 'x'))), BAD_REQUEST);
  Client stranger = guest("chat_stranger");
  EXPECT_EQ(error_of(say(stranger, "hello?")), BAD_REQUEST) << "only a watcher writes in a game's chat";
  EXPECT_EQ(error_of(send_chat(stranger, "no-such-game", "hi")), UNKNOWN_GAME);
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(say(black, "gl " + std::to_string(i)).has_reply()) << i;
  const auto flood = say(black, "gl 4");
  ASSERT_TRUE(flood.has_reply()) << "five lines in ten seconds are fine: " << flood.DebugString();
  EXPECT_EQ(error_of(say(black, "gl 5")), xq::v1::CHAT_NOT_ALLOWED) << "the sixth is not";
  EXPECT_FALSE(line_for(red, "gl 5", 300));

  // A spectator arriving later is shown the spectators' lines, and only those.
  Client late = guest("chat_late");
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  ASSERT_TRUE(late.ws->request(watch).has_reply());
  EXPECT_TRUE(line_for(late, "red is winning"));
  EXPECT_FALSE(line_for(late, "good luck", 200));
  // A player coming back (a new connection, sync) is shown the players' lines, with their numbers.
  reconnect(red);
  // Before its sync it may already write (review, 2026-12-05: "watch the game first" to a player).
  ASSERT_TRUE(say(red, "back again").has_reply());
  EXPECT_TRUE(line_for(black, "back again"));
  ClientMessage sync;
  sync.mutable_sync()->set_game_id(gid);
  ASSERT_TRUE(red.ws->request(sync).has_reply());
  auto again = line_for(red, "good luck");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->chat().seq(), 1u);
  EXPECT_FALSE(line_for(red, "red is winning", 200));

  // A moderator reads both rooms as stored (admin credential only).
  std::string body;
  EXPECT_EQ(g_servers->http_get("/api/admin/games/" + gid + "/chat", body), 401);
  ASSERT_EQ(g_servers->http_get("/api/admin/games/" + gid + "/chat", body, TestServers::kAdminToken), 200);
  const auto stored = boost::json::parse(body);
  std::vector<std::string> texts;
  for (const auto& l : stored.at("lines").as_array()) texts.emplace_back(l.at("text").as_string());
  const std::vector<std::string> want = {"good luck", "red is winning", "gl 0", "gl 1", "gl 2", "gl 3", "gl 4", "back again"};
  EXPECT_EQ(texts, want) << body;
  EXPECT_EQ(stored.at("lines").as_array()[1].at("room").as_string(), "spectators");

  // The chat stays open after the end while the game is in memory (a "good game"); it closes
  // when the game leaves memory (FinishedGameLeavesMemoryAndIsServedFromRedis).
  ASSERT_TRUE(action(black, gid, "resign").has_reply());
  ASSERT_TRUE(wait_event(red, gid, GameEvent::GAME_ENDED));
  ASSERT_TRUE(say(red, "gg").has_reply());
  EXPECT_TRUE(line_for(black, "gg"));
  EXPECT_FALSE(line_for(fan, "gg", 200)) << "still the players' room";
}

TEST_F(GameServer, UnwatchStopsASpectatorsEvents) {
  Client red = guest("uw_red"), black = guest("uw_black"), fan = guest("uw_fan");
  std::string gid = start_game(red, black);
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  ASSERT_TRUE(fan.ws->request(watch).has_reply());
  ASSERT_TRUE(move(red, gid, "h2e2").has_reply());
  ASSERT_TRUE(wait_event(fan, gid, GameEvent::MOVE));
  ASSERT_TRUE(action(fan, gid, "unwatch").has_reply());
  ASSERT_TRUE(move(black, gid, "h9g7").has_reply());
  EXPECT_FALSE(wait_event(fan, gid, GameEvent::MOVE, 400)) << "no events after unwatching";
  // A player may not unwatch their own game: unsubscribed, they would count as gone and the
  // opponent could claim the game while they sit there.
  EXPECT_EQ(error_of(action(red, gid, "unwatch")), BAD_REQUEST);
  EXPECT_FALSE(black.ws->wait_for([&](const ServerMessage& s) { return s.has_presence() && s.presence().side() == RED; }, 400))
      << "Red still counts as present";
  ASSERT_TRUE(move(red, gid, "b0c2").has_reply());
  EXPECT_TRUE(black.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 3; }));
  EXPECT_TRUE(red.ws->wait_for([&](const ServerMessage& s) { return is_event(s, gid, GameEvent::MOVE) && s.game_event().version() == 3; }))
      << "and Red still gets the game's events";
}

// A connection that signs in as someone else keeps none of the games it followed as the first user:
// they were rendered for that user (in Jieqi a player learns what a spectator may not).
TEST_F(GameServer, SigningInAsSomeoneElseDropsTheOldUsersGames) {
  Client red = guest("re_red"), black = guest("re_black");
  const std::string gid = start_game(red, black, JIEQI);
  Client twin;  // a second connection of Red's, following the game as Red
  twin.ws = std::make_unique<WsClient>(g_servers->port());
  ClientMessage hello;
  hello.mutable_hello()->set_token(red.token);
  ASSERT_TRUE(twin.ws->request(hello).has_reply());
  ClientMessage sync;
  sync.mutable_sync()->set_game_id(gid);
  ASSERT_TRUE(twin.ws->request(sync).has_reply());
  ClientMessage other;
  other.mutable_login_guest()->set_name("re_other");
  ASSERT_TRUE(twin.ws->request(other).has_reply());
  ASSERT_TRUE(move(red, gid, "h2h9").has_reply());  // a face-down cannon takes a face-down piece: Red learns it
  ASSERT_TRUE(wait_event(red, gid, GameEvent::MOVE));
  EXPECT_FALSE(wait_event(twin, gid, GameEvent::MOVE, 500)) << "the new user gets nothing rendered for Red";
  // Watching again, it is a spectator: no captured identity.
  ClientMessage watch;
  watch.mutable_watch_game()->set_game_id(gid);
  ASSERT_TRUE(twin.ws->request(watch).has_reply());
  auto st = twin.ws->wait_for([&](const ServerMessage& s) { return s.has_game_state() && s.game_state().game_id() == gid; });
  ASSERT_TRUE(st);
  EXPECT_EQ(st->game_state().you(), SIDE_NONE);
  ASSERT_EQ(st->game_state().captured_size(), 1);
  EXPECT_TRUE(st->game_state().captured(0).was_dark());
  EXPECT_EQ(st->game_state().captured(0).type(), "") << "a spectator does not learn the captured face-down piece";
}

// Unwatching while the players move fast: once the answer to unwatch_game arrives, no event of
// the game follows it (until the spectator watches again).
TEST_F(GameServer, NoEventFollowsTheAnswerToUnwatch) {
  Client red = guest("uwr_red"), black = guest("uwr_black"), fan = guest("uwr_fan");
  const std::string gid = start_game(red, black);
  static const char* const kLine[] = {"b2c2", "h9i7", "h2h6", "g6g5", "i0i1", "i7h9", "h6c6", "g9e7", "i1a1", "h7h2",
                                      "a1h1", "h2f2", "h1h6", "h9g7", "c0a2", "b7b5", "h6h8", "b5c5", "h8h3", "a9a8",
                                      "c2c5", "e7g9", "c5c4", "i9h9", "c4c9", "e9e8", "h3h8", "h9h8", "h0g2", "h8h3",
                                      "g0e2", "h3h6", "e2c0", "g7h5", "d0e1", "h6h9", "a0a1", "i6i5", "g3g4", "e8d8"};
  std::atomic<bool> done{false};
  std::thread players([&] {
    try {
      for (size_t i = 0; i < std::size(kLine); ++i) {
        move(i % 2 == 0 ? red : black, gid, kLine[i]);
        std::this_thread::sleep_for(std::chrono::milliseconds(i % 3 == 0 ? 25 : 5));  // moves while the fan comes and goes
      }
    } catch (...) {
    }
    done = true;
  });
  std::set<uint64_t> unwatch_ids;
  for (int i = 0; i < 18 && !done; ++i) {  // 36 frames: within the burst of --rate
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ClientMessage watch;
    watch.mutable_watch_game()->set_game_id(gid);
    fan.ws->request(watch);
    ClientMessage unwatch;
    unwatch.mutable_unwatch_game()->set_game_id(gid);
    const ServerMessage r = fan.ws->request(unwatch);
    EXPECT_TRUE(r.has_reply()) << r.DebugString();
    unwatch_ids.insert(r.request_id());
  }
  players.join();
  // The spectator's frames in order: watching from each game_state, not after an unwatch answer.
  bool watching = false;
  int stray = 0, unwatched = 0;
  for (const auto& f : fan.ws->history()) {
    if (f.has_game_state() && f.game_state().game_id() == gid) watching = true;
    if (f.has_reply() && unwatch_ids.count(f.request_id())) watching = false, ++unwatched;
    if (f.has_game_event() && f.game_event().game_id() == gid && !watching) ++stray;
  }
  EXPECT_GT(unwatched, 5);
  EXPECT_EQ(stray, 0) << "events after the answer to unwatch_game";
}
