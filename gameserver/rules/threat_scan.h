// The threat scan of the move labeller: what the side to move of a position could win, piece by
// piece — direct captures, check combinations (抽将得子), exchange combinations — as the labels
// compare before and after a move. Internal to the rules library.
#pragma once
#include <array>

#include "adjudication.h"
#include "threat_probe.h"

namespace xq::detail {

// The threats of `us` in `pos` as if `us` were to move (rs: which rules judge them). `real_only`:
// drop captures that lose to a counter-capture or a forcing line (off when measuring raw geometry);
// `every_target`: the map is a baseline (what stood threatened), so a combination is recorded on
// each piece it wins whatever the reply (see threat_scan.cpp); `our_move`: `us` really is to move
// in `pos` and free to take (the position before its move, not in check), so no direct attack is
// an exchange offer.
void threats_for(const Position& pos, Color us, Ruleset rs, const AdjudicationOptions& o,
                 std::array<Threat, kSquares>& out, bool real_only = true, bool every_target = false,
                 bool our_move = false);

// What the check `m` (legal, by the side to move of `pos`) wins on each enemy piece whatever the
// opponent replies: per piece, the least over the replies of one capture after the reply (what
// `m` itself takes not counted; 0: not won for sure). A threat made by a check is judged after
// the answer to the check, when the checked side may recapture again.
std::array<int, kSquares> check_wins_per_piece(const Position& pos, Move m, const AdjudicationOptions& o);

}  // namespace xq::detail
