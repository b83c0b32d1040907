// Static evaluation: material, piece-square terms, light king safety. Written for this project.
// In Jieqi a face-down piece is valued at the average of its side's pool of unseen identities, never
// at the identity a search sample gave it, so that the search does not "know" what a reveal brings.
#pragma once
#include "rules/position.h"

namespace xq::engine {

// Base values (centipawns). Pawn: before the river; after it the piece-square term adds about 100.
constexpr int kValue[kPieceTypes] = {0, 0, 200, 200, 430, 950, 460, 100};
// Jieqi: revealed advisors and elephants roam the whole board and are worth a little more.
constexpr int kJieqiValue[kPieceTypes] = {0, 0, 240, 230, 430, 950, 460, 100};

// Average value of colour c's unseen identities (the Jieqi pool); 0 when the pool is empty.
int pool_average(const Position& pos, Color c);

// Value of the piece on s for move ordering and delta pruning (dark: pool average).
int piece_value(const Position& pos, Square s);

// Score for the side to move, in centipawns.
int evaluate(const Position& pos);

}  // namespace xq::engine
