// What the WebSocket tests do again and again, in one place: a signed-in test client, a move
// request, game-event matching, and the known 7-ply mate used to finish Xiangqi games quickly.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/position.h"
#include "ws_client.h"
#include "xq.pb.h"

// A connection and the session it signed in as.
struct TestClient {
  std::unique_ptr<WsClient> ws;
  std::string token, user_id, name;
};

// Polls `pred` every 100 ms for up to `ms`: for what the server does after answering (a
// finished game's archive runs in the background, a failover takes a while).
template <class Pred>
bool eventually(Pred pred, int ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return pred();
}

// Whether a server on `port` takes a WebSocket connection within `ms` (a process just started).
inline bool accepts_websockets(uint16_t port, int ms) {
  return eventually([&] {
    try {
      WsClient probe(port);
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }, ms);
}

// Signs in with `m` (login_guest, register or login) on a new connection to `port`.
inline TestClient sign_in(uint16_t port, const xq::v1::ClientMessage& m) {
  TestClient p;
  p.ws = std::make_unique<WsClient>(port);
  auto r = p.ws->request(m);
  EXPECT_TRUE(r.has_reply()) << r.DebugString();
  p.token = r.reply().token();
  p.user_id = r.reply().user().user_id();
  p.name = r.reply().user().name();
  return p;
}

// A guest signed in on the server at `port` (the name is shown as "guest-<name>").
inline TestClient login_guest(uint16_t port, const std::string& name) {
  xq::v1::ClientMessage m;
  m.mutable_login_guest()->set_name(name);
  return sign_in(port, m);
}

// A registered account signed in on the server at `port`.
inline TestClient register_account(uint16_t port, const std::string& name, const std::string& password = "secret-pass") {
  xq::v1::ClientMessage m;
  m.mutable_register_()->set_name(name);
  m.mutable_register_()->set_password(password);
  return sign_in(port, m);
}

// A new connection to the node at `port`, resuming the client's session.
inline void reconnect_to(TestClient& p, uint16_t port) {
  p.ws = std::make_unique<WsClient>(port);
  xq::v1::ClientMessage m;
  m.mutable_hello()->set_token(p.token);
  auto r = p.ws->request(m);
  ASSERT_TRUE(r.has_reply()) << r.DebugString();
  EXPECT_EQ(r.reply().user().user_id(), p.user_id);
}

// `black` accepts `red`'s seek `seek_id`; both must receive game_started with their colours.
// Returns the game id (empty if the accept was refused).
inline std::string accept_and_start(TestClient& red, TestClient& black, const std::string& seek_id) {
  xq::v1::ClientMessage acc;
  acc.mutable_accept_seek()->set_seek_id(seek_id);
  auto a = black.ws->request(acc);
  EXPECT_TRUE(a.has_reply()) << a.DebugString();
  const std::string gid = a.reply().game_id();
  for (TestClient* p : {&red, &black}) {
    auto st = p->ws->wait_for(
        [&](const xq::v1::ServerMessage& s) { return s.has_game_started() && s.game_started().game_id() == gid; });
    EXPECT_TRUE(st.has_value()) << "no game_started for " << p->name;
    if (st) EXPECT_EQ(st->game_started().you(), p == &red ? xq::v1::RED : xq::v1::BLACK);
  }
  return gid;
}

// `red` seeks as Red, `black` accepts; both must receive game_started. Returns the game id.
inline std::string start_game(TestClient& red, TestClient& black, xq::v1::Variant v = xq::v1::XIANGQI,
                              uint32_t initial_ms = 300'000, uint32_t inc_ms = 0) {
  xq::v1::ClientMessage seek;
  seek.mutable_create_seek()->set_variant(v);
  seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(initial_ms);
  seek.mutable_create_seek()->mutable_time_control()->set_increment_ms(inc_ms);
  seek.mutable_create_seek()->set_color(xq::v1::RED);
  auto r = red.ws->request(seek);
  EXPECT_TRUE(r.has_reply()) << r.DebugString();
  return accept_and_start(red, black, r.reply().seek_id());
}

// `from` challenges the user named `to` (5 minutes, colour by lot); returns the challenge's seek id.
inline std::string challenge(TestClient& from, const std::string& to, uint32_t initial_ms = 300'000) {
  xq::v1::ClientMessage ch;
  ch.mutable_challenge()->set_user_name(to);
  ch.mutable_challenge()->mutable_time_control()->set_initial_ms(initial_ms);
  const xq::v1::ServerMessage r = from.ws->request(ch);
  EXPECT_TRUE(r.has_reply()) << r.DebugString();
  return r.reply().seek_id();
}

// A legal Jieqi move (ICCS) from a viewer's FEN, pseudo-random from `seed` (advanced): captures
// first, to exercise captured-piece secrecy. Empty when there is none.
inline std::string pick_jieqi_move(const std::string& viewer_fen, uint64_t& seed) {
  xq::Position pos = xq::parse_fen(viewer_fen, xq::Variant::Jieqi);
  xq::MoveList ml;
  pos.generate_legal(ml);
  if (ml.size == 0) return "";
  std::vector<xq::Move> caps;
  for (auto m : ml)
    if (pos.at(m.to) != xq::kEmpty && xq::type_of(pos.at(m.to)) != xq::King) caps.push_back(m);
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return xq::to_iccs(!caps.empty() ? caps[(seed >> 33) % caps.size()] : ml.moves[(seed >> 33) % ml.size]);
}

inline xq::v1::ServerMessage send_move(TestClient& p, const std::string& gid, const std::string& iccs,
                                       const std::string& client_move_id = "", int timeout_ms = 5000) {
  xq::v1::ClientMessage m;
  m.mutable_move()->set_game_id(gid);
  m.mutable_move()->set_iccs(iccs);
  m.mutable_move()->set_client_move_id(client_move_id);
  return p.ws->request(m, timeout_ms);
}

// Plays a move, resending it (same client move id: acknowledged once) while storage is away, e.g.
// during a Redis failover, for at most `budget_ms`. Any other refusal fails the test.
inline bool play_through_outage(TestClient& p, const std::string& gid, const std::string& iccs, int budget_ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms);
  while (std::chrono::steady_clock::now() < until) {
    xq::v1::ServerMessage r = send_move(p, gid, iccs, "outage-" + iccs);
    if (r.has_reply()) return true;
    if (!r.has_error() || (r.error().code() != xq::v1::STORAGE_UNAVAILABLE && r.error().code() != xq::v1::NODE_NOT_ANSWERING)) {
      ADD_FAILURE() << iccs << ": " << r.DebugString();
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return false;
}

// A chat line in game `gid`; the answer (Reply or Error).
inline xq::v1::ServerMessage send_chat(TestClient& p, const std::string& gid, const std::string& text) {
  xq::v1::ClientMessage m;
  m.mutable_chat()->set_game_id(gid);
  m.mutable_chat()->set_text(text);
  return p.ws->request(m);
}

// The chat line `text` as `p` receives it, if it comes within `ms`.
inline std::optional<xq::v1::ServerMessage> chat_line(TestClient& p, const std::string& text, int ms = 3000) {
  return p.ws->wait_for([&](const xq::v1::ServerMessage& s) { return s.has_chat() && s.chat().text() == text; }, ms);
}

inline bool is_game_event(const xq::v1::ServerMessage& s, const std::string& gid, xq::v1::GameEvent::Kind k) {
  return s.has_game_event() && s.game_event().game_id() == gid && s.game_event().kind() == k;
}

inline xq::v1::ErrorCode error_of(const xq::v1::ServerMessage& s) {
  return s.has_error() ? s.error().code() : xq::v1::ERROR_UNSPECIFIED;
}

// Takes in every frame that arrives until none has for `quiet_ms` (they stay in history): keeps the
// backlog short, or (with a longer quiet time) lets pushes in flight arrive first.
inline void drain(TestClient& p, int quiet_ms = 1) {
  while (p.ws->next(quiet_ms)) {
  }
}

// `seeker` opens `n` Jieqi seeks with distinct time controls (1:00, 1:01, …).
inline void open_seeks(TestClient& seeker, int n) {
  for (int i = 0; i < n; ++i) {
    xq::v1::ClientMessage seek;
    seek.mutable_create_seek()->set_variant(xq::v1::JIEQI);
    seek.mutable_create_seek()->mutable_time_control()->set_initial_ms(60'000 + 1000 * i);
    ASSERT_TRUE(seeker.ws->request(seek).has_reply());
  }
}

// A known 7-ply mate from the Xiangqi start (found by search with the rules library): the rook
// mates on b8.
inline const std::vector<std::string> kMateInSeven = {"a0a1", "b7b8", "a1b1", "c9e7", "b2b9", "e9e8", "b1b8"};

// Plays the first `n` plies of kMateInSeven in `gid`, Red and Black in turn, with the client move
// ids tag0, tag1, …; false (with a test failure naming the move) at the first one not acknowledged.
inline bool play_mate_opening(TestClient& red, TestClient& black, const std::string& gid, size_t n, const std::string& tag) {
  for (size_t i = 0; i < n; ++i) {
    const xq::v1::ServerMessage r = send_move(i % 2 == 0 ? red : black, gid, kMateInSeven[i], tag + std::to_string(i));
    EXPECT_TRUE(r.has_reply()) << kMateInSeven[i] << ": " << r.DebugString();
    if (!r.has_reply()) return false;
  }
  return true;
}
