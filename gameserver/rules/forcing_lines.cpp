// Forcing lines for the move labeller: the refutation search of a capture, and the mate searches.
// Spec: shared/specs/xiangqi-rules.md §2 (图18: a capture that walks into a forcing line is no
// threat). Declared in forcing_lines.h.
#include "forcing_lines.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <optional>
#include <vector>

#include "move_labels_detail.h"

namespace xq::detail {

// A capture that lets the opponent force mate at once (by checks, within a few plies) gains
// nothing: the target is effectively protected by the mate threat.
constexpr int kRefutingMatePlies = 5;

// The refutation and recovery searches ask about the same captures over and over (every node of
// theirs judges the threats anew), and this mate search is the dearest part of a judgement; its
// answer depends on the board, the side to move and the variant only, so recent answers are kept.
bool capture_allows_mate(Scratch& s, Move c) {
  thread_local BoardMemo memo;
  // Unsafe if the opponent mates for some identity a face-down capturer shows; the mate itself must
  // come whatever the mating side's own face-down pieces turn up as.
  return holds_for_some(s, c, [&] {
    std::optional<bool> known = memo.find(s.p);
    const bool mate = known ? *known : forced_mate(s, kRefutingMatePlies, true);
    if (!known) memo.store(s.p, mate);
    return mate;
  });
}

namespace {

// Refutation search (CXA): does a capture really win material, or can the opponent answer it
// with a forcing line that wins back more than it took (or mates)? An arbiter calls a capture that
// walks into such a line unsafe, so attacking that piece is idle, not a chase (图18: `Rxe7` is
// met by `Kd9`, pinning the d2 advisor with `Rxd2` mate in the air, and every defence costs the
// chariot). The opponent's moves must be forcing: checks and captures, and as its first answer
// also a quiet mate threat (a move after which it would mate in one if we passed); we may answer
// each with any legal move, and the opponent may stop whenever it is ahead. Bounded by
// kRefuteMoves moves of the opponent (its check evasions count too, so our checks can run its
// line out: the search errs towards "not refuted") and kRefuteNodes nodes; a search that runs out
// of nodes proves nothing, so the capture keeps counting.
constexpr int kRefuteMoves = 3;
constexpr int kRefuteNodes = 6000;

using Candidates = std::array<std::pair<int, Move>, 256>;

struct Refuter {
  Scratch& s;
  Color refuter;  // the side answering the capture
  int nodes = 0;
  bool exhausted = false;
  // The first move's candidates, by position: refute_once searches the same two roots (after the
  // capture, after a pass) for several thresholds, and their candidates cost a mate-in-one test
  // per quiet move. Told apart by the whole board and side (Position::operator==): the probes that
  // play the capture do not keep the position's hash, so both roots may have the same one.
  struct Root {
    Position at;
    int n;
    Candidates cand;
  };
  std::vector<Root> roots;
};

// Does the side to move have a check after which the opponent has no legal move?
bool mates_in_one(Scratch& s) {
  const Color them = opposite(s.side());
  MoveList ours;
  s.p.generate_legal(ours);
  for (Move m : ours)
    if (holds_after(s, m, [&] { return s.p.in_check(them) && !s.p.has_legal_move(); })) return true;
  return false;
}

bool defender_fails(Refuter& f, int need, int moves_left);

// The refuting side is to move and needs `need` more material (<= 0: it is already even).
bool refuter_wins(Refuter& f, int need, int moves_left, bool first) {
  Scratch& s = f.s;
  const Color them = opposite(f.refuter);
  const bool in_check = s.p.in_check(f.refuter);
  if (need <= 0 && !in_check) return true;  // stop: what the capture won is back
  if (moves_left == 0 || f.exhausted) return false;
  if (++f.nodes > kRefuteNodes) {
    f.exhausted = true;
    return false;
  }
  const Refuter::Root* root = nullptr;
  if (first)
    for (const auto& r : f.roots)
      if (r.at == s.p) root = &r;
  Candidates cand;
  int n = 0;
  if (root) cand = root->cand, n = root->n;
  MoveList list;
  if (!root) s.p.generate_legal(list);
  // Forcing candidates, most promising first: captures by value, checks, then mate threats.
  const Square their_king = s.p.king_square(them);
  for (Move m : list) {
    Piece victim = s.p.at(m.to);
    int order = victim ? 100 + value_of(victim, m.to) : 0;
    if (!victim && !first && their_king != kNoSquare && !is_dark(s.p.at(m.from)) &&
        !may_check(s.p, m, their_king)) {
      if (in_check) cand[n++] = {1, m};  // an evasion that cannot check: no need to play it
      continue;
    }
    if (!victim) {
      const bool dark = is_dark(s.p.at(m.from));
      const bool sure_check = dark && gives_sure_check(s, m);
      Piece cap = s.play(m);
      if (dark ? sure_check : s.p.in_check(them)) {
        order = 50;
      } else if (in_check) {
        order = 1;  // an evasion: forced, not forcing
      } else if (first) {
        s.set_side(f.refuter);  // the opponent passes: could we mate at once?
        if (mates_in_one(s)) order = 10;
        s.set_side(them);
      }
      s.undo(m, cap);
      if (order == 0) continue;
    }
    cand[n++] = {order, m};
  }
  if (!root) {
    std::stable_sort(cand.begin(), cand.begin() + n, [](const auto& a, const auto& b) { return a.first > b.first; });
    if (first) f.roots.push_back({s.p, n, cand});
  }
  for (int i = 0; i < n && !f.exhausted; ++i) {
    Move m = cand[i].second;
    int gained = s.p.at(m.to) ? value_of(s.p.at(m.to), m.to) : 0;
    if (holds_after(s, m, [&] { return !s.p.has_legal_move() || defender_fails(f, need - gained, moves_left - 1); }))
      return true;
  }
  return false;
}

// The capturing side is to move (and has a legal move): does every answer still lose enough?
bool defender_fails(Refuter& f, int need, int moves_left) {
  Scratch& s = f.s;
  if (++f.nodes > kRefuteNodes) {
    f.exhausted = true;
    return false;
  }
  MoveList list;
  s.p.generate_legal(list);
  // Captures first (most valuable victim): they are the likeliest escapes and end the search early.
  std::stable_sort(list.moves, list.moves + list.size, [&](Move a, Move b) {
    return (s.p.at(a.to) ? value_of(s.p.at(a.to), a.to) : 0) > (s.p.at(b.to) ? value_of(s.p.at(b.to), b.to) : 0);
  });
  for (Move m : list) {
    int lost = s.p.at(m.to) ? value_of(s.p.at(m.to), m.to) : 0;
    const bool still = holds_after(s, m, [&] { return refuter_wins(f, need + lost, moves_left, false); });
    if (!still || f.exhausted) return false;
  }
  return true;
}

// Is the capture `c` (legal, by the side to move) refuted by a forcing line of the opponent? Only
// what the capture itself allows counts: a line the opponent has anyway (if we passed instead) is
// its own threat, not a reason the capture fails (图9: a discovered check that wins material with
// or without `Nxb0` does not make the knight's attack on the cannon idle). So the opponent must
// win back more than the capture took, on top of what it wins after a pass.
struct Refutation {
  bool refuted = false;
  bool exhausted = false;  // the node budget ran out: `refuted` proves nothing
};

// The identities a capture by `c` may show: each one left in the pool for a face-down capturer
// (the opponent answers knowing which), else NoType alone.
struct Shown {
  std::array<PieceType, 8> types{};
  int n = 0;
};

Shown identities_shown(const Scratch& s, Move c) {
  Shown shown;
  const Piece mover = s.p.at(c.from);
  if (is_dark(mover) && s.p.variant() == Variant::Jieqi)
    for (int t = Advisor; t <= Pawn; ++t)
      if (s.p.pool()[index(color_of(mover))][t] > 0) shown.types[shown.n++] = static_cast<PieceType>(t);
  if (shown.n == 0) shown.types[shown.n++] = NoType;
  return shown;
}

// While it lives, the face-down piece on `at` is taken to be `type` (NoType: nothing assumed).
class AssumedIdentity {
 public:
  AssumedIdentity(Scratch& s, Square at, PieceType type) : s_(s), type_(type) {
    if (type_ == NoType) return;
    s_.known_square = at, s_.known_type = type_;
    --s_.p.pool()[index(color_of(s_.p.at(at)))][type_];
    color_ = color_of(s_.p.at(at));
  }
  ~AssumedIdentity() {
    if (type_ == NoType) return;
    ++s_.p.pool()[index(color_)][type_];
    s_.known_square = kNoSquare, s_.known_type = NoType;
  }
  AssumedIdentity(const AssumedIdentity&) = delete;
  AssumedIdentity& operator=(const AssumedIdentity&) = delete;

 private:
  Scratch& s_;
  PieceType type_;
  Color color_ = Color::Red;
};

Refutation refute_once(Scratch& s, Move c) {
  const Color us = s.side();
  const int won = value_of(s.p.at(c.to), c.to);
  Refuter f{s, opposite(us), 0, false, {}};
  bool refuted = false;
  int anyway = 0;
  // A face-down capturer shows what it is before the opponent answers, so the capture is refuted
  // if it is for some identity it may show. What the opponent would win anyway (after a pass) is
  // measured knowing the same identity: unknown, the piece could escape a line as its luckiest
  // identity in the pass but not after the capture, and a loss that comes anyway would read as
  // one the capture allows (review, 2026-12-03).
  const Shown shown = identities_shown(s, c);
  for (int i = 0; i < shown.n && !refuted && !f.exhausted; ++i) {
    AssumedIdentity assumed(s, c.from, shown.types[i]);
    auto after_capture = [&](int need) {
      return holds_after(s, c, [&] { return s.p.has_legal_move() && refuter_wins(f, need, kRefuteMoves, true); });
    };
    if (!after_capture(won + 1)) continue;
    // What the opponent wins anyway: the largest threshold it reaches after a pass (none while we
    // are in check: then there is nothing to compare with). If it wins (nearly) everything anyway,
    // e.g. it mates, the capture is not what loses.
    anyway = 0;
    s.set_side(opposite(us));
    if (!s.p.in_check(us))
      while (anyway <= won + 20 && refuter_wins(f, anyway + 1, kRefuteMoves, true)) ++anyway;
    s.set_side(us);
    refuted = anyway == 0 || (anyway <= won + 20 && after_capture(anyway + won + 1));
  }
  if (trace()) std::cerr << "      refute " << to_iccs(c) << " " << refuted << " anyway " << anyway << " nodes " << f.nodes << (f.exhausted ? " (budget)" : "") << "\n";
  return {refuted && !f.exhausted, f.exhausted};
}

}  // namespace

bool capture_refuted_uncached(Scratch& s, Move c) {
  Refutation r = refute_once(s, c);
  if (!r.exhausted) return r.refuted;
  // The budget ran out. Where it runs out depends on the order the moves are tried in, which
  // follows where the pieces stand, so the mirror image or the colour swap of the same position
  // may finish. A finished search is exact in any orientation: the first that finishes decides,
  // and a position and its transforms, trying the same four, are judged alike.
  for (auto [mirror, colours] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
    Scratch t(transformed(s.p, mirror, colours));
    Refutation rt = refute_once(t, transformed(c, mirror, colours));
    if (trace()) std::cerr << "      refute again " << (mirror ? "mirrored " : "") << (colours ? "colours swapped " : "") << rt.refuted << (rt.exhausted ? " (budget)" : "") << "\n";
    if (!rt.exhausted) return rt.refuted;
  }
  return false;
}

// The labeller asks about the same capture in the same position many times: both loops of a
// window, the positions before and after a move, and (CXA's nine-round rule) the labels of the
// same plies asked for again at every later ply. The answer depends on the whole board, the side
// to move, the variant and the capture only, so it is kept per thread across calls.
bool capture_refuted(Scratch& s, Move c) {
  thread_local BoardMemo memo;
  const uint16_t tag = static_cast<uint16_t>(c.from << 8 | c.to);
  if (std::optional<bool> known = memo.find(s.p, tag)) return *known;
  const bool refuted = capture_refuted_uncached(s, c);
  memo.store(s.p, refuted, tag);
  return refuted;
}

bool forced_mate(Scratch& s, int plies, bool checks_only, long* nodes_left) {
  const Color them = opposite(s.side());
  const Square their_king = s.p.king_square(them);
  MoveList ours;
  s.p.generate_legal(ours);
  for (Move m : ours) {
    if (nodes_left && (*nodes_left)-- <= 0) return false;
    // Where only checks count, a move that cannot check is not tried (as if it had been).
    if ((checks_only || plies == 1) && their_king != kNoSquare && !is_dark(s.p.at(m.from)) &&
        !may_check(s.p, m, their_king))
      continue;
    const bool mated = holds_after(s, m, [&] {
      if (!s.p.in_check(them) && (plies <= 1 || checks_only)) return false;
      MoveList replies;
      s.p.generate_legal(replies);
      // No reply: mate. A stalemate also wins, but a threat of one is no mate threat (杀 is a
      // threat to mate by check or a series of checks; audit, 2026-12-04).
      if (replies.size == 0) return s.p.in_check(them);
      if (plies < 3) return false;
      for (Move r : replies)
        if (!holds_after(s, r, [&] { return forced_mate(s, plies - 2, checks_only, nodes_left); })) return false;
      return true;
    });
    if (mated) return true;
  }
  return false;
}

// The mate threat of `us` in `pos` as if it were `us` to move (the opponent passes): a forced mate
// within options.kill_search_plies plies, or by uninterrupted checks within kill_check_plies, or
// within kill_check_long_plies if kill_check_long_nodes moves tried suffice to find it (deepening
// two plies at a time, so the short series are found first).
bool mate_threat(const Position& pos, Color us, const AdjudicationOptions& o) {
  if (pos.in_check(opposite(us))) return false;  // not a threat but a check
  Scratch s(pos);
  s.set_side(us);
  if (s.p.in_check(us)) return false;
  if (o.kill_search_plies > 0 && forced_mate(s, o.kill_search_plies | 1, false)) return true;
  const int full = o.kill_check_plies > 0 ? o.kill_check_plies | 1 : 0;
  if (full > 0 && forced_mate(s, full, true)) return true;
  // The long series, within the budget: true or false when the search finished, nullopt when the
  // budget ran out first.
  // A Jieqi line through a face-down piece's move is searched once for each identity it may turn
  // up as (holds_after): the same budget would cut short mates it proves (review, 2026-12-03: a
  // 13-ply mate found with 100,000 moves tried, lost with 20,000).
  const long budget = o.kill_check_long_nodes * (pos.variant() == Variant::Jieqi ? 5 : 1);
  auto long_series = [&](Scratch& t) -> std::optional<bool> {
    long nodes_left = budget;
    for (int plies = std::max(full + 2, 3); plies <= o.kill_check_long_plies && nodes_left > 0; plies += 2)
      if (forced_mate(t, plies, true, &nodes_left)) return true;
    if (nodes_left <= 0) return std::nullopt;
    return false;
  };
  if (std::optional<bool> found = long_series(s)) return *found;
  // Cut short: where the budget runs out follows where the pieces stand, so the mirror image or the
  // colour swap may finish (as for capture_refuted): the first that finishes decides, and a
  // position and its transforms are judged alike (review: 4 of 2,000 random loops were not).
  for (auto [mirror, colours] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
    Scratch t(transformed(s.p, mirror, colours));
    if (std::optional<bool> found = long_series(t)) return *found;
  }
  return false;
}


}  // namespace xq::detail

namespace xq {

bool has_forced_mate(const Position& pos, int plies, bool checks_only) {
  detail::Scratch s(pos);
  return plies > 0 && detail::forced_mate(s, plies | 1, checks_only);
}

bool capture_is_refuted(const Position& pos, Move m) {
  detail::Scratch s(pos);
  return detail::capture_refuted_uncached(s, m);
}

}  // namespace xq
