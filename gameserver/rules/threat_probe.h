// The scratch board and the exchange evaluation shared by the move labeller's searches (threat
// scan, refutations, mate search): material values, SEE, whether a victim can hit back, the
// outcomes of a face-down piece's move, and the board's mirror and colour transforms. Internal to
// the rules library (move_labels.cpp, threat_scan.cpp, forcing_lines.cpp); small and hot, so inline.
#pragma once
#include <algorithm>
#include <array>
#include <bitset>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "position.h"

namespace xq::detail {

// A developer's trace of the threat search on stderr (docs/adjudication.md, "Tracing"): set
// ADJ_TRACE=1 when running `xq judge`. Read once; off in the server unless its environment sets it.
inline bool trace() {
  static const bool on = [] {
    const char* v = std::getenv("ADJ_TRACE");
    return v && *v && std::string_view(v) != "0";
  }();
  return on;
}

// Material values for the exchange evaluation (§5: R > H = C > A = E; pawns float: an uncrossed
// pawn is worth less than any piece, a crossed pawn about an advisor/elephant).
constexpr int kKingValue = 1000;
inline int value_of(Piece p, Square s) {
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

// A scratch position for probes. The labeller's searches change the board with make_probe and flip
// the side to move by hand; the hash of the scratch copy is not used.
struct Scratch {
  Position p;
  bool minor_pieces_free = false;  // AdjudicationOptions::pawns_advisors_elephants_free
  // A face-down piece whose identity a search assumes (each_outcome turns it up as `known_type`
  // only; that identity is already out of the pool for the other face-down pieces).
  Square known_square = kNoSquare;
  PieceType known_type = NoType;
  explicit Scratch(const Position& pos) : p(pos) {}
  // Pieces whose captures make no chase: the general and pawns, and under the Jieqi option also
  // advisors and elephants (a face-down piece by the type it moves as).
  bool chases_freely(PieceType t) const {
    return t == King || t == Pawn || (minor_pieces_free && (t == Advisor || t == Elephant));
  }
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

inline Move mv(Square from, Square to) { return Move{static_cast<uint8_t>(from), static_cast<uint8_t>(to), NoType}; }

// Legal captures onto `target` by the side to move.
inline void legal_captures_onto(const Position& p, Square target, std::vector<Move>& out) {
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

// What a piece that has just moved to `to` is worth as the next victim there. A face-down piece
// turns face up where it lands as one of the identities left in its colour's pool (nobody chooses
// which), so for `side`, whose sure gain is being measured, it is the worst case: its own piece
// the most valuable identity left (what it may lose), the opponent's the least (what it may win).
// As a target standing still, a face-down piece is worth its square's type (value_of: jieqi-rules.md
// §6, as Pikafish). Without a pool, or in Xiangqi, the piece's own value.
inline int moved_value(const Position& p, Piece pc, Square to, Color side) {
  if (!is_dark(pc) || p.variant() != Variant::Jieqi) return value_of(pc, to);
  const Color c = color_of(pc);
  int worst = -1;
  for (int t = Advisor; t <= Pawn; ++t) {
    if (p.pool()[index(c)][t] == 0) continue;
    const int v = value_of(make_piece(c, static_cast<PieceType>(t)), to);
    if (worst < 0 || (c == side ? v > worst : v < worst)) worst = v;
  }
  return worst < 0 ? value_of(pc, to) : worst;
}

// Static exchange evaluation of capture `m` (legal, by the side to move): the material the mover
// gains when both sides continue capturing on the square only while it pays (legal moves only,
// so pinned pieces neither recapture nor protect). Face-down capturers are valued for `side` as
// moved_value says; `victim` (>= 0): the value of what stands on m.to, when it moved there.
inline int see_for(Scratch& s, Move m, Color side, int depth = 0, int victim = -1) {
  int gain = victim >= 0 ? victim : value_of(s.p.at(m.to), m.to);
  if (type_of(s.p.at(m.to)) == King) return gain;
  Piece moved = s.p.at(m.from);
  int moved_value_here = moved_value(s.p, moved, m.to, side);
  Piece cap = s.play(m);
  int best = 0;
  if (depth < 32) {
    std::vector<Move> replies;
    legal_captures_onto(s.p, m.to, replies);
    for (Move r : replies) {
      if (best >= moved_value_here) break;  // cannot do better than taking the piece for free
      best = std::max(best, see_for(s, r, side, depth + 1, moved_value_here));
    }
  }
  s.undo(m, cap);
  return gain - best;
}

// The exchange evaluation of `m` for the side that makes it.
inline int see(Scratch& s, Move m) { return see_for(s, m, s.side()); }

// Is the piece on t pinned to its own king (would its king be attacked with t emptied)?
inline bool pinned(Scratch& s, Square t) {
  Piece p = s.p.at(t);
  s.p.put(t, kEmpty);
  bool r = s.p.in_check(color_of(p));
  s.p.put(t, p);
  return r;
}

// Can the (enemy) piece on t capture the attacker on a, legally and without losing material by
// it? The side to move of `s` is the attacker's side and is restored. A piece pinned to its king
// can only take the piece that pins it, along the pin, and that answers the attack only when it
// wins material outright: in 图17 (C16) the c7 chariot, pinned by the b7 chariot, could take it
// and be taken back by the b9 chariot, and the book calls b7's attack 捉; a chariot that would
// take an unguarded pinner for nothing is not chased by it (xiangqi-rules.md §0.6, "unless the
// victim cannot hit back"). A king in check already (the move that attacks also checks) says
// nothing about a pin: then the capture's legality decides alone (taking a checking rook with the
// chariot it attacks is an exchange).
inline bool victim_hits_back(Scratch& s, Square t, Square a) {
  const Color us = s.side(), them = opposite(us);
  if (!s.p.attacks(t, a)) return false;
  const bool held = !s.p.in_check(them) && pinned(s, t);
  s.set_side(them);
  // Judged for the attacker (`us`): the victim hits back whenever it may, whatever turns up.
  bool ok = s.p.is_legal(mv(t, a)) && (held ? see_for(s, mv(t, a), us) > 0 : see_for(s, mv(t, a), us) >= 0);
  s.set_side(us);
  return ok;
}

// The material the side to move wins by capture `c` when the opponent then answers with its best
// capture anywhere on the board (a recapture or a counter-capture of a hanging piece), each
// judged by exchange evaluation; the opponent may also decline.
inline int net_gain(Scratch& s, Move c) {
  const Color us = s.side();
  int gain = value_of(s.p.at(c.to), c.to);
  const int capturer = moved_value(s.p, s.p.at(c.from), c.to, us);
  Piece cap = s.play(c);
  MoveList replies;
  s.p.generate_legal(replies);
  int best = 0;
  for (Move r : replies) {
    if (!s.p.at(r.to)) continue;
    best = std::max(best, see_for(s, r, us, 0, r.to == c.to ? capturer : -1));  // the opponent's best, at our worst
  }
  s.undo(c, cap);
  return gain - best;
}

// Squares of pieces; the candidates of a threat whose victim the opponent chooses.
using SquareSet = std::bitset<kSquares>;

// A threat against one enemy piece (the side to move of the probe position is the attacker).
struct Threat {
  int gain = 0;  // > 0: the attacker wins material on this square
  Square attacker = kNoSquare;
  std::array<int8_t, 8> winners{};  // squares of all first capturers that win material
  int n_winners = 0;
  bool unrooted = false, joint = false, under_protected = false;
  bool via_check = false;  // won by a check first (抽将得子)
  bool attacked = false;   // some legal capture of the target exists (even a losing one)
  // A combination (check series, exchange) wins `gain` from whichever of these pieces the
  // opponent chooses to lose, the recorded target among them; empty for a direct threat.
  SquareSet alternatives;
};

// All squares whose threat is the largest (> 0) in `threats`; returns that gain (0: none).
inline int best_targets(const std::array<Threat, kSquares>& threats, SquareSet& targets) {
  int best = 0;
  targets.reset();
  for (Square t = 0; t < kSquares; ++t) {
    if (threats[t].gain > best) best = threats[t].gain, targets.reset();
    if (threats[t].gain == best && best > 0) targets.set(t);
  }
  return best;
}

// The candidates in the position before the opponent's reply `r`: a piece that moved is
// followed back to where it stood.
inline SquareSet before_reply(SquareSet targets, Move r) {
  if (targets.test(r.to)) targets.reset(r.to).set(r.from);
  return targets;
}

// Plays `m` and calls `visit()` on each position it may reach, until `visit` returns false. A
// face-down piece turns face up where it lands (jieqi-rules.md §2.4) as any identity still in the
// public pool of its colour, which nobody chooses, so a search asks about each of them: a mate
// "threat" that needs the a9 piece to turn up a chariot, when the pool says it is a pawn, is none
// (black-box review, 2026-12-03). Without a pool (a position set up without one) the piece goes on
// as its square's type.
template <class Visit>
void each_outcome(Scratch& s, Move m, Visit&& visit) {
  const Piece mover = s.p.at(m.from);
  const Piece captured = s.play(m);
  bool revealed = false;
  if (is_dark(mover) && m.from == s.known_square) {
    revealed = true;
    s.p.put(m.to, make_piece(color_of(mover), s.known_type));
    s.known_square = kNoSquare;
    visit();
    s.known_square = m.from;
    s.p.put(m.to, mover);
  } else if (is_dark(mover) && s.p.variant() == Variant::Jieqi) {
    const Color c = color_of(mover);
    bool more = true;
    for (int t = Advisor; t <= Pawn && more; ++t) {
      uint8_t& left = s.p.pool()[index(c)][t];
      if (left == 0) continue;
      revealed = true;
      --left;
      s.p.put(m.to, make_piece(c, static_cast<PieceType>(t)));
      more = visit();
      s.p.put(m.to, mover);
      ++left;
    }
  }
  if (!revealed) visit();
  s.undo(m, captured);
}

// Does `holds()` hold after `m` whatever a face-down mover turns up as? No line may count on what a
// piece turns up as after the line has begun: neither side knows it when it chooses its move.
template <class Holds>
bool holds_after(Scratch& s, Move m, Holds&& holds) {
  bool ok = true;
  each_outcome(s, m, [&] { return ok = holds(); });
  return ok;
}

// Does `holds()` hold after `m` for some identity a face-down mover may turn up as? For what the
// opponent sees before it answers: a capture by a face-down piece is unsafe if any identity it may
// show can be refuted (review, 2026-12-03: a capture that lets the opponent mate unless the piece
// turns up a horse is no threat).
template <class Holds>
bool holds_for_some(Scratch& s, Move m, Holds&& holds) {
  bool ok = false;
  each_outcome(s, m, [&] { return !(ok = holds()); });
  return ok;
}

// Does `m` (legal, by the side to move) give check whatever a face-down mover turns up as? Where a
// search needs a check, a face-down piece that checks only as some of the identities left (or only
// as its square's type) gives none for sure, and one that checks as each of them does, whatever
// its square's type (review, 2026-12-03: with a chariot the only identity left, the h7 piece's
// h7f7 checks, though a cannon's would not).
inline bool gives_sure_check(Scratch& s, Move m) {
  const Color them = opposite(s.side());
  return holds_after(s, m, [&] { return s.p.in_check(them); });
}


// The position mirrored left-right and/or turned 180° with the colours (and the side to move)
// swapped; face-down pieces stay face-down on the matching start squares.
inline Square transformed(Square q, bool mirror, bool colours) {
  int f = file_of(q), r = rank_of(q);
  if (mirror != colours) f = 8 - f;  // a 180° turn mirrors the files too
  if (colours) r = 9 - r;
  return make_square(f, r);
}

inline Position transformed(const Position& p, bool mirror, bool colours) {
  Position t = p;
  for (Square q = 0; q < kSquares; ++q) t.put(q, kEmpty);
  for (Square q = 0; q < kSquares; ++q) {
    Piece pc = p.at(q);
    if (!pc) continue;
    if (colours) pc = static_cast<Piece>(pc ^ kBlackBit);
    t.put(transformed(q, mirror, colours), pc);
  }
  t.set_side_to_move(colours ? opposite(p.side_to_move()) : p.side_to_move());
  if (colours) std::swap(t.pool()[0], t.pool()[1]);
  return t;
}

inline Move transformed(Move m, bool mirror, bool colours) {
  return mv(transformed(m.from, mirror, colours), transformed(m.to, mirror, colours));
}


}  // namespace xq::detail
