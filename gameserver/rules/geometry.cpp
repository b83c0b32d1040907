#include "geometry.h"

#include <cstdlib>

namespace xq {
namespace {

bool on_board(int f, int r) { return f >= 0 && f < kFiles && r >= 0 && r < kRanks; }

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

Geometry build() {
  Geometry g{};
  const int df[4] = {0, 0, 1, -1}, dr[4] = {1, -1, 0, 0};
  for (Square s = 0; s < kSquares; ++s) {
    int f = file_of(s), r = rank_of(s);
    for (int d = 0; d < 4; ++d) {
      int n = 0;
      for (int ff = f + df[d], rr = r + dr[d]; on_board(ff, rr); ff += df[d], rr += dr[d])
        g.rays[s][d][n++] = static_cast<int8_t>(make_square(ff, rr));
      g.rays[s][d][n] = -1;
    }
    int no = 0;
    for (int d = 0; d < 4; ++d)
      if (on_board(f + df[d], r + dr[d])) g.orthogonal[s][no++] = static_cast<int8_t>(make_square(f + df[d], r + dr[d]));
    g.orthogonal[s][no] = -1;
    int nd = 0, ne = 0;
    for (int a : {-1, 1})
      for (int b : {-1, 1}) {
        if (on_board(f + a, r + b)) g.diagonal[s][nd++] = static_cast<int8_t>(make_square(f + a, r + b));
        if (on_board(f + 2 * a, r + 2 * b))
          g.elephant_moves[s][ne++] = {static_cast<int8_t>(make_square(f + 2 * a, r + 2 * b)),
                                       static_cast<int8_t>(make_square(f + a, r + b))};
      }
    g.diagonal[s][nd] = -1;
    g.elephant_moves[s][ne] = {-1, -1};
    int nh = 0, na = 0;
    const int hf[8] = {1, 2, 2, 1, -1, -2, -2, -1}, hr[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    for (int i = 0; i < 8; ++i) {
      int tf = f + hf[i], tr = r + hr[i];
      if (!on_board(tf, tr)) continue;
      // Leg of a horse moving from s: one step along the long axis.
      int lf = f + (std::abs(hf[i]) == 2 ? hf[i] / 2 : 0), lr = r + (std::abs(hr[i]) == 2 ? hr[i] / 2 : 0);
      g.horse_moves[s][nh++] = {static_cast<int8_t>(make_square(tf, tr)), static_cast<int8_t>(make_square(lf, lr))};
      // A horse standing on t attacks s through the leg next to t on the long axis, which is the
      // diagonal neighbour of s in t's direction.
      int bf = f + (hf[i] > 0 ? 1 : -1), br = r + (hr[i] > 0 ? 1 : -1);
      g.horse_attackers[s][na++] = {static_cast<int8_t>(make_square(tf, tr)), static_cast<int8_t>(make_square(bf, br))};
    }
    g.horse_moves[s][nh] = {-1, -1};
    g.horse_attackers[s][na] = {-1, -1};
  }
  uint64_t seed = 0x5851F42D4C957F2DULL;
  for (auto& row : g.zobrist)
    for (auto& k : row) k = splitmix64(seed);
  g.zobrist_black_to_move = splitmix64(seed);
  return g;
}

}  // namespace

const Geometry& geometry() {
  static const Geometry g = build();
  return g;
}

}  // namespace xq
