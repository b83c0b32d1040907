// Repetition adjudication: per-move labels (check / mate threat / chase with target identities) and
// the verdict of a repeated cycle under the CXA (default), AXF and computer rulesets.
// Spec: shared/specs/xiangqi-rules.md §2, §3, §5, §7.
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
  int kill_search_plies = 3;         // depth of the mate-threat (杀) search, CXA only
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
  bool is_idle() const { return !check && !kill && chases.empty(); }
  // Short Chinese description used in records and tests: "将", "杀", "捉(车)", "闲", …
  std::string describe() const;
};

struct RepetitionVerdict {
  enum class Outcome { Draw, RedLoses, BlackLoses };
  Outcome outcome = Outcome::Draw;
  // perpetual_check | perpetual_chase | perpetual_mate_threat | repetition_draw
  std::string reason = "repetition_draw";
  std::vector<MoveLabel> labels;  // one per window move, in order
};

// `start` is the position after the last irreversible move (capture or reveal); `moves` are all
// plies played since. The last move completes the third occurrence of a position; the window is
// moves[window_begin..] (from the first occurrence to the third). Plies before the window are
// context (e.g. whether a window move answers a check).
RepetitionVerdict judge_repetition(const Position& start, const std::vector<Move>& moves, size_t window_begin,
                                   Ruleset ruleset, const AdjudicationOptions& options = {});

// Label one move played from `before` (legal). `previous` is the position before the opponent's
// last move when known (CXA check-evasion rule), else nullptr.
MoveLabel label_move(const Position& before, Move m, Ruleset ruleset, const Position* previous = nullptr,
                     const AdjudicationOptions& options = {});

}  // namespace xq
