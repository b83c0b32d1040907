// What reaches Redis and what happens when it does not: committing events (fenced by the game's
// lease), rolling back to what Redis holds after a failed append, reconciling a game in doubt, and
// archiving a finished game off the io threads. Same strand as the rest of GameActor.
#include "server/game_actor.h"

#include <algorithm>
#include <iostream>

namespace gs {

bool GameActor::commit(const std::vector<GameEvent>& events) {
  std::exception_ptr error;
  try {
    deps_.store.append(session_, events, spectators());
  } catch (const std::exception&) {
    error = std::current_exception();
  }
  return committed(error);
}

bool GameActor::still_owned() {
  try {
    return deps_.store.owns(config_.id);
  } catch (const std::exception&) {  // Redis away: cannot tell, the refusal stands
    return true;
  }
}

bool GameActor::committed(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
    // The HTTP record (GET /api/games/{id}) is rebuilt when asked for (record_json) and at the end.
    if (session_.over()) refresh_record();
    return true;
  } catch (const std::exception& e) {
    std::cerr << "game " << config_.id << ": store failed: " << e.what() << '\n';
    if (is_not_owner(e) && !lost_.exchange(true) && deps_.on_lost) deps_.on_lost(config_.id);
    return false;
  }
}

std::vector<GameEvent> GameActor::rollback(uint64_t version) {
  // Rare (Redis failed). Redis is the truth: if it answers, reload the game from it, because an
  // append whose reply was lost (connection dropped after Redis ran it) is stored, and rolling it
  // back in memory only made every later append conflict with it. Otherwise rebuild the session
  // from its own events instead of copying the whole game before every action. Either way the
  // side to move's clock goes on from the start of its turn.
  record_cache_ = RecordCache{};  // the cached record's plies after `version` may be gone
  // The turn returned to keeps the time it has used: it began when this actor saw it begin (a
  // resumption's forgiven downtime stays forgiven), else at its move's wall time (this server ran
  // all along). A failed write gives no time back, not even to a player whose move it lost.
  const Millis now = steady_ms();
  const int64_t wall = wall_ms();
  const auto turn_start = [&](const GameSession& s) {
    if (auto started = turn_started_.find(static_cast<uint32_t>(s.plies()))) return *started;
    const int64_t since = s.turn_started_wall_ms();
    return since > 0 ? now - std::max<int64_t>(0, wall - since) : now;
  };
  // Turns after the one returned to never happened.
  const auto forget_later = [&](const GameSession& s) {
    turn_started_.forget_after(static_cast<uint32_t>(s.plies()));
  };
  try {
    GameSession stored = deps_.store.load(config_.id);
    if (stored.version() >= version) {
      std::vector<GameEvent> found(stored.events().begin() + static_cast<std::ptrdiff_t>(version), stored.events().end());
      stored.start_clock(turn_start(stored));
      stored.extend_no_show(session_.no_show_extension_ms());
      forget_later(stored);
      session_ = std::move(stored);
      if (!found.empty()) std::cerr << "game " << config_.id << ": " << found.size() << " stored event(s) recovered\n";
      return found;
    }
  } catch (const std::exception&) {
    // Redis still away: fall back to memory, in doubt (the append may land once Redis answers).
    in_doubt_ = true;
  }
  GameSession rebuilt(config_);
  for (uint64_t i = 0; i < version; ++i) rebuilt.replay(session_.events()[i]);
  rebuilt.start_clock(turn_start(rebuilt));
  rebuilt.extend_no_show(session_.no_show_extension_ms());
  forget_later(rebuilt);
  session_ = std::move(rebuilt);
  arm_timer();  // in doubt: Redis is asked again in half a second
  return {};
}

bool GameActor::reconcile() {
  if (!in_doubt_) return true;
  const uint64_t version = session_.version();
  try {
    GameSession stored = deps_.store.load(config_.id);
    in_doubt_ = false;
    if (stored.version() <= version) return true;  // the append never landed: memory is right
    std::vector<GameEvent> found(stored.events().begin() + static_cast<std::ptrdiff_t>(version), stored.events().end());
    record_cache_ = RecordCache{};
    // Nobody was shown the turn the found events hand over: it starts now.
    stored.start_clock(steady_ms());
    stored.extend_no_show(session_.no_show_extension_ms());
    turn_started_.forget_after(static_cast<uint32_t>(stored.plies()));
    session_ = std::move(stored);
    std::cerr << "game " << config_.id << ": " << found.size() << " event(s) stored during a Redis stall recovered\n";
    publish(found);
    after_change();
    return true;
  } catch (const std::exception&) {
    return false;  // asked again by the timer (arm_timer)
  }
}

// The archive is one to a handful of Redis round trips (record, finished list, ratings, tournament
// result, live set); on an io thread they would hold up every other game served by it. It works
// on a copy of the finished session.
void GameActor::archive() {
  archiving_ = true;
  auto job = [self = shared_from_this(), finished = std::make_shared<const GameSession>(session_)] {
    bool ok = true;
    try {
      self->deps_.store.archive(*finished);
    } catch (const std::exception& e) {
      // The Ended event is durable; the game stays in the live set and its next load archives it.
      std::cerr << "game " << self->config_.id << ": archive failed: " << e.what() << '\n';
      ok = false;
    }
    self->post([ok](GameActor& a) {
      a.archiving_ = false;
      a.archived_ = ok;
    });
  };
  if (!deps_.background || !deps_.background(job)) job();
}

}  // namespace gs
