// Positions and repetition loops reached by random play, for property tests of the rules.
#pragma once
#include <optional>
#include <vector>

#include "rules/position.h"

namespace xq::test {

// Plays `plies` uniformly random legal moves; false when a side has none on the way.
template <class Rng>
bool play_randomly(Position& pos, int plies, Rng& rng) {
  for (int i = 0; i < plies; ++i) {
    MoveList list;
    pos.generate_legal(list);
    if (list.size == 0) return false;
    pos.make(list.moves[rng() % list.size]);
  }
  return true;
}

// A random quiet move (no capture, no face-down piece, no pawn: one that can be taken back).
template <class Rng>
std::optional<Move> random_reversible_move(const Position& p, Rng& rng) {
  MoveList list;
  p.generate_legal(list);
  for (int tries = 0; tries < 40 && list.size > 0; ++tries) {
    Move m = list.moves[rng() % list.size];
    if (!p.at(m.to) && !is_dark(p.at(m.from)) && type_of(p.at(m.from)) != Pawn) return m;
  }
  return std::nullopt;
}

// A shuffle of both sides played twice from `start`: m1 m2 back1 back2 m1 m2 back1 back2, every
// move legal and the position back at `start` (its third occurrence ends the loop); nullopt when
// the random choice does not make one.
template <class Rng>
std::optional<std::vector<Move>> random_shuffle_loop(const Position& start, Rng& rng) {
  auto m1 = random_reversible_move(start, rng);
  if (!m1) return std::nullopt;
  Position a = start;
  a.make(*m1);
  auto m2 = random_reversible_move(a, rng);
  if (!m2) return std::nullopt;
  const Move back1{m1->to, m1->from, NoType}, back2{m2->to, m2->from, NoType};
  std::vector<Move> moves = {*m1, *m2, back1, back2, *m1, *m2, back1, back2};
  Position p = start;
  for (Move m : moves) {
    if (!p.is_pseudo_legal(m) || !p.is_legal(m)) return std::nullopt;
    p.make(m);
  }
  if (!(p == start)) return std::nullopt;
  return moves;
}

}  // namespace xq::test
