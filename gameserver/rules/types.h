// Basic vocabulary of the rules library: colours, piece types, squares, moves.
#pragma once
#include <cstdint>
#include <string>

namespace xq {

enum class Color : uint8_t { Red = 0, Black = 1 };
constexpr Color opposite(Color c) { return c == Color::Red ? Color::Black : Color::Red; }
constexpr int index(Color c) { return static_cast<int>(c); }

enum class Variant : uint8_t { Xiangqi, Jieqi };

// Piece types; a face-down Jieqi piece carries the type of its start square ("positional type").
enum PieceType : uint8_t { NoType = 0, King = 1, Advisor, Elephant, Horse, Rook, Cannon, Pawn };
constexpr int kPieceTypes = 8;

// A piece in one byte: bits 0-2 type, bit 3 black, bit 4 face-down (dark). 0 = empty square.
using Piece = uint8_t;
constexpr Piece kEmpty = 0;
constexpr Piece kBlackBit = 8;
constexpr Piece kDarkBit = 16;
constexpr Piece make_piece(Color c, PieceType t, bool dark = false) {
  return static_cast<Piece>(t | (c == Color::Black ? kBlackBit : 0) | (dark ? kDarkBit : 0));
}
constexpr PieceType type_of(Piece p) { return static_cast<PieceType>(p & 7); }
constexpr Color color_of(Piece p) { return (p & kBlackBit) ? Color::Black : Color::Red; }
constexpr bool is_dark(Piece p) { return (p & kDarkBit) != 0; }

// Squares: file 0..8 (a..i) from Red's left, rank 0..9 from Red's back rank. sq = rank * 9 + file.
using Square = int;
constexpr int kFiles = 9, kRanks = 10, kSquares = 90;
constexpr Square kNoSquare = -1;
constexpr Square make_square(int file, int rank) { return rank * kFiles + file; }
constexpr int file_of(Square s) { return s % kFiles; }
constexpr int rank_of(Square s) { return s / kFiles; }
// On one file or one rank.
constexpr bool aligned(Square a, Square b) { return file_of(a) == file_of(b) || rank_of(a) == rank_of(b); }
constexpr bool diagonal_neighbours(Square a, Square b) {
  return (file_of(a) - file_of(b) == 1 || file_of(b) - file_of(a) == 1) &&
         (rank_of(a) - rank_of(b) == 1 || rank_of(b) - rank_of(a) == 1);
}
// Has a piece of colour c on square s crossed the river (stands on the enemy half)?
constexpr bool crossed_river(Color c, Square s) {
  return c == Color::Red ? rank_of(s) >= 5 : rank_of(s) <= 4;
}
constexpr bool in_palace(Color c, Square s) {
  int f = file_of(s), r = rank_of(s);
  return f >= 3 && f <= 5 && (c == Color::Red ? r <= 2 : r >= 7);
}

// A move. `reveal` is the identity a Jieqi dark piece turns out to be (NoType for ordinary moves
// and for moves whose reveal is not yet known to the caller).
struct Move {
  uint8_t from = 0, to = 0;
  PieceType reveal = NoType;
  constexpr bool operator==(const Move& o) const { return from == o.from && to == o.to; }
};

char piece_letter(PieceType t);              // 'K','A','B','N','R','C','P'
PieceType piece_type_from_letter(char c);    // accepts K A B E N H R C P (any case); NoType if bad
std::string square_name(Square s);           // "e0"
Square parse_square(const std::string& s, size_t pos = 0);  // kNoSquare if bad
std::string to_iccs(Move m);                 // "h2e2"

}  // namespace xq
