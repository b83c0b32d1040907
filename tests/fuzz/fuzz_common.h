// Shared helpers of the fuzz targets: invariant checks that abort (so libFuzzer records a crash
// with the input) and position consistency checks used by several targets.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rules/fen.h"
#include "rules/position.h"

#define FUZZ_CHECK(cond, what)                                                                      \
  do {                                                                                              \
    if (!(cond)) {                                                                                  \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  %s\n", __FILE__, __LINE__, #cond,     \
                   std::string(what).c_str());                                                      \
      std::abort();                                                                                 \
    }                                                                                               \
  } while (0)

namespace fuzz {

inline bool same_position(const xq::Position& a, const xq::Position& b) {
  return a == b && a.hash() == b.hash() && a.pool() == b.pool() && a.halfmove_clock == b.halfmove_clock &&
         a.fullmove_number == b.fullmove_number;
}

// A position reached legally (or accepted by parse_fen) must print as a FEN that parses back to
// the same position (board, side, variant, pool, counters, and the incrementally kept hash).
inline void check_fen_round_trip(const xq::Position& pos, const std::string& context) {
  const std::string fen = xq::to_fen(pos);
  xq::Position back;
  try {
    back = xq::parse_fen(fen, pos.variant());
  } catch (const xq::FenError& e) {
    FUZZ_CHECK(false, context + ": to_fen gave '" + fen + "', which parse_fen rejects: " + e.what());
  }
  FUZZ_CHECK(same_position(back, pos), context + ": '" + fen + "' does not parse back to the same position (re-printed '" +
                                           xq::to_fen(back) + "')");
  FUZZ_CHECK(xq::to_fen(back) == fen, context + ": to_fen not stable for '" + fen + "'");
}

}  // namespace fuzz
