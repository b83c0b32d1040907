// One live game on the server: a GameSession driven by its own strand, its flag timer, its
// subscribers (players' and spectators' connections) and its persistence. Every method except
// the constructor, config() and the atomics must run on the strand (use post()).
#pragma once
#include <atomic>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <memory>
#include <optional>

#include "game/chat.h"
#include "game/codec.h"
#include "game/clock_resume.h"
#include "game/game_session.h"
#include "game/recent_turn_starts.h"
#include "net/runtime.h"
#include "rules/view.h"
#include "server/connection.h"
#include "server/metrics.h"
#include "server/options.h"
#include "store/game_store.h"
#include "xq.pb.h"

namespace gs {

class GameActor : public std::enable_shared_from_this<GameActor> {
 public:
  static constexpr size_t kMaxClientMoveIdBytes = 64;
  struct Deps {
    Runtime& runtime;
    GameStore& store;
    Metrics& metrics;
    const ServerOptions& options;
    std::function<void(const std::string& game_id)> on_retired;  // may be dropped from memory
    // A fenced append was refused: another node owns the game now (this actor must go).
    std::function<void(const std::string& game_id)> on_lost = nullptr;
    // The game has just ended (called once, on the strand).
    std::function<void(const GameConfig& config)> on_finished = nullptr;
    // Runs slow work (the archive's Redis writes) off the io threads; false = refused (queue
    // full), then the work runs at once. Unset: always at once.
    std::function<bool(std::function<void()>)> background = nullptr;
    // Plays a move that may call for a repetition judgement (handle()) off the io threads; false =
    // refused (queue full), then the move is played at once. Unset: always at once.
    std::function<bool(std::function<void()>)> judge = nullptr;
  };

  GameActor(Deps deps, GameSession session);

  const GameConfig& config() const { return config_; }
  uint32_t plies() const { return plies_; }
  uint32_t spectators() const { return spectators_; }  // people watching (each user once), any thread
  bool finished() const { return finished_; }
  bool move_limit_running() const { return move_limit_running_; }  // the move limit on request runs
  void post(std::function<void(GameActor&)> fn);

  // --- on the strand ---
  // Starts (or, for a game loaded from Redis, resumes) the clock and the flag timer.
  // A reloaded game (restart, takeover) charges the side to move the part of its turn a server ran
  // (`resume`: until when the previous owner ran it; game/clock_resume.h).
  void start(bool reloaded = true, ResumeFacts resume = {});
  // Sends the viewer what it needs: game_started/game_state, or the events after last_version.
  // Follow: a sync no client asked for (a node following a game to its new owner after a takeover
  // or its owner's restart): as Sync, but with nothing missed the whole state, with the live clock.
  enum class Greeting { None, Started, State, Sync, Follow };
  void subscribe(const std::shared_ptr<Connection>& c, xq::Viewer v, Greeting g, uint64_t request_id,
                 uint64_t last_version = 0);
  void unsubscribe(uint64_t connection_id);
  void handle(const std::shared_ptr<Connection>& c, xq::Viewer v, const xq::v1::ClientMessage& m,
              int64_t received_ms);
  // A chat line from a subscribed connection: to the players' room from a player, else to the
  // spectators'; answered, then sent to everyone reading that room (the writer too).
  void chat(const std::shared_ptr<Connection>& c, xq::Viewer v, const xq::v1::ClientMessage& m);
  // The chat lines stored before this node loaded the game (before any other use of the actor).
  void restore_chat(std::vector<ChatEntry> lines) { chat_.restore(std::move(lines)); }
  // What an admin's action came to: taken; refused by the game (over, or a limit already runs);
  // or not stored (Redis failed, or the game moved to another node): nothing changed, retry.
  enum class AdminResult { Applied, Refused, NotStored };
  AdminResult admin_end(xq::Result r);  // adjudicate/abort by an admin
  // An admin, as arbiter, imposes the move limit on request: on both sides, or on one.
  AdminResult admin_move_limit(std::optional<xq::Color> on_side);
  // Another node took the game: stop the clock and timer, refuse further actions, and hand back the
  // subscribers with the version each has seen (the hub re-routes them to the new owner).
  std::vector<std::pair<std::shared_ptr<Connection>, uint64_t>> retire();
  bool lost() const { return lost_; }
  std::string record_json();  // thread-safe (not on the strand): as of the last change
  // Both clocks as of now, and the running side (SIDE_NONE when stopped); thread-safe (admin views).
  struct ClockNow {
    Millis red_ms = 0, black_ms = 0;
    std::optional<xq::Color> running;
  };
  ClockNow clock_now() const;
  size_t subscriber_count() const { return subs_.size(); }

 private:
  static xq::Color side_of(xq::Viewer v) { return v == xq::Viewer::Black ? xq::Color::Black : xq::Color::Red; }
  AdminResult admin_act(const std::function<Status(Millis, std::vector<GameEvent>&)>& act);
  bool commit(const std::vector<GameEvent>& events);  // persist; false = storage failed
  bool committed(std::exception_ptr error);  // after an append: record refresh, or log and lease loss
  // A player's action whose events are being appended (asynchronously, handle()): its answer.
  struct Pending {
    std::shared_ptr<Connection> conn;
    uint64_t rid = 0;
    uint64_t version_before = 0;
    Status status = Status::Ok;
    std::string message;
    bool is_move = false;
    bool event_is_reply = false;  // the mover's Move event answers the request (MakeMove.event_is_reply)
    int64_t received_ms = 0;
    std::vector<GameEvent> events;
  };
  // A player's action on the session: its events and answer, or null when it was answered already
  // (refused). On the strand, or on the judge thread while busy_ holds the strand's other work.
  std::shared_ptr<Pending> act(const std::shared_ptr<Connection>& c, xq::Color side,
                               const xq::v1::ClientMessage& m, Millis now, int64_t received_ms);
  void store(const std::shared_ptr<Pending>& pending);  // appends its events, then finish()
  void finish(Pending& p, std::exception_ptr error);
  // While an append is in flight (busy_) the game's other work waits, in order, in waiting_.
  void run_or_wait(std::function<void()> fn);
  void drain();
  // Sends the events to every subscriber. With `answering` set, that connection's copy of the
  // Move event carries the request id `rid` (the answer to its move); returns whether it went out.
  bool publish(const std::vector<GameEvent>& events, const Connection* answering = nullptr, uint64_t rid = 0);
  // Storage failed: back to what Redis holds if it answers, else to the state after event
  // `version`. Returns the stored events beyond `version` (an append whose reply was lost).
  std::vector<GameEvent> rollback(uint64_t version);
  // After a rollback Redis did not answer (in_doubt_), an append that timed out may still land:
  // Redis is read again before the game acts on anything, and every half second until it answers
  // (arm_timer).
  // Events found there are adopted and published; the turn they hand over starts when it is
  // shown. Returns false while Redis is still away.
  bool reconcile();
  // Delayed broadcast: a spectator's greeting shows the game as it stood spectator_delay_ms ago,
  // and every later event reaches it that much after it happened.
  void subscribe_delayed(const std::shared_ptr<Connection>& c, Greeting g, uint64_t request_id, uint64_t last_version);
  void deliver_due();
  // Drops the delayed frames queued for `c` (and for connections gone): a spectator that watches
  // again is sent its catch-up anew, and would otherwise get every pending event twice.
  void drop_delayed_for(const Connection& c);
  void after_change();
  void arm_timer();
  void announce_spectators();  // to the players, when the number of people watching changed
  void send_chat_history(Connection& c, xq::Viewer v);  // the lines the viewer's room holds
  GameChat chat_;  // each line also goes to Redis (GameStore::append_chat), off the io thread
  void announce_presence(xq::Color side, bool present, const Connection* except = nullptr);
  void on_timer();
  // Gives the side to move the time Redis has been away since last asked (no move could be
  // stored meanwhile): before each action and each flag check.
  void absorb_outage();
  bool still_owned();  // the game's owner key still names this node (true when Redis cannot tell)

  Deps deps_;
  const GameConfig config_;
  GameSession session_;
  Strand strand_;
  bool busy_ = false;
  static constexpr Millis kSnapshotEveryMs = 1000;
  Millis snapshot_at_ = 0;  // when an append last carried the snapshot (0 = never), on the strand
  uint32_t snapshot_spectators_ = 0;
  std::deque<std::function<void()>> waiting_;
  struct Sub {
    std::weak_ptr<Connection> conn;
    xq::Viewer viewer;
    std::string watcher;  // a spectator's user id (or its connection's, signed out): who counts once
  };
  std::map<uint64_t, Sub> subs_;
  std::map<std::string, int> watchers_;  // spectators' users → their connections to the game
  RecentTurnStarts turn_started_;
  uint64_t takeback_seen_ = 0;  // the session's last takeback when turn_started_ was last cleared
  void forget_sub(const Sub& s);
  int64_t gone_since_[2] = {0, 0};  // steady ms when a player's last connection left (0 = present)
  bool ever_present_[2] = {false, false};  // has the player connected to this game (no-show rule)
  void restore_presence();
  void store_away(xq::Color side, bool away);
  bool away_stored_[2] = {false, false};  // an absence of this side may be in Redis
  void note_present(xq::Color side);
  bool archived_ = false;
  bool archiving_ = false;  // the archive runs in the background; the game stays in memory meanwhile
  void archive();
  std::atomic<bool> lost_{false};
  std::atomic<uint32_t> plies_{0};
  std::atomic<uint32_t> spectators_{0};  // watchers_.size(), for other threads
  std::atomic<bool> finished_{false};
  std::atomic<bool> move_limit_running_{false};  // so an admin's second imposition is refused at once
  mutable std::mutex record_mu_;
  std::string record_;
  Clock clock_copy_{TimeControl{}};  // the session's clock after the last change (under record_mu_)
  std::atomic<uint64_t> record_version_{0};   // the version record_ shows
  // The last version handed to subscribers. A retired actor's subscribers resync from it: the
  // session may be ahead of it (appends in flight, or a failed append's reload that found the new
  // owner's events), and those events they never got.
  uint64_t published_version_ = 0;
  std::atomic<uint64_t> session_version_{0};  // the version of the last committed change
  void refresh_record();  // on the strand
  RecordCache record_cache_;  // the record's ply entries so far (strand only)
  std::multimap<Millis, std::pair<std::weak_ptr<Connection>, std::string>> delayed_;  // steady time → frame
  Millis retire_at_ = 0;  // when a finished game leaves memory
  Millis armed_at_ = 0;   // the time the strand's timer is set for (0 = not set)
  int64_t outage_seen_ = 0;  // GameStore::unavailable_ms() when last absorbed
  bool in_doubt_ = false;      // Redis may hold events this actor does not (reconcile())
};

// Frames for one connection: helpers shared by the hub and the actors.
void send_message(Connection& c, const xq::v1::ServerMessage& m, Metrics& metrics);
void send_error(Connection& c, uint64_t request_id, xq::v1::ErrorCode code, const std::string& message,
                Metrics& metrics, const std::string& game_id = "");

}  // namespace gs
