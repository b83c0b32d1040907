// The rules' repetition judgement at the root: which root moves lose by it at once or after some
// reply (perpetual check, perpetual chase and the rest of rules/adjudication.h). The search itself
// scores repetitions simply (0, or a loss for a perpetual checker); this catches what that misses,
// chases above all, two plies deep, with the real adjudicator.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "rules/position.h"

namespace xq::engine {

// `history`: the game's earlier positions as parsed from the viewer's FENs, oldest first; `root`
// the current one. Only the stretch of history joined to the root by reversible moves (no
// capture, no reveal) is replayed; the game rules are the variant's defaults. Judgements are
// capped (`max_judgements`, and none starts after `deadline`): they can cost milliseconds each.
// Returns, for each move of `moves`, whether it loses by a repetition judgement.
std::vector<bool> repetition_losses(const std::vector<Position>& history, const Position& root,
                                    const MoveList& moves, int max_judgements = 24,
                                    std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

}  // namespace xq::engine
