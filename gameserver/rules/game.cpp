#include "game.h"

#include <algorithm>
#include <cctype>

#include "notation.h"

namespace xq {

std::string outcome_name(Outcome o) {
  switch (o) {
    case Outcome::RedWins: return "red-wins";
    case Outcome::BlackWins: return "black-wins";
    case Outcome::Draw: return "draw";
    default: return "ongoing";
  }
}

std::string visibility_name(CaptureVisibility v) {
  switch (v) {
    case CaptureVisibility::Nobody: return "nobody";
    case CaptureVisibility::Both: return "both";
    default: return "capturer";
  }
}

bool parse_visibility(const std::string& s, CaptureVisibility& out) {
  if (s == "capturer") out = CaptureVisibility::Capturer;
  else if (s == "nobody") out = CaptureVisibility::Nobody;
  else if (s == "both") out = CaptureVisibility::Both;
  else return false;
  return true;
}

GameRules GameRules::defaults(Variant v) {
  GameRules r;
  r.variant = v;
  if (v == Variant::Jieqi) {
    r.move_limit_plies = 80;
    r.counted_checks_per_side = -1;
  }
  return r;
}

RulesGame::RulesGame(GameRules rules, Position start)
    : rules_(rules), start_(start), pos_(start), irreversible_start_(start) {
  rules_.variant = start.variant();
  hashes_.push_back(pos_.hash());
  plies_since_capture_ = pos_.halfmove_clock;
  // A start position may already be over: judged as after a move, repetition aside.
  if (!pos_.has_legal_move())
    result_ = Result::win(opposite(pos_.side_to_move()), pos_.in_check() ? "checkmate" : "stalemate");
  else if (rules_.record_only)
    return;
  else if (rules_.move_limit_plies > 0 && plies_since_capture_ >= rules_.move_limit_plies)
    result_ = {Outcome::Draw, "move_limit"};
  else if (dead_material())
    result_ = {Outcome::Draw, "dead_material"};
}

std::string RulesGame::request_move_limit(std::optional<Color> requester, bool by_arbiter) {
  if (result_.over()) return "the game is over";
  if (rules_.requested_limit_plies <= 0) return "this game has no move limit on request";
  if (requested_limit_) {
    const auto& by = requested_limit_->requester;
    return "the move limit is already running (" +
           std::string(requested_limit_->by_arbiter ? "set by the arbiter"
                       : requester == by           ? "asked by you"
                                                   : "asked by your opponent") +
           ")";
  }
  requested_limit_ = RequestedLimit{requester, by_arbiter || !requester, 0, rules_.requested_limit_plies};
  return {};
}

std::vector<Move> RulesGame::legal_moves() const {
  MoveList list;
  pos_.generate_legal(list);
  return {list.begin(), list.end()};
}

bool RulesGame::can_mate(Color c) const {
  for (Square s = 0; s < kSquares; ++s) {
    Piece p = pos_.at(s);
    if (!p || color_of(p) != c || type_of(p) == King) continue;
    if (rules_.variant == Variant::Jieqi) return true;  // revealed advisors/elephants can attack
    PieceType t = type_of(p);
    if (t == Rook || t == Horse || t == Cannon || t == Pawn) return true;
  }
  return false;
}

bool RulesGame::may_judge(Move m) const {
  if (result_.over() || rules_.record_only || m.from >= kSquares || m.to >= kSquares) return false;
  const Piece moved = pos_.at(m.from);
  if (!moved || color_of(moved) != pos_.side_to_move()) return false;
  if (requested_limit_ && requested_limit_->requester && *requested_limit_->requester == pos_.side_to_move() &&
      rules_.requested_limit_forcing_cap > 0)
    return true;  // its label is made for every move of the requester
  // A capture or a reveal starts the record afresh: nothing can repeat across it.
  if (pos_.at(m.to) || is_dark(moved) || !pos_.is_pseudo_legal(m)) return false;
  Position after = pos_;
  after.make(m);
  const uint64_t h = after.hash();
  const auto seen = std::count(hashes_.begin(), hashes_.end(), h);
  if (seen == 0) return false;
  // The repetition is judged when this occurrence is the one that counts (adjudicate_after_move).
  const int occurrences = std::clamp(rules_.repetition_occurrences, GameRules::kMinRepetitions, GameRules::kMaxRepetitions);
  if (seen + 1 >= occurrences) return true;
  // Otherwise only the nine-round rule may label or judge, and only where its conditions before
  // any label hold (judge_nine_round_cycle): an earlier occurrence further back, or fewer than
  // nine rounds since the last capture, costs nothing (random shuffles in bare endgames repeat
  // often, and each such move went to the judge thread for no work).
  constexpr size_t kPlies = kNineRoundPlies;
  if (rules_.ruleset != Ruleset::Cxa || !rules_.adjudication.cxa_nine_round_cycles || nine_round_judged_ ||
      rules_.repetition_occurrences != 3 || labels_.size() + 1 < kPlies || hashes_.size() < kPlies)
    return false;
  return std::find(hashes_.end() - kPlies, hashes_.end(), h) != hashes_.end();
}

bool RulesGame::may_judge(const std::string& iccs) const {
  if (iccs.size() < 4) return false;
  const Square from = parse_square(iccs, 0), to = parse_square(iccs, 2);
  if (from == kNoSquare || to == kNoSquare) return false;
  return may_judge(Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to), NoType});
}

RulesGame::MoveError RulesGame::play(const std::string& iccs, std::string* message) {
  auto fail = [&](const std::string& why) {
    if (message) *message = why;
    return MoveError::BadFormat;
  };
  if (iccs.size() < 4 || iccs.size() > 6) return fail("move '" + iccs + "' is not in ICCS form like h2e2");
  // Xiangqi has no face-down pieces: nothing may follow the squares.
  if (iccs.size() > 4 && rules_.variant == Variant::Xiangqi) return fail("move '" + iccs + "' is not in ICCS form like h2e2");
  Square from = parse_square(iccs, 0), to = parse_square(iccs, 2);
  if (from == kNoSquare || to == kNoSquare) return fail("move '" + iccs + "' is not in ICCS form like h2e2");
  Move m{static_cast<uint8_t>(from), static_cast<uint8_t>(to), NoType};
  // Suffixes (Pikafish style, jieqi-rules.md §9.2): the identity a face-down mover reveals, then
  // the identity of a face-down piece it captures; a letter's case is its piece's colour.
  const Piece mover = pos_.at(from), target = pos_.at(to);
  size_t at = 4;
  // The next letter, naming a piece of `of`'s colour: "" or what is wrong with it.
  auto letter = [&](Piece of, PieceType& out) -> std::string {
    const char l = iccs[at++];
    out = piece_type_from_letter(l);
    if (out == NoType || out == King) return "a bad identity letter";
    const Color c = std::isupper(static_cast<unsigned char>(l)) ? Color::Red : Color::Black;
    return c == color_of(of) ? "" : "an identity letter whose case names the other colour";
  };
  if (iccs.size() > at && mover && is_dark(mover))
    if (std::string why = letter(mover, m.reveal); !why.empty()) return fail("move '" + iccs + "' has " + why);
  bool named_now = false;  // the captured piece's identity was set from this move's letter
  if (iccs.size() > at) {
    if (!target || !is_dark(target) || (mover && color_of(target) == color_of(mover)))
      return fail("move '" + iccs + "': a letter after the squares names a revealed or captured face-down piece, and there is none");
    PieceType captured = NoType;
    if (std::string why = letter(target, captured); !why.empty()) return fail("move '" + iccs + "' has " + why);
    // Where the identity is known (the server holds every secret) the letter is ignored, as the
    // reveal letter is: never compared with the secret. Comparing it, before the move was even
    // found legal, answered "not a N" to a player who named any face-down piece letter by letter.
    if (pos_.identity(to) == NoType) {
      // Named now: it can only be an identity not already bound elsewhere, and it stays bound.
      if (unbound(color_of(target), captured, to) <= 0)
        return fail("move '" + iccs + "': no face-down piece of that type is left to be captured");
      pos_.set_identity(to, captured);
      named_now = true;
    }
  }
  if (iccs.size() > at) return fail("move '" + iccs + "' has characters after its suffixes");
  MoveError e = play(m, message);
  if (e != MoveError::None) {
    if (named_now) pos_.set_identity(to, NoType);  // a refused move names nothing
    if (message) *message = "move '" + iccs + "': " + *message;
  }
  return e;
}

int RulesGame::unbound(Color c, PieceType t, Square except) const {
  int n = pos_.pool()[index(c)][t];
  for (Square s = 0; s < kSquares; ++s) {
    const Piece p = pos_.at(s);
    if (s != except && p && is_dark(p) && color_of(p) == c && pos_.identity(s) == t) --n;
  }
  for (const PlayedMove& pm : moves_)
    if (pm.captured && is_dark(pm.captured) && color_of(pm.captured) == c && pm.captured_identity == t) --n;
  return n;
}

RulesGame::MoveError RulesGame::play(Move m, std::string* message) {
  auto fail = [&](MoveError e, const std::string& why) {
    if (message) *message = why;
    return e;
  };
  if (result_.over()) return fail(MoveError::GameOver, "the game is over");
  if (m.from >= kSquares || m.to >= kSquares) return fail(MoveError::BadFormat, "square off the board");
  Piece moved = pos_.at(m.from);
  if (!moved) return fail(MoveError::Illegal, "no piece on " + square_name(m.from));
  if (color_of(moved) != pos_.side_to_move()) return fail(MoveError::Illegal, "the piece on " + square_name(m.from) + " is not the side to move's");
  if (!pos_.is_pseudo_legal(m)) return fail(MoveError::Illegal, "that piece cannot move there");
  if (!pos_.is_legal(m)) return fail(MoveError::Illegal, "it would leave the king in check or facing the other king");
  const Color mover = pos_.side_to_move();
  if (is_dark(moved)) {
    if (pos_.identity(m.from) != NoType) {
      m.reveal = pos_.identity(m.from);  // the server's secret decides; a client suffix is ignored
    } else {
      if (m.reveal == NoType) return fail(MoveError::BadFormat, "a face-down piece moves: its identity must be given, e.g. a3a4P");
      if (unbound(mover, m.reveal, m.from) <= 0) return fail(MoveError::Illegal, "no face-down piece of that type is left");
    }
  } else {
    m.reveal = NoType;
  }

  PlayedMove pm;
  pm.move = m;
  pm.mover = mover;
  pm.moved = moved;
  pm.captured = pos_.at(m.to);
  pm.captured_identity = pos_.identity(m.to);
  pm.chinese = to_chinese(pos_, m);
  pm.wxf = to_wxf(pos_, m);
  const bool was_in_check = pos_.in_check();
  // A kill or chase of the requester while the requested limit runs with a cap on them (labelled
  // from the position before the move, as the repetition rules label it).
  bool requester_forcing = false;
  if (requested_limit_ && requested_limit_->requester && mover == *requested_limit_->requester &&
      rules_.requested_limit_forcing_cap > 0) {
    ++judgements_;
    const MoveLabel l = label_move(pos_, m, rules_.ruleset, nullptr, rules_.adjudication);
    requester_forcing = !l.check && (l.kill || !l.chases.empty());
  }
  pos_.make(m);
  pm.gives_check = pos_.in_check();
  moves_.push_back(pm);

  // Natural move limit: per side, checks beyond the cap and the replies to them do not count.
  if (pm.captured) {
    plies_since_capture_ = 0;
    checks_since_capture_[0] = checks_since_capture_[1] = 0;
  } else {
    const int cap = rules_.counted_checks_per_side;
    bool excess_check = cap >= 0 && pm.gives_check && ++checks_since_capture_[index(mover)] > cap;
    bool answers_excess = cap >= 0 && was_in_check && checks_since_capture_[index(opposite(mover))] > cap;
    if (!excess_check && !answers_excess) ++plies_since_capture_;
  }
  pos_.halfmove_clock = plies_since_capture_;
  if (requested_limit_) {  // a round in which the requester checks does not count: the check nor the reply
    RequestedLimit& rl = *requested_limit_;
    const auto& requester = rl.requester;
    const bool requester_checks = requester && mover == *requester && pm.gives_check;
    const bool answers_requester = requester && mover != *requester && was_in_check;
    // Kills and chases beyond the cap count no more than checks do.
    const bool excess_forcing = requester_forcing && ++rl.forcing_moves > rules_.requested_limit_forcing_cap;
    const bool answers_excess = requester && mover != *requester && rl.reply_void;
    if (requester && mover == *requester) rl.reply_void = excess_forcing;
    if (!requester_checks && !answers_requester && !excess_forcing && !answers_excess) ++rl.counted_plies;
  }

  if (pm.captured || is_dark(moved)) {  // irreversible: no repetition can reach back past it
    irreversible_start_ = pos_;
    pool_as_both_players_know(irreversible_start_);
    irreversible_index_ = moves_.size();
    hashes_.assign(1, pos_.hash());
    labels_.clear();
    nine_round_judged_ = false;
  } else {
    hashes_.push_back(pos_.hash());
    labels_.emplace_back();
  }
  adjudicate_after_move();
  return MoveError::None;
}

// The labels' mate searches let a face-down piece that moves turn up as any identity of the pool
// (docs/adjudication.md), which is the spectators' one: under "both" visibility the two players have
// seen every captured face-down piece, so what they both know leaves those out.
void RulesGame::pool_as_both_players_know(Position& p) const {
  if (p.variant() != Variant::Jieqi || rules_.capture_visibility != CaptureVisibility::Both) return;
  for (const PlayedMove& pm : moves_) {
    if (!pm.captured || !is_dark(pm.captured) || pm.captured_identity == NoType) continue;
    uint8_t& n = p.pool()[index(color_of(pm.captured))][pm.captured_identity];
    if (n > 0) --n;
  }
}

std::vector<Move> RulesGame::moves_since_irreversible() const {
  std::vector<Move> since;
  since.reserve(moves_.size() - irreversible_index_);
  for (size_t i = irreversible_index_; i < moves_.size(); ++i) since.push_back(moves_[i].move);
  return since;
}

void RulesGame::judge(RepetitionVerdict verdict) {
  repetition_ = std::move(verdict);
  has_repetition_ = true;
  switch (repetition_.outcome) {
    case RepetitionVerdict::Outcome::RedLoses: result_ = {Outcome::BlackWins, repetition_.reason}; break;
    case RepetitionVerdict::Outcome::BlackLoses: result_ = {Outcome::RedWins, repetition_.reason}; break;
    default: result_ = {Outcome::Draw, repetition_.reason.empty() ? "repetition_draw" : repetition_.reason};
  }
}

const MoveLabel& RulesGame::label(size_t k, std::vector<Position>& before) {
  std::optional<MoveLabel>& l = labels_[k];
  if (l) return *l;
  if (before.empty()) {  // positions before each move since the irreversible one, built once per call
    before.reserve(labels_.size());
    before.push_back(irreversible_start_);
    for (size_t i = irreversible_index_; i + 1 < moves_.size(); ++i) {
      before.push_back(before.back());
      before.back().make(moves_[i].move);
    }
  }
  ++judgements_;
  l = label_move(before[k], moves_[irreversible_index_ + k].move, rules_.ruleset, k > 0 ? &before[k - 1] : nullptr,
                 rules_.adjudication);
  return *l;
}

namespace {

// Plays `m` and asks `holds()` of the position reached; a face-down mover whose identity the
// position does not know turns up as each identity its side's pool still holds, and `holds` must
// hold for every one (none known: it holds for none). Nobody chooses what a piece turns up as.
template <class Holds>
bool holds_whatever_it_turns_up_as(Position& p, Move m, Holds&& holds) {
  if (!is_dark(p.at(m.from)) || p.identity(m.from) != NoType) {
    const Undo undo = p.make(m);
    const bool ok = holds();
    p.unmake(m, undo);
    return ok;
  }
  const Color c = color_of(p.at(m.from));
  bool any = false;
  for (int t = Advisor; t <= Pawn; ++t) {
    if (p.pool()[index(c)][t] == 0) continue;
    any = true;
    Move shown = m;
    shown.reveal = static_cast<PieceType>(t);
    const Undo undo = p.make(shown);
    const bool ok = holds();
    p.unmake(shown, undo);
    if (!ok) return false;
  }
  return any;
}

// The side to move has a move after which the opponent has none (mate or stalemate: both win).
bool wins_in_one(Position& p) {
  MoveList moves;
  p.generate_legal(moves);
  for (Move m : moves)
    if (holds_whatever_it_turns_up_as(p, m, [&] { return !p.has_legal_move(); })) return true;
  return false;
}

}  // namespace

// Asked of the position as both players know it: in Jieqi without the face-down pieces' hidden
// identities (review, 2026-12-04: a mate only the a0 piece's hidden identity made spared the
// forcing side the nine-round rule, and the tool, which knew no identities, failed there).
bool RulesGame::wins_next_move(Color side) const {
  Position p = pos_;
  for (Square s = 0; s < kSquares; ++s)
    if (is_dark(p.at(s))) p.set_identity(s, NoType);
  if (p.side_to_move() == side) return wins_in_one(p);
  MoveList replies;
  p.generate_legal(replies);
  for (Move m : replies)
    if (!holds_whatever_it_turns_up_as(p, m, [&] { return wins_in_one(p); })) return false;
  return replies.size > 0;
}

bool RulesGame::judge_nine_round_cycle() {
  constexpr size_t kPlies = kNineRoundPlies;
  if (rules_.ruleset != Ruleset::Cxa || !rules_.adjudication.cxa_nine_round_cycles || nine_round_judged_) return false;
  // A club that asks for more occurrences before judging wants more rounds, not fewer.
  if (rules_.repetition_occurrences != 3) return false;
  const size_t n = labels_.size();
  if (n < kPlies) return false;
  // The position just reached stood before within the nine rounds: play is going round a cycle.
  const auto window = hashes_.end() - 1 - kPlies;
  if (std::find(window, hashes_.end() - 1, hashes_.back()) == hashes_.end() - 1) return false;
  // Which sides forced on each of their nine moves? Newest first: an idle move ends the question
  // for its side. A check needs no label; other moves do, made once and cached, so after the
  // first look at a window (up to 18 labels) a ply costs about one. (A budget of labels per ply
  // would bound that first look, but it would also judge a cycle plies late.)
  std::vector<Position> before;
  const bool checks_count = !rules_.adjudication.pawns_advisors_elephants_free;  // else a check may be free
  auto forcing = [&](size_t k) {
    if (checks_count && moves_[irreversible_index_ + k].gives_check) return true;
    const MoveLabel& l = label(k, before);
    return l.check || l.kill || !l.chases.empty();
  };
  bool forced[2] = {true, true};
  for (size_t k = n; k-- > n - kPlies;) {
    const int side = index(moves_[irreversible_index_ + k].mover);
    if (forced[side] && !forcing(k)) {
      forced[side] = false;
      if (!forced[1 - side]) return false;
    }
  }
  // Both sides forcing: the threefold repetition, soon reached, weighs them against each other.
  if (forced[0] == forced[1]) return false;
  // A side about to win is not going round: when the forcing side mates (or stalemates) on its
  // next move whatever the reply, the rule waits (review: rooks hunting a king went round once and
  // lost one move before mate). The threefold still judges a side that goes round again instead.
  const Color forcer = forced[index(Color::Red)] ? Color::Red : Color::Black;
  if (wins_next_move(forcer)) return false;
  const AdjudicationOptions& o = rules_.adjudication;
  if (o.cxa_count_pure_chase && !o.cxa_chase_needs_common_target) {
    // One side forbidden, the other not: the CXA verdict needs no more than the labels at hand
    // (judge_repetition would make all 18 again, a mate search or refutation each).
    const Color loser = forced[index(Color::Red)] ? Color::Red : Color::Black;
    RepetitionVerdict v;
    v.outcome = loser == Color::Red ? RepetitionVerdict::Outcome::RedLoses : RepetitionVerdict::Outcome::BlackLoses;
    bool all_check = true, chase = false;
    for (size_t k = n - kPlies; k < n; ++k) {
      v.labels.push_back(label(k, before));  // the other side's, for the record
      if (moves_[irreversible_index_ + k].mover != loser) continue;
      all_check = all_check && v.labels.back().check;
      chase = chase || (!v.labels.back().check && !v.labels.back().chases.empty());
    }
    v.reason = perpetual_reason(all_check, chase);
    judge(std::move(v));
    return true;
  }
  // Options that weigh the chases' targets: the full judgement, with piece identities.
  ++judgements_;
  RepetitionVerdict v = judge_repetition(irreversible_start_, moves_since_irreversible(), n - kPlies, rules_.ruleset,
                                         rules_.adjudication);
  if (v.outcome == RepetitionVerdict::Outcome::Draw) {
    nine_round_judged_ = true;  // the full judgement saw it otherwise; don't pay for it every ply
    return false;
  }
  judge(std::move(v));
  return true;
}

void RulesGame::adjudicate_after_move() {
  const Color mover = opposite(pos_.side_to_move());
  if (!pos_.has_legal_move()) {
    result_ = Result::win(mover, pos_.in_check() ? "checkmate" : "stalemate");
    return;
  }
  if (rules_.record_only) return;
  const uint64_t h = hashes_.back();
  const int occurrences =
      std::clamp(rules_.repetition_occurrences, GameRules::kMinRepetitions, GameRules::kMaxRepetitions);
  if (std::count(hashes_.begin(), hashes_.end(), h) >= occurrences) {
    size_t first = static_cast<size_t>(std::find(hashes_.begin(), hashes_.end(), h) - hashes_.begin());
    ++judgements_;
    judge(judge_repetition(irreversible_start_, moves_since_irreversible(), first, rules_.ruleset, rules_.adjudication));
    return;
  }
  if (judge_nine_round_cycle()) return;
  if (rules_.move_limit_plies > 0 && plies_since_capture_ >= rules_.move_limit_plies) {
    result_ = {Outcome::Draw, "move_limit"};
    return;
  }
  if (requested_limit_ && requested_limit_->counted_plies >= requested_limit_->limit_plies) {
    result_ = {Outcome::Draw, "requested_move_limit"};
    return;
  }
  if (dead_material()) result_ = {Outcome::Draw, "dead_material"};
}

// Neither side has a piece that can give mate: no rook, horse, cannon or soldier (in Jieqi any
// piece but the generals may turn out to be one, or reach the enemy palace).
bool RulesGame::dead_material() const {
  for (Square s = 0; s < kSquares; ++s) {
    Piece p = pos_.at(s);
    if (!p || type_of(p) == King) continue;
    PieceType t = type_of(p);
    if (rules_.variant == Variant::Jieqi || t == Rook || t == Horse || t == Cannon || t == Pawn) return false;
  }
  return true;
}

}  // namespace xq
