// libFuzzer target: the protocol envelope and the game state machine, without network. Arbitrary
// bytes are decoded as xq.v1.ClientMessage frames and dispatched to gs::GameSession the way
// GameActor::handle does (move / resign / offer / accept / decline / abort / claim), for either
// side, with arbitrary strings, lags and clock times.
//
// Input layout: byte 0 = config flags
//   bit 0 variant (Jieqi: assignment shuffled by byte 1), bits 1-2 ruleset (cxa/axf/computer/""),
//   bit 3 tournament game (no abort, no claims, no-show rule), bits 4-5 capture visibility,
//   bits 6-7 time control (1 s, 1 min, 3 min + 2 s, 6 h + 120 s: the server's limits)
// byte 1 = seed. Then frames: [flags][dt][len][len bytes of ClientMessage]
//   frame flags bit 0 = side (Red/Black); bit 1 = run check_flag, bit 2 = check_first_move first;
//   dt = milliseconds (x 97) the monotonic clock advances before the frame.
// Invariants: versions are consecutive; an error status changes nothing unless a fallen flag
// ended the game (then the only new event is Ended); a finished game refuses everything; at most
// one Ended event and it is last; replaying the stored events (through the JSON codec) into a
// fresh session reproduces the same state; the archive record can always be built.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <google/protobuf/stubs/logging.h>  // protobuf 3.21 declares SetLogHandler here

#include "fuzz_common.h"
#include "game/codec.h"
#include "game/game_session.h"
#include "rules/jieqi.h"
#include "xq.pb.h"

using namespace gs;
namespace v1 = xq::v1;

namespace {

std::string assignment_for(uint8_t seed) {
  std::string red = "RRNNBBAACCPPPPP";
  uint32_t x = seed * 2654435761u + 12345u;
  for (int side = 0; side < 2; ++side) {
    std::string s = red;
    for (int i = 14; i > 0; --i) {
      x = x * 1103515245u + 12345u;
      std::swap(s[i], s[(x >> 16) % (i + 1)]);
    }
    if (side == 1)
      for (char& c : s) c = static_cast<char>(c - 'A' + 'a');
    red = side == 0 ? s : red;
    if (side == 1) return red + s;
  }
  return red;
}

GameConfig make_config(uint8_t flags, uint8_t seed) {
  GameConfig c;
  c.id = "fuzz";
  c.variant = flags & 1 ? xq::Variant::Jieqi : xq::Variant::Xiangqi;
  const char* rulesets[4] = {"cxa", "axf", "computer", ""};
  c.ruleset = rulesets[(flags >> 1) & 3];
  const char* vis[4] = {"capturer", "nobody", "both", ""};
  c.capture_visibility = vis[(flags >> 4) & 3];
  const TimeControl tcs[4] = {{1'000, 0}, {60'000, 0}, {180'000, 2'000}, {6 * 3600 * 1000, 120'000}};
  c.tc = tcs[(flags >> 6) & 3];
  c.red = {"u-red", "red", false};
  c.black = {"u-black", "black", true};
  if (c.variant == xq::Variant::Jieqi) {
    c.assignment = assignment_for(seed);
    c.salt = "00";
    c.commitment = xq::commitment(xq::Assignment::from_string(c.assignment), c.salt);
  }
  if (flags & 8) {
    c.event_id = "ev";
    c.round = 1;
    c.no_show_ms = 5'000;
  } else {
    c.first_move_ms = 5'000;
  }
  return c;
}

void check_same_state(const GameSession& a, const GameSession& b, const std::string& what) {
  FUZZ_CHECK(a.version() == b.version(), what + ": version");
  FUZZ_CHECK(a.plies() == b.plies(), what + ": plies");
  FUZZ_CHECK(a.result().outcome == b.result().outcome && a.result().reason == b.result().reason,
             what + ": result " + xq::outcome_name(a.result().outcome) + "/" + a.result().reason + " vs " +
                 xq::outcome_name(b.result().outcome) + "/" + b.result().reason);
  FUZZ_CHECK(fuzz::same_position(a.rules_game().position(), b.rules_game().position()), what + ": position");
  FUZZ_CHECK(a.draw_offer_by() == b.draw_offer_by(), what + ": draw offer");
  FUZZ_CHECK(a.ply_clocks() == b.ply_clocks(), what + ": ply clocks");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);  // invalid UTF-8 in strings is logged by the parser
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2 || size > 8192) return 0;
  const GameConfig config = make_config(data[0], data[1]);
  FUZZ_CHECK(decode_config(encode_config(config)).assignment == config.assignment, "config codec");
  GameSession s(config);
  Millis now = 1'000;
  s.set_wall_time(1'000);
  s.start_clock(now);
  size_t pos = 2;
  while (pos + 3 <= size) {
    const uint8_t fflags = data[pos], dt = data[pos + 1];
    const size_t len = std::min<size_t>(data[pos + 2], size - pos - 3);
    pos += 3;
    v1::ClientMessage m;
    const bool parsed = m.ParseFromArray(data + pos, static_cast<int>(len));
    pos += len;
    now += dt * 97;
    s.set_wall_time(now);
    const xq::Color side = fflags & 1 ? xq::Color::Black : xq::Color::Red;

    const uint64_t v0 = s.version();
    const size_t plies0 = s.plies();
    const bool over0 = s.over();
    std::vector<GameEvent> out;
    if (fflags & 2) {
      bool fell = s.check_flag(now, out);
      FUZZ_CHECK(!fell || (!over0 && s.over()), "check_flag on a finished game or without ending it");
    }
    if (fflags & 4) (void)s.check_first_move(now, (fflags & 8) != 0, now, out);
    if (!parsed) continue;

    Status st = Status::Ok;
    bool handled = true;
    std::string message;
    const size_t out0 = out.size();
    const uint64_t v1_ = s.version();
    const bool over1 = s.over();
    if (m.has_move()) {
      if (auto ver = s.find_client_move(side, m.move().client_move_id())) {
        FUZZ_CHECK(*ver >= 1 && *ver <= s.version() && s.events()[*ver - 1].kind == EventKind::Move,
                   "find_client_move points at a non-move event");
        continue;
      }
    }
    switch (m.body_case()) {
      case v1::ClientMessage::kMove:
        st = s.move(side, m.move().iccs(), m.move().client_move_id(), now, m.move().client_lag_ms(), out, &message);
        break;
      case v1::ClientMessage::kResign: st = s.resign(side, now, out); break;
      case v1::ClientMessage::kOfferDraw: st = s.offer_draw(side, now, out); break;
      case v1::ClientMessage::kAcceptDraw: st = s.accept_draw(side, now, out); break;
      case v1::ClientMessage::kDeclineDraw: st = s.decline_draw(side, now, out); break;
      case v1::ClientMessage::kAbort: st = s.abort(side, now, out); break;
      case v1::ClientMessage::kClaimVictory:
      case v1::ClientMessage::kClaimDraw:
        if (config.tournament()) handled = false;
        else st = s.claim(side, m.has_claim_draw(), now, out);
        break;
      case v1::ClientMessage::kProposeTakeback: st = s.propose_takeback(side, now, out); break;
      case v1::ClientMessage::kAcceptTakeback: st = s.accept_takeback(side, now, out); break;
      case v1::ClientMessage::kDeclineTakeback: st = s.decline_takeback(side, now, out); break;
      case v1::ClientMessage::kGiveTime: st = s.give_time(side, now, out); break;
      default: handled = false; break;  // not a game action: the actor answers UNKNOWN_MESSAGE
    }
    if (!handled) continue;

    const size_t produced = out.size() - out0;
    if (over1) FUZZ_CHECK(st == Status::GameOver && produced == 0, std::string("finished game accepted ") + status_name(st));
    if (st == Status::Ok) {
      FUZZ_CHECK(produced >= 1, "Ok without an event");
      if (m.has_move()) {
        FUZZ_CHECK(s.plies() == plies0 + 1, "Ok move without a ply");
        FUZZ_CHECK(out[out0].kind == EventKind::Move && out[out0].iccs == m.move().iccs().substr(0, 4), "first event of a move");
      }
    } else {
      // An error changed nothing, except that a fallen flag may have ended the game first.
      if (produced == 0) FUZZ_CHECK(s.version() == v1_, std::string("error status but a new version: ") + status_name(st));
      else FUZZ_CHECK(st == Status::GameOver && produced == 1 && out.back().kind == EventKind::Ended && s.over(),
                      std::string("error status with events: ") + status_name(st));
    }
    (void)v0;
    (void)over0;
  }

  // Global invariants over the event log.
  const auto& events = s.events();
  size_t ended = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    FUZZ_CHECK(events[i].version == i + 1, "version gap");
    FUZZ_CHECK(events[i].red_ms >= 0 && events[i].black_ms >= 0, "negative time stored: " + encode_event(events[i]));
    if (events[i].kind == EventKind::Ended) {
      ++ended;
      FUZZ_CHECK(i + 1 == events.size(), "event after Ended");
    }
  }
  FUZZ_CHECK(ended == (s.over() ? 1u : 0u), "Ended events vs over(): " + std::to_string(ended));
  FUZZ_CHECK(s.ply_clocks().size() == s.plies(), "ply clocks");

  // Recovery: replay the stored (JSON-encoded) events into a fresh session.
  GameSession r(decode_config(encode_config(config)));
  for (const GameEvent& e : events) {
    GameEvent d = decode_event(encode_event(e));
    FUZZ_CHECK(d.version == e.version && d.kind == e.kind && d.iccs == e.iccs && d.reason == e.reason &&
                   d.outcome == e.outcome && d.client_move_id == e.client_move_id && d.red_ms == e.red_ms &&
                   d.black_ms == e.black_ms && (e.kind != EventKind::Move || d.side == e.side),
               "event codec round trip of " + encode_event(e));
    try {
      r.replay(d);
    } catch (const std::exception& ex) {
      FUZZ_CHECK(false, std::string("replay of ") + encode_event(e) + " failed: " + ex.what());
    }
  }
  check_same_state(s, r, "replayed session");
  for (xq::Color c : {xq::Color::Red, xq::Color::Black})
    FUZZ_CHECK(s.clock().stored(c) == r.clock().stored(c), "stored clock after replay");
  // The draw-offer bookkeeping (offer counts, "may offer again") must survive the replay too:
  // probe both sessions with the same offers and abort.
  {
    GameSession a = s, b = r;
    a.start_clock(now);
    b.start_clock(now);
    std::vector<GameEvent> oa, ob;
    for (int i = 0; i < 4; ++i) {
      const xq::Color c = i & 1 ? xq::Color::Black : xq::Color::Red;
      Status sa = i == 3 ? a.abort(c, now, oa) : a.offer_draw(c, now, oa);
      Status sb = i == 3 ? b.abort(c, now, ob) : b.offer_draw(c, now, ob);
      FUZZ_CHECK(sa == sb, std::string("live vs replayed session differ on probe ") + std::to_string(i) + ": " +
                               status_name(sa) + " vs " + status_name(sb));
    }
  }
  for (xq::Color c : {xq::Color::Red, xq::Color::Black})
    for (const GameEvent& e : events)
      if (e.kind == EventKind::Move && !e.client_move_id.empty() && e.side == c)
        FUZZ_CHECK(r.find_client_move(c, e.client_move_id) == s.find_client_move(c, e.client_move_id), "client move ids after replay");
  (void)archive_record(s);
  (void)archive_record(r);
  return 0;
}
