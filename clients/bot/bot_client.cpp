#include "bot_client.h"

#include <fstream>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <list>

#include "search_worker.h"
#include "ws_link.h"

namespace asio = boost::asio;
namespace v1 = xq::v1;

namespace xqbot {
namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now().time_since_epoch()).count();
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Game starts and ends: one line each on stdout (what an operator reads).
void game_line(const std::string& text) {
  std::fprintf(stdout, "%s %s\n", utc_now().c_str(), text.c_str());
  std::fflush(stdout);
}

// Everything else: stderr.
void note(const std::string& text) {
  std::fprintf(stderr, "%s xqbot: %s\n", utc_now().c_str(), text.c_str());
  std::fflush(stderr);
}

const char* code_name(v1::ErrorCode c) {
  const auto* d = v1::ErrorCode_descriptor()->FindValueByNumber(c);
  return d ? d->name().c_str() : "?";
}

bool same_spec(const v1::Seek& s, const SeekSpec& spec) {
  const v1::Variant v = s.variant() == v1::JIEQI ? v1::JIEQI : v1::XIANGQI;
  return v == spec.variant && s.time_control().initial_ms() == spec.initial_ms &&
         s.time_control().increment_ms() == spec.increment_ms && !s.rated();
}

using ActionField = v1::GameAction* (v1::ClientMessage::*)();

ActionField action_field(const std::string& what) {
  if (what == "resign") return &v1::ClientMessage::mutable_resign;
  if (what == "accept_draw") return &v1::ClientMessage::mutable_accept_draw;
  if (what == "decline_draw") return &v1::ClientMessage::mutable_decline_draw;
  if (what == "accept_takeback") return &v1::ClientMessage::mutable_accept_takeback;
  if (what == "decline_takeback") return &v1::ClientMessage::mutable_decline_takeback;
  if (what == "claim_victory") return &v1::ClientMessage::mutable_claim_victory;
  return nullptr;
}

}  // namespace

struct BotClient::Timers {
  std::list<std::shared_ptr<asio::steady_timer>> live;
};

BotClient::BotClient(asio::io_context& ioc, BotOptions opt)
    : ioc_(ioc), opt_(std::move(opt)), timers_(std::make_unique<Timers>()), rng_(std::random_device{}()) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%06llx", static_cast<unsigned long long>(rng_() & 0xffffff));
  move_id_prefix_ = std::string("b") + buf;
  tokens_ = 2.0 * opt_.frames_per_s;
  tokens_at_ms_ = now_ms();
  worker_ = std::make_unique<SearchWorker>([this](SearchResult r) {
    asio::post(ioc_, [this, r = std::move(r)]() mutable { on_search_done(std::move(r)); });
  });
}

BotClient::~BotClient() { worker_.reset(); }

void BotClient::after(int64_t ms, std::function<void()> fn) {
  if (stopping_) return;
  auto t = std::make_shared<asio::steady_timer>(ioc_, std::chrono::milliseconds(std::max<int64_t>(ms, 0)));
  timers_->live.push_back(t);
  auto it = std::prev(timers_->live.end());
  t->async_wait([this, it, fn = std::move(fn)](const boost::system::error_code& ec) {
    // Cancelled, or stopped after it fired but before this ran: stop() has emptied the list.
    if (ec || stopping_) return;
    timers_->live.erase(it);
    fn();
  });
}

void BotClient::start() {
  if (opt_.max_seconds > 0)
    after(opt_.max_seconds * 1000, [this] {
      note("--max-seconds reached, stopping");
      stop();
    });
  after(opt_.poll_ms, [this] { poll(); });
  connect();
}

// The seek list is asked for regularly: a player in a live game gets no lobby pushes, and a
// challenge to the bot must be seen all the same.
void BotClient::poll() {
  if (ready_) {
    list_seeks();
    for (auto& [gid, g] : games_) think(g);
  }
  after(opt_.poll_ms, [this] { poll(); });
}

void BotClient::stop() {
  if (stopping_) return;
  stopping_ = true;
  ready_ = false;
  for (auto& t : timers_->live) t->cancel();
  timers_->live.clear();
  if (link_) link_->close();
  link_.reset();
  if (on_stopped_) on_stopped_();
}

// ---------- connection ----------

void BotClient::connect() {
  if (stopping_) return;
  const uint64_t gen = ++gen_;
  WsLink::Handlers h;
  h.on_open = [this, gen] { on_open(gen); };
  h.on_frame = [this, gen](std::string f) { on_frame(gen, f); };
  h.on_closed = [this, gen](const std::string& why) { on_closed(gen, why); };
  link_ = WsLink::open(ioc_, opt_.server.host, opt_.server.port, opt_.server.target, std::move(h));
}

void BotClient::on_open(uint64_t gen) {
  if (gen != gen_ || stopping_) return;
  note("connected to " + opt_.server.host + ":" + std::to_string(opt_.server.port) + opt_.server.target);
  sign_in();
}

void BotClient::on_closed(uint64_t gen, const std::string& why) {
  if (gen != gen_ || stopping_) return;
  note("connection lost (" + why + ")" + (games_.empty() ? "" : ", " + std::to_string(games_.size()) + " games to resume"));
  ready_ = false;
  link_.reset();
  out_.clear();
  requests_.clear();
  create_pending_specs_.clear();
  accepting_.clear();
  cancelling_.clear();
  listing_seeks_ = false;
  reconnect_later();
}

void BotClient::reconnect_later() {
  backoff_ms_ = backoff_ms_ == 0 ? 250 : std::min<int64_t>(backoff_ms_ * 2, 10'000);
  const int64_t wait = backoff_ms_ + static_cast<int64_t>(rng_() % static_cast<uint64_t>(backoff_ms_ / 4 + 1));
  after(wait, [this] { connect(); });
}

void BotClient::sign_in() {
  v1::ClientMessage m;
  if (!token_.empty()) {
    m.mutable_hello()->set_token(token_);
    send(m, {Pending::Hello, "", ""});
  } else {
    m.mutable_login()->set_name(opt_.name);
    m.mutable_login()->set_password(opt_.password);
    send(m, {Pending::Login, "", ""});
  }
}

void BotClient::on_signed_in(const v1::Reply& r) {
  const bool first = user_id_.empty();
  token_ = r.token();
  user_id_ = r.user().user_id();
  name_ = r.user().name();
  ready_ = true;
  backoff_ms_ = 0;
  note(std::string(first ? "signed in as " : "signed in again as ") + name_ + " (" + user_id_ + ")");
  if (first && !opt_.user_id_file.empty()) {
    std::ofstream out(opt_.user_id_file, std::ios::trunc);
    out << user_id_ << "\n";
    if (!out) note("cannot write the user id to " + opt_.user_id_file);
  }
  // Resume: every game followed before catches up from the last version seen, and a move that was
  // sent but not seen played goes again under its client_move_id (played once whatever happened).
  for (auto& [gid, g] : games_) {
    v1::ClientMessage m;
    m.mutable_sync()->set_game_id(gid);
    m.mutable_sync()->set_last_version(g.version);
    send(m, {Pending::Sync, gid, ""});
    if (!g.pending_move_id.empty()) send_move(g);
  }
  // Games of the bot not followed yet (started while the answer was lost, or before this run).
  v1::ClientMessage lg;
  lg.mutable_list_games()->set_limit(500);
  send(lg, {Pending::ListGames, "", ""});
  list_seeks();
}

// ---------- sending, within the rate limit ----------

uint64_t BotClient::send(v1::ClientMessage m, Request req) {
  if (!link_) return 0;
  const uint64_t rid = next_request_id_++;
  m.set_request_id(rid);
  requests_[rid] = std::move(req);
  out_.push_back(m.SerializeAsString());
  pump_out();
  return rid;
}

void BotClient::pump_out() {
  const double rate = std::max(1, opt_.frames_per_s);
  const int64_t t = now_ms();
  tokens_ = std::min(2 * rate, tokens_ + static_cast<double>(t - tokens_at_ms_) * rate / 1000.0);
  tokens_at_ms_ = t;
  while (tokens_ >= 1 && !out_.empty() && link_) {
    link_->send(std::move(out_.front()));
    out_.pop_front();
    tokens_ -= 1;
  }
  if (!out_.empty() && !pump_armed_) {
    pump_armed_ = true;
    after(static_cast<int64_t>((1 - tokens_) * 1000.0 / rate) + 1, [this] {
      pump_armed_ = false;
      pump_out();
    });
  }
}

void BotClient::list_seeks() {
  // One at a time; an answer that never came (it always should) holds the next one 10 s at most.
  if (!ready_ || (listing_seeks_ && now_ms() - listing_since_ms_ < 10'000)) return;
  listing_seeks_ = true;
  listing_since_ms_ = now_ms();
  v1::ClientMessage m;
  m.mutable_list_seeks();
  send(m, {Pending::ListSeeks, "", ""});
}

void BotClient::game_action(const std::string& gid, const char* what) {
  ActionField f = action_field(what);
  if (!f || !ready_) return;
  v1::ClientMessage m;
  (m.*f)()->set_game_id(gid);
  send(m, {Pending::GameAction, gid, what});
}

// Full state again (watch_game answers with the player's view): after anything the bot cannot
// patch up from the events it has.
void BotClient::resync(const std::string& gid) {
  if (!ready_) return;
  v1::ClientMessage m;
  m.mutable_watch_game()->set_game_id(gid);
  send(m, {Pending::Sync, gid, ""});
}

// ---------- receiving ----------

void BotClient::on_frame(uint64_t gen, const std::string& frame) {
  if (gen != gen_ || stopping_) return;
  v1::ServerMessage m;
  if (!m.ParseFromString(frame)) {
    note("undecodable frame from the server, ignored");
    return;
  }
  Request req;
  bool have_req = false;
  if (m.request_id() != 0) {
    auto it = requests_.find(m.request_id());
    if (it != requests_.end()) {
      req = it->second;
      have_req = true;
      // A watch/sync is answered by its state or events first, then by the Reply that ends it.
      if (!m.has_game_state() && !(m.has_game_event() && req.kind == Pending::Sync)) requests_.erase(it);
    }
  }
  switch (m.body_case()) {
    case v1::ServerMessage::kReply:
      if (have_req) on_reply(req, m);
      break;
    case v1::ServerMessage::kError:
      if (have_req) on_error(req, m.error());
      else note(std::string("server error ") + code_name(m.error().code()) + ": " + m.error().message());
      break;
    case v1::ServerMessage::kSeeks:
      if (have_req && req.kind == Pending::ListSeeks) listing_seeks_ = false;
      on_seek_list(m.seeks(), have_req && req.kind == Pending::ListSeeks);
      break;
    case v1::ServerMessage::kGames:
      on_game_list(m.games());
      break;
    case v1::ServerMessage::kGameStarted:
      on_state(m.game_started(), true);
      break;
    case v1::ServerMessage::kGameState:
      on_state(m.game_state(), false);
      break;
    case v1::ServerMessage::kGameEvent:
      on_event(m.game_event());
      break;
    case v1::ServerMessage::kPresence:
      on_presence(m.presence());
      break;
    default:
      break;  // chat, notices, pongs: nothing for the bot to do
  }
}

void BotClient::on_reply(const Request& req, const v1::ServerMessage& m) {
  const v1::Reply& r = m.reply();
  switch (req.kind) {
    case Pending::Login:
    case Pending::Register:
    case Pending::Hello:
      if (req.kind == Pending::Register) note("registered the account " + r.user().name());
      on_signed_in(r);
      break;
    case Pending::CreateSeek:
      create_pending_specs_.erase(req.extra);
      note("seek " + r.seek_id() + " open: " + req.extra);
      break;
    case Pending::CancelSeek:
      cancelling_.erase(req.id);
      break;
    case Pending::AcceptSeek:
      accepting_.erase(req.id);
      break;
    case Pending::Move: {
      // A reply instead of the move's event: a resend (duplicate) or a connection that does not
      // follow the game. Either way the position is read again.
      auto it = games_.find(req.id);
      if (it == games_.end()) break;
      if (it->second.pending_move_id == req.extra) {
        it->second.pending_move_id.clear();
        it->second.pending_iccs.clear();
        it->second.pending_ply = 0;
      }
      resync(req.id);
      break;
    }
    default:
      break;
  }
}

void BotClient::on_error(const Request& req, const v1::Error& e) {
  const std::string what = std::string(code_name(e.code())) + (e.message().empty() ? "" : " (" + e.message() + ")");
  switch (req.kind) {
    case Pending::Hello:
      note("hello refused: " + what);
      token_.clear();
      if (e.code() == v1::BANNED) {
        exit_code_ = 2;
        return stop();
      }
      return sign_in();
    case Pending::Login:
      if (e.code() == v1::BAD_CREDENTIALS && !tried_register_) {  // no such account (or a wrong password)
        tried_register_ = true;
        v1::ClientMessage m;
        m.mutable_register_()->set_name(opt_.name);
        m.mutable_register_()->set_password(opt_.password);
        send(m, {Pending::Register, "", ""});
        return;
      }
      [[fallthrough]];
    case Pending::Register:
      note("cannot sign in as " + opt_.name + ": " + what);
      if (e.code() == v1::RATE_LIMITED || e.code() == v1::STORAGE_UNAVAILABLE || e.code() == v1::INTERNAL) {
        if (link_) link_->close();
        link_.reset();
        ready_ = false;
        requests_.clear();
        out_.clear();
        return reconnect_later();
      }
      // NAME_TAKEN after a refused login: the account exists with another password.
      exit_code_ = 2;
      return stop();
    case Pending::CreateSeek:
      create_pending_specs_.erase(req.extra);
      note("create_seek " + req.extra + " refused: " + what);
      return;
    case Pending::CancelSeek:
      cancelling_.erase(req.id);
      return;
    case Pending::AcceptSeek:
      accepting_.erase(req.id);
      note("challenge " + req.id + " could not be accepted: " + what);
      return;
    case Pending::ListSeeks:
      listing_seeks_ = false;
      return;
    case Pending::Move: {
      auto it = games_.find(req.id);
      if (it == games_.end()) return;
      GameTracker& g = it->second;
      if (g.pending_move_id != req.extra) return;
      if (e.code() == v1::STORAGE_UNAVAILABLE || e.code() == v1::NODE_NOT_ANSWERING || e.code() == v1::RATE_LIMITED) {
        // Not played (or, NODE_NOT_ANSWERING, perhaps played late): the same move again, under the
        // same id, in a moment; a move already played is answered as a duplicate.
        after(e.code() == v1::RATE_LIMITED ? 1000 : 500, [this, gid = req.id, id = req.extra] {
          auto it2 = games_.find(gid);
          if (it2 != games_.end() && it2->second.pending_move_id == id && ready_) send_move(it2->second);
        });
        return;
      }
      note("move " + g.pending_iccs + " in game " + g.id + " refused: " + what);
      g.pending_move_id.clear();
      g.pending_iccs.clear();
      g.pending_ply = 0;
      if (e.code() == v1::UNKNOWN_GAME || e.code() == v1::NOT_YOUR_GAME) {
        finished_.insert(g.id);
        games_.erase(it);
        return list_seeks();
      }
      if (e.code() != v1::GAME_OVER && e.code() != v1::POSITION_CHANGED && e.code() != v1::NOT_YOUR_TURN &&
          ++g.failed_moves >= 3) {
        note("game " + g.id + ": the engine's moves keep being refused, resigning");
        game_action(g.id, "resign");
        return;
      }
      return resync(g.id);
    }
    case Pending::Sync: {
      auto it = games_.find(req.id);
      if (it == games_.end()) return;
      if (e.code() == v1::STORAGE_UNAVAILABLE || e.code() == v1::NODE_NOT_ANSWERING) {  // between nodes, or its node stalls: ask again shortly
        after(1000, [this, gid = req.id] { resync(gid); });
        return;
      }
      note("game " + req.id + " cannot be resumed: " + what);
      game_line("game end " + req.id + " (" + what + ")");
      finished_.insert(req.id);
      games_.erase(it);
      return list_seeks();
    }
    default:
      note(std::string("request refused: ") + what);
      return;
  }
}

// ---------- the lobby ----------

int BotClient::live_games() const {
  int n = 0;
  for (const auto& [gid, g] : games_) n += g.over ? 0 : 1;
  return n;
}

void BotClient::on_seek_list(const v1::SeekList& list, bool own_answer) {
  if (!ready_) return;
  int active = live_games() + static_cast<int>(accepting_.size());
  // Challenges to the bot: accepted while there is room (any time control, casual or rated: the
  // server refuses a rated game a guest could not play), declined (cancel_seek) when full.
  std::set<std::string> listed;
  for (const v1::Seek& s : list.seeks()) {
    listed.insert(s.seek_id());
    if (s.target_user_id() != user_id_ || s.owner().user_id() == user_id_) continue;
    if (!handled_challenges_.insert(s.seek_id()).second) continue;
    v1::ClientMessage m;
    if (s.time_control().initial_ms() < opt_.min_initial_s * 1000) {
      note("declining the challenge " + s.seek_id() + " of " + s.owner().name() + ": less than " +
           std::to_string(opt_.min_initial_s) + " s on the clock");
      m.mutable_cancel_seek()->set_seek_id(s.seek_id());
      send(m, {Pending::CancelSeek, s.seek_id(), ""});
    } else if (active < opt_.max_games) {
      note("accepting the challenge " + s.seek_id() + " of " + s.owner().name());
      m.mutable_accept_seek()->set_seek_id(s.seek_id());
      accepting_.insert(s.seek_id());
      send(m, {Pending::AcceptSeek, s.seek_id(), ""});
      ++active;
    } else {
      note("declining the challenge " + s.seek_id() + " of " + s.owner().name() + ": " + std::to_string(active) +
           " games already");
      m.mutable_cancel_seek()->set_seek_id(s.seek_id());
      send(m, {Pending::CancelSeek, s.seek_id(), ""});
    }
  }
  if (!own_answer) return;  // a push may predate a create_seek just answered: own seeks only on answers
  for (auto it = handled_challenges_.begin(); it != handled_challenges_.end();)
    it = listed.count(*it) ? std::next(it) : handled_challenges_.erase(it);

  // The bot's own open seeks: one per spec while it plays fewer games than its limit, none at the
  // limit. (Two seeks taken at the same moment can take it past the limit by one game each.)
  const int room = active < opt_.max_games ? static_cast<int>(opt_.seeks.size()) : 0;
  int kept = 0;
  std::set<std::string> keep;
  for (const SeekSpec& spec : opt_.seeks) {
    bool have = false;
    for (const v1::Seek& s : list.seeks()) {
      if (s.owner().user_id() != user_id_ || !s.target_user_id().empty() || !same_spec(s, spec)) continue;
      if (cancelling_.count(s.seek_id()) || keep.count(s.seek_id())) continue;
      if (!have && kept < room) {
        have = true;
        keep.insert(s.seek_id());
        ++kept;
      }
    }
    const std::string key = describe(spec);
    if (!have && kept < room) {
      ++kept;
      if (create_pending_specs_.insert(key).second) {
        v1::ClientMessage m;
        auto* c = m.mutable_create_seek();
        c->set_variant(spec.variant);
        c->mutable_time_control()->set_initial_ms(spec.initial_ms);
        c->mutable_time_control()->set_increment_ms(spec.increment_ms);
        c->set_color(v1::SIDE_NONE);
        send(m, {Pending::CreateSeek, "", key});
      }
    }
  }
  // Seeks of the bot's specs beyond the room (or twice the same): cancelled.
  for (const v1::Seek& s : list.seeks()) {
    if (s.owner().user_id() != user_id_ || !s.target_user_id().empty() || keep.count(s.seek_id())) continue;
    bool ours = false;
    for (const SeekSpec& spec : opt_.seeks) ours = ours || same_spec(s, spec);
    if (!ours || !cancelling_.insert(s.seek_id()).second) continue;
    v1::ClientMessage m;
    m.mutable_cancel_seek()->set_seek_id(s.seek_id());
    send(m, {Pending::CancelSeek, s.seek_id(), ""});
  }
}

void BotClient::on_game_list(const v1::GameList& list) {
  for (const v1::GameSummary& s : list.games()) {
    if (s.red().user_id() != user_id_ && s.black().user_id() != user_id_) continue;
    if (games_.count(s.game_id()) || finished_.count(s.game_id())) continue;
    note("found the live game " + s.game_id() + ", following it");
    resync(s.game_id());
  }
}

// ---------- games ----------

void BotClient::on_state(const v1::GameState& s, bool started) {
  if (s.you() == v1::SIDE_NONE || finished_.count(s.game_id())) return;
  const auto now = SteadyClock::now();
  auto [it, is_new] = games_.try_emplace(s.game_id());
  GameTracker& g = it->second;
  g.apply_state(s, now);
  if (is_new) {
    game_line(std::string(started ? "game start " : "game resumed ") + g.id + " " + g.describe());
    if (started) list_seeks();  // the seek it took is gone: post another
  }
  if (g.over) return end_game(g);
  if (!g.opponent_present) arm_claim(g, opt_.claim_after_s * 1000);
  think(g);
}

void BotClient::on_event(const v1::GameEvent& e) {
  if (finished_.count(e.game_id())) return;
  auto it = games_.find(e.game_id());
  if (it == games_.end()) return resync(e.game_id());
  GameTracker& g = it->second;
  switch (g.apply_event(e, SteadyClock::now())) {
    case GameTracker::Change::Gap:
      if (ready_) {
        v1::ClientMessage m;
        m.mutable_sync()->set_game_id(g.id);
        m.mutable_sync()->set_last_version(g.version);
        send(m, {Pending::Sync, g.id, ""});
      }
      return;
    case GameTracker::Change::Position:
      return think(g);
    case GameTracker::Change::DrawOffered:
      // A draw is welcome when the bot's own last search saw it losing by 1.5 pawns or more.
      note("game " + g.id + ": draw offered, last score " + std::to_string(g.last_score));
      return game_action(g.id, g.last_score <= -150 ? "accept_draw" : "decline_draw");
    case GameTracker::Change::TakebackProposed:
      // Only casual games have takebacks; the bot grants them there (a practice partner).
      return game_action(g.id, g.takebacks_allowed ? "accept_takeback" : "decline_takeback");
    case GameTracker::Change::Ended:
      return end_game(g);
    case GameTracker::Change::None:
      return;
  }
}

void BotClient::on_presence(const v1::Presence& p) {
  auto it = games_.find(p.game_id());
  if (it == games_.end() || p.side() == v1::SIDE_NONE) return;
  GameTracker& g = it->second;
  if (p.side() != g.opponent_side()) return;
  g.opponent_present = p.present();
  if (!p.present()) arm_claim(g, std::max<int64_t>(p.claim_after_ms(), opt_.claim_after_s * 1000));
  else ++claim_epoch_[g.id];
}

void BotClient::arm_claim(GameTracker& g, int64_t after_ms) {
  if (opt_.claim_after_s <= 0) return;
  const uint64_t epoch = ++claim_epoch_[g.id];
  after(after_ms + 500, [this, gid = g.id, epoch] {
    auto it = games_.find(gid);
    if (it == games_.end() || claim_epoch_[gid] != epoch || it->second.opponent_present || it->second.over) return;
    note("game " + gid + ": the opponent is gone, claiming the game");
    game_action(gid, "claim_victory");
  });
}

void BotClient::end_game(GameTracker& g) {
  const v1::Outcome o = g.result.outcome();
  const bool won = (o == v1::RED_WINS && g.you == v1::RED) || (o == v1::BLACK_WINS && g.you == v1::BLACK);
  const bool lost = (o == v1::RED_WINS && g.you == v1::BLACK) || (o == v1::BLACK_WINS && g.you == v1::RED);
  game_line("game end " + g.id + " " + outcome_name(o) + " (" + g.result.reason() + "), " + name_ + " " +
            (won ? "won" : lost ? "lost" : o == v1::ABORTED ? "aborted" : "drew") + " after " + std::to_string(g.plies) +
            " plies vs " + g.opponent + (g.max_depth > 0 ? "; searched " + std::to_string(g.min_depth) + "-" +
                                                              std::to_string(g.max_depth) + " plies deep" : ""));
  const std::string gid = g.id;
  finished_.insert(gid);
  claim_epoch_.erase(gid);
  games_.erase(gid);
  list_seeks();
}

void BotClient::think(GameTracker& g) {
  if (!ready_ || g.over || g.searching || !g.pending_move_id.empty() || !g.my_turn()) return;
  g.searching = true;
  SearchJob job;
  job.game_id = g.id;
  job.plies = g.plies;
  job.fen = g.fen;
  job.variant = g.rules_variant();
  job.earlier_fens = g.earlier_fens;
  job.movetime_ms = movetime_for_ply(opt_.movetime_ms, g.plies);
  job.max_depth = opt_.max_depth;
  job.asked_at = SteadyClock::now();
  job.remaining_ms = g.my_remaining_ms(job.asked_at);
  job.increment_ms = g.increment_ms;
  job.seed = rng_();
  worker_->submit(std::move(job));
}

void BotClient::on_search_done(SearchResult r) {
  if (stopping_) return;
  auto it = games_.find(r.game_id);
  if (it == games_.end()) return;
  GameTracker& g = it->second;
  g.searching = false;
  if (r.plies != g.plies || r.fen != g.fen || !g.pending_move_id.empty() || !g.my_turn()) return think(g);  // stale
  if (!r.error.empty() || r.choice.move.empty()) {
    note("game " + g.id + ": no move from the engine" + (r.error.empty() ? "" : " (" + r.error + ")") + " in " + g.fen);
    return;
  }
  g.last_score = r.choice.score;
  if (r.choice.depth > 0) {  // (0: a move played without a search, e.g. the only legal one)
    g.min_depth = g.max_depth == 0 ? r.choice.depth : std::min(g.min_depth, r.choice.depth);
    g.max_depth = std::max(g.max_depth, r.choice.depth);
  }
  g.pending_move_id = move_id_prefix_ + "-" + std::to_string(++move_counter_);
  g.pending_iccs = r.choice.move;
  g.pending_ply = g.plies + 1;
  send_move(g);
}

void BotClient::send_move(GameTracker& g) {
  if (!ready_ || g.pending_move_id.empty()) return;
  v1::ClientMessage m;
  auto* mv = m.mutable_move();
  mv->set_game_id(g.id);
  mv->set_iccs(g.pending_iccs);
  mv->set_client_move_id(g.pending_move_id);
  mv->set_ply(g.pending_ply);
  mv->set_event_is_reply(true);
  send(m, {Pending::Move, g.id, g.pending_move_id});
}

}  // namespace xqbot
