// A position: the board, the side to move, and for Jieqi what is known about face-down pieces.
// Make/unmake, attack tests and legal move generation live here (movegen.cpp).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "types.h"

namespace xq {

struct Geometry;

// Room for every move of any position the FEN parser accepts: in Jieqi, face-down pieces on a0/i0
// and b2/h2 move as rooks and cannons beside two revealed rooks and cannons, and revealed advisors
// and elephants roam, so counts above 128 occur (fuzzing found 131); the bound is far below 256.
struct MoveList {
  Move moves[256];
  int size = 0;
  void push(Move m) {
    if (size < 256) moves[size++] = m;
  }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
};

// What make() needs to restore the position.
struct Undo {
  Piece moved = kEmpty;          // the piece as it stood on `from` (dark bit included)
  Piece captured = kEmpty;       // the piece that stood on `to`
  PieceType moved_identity = NoType;     // Jieqi: identity of the moved dark piece
  PieceType captured_identity = NoType;  // Jieqi: identity of the captured dark piece, if known
  uint64_t hash = 0;
  bool pool_taken = false;  // the reveal decremented the pool
};

// Counts of pieces by colour and type; used for the Jieqi pool of identities not yet seen.
using PieceCounts = std::array<std::array<uint8_t, kPieceTypes>, 2>;

class Position {
 public:
  Position();  // empty board, Xiangqi, Red to move

  static Position xiangqi_start();
  static Position jieqi_start();  // all 30 non-king pieces face-down, identities unknown

  Variant variant() const { return variant_; }
  void set_variant(Variant v) { variant_ = v; }
  Color side_to_move() const { return side_; }
  void set_side_to_move(Color c);
  Piece at(Square s) const { return board_[s]; }
  void put(Square s, Piece p);      // also maintains hash and king squares
  void clear(Square s) { put(s, kEmpty); }
  Square king_square(Color c) const { return king_[index(c)]; }
  uint64_t hash() const { return hash_; }

  // Jieqi: the true identity of the dark piece on s, or NoType when this position does not know it.
  PieceType identity(Square s) const { return identity_[s]; }
  void set_identity(Square s, PieceType t) { identity_[s] = t; }
  bool identities_known() const;  // every dark piece on the board has a known identity
  // Identities not yet public (dark pieces on the board plus captured dark pieces nobody saw).
  const PieceCounts& pool() const { return pool_; }
  PieceCounts& pool() { return pool_; }

  // Plies since the last capture (FEN field) and the full-move number; informational here, the
  // move-limit logic lives in the game record.
  int halfmove_clock = 0;
  int fullmove_number = 1;

  // --- attacks and legality ---
  bool in_check(Color c) const;  // is the king of colour c attacked (incl. facing kings)?
  bool in_check() const { return in_check(side_); }
  void generate_legal(MoveList& out) const;
  void generate_pseudo(MoveList& out) const;  // obeys piece movement only
  void generate_pseudo_from(Square from, MoveList& out) const;  // the same, for one square's piece
  bool is_legal(Move m) const;                // m must be pseudo-legal
  bool is_pseudo_legal(Move m) const;
  bool has_legal_move() const;
  // Squares from which pieces of colour `by` could capture on `target` (pseudo-legal attacks).
  void attackers(Square target, Color by, std::vector<Square>& out) const;
  bool attacks(Square from, Square target) const;  // can the piece on `from` capture on `target`?

  // --- making moves ---
  // A dark piece's move reveals identity(from) or, if unknown, m.reveal (which must then be set).
  Undo make(Move m);
  void unmake(Move m, const Undo& u);
  // Make/unmake without the Jieqi identity bookkeeping and hash; for legality probes only.
  // Returns the captured piece.
  Piece make_probe(Move m);
  void unmake_probe(Move m, Piece captured);

  bool operator==(const Position& o) const;

 private:
  bool advisor_free(Piece p) const { return variant_ == Variant::Jieqi && !is_dark(p); }
  bool king_attacked_after_probe(Color c) const;
  void add_pseudo_moves(const Geometry& g, Square s, Piece p, MoveList& out) const;

  Piece board_[kSquares];
  PieceType identity_[kSquares];
  PieceCounts pool_{};
  Square king_[2] = {kNoSquare, kNoSquare};
  Color side_ = Color::Red;
  Variant variant_ = Variant::Xiangqi;
  uint64_t hash_ = 0;
};

// The positional type of a start square (what a dark piece there moves like), NoType elsewhere.
PieceType start_square_type(Square s);
// The 15 non-king start squares of colour c, in the fixed order a0 b0 c0 d0 f0 g0 h0 i0 b2 h2 a3
// c3 e3 g3 i3 (mirrored ranks for Black).
const std::array<Square, 15>& dark_squares(Color c);

}  // namespace xq
