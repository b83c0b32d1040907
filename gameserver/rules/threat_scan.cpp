// The threat scan (threat_scan.h): direct captures judged by exchange evaluation and forcing
// refutations, check combinations, recoveries by checks and exchange combinations.
// Spec: shared/specs/xiangqi-rules.md §0, §2, §5; jieqi-rules.md §6. Design notes in
// docs/adjudication.md.
#include "threat_scan.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <tuple>
#include <utility>
#include <vector>

#include "forcing_lines.h"

namespace xq::detail {

namespace {

// Evaluates the capture threats of the side to move against every enemy piece (gain by the
// exchange evaluation). Attacks by the king and by pawns are never chases (they may chase freely).
// `offers`: which attacks are exchange offers rather than threats: none, same-type attacks the
// victim can answer (AXF and the computer rules, as Fairy-Stockfish), or also attacks on a piece
// that can take its attacker back whatever their types (CXA: 兑 or a sacrifice); or none because
// the side to move really is to move (OurMove: CXA's position before a move, where it takes before
// the victim can answer). `real_only`: drop captures that lose to a counter-capture or allow a
// quick mate (off when measuring raw geometry, see label_move_ids).
// `verify_series` (CXA): also drop captures after which the opponent wins the capturer back, and
// more than the capture took, by a series of checks (see recovering_series_gain) or by a short
// forcing line the capture allows (capture_refuted).
int best_recovering_series(Scratch& s, Square target);

enum class Offers { None, SameType, Any, OurMove };

// Each square is judged on its own, so `only` (a square) limits the work to that one target; the
// other entries of `out` are then left as they were.
void direct_threats(Scratch& s, std::array<Threat, kSquares>& out, Offers offers = Offers::Any,
                    bool real_only = true, bool verify_series = true, Square only = kNoSquare) {
  const bool exchange_filter = offers == Offers::SameType || offers == Offers::Any;
  const Color us = s.side(), them = opposite(us);
  std::vector<Move> caps, recaps;
  for (Square t = 0; t < kSquares; ++t) {
    if (only != kNoSquare && t != only) continue;
    out[t] = Threat{};
    Piece victim = s.p.at(t);
    if (!victim || color_of(victim) != them || type_of(victim) == King) continue;
    if (type_of(victim) == Pawn && !crossed_river(them, t)) continue;  // uncrossed pawns are no targets
    legal_captures_onto(s.p, t, caps);
    int n_attackers = static_cast<int>(caps.size());
    // Same-type mutual attack (chariot v chariot, horse v horse …) is an exchange offer (兑):
    // such an attacker does not count (it is lifted off the board for this target) unless the
    // victim cannot really hit back at it. The others may still chase the victim.
    // (AXF and the computer rules leave such an attacker on the board and only drop its capture:
    // a piece behind it on the same line is no attacker there.)
    std::vector<std::pair<Square, Piece>> lifted;
    if (offers == Offers::SameType) {
      caps.erase(std::remove_if(caps.begin(), caps.end(),
                                [&](Move c) {
                                  return type_of(s.p.at(c.from)) == type_of(victim) && victim_hits_back(s, t, c.from);
                                }),
                 caps.end());
      n_attackers = static_cast<int>(caps.size());
    } else if (exchange_filter) {
      for (Move c : caps)
        if (type_of(s.p.at(c.from)) == type_of(victim) && victim_hits_back(s, t, c.from))
          lifted.emplace_back(c.from, s.p.at(c.from));
      for (auto& [sq, pc] : lifted) s.p.put(sq, kEmpty);
      if (!lifted.empty()) {
        legal_captures_onto(s.p, t, caps);
        n_attackers = static_cast<int>(caps.size());
      }
    }
    struct Restore {
      Scratch& s;
      std::vector<std::pair<Square, Piece>>& l;
      ~Restore() {
        for (auto& [sq, pc] : l) s.p.put(sq, pc);
      }
    } restore{s, lifted};
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
      if (s.chases_freely(type_of(a))) continue;
      int g = see(s, c);
      // A capture after which the opponent wins more elsewhere (a hanging piece of ours) is no
      // real threat; an equal counter-capture does not cancel it.
      if (real_only && g > 0 && net_gain(s, c) < 0) g = 0;
      // ... or after which the opponent wins the capturer back, and more than the capture took,
      // by a series of checks (抽将): in 图16 (C15) the black rook may not take the a6 pawn while
      // its king stands on f8, because the red rook's check, then a capture uncovering the
      // cannon's check, wins the rook on a6. A series that wins something else is the opponent's
      // own threat, not a reason this capture fails (图9: black's discovered checks win the h6
      // rook whether or not red takes on b0).
      if (real_only && verify_series && g > 0) {
        // What the opponent wins back: the most over what a face-down capturer may show (it sees
        // which before it answers), each series sure of itself.
        int back = 0;
        each_outcome(s, c, [&] {
          back = std::max(back, best_recovering_series(s, c.to));
          return back <= value_of(victim, t);
        });
        if (back > value_of(victim, t)) g = 0;
        if (trace() && back > 0) std::cerr << "      series after " << to_iccs(c) << " back " << back << "\n";
      }
      int single = value_of(victim, t) - (rooted ? moved_value(s.p, a, t, us) : 0);
      // AXF and the computer rules know no exchange sums: a piece with a real root is chased only
      // by a cheaper piece (a chariot by a horse or cannon, a chariot, horse or cannon by an
      // advisor or elephant), however many others also attack it (audit 2026-12-04: a chariot
      // joining a horse against a protected cannon is no chase, as in Fairy-Stockfish).
      if (offers == Offers::SameType && single <= 0) g = 0;
      if (trace()) std::cerr << "      cap " << to_iccs(c) << " see " << g << " hit " << victim_hits_back(s, t, c.from) << "\n";
      if (g <= 0) continue;
      // Can the victim hit back at the attacker? Then the move offers an exchange (兑) or a
      // sacrifice rather than a chase, unless the victim is pinned to its king (even by the
      // attacker itself) and so cannot really answer.
      if (offers == Offers::Any && victim_hits_back(s, t, c.from)) continue;
      if (real_only && capture_allows_mate(s, c)) continue;
      if (real_only && verify_series && capture_refuted(s, c)) continue;
      if (best.n_winners < 8) best.winners[best.n_winners++] = static_cast<int8_t>(c.from);
      best_single = std::max(best_single, single);
      if (g > best.gain) {
        best.gain = g;
        best.attacker = c.from;
      }
    }
    out[t].attacked = !caps.empty();
    if (best.gain <= 0) continue;
    best.attacked = true;
    best.unrooted = !any_rooted;
    best.joint = !best.unrooted && best_single <= 0;
    best.under_protected = !best.unrooted && n_attackers > n_defenders && best.joint;
    out[t] = best;
    if (trace() && offers != Offers::None) std::cerr << "    direct " << square_name(best.attacker) << "x" << square_name(t) << " gain " << best.gain << "\n";
  }
}

// Check-then-capture threats (抽将得子, CXA): the side to move gives check and, whatever the
// reply, wins material afterwards — by a capture judged by exchange evaluation, or by a further
// check of the same kind (a series of up to kCheckSeries checks, 连将得子: e.g. a check, then a
// capture that uncovers a second check, then the capture of an unprotected piece, 图16). The
// first check is a quiet move (a capturing check is a direct threat on its victim); later checks
// may capture. Material taken by either side on the way is counted.
constexpr int kCheckSeries = 2;

// Attacks the victim can answer by taking its attacker (victim_hits_back), as they stand when a
// combination starts: (victim square, attacker square) pairs. A capture such an attacker makes at
// the end of a combination, while the victim still could take it, is the same offer (兑) or
// sacrifice as its direct capture would be: the opponent, to move, takes the attacker first
// (audit, 2026-12-04: a quiet check before the horse takes the horse that attacks it made 献 a
// chase). Where the combination itself ends the answer (its check moved the cannon's screen),
// the capture stays a threat.
using OfferedPairs = std::vector<std::pair<Square, Square>>;

OfferedPairs offered_pairs(Scratch& s) {
  const Color them = opposite(s.side());
  OfferedPairs out;
  for (Square t = 0; t < kSquares; ++t) {
    const Piece v = s.p.at(t);
    if (!v || color_of(v) != them || type_of(v) == King) continue;
    for (Square a = 0; a < kSquares; ++a)
      if (s.p.at(a) && color_of(s.p.at(a)) == s.side() && victim_hits_back(s, t, a)) out.emplace_back(t, a);
  }
  return out;
}

// Drops from `threats` (of the side to move of `s`) each threat all of whose winning capturers
// are offered to their victim: at the start (same squares: pieces the combination did not move)
// and still now.
void drop_offered(Scratch& s, std::array<Threat, kSquares>& threats, const OfferedPairs& offered) {
  if (offered.empty()) return;
  for (Square t = 0; t < kSquares; ++t) {
    Threat& th = threats[t];
    if (th.gain <= 0 || th.n_winners == 0) continue;
    bool all = true;
    for (int i = 0; i < th.n_winners && all; ++i) {
      const Square a = th.winners[i];
      all = std::find(offered.begin(), offered.end(), std::pair<Square, Square>{t, a}) != offered.end() &&
            victim_hits_back(s, t, a);
    }
    if (all) th = Threat{};
  }
}

// The material the side to move wins for sure by the check `c` (legal, gives check), whatever the
// replies; `targets` receives the squares (in the current position) of the pieces it may be won
// from: where replies or captures tie, the opponent chooses, so all of them (an order-free
// result: the rules know no left or right). Returns a value <= 0 when nothing is won for sure,
// and also when `c` mates (a mate threat is not a chase).
int check_series_gain(Scratch& s, Move c, int checks_left, SquareSet& targets, bool top, const OfferedPairs& offered,
                      std::array<int, kSquares>* on = nullptr) {
  const Color us = s.side(), them = opposite(us);
  targets.reset();
  const int gain_c = s.p.at(c.to) ? value_of(s.p.at(c.to), c.to) : 0;
  // The worst case over the replies, and over what a face-down piece that moves turns up as (ours
  // or theirs: nobody chooses it, so a gain "for sure" holds for each).
  int worst = 1000000;
  std::array<Threat, kSquares> after{};
  each_outcome(s, c, [&] {
    // A face-down piece that checks only as some of what it may turn up as starts no sure series
    // (and asking about each reply for each identity was most of a judgement's time: up to 9 s).
    if (!s.p.in_check(them)) {
      if (worst > 0) worst = 0, targets.reset();
      return false;
    }
    MoveList replies;
    s.p.generate_legal(replies);
    if (replies.size == 0) {  // a mate is not a chase
      if (worst > 0) worst = 0, targets.reset();
      return false;
    }
    for (Move r : replies) {
      const int lost = s.p.at(r.to) ? value_of(s.p.at(r.to), r.to) : 0;
      each_outcome(s, r, [&] {
        int v = gain_c - lost;
        direct_threats(s, after, Offers::None, true, false);
        drop_offered(s, after, offered);
        // `on`: what each piece yields after this reply, by a capture or a further series.
        std::array<int, kSquares> here{};
        if (on)
          for (Square t = 0; t < kSquares; ++t) here[t] = after[t].gain;
        SquareSet bt;
        int best = best_targets(after, bt);
        if (checks_left > 1 && !s.p.in_check(them)) {
          MoveList ours;
          s.p.generate_legal(ours);
          for (Move c2 : ours) {
            if (!gives_sure_check(s, c2)) continue;
            SquareSet t2;
            std::array<int, kSquares> on2;
            on2.fill(kKingValue);
            int g2 = check_series_gain(s, c2, checks_left - 1, t2, false, offered, on ? &on2 : nullptr);
            if (on && g2 > 0)  // what the further series wins on each piece whatever the replies
              for (Square t = 0; t < kSquares; ++t)
                if (on2[t] < kKingValue) here[t] = std::max(here[t], on2[t]);
            if (t2.none() || g2 < best) continue;
            if (g2 > best) best = g2, bt.reset();
            bt |= t2;
          }
        }
        if (on)  // the least each piece yields over the replies (a piece that moved is followed back)
          for (Square t = 0; t < kSquares; ++t)
            if (t != r.from) {
              int& least = (*on)[t == r.to ? r.from : t];
              least = std::min(least, here[t] > 0 ? v + here[t] : 0);
            }
        // The target must be a piece that stood there before the check (follow a moving target).
        SquareSet tgt = best > 0 ? before_reply(bt, r) : SquareSet{};
        if (best <= 0 && gain_c > 0) tgt.set(c.to);
        v += best;
        if (trace() && top) std::cerr << "      chk " << to_iccs(c) << " reply " << to_iccs(r) << " best " << best << "\n";
        if (v < worst) worst = v, targets.reset();
        if (v == worst) targets |= tgt;
        return worst > 0;
      });
      if (worst <= 0) break;
    }
    return worst > 0;
  });
  return worst;
}

// Calls fn(move) for every legal move of the side to move that gives check for sure (quiet ones
// only if `quiet_only`).
template <class Fn>
void for_each_check(Scratch& s, bool quiet_only, Fn&& fn) {
  MoveList ours;
  s.p.generate_legal(ours);
  for (Move c : ours)
    if (!(quiet_only && s.p.at(c.to)) && gives_sure_check(s, c)) fn(c);
}

// Refutation by checks (CXA, direct_threats): a series of up to kRecoverySeries checks that wins
// back the opponent's capturer (图3: `Rxc1` loses the chariot to `Rh0+ Af0 Rxf0+ Ke1 Rf1+` and
// `Rxc1`; with the elephant on g0, to `Rxg0+ Af0 Rxf0+ Ke1 Rf1+ Ke2 Rxc1`). Longer than the
// check-series threats (kCheckSeries): a refutation must end on the capturer, so it stays rare and
// cheap; longer threat series masked real chases and were slow (2026-12 audit). At most
// kRecoveryNodes replies are looked at: a search that runs out proves only what it finished (the
// capture then stands unless that already refutes it).
constexpr int kRecoverySeries = 4;
constexpr long kRecoveryNodes = 20000;
constexpr int kNoRecovery = -1000000;

struct RecoveryBudget {
  long left = kRecoveryNodes;
  bool exhausted = false;
};

// The check `c` (legal, by the side to move) starts a series of up to `checks_left` checks after
// which the side to move takes the piece on `target` (the opponent's capturer; followed when it
// moves) whatever the replies: returns the material won on the way, the capturer included and the
// opponent's captures deducted, or kNoRecovery when some reply keeps the capturer, when the
// series mates (a mate is not a recovery; mates are judged apart) or when the budget ran out.
// What the opponent wins at once after the capture `m` that ends a series (the side to move takes
// the capturer back): the most one of its captures elsewhere gains, by exchange evaluation (the
// exchange on m.to itself is in the capture's own worth). A series that wins the capturer back
// but leaves its checking chariot hanging wins nothing (review, 2026-12-04: Re4+ Re1 Axd7, then
// Rxe4+). The worst case over what a face-down capturer turns up as.
int left_hanging(Scratch& s, Move m) {
  int most = 0;
  std::array<Threat, kSquares> theirs{};
  each_outcome(s, m, [&] {
    direct_threats(s, theirs, Offers::None, false, false);
    for (Square t = 0; t < kSquares; ++t)
      if (t != m.to) most = std::max(most, theirs[t].gain);
    return true;
  });
  return most;
}

int recovering_series_gain(Scratch& s, Move c, int checks_left, Square target, RecoveryBudget& b) {
  const int gain_c = s.p.at(c.to) ? value_of(s.p.at(c.to), c.to) : 0;
  const bool took = c.to == target;
  // The worst case over the replies and over what a face-down piece that moves turns up as.
  int worst = 1000000;
  std::array<Threat, kSquares> after{};
  each_outcome(s, c, [&] {
    MoveList replies;
    s.p.generate_legal(replies);
    if (replies.size == 0) worst = kNoRecovery;
    for (Move r : replies) {
      if (b.left-- <= 0) {
        b.exhausted = true;
        worst = kNoRecovery;
        break;
      }
      const Square tgt = r.from == target ? r.to : target;
      const int v = gain_c - (s.p.at(r.to) ? value_of(s.p.at(r.to), r.to) : 0);
      each_outcome(s, r, [&] {
        int best = took ? 0 : kNoRecovery;
        if (!took) {
          direct_threats(s, after, Offers::None, true, false, tgt);
          if (after[tgt].gain > 0) best = after[tgt].gain - left_hanging(s, mv(after[tgt].attacker, tgt));
          if (checks_left > 1) {
            MoveList ours;
            s.p.generate_legal(ours);
            for (Move c2 : ours)
              if (gives_sure_check(s, c2)) best = std::max(best, recovering_series_gain(s, c2, checks_left - 1, tgt, b));
          }
        }
        worst = best == kNoRecovery ? kNoRecovery : std::min(worst, v + best);
        return worst != kNoRecovery;
      });
      if (worst == kNoRecovery) break;
    }
    return worst != kNoRecovery;
  });
  return worst;
}

int best_recovering_series_once(Scratch& s, Square target, RecoveryBudget& b) {
  int best = 0;
  if (s.p.in_check(opposite(s.side()))) return 0;
  for_each_check(s, false, [&](Move c) {
    // A first check that captures another piece takes one that hangs to it whether or not we made
    // our capture: it is no part of what the capture gave away (图3 against 图9).
    const int hanging = c.to != target && s.p.at(c.to) ? value_of(s.p.at(c.to), c.to) : 0;
    const int gain = recovering_series_gain(s, c, kRecoverySeries, target, b);
    if (trace() && gain != kNoRecovery)
      std::cerr << "        recovery " << to_iccs(c) << " gain " << gain << " hanging " << hanging << "\n";
    if (gain != kNoRecovery) best = std::max(best, gain - hanging);
  });
  return best;
}

// The most the side to move wins by a series of checks that wins back the opponent's piece on
// `target` (0: none), less what its first check captures besides it. Where the budget runs out
// depends on the order moves are tried in, so, as for capture_refuted, the mirror image and the
// colour swaps are tried too: the first that finishes is exact; if none does, the most any of the
// four proved (each a proof), so a position and its transforms are judged alike.
int best_recovering_series(Scratch& s, Square target) {
  RecoveryBudget b;
  int best = best_recovering_series_once(s, target, b);
  if (!b.exhausted) return best;
  for (auto [mirror, colours] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
    Scratch t(transformed(s.p, mirror, colours));
    RecoveryBudget bt;
    const int got = best_recovering_series_once(t, transformed(target, mirror, colours), bt);
    if (!bt.exhausted) return got;
    best = std::max(best, got);
  }
  return best;
}

// A combination found on the board: it wins `gain` from one of `candidates` (the opponent's choice).
struct Combination {
  int gain = 0;
  SquareSet candidates;
  Move first;  // the combination's first move
};

// Records combinations as threats. A combination that could take its material from a piece that
// was already threatened as much adds nothing and is dropped; otherwise it is recorded on its most
// valuable candidates. Order-free: no choice depends on the order the combinations were found in
// or on where on the board a piece stands.
void record_combinations(Scratch& s, std::vector<Combination>& found, std::array<Threat, kSquares>& out,
                         bool via_check, const char* what) {
  const Color them = opposite(s.side());
  // Judged against the threats found before this kind of combination, never against one another,
  // and merged where several land on one piece: the order they were found in does not matter.
  const std::array<Threat, kSquares> before = out;
  SquareSet recorded;
  for (Combination c : found) {
    for (Square t = 0; t < kSquares; ++t)
      if (c.candidates.test(t) && (!s.p.at(t) || color_of(s.p.at(t)) != them || type_of(s.p.at(t)) == King ||
                                   (type_of(s.p.at(t)) == Pawn && !crossed_river(them, t))))  // no target, as for direct threats
        c.candidates.reset(t);
    if (c.gain <= 0 || c.candidates.none()) continue;
    // The most valuable candidates; between equals, those already under the larger threat. Where
    // several remain alike (two advisors, say), the threat is recorded on each: picking one would
    // pick by board order.
    auto rank = [&](Square q) { return std::tuple{value_of(s.p.at(q), q), static_cast<int>(type_of(s.p.at(q))), before[q].gain}; };
    bool covered = false, first = true;
    std::tuple<int, int, int> top{};
    for (Square t = 0; t < kSquares; ++t) {
      if (!c.candidates.test(t)) continue;
      covered |= before[t].gain >= c.gain;
      if (first || rank(t) > top) top = rank(t);
      first = false;
    }
    if (covered) continue;
    Threat t;
    t.gain = c.gain;
    t.attacker = c.first.from;
    t.via_check = via_check;
    t.joint = t.attacked = !via_check;
    t.alternatives = c.candidates;
    for (Square q = 0; q < kSquares; ++q) {
      if (!c.candidates.test(q) || rank(q) != top) continue;
      if (recorded.test(q) && out[q].gain > t.gain) continue;
      if (recorded.test(q) && out[q].gain == t.gain) {
        out[q].alternatives |= t.alternatives;
      } else {
        out[q] = t;
        recorded.set(q);
      }
      if (trace()) std::cerr << "    " << what << " " << to_iccs(c.first) << " wins " << c.gain << " on " << square_name(q) << "\n";
    }
  }
}

// `baseline`: also record what a check wins on each piece whatever the reply (the least over the
// replies, by one capture after it), as for exchange combinations: a combination dropped because
// another threat covered its best target still threatened that piece (audit 10, 2026-12-04: with
// h2xc2 on the board, Rd6+ then Rxd7 stood, and a cannon offered to d7's cannon later read as a
// new chase of it). Not where some reply steers the loss onto another piece (audit 11: Ci4-e4
// answers Ne5+ by giving up the hanging i4 cannon, so e0 was not threatened).
void check_capture_threats(Scratch& s, std::array<Threat, kSquares>& out, bool baseline, const OfferedPairs& offered) {
  const Color them = opposite(s.side());
  if (s.p.in_check(them)) return;  // the opponent is in check already: no further check to give
  // (A capturing check is a direct threat on its victim, found elsewhere.)
  std::vector<Combination> found;
  std::array<int, kSquares> on{};
  for_each_check(s, true, [&](Move c) {
    Combination combo;
    combo.first = c;
    on.fill(kKingValue);
    combo.gain = check_series_gain(s, c, kCheckSeries, combo.candidates, true, offered, baseline ? &on : nullptr);
    if (combo.gain <= 0) return;
    found.push_back(combo);
    if (baseline)
      for (Square t = 0; t < kSquares; ++t)
        if (on[t] > 0 && on[t] < kKingValue) found.push_back(Combination{on[t], SquareSet().set(t), c});
  });
  record_combinations(s, found, out, true, "checkcap");
}

// Exchange-then-capture threats (CXA, 联合捉 by a capture sequence): an even exchange (a legal
// capture by a piece other than king or pawn whose exchange evaluation is exactly 0) after which,
// whatever the opponent answers, a capture wins material — typically the exchange removes the
// only defender of another attacked piece (图4: the cannon takes the horse that guards the pawn
// the horse attacks). The target is the piece finally won. A quiet answer leaves us the whole
// first victim, so only the opponent's captures are examined.
//
// `every_target`: also record what a combination wins on each piece that is not its best target. A
// baseline asks for it: a combination whose best target is another piece still threatens this one,
// so moving the bigger target away creates no new chase of it (review, 2026-12-03).
void exchange_capture_threats(Scratch& s, std::array<Threat, kSquares>& out, bool every_target,
                              const OfferedPairs& offered) {
  const Color us = s.side();
  MoveList ours;
  s.p.generate_legal(ours);
  std::array<Threat, kSquares> after{};
  std::vector<Combination> found;
  for (Move c : ours) {
    Piece victim = s.p.at(c.to);
    if (!victim || type_of(victim) == King) continue;
    if (s.chases_freely(type_of(s.p.at(c.from)))) continue;
    if (see(s, c) != 0) continue;
    const int first = value_of(victim, c.to);
    Piece cap_c = s.play(c);
    MoveList replies;
    s.p.generate_legal(replies);
    int worst = first;  // a quiet reply: we keep the first victim
    SquareSet worst_targets;
    bool checked = false;
    // every_target: what the combination wins on each piece, whichever answer (the least over them).
    std::array<int, kSquares> on{};
    if (every_target) on.fill(first);
    for (Move r : replies) {
      if (!s.p.at(r.to)) continue;
      Piece cap_r = s.play(r);
      int v = first - (r.to == c.to ? moved_value(s.p, cap_r, r.to, us) : value_of(cap_r, r.to));
      checked = true;
      if (v <= worst || every_target) {
        direct_threats(s, after, Offers::None, true, false);
        drop_offered(s, after, offered);
        if (every_target)
          for (Square t = 0; t < kSquares; ++t)
            if (t != r.from) on[t == r.to ? r.from : t] = std::min(on[t == r.to ? r.from : t], v + after[t].gain);
        SquareSet bt;
        int best = best_targets(after, bt);
        v += best;
        if (v < worst) worst = v, worst_targets.reset();
        if (v == worst && best > 0) worst_targets |= before_reply(bt, r);
      }
      s.undo(r, cap_r);
      if (worst <= 0 && !every_target) break;
    }
    s.undo(c, cap_c);
    // A quiet answer that is as good for the opponent leaves just the even exchange: no threat.
    if (checked && worst > 0 && worst < first) found.push_back(Combination{worst, worst_targets, c});
    if (checked && every_target)
      for (Square t = 0; t < kSquares; ++t)
        if (on[t] > 0 && on[t] < first && t != c.to && s.p.at(t) && color_of(s.p.at(t)) != us)
          found.push_back(Combination{on[t], SquareSet().set(t), c});
  }
  record_combinations(s, found, out, false, "exchange");
}

// `our_move`: the side to move of `s` really is to move (the position before its move), so no
// direct attack is an offer: it takes before the victim can take back (audit 10, 2026-12-04: a
// chariot facing an unguarded chariot on its own move threatened it, and a later check winning it
// was no new chase). The combinations still leave offered pieces out: a check series records only
// its best targets, and the offered piece, taken directly, would hide the others it threatens
// (Cf5+ then Rxf2 stood beside Rxc9). CXA only; the other rulesets never compare with the
// position before.
void all_threats(Scratch& s, Ruleset rs, std::array<Threat, kSquares>& out, bool real_only = true,
                 bool every_target = false, bool our_move = false) {
  // AXF and the computer rules judge a capture by the target's roots alone: what the opponent
  // could take elsewhere afterwards, or a mate it could then give, does not excuse the attack.
  const bool cxa = rs == Ruleset::Cxa;
  direct_threats(s, out, cxa ? (our_move ? Offers::OurMove : Offers::Any) : Offers::SameType, real_only && cxa, cxa);
  if (rs == Ruleset::Cxa) {
    const OfferedPairs offered = offered_pairs(s);
    check_capture_threats(s, out, every_target, offered);
    exchange_capture_threats(s, out, every_target, offered);
  }
}

}  // namespace

std::array<int, kSquares> check_wins_per_piece(const Position& pos, Move m, const AdjudicationOptions& o) {
  Scratch s(pos);
  s.minor_pieces_free = o.pawns_advisors_elephants_free;
  const int taken = s.p.at(m.to) ? value_of(s.p.at(m.to), m.to) : 0;  // counted in each entry below
  std::array<int, kSquares> on;
  on.fill(kKingValue);
  SquareSet targets;
  // No offers: the checked side's move answers the check, so a victim that could take its attacker
  // does not get to first (unless its capture answers the check, a reply like any other).
  const int gain = check_series_gain(s, m, 1, targets, false, OfferedPairs{}, &on);
  for (int& least : on) least = gain > 0 && least > taken && least < kKingValue ? least - taken : 0;
  return on;
}

void threats_for(const Position& pos, Color us, Ruleset rs, const AdjudicationOptions& o,
                 std::array<Threat, kSquares>& out, bool real_only, bool every_target, bool our_move) {
  Scratch s(pos);
  s.minor_pieces_free = o.pawns_advisors_elephants_free;
  s.set_side(us);
  all_threats(s, rs, out, real_only, every_target, our_move && pos.side_to_move() == us);
}


}  // namespace xq::detail
