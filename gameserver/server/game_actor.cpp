// One game's actor: its lifecycle (start, resume, retire), the players' and admins' actions and
// their answers, and the timer (flag, first moves, delayed frames). Viewers and publishing are in
// game_actor_viewers.cpp, Redis commits, rollbacks and the archive in game_actor_storage.cpp.
#include "server/game_actor.h"

#include <algorithm>
#include <future>
#include <iostream>

#include "game/codec.h"
#include "server/views.h"

namespace gs {
namespace v1 = xq::v1;

void send_message(Connection& c, const v1::ServerMessage& m, Metrics& metrics) {
  metrics.frames_out_total++;
  c.send(m.SerializeAsString());
}

void send_error(Connection& c, uint64_t request_id, v1::ErrorCode code, const std::string& message, Metrics& metrics,
                const std::string& game_id) {
  v1::ServerMessage m;
  m.set_request_id(request_id);
  m.mutable_error()->set_code(code);
  m.mutable_error()->set_message(message);
  m.mutable_error()->set_game_id(game_id);
  metrics.error(code);
  send_message(c, m, metrics);
}

GameActor::GameActor(Deps deps, GameSession session)
    : deps_(std::move(deps)), config_(session.config()), session_(std::move(session)), strand_(deps_.runtime) {
  // After a takeback the turns recorded for the plies now replayed began before it: forgotten.
  if (session_.last_takeback_version() > takeback_seen_) {
    takeback_seen_ = session_.last_takeback_version();
    turn_started_ = RecentTurnStarts{};
  }
  plies_ = static_cast<uint32_t>(session_.plies());
  outage_seen_ = deps_.store.unavailable_ms();
  finished_ = session_.over();
  move_limit_running_ = session_.rules_game().requested_limit().has_value();
}

void GameActor::post(std::function<void(GameActor&)> fn) {
  strand_.post([self = shared_from_this(), fn = std::move(fn)]() mutable {
    GameActor& a = *self;
    a.run_or_wait([self = std::move(self), fn = std::move(fn)] { fn(*self); });
  });
}

// On the strand. An action waiting for its append holds back everything after it (other actions,
// subscriptions, timers), so they see the game exactly as if the append had been synchronous.
void GameActor::run_or_wait(std::function<void()> fn) {
  if (busy_) return waiting_.push_back(std::move(fn));
  fn();
}

// Each waiting piece of work runs as its own strand handler would: an exception is logged and the
// others still run, in order.
void GameActor::drain() {
  while (!busy_ && !waiting_.empty()) {
    auto fn = std::move(waiting_.front());
    waiting_.pop_front();
    try {
      fn();
    } catch (const std::exception& e) {
      std::cerr << "game " << config_.id << ": handler failed: " << e.what() << '\n';
    } catch (...) {
      std::cerr << "game " << config_.id << ": handler failed\n";
    }
  }
}

void GameActor::refresh_record() {
  std::string rec = archive_record(session_, record_cache_);
  std::lock_guard l(record_mu_);
  record_ = std::move(rec);
  record_version_ = session_.version();
}

void GameActor::start(bool reloaded, ResumeFacts resume) {
  refresh_record();
  published_version_ = session_.version();
  if (reloaded) restore_presence();  // a new game has nothing stored yet
  Millis turn_start = steady_ms();
  if (reloaded && !session_.over()) {
    // The side to move pays for the part of its turn a server ran; the downtime is charged to nobody.
    resume.plies = session_.plies();
    resume.turn_started_ms = session_.turn_started_wall_ms();
    resume.now_ms = wall_ms();
    const int64_t used = turn_time_used_before_resume(resume);
    turn_start -= used;
    // The no-show time does not run while no server ran the game either (known for the turn
    // under way: the first, for a side that has not come).
    if (resume.turn_started_ms > 0 && resume.run_until_ms > 0)
      session_.extend_no_show(resume.now_ms - resume.turn_started_ms - used);
    try {
      deps_.store.set_resumed(config_.id, resume.plies, resume.now_ms, used);
    } catch (const std::exception& e) {
      std::cerr << "game " << config_.id << ": resumption not recorded: " << e.what() << '\n';
    }
  }
  session_.start_clock(turn_start);
  // Players count as absent until one of their connections subscribes (claim_victory timing); one
  // who had left before a reload or takeover counts as gone since then.
  for (auto& g : gone_since_) g = steady_ms();
  if (reloaded && !session_.over() && !config_.tournament()) {  // (no claims in tournament games)
    try {
      const auto away = deps_.store.away(config_.id);
      const int64_t wall = wall_ms();
      for (size_t i = 0; i < 2; ++i)
        if (away[i] > 0) gone_since_[i] = steady_ms() - std::max<int64_t>(0, wall - away[i]), away_stored_[i] = true;
    } catch (const std::exception& e) {
      std::cerr << "game " << config_.id << ": absences not read: " << e.what() << '\n';
    }
  }
  after_change();
}

static v1::ErrorCode code_of(Status s) {
  switch (s) {
    case Status::NotYourTurn: return v1::NOT_YOUR_TURN;
    case Status::Illegal: return v1::ILLEGAL_MOVE;
    case Status::GameOver: return v1::GAME_OVER;
    case Status::OfferNotAllowed: return v1::OFFER_NOT_ALLOWED;
    case Status::AbortNotAllowed: return v1::ABORT_NOT_ALLOWED;
    case Status::LimitNotAllowed: return v1::MOVE_LIMIT_NOT_ALLOWED;
    case Status::PositionChanged: return v1::POSITION_CHANGED;
    case Status::TakebackNotAllowed: return v1::TAKEBACK_NOT_ALLOWED;
    case Status::GiveTimeNotAllowed: return v1::GIVE_TIME_NOT_ALLOWED;
    default: return v1::INTERNAL;
  }
}

void GameActor::handle(const std::shared_ptr<Connection>& c, xq::Viewer v, const v1::ClientMessage& m,
                       int64_t received_ms) {
  const uint64_t rid = m.request_id();
  if (lost_)
    return send_error(*c, rid, v1::STORAGE_UNAVAILABLE, "the game moved to another node; retry", deps_.metrics, config_.id);
  if (v == xq::Viewer::Spectator) return send_error(*c, rid, v1::NOT_YOUR_GAME, "you do not play this game", deps_.metrics, config_.id);
  // Nothing is acted on over a state Redis may have moved past (a stored move would be answered
  // as this action's, or the game go on without it).
  if (in_doubt_ && !reconcile())
    return send_error(*c, rid, v1::STORAGE_UNAVAILABLE, "storage is not answering; retry", deps_.metrics, config_.id);
  absorb_outage();
  const xq::Color side = side_of(v);
  const Millis now = steady_ms();
  auto reply = [&](uint64_t version, bool duplicate) {
    v1::ServerMessage r;
    r.set_request_id(rid);
    r.mutable_reply()->set_game_id(config_.id);
    r.mutable_reply()->set_version(version);
    r.mutable_reply()->set_duplicate(duplicate);
    send_message(*c, r, deps_.metrics);
  };

  if (m.has_move()) {
    // Stored with the move: a client may not hang kilobytes on every move it makes.
    if (m.move().client_move_id().size() > kMaxClientMoveIdBytes)
      return send_error(*c, rid, v1::BAD_REQUEST, "client_move_id: at most 64 bytes", deps_.metrics, config_.id);
    if (auto ver = session_.find_client_move(side, m.move().client_move_id())) {
      // A resend is the same move (a Jieqi move as stored carries its reveal after the squares);
      // another move under a used id would be taken for played and silently dropped.
      const std::string& played = session_.events().at(*ver - 1).iccs;
      if (played.compare(0, 4, m.move().iccs(), 0, 4) != 0 || m.move().iccs().size() < 4)
        return send_error(*c, rid, v1::BAD_REQUEST, "client_move_id " + m.move().client_move_id() + " was used for " + played.substr(0, 4),
                          deps_.metrics, config_.id);
      return reply(*ver, true);
    }
  }

  // A move that may call for a repetition judgement (milliseconds; a quarter of a second on
  // contrived loops) is played on the judge thread while the game waits (busy_): the io thread
  // goes on serving the other games. (Flagging a move costs a board copy.)
  // Off the io threads: a move that may be judged, and a takeback's answer (it replays the game
  // from the start, judgements included; two accounts agreeing could otherwise repeat it at will).
  const bool costly = (m.has_move() && session_.rules_game().may_judge(m.move().iccs())) || m.has_accept_takeback() ||
                      (m.has_propose_takeback() && session_.takeback_proposed_by() == xq::opposite(side));
  if (costly && deps_.judge) {
    busy_ = true;
    auto job = [self = shared_from_this(), c, side, m, now, received_ms] {
      std::shared_ptr<Pending> pending;
      try {
        pending = self->act(c, side, m, now, received_ms);
      } catch (const std::exception& e) {
        std::cerr << "game " << self->config_.id << ": judging a move failed: " << e.what() << '\n';
      }
      self->strand_.post([self, c, rid = m.request_id(), pending] {
        self->busy_ = false;
        try {
          if (pending) self->store(pending);
          else send_error(*c, rid, v1::INTERNAL, "the move could not be judged", self->deps_.metrics, self->config_.id);
        } catch (const std::exception& e) {
          std::cerr << "game " << self->config_.id << ": storing a judged move failed: " << e.what() << '\n';
        }
        self->drain();
      });
    };
    if (deps_.judge(std::move(job))) {
      if (m.has_move()) deps_.metrics.moves_judged_off_io_total++;
      return;
    }
    busy_ = false;  // the judge thread's queue is full: judged here, as before
  }
  if (auto pending = act(c, side, m, now, received_ms)) store(pending);
}

std::shared_ptr<GameActor::Pending> GameActor::act(const std::shared_ptr<Connection>& c, xq::Color side,
                                                   const v1::ClientMessage& m, Millis now, int64_t received_ms) {
  const uint64_t rid = m.request_id();
  const uint64_t version_before = session_.version();  // rolled back to if the events cannot be made durable
  session_.set_wall_time(wall_ms());
  std::vector<GameEvent> out;
  std::string message;
  Status st = Status::Ok;
  switch (m.body_case()) {
    case v1::ClientMessage::kMove:
      st = session_.move(side, m.move().iccs(), m.move().client_move_id(), now, m.move().client_lag_ms(), out, &message,
                         m.move().ply());
      break;
    case v1::ClientMessage::kResign: st = session_.resign(side, now, out); break;
    case v1::ClientMessage::kOfferDraw: st = session_.offer_draw(side, now, out, &message); break;
    case v1::ClientMessage::kAcceptDraw: st = session_.accept_draw(side, now, out, &message); break;
    case v1::ClientMessage::kDeclineDraw: st = session_.decline_draw(side, now, out, &message); break;
    case v1::ClientMessage::kAbort: st = session_.abort(side, now, out, &message); break;
    case v1::ClientMessage::kRequestMoveLimit: st = session_.request_move_limit(side, now, out, &message); break;
    case v1::ClientMessage::kProposeTakeback: st = session_.propose_takeback(side, now, out, &message); break;
    case v1::ClientMessage::kAcceptTakeback: st = session_.accept_takeback(side, now, out, &message); break;
    case v1::ClientMessage::kDeclineTakeback: st = session_.decline_takeback(side, now, out, &message); break;
    case v1::ClientMessage::kGiveTime: st = session_.give_time(side, now, out, &message); break;
    case v1::ClientMessage::kClaimDraw:
    case v1::ClientMessage::kClaimVictory: {
      xq::Color opp = xq::opposite(side);
      int64_t gone = gone_since_[xq::index(opp)];
      if (session_.over()) st = Status::GameOver;
      else if (config_.tournament()) {
        send_error(*c, rid, v1::CLAIM_NOT_ALLOWED, "no claims in tournament games: an absent player's clock runs",
                   deps_.metrics, config_.id);
        return nullptr;
      } else if (session_.first_move_abort_wall()) {  // a first move is due: not made, the game is aborted
        send_error(*c, rid, v1::CLAIM_NOT_ALLOWED, "a first move is still due: without it the game is aborted",
                   deps_.metrics, config_.id);
        return nullptr;
      } else if (gone == 0 || now - gone < deps_.options.claim_after_ms) {
        send_error(*c, rid, v1::CLAIM_NOT_ALLOWED, "your opponent is connected or left recently", deps_.metrics, config_.id);
        return nullptr;
      }
      else st = session_.claim(side, m.has_claim_draw(), now, out);
      break;
    }
    default:
      send_error(*c, rid, v1::UNKNOWN_MESSAGE, "not a game action", deps_.metrics, config_.id);
      return nullptr;
  }

  auto pending = std::make_shared<Pending>();
  pending->conn = c;
  pending->rid = rid;
  pending->version_before = version_before;
  pending->status = st;
  pending->message = std::move(message);
  pending->is_move = m.has_move();
  pending->event_is_reply = m.has_move() && m.move().event_is_reply();
  pending->received_ms = received_ms;
  pending->events = std::move(out);
  return pending;
}

void GameActor::store(const std::shared_ptr<Pending>& pending) {
  if (pending->events.empty()) return finish(*pending, nullptr);
  // The append goes out with the other games' appends in one batch (the io thread does not wait
  // for Redis); nothing is acknowledged or published before it is stored.
  busy_ = true;
  // The snapshot (store/keys.h) only feeds the other nodes' game lists, which are cached for
  // seconds anyway: it goes with the first append, at the end, when the watchers change, and then
  // at most once a second, rather than as one more write per move.
  const Millis now = steady_ms();
  const uint32_t watching = spectators();
  const bool with_snapshot = snapshot_at_ == 0 || session_.over() || watching != snapshot_spectators_ ||
                             now - snapshot_at_ >= kSnapshotEveryMs;
  if (with_snapshot) snapshot_at_ = now, snapshot_spectators_ = watching;
  try {
    deps_.store.append_async(session_, pending->events, watching, with_snapshot, [self = shared_from_this(), pending](std::exception_ptr error) {
      GameActor& a = *self;
      a.strand_.post([self = std::move(self), pending, error] {
        try {
          self->finish(*pending, error);
        } catch (const std::exception& e) {  // never leave the game waiting for ever
          std::cerr << "game " << self->config_.id << ": finishing an action failed: " << e.what() << '\n';
        }
        self->busy_ = false;
        self->drain();
      });
    });
  } catch (const std::exception&) {  // not even queued: fails like a synchronous append
    busy_ = false;
    finish(*pending, std::current_exception());
  }
}

void GameActor::finish(Pending& p, std::exception_ptr error) {
  Connection& c = *p.conn;
  if (!p.events.empty() && !committed(error)) {
    std::vector<GameEvent> stored = rollback(p.version_before);
    if (lost_)  // another node owns the game now: the client retries there
      return send_error(c, p.rid, v1::STORAGE_UNAVAILABLE, "the game moved to another node; retry", deps_.metrics,
                        config_.id);
    if (stored.empty())
      return send_error(c, p.rid, v1::STORAGE_UNAVAILABLE,
                        in_doubt_ ? "storage did not answer in time: the game shows the move once storage answers if "
                                    "it was stored; else it was not played (resend it with the same client_move_id)"
                                  : "could not store the move; it was not played",
                        deps_.metrics, config_.id);
    // Redis holds the action after all (only the append's reply was lost): go on as if committed.
    p.events = std::move(stored);
  }
  if (p.status == Status::Ok) {
    // A move is acknowledged with the version of its Move event (a game end may follow it).
    uint64_t version = session_.version();
    for (const auto& e : p.events)
      if (e.kind == EventKind::Move) version = e.version;
    if (p.is_move) {
      deps_.metrics.moves_total++;
      deps_.metrics.observe_move_latency(static_cast<double>(steady_ms() - p.received_ms) / 1000.0);
    }
    // The mover's Move event is its answer when it asked so and receives the game's events.
    if (p.event_is_reply && publish(p.events, &c, p.rid)) return after_change();
    v1::ServerMessage r;
    r.set_request_id(p.rid);
    r.mutable_reply()->set_game_id(config_.id);
    r.mutable_reply()->set_version(version);
    r.mutable_reply()->set_duplicate(false);
    send_message(c, r, deps_.metrics);
  } else {
    // A copy that another node has taken over meanwhile may refuse a move the game's owner would
    // play (it does not know the opponent's latest move): the client must retry there instead.
    // A game over with every event stored and sent is over for every node: its end was appended
    // under this node's lease (which the end then released), so GAME_OVER stands.
    const bool end_not_stored = p.status == Status::GameOver && session_.version() > published_version_;
    const bool stale_refusal = p.status == Status::NotYourTurn || p.status == Status::Illegal ||
                               p.status == Status::PositionChanged || end_not_stored;
    if (stale_refusal && deps_.store.ownership_in_doubt() && !still_owned()) {
      if (!lost_.exchange(true) && deps_.on_lost) deps_.on_lost(config_.id);
      return send_error(c, p.rid, v1::STORAGE_UNAVAILABLE, "the game moved to another node; retry", deps_.metrics,
                        config_.id);
    }
    send_error(c, p.rid, code_of(p.status), p.message.empty() ? status_text(p.status) : p.message, deps_.metrics,
               config_.id);
  }
  publish(p.events);
  after_change();
}

std::vector<std::pair<std::shared_ptr<Connection>, uint64_t>> GameActor::retire() {
  lost_ = true;
  strand_.cancel_timer();
  armed_at_ = 0;
  if (!finished_) deps_.metrics.live_games--;
  std::vector<std::pair<std::shared_ptr<Connection>, uint64_t>> out;
  for (auto& [id, s] : subs_)
    if (auto c = s.conn.lock()) out.emplace_back(c, std::min(session_.version(), published_version_));
  subs_.clear();
  delayed_.clear();
  return out;
}

// An admin's action, on the strand: its events are stored and then published, as a player's are.
GameActor::AdminResult GameActor::admin_act(const std::function<Status(Millis, std::vector<GameEvent>&)>& act) {
  if (lost_) return AdminResult::NotStored;  // another node holds the game now
  if (in_doubt_ && !reconcile()) return AdminResult::NotStored;
  const uint64_t version_before = session_.version();
  session_.set_wall_time(wall_ms());
  std::vector<GameEvent> out;
  const Status st = act(steady_ms(), out);
  if (out.empty()) return AdminResult::Refused;  // nothing changed
  if (!commit(out)) {
    out = rollback(version_before);  // what Redis holds after all, if anything
    if (out.empty()) return AdminResult::NotStored;
  }
  publish(out);
  after_change();
  return st == Status::Ok ? AdminResult::Applied : AdminResult::Refused;
}

GameActor::AdminResult GameActor::admin_end(xq::Result r) {
  return admin_act([&](Millis now, std::vector<GameEvent>& out) { return session_.end(std::move(r), now, out); });
}

GameActor::AdminResult GameActor::admin_move_limit(std::optional<xq::Color> on_side) {
  return admin_act(
      [&](Millis now, std::vector<GameEvent>& out) { return session_.impose_move_limit(now, out, on_side); });
}

// Built on demand: rebuilding every live game's record as it is played cost a copy of the whole
// record per game twice a second, for a page few people open. A stale record is refreshed on the
// strand while the caller waits (bounded: if the strand cannot run, the last record is returned).
std::string GameActor::record_json() {
  if (session_version_ != record_version_) {
    auto done = std::make_shared<std::promise<void>>();
    auto ready = done->get_future();
    post([done](GameActor& a) {
      if (a.record_version_ != a.session_.version()) a.refresh_record();
      done->set_value();
    });
    ready.wait_for(std::chrono::seconds(1));
  }
  std::lock_guard l(record_mu_);
  return record_;
}

GameActor::ClockNow GameActor::clock_now() const {
  std::lock_guard l(record_mu_);
  const Millis now = steady_ms();
  ClockNow c{clock_copy_.remaining(xq::Color::Red, now), clock_copy_.remaining(xq::Color::Black, now), std::nullopt};
  if (clock_copy_.running()) c.running = clock_copy_.side_running();
  c.red_ms = std::max<Millis>(0, c.red_ms);
  c.black_ms = std::max<Millis>(0, c.black_ms);
  return c;
}

void GameActor::after_change() {
  // After a takeback the turns recorded for the plies now replayed began before it: forgotten.
  if (session_.last_takeback_version() > takeback_seen_) {
    takeback_seen_ = session_.last_takeback_version();
    turn_started_ = RecentTurnStarts{};
  }
  plies_ = static_cast<uint32_t>(session_.plies());
  // When each recent turn began here (steady time), for a rollback that returns to one of them.
  if (session_.clock().running()) turn_started_.record(plies_, session_.clock().turn_start());
  move_limit_running_ = session_.rules_game().requested_limit().has_value();
  session_version_ = session_.version();
  {
    std::lock_guard l(record_mu_);
    clock_copy_ = session_.clock();
  }
  if (!session_.over()) return arm_timer();
  if (!finished_.exchange(true)) {
    deps_.metrics.games_finished_total++;
    deps_.metrics.live_games--;
    if (deps_.on_finished) deps_.on_finished(config_);
  }
  if (!archived_ && !archiving_) archive();
  if (retire_at_ == 0) retire_at_ = steady_ms() + deps_.options.finished_linger_ms;
  arm_timer();
}

void GameActor::arm_timer() {
  std::optional<Millis> deadline = session_.over() ? std::optional<Millis>(retire_at_) : session_.flag_deadline();
  if (auto due = session_.first_move_due_wall()) {
    Millis at = steady_ms() + std::max<int64_t>(0, *due - wall_ms());
    if (!deadline || at < *deadline) deadline = at;
  }
  if (!delayed_.empty() && (!deadline || delayed_.begin()->first < *deadline)) deadline = delayed_.begin()->first;
  if (in_doubt_) {  // Redis asked again every half second (reconcile)
    const Millis at = steady_ms() + 500;
    if (!deadline || at < *deadline) deadline = at;
  }
  if (!deadline) {
    armed_at_ = 0;
    return strand_.cancel_timer();
  }
  // Waking up early is harmless (on_timer checks everything against the clock and re-arms), so a
  // timer already set for an earlier time stays: re-arming on every move cost two operations on
  // Asio's timer heap (tens of thousands of timers with 10,000 games) and a cancelled handler.
  if (armed_at_ != 0 && armed_at_ <= *deadline) return;
  armed_at_ = *deadline;
  auto self = shared_from_this();
  strand_.set_timer(*deadline + 1, [self] {
    self->armed_at_ = 0;
    self->run_or_wait([self] { self->on_timer(); });
  });
}

void GameActor::absorb_outage() {
  const int64_t away = deps_.store.unavailable_ms();
  const int64_t delta = away - outage_seen_;
  if (delta <= 0) return;
  outage_seen_ = away;
  if (session_.over()) return;
  session_.credit_outage(delta);
  turn_started_.credit(static_cast<uint32_t>(session_.plies()), delta);  // a rollback keeps it
}

void GameActor::on_timer() {
  if (lost_) return;
  deliver_due();
  if (session_.over()) {
    if (steady_ms() >= retire_at_ && delayed_.empty()) {
      if (!archiving_) {
        if (deps_.on_retired) deps_.on_retired(config_.id);
        return;
      }
      retire_at_ = steady_ms() + 50;  // leaves memory once its archive is written
    }
    return arm_timer();
  }
  if (in_doubt_ && !reconcile()) return arm_timer();  // no flag falls over a move Redis may hold
  absorb_outage();
  const uint64_t version_before = session_.version();
  session_.set_wall_time(wall_ms());
  std::vector<GameEvent> out;
  const bool ended = session_.check_first_move(wall_ms(), ever_present_[xq::index(xq::Color::Black)], steady_ms(), out) ||
                     session_.check_flag(steady_ms(), out);
  if (!ended) return arm_timer();
  if (!commit(out)) {
    std::vector<GameEvent> stored = rollback(version_before);
    if (lost_) return;  // another node owns the game now
    if (!stored.empty()) {  // the append had been stored after all (its reply was lost)
      publish(stored);
      return after_change();
    }
    auto self = shared_from_this();
    armed_at_ = steady_ms() + 500;  // retry while Redis is away
    strand_.set_timer(armed_at_, [self] {
      self->armed_at_ = 0;
      self->run_or_wait([self] { self->on_timer(); });
    });
    return;
  }
  publish(out);
  after_change();
}

}  // namespace gs