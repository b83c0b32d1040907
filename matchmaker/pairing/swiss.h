#pragma once
// Chinese Swiss pairing (积分编排制) for one round, as a maximum-weight
// matching whose edge weights pack lexicographic criteria (spec §6.3).
#include <cstdint>
#include <string>
#include <vector>

#include "pairing/colour.h"
#include "pairing/state.h"
#include "pairing/types.h"

namespace xq::pairing {

// The pairing problem of one round, built from (history, settings, unavailable).
struct PairingProblem {
  int round = 0;                  // 1-based round being paired
  std::vector<PlayerState> st;    // all players, after round-1 rounds
  std::vector<int> players;       // available player ids: score desc, pairing number asc
  std::vector<int> group;         // per local index: score group (0 = top)
  std::vector<int> group_pos;     // per local index: position inside its score group
  std::vector<int> group_size;    // per group: number of players
  std::vector<int> group_score;   // score of each group
  std::vector<ColourPref> pref;   // per local index
  bool needs_bye = false;
  // The organiser allows rematches where no pairing avoids them all: a rematch is then a pair like
  // any other, and the fewest of them is the first criterion (f_rematch, else -1).
  bool allow_rematches = false;
  int f_rematch = -1;
  bool forfeit_win_blocks_bye = true;  // Settings::bye_blocked_by_forfeit_win
  // Objective fields, most significant first; each is a sum over the
  // round's pairs, never exceeding its bit width.
  std::vector<std::string> field_names;
  std::vector<int> field_bits;
  int f_bye_repeat = 0, f_colour_abs = 0, f_bye_level = 0, f_boundary0 = 0;
  int f_colour_strong = 0, f_colour_mild = 0, f_float1 = 0, f_float2 = 0, f_bye_number = 0, f_order = 0;
};

PairingProblem make_problem(const Event& ev, const std::vector<int>& unavailable, bool allow_rematches = false);

// Hard constraints: no rematch (unless the problem allows them), no forbidden pair (local indices).
bool pair_allowed(const Event& ev, const PairingProblem& pp, int i, int j);
// Objective fields of one pair / of the bye (local indices).
std::vector<std::uint64_t> pair_fields(const Event& ev, const PairingProblem& pp, int i, int j);
std::vector<std::uint64_t> bye_fields(const PairingProblem& pp, int i);
// Completion: can the rounds after this one be paired without a rematch or a forbidden pair, if
// this round is `mate` (local indices, the bye as index players.size())? The next round exactly,
// the later ones by a bounded search that answers yes when it runs out. Byes stay a soft rule.
bool following_rounds_pairable(const Event& ev, const PairingProblem& pp, const std::vector<int>& mate);
// Sum of fields for a whole round; pairs/bye in local indices (bye = -1 if none).
std::vector<std::uint64_t> round_objective(const Event& ev, const PairingProblem& pp,
                                           const std::vector<std::pair<int, int>>& pairs, int bye);

struct PairingResult {
  bool ok = false;
  std::string error;
  int round = 0;
  Round record;                      // boards in board order (no results yet) + unavailable
  std::vector<std::string> explain;     // one line per board, for the arbiter
  std::vector<std::string> explain_zh;  // the same in Chinese
  std::vector<std::uint64_t> objective;  // rounds 2+: field sums (see PairingProblem)
  std::vector<std::string> violations;   // invariant checker output (empty when fine)
  // The best pairing would have left the next round with none: a slightly worse one was taken.
  bool looked_ahead = false;
  // With rematches allowed: the boards that repeat a meeting ("#3 Wang – #8 Li").
  std::vector<std::string> rematches;
  // With rematches allowed: the player given a bye again (or after a forfeit win) because no
  // pairing, even with rematches, gave it to anyone else.
  std::vector<std::string> repeated_byes;
};

// Pairs round ev.rounds.size()+1. `unavailable` = players absent this round. `allow_rematches`:
// the organiser's way out when no pairing avoids every rematch (a small field late in an event,
// or the players left in the Swiss after a play-off took the top away): the fewest rematches,
// then the usual criteria. Forbidden pairs stay forbidden.
// Pure: the same (ev, unavailable, allow_rematches) always gives the same result.
PairingResult pair_round(const Event& ev, const std::vector<int>& unavailable = {}, bool allow_rematches = false);

// Board order used for every round: higher max score, higher sum, lower
// pairing number; the bye last.
void order_boards(const Event& ev, const std::vector<PlayerState>& st, std::vector<Board>& boards);

}  // namespace xq::pairing
