// End-to-end tests of the lobby: challenges, seeks and their rule options, pools, seek-list pushes,
// limits per client address.
#include "integration_fixture.h"

// Crossing challenges (both players press Rematch at once, then both Accept) start one game: the
// first accept makes the other challenge void, and it leaves the lists (web review, 2026-12-03:
// two games started between the same two players).
TEST_F(GameServer, CrossingChallengesStartOneGame) {
  Client ann = guest("cross_ann"), ben = guest("cross_ben");
  const std::string from_ann = challenge(ann, ben.name), from_ben = challenge(ben, ann.name);
  ClientMessage acc;
  acc.mutable_accept_seek()->set_seek_id(from_ben);
  const ServerMessage first = ann.ws->request(acc);
  ASSERT_TRUE(first.has_reply()) << first.DebugString();
  acc.mutable_accept_seek()->set_seek_id(from_ann);
  const ServerMessage second = ben.ws->request(acc);
  EXPECT_EQ(error_of(second), UNKNOWN_SEEK) << second.DebugString();
  EXPECT_NE(second.error().message().find("void"), std::string::npos) << second.error().message();
  ClientMessage list;
  list.mutable_list_seeks();
  for (Client* p : {&ann, &ben})
    for (const auto& sk : p->ws->request(list).seeks().seeks())
      EXPECT_TRUE(sk.seek_id() != from_ann && sk.seek_id() != from_ben) << p->name << " still sees " << sk.seek_id();
  // A later challenge between the two is a new one: it starts a game (the game above is still on:
  // a second game at once is the players' choice, as with any challenge).
  const std::string again = challenge(ann, ben.name);
  acc.mutable_accept_seek()->set_seek_id(again);
  EXPECT_TRUE(ben.ws->request(acc).has_reply());
}

// New accounts per client address and hour (--registrations-per-hour); the address behind a
// trusted proxy is the one its X-Forwarded-For names, and an untrusted peer's header is ignored.
// One client address holds at most --max-connections-per-address WebSocket connections (security
// review, 2026-12-04: one host opened every socket a node had and locked everyone else out). More
// are refused with 429 and a reason; other addresses, and the host's own loopback, are not held
// back; a closed connection frees its place.
TEST(GameServerLimits, ConnectionsFromOneAddressAreCapped) {
  TestServers::Options o;
  o.gameserver_args = {"--max-connections-per-address", "3"};
  TestServers own(o);
  std::vector<std::unique_ptr<WsClient>> held;
  for (int i = 0; i < 3; ++i) held.push_back(std::make_unique<WsClient>(own.port(), "203.0.113.9"));
  EXPECT_THROW(WsClient(own.port(), "203.0.113.9"), std::exception) << "a fourth from the same address";
  // The refusal says why.
  std::string body;
  const std::string upgrade =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Forwarded-For: 203.0.113.9\r\n\r\n";
  EXPECT_EQ(http_raw(own.port(), upgrade, body), 429);
  EXPECT_NE(body.find("too_many_connections"), std::string::npos) << body;
  EXPECT_NE(body.find("at most 3"), std::string::npos) << body;
  // An IPv6 host counts by its /64: another address of the same /64 is the same host.
  std::vector<std::unique_ptr<WsClient>> v6;
  for (int i = 1; i <= 3; ++i) v6.push_back(std::make_unique<WsClient>(own.port(), "2001:db8:1:2::" + std::to_string(i)));
  EXPECT_THROW(WsClient(own.port(), "2001:db8:1:2::ff"), std::exception);
  // Others still come in and play: another address, and loopback (the host itself) beyond 3.
  Client other = login_guest(own.port(), "cap_other");
  std::vector<std::unique_ptr<WsClient>> local;
  for (int i = 0; i < 5; ++i) local.push_back(std::make_unique<WsClient>(own.port()));
  WsClient elsewhere(own.port(), "198.51.100.20");
  ClientMessage ping;
  ping.mutable_ping();
  EXPECT_FALSE(elsewhere.request(ping).has_error());
  EXPECT_FALSE(other.ws->request(ping).has_error());
  std::string metrics;
  own.http_get("/metrics", metrics);
  EXPECT_NE(metrics.find("xq_connections_refused_per_address_total 3"), std::string::npos);
  // A closed connection gives its place back.
  held.pop_back();
  bool back = false;
  for (int i = 0; i < 50 && !back; ++i) {
    try {
      WsClient again(own.port(), "203.0.113.9");
      back = true;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  EXPECT_TRUE(back) << "the place of a closed connection is free again";
}

// Open seeks per client address (--max-seeks-per-address; security review, 2026-12-04: guests
// from one address filled the lobby's 200 listed seeks). Guests of one address share the limit,
// another address and the host's own loopback do not; a cancelled seek gives its place back.
TEST(GameServerLimits, SeeksFromOneAddressAreCapped) {
  TestServers::Options o;
  o.gameserver_args = {"--max-seeks-per-address", "3"};
  TestServers own(o);
  auto guest_from = [&](const std::string& address, const std::string& name) {
    TestClient p;
    p.ws = std::make_unique<WsClient>(own.port(), address);
    ClientMessage m;
    m.mutable_login_guest()->set_name(name);
    const ServerMessage r = p.ws->request(m);
    EXPECT_TRUE(r.has_reply()) << r.DebugString();
    p.user_id = r.reply().user().user_id();
    return p;
  };
  auto seek = [](TestClient& p, uint32_t initial_ms) {
    ClientMessage m;
    m.mutable_create_seek()->set_variant(XIANGQI);
    m.mutable_create_seek()->mutable_time_control()->set_initial_ms(initial_ms);
    return p.ws->request(m);
  };
  TestClient a = guest_from("203.0.113.30", "flood_a"), b = guest_from("203.0.113.30", "flood_b");
  ASSERT_TRUE(seek(a, 60'000).has_reply());
  ASSERT_TRUE(seek(a, 61'000).has_reply());
  const ServerMessage third = seek(b, 62'000);
  ASSERT_TRUE(third.has_reply()) << third.DebugString();
  const ServerMessage fourth = seek(b, 63'000);
  EXPECT_EQ(error_of(fourth), BAD_REQUEST);
  EXPECT_EQ(fourth.error().message(), "too many open seeks from your address (at most 3)");
  // A challenge is a seek too.
  TestClient other = guest_from("198.51.100.30", "flood_other");
  ClientMessage ch;
  ch.mutable_challenge()->set_user_name("guest-flood_other");
  ch.mutable_challenge()->mutable_time_control()->set_initial_ms(60'000);
  EXPECT_EQ(error_of(a.ws->request(ch)), BAD_REQUEST);
  // Others are not held back: another address, the host itself.
  EXPECT_TRUE(seek(other, 60'000).has_reply());
  TestClient local = login_guest(own.port(), "flood_local");
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(seek(local, 60'000 + 1000 * i).has_reply()) << i;
  // Cancelled: the place is free again.
  ClientMessage cancel;
  cancel.mutable_cancel_seek()->set_seek_id(third.reply().seek_id());
  ASSERT_TRUE(b.ws->request(cancel).has_reply());
  EXPECT_TRUE(seek(b, 63'000).has_reply());
}

// Bad values a lobby request must not get through with (security review, 2026-12-04): a Xiangqi
// seek with a Jieqi-only option other than its default, a challenge to a name no player could have
// (refused without echoing it).
TEST_F(GameServer, LobbyRequestsWithOptionsOrNamesThatMeanNothingAreRefused) {
  TestClient p = guest("odd_lobby");
  ClientMessage seek;
  seek.mutable_create_seek()->set_variant(XIANGQI);
  seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(60'000);
  seek.mutable_create_seek()->set_capture_visibility("both");
  const ServerMessage refused = p.ws->request(seek);
  EXPECT_EQ(error_of(refused), BAD_REQUEST);
  EXPECT_EQ(refused.error().message(), "capture_visibility is a Jieqi rule");
  seek.mutable_create_seek()->set_capture_visibility("capturer");  // what a Xiangqi game's state names: a rematch sends it
  const ServerMessage ok = p.ws->request(seek);
  ASSERT_TRUE(ok.has_reply()) << ok.DebugString();
  // One's own seek is not "no such seek" (review, 2026-12-05): it says whose it is.
  ClientMessage accept_own;
  accept_own.mutable_accept_seek()->set_seek_id(ok.reply().seek_id());
  const ServerMessage own = p.ws->request(accept_own);
  EXPECT_EQ(error_of(own), BAD_REQUEST) << own.DebugString();
  EXPECT_NE(own.error().message().find("your own seek"), std::string::npos) << own.DebugString();
  seek.mutable_create_seek()->set_variant(JIEQI);
  seek.mutable_create_seek()->set_capture_visibility("both");
  EXPECT_TRUE(p.ws->request(seek).has_reply());
  ClientMessage ch;
  ch.mutable_challenge()->mutable_time_control()->set_initial_ms(60'000);
  for (const std::string& name : {std::string("a\0b", 3), std::string("line\nbreak"), std::string("\xE2\x80\xAE" "evil"), std::string(129, 'a')}) {
    ch.mutable_challenge()->set_user_name(name);
    const ServerMessage r = p.ws->request(ch);
    EXPECT_EQ(error_of(r), BAD_REQUEST) << r.DebugString();
    EXPECT_EQ(r.error().message(), "user_name: not a player's name");
  }
  ch.mutable_challenge()->set_user_name("nobody_here");
  const ServerMessage away = p.ws->request(ch);
  EXPECT_EQ(error_of(away), USER_NOT_ONLINE);
  EXPECT_NE(away.error().message().find("nobody_here"), std::string::npos) << "a plain name is still named";
  // A guest of 20 Chinese characters, the second of that name with its suffix: 71 bytes, a name the
  // server gives, so one it can be challenged by (review, 2026-12-04: refused over 64 bytes).
  std::string chinese;
  for (int i = 0; i < 5; ++i) chinese += "楚河漢界";
  Client first = guest(chinese), second = guest(chinese);
  ASSERT_GT(second.name.size(), 64u) << second.name;
  ch.mutable_challenge()->set_user_name(second.name);
  const ServerMessage challenged = p.ws->request(ch);
  EXPECT_TRUE(challenged.has_reply()) << challenged.DebugString();
}

// A seek's rule options (docs/adjudication.md "Options for clubs") reach the lobby, the game
// state and the game's rules; options that do not fit the variant are refused.
TEST_F(GameServer, SeekRuleOptionsGoverningTheGame) {
  Client red = guest("ro_red"), black = guest("ro_black");
  ClientMessage seek = red_seek();
  seek.mutable_create_seek()->mutable_rule_options()->set_pawns_advisors_elephants_free(true);
  EXPECT_EQ(error_of(red.ws->request(seek)), BAD_REQUEST);  // a Jieqi rule
  seek.mutable_create_seek()->mutable_rule_options()->set_pawns_advisors_elephants_free(false);
  seek.mutable_create_seek()->mutable_rule_options()->set_repetitions(13);
  EXPECT_EQ(error_of(red.ws->request(seek)), BAD_REQUEST);
  // Judge at the second occurrence: a knight out and back on both sides repeats the start.
  seek.mutable_create_seek()->mutable_rule_options()->set_repetitions(2);
  auto r = red.ws->request(seek);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  ClientMessage list;
  list.mutable_list_seeks();
  auto listed = black.ws->request(list);
  bool seen = false;
  for (const auto& sk : listed.seeks().seeks())
    if (sk.seek_id() == r.reply().seek_id()) seen = sk.rule_options().repetitions() == 2;
  EXPECT_TRUE(seen) << listed.DebugString();
  const std::string gid = accept_and_start(red, black, r.reply().seek_id());
  ASSERT_FALSE(gid.empty());
  Client watcher = spectator("ro_watcher", gid);
  auto st = watcher.ws->wait_for([](const ServerMessage& s) { return s.has_game_state(); });
  ASSERT_TRUE(st);
  EXPECT_EQ(st->game_state().rule_options().repetitions(), 2u);
  const char* moves[] = {"h0g2", "h9g7", "g2h0", "g7h9"};
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(move(i % 2 ? black : red, gid, moves[i]).has_reply()) << moves[i];
  auto end = wait_event(red, gid, GameEvent::GAME_ENDED);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->game_event().result().outcome(), DRAW);
  EXPECT_EQ(end->game_event().result().reason(), "repetition_draw");
  // The stored record keeps the options (a node that reloads the game judges it alike).
  std::string body;
  ASSERT_TRUE(eventually([&] { return g_servers->http_get("/api/games/" + gid, body) == 200; }, 5000));
  EXPECT_NE(body.find("\"repetitions\":2"), std::string::npos) << body;
  ASSERT_EQ(g_servers->http_get("/api/games/" + gid + "/pgn", body), 200);
  EXPECT_NE(body.find("[Repetitions \"2\"]"), std::string::npos) << body;
}

// Lobby requests run on a worker pool (Hub::route): clients that sign in, open a seek and are gone
// before those requests ran leave no seek behind and are not online after their close.
TEST_F(GameServer, ClientsGoneBeforeTheirLobbyRequestsRanLeaveNoSeek) {
  for (int i = 0; i < 30; ++i) {
    WsClient c(g_servers->port());
    ClientMessage login;
    login.set_request_id(1);
    login.mutable_login_guest()->set_name("gone" + std::to_string(i));
    ClientMessage seek;
    seek.set_request_id(2);
    seek.mutable_create_seek()->set_variant(XIANGQI);
    seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(300'000);
    c.send(login);
    c.send(seek);
  }  // each closes at once
  Client watcher = guest("lobby_watcher");
  ClientMessage list;
  list.mutable_list_seeks();
  auto orphans = [&] {
    int n = 0;
    const ServerMessage listed = watcher.ws->request(list);  // kept: the loop reads into it
    for (const auto& sk : listed.seeks().seeks()) n += sk.owner().name().find("gone") != std::string::npos;
    return n;
  };
  // A seek may show for the moment between its store and its owner's clean-up (both on the lobby
  // pool, its re-check in store_seek); once the pools have drained (milliseconds; up to two
  // seconds under a loaded CI) none is left, and none comes back.
  bool drained = false;
  for (int i = 0; i < 40 && !drained; ++i) {
    drained = orphans() == 0;
    if (!drained) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(drained) << "a seek outlived its owner's only connection";
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(orphans(), 0) << "a seek came back after its owner's connection closed";
  }
  // Nor are they online: a direct challenge to any of them is refused.
  for (int i = 0; i < 30; ++i) {
    ClientMessage ch;
    ch.mutable_challenge()->set_user_name("guest-gone" + std::to_string(i));
    ch.mutable_challenge()->set_variant(XIANGQI);
    ch.mutable_challenge()->mutable_time_control()->set_initial_ms(300'000);
    EXPECT_EQ(error_of(watcher.ws->request(ch)), USER_NOT_ONLINE) << "guest-gone" << i << " still counts as online";
  }
}

// One live game at a time from seeks (review, 2026-12-04): two players accepting two seeks of one
// player at the same moment (the lobby pool has two threads) gave it two games; one accept wins,
// the other seek is gone with it. A few rounds, as it is a race.
TEST_F(GameServer, TwoAcceptsAtOnceOfOnePlayersSeeksStartOneGame) {
  for (int round = 0; round < 4; ++round) {
    const std::string r = std::to_string(round);
    Client p = guest("dup_p" + r), x = guest("dup_x" + r), y = guest("dup_y" + r);
    std::string ids[2];
    for (int i = 0; i < 2; ++i) {
      ClientMessage seek;
      seek.mutable_create_seek()->set_variant(XIANGQI);
      seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(300'000 + 60'000 * i);
      const ServerMessage made = p.ws->request(seek);
      ASSERT_TRUE(made.has_reply()) << made.DebugString();
      ids[i] = made.reply().seek_id();
    }
    ServerMessage answers[2];
    std::thread takers[2];
    Client* who[2] = {&x, &y};
    for (int i = 0; i < 2; ++i)
      takers[i] = std::thread([&, i] {
        ClientMessage accept;
        accept.mutable_accept_seek()->set_seek_id(ids[i]);
        answers[i] = who[i]->ws->request(accept);
      });
    for (auto& t : takers) t.join();
    EXPECT_EQ(answers[0].has_reply() + answers[1].has_reply(), 1) << answers[0].DebugString() << answers[1].DebugString();
    for (const ServerMessage& a : answers)
      if (!a.has_reply()) EXPECT_EQ(error_of(a), UNKNOWN_SEEK) << a.DebugString();
  }
}

// Quick pairing starts a game now: a player still in a live game is refused (R1 review: a pool
// paired the two players of a live game with each other again); once the game is over, the
// request goes on to the matchmaker (none runs here: 503).
TEST_F(GameServer, APlayerInALiveGameIsNotPairedFromAPool) {
  Client red = guest("pool_red"), black = guest("pool_black");
  const std::string gid = start_game(red, black);
  std::string body;
  EXPECT_EQ(g_servers->http_post("/api/pools/xiangqi/300000+0/join", "{}", body, red.token), 409) << body;
  EXPECT_NE(body.find("finish your game first"), std::string::npos) << body;
  EXPECT_NE(body.find("\"in_live_game\""), std::string::npos) << "a code of its own, not an event's bad_state: " << body;
  EXPECT_EQ(g_servers->http_post("/api/pools/xiangqi/300000+0/join", "{}", body, black.token), 409) << body;
  ASSERT_TRUE(action(red, gid, "resign").has_reply());
  ASSERT_TRUE(wait_event(black, gid, GameEvent::GAME_ENDED));
  EXPECT_EQ(g_servers->http_post("/api/pools/xiangqi/300000+0/join", "{}", body, red.token), 503) << body;
}

// A pool's time control is two plain numbers: "60000+0+5" and "060000+0" were taken and made
// pools of their own, where nobody waiting for 60000+0 would meet their players.
TEST_F(GameServer, PoolTimeControlsAreTwoPlainNumbers) {
  Client p = guest("pool_tc");
  std::string body;
  for (const char* tc : {"60000+0+5", "060000+0", "60000+00", "+0", "60000+", "60000", "6e4+0", "60000+-1", "60000+%2B1"}) {
    const std::string path = std::string("/api/pools/xiangqi/") + tc + "/join";
    EXPECT_EQ(g_servers->http_post(path, "{}", body, p.token), 400) << path << ": " << body;
    EXPECT_NE(body.find("pool path"), std::string::npos) << path << ": " << body;
  }
  // A plain one passes the check (and, with no matchmaker running here, is told so).
  EXPECT_EQ(g_servers->http_post("/api/pools/xiangqi/60000+0/join", "{}", body, p.token), 503) << body;
}

// Seek-list pushes: coalesced (the first change goes out at once, the rest of a burst in one push
// after --seek-push-interval-ms), never sent to a connection playing a live game, and sent to the
// players again when their game ends.
TEST(GameServerLobby, SeekPushesAreCoalescedAndSkipPlayersInLiveGames) {
  TestServers srv(TestServers::Options{.gameserver_args = {"--seek-push-interval-ms", "1500"}});
  Client red = login_guest(srv.port(), "sp_red"), black = login_guest(srv.port(), "sp_black");
  Client lobby = login_guest(srv.port(), "sp_lobby"), seeker = login_guest(srv.port(), "sp_seeker");
  for (Client* c : {&red, &black, &lobby}) {  // they show a lobby, so pushes reach them
    ClientMessage list;
    list.mutable_list_seeks();
    ASSERT_TRUE(c->ws->request(list).has_seeks());
  }
  g_servers = &srv;  // start_game() and friends use it
  struct Reset {
    ~Reset() { g_servers = nullptr; }
  } reset;
  const std::string gid = start_game(red, black);
  ASSERT_FALSE(gid.empty());
  // Let the pushes of the game's own seek settle, then count from here.
  std::this_thread::sleep_for(std::chrono::milliseconds(1700));
  auto seek_lists = [](Client& c, size_t from) {
    drain(c, 50);
    std::vector<ServerMessage> lists;
    for (size_t i = from; i < c.ws->history().size(); ++i)
      if (c.ws->history()[i].has_seeks() && c.ws->history()[i].request_id() == 0) lists.push_back(c.ws->history()[i]);
    return lists;
  };
  for (Client* c : {&lobby, &red, &black}) drain(*c, 50);
  const size_t lobby_from = lobby.ws->history().size(), red_from = red.ws->history().size(),
               black_from = black.ws->history().size();

  constexpr int kSeeks = 5;
  open_seeks(seeker, kSeeks);
  if (HasFatalFailure()) return;
  auto full = lobby.ws->wait_for([&](const ServerMessage& s) { return s.has_seeks() && s.request_id() == 0 && s.seeks().seeks_size() == kSeeks; }, 4000);
  ASSERT_TRUE(full) << "the lobby gets the whole list";
  EXPECT_EQ(full->seeks().total(), static_cast<uint32_t>(kSeeks));
  auto pushed = seek_lists(lobby, lobby_from);
  // Five changes within 1.5 s: one or two pushes (two if the burst straddles a push).
  EXPECT_GE(pushed.size(), 1u);
  EXPECT_LT(pushed.size(), static_cast<size_t>(kSeeks)) << "changes in a burst are coalesced";
  EXPECT_TRUE(seek_lists(red, red_from).empty()) << "a player in a live game gets no seek lists";
  EXPECT_TRUE(seek_lists(black, black_from).empty());

  ASSERT_TRUE(action(red, gid, "resign").has_reply());
  for (Client* p : {&red, &black}) {
    auto list = p->ws->wait_for([&](const ServerMessage& s) { return s.has_seeks() && s.request_id() == 0; }, 3000);
    ASSERT_TRUE(list) << p->name << " gets the list when the game ends";
    EXPECT_EQ(list->seeks().seeks_size(), kSeeks);
  }
}

// Seek-list pushes go to lobby watchers (connections that asked for the list) and to users with an
// open challenge, not to every signed-in connection: with thousands signed in, the pushes cost more
// than the games.
TEST(GameServerLobby, SeekPushesGoToLobbyWatchersAndChallengedUsers) {
  TestServers srv;
  Client watcher = login_guest(srv.port(), "lw_watcher"), quiet = login_guest(srv.port(), "lw_quiet");
  Client seeker = login_guest(srv.port(), "lw_seeker");
  ClientMessage list;
  list.mutable_list_seeks();
  ASSERT_TRUE(watcher.ws->request(list).has_seeks());
  auto pushed_list = [](Client& c, int ms) {
    return c.ws->wait_for([](const ServerMessage& s) { return s.has_seeks() && s.request_id() == 0; }, ms);
  };
  ClientMessage seek;
  seek.mutable_create_seek()->set_variant(XIANGQI);
  seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(300'000);
  ASSERT_TRUE(seeker.ws->request(seek).has_reply());
  ASSERT_TRUE(pushed_list(watcher, 3000)) << "the lobby watcher gets the change";
  EXPECT_FALSE(pushed_list(quiet, 1000)) << "a connection that never asked for the list gets no push";

  ClientMessage ch;  // a challenge reaches its user without a lobby
  ch.mutable_challenge()->set_user_name(quiet.name);
  ch.mutable_challenge()->set_variant(XIANGQI);
  ch.mutable_challenge()->mutable_time_control()->set_initial_ms(300'000);
  auto r = seeker.ws->request(ch);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  const std::string challenge_id = r.reply().seek_id();
  auto got = quiet.ws->wait_for([&](const ServerMessage& s) {
    if (!s.has_seeks() || s.request_id() != 0) return false;
    for (const auto& k : s.seeks().seeks())
      if (k.seek_id() == challenge_id) return true;
    return false;
  }, 3000);
  ASSERT_TRUE(got) << "the challenged user gets the list with the challenge";
  EXPECT_EQ(got->seeks().total(), 2u) << "the public seek and the challenge";

  ClientMessage cancel;  // the challenge withdrawn: the quiet connection is told, then left alone
  cancel.mutable_cancel_seek()->set_seek_id(challenge_id);
  ASSERT_TRUE(seeker.ws->request(cancel).has_reply());
  ASSERT_TRUE(pushed_list(watcher, 3000));
  const auto withdrawn = pushed_list(quiet, 3000);
  ASSERT_TRUE(withdrawn) << "the challenged user learns that the challenge went";
  for (const auto& k : withdrawn->seeks().seeks()) EXPECT_NE(k.seek_id(), challenge_id);
  drain(quiet, 300);
  ASSERT_TRUE(seeker.ws->request(seek).has_reply());
  ASSERT_TRUE(pushed_list(watcher, 3000));
  EXPECT_FALSE(pushed_list(quiet, 1000));

  ASSERT_TRUE(quiet.ws->request(list).has_seeks());  // now it shows a lobby too
  ASSERT_TRUE(seeker.ws->request(seek).has_reply());
  EXPECT_TRUE(pushed_list(quiet, 3000)) << "asking for the list makes a connection a lobby watcher";
}
