#include "position.h"

#include <cstring>
#include <stdexcept>

#include "geometry.h"

namespace xq {

namespace {
constexpr PieceType kBackRank[9] = {Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook};
}

char piece_letter(PieceType t) {
  static const char letters[] = "?KABNRCP";
  return letters[t & 7];
}

PieceType piece_type_from_letter(char c) {
  switch (c | 0x20) {
    case 'k': return King;
    case 'a': return Advisor;
    case 'b': case 'e': return Elephant;
    case 'n': case 'h': return Horse;
    case 'r': return Rook;
    case 'c': return Cannon;
    case 'p': return Pawn;
    default: return NoType;
  }
}

std::string square_name(Square s) {
  return {static_cast<char>('a' + file_of(s)), static_cast<char>('0' + rank_of(s))};
}

Square parse_square(const std::string& s, size_t pos) {
  if (pos + 2 > s.size()) return kNoSquare;
  char f = s[pos], r = s[pos + 1];
  if (f >= 'A' && f <= 'I') f = static_cast<char>(f - 'A' + 'a');
  if (f < 'a' || f > 'i' || r < '0' || r > '9') return kNoSquare;
  return make_square(f - 'a', r - '0');
}

std::string to_iccs(Move m) { return square_name(m.from) + square_name(m.to); }

PieceType start_square_type(Square s) {
  int f = file_of(s), r = rank_of(s);
  if (r == 0 || r == 9) return kBackRank[f] == King ? NoType : kBackRank[f];
  if ((r == 2 || r == 7) && (f == 1 || f == 7)) return Cannon;
  if ((r == 3 || r == 6) && f % 2 == 0) return Pawn;
  return NoType;
}

const std::array<Square, 15>& dark_squares(Color c) {
  static const auto build = [](Color col) {
    std::array<Square, 15> out{};
    const int files[15] = {0, 1, 2, 3, 5, 6, 7, 8, 1, 7, 0, 2, 4, 6, 8};
    const int ranks[15] = {0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 3, 3, 3, 3, 3};
    for (int i = 0; i < 15; ++i) out[i] = make_square(files[i], col == Color::Red ? ranks[i] : 9 - ranks[i]);
    return out;
  };
  static const std::array<Square, 15> red = build(Color::Red), black = build(Color::Black);
  return c == Color::Red ? red : black;
}

Position::Position() {
  std::memset(board_, 0, sizeof board_);
  for (auto& t : identity_) t = NoType;
}

void Position::set_side_to_move(Color c) {
  if (c != side_) hash_ ^= geometry().zobrist_black_to_move;
  side_ = c;
}

void Position::put(Square s, Piece p) {
  const auto& g = geometry();
  Piece old = board_[s];
  if (old) {
    hash_ ^= g.zobrist[old][s];
    if (type_of(old) == King && king_[index(color_of(old))] == s) king_[index(color_of(old))] = kNoSquare;
  }
  board_[s] = p;
  if (p) {
    hash_ ^= g.zobrist[p][s];
    if (type_of(p) == King) king_[index(color_of(p))] = s;
  }
}

Position Position::xiangqi_start() {
  Position p;
  for (int f = 0; f < 9; ++f) {
    p.put(make_square(f, 0), make_piece(Color::Red, kBackRank[f]));
    p.put(make_square(f, 9), make_piece(Color::Black, kBackRank[f]));
  }
  for (int f : {1, 7}) {
    p.put(make_square(f, 2), make_piece(Color::Red, Cannon));
    p.put(make_square(f, 7), make_piece(Color::Black, Cannon));
  }
  for (int f = 0; f < 9; f += 2) {
    p.put(make_square(f, 3), make_piece(Color::Red, Pawn));
    p.put(make_square(f, 6), make_piece(Color::Black, Pawn));
  }
  return p;
}

Position Position::jieqi_start() {
  Position p;
  p.variant_ = Variant::Jieqi;
  for (Color c : {Color::Red, Color::Black}) {
    for (Square s : dark_squares(c)) p.put(s, make_piece(c, start_square_type(s), true));
    p.put(make_square(4, c == Color::Red ? 0 : 9), make_piece(c, King));
    auto& pool = p.pool_[index(c)];
    pool[Rook] = pool[Horse] = pool[Elephant] = pool[Advisor] = pool[Cannon] = 2;
    pool[Pawn] = 5;
  }
  return p;
}

bool Position::identities_known() const {
  for (Square s = 0; s < kSquares; ++s)
    if (is_dark(board_[s]) && identity_[s] == NoType) return false;
  return true;
}

Undo Position::make(Move m) {
  Undo u;
  u.moved = board_[m.from];
  u.captured = board_[m.to];
  u.captured_identity = identity_[m.to];
  u.hash = hash_;
  Piece placed = u.moved;
  if (is_dark(u.moved)) {
    PieceType t = identity_[m.from] != NoType ? identity_[m.from] : m.reveal;
    if (t == NoType || t == King) throw std::logic_error("dark piece moved without a known identity");
    u.moved_identity = identity_[m.from];
    identity_[m.from] = NoType;
    Color c = color_of(u.moved);
    placed = make_piece(c, t);
    if (pool_[index(c)][t] > 0) {
      --pool_[index(c)][t];
      u.pool_taken = true;
    }
  }
  identity_[m.to] = NoType;
  put(m.to, placed);
  put(m.from, kEmpty);
  if (side_ == Color::Black) ++fullmove_number;
  set_side_to_move(opposite(side_));
  return u;
}

void Position::unmake(Move m, const Undo& u) {
  set_side_to_move(opposite(side_));
  if (side_ == Color::Black) --fullmove_number;
  if (is_dark(u.moved)) {
    Color c = color_of(u.moved);
    if (u.pool_taken) ++pool_[index(c)][type_of(board_[m.to])];
    identity_[m.from] = u.moved_identity;
  }
  put(m.from, u.moved);
  put(m.to, u.captured);
  identity_[m.to] = u.captured_identity;
  hash_ = u.hash;
}

Piece Position::make_probe(Move m) {
  Piece captured = board_[m.to];
  Piece moved = board_[m.from];
  board_[m.to] = moved;
  board_[m.from] = kEmpty;
  if (type_of(moved) == King) king_[index(color_of(moved))] = m.to;
  if (captured && type_of(captured) == King) king_[index(color_of(captured))] = kNoSquare;
  return captured;
}

void Position::unmake_probe(Move m, Piece captured) {
  Piece moved = board_[m.to];
  board_[m.from] = moved;
  board_[m.to] = captured;
  if (type_of(moved) == King) king_[index(color_of(moved))] = m.from;
  if (captured && type_of(captured) == King) king_[index(color_of(captured))] = m.to;
}

bool Position::operator==(const Position& o) const {
  return std::memcmp(board_, o.board_, sizeof board_) == 0 && side_ == o.side_ && variant_ == o.variant_;
}

}  // namespace xq
