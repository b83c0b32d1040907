// Repetition adjudication: per-move labels (check / mate threat / chase with target identities) and
// the verdict of a repeated cycle under the CXA (default), AXF and computer rulesets.
// Spec: shared/specs/xiangqi-rules.md §2, §3, §5, §7; Jieqi: jieqi-rules.md §6.
//
// How a move is labelled (move_labels.cpp, threat_scan.cpp, forcing_lines.cpp; the verdicts in
// repetition_verdict.cpp):
// * 将 check: the enemy general is attacked after the move (direct, discovered, facing generals).
// * 杀 kill (CXA only): with the opponent passing, the mover could force mate (see the options).
// * 捉 chase: a threat, created by the move, to win material from a non-general piece (pawns only
//   after crossing the river; a face-down Jieqi piece counts as its positional type, and attacks
//   as it too). "Win" = exchange evaluation on the square with values R 9, N 4, C 4, A 2, E 2,
//   crossed P 2, uncrossed P 1; captures must be legal, so pinned pieces neither protect nor
//   capture. A threat does not count when
//   - the first capturer would be the general or a pawn (they may chase freely; a king or pawn
//     move that uncovers another piece's threat does chase);
//   - the victim can take that attacker back without loss and is not pinned (兑 / offer); pieces
//     of the victim's own type that it can take are ignored as attackers altogether (兑);
//   - the capture lets the opponent win more elsewhere, or mate by checks within 5 plies, or
//     (CXA) win the capturer back, and more than the capture took, by a series of up to four
//     checks starting with a quiet one (图16; a series that wins other material is the
//     opponent's own threat, 图9), or (CXA) win back more than it took by a short forcing line
//     that only the capture allows — checks, captures and a first quiet mate threat (图18,
//     capture_is_refuted below).
//   Under CXA two combinations count as threats too: a series of up to two checks (the first a
//   quiet move, the second may capture) that wins material after any replies (抽将/连将得子;
//   the target is the piece finally won), and an even exchange (exchange evaluation exactly 0)
//   after which any recapture lets a capture win material, e.g. because the exchange removed a
//   defender (图4; a joint chase of the piece finally won).
//   "Created by the move": the threat is larger than before the move, or the moved piece takes
//   part in it (for a threat won through checks: only when it is larger than before). Where the
//   opponent chooses which piece a combination wins, all candidates count (never the first in
//   board order): the rules know no left or right, and no colour. Under
//   CXA, when the move answers a check (26.1.4) or a mate threat, threats that existed before
//   the opponent's last move do not count; a general's move answering a check is always idle
//   (26.1.3).
// * Target kinds: unrooted (no legal recapture), joint (the capture needs a second piece of ours
//   to pay off, or the moved piece helps another attacker e.g. by pinning a defender),
//   under-protected (joint with more attackers than defenders).
//
// Verdicts follow §5 step 3–4. CXA severity (both sides forbidden): a side is "mild" when one of
// its chase-only moves chases only joint / under-protected targets, else "severe"; severe v mild
// → the severe side loses, otherwise draw.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"

namespace xq {

enum class Ruleset : uint8_t { Cxa, Axf, Computer };
std::string ruleset_name(Ruleset r);                       // "cxa", "axf", "computer"
std::optional<Ruleset> parse_ruleset(std::string_view s);  // accepts the names above

struct AdjudicationOptions {
  bool cxa_count_pure_chase = true;  // decision: pure perpetual chase (长捉) loses under CXA too
  // CXA: a chase of one piece, then of another, is still 长捉 (the book's 图4, spec C3: a horse
  // chasing the elephant, then a horse-and-cannon chase of the pawn, loses). Spec §5 step 3 asks
  // the chases to share a target; `true` gives that reading (and AXF/computer always need one).
  bool cxa_chase_needs_common_target = false;
  // CXA: forbidden moves kept up for nine rounds through a cycle lose without waiting for the
  // threefold repetition (xiangqi-rules.md §2.2 principle 9, the book's 参考图8: a check or chase
  // wandering over three or more points repeats a position too rarely to reach a third
  // occurrence soon). Judged by RulesGame when one side checked, threatened mate or chased on each
  // of its last nine moves, no capture or reveal came between, and the position just reached
  // already stood within those nine rounds.
  bool cxa_nine_round_cycles = true;
  // Mate threat (杀, CXA only): the mover could force mate if the opponent passed — within
  // kill_search_plies plies with any moves (3 = mate in 2), or within kill_check_plies plies when
  // every attacking move checks (连将杀). 0 disables the respective search.
  int kill_search_plies = 3;
  int kill_check_plies = 7;
  // Longer series of checks, up to kill_check_long_plies, searched within kill_check_long_nodes
  // moves tried (a mate by seven checks is the book's 杀 in 图17, spec C16; the bound keeps a
  // label within milliseconds where checks abound: in random positions the full 13-ply search
  // tried up to 877,000 moves; 20,000 find 85 % of the mates it adds to the 7-ply one, docs/
  // benchmarks.md). 0 plies or nodes: off.
  int kill_check_long_plies = 13;
  long kill_check_long_nodes = 20000;
  // Jieqi variant (jieqi-rules.md §6.3, S9): pawns, advisors and elephants may check and chase
  // perpetually. A check given only by such pieces is no check for adjudication, and they are no
  // chasers (as the general and pawns always are). Off by default: no primary text was found.
  bool pawns_advisors_elephants_free = false;
};

// One chased enemy piece.
struct ChaseTarget {
  int piece_id = -1;          // stable identity of the chased piece through the window
  Square square = kNoSquare;  // where it stands after the move
  PieceType type = NoType;    // positional type for a face-down piece
  bool unrooted = false;         // 无根: no real (legal) recapture
  bool joint = false;            // 联合捉: needs two or more attackers
  bool under_protected = false;  // 少根子: more attackers than defenders
};

struct MoveLabel {
  bool check = false;  // 将
  bool kill = false;   // 杀 (mate threat)
  std::vector<ChaseTarget> chases;  // 捉; empty = not a chase
  // A check by pawns, advisors or elephants only, which the Jieqi option pawns_advisors_elephants_free
  // makes free: not 将, yet the opponent had to answer a check (the computer rule's "a window with
  // a check holds no chase" still sees it; audit, 2026-12-04).
  bool free_check = false;
  bool is_idle() const { return !check && !kill && chases.empty(); }
  // Short Chinese description used in records and tests: "闲" for an idle move, otherwise the
  // parts that apply joined by '+', in the order 将, 杀, 捉(<target types>): e.g. "将", "杀",
  // "捉(车)", "捉(马,炮)", "将+捉(兵)", "杀+捉(车)". Type names: 车 马 炮 象 士 兵 (both colours).
  std::string describe() const;
};

struct RepetitionVerdict {
  enum class Outcome { Draw, RedLoses, BlackLoses };
  Outcome outcome = Outcome::Draw;
  // perpetual_check | perpetual_chase | perpetual_mate_threat | repetition_draw
  // (the loser's window moves: all checks → perpetual_check; some non-checking chase →
  // perpetual_chase; else (kills, with or without checks) → perpetual_mate_threat)
  std::string reason = "repetition_draw";
  std::vector<MoveLabel> labels;  // one per window move, in order
};

// The reason a side loses a repetition for (the rule in RepetitionVerdict::reason): every one of
// its window moves a check, else a chase among them, else mate threats. The one place that names
// it, for the threefold verdict and for CXA's nine rounds (RulesGame).
const char* perpetual_reason(bool all_check, bool chase);

// `start` is the position after the last irreversible move (capture or reveal); `moves` are all
// plies played since. The last move completes the third occurrence of a position; the window is
// moves[window_begin..] (from the first occurrence to the third; for CXA's nine rounds, the last 18
// plies). Plies before the window are
// context (e.g. whether a window move answers a check). Chase target ids are the squares the
// pieces stood on in `start`. Typical cost: about a millisecond per window move.
RepetitionVerdict judge_repetition(const Position& start, const std::vector<Move>& moves, size_t window_begin,
                                   Ruleset ruleset, const AdjudicationOptions& options = {});

// Label one move played from `before` (legal). `previous` is the position before the opponent's
// last move when known (CXA check-evasion rule), else nullptr. Chase target ids are the squares
// of the targets in `before`.
MoveLabel label_move(const Position& before, Move m, Ruleset ruleset, const Position* previous = nullptr,
                     const AdjudicationOptions& options = {});

// Can the side to move of `pos` force mate (or stalemate) within `plies` plies (odd; 1 = mate in
// one)? With `checks_only` every move of the attacker must give check. Exposed for tools/tests.
bool has_forced_mate(const Position& pos, int plies, bool checks_only = false);

// Is the capture `m` (legal, by the side to move of `pos`) refuted (CXA chase test)? True when the
// opponent can answer it with a short forcing line — checks and captures, and first also a quiet
// mate threat — that wins back more than the capture took on top of what it would win anyway if
// the capturer passed (or that mates). Bounded search; see forcing_lines.cpp. Exposed for tests.
bool capture_is_refuted(const Position& pos, Move m);

}  // namespace xq
