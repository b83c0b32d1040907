// The Hub across nodes: heartbeat, taking over the games of dead nodes, following a game to its
// new owner, requests forwarded to and received from other nodes (server/node_link.h drives it).
#include "server/hub.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <optional>
#include <utility>

#include "game/codec.h"
#include "server/views.h"
#include "store/keys.h"

namespace gs {
namespace v1 = xq::v1;

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
  {  // one thread at a time per game; the others then find it loaded (or not, if that failed)
    std::unique_lock l(mu_);
    adopting_done_.wait(l, [&] { return !adopting_.count(id); });
    if (auto it = games_.find(id); it != games_.end()) return it->second;
    adopting_.insert(id);
  }
  struct Done {
    Hub& hub;
    const std::string& id;
    ~Done() {
      {
        std::lock_guard l(hub.mu_);
        hub.adopting_.erase(id);
      }
      hub.adopting_done_.notify_all();
    }
  } done{*this, id};
  ResumeFacts resume;
  if (!store_.claim(id, &resume)) return nullptr;
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
      // Queued while no other thread can find the game yet: whatever they post runs after it.
      actor->post([resume](GameActor& a) { a.start(/*reloaded=*/true, resume); });
    }
    // A player banned while the game's node was down: the ban could not end the game then (its
    // node held it), so its new owner does, as the ban would have (review, 2026-12-04).
    for (const xq::Color loser : {xq::Color::Red, xq::Color::Black}) {
      const auto& player = loser == xq::Color::Red ? actor->config().red : actor->config().black;
      if (!auth_.banned(player.user_id)) continue;
      actor->post([r = xq::Result::win(xq::opposite(loser), "banned")](GameActor& g) { g.admin_end(r); });
      break;
    }
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

std::shared_ptr<GameActor> Hub::locate(const std::string& gid, std::string& owner, uint64_t requester) {
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
      serve_followers_here(gid, requester);
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
    for (auto& [c, version] : g.retire()) resubscribe(c, id, version, true);
  });
}

// A subscriber of a game this node lost: it follows the game to its new owner (or to this node
// again), catching up from the version it had.
void Hub::resubscribe(const std::shared_ptr<Connection>& c, const std::string& gid, uint64_t version, bool follow) {
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
  m.mutable_sync()->set_follow(follow);
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
  if (lapsed) store_.doubt_ownership_until(steady_ms() + 2 * options_.lease_ms);
  // While in doubt, every tick: a node that takes our games does so at its own next tick.
  const bool full_check = lapsed || ticks_++ % kFullCheckTicks == 0 || store_.ownership_in_doubt();
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
  answer_overdue_forwards();
  sweep_dead_nodes_seeks();
  std::vector<std::string> due;
  {
    std::lock_guard l(later_mu_);
    const int64_t now = steady_ms();
    std::erase_if(disconnect_due_, [&](const auto& d) {
      if (d.first > now) return false;
      due.push_back(d.second);
      return true;
    });
  }
  for (const auto& user : due) disconnect(user);
}

// A forwarded request with no answer from the game's owner in options_.forward_timeout_ms: the
// owner stands still (frozen, or its host is) yet keeps its lease for a while, and may still carry
// the request out when it runs again, so the client is told just that: NODE_NOT_ANSWERING, on
// which it syncs and resends (a move's client_move_id keeps a resend from being played twice). A
// late answer still goes through. Entries of connections closed meanwhile just go.
void Hub::answer_overdue_forwards() {
  std::vector<std::tuple<std::shared_ptr<Connection>, uint64_t, std::string>> overdue;
  {
    std::lock_guard l(mu_);
    const int64_t now = steady_ms();
    for (auto it = forwarded_.begin(); it != forwarded_.end();) {
      if (now - it->second.sent_ms < options_.forward_timeout_ms) {
        ++it;
        continue;
      }
      if (auto cit = conns_.find(it->first.first); cit != conns_.end())
        if (auto c = cit->second.conn.lock()) overdue.emplace_back(c, it->first.second, it->second.game_id);
      it = forwarded_.erase(it);
    }
  }
  for (auto& [c, rid, gid] : overdue)
    send_error(*c, rid, v1::NODE_NOT_ANSWERING,
               "the game's node has not answered in " + std::to_string(options_.forward_timeout_ms) +
                   " ms: the request may still be carried out; sync the game, then resend if needed",
               metrics_, gid);
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

// Connections of this node that followed `gid` on its old owner, now that it is taken over here
// outside the tick: served here at once (caught up from what they had) rather than at the next
// tick's follow_moved_games, or the first move after the takeover reached them up to a tick late
// while their clock ran (review, 2026-12-04). The tick's own takeovers are followed in that tick.
// The connection whose request caused the takeover is left out: its own request serves it (both
// caught it up from its version: every missed event twice; review, 2026-12-04).
void Hub::serve_followers_here(const std::string& gid, uint64_t except_conn) {
  std::vector<std::pair<std::shared_ptr<Connection>, uint64_t>> followers;
  for_each_conn([&](uint64_t id, const ConnInfo& ci) {
    if (is_proxy_id(id) || id == except_conn) return;
    auto it = ci.remote_games.find(gid);
    if (it == ci.remote_games.end()) return;
    if (auto c = ci.conn.lock()) followers.emplace_back(c, it->second.version);
  });
  for (const auto& [c, version] : followers) resubscribe(c, gid, version, true);
}

void Hub::follow_moved_games() {
  struct Follow {
    std::shared_ptr<Connection> conn;
    std::string gid, node;
    uint64_t version;
    int64_t client_asked_ms;
  };
  std::vector<Follow> follows;
  std::vector<std::string> gids;
  std::set<std::string> distinct;
  for_each_conn([&](uint64_t id, const ConnInfo& ci) {
    if (is_proxy_id(id) || ci.remote_games.empty()) return;
    auto c = ci.conn.lock();
    if (!c) return;
    for (const auto& [gid, rg] : ci.remote_games) {
      follows.push_back({c, gid, rg.node, rg.version, rg.client_asked_ms});
      distinct.insert(gid);
    }
  });
  std::set<std::string> restarted;
  {
    std::lock_guard l(mu_);
    restarted.swap(restarted_nodes_);
  }
  gids.assign(distinct.begin(), distinct.end());
  if (gids.empty()) return;
  std::map<std::string, std::string> owners;
  auto living = store_.owners(gids);
  for (size_t i = 0; i < gids.size(); ++i) owners[gids[i]] = living[i];
  for (const auto& f : follows) {
    // Still there (or its heartbeat has not run out yet), and not restarted meanwhile.
    if (owners[f.gid] == f.node && !restarted.count(f.node)) continue;
    // The client itself asked a moment ago (it retries a sync its node could not serve): its own
    // request catches it up; a follow as well sent it every missed event twice (review,
    // 2026-12-04). One that stops asking is followed at a later tick. (Not after a restart of the
    // same owner: that is heard once, and its client, whose node lives, is not retrying anything.)
    if (!restarted.count(f.node) && steady_ms() - f.client_asked_ms < kClientRetryGraceMs) continue;
    std::cerr << "node " << options_.node_id << ": connection " << f.conn->id() << " follows game " << f.gid << " from "
              << f.node << (restarted.count(f.node) ? " (restarted)" : "") << " to "
              << (owners[f.gid].empty() ? "(free)" : owners[f.gid]) << " at version " << f.version << '\n';
    resubscribe(f.conn, f.gid, f.version, true);  // to the new owner, or taken over here
  }
}

void Hub::announce_start() {
  NodeMessage nm;
  nm.kind = NodeMessage::Kind::Up;
  nm.from_node = options_.node_id;
  try {
    redis_.command({"PUBLISH", keys::kNodesChannel, encode(nm)});
  } catch (const std::exception& e) {  // Redis away: followers of a restarted node wait for a lapse
    std::cerr << "announce start: " << e.what() << '\n';
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
      const bool parsed = sm.ParseFromString(nm.payload);
      if (parsed && sm.request_id() != 0) {  // the answer to a forwarded request: no longer awaited
        std::lock_guard l(mu_);
        forwarded_.erase({nm.conn, sm.request_id()});
      }
      if (parsed && (sm.has_game_event() || sm.has_game_state() || sm.has_game_started())) {
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
        bool greet = false, stopped_playing = false, repeat = false;
        {
          std::lock_guard l(mu_);
          if (auto it = conns_.find(nm.conn); it != conns_.end()) {
            auto& rg = it->second.remote_games;
            auto g = rg.find(gid);
            // A game started for this connection by another node (e.g. it took a seek there):
            // followed from now on, though the client has sent nothing for it through this node.
            if (g == rg.end() && sm.has_game_started() && !over) g = rg.emplace(gid, RemoteGame{nm.from_node, ver}).first;
            repeat = g != rg.end() && !g->second.pass(ver, sm.has_game_event() && sm.request_id() == 0);
            if (g != rg.end() && !repeat) {
              if (over) {
                stopped_playing = g->second.playing;
                auto& ended = it->second.ended_remote_games;
                ended.emplace_back(gid, g->second.node);
                if (ended.size() > kMaxEndedRemoteGames) ended.pop_front();
                rg.erase(g);
              } else {
                g->second.playing = g->second.playing || as_player;
              }
            }
            greet = !repeat && sm.has_game_state() && sm.request_id() == 0 && it->second.greet_as_started.erase(gid) > 0;
          }
        }
        if (repeat) return;
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
    case K::Up:
      if (nm.from_node != options_.node_id) {
        std::lock_guard l(mu_);
        restarted_nodes_.insert(nm.from_node);
        for (auto& [id, ci] : conns_)
          for (auto& [gid, rg] : ci.remote_games)
            if (rg.node == nm.from_node) rg.owner_restarted = true;
      }
      return;
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
      if (nm.users.size() == 3 && find_game(nm.users[0]))
        admin_game_action(nm.users[0], nm.users[1], nm.users[2], false);  // not on the message thread
      if (nm.users.size() == 4) {
        // The asking node waits for the answer: found on the HTTP pool (the game's strand decides),
        // pushed to its list, which expires if the asker has given up.
        auto answer = [this](const std::string& key, const std::string& why) {
          try {
            redis_.command({"RPUSH", key, why.empty() ? "ok" : why});
            redis_.command({"PEXPIRE", key, "30000"});
          } catch (const std::exception&) {  // Redis away: the asker answers 503 after its wait
          }
        };
        auto job = [this, answer, users = nm.users] {
          // Not held here (any more): ended and retired meanwhile, or taken by another node.
          answer(users[3], find_game(users[0]) ? admin_game_action(users[0], users[1], users[2], true) : "the game is not live on its node any more");
        };
        if (!post_http(std::move(job))) answer(nm.users[3], kNotAnswered);
      }
      return;
    case K::Ban:
      // This node closed the user's connections (and ended a banned user's games) before it
      // published: its own copy, heard a moment later, would close a session signed in meanwhile
      // with a fresh token (after a password change or a sign-out everywhere).
      if (nm.from_node == options_.node_id) return;
      for (const auto& u : nm.users) {
        // A disconnect sends the same message; a ban is told apart by the ban list, which is asked
        // off this (subscriber) thread.
        auto job = [this, u] {
          bool banned = false;
          try {
            banned = auth_.banned(u);
          } catch (const std::exception&) {  // Redis away: closed all the same; the opponent may claim
          }
          close_connections_of(u, banned);
          if (banned) end_games_of_banned(u);
        };
        if (!post_http(job)) close_connections_of(u, false);
      }
      return;
    case K::Request: break;
  }
  // A request of a client of another node: served through a proxy of that connection.
  std::shared_ptr<ProxyConnection> p, stale;
  bool relogged = false;
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
    relogged = old && old->id != u.id;
  }
  if (stale) on_close(stale);
  if (relogged) drop_subscriptions(p);  // the client signed in as someone else (its node drops this proxy too)
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

}  // namespace gs
