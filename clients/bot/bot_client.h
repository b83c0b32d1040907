// xqbot's protocol loop (docs/protocol.md): signs in (login, or register when the name is free),
// keeps its seeks open in the lobby, accepts challenges addressed to it, plays its games with the
// engine on a worker thread, answers draw offers and takeback proposals, and after a lost
// connection comes back with its token and resumes its games. Runs on one io_context thread.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "bot_options.h"
#include "game_tracker.h"
#include "xq.pb.h"

namespace boost::asio {
class io_context;
}

namespace xqbot {

class WsLink;
class SearchWorker;
struct SearchResult;

class BotClient {
 public:
  BotClient(boost::asio::io_context& ioc, BotOptions opt);
  ~BotClient();
  void start();
  void stop();  // closes the connection and stops the timers; the io_context then runs out
  int exit_code() const { return exit_code_; }
  void on_stopped(std::function<void()> fn) { on_stopped_ = std::move(fn); }

 private:
  struct Timers;
  enum class Pending { Login, Register, Hello, CreateSeek, CancelSeek, AcceptSeek, ListSeeks, ListGames, Move,
                       GameAction, Sync };
  struct Request {
    Pending kind;
    std::string id;      // game or seek id
    std::string extra;   // CreateSeek: the spec (describe()); Move: the client_move_id
  };

  void connect();
  void on_open(uint64_t gen);
  void on_frame(uint64_t gen, const std::string& frame);
  void on_closed(uint64_t gen, const std::string& why);
  void reconnect_later();
  void sign_in();
  void on_signed_in(const xq::v1::Reply& r);

  uint64_t send(xq::v1::ClientMessage m, Request req);
  void pump_out();

  void on_reply(const Request& req, const xq::v1::ServerMessage& m);
  void on_error(const Request& req, const xq::v1::Error& e);
  void on_seek_list(const xq::v1::SeekList& list, bool own_answer);
  void on_game_list(const xq::v1::GameList& list);
  void on_state(const xq::v1::GameState& s, bool started);
  void on_event(const xq::v1::GameEvent& e);
  void on_presence(const xq::v1::Presence& p);
  void list_seeks();
  void poll();  // every poll_ms: the seek list, and any game left waiting for a move

  void think(GameTracker& g);   // searches if the bot is to move and nothing is in flight
  void on_search_done(SearchResult r);
  void send_move(GameTracker& g);
  void game_action(const std::string& gid, const char* what);
  void resync(const std::string& gid);
  void end_game(GameTracker& g);
  void arm_claim(GameTracker& g, int64_t after_ms);
  void after(int64_t ms, std::function<void()> fn);  // a one-shot timer, cancelled by stop()

  int live_games() const;

  boost::asio::io_context& ioc_;
  BotOptions opt_;
  std::unique_ptr<Timers> timers_;
  std::unique_ptr<SearchWorker> worker_;
  std::shared_ptr<WsLink> link_;
  uint64_t gen_ = 0;  // connection generation: callbacks of an older link are ignored
  bool stopping_ = false, ready_ = false;
  int exit_code_ = 0;
  std::function<void()> on_stopped_;
  int64_t backoff_ms_ = 0;

  std::string token_, user_id_, name_;
  bool tried_register_ = false;

  uint64_t next_request_id_ = 1;
  std::map<uint64_t, Request> requests_;
  std::deque<std::string> out_;  // frames waiting for the rate limit
  double tokens_ = 0;
  int64_t tokens_at_ms_ = 0;
  bool pump_armed_ = false;

  std::map<std::string, GameTracker> games_;
  std::map<std::string, uint64_t> claim_epoch_;  // a claim timer counts only if its epoch is current
  std::set<std::string> finished_;              // ended games: late messages of them are ignored
  std::set<std::string> create_pending_specs_;  // describe(spec) of create_seeks in flight
  std::set<std::string> accepting_;             // challenges being accepted
  std::set<std::string> handled_challenges_;    // accepted or declined already
  std::set<std::string> cancelling_;            // own seeks being cancelled
  uint64_t move_counter_ = 0;
  std::string move_id_prefix_;  // random per run: client_move_ids of two runs never meet
  bool listing_seeks_ = false;
  int64_t listing_since_ms_ = 0;
  std::mt19937_64 rng_;
};

}  // namespace xqbot
