// Forcing lines the move labeller asks about: can the side to move force mate (forced_mate,
// mate_threat), and does a capture walk into a mate or a forcing line that wins back more than it
// took (capture_allows_mate, capture_refuted)? Internal to the rules library.
#pragma once
#include "adjudication.h"
#include "threat_probe.h"

namespace xq::detail {

// Can the side to move force mate within `plies` plies (odd)? A side left without a legal move
// loses in Xiangqi (checkmate or stalemate). With `checks_only` every attacking move must check.
// With `nodes_left`, each move tried costs one; once none are left every call answers no, so a
// search cut short never claims a mate it did not prove.
bool forced_mate(Scratch& s, int plies, bool checks_only, long* nodes_left = nullptr);

// The mate threat of `us` in `pos` as if it were `us` to move (the opponent passes).
bool mate_threat(const Position& pos, Color us, const AdjudicationOptions& o);

// Does capture `c` (legal, by the side to move) let the opponent force mate at once, by checks?
bool capture_allows_mate(Scratch& s, Move c);

// Is capture `c` refuted by a forcing line of the opponent (kept per thread: see forcing_lines.cpp);
// the uncached search itself.
bool capture_refuted(Scratch& s, Move c);
bool capture_refuted_uncached(Scratch& s, Move c);

}  // namespace xq::detail
