#pragma once
// Invariant checker for one round (spec §6.5.1); used after every generated
// round and callable by the service on any round (e.g. a manually edited one).
#include <string>
#include <vector>

#include "pairing/types.h"

namespace xq::pairing {

// `round` is to be played as round ev.rounds.size()+1 (ev holds the earlier
// rounds). Returns human-readable violations; empty = fine.
// Checks: every available player exactly once and nobody else; one bye only
// for an odd field; no rematch or forbidden pair; for rounds 2+: colours as
// the allocation rule gives, colour-rule breaks / repeated byes only when no
// pairing avoids them, the bye in the lowest possible score group, no better
// pairing by exchanging partners of two boards or with the bye (up to 150
// boards), board order. Full optimality is tested against brute force.
// `for_completion`: the round was paired to keep the next one pairable (PairingResult::
// looked_ahead), so it need not be the best: the checks of optimality give way to checking that
// the next round is pairable.
// `allow_rematches`: the round was paired with rematches allowed (pair_round), so a rematch is no
// violation and the fewest of them comes first among the optimality checks.
std::vector<std::string> check_round(const Event& ev, const Round& round, bool for_completion = false,
                                     bool allow_rematches = false);

}  // namespace xq::pairing
