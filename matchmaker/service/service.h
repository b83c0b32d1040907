// The matchmaker process: reads commands and game results from Redis streams, applies them to the
// pure tournament/pool logic, stores the state back and asks game servers for games. It never
// touches sockets. Every step is idempotent, so a crash at any point loses nothing and pairs nothing
// twice: the state is saved before the stream entry is acknowledged, results and commands already
// applied are recognised, and game creation is idempotent by game id.
#pragma once
#include <atomic>
#include <boost/json/value.hpp>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pool.h"
#include "store/redis.h"
#include "tournament.h"

namespace xq::mm {

struct ServiceOptions {
  std::string consumer = "mm-1";
  int pool_interval_ms = 2000;
  // One matchmaker acts at a time; the others wait and take over when its lease runs out.
  std::string instance;  // unique per process (host-pid)
  int64_t lease_ms = 10000;
  PoolPolicy pool_policy;
  // A waiting player with no connection to any game server is not paired, and leaves the pool
  // after this long (a closed tab; a short network drop keeps the place).
  int64_t pool_offline_grace_ms = 10000;
};


// Takes two waiting players out of the quick-pairing pool `pool` ("<variant>:<initial>+<inc>") and
// requests their game (spec: the JSON of a game-create entry), atomically. False, and nothing
// changed, if either of them has left the pool.
bool take_pool_pair(gs::Redis& redis, const std::string& pool, const std::string& red, const std::string& black,
                    const std::string& game_id, const std::string& spec);

// SETs the keys (key, value) in one step if `instance` holds the leader lease (bus::kLeader);
// false, and nothing written, if another instance does.
bool fenced_set(gs::Redis& redis, const std::string& instance,
                const std::vector<std::pair<std::string, std::string>>& writes);

class MatchmakerService {
 public:
  MatchmakerService(gs::Redis& redis, ServiceOptions options);
  // Runs until `stop` becomes true, as the leader (or waiting to become it). Processes entries left
  // pending by a previous leader (whatever its consumer name) first.
  void run(const std::atomic<bool>& stop);
  // Takes or renews the leader lease; false while another instance holds it.
  bool hold_lease();
  void release_lease();
  // One pass: read and handle whatever is waiting (blocking at most block_ms). For tests/tools.
  void poll(int block_ms);
  void run_pools(int64_t now_ms);
  // Re-requests games of running events that no game server has created yet (after a crash).
  void reconcile();
  // Starts events whose start time has come.
  void start_due_events(int64_t now_ms);

 private:
  void ensure_groups();
  // Makes every entry pending in the group (under any consumer) this consumer's, for poll() to handle.
  void claim_pending();
  // `delivered`: how often each pending entry was delivered (entry id → count), for the pass over
  // entries delivered before; an entry delivered too often is dropped unhandled.
  void handle_stream_entries(const gs::RedisReply& reply, bool& any,
                             const std::map<std::string, int64_t>& delivered = {});
  boost::json::value handle_command(const std::string& command_id, const boost::json::value& body);
  void handle_result(const std::string& game_id, const boost::json::value& body);
  bool load(const std::string& event_id, Tournament& t);
  void save(Tournament& t);
  // SETs the keys in one step if this instance still holds the leader lease; else throws gs::RedisError.
  void fenced_set(const std::vector<std::pair<std::string, std::string>>& writes);
  bool may_organise(const Tournament& t, const boost::json::object& cmd);
  // Every event's id and public view (events listed without a record left out), for the checks
  // that look across events (a club's deletion).
  std::vector<std::pair<std::string, std::string>> event_public_views();
  // Deletes the club and keeps its id from being given again, in one step while this instance
  // holds the leader lease; else throws gs::RedisError.
  void fenced_delete_club(const std::string& club_id);
  void publish_effects(const Tournament& t, const Effects& fx);
  // Withdraws the event's entrants whose accounts are banned (one SMISMEMBER), before a command, a
  // result or a timed start is applied, so no pairing takes them in; stores and announces it at
  // once. Returns the banned entrants' user ids (empty when nobody was withdrawn).
  std::set<std::string> withdraw_banned_entrants(Tournament& t);
  void request_game(const Tournament& t, const GameSlot& slot);

  gs::Redis& redis_;
  ServiceOptions options_;
  int64_t last_pool_run_ms_ = 0;
  std::map<std::string, int64_t> offline_since_;  // pool entries (pool + user) seen offline, since when
};

int64_t now_ms();

}  // namespace xq::mm
