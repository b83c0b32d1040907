// FEN for Xiangqi (standard, short "board side" form accepted) and Jieqi (Pikafish style: X/x for
// face-down pieces, then the pool of identities not yet seen).
#pragma once
#include <stdexcept>
#include <string>

#include "position.h"

namespace xq {

struct FenError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

extern const char* const kXiangqiStartFen;
extern const char* const kJieqiStartFen;

// Parses a FEN of `variant`; X/x pieces in a Xiangqi FEN are an error (FenError).
// Throws FenError with a message naming the problem.
Position parse_fen(const std::string& fen, Variant variant);
std::string to_fen(const Position& pos);
// The Jieqi pool field ("R2A2C2P5N2B2r2a2c2p5n2b2", "-" when empty).
std::string pool_to_string(const PieceCounts& pool);
PieceCounts parse_pool(const std::string& s);  // throws FenError

}  // namespace xq
