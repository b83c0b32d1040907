#include "server/hub.h"

#include <boost/json.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <thread>
#include <utility>

#include "game/codec.h"
#include "rules/jieqi.h"
#include "server/views.h"
#include "store/keys.h"
#include "store/rating_store.h"

namespace json = boost::json;

namespace gs {
namespace v1 = xq::v1;

Hub::Hub(Runtime& rt, Redis& redis, Auth& auth, Metrics& metrics, ServerOptions options)
    : rt_(rt), redis_(redis), publisher_(redis), store_(redis, options.node_id, options.lease_ms), presence_(redis, options.node_id), auth_(auth),
      metrics_(metrics), options_(std::move(options)),
      seek_push_strand_(rt) {}

// A sign-in's held frames may go to the lobby pool and a lobby request's to the sign-in pool: all
// pools stop taking work and finish theirs before any of them is destroyed.
Hub::~Hub() {
  for (WorkerPool* p : {&sign_in_pool_, &lobby_pool_, &seek_push_pool_, &archive_pool_}) p->stop();
}

std::shared_ptr<GameActor> Hub::make_actor(GameSession s) {
  bool live = !s.over();
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
                      [this](std::function<void()> job) { return archive_pool_.try_post(std::move(job)); }},
      std::move(s));
  if (live) metrics_.live_games++;
  return actor;
}

// Every connection, with mu_ held for at most kChunk of them at a time: one pass over tens of
// thousands of connections took tens of milliseconds, and every frame of every game waits for
// mu_. Connections opened or closed meanwhile may be seen or missed, as with any snapshot.
template <class Fn>
void Hub::for_each_conn(Fn&& fn) {
  constexpr size_t kChunk = 256;
  uint64_t from = 0;
  for (;;) {
    std::lock_guard l(mu_);
    auto it = conns_.lower_bound(from);
    for (size_t n = 0; it != conns_.end() && n < kChunk; ++it, ++n) fn(it->first, it->second);
    if (it == conns_.end()) return;
    from = it->first;
  }
}

size_t Hub::recover() {
  std::vector<std::string> candidates;
  const auto live = store_.live_game_ids();  // a Redis round trip: not under mu_, which every frame takes
  {
    std::lock_guard l(mu_);
    for (const auto& id : live)
      if (!games_.count(id) && !unloadable_.count(id)) candidates.push_back(id);
  }
  if (candidates.empty()) return 0;
  size_t n = 0;
  for (const auto& id : store_.claimable(candidates)) {
    if (adopt(id)) ++n;
    if (n >= 1000) break;  // the rest on the next tick: a takeover storm stays bounded
  }
  return n;
}

std::shared_ptr<GameActor> Hub::adopt(const std::string& id) {
  if (auto a = find_game(id)) return a;
  if (!store_.claim(id)) return nullptr;
  try {
    GameSession s = store_.load(id);
    if (s.over()) {  // ended but not archived before the crash
      store_.archive(s);  // also drops the claim
      return nullptr;
    }
    auto actor = make_actor(std::move(s));
    {
      std::lock_guard l(mu_);
      auto [it, inserted] = games_.emplace(id, actor);
      if (!inserted) {  // another thread of this node adopted it meanwhile
        metrics_.live_games--;
        return it->second;
      }
    }
    actor->post([](GameActor& a) { a.start(); });
    return actor;
  } catch (const RedisError&) {
    throw;
  } catch (const std::exception& e) {
    std::cerr << "recover " << id << ": " << e.what() << '\n';
    std::lock_guard l(mu_);
    unloadable_.insert(id);
    return nullptr;
  }
}

std::shared_ptr<GameActor> Hub::locate(const std::string& gid, std::string& owner) {
  owner.clear();
  if (auto a = find_game(gid)) return a;
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto o = store_.owner(gid);
    if (o && *o != options_.node_id) {
      owner = *o;
      return nullptr;
    }
    if (!store_.is_live(gid)) return nullptr;
    if (auto a = adopt(gid)) {
      std::cerr << "node " << options_.node_id << ": took over game " << gid << " on request\n";
      return a;
    }  // else lost a race for the claim: look again
  }
  return nullptr;
}

std::string Hub::node_request(const std::shared_ptr<Connection>& c, const User& u, const std::string& node,
                              const v1::ClientMessage& m, int hops) {
  {
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it == conns_.end()) return {};  // closed meanwhile
    it->second.remote_nodes.insert(node);  // before sending: a close right after must reach it
  }
  NodeMessage nm;
  nm.kind = NodeMessage::Kind::Request;
  nm.from_node = options_.node_id;
  nm.conn = c->id();
  nm.user_id = u.id;
  nm.user_name = u.name;
  nm.guest = u.guest;
  nm.hops = hops;
  nm.payload = m.SerializeAsString();
  return encode(nm);
}

bool Hub::forward(const std::shared_ptr<Connection>& c, const User& u, const std::string& node,
                  const v1::ClientMessage& m, int hops) {
  auto msg = node_request(c, u, node, m, hops);
  if (msg.empty()) return true;
  return redis_.command({"PUBLISH", keys::node_channel(node), msg}).integer > 0;
}

void Hub::forward_async(const std::shared_ptr<Connection>& c, const User& u, const std::string& node,
                        const v1::ClientMessage& m, int hops, std::function<void()> undelivered) {
  auto msg = node_request(c, u, node, m, hops);
  if (msg.empty()) return;
  publisher_.publish(keys::node_channel(node), std::move(msg), [undelivered = std::move(undelivered)](long long receivers) {
    if (receivers <= 0) undelivered();
  });
}

void Hub::drop_game(const std::string& id) {
  std::shared_ptr<GameActor> a;
  {
    std::lock_guard l(mu_);
    auto it = games_.find(id);
    if (it == games_.end() || it->second->finished()) return;
    a = it->second;
    games_.erase(it);
  }
  std::cerr << "node " << options_.node_id << ": lost game " << id << '\n';
  a->post([this, id](GameActor& g) {
    for (auto& [c, version] : g.retire()) resubscribe(c, id, version);
  });
}

// A subscriber of a game this node lost: it follows the game to its new owner (or to this node
// again), catching up from the version it had.
void Hub::resubscribe(const std::shared_ptr<Connection>& c, const std::string& gid, uint64_t version) {
  auto u = c->user();
  if (!u) return;
  {
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it == conns_.end()) return;
    it->second.games.erase(gid);
  }
  v1::ClientMessage m;
  m.mutable_sync()->set_game_id(gid);
  m.mutable_sync()->set_last_version(version);
  try {
    if (is_proxy_id(c->id())) {
      // A connection of another node: if the game went elsewhere, its node follows it there by
      // itself (follow_moved_games); relaying it through here as well would duplicate frames.
      std::string owner;
      if (!locate(gid, owner)) return;
    }
    game_request(c, *u, m, steady_ms(), 0);
  } catch (const std::exception& e) {
    std::cerr << "resubscribe " << gid << ": " << e.what() << '\n';
  }
}

void Hub::tick() {
  const bool lapsed = store_.heartbeat();
  const bool full_check = lapsed || ticks_++ % kFullCheckTicks == 0;
  if (full_check) {  // our heartbeat lapsed: other nodes may have taken games
    std::vector<std::string> mine;
    {
      std::lock_guard l(mu_);
      for (const auto& [id, a] : games_)
        if (!a->finished() && !a->lost()) mine.push_back(id);
    }
    for (const auto& id : store_.lost_games(mine)) drop_game(id);
    refresh_presence();
  }
  size_t adopted = 0;
  for (const auto& id : store_.games_of_dead_nodes(1000)) {
    if (adopt(id)) ++adopted;
    if (adopted >= 1000) break;  // the rest on the next tick: a takeover storm stays bounded
  }
  if (adopted) std::cerr << "node " << options_.node_id << ": took over " << adopted << " games of dead nodes\n";
  if (full_check) recover();  // games with no owner at all
  std::vector<std::shared_ptr<ProxyConnection>> dead;
  {
    std::lock_guard l(mu_);
    for (auto it = proxies_.begin(); it != proxies_.end();)
      if (it->second->closed()) {
        dead.push_back(it->second);
        it = proxies_.erase(it);
      } else {
        ++it;
      }
  }
  for (auto& p : dead) on_close(p);
  follow_moved_games();
  sweep_dead_nodes_seeks();
}

// The users connected here stay findable by name from every node while this node lives.
void Hub::refresh_presence() {
  presence_.resync([this] {
    std::map<std::string, std::string> users;  // name → id
    for_each_conn([&](uint64_t id, const ConnInfo& ci) {
      if (is_proxy_id(id)) return;
      if (auto c = ci.conn.lock())
        if (auto u = c->user()) users[u->name] = u->id;
    });
    return users;
  });
}

void Hub::follow_moved_games() {
  struct Follow {
    std::shared_ptr<Connection> conn;
    std::string gid, node;
    uint64_t version;
  };
  std::vector<Follow> follows;
  std::vector<std::string> gids;
  std::set<std::string> distinct;
  for_each_conn([&](uint64_t id, const ConnInfo& ci) {
    if (is_proxy_id(id) || ci.remote_games.empty()) return;
    auto c = ci.conn.lock();
    if (!c) return;
    for (const auto& [gid, rg] : ci.remote_games) {
      follows.push_back({c, gid, rg.node, rg.version});
      distinct.insert(gid);
    }
  });
  gids.assign(distinct.begin(), distinct.end());
  if (gids.empty()) return;
  std::map<std::string, std::string> owners;
  auto living = store_.owners(gids);
  for (size_t i = 0; i < gids.size(); ++i) owners[gids[i]] = living[i];
  for (const auto& f : follows) {
    if (owners[f.gid] == f.node) continue;  // still there (or its heartbeat has not run out yet)
    std::cerr << "node " << options_.node_id << ": connection " << f.conn->id() << " follows game " << f.gid << " from "
              << f.node << " to " << (owners[f.gid].empty() ? "(free)" : owners[f.gid]) << " at version " << f.version
              << '\n';
    resubscribe(f.conn, f.gid, f.version);  // to the new owner, or taken over here
  }
}

void Hub::release_all() {
  std::vector<std::string> seeks;
  try {
    auto stored = all_seeks();
    {
      std::lock_guard l(mu_);
      for (const auto& s : stored)
        if (lobby_.find(s.id)) seeks.push_back(s.id);
    }
    unstore_seeks(seeks);
    store_.stop_heartbeat();  // the other nodes take this node's games at their next tick
  } catch (const std::exception& e) {
    std::cerr << "release: " << e.what() << '\n';
  }
}

void Hub::on_node_message(const NodeMessage& nm) {
  using K = NodeMessage::Kind;
  switch (nm.kind) {
    case K::Frame: {
      std::shared_ptr<Connection> c;
      {
        std::lock_guard l(mu_);
        if (auto it = conns_.find(nm.conn); it != conns_.end()) c = it->second.conn.lock();
      }
      if (!c) return;
      // Note how far the client got in games of other nodes (to resubscribe it if one moves).
      v1::ServerMessage sm;
      if (sm.ParseFromString(nm.payload) && (sm.has_game_event() || sm.has_game_state() || sm.has_game_started())) {
        const std::string& gid = sm.has_game_event()   ? sm.game_event().game_id()
                                 : sm.has_game_state() ? sm.game_state().game_id()
                                                       : sm.game_started().game_id();
        const uint64_t ver = sm.has_game_event()   ? sm.game_event().version()
                             : sm.has_game_state() ? sm.game_state().version()
                                                   : sm.game_started().version();
        const bool over = (sm.has_game_event() && sm.game_event().kind() == v1::GameEvent::GAME_ENDED) ||
                          (sm.has_game_state() && sm.game_state().has_result() &&
                           sm.game_state().result().outcome() != v1::ONGOING);
        const v1::GameState* state = sm.has_game_state() ? &sm.game_state() : sm.has_game_started() ? &sm.game_started() : nullptr;
        const bool as_player = state && (state->you() == v1::RED || state->you() == v1::BLACK);
        bool greet = false, stopped_playing = false;
        {
          std::lock_guard l(mu_);
          if (auto it = conns_.find(nm.conn); it != conns_.end()) {
            auto& rg = it->second.remote_games;
            auto g = rg.find(gid);
            // A game started for this connection by another node (e.g. it took a seek there):
            // followed from now on, though the client has sent nothing for it through this node.
            if (g == rg.end() && sm.has_game_started() && !over) g = rg.emplace(gid, ConnInfo::RemoteGame{nm.from_node, ver}).first;
            if (g != rg.end()) {
              if (over) {
                stopped_playing = g->second.playing;
                rg.erase(g);
              } else {
                g->second.version = std::max(g->second.version, ver);
                g->second.playing = g->second.playing || as_player;
              }
            }
            greet = sm.has_game_state() && sm.request_id() == 0 && it->second.greet_as_started.erase(gid) > 0;
          }
        }
        // Its player got no seek lists while it played (push_seeks): the current one now.
        if (auto u = c->user(); stopped_playing && u)
          post_seek_push({u->id});
        if (greet) {
          v1::GameState st = std::move(*sm.mutable_game_state());
          *sm.mutable_game_started() = std::move(st);
          metrics_.frames_out_total++;
          c->send(sm.SerializeAsString());
          return;
        }
      }
      metrics_.frames_out_total++;
      c->send(nm.payload);
      return;
    }
    case K::Close: {
      std::shared_ptr<ProxyConnection> p;
      {
        std::lock_guard l(mu_);
        auto it = proxies_.find({nm.from_node, nm.conn});
        if (it == proxies_.end()) return;
        p = it->second;
        proxies_.erase(it);
      }
      p->close();
      return on_close(p);
    }
    case K::Seeks: return request_seek_push();
    case K::Notice: {
      v1::ServerMessage note;
      const bool game_ready = note.ParseFromString(nm.payload) && note.has_notice() &&
                              note.notice().kind() == "game_ready" && !note.notice().game_id().empty();
      for (const auto& u : nm.users)
        for (auto& c : connections_of(u))
          if (!is_proxy_id(c->id())) {
            metrics_.frames_out_total++;
            c->send(nm.payload);
            if (game_ready) greet_remote_game(c, note.notice().game_id());
          }
      return;
    }
    case K::Admin:
      if (nm.users.size() == 3 && find_game(nm.users[0])) admin_game_action(nm.users[0], nm.users[1], nm.users[2]);
      return;
    case K::Ban:
      for (const auto& u : nm.users)
        for (auto& c : connections_of(u)) c->close();
      return;
    case K::Request: break;
  }
  // A request of a client of another node: served through a proxy of that connection.
  std::shared_ptr<ProxyConnection> p, stale;
  User u{nm.user_id, nm.user_name, nm.guest};
  {
    std::lock_guard l(mu_);
    auto& slot = proxies_[{nm.from_node, nm.conn}];
    if (slot && slot->closed()) stale = std::exchange(slot, nullptr);  // a fresh one (e.g. after a lost publish)
    if (!slot) {
      slot = std::make_shared<ProxyConnection>(next_proxy_id_++, publisher_, nm.from_node, nm.conn);
      conns_[slot->id()].conn = slot;
    }
    p = slot;
    auto old = p->user();
    if (!old || old->id != u.id) {
      if (old) user_conns_[old->id].erase(p->id());
      user_conns_[u.id].insert(p->id());
      p->set_user(u);
    }
  }
  if (stale) on_close(stale);
  v1::ClientMessage m;
  if (!m.ParseFromString(nm.payload)) return send_error(*p, 0, v1::BAD_FRAME, "not a ClientMessage", metrics_);
  try {
    dispatch(p, m, steady_ms(), nm.hops);
  } catch (const RedisError&) {
    send_error(*p, m.request_id(), v1::STORAGE_UNAVAILABLE, "storage unavailable", metrics_);
  } catch (const std::exception& e) {
    std::cerr << "dispatch (forwarded): " << e.what() << '\n';
    send_error(*p, m.request_id(), v1::INTERNAL, "internal error", metrics_);
  }
}

void Hub::greet_remote_game(const std::shared_ptr<Connection>& c, const std::string& gid) {
  auto u = c->user();
  if (!u || find_game(gid)) return;  // a game of this node: launch() greeted its players
  {
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it == conns_.end()) return;
    it->second.greet_as_started.insert(gid);
  }
  v1::ClientMessage watch;  // request id 0: the state comes without a reply
  watch.mutable_watch_game()->set_game_id(gid);
  game_request(c, *u, watch, steady_ms());
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
  for (const auto& gid : games)
    if (auto a = find_game(gid)) a->post([id = c->id()](GameActor& g) { g.unsubscribe(id); });
  // The nodes serving this connection's forwarded requests drop its proxy there (after the
  // requests: the publisher keeps the order).
  for (const auto& node : remote_nodes) {
    NodeMessage nm;
    nm.kind = NodeMessage::Kind::Close;
    nm.from_node = options_.node_id;
    nm.conn = c->id();
    publisher_.publish(keys::node_channel(node), encode(nm));
  }
  if (!left_node && !user_gone) return;
  // Redis round trips: on the lobby pool (a mass disconnect would otherwise hold up the io threads).
  auto forget = [this, u, left_node, user_gone, gone_seeks = std::move(gone_seeks)] {
    if (left_node) {
      try {
        presence_.remove(u->name);
      } catch (const RedisError&) {  // the next resync removes it
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

void Hub::on_too_large(const std::shared_ptr<Connection>& c, size_t size) {
  send_error(*c, 0, v1::TOO_LARGE, "frame of " + std::to_string(size) + " bytes exceeds " +
                                       std::to_string(options_.max_frame_bytes), metrics_);
}

void Hub::on_frame(const std::shared_ptr<Connection>& c, const std::string& bytes) {
  metrics_.frames_in_total++;
  const int64_t t0 = steady_ms();
  if (bytes.size() > options_.max_frame_bytes) return on_too_large(c, bytes.size());
  // Decoded before the rate check (a frame is at most --max-frame bytes) so that a refused request
  // is answered under its own request_id: the client can tell which one to send again.
  v1::ClientMessage m;
  const bool decoded = m.ParseFromString(bytes);
  if (!c->take_token(options_.rate_per_second, options_.rate_burst, t0))
    return send_error(*c, decoded ? m.request_id() : 0, v1::RATE_LIMITED, "slow down: too many frames per second",
                      metrics_);
  if (!decoded) return send_error(*c, 0, v1::BAD_FRAME, "not a ClientMessage", metrics_);
  {  // behind a request of the same connection still on a worker pool: its requests keep their order
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it != conns_.end() && it->second.off_io) {
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
    it->second.off_io = true;
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
    auto err = auth_.register_user(m.register_().name(), m.register_().password(), u);
    if (err == Auth::Error::NameTaken) send_error(*c, rid, v1::NAME_TAKEN, "name taken", metrics_);
    else if (err != Auth::Error::None)
      send_error(*c, rid, v1::BAD_REQUEST, "name: 3-20 of A-Z a-z 0-9 _ -; password: 6+ chars", metrics_);
    else login_reply(c, rid, u);
  } else {
    auto err = auth_.login(m.login().name(), m.login().password(), u);
    if (err == Auth::Error::Banned) send_error(*c, rid, v1::BANNED, "banned", metrics_);
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
        it->second.off_io = false;
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
  v1::ServerMessage r;
  r.set_request_id(rid);
  try {  // findable by direct challenges from any node
    presence_.add(u.name, u.id);
  } catch (const RedisError&) {  // the next resync adds it
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
    case v1::ClientMessage::kClaimVictory: return m.claim_victory().game_id();
    case v1::ClientMessage::kClaimDraw: return m.claim_draw().game_id();
    case v1::ClientMessage::kUnwatchGame: return m.unwatch_game().game_id();
    default: {
      static const std::string empty;
      return empty;
    }
  }
}

static void fill_seek(v1::Seek* p, const SeekEntry& s) {
  p->set_seek_id(s.id);
  p->mutable_owner()->set_user_id(s.owner.id);
  p->mutable_owner()->set_name(s.owner.name);
  p->mutable_owner()->set_guest(s.owner.guest);
  p->set_variant(to_variant(s.spec.variant));
  p->mutable_time_control()->set_initial_ms(static_cast<uint32_t>(s.spec.tc.initial_ms));
  p->mutable_time_control()->set_increment_ms(static_cast<uint32_t>(s.spec.tc.increment_ms));
  p->set_color(s.spec.color ? to_side(*s.spec.color) : v1::SIDE_NONE);
  p->set_ruleset(s.spec.ruleset);
  p->set_capture_visibility(s.spec.capture_visibility);
  if (s.spec.options != RuleOptions{}) fill_rule_options(p->mutable_rule_options(), s.spec.options);
  p->set_rated(s.spec.rated);
  p->set_rating_min(static_cast<uint32_t>(s.spec.rating_min));
  p->set_rating_max(static_cast<uint32_t>(s.spec.rating_max));
}

void Hub::dispatch(const std::shared_ptr<Connection>& c, const v1::ClientMessage& m, int64_t t0, int hops) {
  const uint64_t rid = m.request_id();
  using C = v1::ClientMessage;
  switch (m.body_case()) {
    case C::kPing: {
      v1::ServerMessage r;
      r.set_request_id(rid);
      r.mutable_pong()->set_client_time_ms(m.ping().client_time_ms());
      r.mutable_pong()->set_server_time_ms(static_cast<uint64_t>(wall_ms()));
      return send_message(*c, r, metrics_);
    }
    case C::kHello: {
      auto u = auth_.verify_token(m.hello().token(), wall_ms());
      if (!u) return send_error(*c, rid, v1::BAD_TOKEN, "invalid or expired token", metrics_);
      if (auth_.banned(u->id)) return send_error(*c, rid, v1::BANNED, "banned", metrics_);
      return login_reply(c, rid, *u);
    }
    case C::kLoginGuest: return login_reply(c, rid, auth_.make_guest(m.login_guest().name()));
    case C::kRegister:
    case C::kLogin: return password_sign_in(c, m);
    case C::BODY_NOT_SET: return send_error(*c, rid, v1::UNKNOWN_MESSAGE, "empty or unknown message", metrics_);
    default: break;
  }

  auto u = c->user();
  if (!u) return send_error(*c, rid, v1::NOT_AUTHENTICATED, "log in first", metrics_);
  switch (m.body_case()) {
    case C::kCreateSeek:
    case C::kChallenge: return create_seek(c, *u, m);
    case C::kCancelSeek: return cancel_seek(c, *u, m, hops);
    case C::kAcceptSeek: return accept_seek(c, *u, m, hops);
    case C::kListSeeks: {
      {
        std::lock_guard l(mu_);
        if (auto it = conns_.find(c->id()); it != conns_.end()) it->second.lobby_watcher = true;
      }
      v1::ServerMessage r;
      r.set_request_id(rid);
      auto* list = r.mutable_seeks();
      const std::vector<SeekEntry> seeks = all_seeks();
      std::vector<bool> shown;
      list->set_total(static_cast<uint32_t>(listed_seeks(seeks, u->id, kMaxListedSeeks, shown)));
      for (size_t i = 0; i < seeks.size(); ++i)
        if (shown[i]) fill_seek(list->add_seeks(), seeks[i]);
      return send_message(*c, r, metrics_);
    }
    case C::kListGames: {
      v1::ServerMessage r;
      r.set_request_id(rid);
      r.mutable_games();
      const auto& q = m.list_games();
      const GamePage page = game_page(q.offset(), q.limit() == 0 ? kDefaultGameListLimit : std::min(q.limit(), kMaxGameListLimit), false);
      r.mutable_games()->set_total(static_cast<uint32_t>(page.total));
      for (const auto& [id, info] : page.games) {
        const GameConfig& cfg = info.config;
        auto* g = r.mutable_games()->add_games();
        g->set_game_id(id);
        g->set_variant(to_variant(cfg.variant));
        g->mutable_red()->set_user_id(cfg.red.user_id);
        g->mutable_red()->set_name(cfg.red.name);
        g->mutable_black()->set_user_id(cfg.black.user_id);
        g->mutable_black()->set_name(cfg.black.name);
        g->set_plies(info.plies);
        g->mutable_time_control()->set_initial_ms(static_cast<uint32_t>(cfg.tc.initial_ms));
        g->mutable_time_control()->set_increment_ms(static_cast<uint32_t>(cfg.tc.increment_ms));
      }
      return send_message(*c, r, metrics_);
    }
    default: return game_request(c, *u, m, t0, hops);
  }
}

static bool parse_spec(const v1::TimeControl& tc, v1::Variant var, v1::Side color, const std::string& ruleset,
                       const std::string& visibility, const v1::RuleOptions& options, SeekSpec& out,
                       std::string& why) {
  xq::CaptureVisibility vis;
  if (!visibility.empty() && !xq::parse_visibility(visibility, vis)) {
    why = "capture_visibility: capturer | nobody | both";
    return false;
  }
  out.capture_visibility = visibility.empty() ? "capturer" : visibility;
  if (tc.initial_ms() < 1000 || tc.initial_ms() > 6u * 3600 * 1000 || tc.increment_ms() > 120'000) {
    why = "time control: initial 1 s..6 h, increment <= 120 s";
    return false;
  }
  if (!ruleset.empty() && !xq::parse_ruleset(ruleset)) {
    why = "unknown ruleset";
    return false;
  }
  out.variant = var == v1::JIEQI ? xq::Variant::Jieqi : xq::Variant::Xiangqi;
  out.options = rule_options_from(options);
  if (why = rule_options_error(out.options, out.variant); !why.empty()) return false;
  out.tc = {tc.initial_ms(), tc.increment_ms()};
  if (color == v1::RED) out.color = xq::Color::Red;
  else if (color == v1::BLACK) out.color = xq::Color::Black;
  out.ruleset = ruleset.empty() ? "cxa" : ruleset;
  return true;
}

void Hub::create_seek(const std::shared_ptr<Connection>& c, const User& u, const v1::ClientMessage& m) {
  const uint64_t rid = m.request_id();
  SeekSpec spec;
  std::string why, target_id;
  bool ok = m.has_create_seek()
                ? parse_spec(m.create_seek().time_control(), m.create_seek().variant(), m.create_seek().color(),
                             m.create_seek().ruleset(), m.create_seek().capture_visibility(),
                             m.create_seek().rule_options(), spec, why)
                : parse_spec(m.challenge().time_control(), m.challenge().variant(), m.challenge().color(),
                             m.challenge().ruleset(), m.challenge().capture_visibility(), m.challenge().rule_options(),
                             spec, why);
  if (!ok) return send_error(*c, rid, v1::BAD_REQUEST, why, metrics_);
  if (m.has_create_seek()) {
    spec.rated = m.create_seek().rated();
    spec.rating_min = static_cast<int>(std::min<uint32_t>(m.create_seek().rating_min(), 4000));
    spec.rating_max = static_cast<int>(std::min<uint32_t>(m.create_seek().rating_max(), 4000));
    if (spec.rating_min && spec.rating_max && spec.rating_min > spec.rating_max)
      return send_error(*c, rid, v1::BAD_REQUEST, "rating range: min above max", metrics_);
  } else {
    spec.rated = m.challenge().rated();
  }
  if (spec.rated && u.guest)
    return send_error(*c, rid, v1::BAD_REQUEST, "rated games need an account: register or log in", metrics_);
  if (m.has_challenge()) {
    // The target must be online; the challenge is a seek only they can see and accept.
    std::lock_guard l(mu_);
    for (const auto& [id, ci] : conns_)
      if (auto cc = ci.conn.lock(); cc && cc->user() && cc->user()->name == m.challenge().user_name())
        target_id = cc->user()->id;
    if (target_id.empty() || target_id == u.id) why = "user not online";
  }
  if (m.has_challenge() && target_id.empty()) {  // connected to another node?
    if (auto id = presence_.find(m.challenge().user_name()); id && *id != u.id) target_id = *id;
  }
  if (m.has_challenge() && target_id.empty()) return send_error(*c, rid, v1::BAD_REQUEST, why, metrics_);
  std::string id;
  {
    std::lock_guard l(mu_);
    // Closed while this ran on the lobby pool: its seeks went with it (on_close), so must this one.
    if (!conns_.count(c->id())) return;
    if (lobby_.owned_by(u.id) < options_.max_seeks_per_user) id = lobby_.add(u, spec, target_id);
  }
  if (id.empty())
    return send_error(*c, rid, v1::BAD_REQUEST,
                      "too many open seeks (at most " + std::to_string(options_.max_seeks_per_user) + ")", metrics_);
  try {
    store_seek(id);  // listed on every node
  } catch (...) {
    std::lock_guard l(mu_);
    lobby_.cancel(id, u.id);
    throw;
  }
  v1::ServerMessage r;
  r.set_request_id(rid);
  r.mutable_reply()->set_seek_id(id);
  send_message(*c, r, metrics_);
  publish_seeks_changed();
}

void Hub::cancel_seek(const std::shared_ptr<Connection>& c, const User& u, const v1::ClientMessage& m, int hops) {
  const uint64_t rid = m.request_id();
  const std::string& id = m.cancel_seek().seek_id();
  bool ok;
  {
    std::lock_guard l(mu_);
    ok = lobby_.cancel(id, u.id);
  }
  if (!ok) {
    // Held by another node? It decides there.
    auto st = stored_seek(id);
    if (st && st->node != options_.node_id && hops < 2 && seek_visible_to(st->seek, u.id) && forward(c, u, st->node, m, hops + 1))
      return;
    return send_error(*c, rid, v1::UNKNOWN_SEEK, "no such seek of yours", metrics_);
  }
  unstore_seeks({id});
  v1::ServerMessage r;
  r.set_request_id(rid);
  r.mutable_reply()->set_seek_id(id);
  send_message(*c, r, metrics_);
  publish_seeks_changed();
}

void Hub::accept_seek(const std::shared_ptr<Connection>& c, const User& u, const v1::ClientMessage& m, int hops) {
  std::optional<SeekEntry> seek;
  {
    std::lock_guard l(mu_);
    seek = lobby_.take(m.accept_seek().seek_id(), u.id);
  }
  if (!seek) {
    // A seek of another node: the accept goes there (that node creates and owns the game and
    // greets the taker through its proxy).
    auto st = stored_seek(m.accept_seek().seek_id());
    if (st && st->node != options_.node_id && hops < 2 && forward(c, u, st->node, m, hops + 1)) return;
  }
  if (!seek) return send_error(*c, m.request_id(), v1::UNKNOWN_SEEK, "no such seek open to you", metrics_);
  std::string refusal;
  if (seek->spec.rated && u.guest) refusal = "rated games need an account: register or log in";
  if (refusal.empty() && seek->spec.rated && (seek->spec.rating_min || seek->spec.rating_max)) {
    int mine = static_cast<int>(std::lround(RatingStore(redis_).get(variant_name(seek->spec.variant), u.id).rating));
    if ((seek->spec.rating_min && mine < seek->spec.rating_min) || (seek->spec.rating_max && mine > seek->spec.rating_max))
      refusal = "your rating " + std::to_string(mine) + " is outside this seek's range";
  }
  if (!refusal.empty()) {
    {
      std::lock_guard l(mu_);
      lobby_.restore(*seek);
    }
    store_seek(seek->id);
    return send_error(*c, m.request_id(), v1::BAD_REQUEST, refusal, metrics_);
  }
  try {
    start_game(*seek, u, c, m.request_id());
  } catch (...) {
    {
      std::lock_guard l(mu_);  // the game could not be created: the seek stays open
      lobby_.restore(*seek);
    }
    try {
      store_seek(seek->id);
    } catch (...) {
    }
    throw;
  }
  try {
    unstore_seeks({seek->id});
  } catch (const std::exception&) {
  }
  publish_seeks_changed();
}

void Hub::start_game(const SeekEntry& seek, const User& taker, const std::shared_ptr<Connection>& c, uint64_t rid) {
  GameConfig cfg;
  cfg.id = xq::random_hex(8);
  cfg.variant = seek.spec.variant;
  cfg.ruleset = seek.spec.ruleset;
  cfg.capture_visibility = seek.spec.capture_visibility;
  cfg.options = seek.spec.options;
  cfg.tc = seek.spec.tc;
  xq::Color owner_color = seek.spec.color ? *seek.spec.color
                                          : ((xq::random_hex(1)[1] & 1) ? xq::Color::Red : xq::Color::Black);
  PlayerInfo owner{seek.owner.id, seek.owner.name, seek.owner.guest}, other{taker.id, taker.name, taker.guest};
  cfg.red = owner_color == xq::Color::Red ? owner : other;
  cfg.black = owner_color == xq::Color::Red ? other : owner;
  cfg.rated = seek.spec.rated;
  fill_ratings(cfg);
  seal(cfg);
  GameSession session(cfg);
  store_.create(cfg);  // throws RedisError → STORAGE_UNAVAILABLE; nothing started
  launch(cfg, std::move(session));
  v1::ServerMessage r;
  r.set_request_id(rid);
  r.mutable_reply()->set_game_id(cfg.id);
  send_message(*c, r, metrics_);
}

static xq::Variant variant_from(const std::string& v) {
  if (v == "jieqi") return xq::Variant::Jieqi;
  if (v == "xiangqi") return xq::Variant::Xiangqi;
  throw std::invalid_argument("variant must be xiangqi or jieqi");
}

bool Hub::create_scheduled_game(const std::string& spec_json) {
  auto v = json::parse(spec_json);
  const auto& o = v.as_object();
  auto str = [&](const json::object& obj, const char* k, const char* def) {
    auto* p = obj.if_contains(k);
    return p && p->is_string() ? std::string(p->as_string()) : std::string(def);
  };
  auto num = [&](const char* k, int64_t def) {
    auto* p = o.if_contains(k);
    return p && p->is_number() ? p->to_number<int64_t>() : def;
  };
  GameConfig cfg;
  cfg.id = str(o, "game_id", "");
  if (cfg.id.empty() || cfg.id.size() > 100) throw std::invalid_argument("bad game id");
  cfg.variant = variant_from(str(o, "variant", "xiangqi"));
  cfg.ruleset = str(o, "ruleset", "cxa");
  cfg.capture_visibility = str(o, "capture_visibility", "capturer");
  cfg.options = read_rule_options(o);
  if (std::string why = rule_options_error(cfg.options, cfg.variant); !why.empty()) throw std::invalid_argument(why);
  cfg.tc = {num("initial_ms", 900000), num("increment_ms", 0)};
  for (auto [key, player] : {std::pair{"red", &cfg.red}, std::pair{"black", &cfg.black}}) {
    const auto& p = o.at(key).as_object();
    player->user_id = str(p, "user_id", "");
    player->name = str(p, "name", player->user_id.c_str());
    player->guest = player->user_id.rfind("g-", 0) == 0;
    if (player->user_id.empty()) throw std::invalid_argument("a player has no user id");
  }
  cfg.event_id = str(o, "event_id", "");
  cfg.round = static_cast<int>(num("round", 0));
  cfg.board = static_cast<int>(num("board", 0));
  cfg.no_show_ms = cfg.event_id.empty() ? 0 : num("no_show_ms", 0);
  cfg.spectator_delay_ms = cfg.event_id.empty() ? 0 : std::clamp<int64_t>(num("spectator_delay_ms", 0), 0, 5 * 60'000);
  // Rated when asked for and both players have accounts (guests' games never change ratings).
  auto* rated = o.if_contains("rated");
  cfg.rated = rated && rated->is_bool() && rated->as_bool() && !cfg.red.guest && !cfg.black.guest;
  fill_ratings(cfg);
  seal(cfg);
  const GameSession validated(cfg);  // throws on a bad ruleset or visibility, before anything is stored
  if (!store_.create_if_absent(cfg)) {
    // The request came again (the node that took it died, or Redis failed, before acknowledging
    // it): if nobody has moved yet, the players may never have heard of the game.
    if (store_.is_live(cfg.id) && redis_.command({"LLEN", keys::game_events(cfg.id)}).integer == 0)
      announce_game_ready(cfg);
    return false;
  }
  launch(cfg, GameSession(cfg));  // cfg may now be the stored config of a creation cut short
  announce_game_ready(cfg);
  return true;
}

// The players may be connected to any node: the notice goes to all of them.
void Hub::announce_game_ready(const GameConfig& cfg) {
  v1::ServerMessage note;
  auto* n = note.mutable_notice();
  n->set_kind("game_ready");
  n->set_event_id(cfg.event_id);
  n->set_game_id(cfg.id);
  n->set_text(cfg.red.name + " – " + cfg.black.name);
  NodeMessage nm;
  nm.kind = NodeMessage::Kind::Notice;
  nm.from_node = options_.node_id;
  nm.payload = note.SerializeAsString();
  nm.users = {cfg.red.user_id, cfg.black.user_id};
  bool sent = false;
  try {
    sent = redis_.command({"PUBLISH", keys::kNodesChannel, encode(nm)}).integer > 0;
  } catch (const std::exception&) {
  }
  if (!sent)
    push_notice({cfg.red.user_id, cfg.black.user_id}, "game_ready", cfg.event_id, cfg.id, cfg.red.name + " – " + cfg.black.name);
}

void Hub::seal(GameConfig& cfg) {
  if (cfg.variant == xq::Variant::Jieqi) {
    // The identities come from the OS CSPRNG; the commitment is public from the start.
    xq::Assignment a = xq::draw_assignment();
    cfg.assignment = a.to_string();
    cfg.salt = xq::random_hex(16);
    cfg.commitment = xq::commitment(a, cfg.salt);
  }
  cfg.created_at_ms = wall_ms();
}

void Hub::fill_ratings(GameConfig& cfg) {
  RatingStore ratings(redis_);
  for (PlayerInfo* p : {&cfg.red, &cfg.black})
    if (!p->guest) p->rating = static_cast<int>(std::lround(ratings.get(variant_name(cfg.variant), p->user_id).rating));
}

void Hub::push_notice(const std::vector<std::string>& user_ids, const std::string& kind, const std::string& event_id,
                      const std::string& game_id, const std::string& text) {
  v1::ServerMessage m;
  auto* n = m.mutable_notice();
  n->set_kind(kind);
  n->set_event_id(event_id);
  n->set_game_id(game_id);
  n->set_text(text);
  std::string bytes = m.SerializeAsString();
  for (const auto& u : user_ids)
    for (auto& c : connections_of(u)) {
      metrics_.frames_out_total++;
      c->send(bytes);
    }
}

void Hub::launch(const GameConfig& cfg, GameSession session) {
  auto actor = make_actor(std::move(session));
  metrics_.games_started_total++;
  std::vector<std::pair<std::shared_ptr<Connection>, xq::Viewer>> players;
  bool inserted;
  {
    std::lock_guard l(mu_);
    auto [it, fresh] = games_.emplace(cfg.id, actor);
    inserted = fresh;
    if (!fresh) {  // a forwarded request adopted it in the moment between creation and here
      metrics_.live_games--;
      actor = it->second;
    }
    for (auto* p : {&cfg.red, &cfg.black}) {
      auto it = user_conns_.find(p->user_id);
      if (it == user_conns_.end()) continue;
      for (auto id : it->second) {
        auto ci = conns_.find(id);
        if (ci == conns_.end()) continue;
        if (auto cc = ci->second.conn.lock()) {
          ci->second.games.insert(cfg.id);
          players.emplace_back(cc, p == &cfg.red ? xq::Viewer::Red : xq::Viewer::Black);
        }
      }
    }
  }
  actor->post([players, inserted](GameActor& a) {
    if (inserted) a.start(/*reloaded=*/false);
    for (const auto& [conn, viewer] : players) a.subscribe(conn, viewer, GameActor::Greeting::Started, 0);
  });
}

void Hub::game_request(const std::shared_ptr<Connection>& c, const User& u, const v1::ClientMessage& m, int64_t t0,
                       int hops) {
  const uint64_t rid = m.request_id();
  const std::string& gid = game_id_of(m);
  if (gid.empty()) return send_error(*c, rid, v1::UNKNOWN_GAME, "game_id missing", metrics_);
  std::string owner;
  auto actor = locate(gid, owner);
  if (!actor && !owner.empty()) {
    // Another node owns the game: it serves this connection through a proxy.
    {
      std::lock_guard l(mu_);
      if (auto it = conns_.find(c->id()); it != conns_.end()) {
        if (m.has_unwatch_game()) it->second.remote_games.erase(gid);
        else {
          auto& rg = it->second.remote_games[gid];
          rg.node = owner;  // followed even if this attempt fails
          // A later follow catches up from where the client said it was, not from the start.
          if (m.has_sync()) rg.version = std::max(rg.version, m.sync().last_version());
        }
      }
    }
    auto unreachable = [this, c, rid, gid, owner] {
      {  // followed again at the next tick (follow_moved_games), not left pointing at a node that did not hear it
        std::lock_guard l(mu_);
        if (auto it = conns_.find(c->id()); it != conns_.end())
          if (auto g = it->second.remote_games.find(gid); g != it->second.remote_games.end() && g->second.node == owner)
            g->second.node.clear();
      }
      send_error(*c, rid, v1::STORAGE_UNAVAILABLE, "the game's node is unreachable; retry in a moment", metrics_, gid);
    };
    if (hops >= 2) return unreachable();
    return forward_async(c, u, owner, m, hops + 1, unreachable);
  }
  if (!actor) {  // not a live game (any more): nothing to follow
    std::lock_guard l(mu_);
    if (auto it = conns_.find(c->id()); it != conns_.end()) it->second.remote_games.erase(gid);
  }
  if (!actor && (m.has_watch_game() || m.has_sync())) return send_stored_game(c, u, gid, rid);
  if (!actor) {
    // Not live anywhere: a stored game has ended (a node that lost it from memory, e.g. after a
    // restart, still answers as its owner would have).
    if (redis_.command({"EXISTS", keys::game_meta(gid)}).integer == 1)
      return send_error(*c, rid, v1::GAME_OVER, "game " + gid + " is over", metrics_, gid);
    return send_error(*c, rid, v1::UNKNOWN_GAME, "no live game " + gid, metrics_, gid);
  }
  xq::Viewer viewer = viewer_for(actor->config(), u.id);
  bool was_subscribed;
  {
    std::lock_guard l(mu_);
    auto it = conns_.find(c->id());
    if (it == conns_.end()) return;
    was_subscribed = !it->second.games.insert(gid).second;
    it->second.remote_games.erase(gid);  // served here now
  }
  if (m.has_unwatch_game()) {
    {
      std::lock_guard l(mu_);
      if (auto it = conns_.find(c->id()); it != conns_.end()) it->second.games.erase(gid);
    }
    actor->post([id = c->id()](GameActor& a) { a.unsubscribe(id); });
    v1::ServerMessage r;
    r.set_request_id(rid);
    r.mutable_reply()->set_game_id(gid);
    return send_message(*c, r, metrics_);
  }
  if (m.has_watch_game()) {
    return actor->post([c, viewer, rid](GameActor& a) { a.subscribe(c, viewer, GameActor::Greeting::State, rid); });
  }
  if (m.has_sync()) {
    uint64_t last = m.sync().last_version();
    return actor->post(
        [c, viewer, rid, last](GameActor& a) { a.subscribe(c, viewer, GameActor::Greeting::Sync, rid, last); });
  }
  if (viewer == xq::Viewer::Spectator) {
    return send_error(*c, rid, v1::NOT_YOUR_GAME, "you do not play this game", metrics_, gid);
  }
  actor->post([c, viewer, m, t0, was_subscribed](GameActor& a) {
    if (!was_subscribed) a.subscribe(c, viewer, GameActor::Greeting::None, 0);
    a.handle(c, viewer, m, t0);
  });
}

// A game no longer (or not) in memory: a finished one is rebuilt from its stored events and sent
// as a full state; a live one hosted elsewhere is unknown here.
void Hub::send_stored_game(const std::shared_ptr<Connection>& c, const User& u, const std::string& gid, uint64_t rid) {
  std::optional<GameSession> s;
  try {
    if (redis_.command({"EXISTS", keys::game_meta(gid)}).integer == 1) s.emplace(store_.load(gid));
  } catch (const RedisError&) {
    throw;
  } catch (const std::exception& e) {
    std::cerr << "load " << gid << ": " << e.what() << '\n';
  }
  if (!s || !s->over()) return send_error(*c, rid, v1::UNKNOWN_GAME, "no such game here", metrics_, gid);
  v1::ServerMessage m;
  m.set_request_id(rid);
  *m.mutable_game_state() = state_for(*s, viewer_for(s->config(), u.id), steady_ms(), wall_ms());
  send_message(*c, m, metrics_);
  v1::ServerMessage r;
  r.set_request_id(rid);
  r.mutable_reply()->set_game_id(gid);
  r.mutable_reply()->set_version(s->version());
  send_message(*c, r, metrics_);
}

std::vector<SeekEntry> Hub::all_seeks() {
  std::vector<SeekEntry> out;
  auto r = redis_.command({"HGETALL", keys::kSeeks});
  for (size_t i = 1; i < r.elements.size(); i += 2)
    if (auto st = decode_seek(r.elements[i].str)) out.push_back(std::move(st->seek));
  // In id order: a capped list (listed_seeks) then shows the same seeks to everyone, and on every node.
  std::sort(out.begin(), out.end(), [](const SeekEntry& a, const SeekEntry& b) { return a.id < b.id; });
  return out;
}

std::optional<StoredSeek> Hub::stored_seek(const std::string& id) {
  auto r = redis_.command({"HGET", keys::kSeeks, id});
  if (r.type != RedisReply::Type::String) return std::nullopt;
  return decode_seek(r.str);
}

void Hub::store_seek(const std::string& id) {
  std::optional<SeekEntry> s;
  {
    std::lock_guard l(mu_);
    s = lobby_.find(id);
  }
  if (!s) return;
  redis_.command({"HSET", keys::kSeeks, id, encode_seek(*s, options_.node_id)});
  // Its owner's last connection may have closed meanwhile (the request ran on the lobby pool):
  // on_close removed the seek here and from Redis, perhaps before this write. Then it goes again.
  bool gone;
  {
    std::lock_guard l(mu_);
    gone = !lobby_.find(id);
  }
  if (gone) redis_.command({"HDEL", keys::kSeeks, id});
}

void Hub::unstore_seeks(const std::vector<std::string>& ids) {
  if (ids.empty()) return;
  std::vector<std::string> cmd{"HDEL", keys::kSeeks};
  cmd.insert(cmd.end(), ids.begin(), ids.end());
  redis_.command(cmd);
}

void Hub::publish_seeks_changed() {
  NodeMessage nm;
  nm.kind = NodeMessage::Kind::Seeks;
  nm.from_node = options_.node_id;
  try {
    if (redis_.command({"PUBLISH", keys::kNodesChannel, encode(nm)}).integer > 0) return;  // we hear it too
  } catch (const std::exception&) {
  }
  request_seek_push();
}

void Hub::request_seek_push() {
  seek_push_strand_.post([this] {
    if (seek_push_scheduled_) return;  // the pending push will carry this change too
    seek_push_scheduled_ = true;
    const int64_t budget_ms = options_.seek_push_frames_per_s > 0
                                  ? static_cast<int64_t>(last_seek_push_frames_.load() * 1000 / options_.seek_push_frames_per_s)
                                  : 0;
    const int64_t at = std::max(steady_ms(), last_seek_push_ms_ + std::max(options_.seek_push_interval_ms, budget_ms));
    seek_push_strand_.set_timer(at, [this] {
      seek_push_scheduled_ = false;
      last_seek_push_ms_ = steady_ms();
      if (!seek_push_pool_.try_post([this] { push_seeks(); })) request_seek_push();  // later, then
    });
  });
}

void Hub::post_seek_push(std::set<std::string> users) {
  // Dropped when 1,024 pushes wait: these users get the next full push, or ask with list_seeks.
  seek_push_pool_.try_post([this, users = std::move(users)] { push_seeks(&users); });
}

// Seeks of nodes whose heartbeat stopped (crashed) leave the shared list; so do seeks a previous
// life of this node left behind.
void Hub::sweep_dead_nodes_seeks() {
  auto r = redis_.command({"HGETALL", keys::kSeeks});
  std::map<std::string, std::vector<std::string>> by_node;
  for (size_t i = 1; i < r.elements.size(); i += 2)
    if (auto st = decode_seek(r.elements[i].str)) by_node[st->node].push_back(st->seek.id);
  std::vector<std::string> dead;
  for (auto& [node, ids] : by_node) {
    if (node == options_.node_id) {
      std::lock_guard l(mu_);
      for (auto& id : ids)
        if (!lobby_.find(id)) dead.push_back(id);
    } else if (redis_.command({"EXISTS", keys::node_alive(node)}).integer == 0) {
      dead.insert(dead.end(), ids.begin(), ids.end());
    }
  }
  if (dead.empty()) return;
  unstore_seeks(dead);
  publish_seeks_changed();
}

// Only to connections that show a lobby (ConnInfo::lobby_watcher) or whose user has an open
// challenge, and not while they play a live game here (with thousands of games, pushes to players
// would outnumber the moves); its players get the list when their game ends, and a client can
// always ask with list_seeks.
void Hub::push_seeks(const std::set<std::string>* only_users) {
  std::vector<std::pair<std::shared_ptr<Connection>, std::string>> out;
  std::vector<SeekEntry> seeks;
  try {
    seeks = all_seeks();
  } catch (const std::exception&) {
    std::lock_guard l(mu_);
    seeks = lobby_.visible_to("");  // Redis away: this node's open seeks
  }
  std::set<std::string> challenged;  // users with an open challenge to them
  std::set<std::string> involved;    // they and the seeks' owners: their lists put their seeks first
  for (const SeekEntry& s : seeks) {
    if (!s.target_user_id.empty()) challenged.insert(s.target_user_id), involved.insert(s.target_user_id);
    involved.insert(s.owner.id);
  }
  // Every other user sees the same list (the public seeks): built and serialised once, so a push
  // to thousands of watchers does not select from all seeks for each of them.
  std::optional<std::string> public_list;
  std::map<std::vector<bool>, std::string> lists;  // the involved users' lists, each distinct one once
  std::vector<bool> visible;
  auto list_for = [&](const std::string& user_id) -> const std::string& {
    const size_t total = listed_seeks(seeks, user_id, kMaxListedSeeks, visible);
    auto it = lists.find(visible);
    if (it == lists.end()) {
      v1::ServerMessage m;
      m.mutable_seeks()->set_total(static_cast<uint32_t>(total));
      for (size_t i = 0; i < seeks.size(); ++i)
        if (visible[i]) fill_seek(m.mutable_seeks()->add_seeks(), seeks[i]);
      it = lists.emplace(visible, m.SerializeAsString()).first;
    }
    return it->second;
  };
  auto visit = [&](uint64_t id, const ConnInfo& ci) {  // with mu_ held
    if (is_proxy_id(id)) return;  // its own node pushes to it
    auto cc = ci.conn.lock();
    if (!cc) return;
    auto u = cc->user();
    if (!u || (only_users && !only_users->count(u->id))) return;
    if (!ci.lobby_watcher && !challenged.count(u->id)) return;
    if (playing_here(ci, u->id)) return;
    if (involved.count(u->id)) return out.emplace_back(cc, list_for(u->id)), void();
    if (!public_list) public_list = list_for("");  // no user id is empty: the public seeks
    out.emplace_back(cc, *public_list);
  };
  if (only_users) {
    std::lock_guard l(mu_);
    for (const auto& user : *only_users)
      if (auto uc = user_conns_.find(user); uc != user_conns_.end())
        for (uint64_t id : uc->second)
          if (auto it = conns_.find(id); it != conns_.end()) visit(it->first, it->second);
  } else {
    for_each_conn(visit);
    last_seek_push_frames_ = out.size();
  }
  // Paced: each send is a handler queued on the io threads ahead of the moves that arrive after
  // it, so thousands at once held every game up for the whole burst (docs/benchmarks.md, "Seek
  // pushes to lobby watchers"). This thread only pushes seeks; waiting here costs nothing else.
  constexpr size_t kSendsPerSlice = 100;
  for (size_t i = 0; i < out.size(); ++i) {
    if (i > 0 && i % kSendsPerSlice == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    metrics_.frames_out_total++;
    out[i].first->send(std::move(out[i].second));
  }
}

bool Hub::playing_here(const ConnInfo& ci, const std::string& user_id) const {
  for (const auto& [gid, remote] : ci.remote_games)
    if (remote.playing) return true;
  for (const auto& gid : ci.games) {
    auto it = games_.find(gid);
    if (it == games_.end() || it->second->finished()) continue;
    const GameConfig& g = it->second->config();
    if (g.red.user_id == user_id || g.black.user_id == user_id) return true;
  }
  return false;
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

bool Hub::record_withheld(const std::string& id) {
  if (auto a = find_game(id)) return !a->finished() && a->config().spectator_delay_ms > 0;
  try {  // a live game of another node
    if (store_.is_live(id)) return store_.load(id).config().spectator_delay_ms > 0;
  } catch (const std::exception&) {
  }
  return false;
}

std::optional<std::string> Hub::game_record(const std::string& id) {
  if (auto a = find_game(id)) {
    std::string rec = a->record_json();
    if (!rec.empty()) return rec;
  }
  if (auto rec = store_.archived(id)) return rec;
  try {  // a live game of another node: rebuilt from Redis (spectator view, no secret)
    if (store_.is_live(id)) return archive_record(store_.load(id));
  } catch (const RedisError&) {
    throw;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::shared_ptr<const std::map<std::string, Hub::GameInfo>> Hub::other_nodes_games_cached() {
  std::lock_guard l(others_mu_);
  if (steady_ms() - others_read_ms_ >= kGameListCacheMs) {
    try {
      others_cache_ = std::make_shared<const std::map<std::string, GameInfo>>(other_nodes_games());
      others_read_ms_ = steady_ms();
    } catch (const RedisError&) {  // Redis away: the last list read
    }
  }
  return others_cache_;
}

std::map<std::string, Hub::GameInfo> Hub::other_nodes_games() {
  std::map<std::string, GameInfo> out;
  std::vector<std::string> others;
  for (auto& id : store_.live_game_ids())
    if (!find_game(id)) others.push_back(std::move(id));
  for (size_t at = 0; at < others.size(); at += 200) {
    std::vector<std::string> metas{"MGET"}, snaps{"MGET"};
    for (size_t i = at; i < std::min(others.size(), at + 200); ++i) {
      metas.push_back(keys::game_meta(others[i]));
      snaps.push_back(keys::game_snap(others[i]));
    }
    auto mr = redis_.command(metas), sr = redis_.command(snaps);
    for (size_t i = 0; i < mr.elements.size(); ++i) {
      if (mr.elements[i].type != RedisReply::Type::String) continue;
      try {
        GameInfo info{decode_config(mr.elements[i].str), 0, false, 0, 0, ""};
        info.red_ms = info.black_ms = info.config.tc.initial_ms;
        if (i < sr.elements.size() && sr.elements[i].type == RedisReply::Type::String) {
          auto snap = json::parse(sr.elements[i].str).as_object();
          if (auto* p = snap.if_contains("plies"); p && p->is_number()) info.plies = p->to_number<uint32_t>();
          if (auto* p = snap.if_contains("red_ms"); p && p->is_number()) info.red_ms = p->to_number<int64_t>();
          if (auto* p = snap.if_contains("black_ms"); p && p->is_number()) info.black_ms = p->to_number<int64_t>();
        }
        out[others[at + i]] = std::move(info);
      } catch (const std::exception&) {
      }
    }
  }
  return out;
}

// Sorts light keys and copies only the games of the page: a lobby polls this every few seconds,
// and copying every game's config for each answer cost milliseconds at 10,000 games.
Hub::GamePage Hub::game_page(size_t offset, size_t limit, bool include_finished) {
  struct Key {
    int64_t created_at_ms;
    std::string id;
    std::shared_ptr<GameActor> local;  // else in `others`
  };
  std::vector<Key> keys;
  {
    std::lock_guard l(mu_);
    keys.reserve(games_.size());
    for (const auto& [id, a] : games_)
      if (include_finished || !a->finished()) keys.push_back({a->config().created_at_ms, id, a});
  }
  const auto others = other_nodes_games_cached();
  if (others) {
    std::set<std::string> here;  // a game taken over by this node: ours wins
    for (const auto& k : keys) here.insert(k.id);
    for (const auto& [id, info] : *others)
      if (!here.count(id) && (include_finished || !info.finished)) keys.push_back({info.config.created_at_ms, id, nullptr});
  }
  GamePage page;
  page.total = keys.size();
  const size_t from = std::min(offset, keys.size());
  const size_t to = from + std::min(limit, keys.size() - from);
  auto newest_first = [](const Key& a, const Key& b) {
    return a.created_at_ms != b.created_at_ms ? a.created_at_ms > b.created_at_ms : a.id < b.id;
  };
  std::partial_sort(keys.begin(), keys.begin() + static_cast<long>(to), keys.end(), newest_first);
  for (size_t i = from; i < to; ++i) {
    const Key& k = keys[i];
    if (k.local) {
      const GameActor::ClockNow clock = k.local->clock_now();
      page.games.emplace_back(k.id, GameInfo{k.local->config(), k.local->plies(), k.local->finished(), clock.red_ms, clock.black_ms,
                                             !clock.running ? "" : *clock.running == xq::Color::Red ? "red" : "black"});
    } else {
      page.games.emplace_back(k.id, others->at(k.id));
    }
  }
  return page;
}

std::string Hub::live_games_json(size_t offset, size_t limit) {
  json::array arr;
  const GamePage page = game_page(offset, limit, true);
  for (const auto& [id, info] : page.games) {
    const auto& c = info.config;
    arr.push_back(json::object{{"id", id},
                               {"variant", c.variant == xq::Variant::Jieqi ? "jieqi" : "xiangqi"},
                               {"red", c.red.name},
                               {"black", c.black.name},
                               {"plies", info.plies},
                               {"finished", info.finished},
                               {"red_ms", info.red_ms},
                               {"black_ms", info.black_ms},
                               {"running", info.running}});
  }
  return json::serialize(json::object{{"games", arr}, {"total", page.total}});
}

std::string Hub::connections_json() {
  json::array arr;
  {
    std::lock_guard l(mu_);
    for (const auto& [id, ci] : conns_) {
      auto cc = ci.conn.lock();
      if (!cc) continue;
      auto u = cc->user();
      json::array games;
      for (const auto& g : ci.games) games.push_back(json::string(g));
      arr.push_back(json::object{{"id", id},
                                 {"remote", cc->remote()},
                                 {"user", u ? u->name : ""},
                                 {"user_id", u ? u->id : ""},
                                 {"games", games}});
    }
  }
  // The other nodes' signed-in users, from their presence hashes (Redis: not under mu_).
  json::array others;
  for (const auto& u : presence_.elsewhere())
    others.push_back(json::object{{"node", u.node}, {"user", u.name}, {"user_id", u.user_id}});
  return json::serialize(json::object{{"node", options_.node_id}, {"connections", arr}, {"elsewhere", others}});
}

std::string Hub::admin_game_action(const std::string& id, const std::string& outcome, const std::string& reason) {
  if (outcome != "red-wins" && outcome != "black-wins" && outcome != "draw" && outcome != "abort" && outcome != "move-limit")
    return "bad outcome";
  // For "move-limit", `reason` names the side it is imposed on: "red", "black", or "" for both.
  if (outcome == "move-limit" && !reason.empty() && reason != "red" && reason != "black")
    return "side must be red, black or both";
  static const std::string kNoLimit = "this game has no move limit on request";
  std::string owner;
  std::shared_ptr<GameActor> a;
  try {
    a = locate(id, owner);
  } catch (const RedisError&) {
    return "Redis is unavailable";
  }
  if (!a && !owner.empty()) {  // another node's game: it ends it
    if (outcome == "move-limit") {  // refused here if the game's rules have no such limit
      try {
        auto meta = redis_.command({"GET", keys::game_meta(id)});
        if (meta.type != RedisReply::Type::String || decode_config(meta.str).options.requested_move_limit_plies <= 0)
          return kNoLimit;
      } catch (const std::exception&) {  // Redis away or a bad record: not imposed
        return "Redis is unavailable";
      }
    }
    NodeMessage nm;
    nm.kind = NodeMessage::Kind::Admin;
    nm.from_node = options_.node_id;
    nm.users = {id, outcome, reason};
    if (redis_.command({"PUBLISH", keys::node_channel(owner), encode(nm)}).integer > 0) return "";
    return "the game's node does not answer";
  }
  if (!a || a->finished()) return "no such live game";
  if (outcome == "move-limit") {
    if (a->config().options.requested_move_limit_plies <= 0) return kNoLimit;
    if (a->move_limit_running()) return "the move limit already runs in this game";
    std::optional<xq::Color> on_side;
    if (!reason.empty()) on_side = reason == "red" ? xq::Color::Red : xq::Color::Black;
    a->post([on_side](GameActor& g) { g.admin_move_limit(on_side); });
    return "";
  }
  xq::Result r;
  if (outcome == "red-wins") r = xq::Result::win(xq::Color::Red, reason.empty() ? "adjudication" : reason);
  else if (outcome == "black-wins") r = xq::Result::win(xq::Color::Black, reason.empty() ? "adjudication" : reason);
  else if (outcome == "draw") r = {xq::Outcome::Draw, reason.empty() ? "adjudication" : reason};
  else r = {xq::Outcome::Draw, "abort"};
  a->post([r](GameActor& g) { g.admin_end(r); });
  return "";
}

void Hub::ban(const std::string& user_id) {
  auth_.ban(user_id);
  disconnect(user_id);
}

size_t Hub::disconnect(const std::string& user_id) {
  auto conns = connections_of(user_id);
  for (auto& c : conns) c->close();
  NodeMessage nm;  // the user's connections to other nodes too (Kind::Ban only closes them there)
  nm.kind = NodeMessage::Kind::Ban;
  nm.from_node = options_.node_id;
  nm.users = {user_id};
  try {
    redis_.command({"PUBLISH", keys::kNodesChannel, encode(nm)});
  } catch (const std::exception&) {
  }
  return conns.size();
}

}  // namespace gs
