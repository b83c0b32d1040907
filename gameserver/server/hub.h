// The server's brain between the network and the games: authenticates connections, runs the
// lobby, creates games and routes game requests to their actors. Thread-safe (one mutex for its
// maps; game state itself lives on the actors' strands). Its parts: hub.cpp (connections and
// frames), hub_seeks.cpp (the lobby), hub_game_setup.cpp (creating games), hub_game_lists.cpp
// (lists and records), hub_nodes.cpp (several nodes), hub_admin.cpp (admin actions).
#pragma once
#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <condition_variable>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>

#include "auth/auth.h"
#include "lobby/lobby.h"
#include "net/address_limit.h"
#include "net/runtime.h"
#include "server/connection.h"
#include "server/game_actor.h"
#include "server/metrics.h"
#include "server/node_wire.h"
#include "server/bot_ids.h"
#include "server/options.h"
#include "server/proxy_connection.h"
#include "server/remote_game.h"
#include "server/worker_pool.h"
#include "store/game_store.h"
#include "store/presence.h"
#include "store/publisher.h"

namespace gs {

class Hub {
 public:
  Hub(Runtime& rt, Redis& redis, Auth& auth, Metrics& metrics, ServerOptions options);
  ~Hub();

  // Takes over every live game with no living owner (or owned by this node id: a restarted node),
  // replaying its events and restarting its clock. Returns the number of games resumed. Scans all
  // live games: at start and every kFullCheckTicks ticks; dead nodes' games are found by tick().
  size_t recover();

  // --- several nodes (server/node_link.h calls these) ---
  // Heartbeat, takeover of dead nodes' games, reaping of proxies whose node is gone, seeks of dead
  // nodes. After a lapsed heartbeat (and every kFullCheckTicks): drops the games another node took
  // (their subscribers re-routed), resyncs presence, and scans for orphaned games.
  void tick();
  void on_node_message(const NodeMessage& m);
  void release_all();  // shutdown: ends the heartbeat and frees the seeks for a quick takeover
  // Start: tells the other nodes this node is up. A node restarted under the same id at once (its
  // heartbeat never lapsed, its games' owner unchanged) lost the proxies through which their
  // connections followed its games; they subscribe again at their next tick.
  void announce_start();
  const std::string& node_id() const { return options_.node_id; }

  // --- called by the transport ---
  void on_open(const std::shared_ptr<Connection>& c);
  void on_frame(const std::shared_ptr<Connection>& c, const std::string& bytes);
  void on_text_frame(const std::shared_ptr<Connection>& c);  // refused: the protocol is binary
  void on_too_large(const std::shared_ptr<Connection>& c, size_t size, uint64_t request_id = 0);
  void on_close(const std::shared_ptr<Connection>& c);

  // --- HTTP API and admin (JSON text) ---
  std::optional<std::string> game_record(const std::string& id);  // live or archived
  // A live game broadcast to spectators with a delay: its record waits for the end.
  bool record_withheld(const std::string& id);
  // Whether the user plays a game not yet over, on this node or (as of the game lists' cache, a
  // second) on another.
  bool plays_live_game(const std::string& user_id);
  static constexpr uint32_t kDefaultGameListLimit = 100, kMaxGameListLimit = 500;
  static constexpr size_t kMaxListedSeeks = 200;  // per seek list sent (SeekList.total counts them all)
  // Live games (and finished ones still in memory), newest first: `limit` from `offset`, with the
  // total count. {"games":[…],"total":N}
  // A live game broadcast with a delay shows the public (not the admin) no plies or clocks.
  std::string live_games_json(size_t offset, size_t limit, bool for_admin);
  std::string connections_json();
  // action: "red-wins" | "black-wins" | "draw" | "abort" (ends the game, `reason` in its result) or
  // "move-limit" (the arbiter imposes the game's move limit on request; `reason` is the side it is
  // imposed on, "red" or "black", or "" for both). "" when done or passed to the game's node, else
  // why not: unknown game, already over, a bad outcome or side, or (move-limit) a game without
  // that option or with the limit already running (known only for this node's games).
  // "" when done. On this node's games, waits (`wait`) until the game's strand has taken or refused
  // the action, so a game ended meanwhile by a player or another arbiter answers "no such live
  // game"; another node's game is told by message and answered at once.
  std::string admin_game_action(const std::string& id, const std::string& action, const std::string& reason,
                                bool wait = true);
  static constexpr const char* kNoSuchGame = "no such game";  // admin_game_action's answer for an unknown id
  // An event game's end the matchmaker decided, kept for its creation: a game whose request is
  // still in the stream when it is decided is made all the same, and must end at once. Stored
  // before the live game is looked for (admin_game_action), as the creation makes the game live
  // before it reads this: one of the two sees the other. Throws RedisError.
  void decide_at_creation(const std::string& id, const std::string& action, const std::string& reason);
  static constexpr const char* kNotAnswered = "the game's node does not answer";
  static constexpr const char* kNotStored = "Redis is unavailable: nothing was done, try again";
  // The HTTP status of admin_game_action's answer: 404 unknown game, 503 to retry, 409 refused.
  static int admin_action_status(const std::string& why) {
    return why == kNoSuchGame ? 404 : why == kNotAnswered || why == kNotStored ? 503 : 409;
  }
  // Also closes the user's connections and ends their live games (lost, "banned") on every node;
  // returns how many games ended here.
  size_t ban(const std::string& user_id);
  size_t end_games_of_banned(const std::string& user_id);
  // Closes the user's connections on every node (they may come back); returns how many were here.
  // `told_others` (if given) says whether the other nodes were told (false: Redis unreachable).
  size_t disconnect(const std::string& user_id, bool banned = false, bool* told_others = nullptr);
  // disconnect(user_id) once `delay_ms` have passed (on a tick, so up to a tick later).
  void disconnect_later(const std::string& user_id, int64_t delay_ms);
  size_t close_connections_of(const std::string& user_id, bool banned);  // this node's; tells a banned user why
  void drop_subscriptions(const std::shared_ptr<Connection>& c);       // its user changed: no game stays rendered for the old one
  bool redis_ok() { return redis_.ping(); }

  // --- matchmaker (tournaments, quick pairing) ---
  // Creates a game the matchmaker asked for (JSON spec, matchmaker/service/service.cpp
  // request_game). Idempotent by game id. Returns false if it existed already; throws on a bad spec.
  bool create_scheduled_game(const std::string& spec_json);
  // Pushes a Notice to every connection of these users on this node.
  // An event's notice also has its code and parameters (Notice.code, Notice.params).
  void push_notice(const std::vector<std::string>& user_ids, const std::string& kind, const std::string& event_id,
                   const std::string& game_id, const std::string& text, const std::string& code = {},
                   const std::vector<std::pair<std::string, std::string>>& params = {});
  Auth& auth() { return auth_; }
  Redis& redis() { return redis_; }
  GameStore& store() { return store_; }

  const ServerOptions& options() const { return options_; }
  Metrics& metrics() { return metrics_; }
  ConnectionsPerAddress& connections_per_address() { return connections_per_address_; }
  // Runs an HTTP API request off the io threads (it may wait on Redis, the matchmaker's answer or
  // a game's strand). False when the queue is full: answer 503.
  bool post_http(std::function<void()> job, bool probe = false) {
    return (probe ? probe_pool_ : http_pool_).try_post(std::move(job));
  }

 private:
  // Unsubscribes connection `conn_id` from `games` here and closes its proxies on `remote_nodes`.
  void leave_games(uint64_t conn_id, const std::set<std::string>& games, const std::set<std::string>& remote_nodes);
  struct ConnInfo {
    std::weak_ptr<Connection> conn;
    std::set<std::string> games;  // games this connection is subscribed to
    std::set<std::string> remote_nodes;  // nodes it has forwarded requests to (told when it closes)
    // Games of other nodes it follows: owner node and the last version that reached it. If the
    // owner changes (its node died, the game was taken over), tick() re-subscribes it there.
    std::map<std::string, RemoteGame> remote_games;
    // Games of other nodes it followed to their end, with that node (the latest few): its game
    // lingers there a while with an open chat, for a line after the end (the end released the
    // game's owner key, so Redis no longer names the node).
    std::deque<std::pair<std::string, std::string>> ended_remote_games;
    // Games of this player created on another node: their first state is passed on as game_started.
    std::set<std::string> greet_as_started;
    // Asked for the seek list (list_seeks: a lobby is shown), so it gets the pushed changes from
    // then on. Others (a game page opened by link, bots, API clients) get a push only while a
    // challenge to their user is open: with thousands signed in, pushing every change to every
    // connection cost more than the games (docs/benchmarks.md, "Seek pushes to lobby watchers").
    bool lobby_watcher = false;
    std::deque<xq::v1::ClientMessage> held;  // received while a request is on a worker pool (route()), in order
    bool follows(const std::string& gid) const { return games.count(gid) || remote_games.count(gid); }
  };
  // Under mu_. Following `gid` too would pass Options::max_followed_games: games that ended count
  // no more (a spectator who had watched 64 games to their end could watch none; review,
  // 2026-12-04), and those that left this node's memory are forgotten (forget_unloaded_games).
  bool would_pass_follow_limit(ConnInfo& ci, const std::string& gid);
  // Under mu_. Drops from ci.games the games no longer held here (ended and unloaded, or moved to
  // another node): a connection that lives long, a bot's, played thousands.
  void forget_unloaded_games(ConnInfo& ci);
  // A spectator's watch or sync beyond Options::max_followed_games.
  void refuse_too_many_followed(Connection& c, uint64_t rid, const std::string& gid);
  static constexpr size_t kMaxHeldFrames = 64;
  static constexpr size_t kMaxEndedRemoteGames = 8;
  // follow_moved_games leaves a game alone this long after its client's own request about it (the
  // web client retries a failed sync after a second).
  static constexpr int64_t kClientRetryGraceMs = 1500;
  // Where a request runs: requests that wait on Redis round trips or hash a password go to a
  // worker pool (the connection's later frames wait in ConnInfo::held); game actions run here.
  void route(const std::shared_ptr<Connection>& c, const xq::v1::ClientMessage& m, int64_t t0);
  void handle(const std::shared_ptr<Connection>& c, const xq::v1::ClientMessage& m, int64_t t0);
  void password_sign_in(const std::shared_ptr<Connection>& c, const xq::v1::ClientMessage& m);
  void release_held(const std::shared_ptr<Connection>& c);
  void follow_moved_games();  // tick(): the re-subscription above
  std::set<std::string> restarted_nodes_;  // heard Up from them since the last tick (under mu_)
  // A game of this connection's player was created on another node (a game_ready notice came):
  // subscribes it there and greets it with game_started, as the creating node greets its own.
  void greet_remote_game(const std::shared_ptr<Connection>& c, const std::string& gid);
  void refresh_presence();    // tick(): resync of this node's presence hash (store/presence.h)
  // Every live game of every node: this node's from memory, the others' from Redis, read at most
  // once per kGameListCacheMs however many lobbies poll (each read visits every live game).
  struct GameInfo {
    GameConfig config;
    uint32_t plies = 0;
    bool finished = false;
    // Clocks: as of now for this node's games; as of the last event for games owned elsewhere
    // (from their snapshot; `running` then unknown and empty).
    int64_t red_ms = 0, black_ms = 0;
    std::string running;
    uint32_t spectators = 0;  // likewise: now here, as of the last event elsewhere
  };
  struct GamePage {
    std::vector<std::pair<std::string, GameInfo>> games;
    size_t total = 0;
  };
  GamePage game_page(size_t offset, size_t limit, bool include_finished, bool public_view);
  std::map<std::string, GameInfo> other_nodes_games();  // from Redis, uncached
  std::shared_ptr<const std::map<std::string, GameInfo>> other_nodes_games_cached();  // null before the first read
  static constexpr int64_t kGameListCacheMs = 1000;
  std::mutex others_mu_;  // the cache below; held while refreshing, so callers do not stampede
  int64_t others_read_ms_ = -kGameListCacheMs;
  std::shared_ptr<const std::map<std::string, GameInfo>> others_cache_;  // shared: readers copy no map

  void dispatch(const std::shared_ptr<Connection>& c, const xq::v1::ClientMessage& m, int64_t received_ms,
                int hops = 0);
  void login_reply(const std::shared_ptr<Connection>& c, uint64_t rid, const User& u);
  void list_seeks(const std::shared_ptr<Connection>& c, const User& u, uint64_t rid);
  void list_games(const std::shared_ptr<Connection>& c, const xq::v1::ClientMessage& m);
  void create_seek(const std::shared_ptr<Connection>& c, const User& u, const xq::v1::ClientMessage& m);
  std::string online_user_id(const std::string& name);
  void accept_seek(const std::shared_ptr<Connection>& c, const User& u, const xq::v1::ClientMessage& m, int hops);
  void cancel_seek(const std::shared_ptr<Connection>& c, const User& u, const xq::v1::ClientMessage& m, int hops);
  void start_game(const SeekEntry& seek, const User& taker, const std::shared_ptr<Connection>& c, uint64_t rid);
  // A challenge being accepted makes every other open challenge between the two players (on any
  // node) moot: crossing rematch offers, both accepted, started two games (web review, 2026-12-03).
  // Atomic in Redis, so of two such accepts one wins. False: this challenge was made moot itself.
  bool supersede_other_challenges(const SeekEntry& seek, const std::string& taker_id);
  // Registers a created game's actor, starts it and greets its connected players.
  void launch(const GameConfig& cfg, GameSession session);
  void close_open_seeks(const GameConfig& cfg);  // the players' open seeks held here: withdrawn
  void leave_pools(const GameConfig& cfg);
  void fill_ratings(GameConfig& cfg);  // registered players' current ratings and bot marks, for display
  void seal(GameConfig& cfg);          // Jieqi secret + commitment, creation time
  void announce_game_ready(const GameConfig& cfg);  // the game_ready notice to both players, on every node
  std::optional<xq::Result> decided_before_creation(const std::string& id);  // decide_at_creation's, if any
  void game_request(const std::shared_ptr<Connection>& c, const User& u, const xq::v1::ClientMessage& m,
                    int64_t received_ms, int hops = 0);
  // The seek list (all nodes) to this node's clients (or those of these users), now.
  void push_seeks(const std::set<std::string>* only_users = nullptr);
  void seek_changed(Connection& c, uint64_t rid, const std::string& id);
  void post_seek_push(std::set<std::string> users);  // push_seeks(&users) on seek_push_pool_
  bool playing_here(const ConnInfo& ci, const std::string& user_id) const;  // under mu_
  template <class Fn>
  void for_each_conn(Fn&& fn);  // fn(id, ConnInfo) under mu_, a chunk of connections at a time
  void request_seek_push();       // push_seeks() soon: coalesced (ServerOptions::seek_push_interval_ms)
  void publish_seeks_changed();   // tells every node (this one included) to push it
  std::vector<SeekEntry> all_seeks();
  std::optional<StoredSeek> stored_seek(const std::string& id);
  void store_seek(const std::string& id);
  void unstore_seeks(const std::vector<std::string>& ids);
  // The game's actor on this node, taking the game over if it has no living owner; else nullptr with
  // `owner` = the node owning it (empty: not a live game).
  // `requester`: the connection whose request this is (served by that request, so not caught up
  // again as a follower after a takeover it causes).
  std::shared_ptr<GameActor> locate(const std::string& gid, std::string& owner, uint64_t requester = 0);
  std::shared_ptr<GameActor> adopt(const std::string& gid);  // claim, load, start
  void serve_followers_here(const std::string& gid, uint64_t except_conn);  // after a takeover on request
  // Sends the request to `node` over Redis; false if no node listens there (it is gone).
  bool forward(const std::shared_ptr<Connection>& c, const User& u, const std::string& node,
               const xq::v1::ClientMessage& m, int hops);
  // The same without waiting (through publisher_); `undelivered` runs on the publisher's thread
  // if no node listens there or Redis failed.
  void forward_async(const std::shared_ptr<Connection>& c, const User& u, const std::string& node,
                     const xq::v1::ClientMessage& m, int hops, std::function<void()> undelivered);
  std::string node_request(const std::shared_ptr<Connection>& c, const User& u, const std::string& node,
                           const xq::v1::ClientMessage& m, int hops);  // encoded; empty if c closed
  void drop_game(const std::string& id);  // another node took it
  // `follow`: the game moved (a takeover, its owner's restart): with nothing missed the client
  // still gets the whole state, whose clock no event carried (else nothing is sent).
  void resubscribe(const std::shared_ptr<Connection>& c, const std::string& gid, uint64_t version, bool follow);
  void sweep_dead_nodes_seeks();
  void send_stored_game(const std::shared_ptr<Connection>& c, const User& u, const std::string& gid, uint64_t rid);
  std::shared_ptr<GameActor> find_game(const std::string& id);
  std::vector<std::shared_ptr<Connection>> connections_of(const std::string& user_id);
  std::shared_ptr<GameActor> make_actor(GameSession s);

  Runtime& rt_;
  Redis& redis_;
  Publisher publisher_;  // before the proxies that use it: destroyed after them
  GameStore store_;
  Presence presence_;
  static constexpr uint64_t kFullCheckTicks = 30;
  uint64_t ticks_ = 0;  // tick() runs on one thread
  Auth& auth_;
  Metrics& metrics_;
  ConnectionsPerAddress connections_per_address_;
  ServerOptions options_;
  BotIds bot_ids_{redis_};  // computer players, for the seek lists

  std::mutex later_mu_;  // disconnect_later's queue: (steady time due, user id)
  std::vector<std::pair<int64_t, std::string>> disconnect_due_;
  std::mutex mu_;
  std::map<uint64_t, ConnInfo> conns_;
  std::map<std::string, std::set<uint64_t>> user_conns_;
  std::unordered_map<std::string, std::shared_ptr<GameActor>> games_;  // looked up for every game frame
  Lobby lobby_;
  std::map<std::pair<std::string, uint64_t>, std::shared_ptr<ProxyConnection>> proxies_;  // (node, conn)
  // Requests of this node's clients forwarded to a game's owner and not answered yet, by
  // (connection, request id): past options_.forward_timeout_ms the client hears NODE_NOT_ANSWERING
  // (answer_overdue_forwards) rather than nothing until the owner runs again.
  struct Forwarded {
    std::string game_id;
    int64_t sent_ms = 0;
  };
  std::map<std::pair<uint64_t, uint64_t>, Forwarded> forwarded_;
  void answer_overdue_forwards();
  std::set<std::string> unloadable_;  // live games whose data could not be loaded (not retried)
  // Games being claimed and loaded by some thread: another thread asking for one waits for it
  // (a second claim would read the handover as this node's own, and charge the clock wrongly).
  std::set<std::string> adopting_;
  std::condition_variable adopting_done_;
  std::atomic<uint64_t> next_proxy_id_{kProxyIdBase};
  // Seek-push coalescing; both fields are used on seek_push_strand_ only. The pushes themselves
  // (a Redis read and a walk over the connections) run on seek_push_pool_, in order.
  Strand seek_push_strand_;
  bool seek_push_scheduled_ = false;
  int64_t last_seek_push_ms_ = 0;
  // Frames the last full push sent: the next push waits long enough to keep within
  // options_.seek_push_frames_per_s.
  std::atomic<size_t> last_seek_push_frames_{0};
  // Users with a challenge open at the last push: one whose challenge went gets the next push too.
  std::mutex last_challenged_mu_;
  std::set<std::string> last_challenged_;
  // This node's seeks stored but not held, and held but not stored, at the last sweep (under mu_).
  std::set<std::string> seeks_unheld_last_sweep_, seeks_unstored_last_sweep_;
  // Finished games' archives (GameActor::archive): one thread, in order; when 4,096 wait, a game
  // archives on its own strand instead.
  WorkerPool archive_pool_{1, 4096, options_.background_nice};
  // Moves that may call for a repetition judgement (GameActor::handle): one thread, so judgements
  // take at most one core from the io threads; when 1,024 wait, a game judges on its own strand.
  WorkerPool judge_pool_{1, 1024};
  // Lobby requests (sign-in by token or as a guest, seeks, challenges, lists) and a closed
  // connection's clean-up: each waits on several Redis round trips, which on an io thread held up
  // every game served by it (a burst of games ending and new ones set up showed in the moves' p99).
  // Two threads so that one request's round trips overlap another's; when 4,096 wait, the io
  // thread runs the request itself, as before.
  WorkerPool lobby_pool_{2, 4096, options_.background_nice};
  WorkerPool seek_push_pool_{1, 1024, options_.background_nice};
  // HTTP API requests: a tournament request waits up to seconds for the matchmaker's answer (a
  // blocking pop), which on an io thread froze every game of the node. Eight threads, so a few
  // slow requests leave room for the others; when 1,024 wait, the request gets 503.
  WorkerPool http_pool_{8, 1024, options_.background_nice};
  WorkerPool probe_pool_{1, 64};  // /healthz: its Redis ping, apart from the API's waits
  // One thread: password hashing must not take both cores from the games; 256 queued at most.
  // Last members: destroyed first, finishing their tasks while everything they use still exists.
  WorkerPool sign_in_pool_{1, 256, options_.background_nice};
};

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

}  // namespace gs
