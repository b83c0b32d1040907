#include "jieqi_sampling.h"

#include <stdexcept>
#include <vector>

namespace xq::engine {

int dark_count(const Position& pos) {
  int n = 0;
  for (Square s = 0; s < kSquares; ++s) n += is_dark(pos.at(s));
  return n;
}

void sample_identities(Position& pos, std::mt19937_64& rng) {
  for (Color c : {Color::Red, Color::Black}) {
    std::vector<PieceType> bag;
    const auto& pool = pos.pool()[index(c)];
    for (int t = Advisor; t <= Pawn; ++t) bag.insert(bag.end(), pool[t], static_cast<PieceType>(t));
    for (Square s = 0; s < kSquares; ++s) {
      const Piece p = pos.at(s);
      if (!is_dark(p) || color_of(p) != c) continue;
      // parse_fen guarantees the pool holds at least as many identities as face-down pieces.
      if (bag.empty()) throw std::logic_error("Jieqi pool smaller than the face-down pieces");
      const size_t i = static_cast<size_t>(rng() % bag.size());
      pos.set_identity(s, bag[i]);
      bag[i] = bag.back();
      bag.pop_back();
    }
  }
}

}  // namespace xq::engine
