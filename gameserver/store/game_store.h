// Durable storage of games in Redis (key schema: store/keys.h).
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "game/chat.h"

#include "game/clock_resume.h"
#include "game/game_session.h"
#include "store/append_pipeline.h"
#include "store/redis.h"

namespace gs {

class GameStore {
 public:
  // node_id: this server's name as a game owner. Empty = unfenced appends (tools only).
  // replay_kept_ms: how long a finished game's events and config stay after it ended (0: for
  // ever); its archive record stays for ever (keys.h).
  explicit GameStore(Redis& redis, std::string node_id = "", int64_t lease_ms = 5000, int64_t replay_kept_ms = 0)
      : redis_(redis), node_(std::move(node_id)), lease_ms_(lease_ms), replay_kept_ms_(replay_kept_ms) {}
  const std::string& node() const { return node_; }
  int64_t unavailable_ms() const { return redis_.unavailable_ms(); }  // Redis::unavailable_ms
  // After this node's heartbeat lapsed (Redis was away, or the node stalled), another node may
  // take some of its games over without this one knowing yet: until `until_ms` (steady) its games'
  // refusals of a move are checked against the owner first (GameActor::finish), and Hub::tick
  // looks for games it lost on every tick. In doubt too while its last heartbeat is older than
  // most of a lease (before the next tick has told whether it lapsed).
  void doubt_ownership_until(int64_t until_ms) {
    int64_t cur = doubt_until_ms_.load();
    while (cur < until_ms && !doubt_until_ms_.compare_exchange_weak(cur, until_ms)) {
    }
  }
  bool ownership_in_doubt() const;
  // Whether the game's owner key names this node (always true without a node id). Throws RedisError.
  bool owns(const std::string& id);

  void create(const GameConfig& c);  // meta + live set
  // Creates the game only if no game with this id exists (games requested by the matchmaker may be
  // requested twice). Returns false if it already existed; a creation that was cut short (stored
  // but never live) is finished instead, and `c` becomes the stored config.
  bool create_if_absent(GameConfig& c);
  // Appends events (first.version must be the next version) and the snapshot, atomically. The
  // snapshot also tells the other nodes' game lists how many people watch (`spectators`).
  // Throws RedisError; then nothing was written. With a node id, the append is fenced: it fails
  // (message contains "NOT_OWNER", see is_not_owner) unless this node owns the game.
  void append(const GameSession& s, const std::vector<GameEvent>& events, uint32_t spectators = 0);
  // The same append, sent through the batching writer thread (store/append_pipeline.h): returns at
  // once; `done` runs on the writer thread with nullptr (stored) or the error append would throw.
  // Without `with_snapshot` only the events are written (the snapshot serves the other nodes' game
  // lists, which may lag: the caller writes it now and then, see GameActor::store).
  void append_async(const GameSession& s, const std::vector<GameEvent>& events, uint32_t spectators,
                    bool with_snapshot, AppendPipeline::Done done);
  // Writes the archive record and moves the game from the live set to the finished set. A
  // tournament game's result is also appended to the results stream for the matchmaker (which
  // ignores a result it already has, so a repeated archive is harmless).
  void archive(const GameSession& s);
  std::vector<std::string> live_game_ids();
  // Rebuilds a live game by replaying its events. Throws on corrupt data.
  GameSession load(const std::string& id);
  std::optional<std::string> archived(const std::string& id);
  // The game's chat (keys.h game_chat): a line appended, the stored lines read back.
  void append_chat(const std::string& id, const ChatEntry& line);
  std::vector<ChatEntry> load_chat(const std::string& id);
  // Players who have connected to the game (tournament no-show rule; see keys.h).
  void mark_present(const std::string& id, xq::Color side);
  std::array<bool, 2> present(const std::string& id);  // indexed by xq::index(side)
  // Since when (wall ms) a player has had no connection to the game (claim_victory; see keys.h).
  void set_away(const std::string& id, xq::Color side, int64_t since_wall_ms);
  void clear_away(const std::string& id, xq::Color side);
  std::array<int64_t, 2> away(const std::string& id);  // 0 = not recorded as away

  // --- ownership (store/game_leases.cpp) ---
  // A game's owner is the node named in xq:game:{id}:owner; the claim holds while that node's
  // heartbeat (xq:node:{node}:alive, PX = lease time) lives. One heartbeat per node per tick keeps
  // all its games, where a lease per game cost a Redis write per game per tick.
  //
  // Renews this node's heartbeat (and its entry in xq:nodes:known). True if it had lapsed: other
  // nodes may have taken games meanwhile (see lost_games).
  bool heartbeat();
  void stop_heartbeat();  // a clean stop: the other nodes take this node's games at their next tick
  // Takes the game if it has no owner, a dead owner, or is this node's already. True = owned now;
  // then `from` (if given) says until when its previous owner ran it and how an earlier
  // resumption in this turn went (game/clock_resume.h; plies, turn start and now left to the caller).
  bool claim(const std::string& id, ResumeFacts* from = nullptr);
  // Remembers that the game was resumed now in the turn after `plies`, with `used_ms` of it charged.
  void set_resumed(const std::string& id, uint64_t plies, int64_t at_ms, int64_t used_ms);
  void release(const std::string& id);  // a finished game: drops the claim if this node holds it
  // The owner if it is alive (or this node); nullopt if the game has no living owner.
  std::optional<std::string> owner(const std::string& id);
  // The same for many games: "" where there is no living owner.
  std::vector<std::string> owners(const std::vector<std::string>& ids);
  // Of these ids, those this node may claim: no owner, a dead owner, or this node (a restarted
  // node keeps its id).
  std::vector<std::string> claimable(const std::vector<std::string>& ids);
  // Of these ids (games this node runs), those whose owner key no longer names this node.
  std::vector<std::string> lost_games(const std::vector<std::string>& ids);
  // Games of nodes whose heartbeat stopped, at most `per_node` of each; dead nodes left with no
  // games are forgotten (with their presence hash).
  std::vector<std::string> games_of_dead_nodes(size_t per_node);
  bool is_live(const std::string& id);
  // In the finished list: archived, its id taken for ever. (A stored config alone is also a game
  // being created, not yet live.)
  bool is_finished(const std::string& id);

 private:
  AppendPipeline::Part append_part(const GameSession& s, const std::vector<GameEvent>& events,
                                   uint32_t spectators, bool with_snapshot) const;
  Redis& redis_;
  std::string node_;
  int64_t lease_ms_;
  int64_t replay_kept_ms_;
  std::atomic<int64_t> doubt_until_ms_{0};
  // The wall time of this node's last heartbeat in its previous life (same node id), read by the
  // first heartbeat of this one: until when it ran the games it resumes now. 0 = unknown.
  std::atomic<int64_t> previous_life_seen_ms_{0};  // written by the ticker, read by claims on any thread
  std::atomic<bool> heartbeat_started_{false};
  std::atomic<int64_t> last_beat_ms_{0};  // steady: the last heartbeat Redis took
  std::once_flag pipeline_once_;
  std::unique_ptr<AppendPipeline> pipeline_;  // started by the first append_async
};

bool is_not_owner(const std::exception& e);  // a fenced append refused: another node owns the game

}  // namespace gs
