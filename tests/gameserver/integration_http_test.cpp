// End-to-end tests of the HTTP API: paths, methods (405, 426), malformed requests (400), paging,
// credentials in headers, static files, metrics, trailing slashes, %-escapes.
#include "integration_fixture.h"

// The node's counters: with --metrics-token, GET /metrics answers only that token (a scraper's
// credential that opens nothing else) or the admin token; /api/admin/metrics, the dashboard's copy
// (which a reverse proxy passes on where it keeps /metrics from the public), needs the admin.
TEST(GameServerLimits, MetricsTokenGuardsTheScrapeAndTheDashboardCopyNeedsTheAdmin) {
  const std::string scrape = "scrape-token-0123456789";
  TestServers own(TestServers::Options{.gameserver_args = {"--metrics-token", scrape}});
  std::string body, headers;
  EXPECT_EQ(http_request(own.port(), "GET", "/metrics", body, "", "", &headers), 401);
  EXPECT_NE(headers.find("WWW-Authenticate: Bearer"), std::string::npos) << headers;
  EXPECT_NE(body.find("metrics credential required"), std::string::npos) << body;
  EXPECT_EQ(own.http_get("/metrics", body, scrape + "x"), 401);
  ASSERT_EQ(own.http_get("/metrics", body, scrape), 200);
  EXPECT_NE(body.find("xq_moves_total"), std::string::npos) << body;
  EXPECT_EQ(own.http_get("/metrics", body, TestServers::kAdminToken), 200);

  Client player = login_guest(own.port(), "mt_player");
  EXPECT_EQ(own.http_get("/api/admin/metrics", body), 401);
  EXPECT_EQ(own.http_get("/api/admin/metrics", body, scrape), 401) << "the scrape token is no admin credential";
  EXPECT_EQ(own.http_get("/api/admin/metrics", body, player.token), 403);
  ASSERT_EQ(own.http_get("/api/admin/metrics", body, TestServers::kAdminToken), 200);
  EXPECT_NE(body.find("xq_connections"), std::string::npos) << body;
}

// Static files come only from inside the web directory: not from a sibling whose name starts
// like it (a target without its leading '/'), not through a symlink out of it, and a directory
// is no file.
TEST_F(GameServer, StaticFilesOnlyFromInsideTheWebDirectory) {
  namespace fs = std::filesystem;
  const std::string dir = g_servers->dir();
  std::ofstream(dir + "/hello.txt") << "hello";
  fs::create_directories(dir + "-private");
  std::ofstream(dir + "-private/secret.txt") << "SECRET";
  fs::create_directories(dir + "/sub");
  std::error_code ec;
  fs::create_symlink(dir + "-private/secret.txt", dir + "/link.txt", ec);
  ASSERT_FALSE(ec) << ec.message();
  std::string body, headers;
  EXPECT_EQ(http_request(g_servers->port(), "GET", "/hello.txt", body, "", "", &headers), 200);
  EXPECT_EQ(body, "hello");
  for (const char* h : {"X-Content-Type-Options: nosniff", "X-Frame-Options: DENY", "frame-ancestors 'none'", "script-src 'self'"})
    EXPECT_NE(headers.find(h), std::string::npos) << "no other site frames the pages or sniffs types: " << headers;
  EXPECT_EQ(headers.find("no-store"), std::string::npos) << "the client's files may be cached: " << headers;
  // The API's answers are kept by no cache (security review, 2026-12-04).
  EXPECT_EQ(http_request(g_servers->port(), "GET", "/api/games", body, "", "", &headers), 200);
  EXPECT_NE(headers.find("Cache-Control: no-store"), std::string::npos) << headers;
  EXPECT_EQ(http_request(g_servers->port(), "HEAD", "/hello.txt", body, "", "", &headers), 200);
  EXPECT_TRUE(body.empty());
  EXPECT_NE(headers.find("Content-Length: 5"), std::string::npos) << "HEAD says how long the GET would be: " << headers;
  for (const char* target : {"-private/secret.txt", "/link.txt", "/sub", "/sub/"}) {
    EXPECT_NE(g_servers->http_get(target, body), 200) << target;
    EXPECT_EQ(body.find("SECRET"), std::string::npos) << target;
  }
  fs::remove_all(dir + "-private");
}

// Game lists come in pages, newest first, with the total count (a lobby polls them every few
// seconds: all live games in every answer would not scale).
TEST_F(GameServer, GameListsArePagedNewestFirst) {
  std::vector<std::string> gids;
  std::vector<Client> players;
  for (int i = 0; i < 3; ++i) {
    players.push_back(guest("pg_red" + std::to_string(i)));
    players.push_back(guest("pg_black" + std::to_string(i)));
    gids.push_back(start_game(players[players.size() - 2], players.back()));
    ASSERT_FALSE(gids.back().empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // distinct creation times
  }
  ClientMessage list;
  list.mutable_list_games()->set_limit(2);
  auto page = players[0].ws->request(list);
  ASSERT_TRUE(page.has_games()) << page.DebugString();
  ASSERT_EQ(page.games().games_size(), 2);
  EXPECT_GE(page.games().total(), 3u);
  EXPECT_EQ(page.games().games(0).game_id(), gids[2]);  // the newest
  EXPECT_EQ(page.games().games(1).game_id(), gids[1]);
  EXPECT_TRUE(page.games().games(0).red().guest()) << "players as in game_started, guests marked";
  EXPECT_EQ(page.games().games(0).red().name(), players[4].name);
  list.mutable_list_games()->set_offset(2);
  list.mutable_list_games()->set_limit(1);
  page = players[0].ws->request(list);
  ASSERT_EQ(page.games().games_size(), 1);
  EXPECT_EQ(page.games().games(0).game_id(), gids[0]);
  list.mutable_list_games()->set_offset(page.games().total());
  EXPECT_EQ(players[0].ws->request(list).games().games_size(), 0);

  std::string body;
  ASSERT_EQ(g_servers->http_get("/api/games?limit=1", body), 200);
  auto j = boost::json::parse(body);
  ASSERT_EQ(j.at("games").as_array().size(), 1u) << body;
  EXPECT_EQ(j.at("games").as_array()[0].at("id").as_string(), gids[2]);
  EXPECT_GE(j.at("total").to_number<int64_t>(), 3);
  ASSERT_EQ(g_servers->http_get("/api/games?offset=1&limit=1", body), 200);
  EXPECT_EQ(boost::json::parse(body).at("games").as_array()[0].at("id").as_string(), gids[1]) << body;
  ASSERT_EQ(g_servers->http_get("/api/games?limit=junk", body), 400) << body;  // not read as the default page
}

// Paging parameters are whole numbers or absent: anything else is answered 400 naming the
// parameter, not read as the default (nor a huge one as its first nine digits).
TEST_F(GameServer, PagingParametersThatAreNotWholeNumbersAre400) {
  const std::string user_games = "/api/users/g-0123456789abcdef/games";
  std::string body;
  for (const std::string& list : {std::string("/api/games"), std::string("/api/admin/games"), user_games}) {
    for (const std::string& query : {"limit=-1", "limit=abc", "offset=-5", "limit=99999999999999", "offset=10000000000",
                                     "limit=", "limit=1e3", "limit=5x", "offset=+1", "limit=2&offset=x"}) {
      const std::string target = list + "?" + query;
      EXPECT_EQ(http_request(g_servers->port(), "GET", target, body, TestServers::kAdminToken), 400) << target << ": " << body;
      const std::string named = query.find("offset=") != std::string::npos ? "offset" : "limit";
      EXPECT_NE(body.find(named + ": a whole number"), std::string::npos) << target << ": " << body;
    }
    // Numbers are read as before: 0 is an empty page, a limit above the page size is the page size.
    for (const std::string& query : {"limit=0", "limit=1000&offset=0", "offset=999999999", "other=-1"})
      EXPECT_EQ(http_request(g_servers->port(), "GET", list + "?" + query, body, TestServers::kAdminToken), 200)
          << list << "?" << query << ": " << body;
  }
}

// Empty path segments (a trailing slash, a doubled one) are read as absent, everywhere alike: a
// trailing-slash list is the list, a trailing-slash record the record, and an unknown path 404.
// (The fault tests rely on "//api/…" reaching the API too.)
TEST_F(GameServer, TrailingSlashesReadAsWithout) {
  Client red = guest("slash_red"), black = guest("slash_black");
  const std::string gid = start_game(red, black);
  std::string plain, slashed;
  for (const std::string& path : {std::string("/api/games"), "/api/games/" + gid, "/api/games/" + gid + "/pgn",
                                  "/api/users/" + red.user_id + "/games", "/api/users/" + red.user_id + "/ratings",
                                  std::string("/api/admin/games"), std::string("/api/admin/banned")}) {
    const int want = http_request(g_servers->port(), "GET", path, plain, TestServers::kAdminToken);
    EXPECT_EQ(want, 200) << path << ": " << plain;
    for (const std::string& variant : {path + "/", path + "//", "/" + path})
      EXPECT_EQ(http_request(g_servers->port(), "GET", variant, slashed, TestServers::kAdminToken), want) << variant << ": " << slashed;
  }
  for (const char* unknown : {"/api/", "/api/nothing/", "/api/users/", "/api/admin/"})
    EXPECT_EQ(http_request(g_servers->port(), "GET", unknown, slashed, TestServers::kAdminToken), 404) << unknown << ": " << slashed;
}

// A credential that is refused says so (not "sign in first"), on every kind of endpoint, and the Authorization scheme is read
// without regard to case, as HTTP defines it; a token without the scheme is refused.
TEST_F(GameServer, RefusedCredentialsAreNamedAndTheBearerSchemeHasNoCase) {
  std::string body;
  EXPECT_EQ(g_servers->http_get("/api/admin/games", body), 401);
  EXPECT_NE(body.find("admin credential required"), std::string::npos) << body;
  EXPECT_EQ(g_servers->http_get("/api/admin/games", body, "u-0123456789abcdef.1.deadbeef"), 401);
  EXPECT_NE(body.find("invalid or expired credential"), std::string::npos) << body;
  EXPECT_EQ(g_servers->http_post("/api/events", "{}", body), 401);
  EXPECT_NE(body.find("sign in first"), std::string::npos) << body;
  EXPECT_EQ(g_servers->http_post("/api/events", "{}", body, "forged-session-token"), 401);
  EXPECT_NE(body.find("invalid or expired credential: neither a valid session token nor the admin token"), std::string::npos) << body;
  for (const char* account : {"/api/account/password", "/api/account/sign-out-everywhere"}) {
    EXPECT_EQ(g_servers->http_post(account, "{}", body), 401) << account;
    EXPECT_NE(body.find("sign in first"), std::string::npos) << account << ": " << body;
    EXPECT_EQ(g_servers->http_post(account, "{}", body, "forged-session-token"), 401) << account;
    EXPECT_NE(body.find("invalid or expired credential: not a valid session token"), std::string::npos) << account << ": " << body;
  }
  const std::string lower = "GET /api/admin/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                            "Authorization: bearer " + std::string(TestServers::kAdminToken) + "\r\n\r\n";
  EXPECT_EQ(http_raw(g_servers->port(), lower, body), 200) << body;
  // The admin token without the scheme is refused, and says why.
  const std::string bare = "GET /api/admin/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                           "Authorization: " + std::string(TestServers::kAdminToken) + "\r\n\r\n";
  EXPECT_EQ(http_raw(g_servers->port(), bare, body), 401);
  EXPECT_NE(body.find("Bearer <token>"), std::string::npos) << body;
  // Another scheme is a proxy's (a site behind a Basic login, whose browsers send it with every
  // request): no credential of ours, so the admin token under it opens nothing, but public pages
  // and probes answer (review, 2026-12-05: every request, /healthz too, was 401).
  auto with_basic = [&](const std::string& path, const std::string& credential) {
    return http_raw(g_servers->port(), "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                                       "Authorization: Basic " + credential + "\r\n\r\n", body);
  };
  EXPECT_EQ(with_basic("/api/admin/games", TestServers::kAdminToken), 401);
  EXPECT_NE(body.find("admin credential required"), std::string::npos) << body;
  EXPECT_EQ(with_basic("/healthz", "Zm9vOmJhcg=="), 200) << body;
  EXPECT_EQ(with_basic("/api/games", "Zm9vOmJhcg=="), 200) << body;
}

// A request the HTTP parser refuses is answered 400 before the connection closes (it used to be
// closed without a word), and the server goes on serving.
TEST_F(GameServer, MalformedHttpRequestsAreAnswered400) {
  std::string body;
  for (const std::string& request : {
           std::string("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"),
           std::string("POST /api/events HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n"),
           std::string("POST /api/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
           std::string("GET /he\x01llo HTTP/1.1\r\nHost: x\r\n\r\n"),
           std::string("GET / HTTP/9.9\r\nHost: x\r\n\r\n"),
           std::string("G(T / HTTP/1.1\r\nHost: x\r\n\r\n"),
       }) {
    EXPECT_EQ(http_raw(g_servers->port(), request, body), 400) << request;
    EXPECT_NE(body.find("malformed HTTP request"), std::string::npos) << body;
  }
  EXPECT_EQ(g_servers->http_get("/healthz", body), 200);
  // The probes answer GET only.
  for (const char* path : {"/healthz", "/metrics"})
    EXPECT_EQ(http_raw(g_servers->port(), std::string("POST ") + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", body), 405)
        << path;
}

// A real endpoint asked with the other of GET and POST says which it takes (405), rather than
// "not found" as if the path did not exist; a path that is no endpoint stays 404.
TEST_F(GameServer, WrongMethodOnAnEndpointIs405) {
  const std::string user = "g-0123456789abcdef";
  std::string body;
  for (const std::string& path : std::vector<std::string>{"/api/games", "/api/games/abc", "/api/games/abc/pgn", "/api/users/" + user + "/ratings",
                                  "/api/users/" + user + "/games", "/api/admin/games", "/api/admin/connections",
                                  "/api/admin/banned", "/api/admin/accounts/somebody", "/api/admin/games/abc/chat",
                                  "/api/users/" + user, "/api/leaderboard/xiangqi", "/api/admin/chat-reports",
                                  "/api/admin/metrics"}) {
    EXPECT_EQ(http_request(g_servers->port(), "POST", path, body, TestServers::kAdminToken), 405) << path << ": " << body;
    EXPECT_NE(body.find("method not allowed: use GET"), std::string::npos) << path << ": " << body;
  }
  for (const std::string& path : std::vector<std::string>{"/api/admin/games/abc/abort", "/api/admin/games/abc/adjudicate", "/api/admin/games/abc/move-limit",
                                  "/api/admin/accounts/somebody/role", "/api/admin/users/" + user + "/ban",
                                  "/api/admin/users/" + user + "/unban", "/api/admin/users/" + user + "/disconnect",
                                  "/api/games/abc/chat/report", "/api/account/password", "/api/admin/accounts/somebody/bot"}) {
    EXPECT_EQ(http_request(g_servers->port(), "GET", path, body, TestServers::kAdminToken), 405) << path << ": " << body;
    EXPECT_NE(body.find("method not allowed: use POST"), std::string::npos) << path << ": " << body;
  }
  // A method the API never takes names the endpoint's own, not "GET, POST" (review).
  EXPECT_EQ(http_request(g_servers->port(), "PUT", "/api/account/password", body), 405) << body;
  EXPECT_NE(body.find("method not allowed: use POST"), std::string::npos) << body;
  // So does a tournament endpoint (it answered "GET, POST" for a POST-only one).
  EXPECT_EQ(http_request(g_servers->port(), "PUT", "/api/events/some-event/join", body), 405) << body;
  EXPECT_NE(body.find("method not allowed: use POST"), std::string::npos) << body;
  for (const std::string& path : std::vector<std::string>{"/api/nothing", "/api/games/abc/moves", "/api/admin/users/" + user + "/frob", "/api/admin/nothing"}) {
    EXPECT_EQ(http_request(g_servers->port(), "GET", path, body, TestServers::kAdminToken), 404) << path << ": " << body;
    EXPECT_EQ(http_request(g_servers->port(), "POST", path, body, TestServers::kAdminToken), 404) << path << ": " << body;
  }
  // The admin API still asks for the credential first.
  EXPECT_EQ(g_servers->http_get("/api/admin/users/" + user + "/ban", body), 401) << body;
}

// The same in the tournament API: GET /api/events/{id}/join was "unknown event view" (404) and
// POST /api/events/{id}/join/extra "method not allowed" (405), the wrong way round.
TEST_F(GameServer, WrongMethodOnATournamentEndpointIs405) {
  std::string body;
  const std::vector<std::pair<std::string, std::string>> wrong = {
      {"GET", "/api/events/ev1/join"},      {"GET", "/api/events/ev1/start-round"}, {"POST", "/api/events/ev1"},
      {"POST", "/api/events/ev1/standings"}, {"POST", "/api/events/ev1/next"},       {"GET", "/api/clubs/c1/members/remove"},
      {"POST", "/api/clubs/c1"},             {"GET", "/api/clubs/c1/members"},       {"POST", "/api/pools"},
      {"GET", "/api/pools/xiangqi/60000+0/join"}, {"GET", "/api/clubs/c1/rename"},  {"GET", "/api/clubs/c1/delete"}};
  for (const auto& [method, path] : wrong) {
    EXPECT_EQ(http_request(g_servers->port(), method, path, body), 405) << method << " " << path << ": " << body;
    const std::string other = method == "GET" ? "POST" : "GET";
    EXPECT_NE(body.find("method not allowed: use " + other), std::string::npos) << method << " " << path << ": " << body;
  }
  for (const auto& [method, path] : std::vector<std::pair<std::string, std::string>>{
           {"POST", "/api/events/ev1/join/extra"}, {"GET", "/api/events/ev1/frob"},
           {"GET", "/api/clubs/c1/frob"}, {"POST", "/api/clubs/c1/delete/now"}, {"POST", "/api/pools/xiangqi/60000+0/frob"}})
    EXPECT_EQ(http_request(g_servers->port(), method, path, body), 404) << method << " " << path << ": " << body;
}

// The admin's game actions read their body as a JSON object and say so when it is not one (the
// answer was "not an object" or Boost.JSON's "value is not a string"); a null field is an absent one.
TEST_F(GameServer, AdminActionBodiesThatAreNotJsonObjectsAreNamed) {
  Client red = guest("body_red"), black = guest("body_black");
  const std::string gid = start_game(red, black);
  std::string body;
  for (const char* action : {"adjudicate", "move-limit"})
    for (const char* payload : {"[]", "5", "\"draw\"", "not json", "{\"outcome\":\"draw\"} extra"}) {
      EXPECT_EQ(g_servers->http_post("/api/admin/games/" + gid + "/" + action, payload, body, TestServers::kAdminToken), 400)
          << action << " " << payload << ": " << body;
      EXPECT_NE(body.find("the body must be a JSON object"), std::string::npos) << action << " " << payload << ": " << body;
    }
  EXPECT_EQ(g_servers->http_post("/api/admin/games/" + gid + "/adjudicate", R"({"outcome":"draw","reason":5})", body,
                                 TestServers::kAdminToken),
            400);
  EXPECT_NE(body.find("reason must be a string"), std::string::npos) << body;
  EXPECT_EQ(g_servers->http_post("/api/admin/games/" + gid + "/move-limit", R"({"side":7})", body, TestServers::kAdminToken), 400);
  EXPECT_NE(body.find("side must be red, black or both"), std::string::npos) << body;
  ASSERT_EQ(g_servers->http_post("/api/admin/games/" + gid + "/adjudicate", R"({"outcome":"draw","reason":null})", body,
                                 TestServers::kAdminToken),
            200)
      << body;
  auto end = wait_event(red, gid, GameEvent::GAME_ENDED);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->game_event().result().reason(), "adjudication");
}

// A 405 carries the Allow header RFC 9110 requires: the methods the resource does take.
TEST_F(GameServer, MethodNotAllowedCarriesAllow) {
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"POST", "/api/games", "GET"},           {"GET", "/api/admin/users/g-0123456789abcdef/ban", "POST"},
      {"DELETE", "/api/games", "GET"},        {"DELETE", "/api/events", "GET, POST"}, {"POST", "/healthz", "GET, HEAD"},
      {"POST", "/index.html", "GET, HEAD"},   {"GET", "/api/events/ev1/join", "POST"}};
  for (const auto& [method, path, allow] : cases) {
    std::string body, headers;
    EXPECT_EQ(http_request(g_servers->port(), method, path, body, TestServers::kAdminToken, "", &headers), 405) << method << " " << path;
    EXPECT_NE(headers.find("\r\nAllow: " + allow + "\r\n"), std::string::npos) << method << " " << path << ":\n" << headers;
  }
}

// /ws asked without a WebSocket upgrade (a plain GET, or an upgrade over HTTP/1.0) was "not
// found"; it is the endpoint, so the answer is 426 with the Upgrade header that names the protocol.
TEST_F(GameServer, PlainRequestForTheWebSocketEndpointIs426) {
  std::string body, headers;
  EXPECT_EQ(http_request(g_servers->port(), "GET", "/ws", body, "", "", &headers), 426) << body;
  EXPECT_NE(headers.find("\r\nUpgrade: websocket\r\n"), std::string::npos) << headers;
  EXPECT_NE(body.find("WebSocket endpoint"), std::string::npos) << body;
  const std::string old_http = "GET /ws HTTP/1.0\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
  EXPECT_EQ(http_raw(g_servers->port(), old_http, body), 426) << body;
  EXPECT_EQ(http_request(g_servers->port(), "GET", "/ws/other", body), 404) << body;
}

// API paths are %-decoded: the admin dashboard writes an account's name with encodeURIComponent,
// so a Chinese name arrives escaped and was "no such account". A malformed escape is a 400.
TEST_F(GameServer, EscapedNamesInApiPathsAreDecoded) {
  Client li = register_account(g_servers->port(), "李娜");
  const std::string escaped = "%E6%9D%8E%E5%A8%9C";  // 李娜
  std::string body;
  ASSERT_EQ(g_servers->http_get("/api/admin/accounts/" + escaped, body, TestServers::kAdminToken), 200) << body;
  EXPECT_NE(body.find(li.user_id), std::string::npos) << body;
  ASSERT_EQ(g_servers->http_post("/api/admin/accounts/" + escaped + "/role", R"({"role":"organiser"})", body, TestServers::kAdminToken), 200)
      << body;
  EXPECT_NE(body.find("\"role\":\"organiser\""), std::string::npos) << body;
  // Any segment may be escaped, lower or upper case; the id still has to be one.
  EXPECT_EQ(g_servers->http_get("/api/users/u%2d" + li.user_id.substr(2) + "/ratings", body), 200) << body;
  EXPECT_EQ(g_servers->http_get("/api/users/u%2D" + li.user_id.substr(2) + "x/ratings", body), 404) << body;
  EXPECT_EQ(g_servers->http_get("/api/%67ames", body), 200) << body;
  for (const char* target : {"/api/games/%zz", "/api/games/abc%", "/api/games/abc%4", "/api/admin/accounts/%E6%9D%8G"}) {
    EXPECT_EQ(http_request(g_servers->port(), "GET", target, body, TestServers::kAdminToken), 400) << target << ": " << body;
    EXPECT_NE(body.find("bad path"), std::string::npos) << target << ": " << body;
  }
}

TEST_F(GameServer, MetricsIncludeRedisLatency) {
  std::string body;
  ASSERT_EQ(g_servers->http_get("/metrics", body), 200);
  EXPECT_NE(body.find("xq_redis_latency_seconds_count"), std::string::npos);
  EXPECT_NE(body.find("xq_move_latency_seconds_bucket"), std::string::npos);
  EXPECT_NE(body.find("xq_live_games"), std::string::npos);
}
