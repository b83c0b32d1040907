// The Hub's core: connections opened and closed, frames decoded, rate-limited and routed (lobby
// requests to the worker pools, game requests to the game's actor here or to its node).
#include "server/hub.h"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <optional>
#include <utility>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "server/views.h"
#include "store/keys.h"

namespace gs {
namespace v1 = xq::v1;

Hub::Hub(Runtime& rt, Redis& redis, Auth& auth, Metrics& metrics, ServerOptions options)
    : rt_(rt), redis_(redis), publisher_(redis), store_(redis, options.node_id, options.lease_ms, options.finished_replay_ms), presence_(redis, options.node_id), auth_(auth),
      metrics_(metrics), options_(std::move(options)),
      seek_push_strand_(rt) {}

// A sign-in's held frames may go to the lobby pool and a lobby request's to the sign-in pool: all
// pools stop taking work and finish theirs before any of them is destroyed.
Hub::~Hub() {
  for (WorkerPool* p : {&probe_pool_, &http_pool_, &sign_in_pool_, &lobby_pool_, &seek_push_pool_, &archive_pool_, &judge_pool_}) p->stop();
}

std::shared_ptr<GameActor> Hub::make_actor(GameSession s) {
  bool live = !s.over();
  const bool actor_session_new = s.events().empty();
  auto actor = std::make_shared<GameActor>(
      GameActor::Deps{rt_, store_, metrics_, options_,
                      [this](const std::string& id) {
                        std::lock_guard l(mu_);
                        games_.erase(id);
                      },
                      [this](const std::string& id) { drop_game(id); },
                      // Its players were not sent seek lists while they played (push_seeks).
                      [this](const GameConfig& g) {
                        post_seek_push({g.red.user_id, g.black.user_id});
                      },
                      [this](std::function<void()> job) { return archive_pool_.try_post(std::move(job)); },
                      [this](std::function<void()> job) { return judge_pool_.try_post(std::move(job)); }},
      std::move(s));
  // A game loaded with moves (a restart, a takeover, a finished game read back) brings its chat.
  if (!actor_session_new)
    try {
      actor->restore_chat(store_.load_chat(actor->config().id));
    } catch (const std::exception& e) {  // Redis away: the chat starts empty, the game is unharmed
      std::cerr << "game " << actor->config().id << ": its chat could not be read: " << e.what() << '\n';
    }
  if (live) metrics_.live_games++;
  return actor;
}

void Hub::on_open(const std::shared_ptr<Connection>& c) {
  metrics_.connections++;
  metrics_.connections_total++;
  std::lock_guard l(mu_);
  conns_[c->id()].conn = c;
}

void Hub::on_close(const std::shared_ptr<Connection>& c) {
  if (!is_proxy_id(c->id())) metrics_.connections--;
  std::set<std::string> games, remote_nodes;
  std::vector<std::string> gone_seeks;
  bool user_gone = false, left_node = false;
  std::optional<User> u;
  {
    std::lock_guard l(mu_);
    u = c->user();  // under mu_: a sign-in on a worker pool sets it under mu_ too (login_reply)
    auto it = conns_.find(c->id());
    if (it != conns_.end()) {
      games = std::move(it->second.games);
      remote_nodes = std::move(it->second.remote_nodes);
      conns_.erase(it);
    }
    if (u) {
      auto& set = user_conns_[u->id];
      set.erase(c->id());
      left_node = !is_proxy_id(c->id()) && std::none_of(set.begin(), set.end(), [](uint64_t id) { return !is_proxy_id(id); });
      if (set.empty()) {
        user_conns_.erase(u->id);
        // Seeks die with their owner's last connection. Only then does the seek list change: pushing
        // it on every departure made a mass disconnect quadratic (and ran the server out of memory).
        for (const auto& s : lobby_.visible_to(u->id))
          if (s.owner.id == u->id) gone_seeks.push_back(s.id);
        user_gone = lobby_.remove_user(u->id) > 0;
      }
    }
  }
  leave_games(c->id(), games, remote_nodes);
  if (!left_node && !user_gone) return;
  // Redis round trips: on the lobby pool (a mass disconnect would otherwise hold up the io threads).
  auto forget = [this, u, left_node, user_gone, gone_seeks = std::move(gone_seeks)] {
    if (left_node) {
      try {
        presence_.remove(u->name, u->id);
        // Back meanwhile (a page reload: the new connection's sign-in may have written its entry
        // just before this removal, and it would show offline until the next resync).
        bool back = false;
        {
          std::lock_guard l(mu_);
          if (auto it = user_conns_.find(u->id); it != user_conns_.end())
            back = std::any_of(it->second.begin(), it->second.end(), [](uint64_t id) { return !is_proxy_id(id); });
        }
        if (back) presence_.add(u->name, u->id);
      } catch (const RedisError&) {  // the next resync puts it right
      }
    }
    if (user_gone) {
      try {
        unstore_seeks(gone_seeks);
      } catch (const std::exception&) {
      }
      publish_seeks_changed();
    }
  };
  if (!lobby_pool_.try_post(forget)) forget();
}

// A connection signed in as someone else keeps none of its games: each was rendered for the viewer
// it had (a player sees what a spectator may not), so the new user watches or syncs them afresh.
// Games of other nodes: their proxies of this connection are closed there.
void Hub::drop_subscriptions(const std::shared_ptr<Connection>& c) {
  std::set<std::string> games, remote_nodes;
  {
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it == conns_.end()) return;
    games = std::exchange(it->second.games, {});
    remote_nodes = std::exchange(it->second.remote_nodes, {});
    it->second.remote_games.clear();
  }
  leave_games(c->id(), games, remote_nodes);
}

void Hub::leave_games(uint64_t conn_id, const std::set<std::string>& games, const std::set<std::string>& remote_nodes) {
  for (const auto& gid : games)
    if (auto a = find_game(gid)) a->post([conn_id](GameActor& g) { g.unsubscribe(conn_id); });
  // The nodes serving this connection's forwarded requests drop its proxy there (after the
  // requests: the publisher keeps the order).
  for (const auto& node : remote_nodes) {
    NodeMessage nm;
    nm.kind = NodeMessage::Kind::Close;
    nm.from_node = options_.node_id;
    nm.conn = conn_id;
    publisher_.publish(keys::node_channel(node), encode(nm));
  }
}

void Hub::on_too_large(const std::shared_ptr<Connection>& c, size_t size, uint64_t request_id) {
  send_error(*c, request_id, v1::TOO_LARGE, "frame of " + std::to_string(size) + " bytes exceeds " +
                                       std::to_string(options_.max_frame_bytes), metrics_);
}

// The request_id of a frame that does not decode as a whole (a text field that is not UTF-8, say),
// read from the envelope's field 1 as far as the fields before it are well formed; 0 if not found.
// So the error names the request and the client can tell which one failed.
static uint64_t request_id_of_undecodable(const std::string& bytes) {
  using google::protobuf::internal::WireFormatLite;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int>(bytes.size()));
  uint64_t id = 0;  // the last one counts, as in a decoded message
  while (const uint32_t tag = in.ReadTag()) {
    if (tag == WireFormatLite::MakeTag(v1::ClientMessage::kRequestIdFieldNumber, WireFormatLite::WIRETYPE_VARINT)) {
      if (!in.ReadVarint64(&id)) return 0;
    } else if (!WireFormatLite::SkipField(&in, tag)) {
      return id;
    }
  }
  return id;
}

// Refused, but under the same rate as any frame: answering costs (a text flood got an answer per frame).
void Hub::on_text_frame(const std::shared_ptr<Connection>& c) {
  metrics_.frames_in_total++;
  if (!c->take_token(options_.rate_per_second, options_.rate_burst, steady_ms()))
    return send_error(*c, 0, v1::RATE_LIMITED, "slow down: too many frames per second", metrics_);
  send_error(*c, 0, v1::BAD_FRAME, "binary frames only", metrics_);
}

void Hub::on_frame(const std::shared_ptr<Connection>& c, const std::string& bytes) {
  metrics_.frames_in_total++;
  const int64_t t0 = steady_ms();
  if (bytes.size() > options_.max_frame_bytes) {  // counted against the rate too: answering costs
    if (!c->take_token(options_.rate_per_second, options_.rate_burst, t0))
      return send_error(*c, 0, v1::RATE_LIMITED, "slow down: too many frames per second", metrics_);
    return on_too_large(c, bytes.size(), request_id_of_undecodable(bytes));  // named, as any refusal
  }
  // Decoded before the rate check (a frame is at most --max-frame bytes) so that a refused request
  // is answered under its own request_id: the client can tell which one to send again.
  v1::ClientMessage m;
  const bool decoded = m.ParseFromString(bytes);
  const uint64_t rid = decoded ? m.request_id() : request_id_of_undecodable(bytes);
  if (!c->take_token(options_.rate_per_second, options_.rate_burst, t0))
    return send_error(*c, rid, v1::RATE_LIMITED, "slow down: too many frames per second", metrics_);
  if (!decoded)
    return send_error(*c, rid, v1::BAD_FRAME, "not a ClientMessage (malformed protobuf, or a text field not UTF-8)",
                      metrics_);
  if (c->request_off_io()) {  // behind a request of the same connection still on a worker pool: its requests keep their order
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it != conns_.end() && c->request_off_io()) {
      if (it->second.held.size() >= kMaxHeldFrames) {
        return send_error(*c, m.request_id(), v1::RATE_LIMITED, "slow down: wait for your last request's answer", metrics_);
      }
      it->second.held.push_back(std::move(m));
      return;
    }
  }
  route(c, m, t0);
}

// The requests an io thread should not run: each waits on Redis round trips (presence, the shared
// seek list, game creation, ratings) or hashes a password. Game actions stay on the io threads:
// they wait on nothing (their appends are asynchronous).
static bool runs_off_io(const v1::ClientMessage& m) {
  using C = v1::ClientMessage;
  switch (m.body_case()) {
    case C::kRegister:
    case C::kLogin:
    case C::kHello:
    case C::kLoginGuest:
    case C::kCreateSeek:
    case C::kChallenge:
    case C::kCancelSeek:
    case C::kAcceptSeek:
    case C::kListSeeks:
    case C::kListGames: return true;
    default: return false;
  }
}

void Hub::route(const std::shared_ptr<Connection>& c, const v1::ClientMessage& m, int64_t t0) {
  if (!runs_off_io(m)) return handle(c, m, t0);
  const bool password = m.has_register_() || m.has_login();
  {
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it == conns_.end()) return;  // closed meanwhile
    c->set_request_off_io(true);
  }
  auto job = [this, c, m, t0] {
    handle(c, m, t0);
    release_held(c);
  };
  if ((password ? sign_in_pool_ : lobby_pool_).try_post(job)) return;
  // Queue full. Password hashing would take an io thread for ~40 ms: refused. Anything else runs
  // here, as it would without the pool.
  if (password) {
    send_error(*c, m.request_id(), v1::RATE_LIMITED, "too many sign-ins at once; retry in a moment", metrics_);
    return release_held(c);
  }
  job();
}

void Hub::handle(const std::shared_ptr<Connection>& c, const v1::ClientMessage& m, int64_t t0) {
  try {
    dispatch(c, m, t0);
  } catch (const RedisError& e) {
    send_error(*c, m.request_id(), v1::STORAGE_UNAVAILABLE, "storage unavailable", metrics_);
  } catch (const std::exception& e) {
    std::cerr << "dispatch: " << e.what() << '\n';
    send_error(*c, m.request_id(), v1::INTERNAL, "internal error", metrics_);
  }
}

// Register and login hash the password (scrypt, ~40 ms of CPU): route() runs them on the sign-in
// pool, not on an io thread.
void Hub::password_sign_in(const std::shared_ptr<Connection>& c, const v1::ClientMessage& m) {
  const uint64_t rid = m.request_id();
  User u;
  if (m.has_register_()) {
    auto err = auth_.register_user(m.register_().name(), m.register_().password(), u, address_block(c->client_address()));
    if (err == Auth::Error::NameTaken) send_error(*c, rid, v1::NAME_TAKEN, "name taken", metrics_);
    else if (err == Auth::Error::TooManyRegistrations)
      send_error(*c, rid, v1::RATE_LIMITED, "too many new accounts from your address: try again in an hour", metrics_);
    else if (err != Auth::Error::None && is_guest_name(m.register_().name()))
      send_error(*c, rid, v1::BAD_REQUEST, "names starting with 'guest' are kept for guests", metrics_);
    else if (err != Auth::Error::None && !valid_password(m.register_().password()))
      send_error(*c, rid, v1::BAD_REQUEST, "the password needs 6 to 200 bytes of UTF-8, no control characters, not only blanks", metrics_);
    else if (err != Auth::Error::None)
      send_error(*c, rid, v1::BAD_REQUEST,
                 "a name has 3 to 20 letters, digits, _ or - (2 to 20 with Chinese characters)", metrics_);
    else login_reply(c, rid, u);
  } else {
    auto err = auth_.login(m.login().name(), m.login().password(), u, address_block(c->client_address()));
    if (err == Auth::Error::Banned) send_error(*c, rid, v1::BANNED, "this account is banned", metrics_);
    else if (err == Auth::Error::TooManyFailures)
      send_error(*c, rid, v1::RATE_LIMITED, "too many wrong passwords for this account: try again in a minute", metrics_);
    else if (err != Auth::Error::None) send_error(*c, rid, v1::BAD_CREDENTIALS, "wrong name or password", metrics_);
    else login_reply(c, rid, u);
  }
}

// The frames that arrived while a request was on a worker pool, in order; another such request
// among them holds the rest again.
void Hub::release_held(const std::shared_ptr<Connection>& c) {
  for (;;) {
    v1::ClientMessage next;
    {
      std::lock_guard l(mu_);
      auto it = conns_.find(c->id());
      if (it == conns_.end()) return;
      if (it->second.held.empty()) {
        c->set_request_off_io(false);
        return;
      }
      next = std::move(it->second.held.front());
      it->second.held.pop_front();
    }
    if (runs_off_io(next)) return route(c, next, steady_ms());
    handle(c, next, steady_ms());
  }
}

void Hub::login_reply(const std::shared_ptr<Connection>& c, uint64_t rid, const User& u) {
  auto old = c->user();
  {
    std::lock_guard l(mu_);
    // Closed while the sign-in ran on a worker pool: on_close has already forgotten the
    // connection, and registering it now would leave its user online for ever.
    if (!conns_.count(c->id())) return;
    c->set_user(u);
    if (old && old->id != u.id) user_conns_[old->id].erase(c->id());
    user_conns_[u.id].insert(c->id());
  }
  if (old && old->id != u.id) drop_subscriptions(c);
  v1::ServerMessage r;
  r.set_request_id(rid);
  try {  // findable by direct challenges from any node
    presence_.add(u.name, u.id);
  } catch (const RedisError&) {  // the next resync adds it
  }
  try {
    auth_.remember_account(u);
  } catch (const RedisError&) {  // the next sign-in adds it
  }
  r.mutable_reply()->set_token(auth_.issue_token(u, wall_ms()));
  r.mutable_reply()->mutable_user()->set_user_id(u.id);
  r.mutable_reply()->mutable_user()->set_name(u.name);
  r.mutable_reply()->mutable_user()->set_guest(u.guest);
  r.mutable_reply()->set_role(role_name(auth_.role_of(u)));
  send_message(*c, r, metrics_);
}

static const std::string& game_id_of(const v1::ClientMessage& m) {
  switch (m.body_case()) {
    case v1::ClientMessage::kWatchGame: return m.watch_game().game_id();
    case v1::ClientMessage::kSync: return m.sync().game_id();
    case v1::ClientMessage::kMove: return m.move().game_id();
    case v1::ClientMessage::kResign: return m.resign().game_id();
    case v1::ClientMessage::kOfferDraw: return m.offer_draw().game_id();
    case v1::ClientMessage::kAcceptDraw: return m.accept_draw().game_id();
    case v1::ClientMessage::kDeclineDraw: return m.decline_draw().game_id();
    case v1::ClientMessage::kAbort: return m.abort().game_id();
    case v1::ClientMessage::kRequestMoveLimit: return m.request_move_limit().game_id();
    case v1::ClientMessage::kProposeTakeback: return m.propose_takeback().game_id();
    case v1::ClientMessage::kAcceptTakeback: return m.accept_takeback().game_id();
    case v1::ClientMessage::kDeclineTakeback: return m.decline_takeback().game_id();
    case v1::ClientMessage::kGiveTime: return m.give_time().game_id();
    case v1::ClientMessage::kClaimVictory: return m.claim_victory().game_id();
    case v1::ClientMessage::kClaimDraw: return m.claim_draw().game_id();
    case v1::ClientMessage::kUnwatchGame: return m.unwatch_game().game_id();
    case v1::ClientMessage::kChat: return m.chat().game_id();
    default: {
      static const std::string empty;
      return empty;
    }
  }
}

void Hub::dispatch(const std::shared_ptr<Connection>& c, const v1::ClientMessage& m, int64_t t0, int hops) {
  const uint64_t rid = m.request_id();
  using C = v1::ClientMessage;
  switch (m.body_case()) {
    case C::kPing: {
      c->note_ping(steady_ms(), options_.heartbeat_idle_ms);
      v1::ServerMessage r;
      r.set_request_id(rid);
      r.mutable_pong()->set_client_time_ms(m.ping().client_time_ms());
      r.mutable_pong()->set_server_time_ms(static_cast<uint64_t>(wall_ms()));
      return send_message(*c, r, metrics_);
    }
    case C::kHello: {
      auto u = auth_.verify_token(m.hello().token(), wall_ms());
      if (!u) return send_error(*c, rid, v1::BAD_TOKEN, "invalid or expired token", metrics_);
      if (!auth_.session_current(*u))
        return send_error(*c, rid, v1::BAD_TOKEN,
                          "signed out: this account's sessions were ended (a password change or a sign-out "
                          "everywhere): sign in again",
                          metrics_);
      if (auth_.banned(u->id)) return send_error(*c, rid, v1::BANNED, "this account is banned", metrics_);
      // A guest coming back finds its name taken by a newer guest meanwhile: it gets the suffix
      // a second guest of one name gets at sign-in (the fresh token carries it).
      if (u->guest) try {
          if (auto holder = presence_.find(u->name); (holder && *holder != u->id) || !presence_.claim_guest_name(u->name, u->id))
            u->name = unique_guest_name(*u);
        } catch (const std::exception&) {  // Redis away: the name as before
        }
      return login_reply(c, rid, *u);
    }
    case C::kLoginGuest: {
      User guest = auth_.make_guest(m.login_guest().name());
      // Two guests of one name would be one name for two people (a challenge by name reaches only
      // one of them): a name already signed in somewhere, or being signed in on another node this
      // instant, gets part of the new guest's id.
      try {
        if (presence_.find(guest.name) || !presence_.claim_guest_name(guest.name, guest.id))
          guest.name = unique_guest_name(guest);
      } catch (const std::exception&) {  // Redis away: the name as asked
      }
      return login_reply(c, rid, guest);
    }
    case C::kRegister:
    case C::kLogin: return password_sign_in(c, m);
    case C::BODY_NOT_SET: return send_error(*c, rid, v1::UNKNOWN_MESSAGE, "empty or unknown message", metrics_);
    default: break;
  }

  auto u = c->user();
  if (!u) return send_error(*c, rid, v1::NOT_AUTHENTICATED, "sign in first", metrics_);
  switch (m.body_case()) {
    case C::kCreateSeek:
    case C::kChallenge: return create_seek(c, *u, m);
    case C::kCancelSeek: return cancel_seek(c, *u, m, hops);
    case C::kAcceptSeek: return accept_seek(c, *u, m, hops);
    case C::kListSeeks: return list_seeks(c, *u, rid);
    case C::kListGames: return list_games(c, m);
    default: return game_request(c, *u, m, t0, hops);
  }
}

void Hub::game_request(const std::shared_ptr<Connection>& c, const User& u, const v1::ClientMessage& m, int64_t t0,
                       int hops) {
  const uint64_t rid = m.request_id();
  const std::string& gid = game_id_of(m);
  if (gid.empty()) return send_error(*c, rid, v1::BAD_REQUEST, "game_id missing", metrics_);
  // Game ids are short and plain (hex, or an event's id with its round and board): anything else
  // names no game, and is not echoed back (review, 2026-12-04: 5,000 bytes came back twice).
  const bool plain = gid.size() <= 128 && std::all_of(gid.begin(), gid.end(), [](char ch) {
                       return std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_';
                     });
  if (!plain)
    return send_error(*c, rid, v1::UNKNOWN_GAME, "no such game: a game id is at most 128 letters, digits, '-' or '_'", metrics_);
  std::string owner;
  auto actor = locate(gid, owner, c->id());
  if (!actor && !owner.empty()) {
    // Another node owns the game: it serves this connection through a proxy.
    bool too_many = false;
    std::optional<uint64_t> catch_up_from;
    {
      std::lock_guard l(mu_);
      if (auto it = conns_.find(c->id()); it != conns_.end()) {
        if (m.has_unwatch_game()) it->second.remote_games.erase(gid);
        else if (rid != 0 && (m.has_watch_game() || m.has_sync()) &&
                 would_pass_follow_limit(it->second, gid))
          too_many = true;  // whether the user plays in it is not known here: a player follows few games
        else if (!m.has_chat()) {  // a chat line follows nothing: only a watch, a sync or a play does
          const bool followed = it->second.remote_games.count(gid) > 0;
          auto& rg = it->second.remote_games[gid];
          // Followed from a node that no longer serves this connection (the game was taken over,
          // its owner restarted, or a request did not reach it), and the tick has not followed it
          // yet: an action would subscribe it at the owner only from the action on, and the
          // events in between would never come (review, 2026-12-04: a draw offer right after a
          // takeover lost the opponent's move for good). A catch-up goes first. (A watch or a
          // sync catches up by itself.)
          if (followed && (rg.node != owner || rg.owner_restarted) && !m.has_watch_game() && !m.has_sync())
            catch_up_from = rg.version;
          rg.owner_restarted = false;
          rg.node = owner;  // followed even if this attempt fails
          if (rid != 0) rg.client_asked_ms = steady_ms();
          // A later follow catches up from where the client says it is, not from the start. A
          // sync of this node's own (request id 0: resubscribe) never moves back: events may
          // have been passed on since it read the version, and would be passed on twice.
          if (m.has_sync()) {
            if (rid != 0) rg.synced_from(m.sync().last_version());
            else rg.version = std::max(rg.version, m.sync().last_version());
          }
        }
      }
    }
    if (too_many) return refuse_too_many_followed(*c, rid, gid);
    if (catch_up_from) resubscribe(c, gid, *catch_up_from, false);  // forwarded before the action: it arrives first
    auto unreachable = [this, c, rid, gid, owner] {
      {  // followed again at the next tick (follow_moved_games), not left pointing at a node that did not hear it
        std::lock_guard l(mu_);
        forwarded_.erase({c->id(), rid});
        if (auto it = conns_.find(c->id()); it != conns_.end())
          if (auto g = it->second.remote_games.find(gid); g != it->second.remote_games.end() && g->second.node == owner)
            g->second.node.clear();
      }
      // A follow of this node's own (request id 0, at a tick) answers nothing the client asked: it
      // is simply tried again at the next tick.
      if (rid != 0)
        send_error(*c, rid, v1::STORAGE_UNAVAILABLE, "the game's node is unreachable; retry in a moment", metrics_, gid);
    };
    if (hops >= 2) return unreachable();
    if (rid != 0 && !is_proxy_id(c->id())) {  // the client's own node watches for the answer
      std::lock_guard l(mu_);
      forwarded_[{c->id(), rid}] = Forwarded{gid, steady_ms()};
    }
    return forward_async(c, u, owner, m, hops + 1, unreachable);
  }
  if (!actor) {  // not a live game (any more): nothing to follow
    std::string ended_on;
    {
      std::lock_guard l(mu_);
      if (auto it = conns_.find(c->id()); it != conns_.end()) {
        it->second.remote_games.erase(gid);
        for (const auto& [g, node] : it->second.ended_remote_games)
          if (g == gid) ended_on = node;
      }
    }
    // A line after the end, to the node where the game ended: its chat is open while it lingers
    // there (that node answers GAME_OVER once it has let the game go).
    if (m.has_chat() && !ended_on.empty() && ended_on != options_.node_id && hops < 2) {
      auto unreachable = [this, c, rid, gid] {
        {
          std::lock_guard l(mu_);
          forwarded_.erase({c->id(), rid});
        }
        send_error(*c, rid, v1::GAME_OVER, "game " + gid + " is over: its chat is closed", metrics_, gid);
      };
      if (rid != 0 && !is_proxy_id(c->id())) {
        std::lock_guard l(mu_);
        forwarded_[{c->id(), rid}] = Forwarded{gid, steady_ms()};
      }
      return forward_async(c, u, ended_on, m, hops + 1, unreachable);
    }
  }
  if (!actor && (m.has_watch_game() || m.has_sync())) return send_stored_game(c, u, gid, rid);
  if (!actor) {
    // Not live anywhere: a finished game has ended (a node that lost it from memory, e.g. after a
    // restart, still answers as its owner would have). One stored but not live yet is being
    // created: unknown for the moment, not over (a player who learnt its id early tries again).
    if (store_.is_finished(gid)) {
      // A move resent after the end (its answer was lost with the connection) was played: say so,
      // as the game would have while in memory.
      if (m.has_move() && !m.move().client_move_id().empty()) {
        try {
          const GameSession stored = store_.load(gid);
          const xq::Viewer v = viewer_for(stored.config(), u.id);
          const xq::Color side = v == xq::Viewer::Black ? xq::Color::Black : xq::Color::Red;
          if (v != xq::Viewer::Spectator)
            if (auto ver = stored.find_client_move(side, m.move().client_move_id())) {
              v1::ServerMessage r;
              r.set_request_id(rid);
              r.mutable_reply()->set_game_id(gid);
              r.mutable_reply()->set_version(*ver);
              r.mutable_reply()->set_duplicate(true);
              return send_message(*c, r, metrics_);
            }
        } catch (const RedisError&) {
          throw;
        } catch (const std::exception&) {  // a record that does not load: the game is over all the same
        }
      }
      return send_error(*c, rid, v1::GAME_OVER, "game " + gid + (m.has_chat() ? " is over: its chat is closed" : " is over"),
                        metrics_, gid);
    }
    return send_error(*c, rid, v1::UNKNOWN_GAME, "no live game " + gid, metrics_, gid);
  }
  xq::Viewer viewer = viewer_for(actor->config(), u.id);
  // A player's connection stays subscribed: unsubscribed, it would count as gone, and the
  // opponent could claim the game while the player sits there.
  if (m.has_unwatch_game() && viewer != xq::Viewer::Spectator)
    return send_error(*c, rid, v1::BAD_REQUEST, "you play in this game: unwatch_game is for spectators", metrics_, gid);
  if (m.has_chat()) return actor->post([c, viewer, m](GameActor& a) { a.chat(c, viewer, m); });
  // Refused before the connection counts as following the game: it is not subscribed to it.
  if (viewer == xq::Viewer::Spectator && !m.has_watch_game() && !m.has_sync() && !m.has_unwatch_game())
    return send_error(*c, rid, v1::NOT_YOUR_GAME, "you do not play this game", metrics_, gid);
  bool was_subscribed = false, too_many = false;
  std::optional<uint64_t> followed_elsewhere_to;  // the version it had reached following the game on another node
  {
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it == conns_.end()) return;
    if (viewer == xq::Viewer::Spectator && (m.has_watch_game() || m.has_sync()) &&
        would_pass_follow_limit(it->second, gid))
      too_many = true;
    else
      was_subscribed = !it->second.games.insert(gid).second;
    if (auto r = it->second.remote_games.find(gid); r != it->second.remote_games.end()) {
      followed_elsewhere_to = r->second.version;
      it->second.remote_games.erase(r);  // served here now
    }
  }
  if (too_many) return refuse_too_many_followed(*c, rid, gid);
  if (m.has_unwatch_game()) {
    {
      std::lock_guard l(mu_);
      if (auto it = conns_.find(c->id()); it != conns_.end()) it->second.games.erase(gid);
    }
    // Answered on the game's strand once unsubscribed: no event of the game follows the answer
    // (an event sent before it is queued before it on the connection).
    v1::ServerMessage r;
    r.set_request_id(rid);
    r.mutable_reply()->set_game_id(gid);
    return actor->post([c, r, this](GameActor& a) {
      a.unsubscribe(c->id());
      send_message(*c, r, metrics_);
    });
  }
  if (m.has_watch_game()) {
    return actor->post([c, viewer, rid](GameActor& a) { a.subscribe(c, viewer, GameActor::Greeting::State, rid); });
  }
  if (m.has_sync()) {
    uint64_t last = m.sync().last_version();
    const auto g = m.sync().follow() ? GameActor::Greeting::Follow : GameActor::Greeting::Sync;
    return actor->post([c, viewer, rid, last, g](GameActor& a) { a.subscribe(c, viewer, g, rid, last); });
  }
  actor->post([c, viewer, m, t0, was_subscribed, followed_elsewhere_to](GameActor& a) {
    // Followed on another node until this one took the game over: the events since are sent
    // before the action's (as for a follow moved to another node, game_request above).
    if (!was_subscribed)
      a.subscribe(c, viewer, followed_elsewhere_to ? GameActor::Greeting::Sync : GameActor::Greeting::None, 0,
                  followed_elsewhere_to.value_or(0));
    a.handle(c, viewer, m, t0);
  });
}

void Hub::forget_unloaded_games(ConnInfo& ci) {
  std::erase_if(ci.games, [&](const std::string& gid) { return !games_.count(gid); });
}

bool Hub::would_pass_follow_limit(ConnInfo& ci, const std::string& gid) {
  const size_t max = options_.max_followed_games;
  if (!max || ci.follows(gid)) return false;
  forget_unloaded_games(ci);
  size_t live = ci.remote_games.size();
  for (const auto& g : ci.games)
    if (auto a = games_.find(g); a != games_.end() && !a->second->finished()) ++live;
  return live >= max;
}

void Hub::refuse_too_many_followed(Connection& c, uint64_t rid, const std::string& gid) {
  send_error(c, rid, v1::BAD_REQUEST,
             "watching too many games at once (at most " + std::to_string(options_.max_followed_games) + "): unwatch_game one first",
             metrics_, gid);
}

void Hub::push_notice(const std::vector<std::string>& user_ids, const std::string& kind, const std::string& event_id,
                      const std::string& game_id, const std::string& text, const std::string& code,
                      const std::vector<std::pair<std::string, std::string>>& params) {
  v1::ServerMessage m;
  auto* n = m.mutable_notice();
  n->set_kind(kind);
  n->set_event_id(event_id);
  n->set_game_id(game_id);
  n->set_text(text);
  n->set_code(code);
  for (const auto& [name, value] : params) (*n->mutable_params())[name] = value;
  std::string bytes = m.SerializeAsString();
  for (const auto& u : user_ids)
    for (auto& c : connections_of(u)) {
      metrics_.frames_out_total++;
      c->send(bytes);
    }
}

std::shared_ptr<GameActor> Hub::find_game(const std::string& id) {
  std::lock_guard l(mu_);
  auto it = games_.find(id);
  return it == games_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<Connection>> Hub::connections_of(const std::string& user_id) {
  std::vector<std::shared_ptr<Connection>> out;
  std::lock_guard l(mu_);
  auto it = user_conns_.find(user_id);
  if (it == user_conns_.end()) return out;
  for (auto id : it->second)
    if (auto ci = conns_.find(id); ci != conns_.end())
      if (auto cc = ci->second.conn.lock()) out.push_back(cc);
  return out;
}

}  // namespace gs
