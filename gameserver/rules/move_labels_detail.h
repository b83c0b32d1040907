// Shared by move_labels.cpp and repetition_verdict.cpp only; not part of the library's interface
// (adjudication.h is).
#pragma once
#include "adjudication.h"

namespace xq::detail {

// Labels move `m` of `before`. `ids` maps squares of `before` to piece identities (nullptr: the
// squares themselves); `previous`/`prev_move`: the position before the opponent's last move and
// that move (nullptr: unknown).
MoveLabel label_move_ids(const Position& before, Move m, Ruleset rs, const Position* previous, const Move* prev_move,
                         const int* ids, const AdjudicationOptions& options);

// A new labelling job: captures found refuted (cached per thread) by earlier jobs are forgotten.
void forget_refutations();

}  // namespace xq::detail
