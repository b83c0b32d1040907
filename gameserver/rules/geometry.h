// Precomputed board geometry: rays, horse and elephant steps with their blocking squares, and
// the zobrist keys. Built once at start-up; read-only afterwards.
#pragma once
#include <array>
#include <cstdint>

#include "types.h"

namespace xq {

struct StepWithBlock {
  int8_t to;     // destination
  int8_t block;  // the horse leg / elephant eye that must be empty
};

struct Geometry {
  // rays[sq][dir]: squares in direction dir (0 north = rank+1, 1 south, 2 east = file+1, 3 west),
  // terminated by -1.
  int8_t rays[kSquares][4][10];
  // Horse moves from sq (leg = orthogonal neighbour that must be empty), up to 8, -1 terminated.
  StepWithBlock horse_moves[kSquares][9];
  // Horses that would attack sq: the horse square and its leg, up to 8, -1 terminated.
  StepWithBlock horse_attackers[kSquares][9];
  // Elephant moves (any 2-diagonal step, eye = midpoint), up to 4, -1 terminated. River limits are
  // applied by the move generator.
  StepWithBlock elephant_moves[kSquares][5];
  int8_t diagonal[kSquares][5];    // one diagonal step, -1 terminated
  int8_t orthogonal[kSquares][5];  // one orthogonal step, -1 terminated
  uint64_t zobrist[32][kSquares];
  uint64_t zobrist_black_to_move;
};

const Geometry& geometry();

}  // namespace xq
