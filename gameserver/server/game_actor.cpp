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

static xq::Color side_of(xq::Viewer v) { return v == xq::Viewer::Black ? xq::Color::Black : xq::Color::Red; }

// Who came to the game decides a no-show forfeit (GameSession::check_first_move), so while that rule
// can still apply, a player's first connection is stored, and a node that reloads or takes over
// the game reads it back. Best effort: without Redis the node's own memory still counts.
void GameActor::restore_presence() {
  if (!session_.no_show_deadline_wall()) return;
  try {
    auto stored = deps_.store.present(config_.id);
    for (int i = 0; i < 2; ++i) ever_present_[i] = ever_present_[i] || stored[static_cast<size_t>(i)];
  } catch (const std::exception& e) {
    std::cerr << "game " << config_.id << ": presence not read: " << e.what() << '\n';
  }
}

void GameActor::note_present(xq::Color side) {
  if (ever_present_[xq::index(side)]) return;
  ever_present_[xq::index(side)] = true;
  if (!session_.no_show_deadline_wall()) return;
  try {
    deps_.store.mark_present(config_.id, side);
  } catch (const std::exception& e) {
    std::cerr << "game " << config_.id << ": presence not stored: " << e.what() << '\n';
  }
}

void GameActor::subscribe(const std::shared_ptr<Connection>& c, xq::Viewer v, Greeting g, uint64_t request_id,
                          uint64_t last_version) {
  if (lost_)
    return send_error(*c, request_id, v1::STORAGE_UNAVAILABLE, "the game moved to another node; retry", deps_.metrics,
                      config_.id);
  const uint32_t watching_before = spectators_;
  if (auto old = subs_.find(c->id()); old != subs_.end()) forget_sub(old->second);  // watched again
  drop_delayed_for(*c);  // queued for an earlier watch (or one since left): this one sends them anew
  std::string watcher;
  if (v == xq::Viewer::Spectator) {
    const auto u = c->user();
    watcher = u ? u->id : "conn:" + std::to_string(c->id());
    ++watchers_[watcher];
    spectators_ = static_cast<uint32_t>(watchers_.size());
  }
  subs_[c->id()] = Sub{c, v, watcher};
  if (spectators_ != watching_before) announce_spectators();
  if (v != xq::Viewer::Spectator) note_present(side_of(v));
  if (v != xq::Viewer::Spectator && gone_since_[xq::index(side_of(v))] != 0) {
    gone_since_[xq::index(side_of(v))] = 0;
    store_away(side_of(v), false);
    // Not to the connection coming in: its greeting below says so, and a presence frame before
    // the game_started would name a game it does not know yet (review).
    announce_presence(side_of(v), true, c.get());
  }
  if (v == xq::Viewer::Spectator && config_.spectator_delay_ms > 0 && !session_.over()) {
    subscribe_delayed(c, g, request_id, last_version);
    if (g != Greeting::None) send_chat_history(*c, v);
    return;
  }
  const Millis now = steady_ms();
  const int64_t wall = wall_ms();
  const uint64_t version = session_.version();
  v1::ServerMessage m;
  m.set_request_id(request_id);
  // A catch-up across a takeback would show Move events of plies that are gone: a full state instead.
  if (g == Greeting::Sync && last_version <= version && version - last_version <= deps_.options.max_catchup_events &&
      last_version >= session_.last_takeback_version()) {
    // Catch-up: the missed events, in order, the last one with the current FEN and clock.
    for (uint64_t ver = last_version + 1; ver <= version; ++ver) {
      v1::ServerMessage ev;
      *ev.mutable_game_event() = event_for(session_, session_.events()[ver - 1], v, ver == version, now, wall);
      if (ver == version) ev.mutable_game_event()->set_spectators(static_cast<uint32_t>(watchers_.size()));
      send_message(*c, ev, deps_.metrics);
    }
    // A player back after a drop may have missed that its opponent left (review, 2026-12-04: the
    // claim button never came): the catch-up says so, with the time left until it may claim.
    if (v != xq::Viewer::Spectator && !session_.over() && !config_.tournament()) {
      const xq::Color opp = xq::opposite(side_of(v));
      if (const int64_t gone = gone_since_[xq::index(opp)]; gone != 0) {
        v1::ServerMessage pm;
        auto* p = pm.mutable_presence();
        p->set_game_id(config_.id);
        p->set_side(to_side(opp));
        p->set_present(false);
        p->set_claim_after_ms(static_cast<uint32_t>(std::max<int64_t>(0, deps_.options.claim_after_ms - (now - gone))));
        send_message(*c, pm, deps_.metrics);
      }
    }
  } else if (g == Greeting::None) {
    // silent: a player acting from a connection that had not asked for the game yet
  } else {
    v1::GameState* st = g == Greeting::Started ? m.mutable_game_started() : m.mutable_game_state();
    *st = state_for(session_, v, now, wall);
    st->set_red_present(gone_since_[0] == 0);
    st->set_black_present(gone_since_[1] == 0);
    st->set_spectators(static_cast<uint32_t>(watchers_.size()));
    send_message(*c, m, deps_.metrics);
  }
  if (request_id != 0) {
    v1::ServerMessage r;
    r.set_request_id(request_id);
    r.mutable_reply()->set_game_id(config_.id);
    r.mutable_reply()->set_version(version);
    send_message(*c, r, deps_.metrics);
  }
  if (g != Greeting::None) send_chat_history(*c, v);
}

namespace {

v1::ServerMessage chat_message(const std::string& game_id, const ChatEntry& e) {
  v1::ServerMessage m;
  auto* line = m.mutable_chat();
  line->set_game_id(game_id);
  line->set_room(e.room == ChatRoom::Players ? v1::ChatLine::PLAYERS : v1::ChatLine::SPECTATORS);
  line->mutable_from()->set_user_id(e.user_id);
  line->mutable_from()->set_name(e.name);
  line->set_text(e.text);
  line->set_at_ms(static_cast<uint64_t>(e.at_ms));
  line->set_seq(e.seq);
  return m;
}

ChatRoom room_of(xq::Viewer v) { return v == xq::Viewer::Spectator ? ChatRoom::Spectators : ChatRoom::Players; }

}  // namespace

void GameActor::send_chat_history(Connection& c, xq::Viewer v) {
  for (const ChatEntry& e : chat_.history(room_of(v))) send_message(c, chat_message(config_.id, e), deps_.metrics);
}

void GameActor::chat(const std::shared_ptr<Connection>& c, xq::Viewer v, const v1::ClientMessage& m) {
  const uint64_t rid = m.request_id();
  // Open after the end while the game stays in this node's memory (--finished-linger-ms), for a
  // "good game"; then closed: a node holding no game has no watchers to pass a line to.
  if (lost_ && session_.over())
    return send_error(*c, rid, v1::GAME_OVER, "the game is over: its chat is closed", deps_.metrics, config_.id);
  if (lost_)
    return send_error(*c, rid, v1::STORAGE_UNAVAILABLE, "the game moved to another node; retry", deps_.metrics, config_.id);
  if (!subs_.count(c->id()))
    return send_error(*c, rid, v1::BAD_REQUEST, "watch the game before writing in its chat", deps_.metrics, config_.id);
  if (v != xq::Viewer::Spectator && !config_.event_id.empty())
    return send_error(*c, rid, v1::CHAT_NOT_ALLOWED, "players of a tournament game do not chat", deps_.metrics, config_.id);
  const auto u = c->user();
  if (!u) return send_error(*c, rid, v1::NOT_AUTHENTICATED, "log in first", deps_.metrics, config_.id);
  if (deps_.options.chat_filter.blocks(m.chat().text()))
    return send_error(*c, rid, v1::CHAT_BLOCKED_WORD, "the line contains a word this server does not allow", deps_.metrics,
                      config_.id);
  std::string why;
  const auto entry = chat_.post(room_of(v), u->id, u->name, m.chat().text(), steady_ms(), wall_ms(), &why);
  if (!entry) {
    const bool too_fast = why.rfind("at most", 0) == 0 && why.find("lines") != std::string::npos;
    return send_error(*c, rid, too_fast ? v1::CHAT_NOT_ALLOWED : v1::BAD_REQUEST, why, deps_.metrics, config_.id);
  }
  // Stored off the io thread (a lost write loses the line for later readers only: it is sent).
  auto keep = [store = &deps_.store, id = config_.id, line = *entry] {
    try {
      store->append_chat(id, line);
    } catch (const std::exception& e) {
      std::cerr << "game " << id << ": storing a chat line failed: " << e.what() << '\n';
    }
  };
  if (!deps_.background || !deps_.background(keep)) keep();
  v1::ServerMessage r;
  r.set_request_id(rid);
  r.mutable_reply()->set_game_id(config_.id);
  send_message(*c, r, deps_.metrics);
  const std::string bytes = chat_message(config_.id, *entry).SerializeAsString();
  for (const auto& [id, sub] : subs_)
    if (room_of(sub.viewer) == entry->room)
      if (auto conn = sub.conn.lock()) {
        deps_.metrics.frames_out_total++;
        conn->send(bytes);
      }
}

void GameActor::subscribe_delayed(const std::shared_ptr<Connection>& c, Greeting g, uint64_t request_id,
                                  uint64_t last_version) {
  const Millis now = steady_ms();
  const int64_t wall = wall_ms(), delay = config_.spectator_delay_ms;
  const auto& events = session_.events();
  const uint64_t version = session_.version();
  // What a spectator may see now: the events older than the delay, replayed into a past game.
  uint64_t visible = 0;
  while (visible < version && events[visible].at_ms <= wall - delay) ++visible;
  GameSession past(config_);
  for (uint64_t i = 0; i < visible; ++i) past.replay(events[i]);
  const xq::Viewer v = xq::Viewer::Spectator;
  if (g == Greeting::Sync && last_version <= visible && visible - last_version <= deps_.options.max_catchup_events &&
      last_version >= past.last_takeback_version()) {
    for (uint64_t ver = last_version + 1; ver <= visible; ++ver) {
      v1::ServerMessage ev;
      *ev.mutable_game_event() = event_for(past, events[ver - 1], v, ver == visible, now, wall);
      send_message(*c, ev, deps_.metrics);
    }
  } else if (g != Greeting::None) {
    v1::ServerMessage m;
    m.set_request_id(request_id);
    *m.mutable_game_state() = state_for(past, v, now, wall);
    m.mutable_game_state()->set_spectators(static_cast<uint32_t>(watchers_.size()));
    send_message(*c, m, deps_.metrics);
  }
  // The newer events follow, each `delay` after it happened.
  for (uint64_t ver = visible + 1; ver <= version; ++ver) {
    v1::ServerMessage ev;
    *ev.mutable_game_event() = event_for(session_, events[ver - 1], v, ver == version, now, wall);
    delayed_.emplace(now + std::max<int64_t>(0, events[ver - 1].at_ms + delay - wall),
                     std::make_pair(std::weak_ptr<Connection>(c), ev.SerializeAsString()));
  }
  if (request_id != 0) {
    v1::ServerMessage r;
    r.set_request_id(request_id);
    r.mutable_reply()->set_game_id(config_.id);
    r.mutable_reply()->set_version(visible);
    send_message(*c, r, deps_.metrics);
  }
  arm_timer();
}

void GameActor::deliver_due() {
  const Millis now = steady_ms();
  while (!delayed_.empty() && delayed_.begin()->first <= now) {
    auto node = delayed_.extract(delayed_.begin());
    if (auto conn = node.mapped().first.lock()) {
      // Only while it still watches this game.
      if (subs_.count(conn->id())) {
        deps_.metrics.frames_out_total++;
        conn->send(std::move(node.mapped().second));
      }
    }
  }
}

void GameActor::drop_delayed_for(const Connection& c) {
  for (auto it = delayed_.begin(); it != delayed_.end();) {
    const auto conn = it->second.first.lock();
    if (!conn || conn.get() == &c)
      it = delayed_.erase(it);
    else
      ++it;
  }
}

void GameActor::forget_sub(const Sub& s) {
  if (s.watcher.empty()) return;
  if (auto w = watchers_.find(s.watcher); w != watchers_.end() && --w->second <= 0) watchers_.erase(w);
  spectators_ = static_cast<uint32_t>(watchers_.size());
}

void GameActor::unsubscribe(uint64_t connection_id) {
  auto it = subs_.find(connection_id);
  if (it == subs_.end()) return;
  xq::Viewer v = it->second.viewer;
  const uint32_t watching_before = spectators_;
  forget_sub(it->second);
  subs_.erase(it);
  if (spectators_ != watching_before) announce_spectators();
  if (v == xq::Viewer::Spectator) return;
  for (const auto& [id, s] : subs_)
    if (s.viewer == v) return;
  gone_since_[xq::index(side_of(v))] = steady_ms();
  store_away(side_of(v), true);
  announce_presence(side_of(v), false);
}

// A player's absence is kept in Redis too, so that claim_victory timing survives a reload or a
// takeover of the game. Best effort: without Redis the node's own memory still counts.
void GameActor::store_away(xq::Color side, bool away) {
  if (session_.over() || config_.tournament()) return;  // no claims in tournament games
  if (!away && !away_stored_[xq::index(side)]) return;    // nothing to clear
  try {
    if (away) deps_.store.set_away(config_.id, side, wall_ms());
    else deps_.store.clear_away(config_.id, side);
    away_stored_[xq::index(side)] = away;
  } catch (const std::exception& e) {
    std::cerr << "game " << config_.id << ": absence not stored: " << e.what() << '\n';
  }
}

void GameActor::announce_presence(xq::Color side, bool present, const Connection* except) {
  if (session_.over()) return;
  v1::ServerMessage m;
  auto* p = m.mutable_presence();
  p->set_game_id(config_.id);
  p->set_side(to_side(side));
  p->set_present(present);
  p->set_claim_after_ms(static_cast<uint32_t>(deps_.options.claim_after_ms));
  std::string bytes = m.SerializeAsString();
  for (const auto& [id, s] : subs_)
    if (auto c = s.conn.lock(); c && c.get() != except) {
      deps_.metrics.frames_out_total++;
      c->send(bytes);
    }
}

// The players see who watches when it changes, not only with the next move; spectators learn it
// with the next event (telling each of them would cost a frame per spectator per arrival).
void GameActor::announce_spectators() {
  if (session_.over()) return;
  v1::ServerMessage m;
  auto* p = m.mutable_presence();
  p->set_game_id(config_.id);
  p->set_side(v1::SIDE_NONE);
  p->set_spectators(spectators_);
  std::string bytes = m.SerializeAsString();
  for (const auto& [id, s] : subs_)
    if (s.viewer != xq::Viewer::Spectator)
      if (auto c = s.conn.lock()) {
        deps_.metrics.frames_out_total++;
        c->send(bytes);
      }
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
      } else if (gone == 0 || now - gone < deps_.options.claim_after_ms) {
        send_error(*c, rid, v1::CLAIM_NOT_ALLOWED, "your opponent is connected or left recently", deps_.metrics, config_.id);
        return nullptr;
      }
      else if (m.has_claim_draw()) st = session_.end({xq::Outcome::Draw, "claimed_draw"}, now, out);
      else st = session_.end(xq::Result::win(side, "forfeit"), now, out);
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

bool GameActor::publish(const std::vector<GameEvent>& events, const Connection* answering, uint64_t rid) {
  if (events.empty()) return false;
  published_version_ = std::max(published_version_, events.back().version);
  bool answered = false;
  const Millis now = steady_ms();
  const int64_t wall = wall_ms();
  // Closed connections go first, so the spectator count sent is right; the rest are locked once.
  std::vector<std::pair<std::shared_ptr<Connection>, xq::Viewer>> open;
  open.reserve(subs_.size());
  for (auto it = subs_.begin(); it != subs_.end();) {
    if (auto conn = it->second.conn.lock()) {
      open.emplace_back(std::move(conn), it->second.viewer);
      ++it;
    } else {
      forget_sub(it->second);
      it = subs_.erase(it);
    }
  }
  const auto spectators = static_cast<uint32_t>(watchers_.size());
  // Xiangqi hides nothing: every viewer's event is the spectator's, the mover's own copy with its
  // client_move_id added, so the event is built once (Jieqi's views differ in what was captured).
  const bool one_view = config_.variant == xq::Variant::Xiangqi;
  for (size_t i = 0; i < events.size(); ++i) {
    // Rendered once per kind of viewer; every viewer of that kind gets the same bytes.
    std::optional<std::string> rendered[3];
    std::optional<v1::ServerMessage> shared;
    for (const auto& [conn, viewer] : open) {
      auto& bytes = rendered[static_cast<int>(viewer)];
      if (!bytes && one_view) {
        if (!shared) {
          shared.emplace();
          *shared->mutable_game_event() =
              event_for(session_, events[i], xq::Viewer::Spectator, i + 1 == events.size(), now, wall);
          shared->mutable_game_event()->set_spectators(spectators);
        }
        const bool mover = events[i].kind == EventKind::Move && viewer != xq::Viewer::Spectator &&
                           (viewer == xq::Viewer::Red) == (events[i].side == xq::Color::Red);
        if (mover) shared->mutable_game_event()->set_client_move_id(events[i].client_move_id);
        bytes = shared->SerializeAsString();
        shared->mutable_game_event()->clear_client_move_id();
      } else if (!bytes) {
        v1::ServerMessage m;
        *m.mutable_game_event() = event_for(session_, events[i], viewer, i + 1 == events.size(), now, wall);
        m.mutable_game_event()->set_spectators(spectators);
        bytes = m.SerializeAsString();
      }
      if (viewer == xq::Viewer::Spectator && config_.spectator_delay_ms > 0) {
        delayed_.emplace(now + config_.spectator_delay_ms, std::make_pair(std::weak_ptr<Connection>(conn), *bytes));
      } else if (conn.get() == answering && !answered && events[i].kind == EventKind::Move) {
        // Protobuf merges concatenated messages: a message holding only the request id, then the
        // shared event bytes (whose request id is 0, i.e. absent), decode as the event with that id.
        v1::ServerMessage id;
        id.set_request_id(rid);
        deps_.metrics.frames_out_total++;
        conn->send(id.SerializeAsString() + *bytes);
        answered = true;
      } else {
        deps_.metrics.frames_out_total++;
        conn->send(*bytes);
      }
    }
  }
  return answered;
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
