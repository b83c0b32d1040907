// The game's viewers: subscriptions (players and spectators, delayed broadcasts), presence and
// the claims it allows, chat, and publishing events to everyone subscribed. Same strand as the
// rest of GameActor (game_actor.cpp).
#include "server/game_actor.h"

#include <algorithm>
#include <iostream>

#include "server/views.h"

namespace gs {
namespace v1 = xq::v1;

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

static bool is_sync(GameActor::Greeting g) { return g == GameActor::Greeting::Sync || g == GameActor::Greeting::Follow; }

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
  // So does a node's own follow (a takeover, its owner's restart) that missed nothing: with no
  // event and no reply it heard no clock, and the page's own count kept the gap the new owner
  // charges to nobody (flaky-network review, 2026-12-05: seconds short until the next move).
  const bool follow_missed_nothing = g == Greeting::Follow && last_version == version;
  if (is_sync(g) && !follow_missed_nothing && last_version <= version &&
      version - last_version <= deps_.options.max_catchup_events && last_version >= session_.last_takeback_version()) {
    // Catch-up: the missed events, in order, the last one with the current FEN and clock.
    for (uint64_t ver = last_version + 1; ver <= version; ++ver) {
      v1::ServerMessage ev;
      *ev.mutable_game_event() = event_for(session_, session_.events()[ver - 1], v, ver == version, now, wall);
      if (ver == version) ev.mutable_game_event()->set_spectators(static_cast<uint32_t>(watchers_.size()));
      send_message(*c, ev, deps_.metrics);
    }
    // A player back after a drop may have missed that its opponent left (review, 2026-12-04: the
    // claim button never came): the catch-up says so, with the time left until it may claim. Or
    // that the opponent came back meanwhile (its page still showed the claims): said too.
    if (v != xq::Viewer::Spectator && !session_.over()) {
      const xq::Color opp = xq::opposite(side_of(v));
      const int64_t gone = gone_since_[xq::index(opp)];
      if (gone == 0 || !config_.tournament()) {
        v1::ServerMessage pm;
        auto* p = pm.mutable_presence();
        p->set_game_id(config_.id);
        p->set_side(to_side(opp));
        p->set_present(gone == 0);
        p->set_claim_after_ms(static_cast<uint32_t>(
            gone == 0 ? deps_.options.claim_after_ms : std::max<int64_t>(0, deps_.options.claim_after_ms - (now - gone))));
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
    // With nothing missed, the clocks the client shows ran on while it (or the server) was away.
    if (is_sync(g)) fill_live_clock(r.mutable_reply()->mutable_clock(), session_, now, wall);
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
  // A player writes from any connection (a second tab that has not synced yet); anyone else
  // watches first, so that only those who read a room write in it.
  if (v == xq::Viewer::Spectator && !subs_.count(c->id()))
    return send_error(*c, rid, v1::BAD_REQUEST, "watch the game before writing in its chat", deps_.metrics, config_.id);
  if (v != xq::Viewer::Spectator && !config_.event_id.empty())
    return send_error(*c, rid, v1::CHAT_NOT_ALLOWED, "players of a tournament game do not chat", deps_.metrics, config_.id);
  const auto u = c->user();
  if (!u) return send_error(*c, rid, v1::NOT_AUTHENTICATED, "sign in first", deps_.metrics, config_.id);
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
  if (is_sync(g) && last_version <= visible && visible - last_version <= deps_.options.max_catchup_events &&
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

}  // namespace gs
