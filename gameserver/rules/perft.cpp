#include "perft.h"

namespace xq {

uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList moves;
  pos.generate_legal(moves);
  if (depth == 1) return static_cast<uint64_t>(moves.size);
  uint64_t total = 0;
  for (const Move& m : moves) {
    Undo u = pos.make(m);
    total += perft(pos, depth - 1);
    pos.unmake(m, u);
  }
  return total;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth) {
  std::vector<std::pair<Move, uint64_t>> out;
  MoveList moves;
  pos.generate_legal(moves);
  for (const Move& m : moves) {
    Undo u = pos.make(m);
    Move shown = m;
    shown.reveal = is_dark(u.moved) ? type_of(pos.at(m.to)) : NoType;
    out.emplace_back(shown, perft(pos, depth - 1));
    pos.unmake(m, u);
  }
  return out;
}

}  // namespace xq
