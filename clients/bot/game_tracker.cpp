#include "game_tracker.h"

#include <algorithm>

namespace xqbot {

namespace v1 = xq::v1;

v1::Side side_to_move(const std::string& fen) {
  const size_t sp = fen.find(' ');
  if (sp == std::string::npos || sp + 1 >= fen.size()) return v1::SIDE_NONE;
  const char c = fen[sp + 1];
  return c == 'w' || c == 'r' ? v1::RED : c == 'b' ? v1::BLACK : v1::SIDE_NONE;
}

int64_t time_budget_ms(int64_t movetime_ms, int64_t remaining_ms, int64_t increment_ms, int64_t sharing) {
  remaining_ms = std::max<int64_t>(remaining_ms, 0);
  sharing = std::max<int64_t>(sharing, 1);
  int64_t t = std::min(movetime_ms, remaining_ms / 30 + increment_ms / 2);
  t = std::min(t, remaining_ms / 3);
  return std::max<int64_t>(t, 50) / sharing;
}

int64_t movetime_for_ply(int64_t movetime_ms, uint32_t plies) {
  constexpr int64_t kFirstMoveThinkMs = 5'000;
  return plies < 2 ? std::min(movetime_ms, kFirstMoveThinkMs) : movetime_ms;
}

void GameTracker::take_clock(const v1::ClockState& c, SteadyClock::time_point now) {
  red_ms = c.red_ms();
  black_ms = c.black_ms();
  running = c.running();
  clock_at = now;
}

int64_t GameTracker::my_remaining_ms(SteadyClock::time_point now) const {
  int64_t ms = you == v1::RED ? red_ms : black_ms;
  if (running == you) ms -= std::chrono::duration_cast<std::chrono::milliseconds>(now - clock_at).count();
  return std::max<int64_t>(ms, 0);
}

void GameTracker::apply_state(const v1::GameState& s, SteadyClock::time_point now) {
  const uint32_t new_plies = static_cast<uint32_t>(s.moves_size());
  const bool history_fits = id == s.game_id() && !fen.empty() && new_plies >= plies;
  if (history_fits && new_plies > plies) {
    // Plies in between are known by their moves only: the positions the bot saw stay; the ones it
    // missed are unknown (a repetition across them is the server's to judge).
    earlier_fens.push_back(fen);
  } else if (!history_fits) {
    earlier_fens.clear();
  }
  id = s.game_id();
  variant = s.variant() == v1::JIEQI ? v1::JIEQI : v1::XIANGQI;
  you = s.you();
  opponent = you == v1::RED ? s.black().name() : s.red().name();
  initial_ms = s.time_control().initial_ms();
  increment_ms = s.time_control().increment_ms();
  rated = s.rated();
  takebacks_allowed = s.takebacks_allowed();
  version = s.version();
  plies = new_plies;
  fen = s.fen();
  take_clock(s.clock(), now);
  result = s.result();
  over = s.result().outcome() != v1::ONGOING;
  opponent_present = you == v1::RED ? s.black_present() : s.red_present();
  if (pending_ply != 0 && pending_ply <= plies) {  // it was played (or the game moved on)
    pending_move_id.clear();
    pending_iccs.clear();
    pending_ply = 0;
  }
  failed_moves = 0;
}

GameTracker::Change GameTracker::apply_event(const v1::GameEvent& e, SteadyClock::time_point now) {
  if (e.version() <= version) return Change::None;
  if (e.version() > version + 1) return Change::Gap;
  version = e.version();
  if (e.has_clock()) take_clock(e.clock(), now);
  switch (e.kind()) {
    case v1::GameEvent::MOVE: {
      if (!fen.empty()) earlier_fens.push_back(fen);
      fen = e.fen();  // empty on a catch-up event before the last: unknown until then
      plies = std::max(plies, e.move().ply());
      if (e.side() == you && pending_ply != 0 && e.move().ply() >= pending_ply) {
        pending_move_id.clear();
        pending_iccs.clear();
        pending_ply = 0;
      }
      failed_moves = 0;
      return Change::Position;
    }
    case v1::GameEvent::TAKEN_BACK: {
      const uint32_t undone = std::min(e.plies_undone(), plies);
      plies -= undone;
      // The positions before the undone plies are the last ones kept (the current one goes too).
      for (uint32_t i = 0; i < undone && !earlier_fens.empty(); ++i) earlier_fens.pop_back();
      fen = e.fen();
      pending_move_id.clear();
      pending_iccs.clear();
      pending_ply = 0;
      failed_moves = 0;
      return Change::Position;
    }
    case v1::GameEvent::GAME_ENDED:
      over = true;
      result = e.result();
      if (!e.fen().empty()) fen = e.fen();
      return Change::Ended;
    case v1::GameEvent::DRAW_OFFERED:
      return e.side() == opponent_side() ? Change::DrawOffered : Change::None;
    case v1::GameEvent::TAKEBACK_PROPOSED:
      return e.side() == opponent_side() ? Change::TakebackProposed : Change::None;
    default:
      if (!e.fen().empty()) fen = e.fen();
      return Change::None;
  }
}

std::string GameTracker::describe() const {
  return std::string(variant_name(variant)) + " " + std::to_string(initial_ms / 1000) + "+" +
         std::to_string(increment_ms / 1000) + (rated ? " rated" : " casual") + " vs " + opponent + ", playing " +
         side_name(you);
}

const char* variant_name(v1::Variant v) { return v == v1::JIEQI ? "jieqi" : "xiangqi"; }
const char* side_name(v1::Side s) { return s == v1::RED ? "red" : s == v1::BLACK ? "black" : "none"; }
const char* outcome_name(v1::Outcome o) {
  switch (o) {
    case v1::RED_WINS: return "red-wins";
    case v1::BLACK_WINS: return "black-wins";
    case v1::DRAW: return "draw";
    case v1::ABORTED: return "aborted";
    default: return "ongoing";
  }
}

}  // namespace xqbot
