// The computer opponent's move choice. Pure (no network, no Boost): it reads only the position as
// the side to move sees it, so in Jieqi it plays without the face-down identities it may not know.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rules/position.h"

namespace xq::engine {

struct Limits {
  int64_t movetime_ms = 1000;  // deepening stops once this has passed (0 = no time limit)
  int max_depth = 64;          // in plies (without a time or node limit, keep it small: ~8)
  uint64_t max_nodes = 0;      // 0 = no limit; tests use it for repeatable answers
  int jieqi_samples = 4;       // Jieqi: searches on different draws of the face-down identities
};

struct Choice {
  std::string move;  // ICCS without a reveal suffix; empty when the side to move has no legal move
  int score = 0;     // centipawns for the side to move
  int depth = 0;     // the deepest iteration completed
  uint64_t nodes = 0;
  // Jieqi with face-down pieces: samples searched, and how many of them scored every candidate
  // move (the rest of the choice then falls back to the samples' votes when none did).
  int samples = 0;
  int samples_scored = 0;
};

// `fen`: the position as the side to move sees it (for Jieqi the viewer's FEN: X/x face-down,
// then the pool of identities not yet seen). `earlier_fens`: the game's earlier positions as the
// same viewer saw them, oldest first, so that the engine can avoid or seek a repetition.
// `seed`: Jieqi samples identities for face-down pieces from the pool; the seed fixes them.
// Throws xq::FenError for a bad FEN.
Choice choose_move(Variant variant, const std::string& fen, const std::vector<std::string>& earlier_fens,
                   const Limits& limits, uint64_t seed);

}  // namespace xq::engine
