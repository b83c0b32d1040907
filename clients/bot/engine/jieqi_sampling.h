// Jieqi determinization: give every face-down piece of a viewer's position an identity drawn from
// the pool of identities that viewer has not seen. The pool field is all the engine knows; the
// draw depends only on it, the board and the seed.
#pragma once
#include <cstdint>
#include <random>

#include "rules/position.h"

namespace xq::engine {

// Number of face-down pieces on the board.
int dark_count(const Position& pos);

// Sets identity(s) for every face-down piece, drawing without replacement from its colour's pool
// (pool counts are left alone: Position::make takes a revealed identity out of the pool).
void sample_identities(Position& pos, std::mt19937_64& rng);

}  // namespace xq::engine
