// Repetition adjudication: move labels (check / mate threat / chase) and cycle verdicts.
// Spec: shared/specs/xiangqi-rules.md §0, §2, §5; jieqi-rules.md §6. Design notes in adjudication.h.
#include "adjudication.h"

#include <algorithm>
#include <array>
#include <set>

namespace xq {

std::string ruleset_name(Ruleset r) {
  switch (r) {
    case Ruleset::Cxa: return "cxa";
    case Ruleset::Axf: return "axf";
    case Ruleset::Computer: return "computer";
  }
  return "cxa";
}

std::optional<Ruleset> parse_ruleset(std::string_view s) {
  if (s == "cxa") return Ruleset::Cxa;
  if (s == "axf") return Ruleset::Axf;
  if (s == "computer") return Ruleset::Computer;
  return std::nullopt;
}

namespace {

const char* chinese_type(PieceType t) {
  switch (t) {
    case King: return "将";
    case Advisor: return "士";
    case Elephant: return "象";
    case Horse: return "马";
    case Rook: return "车";
    case Cannon: return "炮";
    case Pawn: return "兵";
    default: return "?";
  }
}

// Material values for the exchange evaluation (§5: R > H = C > A = E; pawns float: an uncrossed
// pawn is worth less than any piece, a crossed pawn about an advisor/elephant).
constexpr int kKingValue = 1000;
int value_of(Piece p, Square s) {
  switch (type_of(p)) {
    case King: return kKingValue;
    case Rook: return 9;
    case Horse: return 4;
    case Cannon: return 4;
    case Advisor: return 2;
    case Elephant: return 2;
    case Pawn: return crossed_river(color_of(p), s) ? 2 : 1;
    default: return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// A scratch position for probes. All searches below change the board with make_probe and flip
// the side to move by hand; the hash of the scratch copy is not used.
struct Scratch {
  Position p;
  explicit Scratch(const Position& pos) : p(pos) {}
  Color side() const { return p.side_to_move(); }
  void set_side(Color c) { p.set_side_to_move(c); }
  Piece play(Move m) {
    Piece c = p.make_probe(m);
    p.set_side_to_move(opposite(p.side_to_move()));
    return c;
  }
  void undo(Move m, Piece captured) {
    p.set_side_to_move(opposite(p.side_to_move()));
    p.unmake_probe(m, captured);
  }
};

Move mv(Square from, Square to) { return Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to), NoType}; }

// Legal captures onto `target` by the side to move.
void legal_captures_onto(const Position& p, Square target, std::vector<Move>& out) {
  out.clear();
  Piece victim = p.at(target);
  if (!victim || color_of(victim) == p.side_to_move()) return;
  std::vector<Square> from;
  p.attackers(target, p.side_to_move(), from);
  for (Square s : from) {
    Move m = mv(s, target);
    if (p.is_legal(m)) out.push_back(m);
  }
}

// Static exchange evaluation of capture `m` (legal, by the side to move): the material the mover
// gains when both sides continue capturing on the square only while it pays (legal moves only,
// so pinned pieces neither recapture nor protect).
int see(Scratch& s, Move m, int depth = 0) {
  int gain = value_of(s.p.at(m.to), m.to);
  if (type_of(s.p.at(m.to)) == King) return gain;
  Piece moved = s.p.at(m.from);
  int moved_value = value_of(moved, m.to);
  Piece cap = s.play(m);
  int best = 0;
  if (depth < 32) {
    std::vector<Move> replies;
    legal_captures_onto(s.p, m.to, replies);
    for (Move r : replies) {
      if (best >= moved_value) break;  // cannot do better than taking the piece for free
      best = std::max(best, see(s, r, depth + 1));
    }
  }
  s.undo(m, cap);
  return gain - best;
}

// A threat against one enemy piece (the side to move of the probe position is the attacker).
struct Threat {
  int gain = 0;  // > 0: the attacker wins material on this square
  Square attacker = kNoSquare;
  bool unrooted = false, joint = false, under_protected = false;
};

// Evaluates the capture threats of the side to move against every enemy piece. `hit_back_cxa`:
// a piece that can capture its attacker back is chased only when the attacker gains more than the
// victim would by hitting back (CXA; a rooted chariot attacking an unrooted one chases it); else
// (AXF/computer) same-type attacks the victim can answer by capturing are exchange offers.
// Attacks by the king and by pawns are never chases (they may chase freely).
void direct_threats(Scratch& s, Ruleset rs, std::array<Threat, kSquares>& out) {
  const Color us = s.side(), them = opposite(us);
  std::vector<Move> caps, recaps;
  for (Square t = 0; t < kSquares; ++t) {
    out[t] = Threat{};
    Piece victim = s.p.at(t);
    if (!victim || color_of(victim) != them || type_of(victim) == King) continue;
    if (type_of(victim) == Pawn && !crossed_river(them, t)) continue;  // uncrossed pawns are no targets
    legal_captures_onto(s.p, t, caps);
    int n_attackers = static_cast<int>(caps.size());
    Threat best;
    int best_single = -1000000;
    bool any_rooted = false;
    int n_defenders = 0;
    for (Move c : caps) {
      Piece a = s.p.at(c.from);
      // Is the victim rooted against this capture?
      Piece cap = s.play(c);
      legal_captures_onto(s.p, t, recaps);
      s.undo(c, cap);
      bool rooted = !recaps.empty();
      if (rooted) any_rooted = true;
      n_defenders = std::max(n_defenders, static_cast<int>(recaps.size()));
      if (type_of(a) == King || type_of(a) == Pawn) continue;
      int g = see(s, c);
      if (g <= 0) continue;
      // Can the victim hit back at the attacker?
      s.set_side(them);
      bool hit_back = s.p.attacks(t, c.from) && s.p.is_legal(mv(t, c.from));
      int theirs = hit_back ? see(s, mv(t, c.from)) : 0;
      s.set_side(us);
      if (hit_back) {
        if (rs == Ruleset::Cxa) {
          if (g <= theirs) continue;
        } else if (type_of(a) == type_of(victim)) {
          continue;
        }
      }
      int single = value_of(victim, t) - (rooted ? value_of(a, t) : 0);
      best_single = std::max(best_single, single);
      if (g > best.gain) {
        best.gain = g;
        best.attacker = c.from;
      }
    }
    if (best.gain <= 0) continue;
    best.unrooted = !any_rooted;
    best.joint = !best.unrooted && best_single <= 0;
    best.under_protected = !best.unrooted && n_attackers > n_defenders && best.joint;
    out[t] = best;
  }
}

// Check-then-capture threats (抽将得子, CXA): the side to move gives check and, whatever the
// reply, wins material by a capture afterwards. Adds the best such target to `out` when it beats
// the direct threat there.
void check_capture_threats(Scratch& s, Ruleset rs, std::array<Threat, kSquares>& out) {
  const Color us = s.side(), them = opposite(us);
  MoveList ours;
  s.p.generate_legal(ours);
  std::array<Threat, kSquares> after{};
  for (Move c : ours) {
    Piece cap_c = s.play(c);
    if (!s.p.in_check(them)) {
      s.undo(c, cap_c);
      continue;
    }
    int v_c = cap_c ? value_of(cap_c, c.to) : 0;
    MoveList replies;
    s.p.generate_legal(replies);
    int worst = 1000000;
    Square worst_target = kNoSquare;
    for (Move r : replies) {
      Piece cap_r = s.play(r);
      int v = v_c - (cap_r ? value_of(cap_r, r.to) : 0);
      direct_threats(s, rs, after);
      int best = 0;
      Square bt = kNoSquare;
      for (Square t = 0; t < kSquares; ++t)
        if (after[t].gain > best) best = after[t].gain, bt = t;
      s.undo(r, cap_r);
      // The target must be a piece that stood there before the check (follow a moving target).
      Square target = bt;
      if (bt != kNoSquare && bt == r.to) target = r.from;
      v += best;
      if (v < worst) worst = v, worst_target = (best > 0 ? target : kNoSquare);
      if (worst <= 0) break;
    }
    s.undo(c, cap_c);
    if (replies.size == 0) continue;  // that is mate, not a chase
    if (worst > 0 && worst_target != kNoSquare && s.p.at(worst_target) &&
        color_of(s.p.at(worst_target)) == them && type_of(s.p.at(worst_target)) != King &&
        worst > out[worst_target].gain) {
      Threat t;
      t.gain = worst;
      t.attacker = c.from;
      out[worst_target] = t;
    }
  }
}

void all_threats(Scratch& s, Ruleset rs, std::array<Threat, kSquares>& out) {
  direct_threats(s, rs, out);
  if (rs == Ruleset::Cxa) check_capture_threats(s, rs, out);
}

// Can the side to move force mate (or stalemate, which also loses) within `plies` plies (odd)?
bool forced_mate(Scratch& s, int plies) {
  const Color us = s.side(), them = opposite(us);
  MoveList ours;
  s.p.generate_legal(ours);
  for (Move m : ours) {
    Piece cap = s.play(m);
    bool check = s.p.in_check(them);
    bool mated = false;
    if (check || plies > 1) {
      if (!s.p.has_legal_move()) {
        mated = check;  // only a mate counts as the threat (a stalemate is not 杀)
      } else if (plies >= 3) {
        MoveList replies;
        s.p.generate_legal(replies);
        mated = true;
        for (Move r : replies) {
          Piece cr = s.play(r);
          bool ok = forced_mate(s, plies - 2);
          s.undo(r, cr);
          if (!ok) {
            mated = false;
            break;
          }
        }
      }
    }
    s.undo(m, cap);
    if (mated) return true;
  }
  return false;
}

// The mate threat of `us` in `pos` as if it were `us` to move (the opponent passes).
bool mate_threat(const Position& pos, Color us, int plies) {
  if (plies <= 0) return false;
  if (pos.in_check(opposite(us))) return false;  // not a threat but a check
  Scratch s(pos);
  s.set_side(us);
  if (s.p.in_check(us)) return false;
  return forced_mate(s, plies | 1);
}

void threats_for(const Position& pos, Color us, Ruleset rs, std::array<Threat, kSquares>& out) {
  Scratch s(pos);
  s.set_side(us);
  all_threats(s, rs, out);
}

// Infers the move that led from `prev` to `pos` (one piece moved, possibly capturing).
bool infer_move(const Position& prev, const Position& pos, Move& out) {
  Square from = kNoSquare, to = kNoSquare;
  for (Square s = 0; s < kSquares; ++s) {
    if (prev.at(s) == pos.at(s)) continue;
    if (!pos.at(s)) from = s;
    else to = s;
  }
  if (from == kNoSquare || to == kNoSquare) return false;
  out = mv(from, to);
  return true;
}

}  // namespace

// Full labeller with identities. `ids` maps squares of `before` to piece ids (nullptr = square).
// `previous`/`prev_move`: the position before the opponent's last move and that move.
MoveLabel label_move_ids(const Position& before, Move m, Ruleset rs, const Position* previous,
                         const Move* prev_move, const int* ids, const AdjudicationOptions& options) {
  MoveLabel label;
  const Color us = before.side_to_move(), them = opposite(us);
  Position after = before;
  Scratch sa(before);
  sa.play(m);
  after = sa.p;
  label.check = after.in_check(them);
  const bool evasion = before.in_check(us);
  const bool king_move = type_of(before.at(m.from)) == King;
  if (rs == Ruleset::Cxa && evasion && king_move) return label;  // 26.1.3: always idle

  // Threats after the move.
  std::array<Threat, kSquares> now{}, base{};
  threats_for(after, us, rs, now);
  // Baseline: threats before the move (or, for a check evasion under CXA, before the check).
  const bool use_previous = rs == Ruleset::Cxa && evasion && previous && prev_move;
  if (use_previous) {
    threats_for(*previous, us, rs, base);
    // Map squares of `previous` to squares of `before`.
    std::array<Threat, kSquares> mapped{};
    for (Square s = 0; s < kSquares; ++s) {
      Square d = s == prev_move->from ? prev_move->to : s;
      if (s == prev_move->to) continue;  // captured there
      mapped[d] = base[s];
    }
    base = mapped;
  } else {
    threats_for(before, us, rs, base);
  }
  for (Square t = 0; t < kSquares; ++t) {
    if (now[t].gain <= 0) continue;
    Square t_before = t;  // enemy pieces do not move with our move
    if (base[t_before].gain >= now[t].gain) continue;  // not new
    ChaseTarget c;
    c.piece_id = ids ? ids[t_before] : t_before;
    c.square = t;
    c.type = type_of(after.at(t));
    c.unrooted = now[t].unrooted;
    c.joint = now[t].joint;
    c.under_protected = now[t].under_protected;
    label.chases.push_back(c);
  }
  if (rs == Ruleset::Cxa && !label.check) {
    if (mate_threat(after, us, options.kill_search_plies)) {
      bool existed = use_previous && mate_threat(*previous, us, options.kill_search_plies);
      label.kill = !existed;
    }
  }
  return label;
}

MoveLabel label_move(const Position& before, Move m, Ruleset ruleset, const Position* previous,
                     const AdjudicationOptions& options) {
  Move pm;
  bool have = previous && infer_move(*previous, before, pm);
  return label_move_ids(before, m, ruleset, have ? previous : nullptr, have ? &pm : nullptr, nullptr, options);
}

std::string MoveLabel::describe() const {
  if (check) return "将";
  if (kill) return "杀";
  if (chases.empty()) return "闲";
  std::string s = "捉(";
  for (size_t i = 0; i < chases.size(); ++i) {
    if (i) s += ",";
    s += chinese_type(chases[i].type);
  }
  return s + ")";
}

namespace {

struct SideSummary {
  int moves = 0;
  bool all_check = true;
  bool all_forcing = true;  // check / kill / chase
  bool any_check = false;
  bool any_kill = false;
  bool pure_chase_only = true;  // every move is a chase that is neither check nor kill
  bool any_pure_chase = false;
  bool mild = false;
  std::optional<std::set<int>> chase_common;      // ⋂ targets of all moves (chase_same)
  std::optional<std::set<int>> chase_common_axf;  // same, check moves with targets included
  std::optional<std::set<int>> pure_chase_common; // ⋂ targets of chase-only moves (CXA)
  bool chase_same = true, chase_same_axf = true;
};

void intersect(std::optional<std::set<int>>& acc, const std::vector<ChaseTarget>& t) {
  std::set<int> ids;
  for (const auto& c : t) ids.insert(c.piece_id);
  if (!acc) {
    acc = ids;
    return;
  }
  std::set<int> out;
  for (int i : *acc)
    if (ids.count(i)) out.insert(i);
  acc = out;
}

}  // namespace

RepetitionVerdict judge_repetition(const Position& start, const std::vector<Move>& moves, size_t window_begin,
                                   Ruleset ruleset, const AdjudicationOptions& options) {
  RepetitionVerdict v;
  Position pos = start;
  std::array<int, kSquares> ids{};
  for (Square s = 0; s < kSquares; ++s) ids[s] = s;
  Position prev;
  Move prev_move{};
  bool have_prev = false;
  SideSummary side[2];
  for (size_t i = 0; i < moves.size(); ++i) {
    Move m = moves[i];
    Color mover = pos.side_to_move();
    if (i >= window_begin) {
      MoveLabel l = label_move_ids(pos, m, ruleset, have_prev ? &prev : nullptr, have_prev ? &prev_move : nullptr,
                                   ids.data(), options);
      SideSummary& ss = side[index(mover)];
      ++ss.moves;
      bool chase = !l.chases.empty();
      if (!l.check) ss.all_check = false;
      if (!(l.check || l.kill || chase)) ss.all_forcing = false;
      if (l.check) ss.any_check = true;
      if (l.kill) ss.any_kill = true;
      // computer / CXA chase_same: every move a chase (a checking move does not chase here)
      if (!chase || l.check) ss.chase_same = false;
      else intersect(ss.chase_common, l.chases);
      if (!chase) ss.chase_same_axf = false;
      else intersect(ss.chase_common_axf, l.chases);
      bool pure_chase = chase && !l.check && !l.kill;
      if (!pure_chase) ss.pure_chase_only = false;
      if (pure_chase) {
        ss.any_pure_chase = true;
        intersect(ss.pure_chase_common, l.chases);
        bool move_mild = true;
        for (const auto& c : l.chases)
          if (!(c.joint || c.under_protected)) move_mild = false;
        if (move_mild) ss.mild = true;
      }
      v.labels.push_back(std::move(l));
    }
    prev = pos;
    prev_move = m;
    have_prev = true;
    // Identities follow the moved piece.
    ids[m.to] = ids[m.from];
    ids[m.from] = -1;
    pos.make(m);
  }
  auto chase_same = [&](const SideSummary& s, bool axf) {
    if (s.moves == 0) return false;
    if (axf) return s.chase_same_axf && s.chase_common_axf && !s.chase_common_axf->empty();
    return s.chase_same && s.chase_common && !s.chase_common->empty();
  };
  auto lose = [&](Color c, const SideSummary& s, bool chase_reason) {
    v.outcome = c == Color::Red ? RepetitionVerdict::Outcome::RedLoses : RepetitionVerdict::Outcome::BlackLoses;
    if (s.all_check) v.reason = "perpetual_check";
    else if (chase_reason) v.reason = "perpetual_chase";
    else v.reason = "perpetual_mate_threat";
  };
  const SideSummary& red = side[0];
  const SideSummary& black = side[1];
  bool red_check = red.moves > 0 && red.all_check, black_check = black.moves > 0 && black.all_check;
  if (red_check != black_check) {
    lose(red_check ? Color::Red : Color::Black, red_check ? red : black, false);
    return v;
  }
  if (red_check && black_check) return v;
  if (ruleset == Ruleset::Computer || ruleset == Ruleset::Axf) {
    bool axf = ruleset == Ruleset::Axf;
    if (!axf && (red.any_check || black.any_check)) return v;
    bool rc = chase_same(red, axf), bc = chase_same(black, axf);
    if (rc != bc) lose(rc ? Color::Red : Color::Black, rc ? red : black, true);
    return v;
  }
  // CXA
  auto forbidden = [&](const SideSummary& s) {
    if (s.moves == 0 || !s.all_forcing) return false;
    if (s.pure_chase_only && !options.cxa_count_pure_chase) return false;
    if (s.any_pure_chase) {
      int n = 0;
      (void)n;
      // Chasing different pieces in turn is allowed: the chase-only moves must share a target.
      if (!s.pure_chase_common || s.pure_chase_common->empty()) return false;
    }
    return true;
  };
  bool rf = forbidden(red), bf = forbidden(black);
  if (rf != bf) {
    const SideSummary& s = rf ? red : black;
    lose(rf ? Color::Red : Color::Black, s, s.any_pure_chase);
    return v;
  }
  if (rf && bf && red.mild != black.mild) {
    // Severe v mild: the severe side must change.
    bool red_severe = !red.mild;
    const SideSummary& s = red_severe ? red : black;
    lose(red_severe ? Color::Red : Color::Black, s, s.any_pure_chase);
  }
  return v;
}

}  // namespace xq
