#include "game/game_session.h"

#include <algorithm>
#include <stdexcept>

#include "rules/jieqi.h"

namespace gs {

const char* status_name(Status s) {
  switch (s) {
    case Status::Ok: return "ok";
    case Status::Duplicate: return "duplicate";
    case Status::NotYourTurn: return "not_your_turn";
    case Status::Illegal: return "illegal_move";
    case Status::GameOver: return "game_over";
    case Status::OfferNotAllowed: return "offer_not_allowed";
    case Status::AbortNotAllowed: return "abort_not_allowed";
    case Status::LimitNotAllowed: return "move_limit_not_allowed";
    case Status::PositionChanged: return "position_changed";
    case Status::TakebackNotAllowed: return "takeback_not_allowed";
    case Status::GiveTimeNotAllowed: return "give_time_not_allowed";
  }
  return "?";
}

const char* status_text(Status s) {
  switch (s) {
    case Status::Ok: return "ok";
    case Status::Duplicate: return "already done";
    case Status::NotYourTurn: return "it is not your turn";
    case Status::Illegal: return "illegal move";
    case Status::GameOver: return "the game is over";
    case Status::OfferNotAllowed: return "no draw offer may be made or answered now";
    case Status::AbortNotAllowed: return "the game can no longer be aborted";
    case Status::LimitNotAllowed: return "the move limit cannot be asked for now";
    case Status::PositionChanged: return "the position changed before this move arrived (a takeback)";
    case Status::TakebackNotAllowed: return "no takeback now";
    case Status::GiveTimeNotAllowed: return "no time can be given in this game";
  }
  return "refused";
}

xq::GameRules GameConfig::rules() const {
  xq::GameRules r = xq::GameRules::defaults(variant);
  auto rs = xq::parse_ruleset(ruleset.empty() ? "cxa" : ruleset);
  if (!rs) throw std::invalid_argument("unknown ruleset: " + ruleset);
  r.ruleset = *rs;
  if (variant == xq::Variant::Jieqi &&
      !xq::parse_visibility(capture_visibility.empty() ? "capturer" : capture_visibility, r.capture_visibility))
    throw std::invalid_argument("unknown capture visibility: " + capture_visibility);
  if (std::string why = rule_options_error(options, variant); !why.empty()) throw std::invalid_argument(why);
  apply(options, r);
  return r;
}

static xq::Position start_position(const GameConfig& c) {
  if (c.variant == xq::Variant::Xiangqi) return xq::Position::xiangqi_start();
  if (c.assignment.empty()) throw std::invalid_argument("jieqi game without assignment");
  xq::Position p = xq::Position::jieqi_start();
  xq::apply_assignment(p, xq::Assignment::from_string(c.assignment));
  return p;
}

GameSession::GameSession(GameConfig config)
    : config_(std::move(config)), game_(config_.rules(), start_position(config_)), clock_(config_.tc) {}

void GameSession::start_clock(Millis now) {
  if (!over() && !clocks_wait_for_first_moves()) clock_.start(game_.position().side_to_move(), now);
}

int64_t GameSession::turn_started_wall_ms() const {
  for (auto it = events_.rbegin(); it != events_.rend(); ++it)
    if (it->kind == EventKind::Move || it->kind == EventKind::TakenBack) return it->at_ms;
  return config_.created_at_ms;
}

GameEvent& GameSession::push(EventKind kind, xq::Color side, std::vector<GameEvent>& out) {
  GameEvent e;
  e.version = events_.size() + 1;
  e.kind = kind;
  e.side = side;
  e.red_ms = clock_.stored(xq::Color::Red);
  e.black_ms = clock_.stored(xq::Color::Black);
  e.at_ms = wall_ms_;
  events_.push_back(e);
  out.push_back(e);
  return events_.back();
}

void GameSession::finish(xq::Result r, Millis now, std::vector<GameEvent>& out, std::optional<xq::Color> aborted_by) {
  game_.finish(std::move(r));  // keeps an earlier board result (mate, repetition…)
  clock_.stop(now);
  offer_by_.reset();
  GameEvent& e = push(EventKind::Ended, aborted_by.value_or(xq::Color::Red), out);
  e.outcome = game_.result().outcome;
  e.reason = game_.result().reason;
  e.aborted_by = aborted_by && e.reason == "abort";
  out.back() = e;
}

std::optional<uint64_t> GameSession::find_client_move(xq::Color side, const std::string& id) const {
  return client_moves_.find(events_, side, id);
}

void GameSession::apply_move_bookkeeping(xq::Color mover) {
  // An offer lapses when the side it was made to moves instead of answering.
  if (offer_by_ && *offer_by_ != mover) offer_by_.reset();
  may_offer_again_[xq::index(xq::opposite(mover))] = true;
  // A takeback proposal is about the position it was made in: any move makes it lapse.
  takeback_by_.reset();
  may_propose_again_[xq::index(xq::opposite(mover))] = true;
}

Status GameSession::move(xq::Color side, const std::string& iccs, const std::string& client_move_id, Millis now,
                         Millis reported_lag_ms, std::vector<GameEvent>& out, std::string* message,
                         size_t expected_ply) {
  if (find_client_move(side, client_move_id)) return Status::Duplicate;
  if (over()) return Status::GameOver;
  if (check_flag(now, out)) return Status::GameOver;
  if (expected_ply != 0 && expected_ply != plies() + 1) {
    if (message)
      *message = "this move was meant for ply " + std::to_string(expected_ply) + ", but the game is at ply " +
                 std::to_string(plies() + 1) +
                 (expected_ply > plies() + 1 && last_takeback_version_ != 0 ? " (a takeback came first)"
                                                                           : " (sync the game: it is not where you saw it)");
    return Status::PositionChanged;
  }
  if (game_.position().side_to_move() != side) return Status::NotYourTurn;
  if (!clock_.in_time(now, reported_lag_ms)) {  // arrived in the flag's grace, late all the same
    flag(now, out);
    return Status::GameOver;
  }
  // Jieqi: up to two letters after the squares. Only printable ASCII: the error quotes the move.
  const bool printable = std::all_of(iccs.begin(), iccs.end(), [](char ch) { return ch >= ' ' && ch < 0x7f; });
  if (iccs.size() < 4 || iccs.size() > 6 || !printable) {
    if (message) *message = "expected ICCS like h2e2";
    return Status::Illegal;
  }
  const bool free_move = clocks_wait_for_first_moves();
  auto err = game_.play(iccs, message);
  if (err == xq::RulesGame::MoveError::GameOver) return Status::GameOver;
  if (err != xq::RulesGame::MoveError::None) return Status::Illegal;

  if (free_move) {  // no time charged, the increment earned as by any move (a takeback takes it back)
    clock_.replay_compensation(side, 0);
    const Millis inc = config_.tc.increment_ms;
    clock_.set_remaining(clock_.stored(xq::Color::Red) + (side == xq::Color::Red ? inc : 0),
                         clock_.stored(xq::Color::Black) + (side == xq::Color::Black ? inc : 0));
    start_clock(now);  // Black's first move starts Red's clock
  } else {
    clock_.press(now, reported_lag_ms);
  }
  Millis credited = clock_.last_compensation();
  ply_clocks_.emplace_back(clock_.stored(xq::Color::Red), clock_.stored(xq::Color::Black));
  apply_move_bookkeeping(side);
  GameEvent& e = push(EventKind::Move, side, out);
  e.iccs = iccs.substr(0, 4);
  e.ply = plies();
  e.client_move_id = client_move_id;
  e.lag_ms = credited;
  out.back() = e;
  if (!client_move_id.empty()) client_moves_.add(events_, e.version);
  if (game_.result().over()) finish(game_.result(), now, out);
  return Status::Ok;
}

bool GameSession::can_offer(xq::Color side) const {
  int me = offers_[xq::index(side)], them = offers_[xq::index(xq::opposite(side))];
  // "Not more than twice as often as the opponent": with no offers from the opponent, two.
  return may_offer_again_[xq::index(side)] && me + 1 <= 2 * std::max(1, them) && offer_by_ != side;
}

Status GameSession::offer_draw(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  if (offer_by_ && *offer_by_ != side) return accept_draw(side, now, out);  // crossing offers agree
  if (!can_offer(side)) {
    const int me = offers_[xq::index(side)], them = offers_[xq::index(xq::opposite(side))];
    if (message)
      *message = offer_by_ == side                        ? "your draw offer still stands"
                 : !may_offer_again_[xq::index(side)] ? "you may offer a draw again once your opponent has moved"
                                                        : "no more than twice as many draw offers as your opponent (you " +
                                                              std::to_string(me) + ", your opponent " + std::to_string(them) + ")";
    return Status::OfferNotAllowed;
  }
  offers_[xq::index(side)]++;
  may_offer_again_[xq::index(side)] = false;
  offer_by_ = side;
  push(EventKind::DrawOffered, side, out);
  return Status::Ok;
}

Status GameSession::accept_draw(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  if (!offer_by_ || *offer_by_ == side) {
    if (message) *message = "there is no draw offer from your opponent to answer";
    return Status::OfferNotAllowed;
  }
  finish({xq::Outcome::Draw, "agreement"}, now, out);
  return Status::Ok;
}

Status GameSession::decline_draw(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  if (!offer_by_ || *offer_by_ == side) {
    if (message) *message = "there is no draw offer from your opponent to answer";
    return Status::OfferNotAllowed;
  }
  offer_by_.reset();
  push(EventKind::DrawDeclined, side, out);
  return Status::Ok;
}

Status GameSession::resign(xq::Color side, Millis now, std::vector<GameEvent>& out) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  finish(xq::Result::win(xq::opposite(side), "resignation"), now, out);
  return Status::Ok;
}

Status GameSession::abort(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  if (plies() >= 2 || config_.tournament()) {
    if (message)
      *message = config_.tournament() ? "tournament games cannot be aborted"
                                      : "a game can be aborted only until both sides have moved";
    return Status::AbortNotAllowed;
  }
  finish({xq::Outcome::Draw, "abort"}, now, out, side);
  return Status::Ok;
}

int GameSession::takeback_plies(xq::Color proposer, std::string* why) const {
  auto refuse = [&](const char* text) {
    if (why) *why = text;
    return 0;
  };
  if (config_.tournament()) return refuse("no takebacks in tournament games");
  if (config_.rated) return refuse("no takebacks in rated games");
  if (game_.requested_limit()) return refuse("no takebacks while the move limit on request runs");
  if (takebacks_[xq::index(proposer)] >= kMaxTakebacks) {
    if (why) *why = "no more than " + std::to_string(kMaxTakebacks) + " takebacks for a player in one game";
    return 0;
  }
  // The proposer's last move, and the opponent's reply to it when there is one.
  const int n = game_.position().side_to_move() == proposer ? 2 : 1;
  const auto& moves = game_.moves();
  if (moves.size() < static_cast<size_t>(n)) return refuse("you have no move to take back");
  for (size_t i = moves.size() - static_cast<size_t>(n); i < moves.size(); ++i)
    if (xq::is_dark(moves[i].moved) || xq::is_dark(moves[i].captured))
      return refuse("a Jieqi piece revealed or captured face down cannot be hidden again");
  return n;
}

void GameSession::take_back(int plies) {
  // Rebuilt from the start: rare, and the rules game keeps no undo history (repetition windows,
  // labels, Jieqi bindings) that could be got subtly wrong.
  xq::RulesGame rebuilt(config_.rules(), start_position(config_));
  const auto& moves = game_.moves();
  for (size_t i = 0; i + static_cast<size_t>(plies) < moves.size(); ++i)
    if (rebuilt.play(moves[i].move) != xq::RulesGame::MoveError::None)
      throw std::logic_error("takeback: a kept move does not replay");
  game_ = std::move(rebuilt);
  ply_clocks_.resize(game_.moves().size());
  // Their Move events stay in the log, but their client move ids may be used again.
  int left = plies;
  for (auto it = events_.rbegin(); it != events_.rend() && left > 0; ++it)
    if (it->kind == EventKind::Move && !it->taken_back) it->taken_back = true, --left;
  offer_by_.reset();
  takeback_by_.reset();
}

Status GameSession::propose_takeback(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  // A proposal is no takeback yet (a crossing one is, and accept_takeback asks again).
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  if (takeback_by_ && *takeback_by_ != side) return accept_takeback(side, now, out, message);  // crossing proposals agree
  std::string why;
  if (takeback_plies(side, &why) == 0) {
    if (message) *message = why;
    return Status::TakebackNotAllowed;
  }
  if (takeback_by_ == side || !may_propose_again_[xq::index(side)]) {
    if (message)
      *message = takeback_by_ == side ? "your takeback proposal still stands"
                                      : "you may ask again once your opponent has moved";
    return Status::TakebackNotAllowed;
  }
  takeback_by_ = side;
  push(EventKind::TakebackProposed, side, out);
  return Status::Ok;
}

Status GameSession::accept_takeback(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  if (over() || flag_before_action(now, out, std::nullopt)) return Status::GameOver;
  if (!takeback_by_ || *takeback_by_ == side) {
    if (message) *message = "there is no takeback proposal from your opponent to answer";
    return Status::TakebackNotAllowed;
  }
  std::string why;
  const int plies = takeback_plies(*takeback_by_, &why);
  if (plies == 0) {  // a move or a move limit ends a proposal first; said anyway
    if (message) *message = why;
    return Status::TakebackNotAllowed;
  }
  // Both clocks keep the time used, less the increments the moves taken back had earned (else
  // taking back and playing again would add time); the side to move runs from now.
  Millis left[2] = {clock_.remaining(xq::Color::Red, now), clock_.remaining(xq::Color::Black, now)};
  const auto& moves = game_.moves();
  for (size_t i = moves.size() - static_cast<size_t>(plies); i < moves.size(); ++i)
    left[xq::index(moves[i].mover)] -= config_.tc.increment_ms;
  const Millis red = std::max<Millis>(0, left[0]), black = std::max<Millis>(0, left[1]);  // (a lag credit)
  takebacks_[xq::index(*takeback_by_)]++;
  take_back(plies);
  clock_.stop(now);
  clock_.set_remaining(red, black);
  clock_.start(game_.position().side_to_move(), now);
  GameEvent& e = push(EventKind::TakenBack, side, out);
  e.undone = plies;
  out.back() = e;
  last_takeback_version_ = e.version;
  return Status::Ok;
}

Status GameSession::decline_takeback(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  if (!takeback_by_ || *takeback_by_ == side) {
    if (message) *message = "there is no takeback proposal from your opponent to answer";
    return Status::TakebackNotAllowed;
  }
  may_propose_again_[xq::index(*takeback_by_)] = false;
  takeback_by_.reset();
  push(EventKind::TakebackDeclined, side, out);
  return Status::Ok;
}

Status GameSession::give_time(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  if (time_gift_ms() == 0 || time_gifts_[xq::index(side)] >= kMaxTimeGifts) {
    if (message)
      *message = time_gift_ms() == 0 ? "no time can be given in tournament games"
                                     : "no more than " + std::to_string(kMaxTimeGifts) + " gifts of time in one game";
    return Status::GiveTimeNotAllowed;
  }
  const xq::Color to = xq::opposite(side);
  time_gifts_[xq::index(side)]++;
  clock_.set_remaining(clock_.stored(xq::Color::Red) + (to == xq::Color::Red ? time_gift_ms() : 0),
                       clock_.stored(xq::Color::Black) + (to == xq::Color::Black ? time_gift_ms() : 0));
  push(EventKind::TimeGiven, side, out);
  return Status::Ok;
}

Status GameSession::request_move_limit(xq::Color side, Millis now, std::vector<GameEvent>& out, std::string* message) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  if (std::string why = game_.request_move_limit(side); !why.empty()) {
    if (message) *message = why;
    return Status::LimitNotAllowed;
  }
  takeback_by_.reset();  // no takebacks while the limit runs: a standing proposal could not be accepted
  push(EventKind::MoveLimitRequested, side, out);
  return Status::Ok;
}

Status GameSession::impose_move_limit(Millis now, std::vector<GameEvent>& out, std::optional<xq::Color> on_side,
                                      std::string* message) {
  if (over() || check_flag(now, out)) return Status::GameOver;
  if (std::string why = game_.request_move_limit(on_side, true); !why.empty()) {
    if (message) *message = why;
    return Status::LimitNotAllowed;
  }
  takeback_by_.reset();
  GameEvent& e = push(EventKind::MoveLimitRequested, on_side.value_or(xq::Color::Red), out);
  e.by_arbiter = true;
  e.one_side = on_side.has_value();
  out.back() = e;
  return Status::Ok;
}

Status GameSession::end(xq::Result r, Millis now, std::vector<GameEvent>& out) {
  if (over()) return Status::GameOver;
  finish(std::move(r), now, out);
  return Status::Ok;
}

bool GameSession::flag_before_action(Millis now, std::vector<GameEvent>& out, std::optional<xq::Color> actor) {
  if (check_flag(now, out)) return true;
  if (over() || !clock_.running() || clock_.in_time(now, 0)) return false;
  if (actor && *actor != clock_.side_running()) return false;
  flag(now, out);
  return true;
}

Status GameSession::claim(xq::Color side, bool draw, Millis now, std::vector<GameEvent>& out) {
  if (over() || flag_before_action(now, out, side)) return Status::GameOver;
  finish(draw ? xq::Result{xq::Outcome::Draw, "claimed_draw"} : xq::Result::win(side, "forfeit"), now, out);
  return Status::Ok;
}

bool GameSession::check_flag(Millis now, std::vector<GameEvent>& out) {
  if (over() || !clock_.flagged(now)) return false;
  flag(now, out);
  return true;
}

void GameSession::flag(Millis now, std::vector<GameEvent>& out) {
  xq::Color loser = clock_.side_running();
  clock_.stop(now);
  clock_.set_remaining(loser == xq::Color::Red ? 0 : clock_.stored(xq::Color::Red),
                       loser == xq::Color::Black ? 0 : clock_.stored(xq::Color::Black));
  xq::Color winner = xq::opposite(loser);
  if (game_.can_mate(winner)) finish(xq::Result::win(winner, "timeout"), now, out);
  else finish({xq::Outcome::Draw, "timeout_draw"}, now, out);
}

std::optional<int64_t> GameSession::no_show_deadline_wall() const {
  if (over() || config_.no_show_ms <= 0 || plies() >= 2) return std::nullopt;
  return config_.created_at_ms + config_.no_show_ms + no_show_extra_ms_;
}

std::optional<int64_t> GameSession::first_move_abort_wall() const {
  // After a takeback the players have met: a side that does not move again has its clock to run.
  if (over() || config_.tournament() || config_.first_move_ms <= 0 || plies() >= 2 || last_takeback_version_ != 0)
    return std::nullopt;
  return turn_started_wall_ms() + config_.first_move_ms + no_show_extra_ms_;
}

void GameSession::credit_outage(Millis ms) {
  if (over() || ms <= 0) return;
  clock_.credit_running(ms);
  if (first_move_due_wall()) extend_no_show(ms);
}

bool GameSession::check_first_move(int64_t wall_now, bool black_seen, Millis now, std::vector<GameEvent>& out) {
  auto deadline = first_move_due_wall();
  if (!deadline || wall_now < *deadline) return false;
  if (!config_.tournament())
    finish({xq::Outcome::Draw, "abort"}, now, out, plies() == 0 ? xq::Color::Red : xq::Color::Black);
  else if (plies() == 0) finish(black_seen ? xq::Result::win(xq::Color::Black, "forfeit") : xq::Result{xq::Outcome::Draw, "double_forfeit"}, now, out);
  else finish(xq::Result::win(xq::Color::Red, "forfeit"), now, out);
  return true;
}

std::optional<Millis> GameSession::flag_deadline() const {
  if (over() || !clock_.running()) return std::nullopt;
  return clock_.flag_deadline();
}

void GameSession::replay(const GameEvent& e) {
  if (e.version != events_.size() + 1) throw std::runtime_error("event version gap");
  switch (e.kind) {
    case EventKind::Move: {
      if (game_.position().side_to_move() != e.side) throw std::runtime_error("replayed move out of turn");
      std::string msg;
      if (game_.play(e.iccs, &msg) != xq::RulesGame::MoveError::None)
        throw std::runtime_error("replayed move rejected: " + e.iccs + " " + msg);
      clock_.set_remaining(e.red_ms, e.black_ms);
      clock_.replay_compensation(e.side, e.lag_ms);
      ply_clocks_.emplace_back(e.red_ms, e.black_ms);
      apply_move_bookkeeping(e.side);
      break;
    }
    case EventKind::DrawOffered:
      offers_[xq::index(e.side)]++;
      may_offer_again_[xq::index(e.side)] = false;
      offer_by_ = e.side;
      break;
    case EventKind::DrawDeclined:
      offer_by_.reset();
      break;
    case EventKind::MoveLimitRequested:
      if (std::string why = game_.request_move_limit(e.by_arbiter && !e.one_side ? std::nullopt : std::optional(e.side), e.by_arbiter); !why.empty())
        throw std::runtime_error("replayed move limit request rejected: " + why);
      takeback_by_.reset();
      break;
    case EventKind::Ended:
      game_.finish({e.outcome, e.reason});
      clock_.set_remaining(e.red_ms, e.black_ms);
      offer_by_.reset();
      break;
    case EventKind::TakebackProposed:
      takeback_by_ = e.side;
      break;
    case EventKind::TakebackDeclined:
      may_propose_again_[xq::index(xq::opposite(e.side))] = false;
      takeback_by_.reset();
      break;
    case EventKind::TakenBack:
      if (e.undone < 1 || e.undone > 2 || static_cast<size_t>(e.undone) > plies())
        throw std::runtime_error("replayed takeback of " + std::to_string(e.undone) + " plies does not fit");
      takebacks_[xq::index(xq::opposite(e.side))]++;  // e.side accepted: the other side asked
      take_back(e.undone);
      clock_.set_remaining(e.red_ms, e.black_ms);
      last_takeback_version_ = e.version;
      break;
    case EventKind::TimeGiven:
      time_gifts_[xq::index(e.side)]++;
      clock_.set_remaining(e.red_ms, e.black_ms);
      break;
  }
  events_.push_back(e);
  if (e.kind == EventKind::Move) {
    events_.back().ply = plies();
    // Ids are unique per side (move() refuses a second use); the first use wins anyway.
    if (!e.client_move_id.empty() && !client_moves_.find(events_, e.side, e.client_move_id))
      client_moves_.add(events_, e.version);
  }
}

}  // namespace gs
