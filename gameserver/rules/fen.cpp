#include "fen.h"

#include <cctype>
#include <sstream>
#include <vector>

namespace xq {

const char* const kXiangqiStartFen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
const char* const kJieqiStartFen =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2A2C2P5N2B2r2a2c2p5n2b2 0 1";

namespace {

constexpr int kMaxCount[kPieceTypes] = {0, 1, 2, 2, 2, 2, 2, 5};
constexpr PieceType kPoolOrder[6] = {Rook, Advisor, Cannon, Pawn, Horse, Elephant};

bool is_number(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return s.size() < 7;
}

// A field as an error message quotes it: at most 32 bytes (then "…"), never cut inside a UTF-8
// character, so a long or non-ASCII field gives a short, readable message.
std::string quoted(const std::string& s) {
  if (s.size() <= 32) return "'" + s + "'";
  size_t n = 32;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return "'" + s.substr(0, n) + "…' (" + std::to_string(s.size()) + " bytes)";
}

// The whole UTF-8 character starting at s[i] (one byte for ASCII or a stray byte).
std::string character_at(const std::string& s, size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  const size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  return s.substr(i, len);
}

}  // namespace

std::string pool_to_string(const PieceCounts& pool) {
  std::string out;
  for (Color c : {Color::Red, Color::Black})
    for (PieceType t : kPoolOrder)
      if (int n = pool[index(c)][t]; n > 0) {
        char l = piece_letter(t);
        out += c == Color::Red ? l : static_cast<char>(std::tolower(l));
        out += std::to_string(n);
      }
  return out.empty() ? "-" : out;
}

PieceCounts parse_pool(const std::string& s) {
  PieceCounts pool{};
  if (s == "-") return pool;
  for (size_t i = 0; i < s.size();) {
    char l = s[i];
    PieceType t = piece_type_from_letter(l);
    if (t == NoType || t == King) throw FenError("bad piece letter '" + character_at(s, i) + "' in the Jieqi pool field");
    Color c = std::isupper(static_cast<unsigned char>(l)) ? Color::Red : Color::Black;
    size_t j = ++i;
    while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j]))) ++j;
    if (j - i > 2) throw FenError("the count after '" + std::string(1, l) + "' in the Jieqi pool field has more than two digits");
    int n = j == i ? 1 : std::stoi(s.substr(i, j - i));
    // Counted together over repeated letters ("PPP" = P3), so no total can exceed the set.
    if (pool[index(c)][t] + n > kMaxCount[t]) throw FenError("too many '" + std::string(1, l) + "' in the Jieqi pool field");
    pool[index(c)][t] = static_cast<uint8_t>(pool[index(c)][t] + n);
    i = j;
  }
  return pool;
}

static const char* piece_name(PieceType t) {
  switch (t) {
    case Advisor: return "advisor";
    case Elephant: return "elephant";
    case Pawn: return "soldier";
    default: return "piece";
  }
}

Position parse_fen(const std::string& fen, Variant variant) {
  std::istringstream in(fen);
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  if (fields.empty()) throw FenError("empty FEN");
  const std::string& board = fields[0];
  // Face-down pieces exist only in Jieqi: a Xiangqi FEN with them is an error, not a switch of
  // variant (that mixed the games' rules: Jieqi moves under Xiangqi's move limit).
  if (variant == Variant::Xiangqi && board.find_first_of("Xx") != std::string::npos)
    throw FenError("face-down pieces (X/x) are Jieqi's: use the jieqi variant");

  Position pos;
  pos.set_variant(variant);
  int rank = 9, file = 0;
  int counts[2][kPieceTypes] = {};
  int dark_count[2] = {0, 0};
  for (size_t i = 0; i < board.size(); ++i) {
    char ch = board[i];
    if (ch == '/') {
      if (file != 9) throw FenError("rank " + std::to_string(rank) + " of the FEN board has " + std::to_string(file) + " files, not 9");
      if (--rank < 0) throw FenError("the FEN board has more than 10 ranks");
      file = 0;
    } else if (ch >= '1' && ch <= '9') {
      // "45" is not 9 empty squares: a FEN writes each run of empty squares as one digit.
      if (i > 0 && board[i - 1] >= '1' && board[i - 1] <= '9')
        throw FenError("rank " + std::to_string(rank) + " of the FEN board has two digits in a row ('" +
                       board.substr(i - 1, 2) + "'): write a run of empty squares as one digit");
      file += ch - '0';
      if (file > 9) throw FenError("rank " + std::to_string(rank) + " of the FEN board has more than 9 files");
    } else {
      if (file >= 9) throw FenError("rank " + std::to_string(rank) + " of the FEN board has more than 9 files");
      Color c = std::isupper(static_cast<unsigned char>(ch)) ? Color::Red : Color::Black;
      Square s = make_square(file, rank);
      if (ch == 'X' || ch == 'x') {
        PieceType t = start_square_type(s);
        bool own_half = c == Color::Red ? rank <= 4 : rank >= 5;
        if (t == NoType || !own_half)
          throw FenError("face-down piece '" + std::string(1, ch) + "' on " + square_name(s) + ", which is not one of its side's start squares");
        pos.put(s, make_piece(c, t, true));
        ++dark_count[index(c)];
      } else {
        PieceType t = piece_type_from_letter(ch);
        if (t == NoType) throw FenError("bad character '" + character_at(board, i) + "' in the FEN board");
        pos.put(s, make_piece(c, t));
        ++counts[index(c)][t];
      }
      ++file;
    }
  }
  if (rank != 0 || file != 9) throw FenError("the FEN board must have 10 ranks of 9 files");

  for (Color c : {Color::Red, Color::Black}) {
    const char* name = c == Color::Red ? "Red" : "Black";
    if (counts[index(c)][King] != 1) throw FenError(std::string(name) + " must have exactly one king");
    if (!in_palace(c, pos.king_square(c))) throw FenError(std::string(name) + "'s king is outside its palace");
    for (int t = Advisor; t <= Pawn; ++t)
      if (counts[index(c)][t] > kMaxCount[t])
        throw FenError(std::string(name) + " has too many pieces of type '" + piece_letter(static_cast<PieceType>(t)) + "'");
    if (variant == Variant::Xiangqi) {
      // Squares no piece of that kind can ever reach (in Jieqi revealed advisors and elephants
      // may stand anywhere, so only here).
      for (Square s = 0; s < kSquares; ++s) {
        Piece p = pos.at(s);
        if (!p || color_of(p) != c) continue;
        const int f = file_of(s), r = c == Color::Red ? rank_of(s) : 9 - rank_of(s);  // rank from its own side
        const std::string where = std::string(name) + " " + piece_name(type_of(p)) + " on " + square_name(s);
        if (type_of(p) == Pawn && !crossed_river(c, s) && (r < 3 || f % 2 == 1))
          throw FenError(where + ": a soldier cannot get there (behind its start rank, or sideways before the river)");
        if (type_of(p) == Advisor && !((r == 0 || r == 2) ? (f == 3 || f == 5) : (r == 1 && f == 4)))
          throw FenError(where + ": advisors stand only on the palace's five points");
        if (type_of(p) == Elephant && !(((r == 0 || r == 4) && (f == 2 || f == 6)) || (r == 2 && f % 4 == 0)))
          throw FenError(where + ": elephants stand only on their seven points on their own side");
      }
    }
  }

  Color side = Color::Red;
  if (fields.size() >= 2) {
    const std::string& s = fields[1];
    if (s == "w" || s == "r" || s == "W" || s == "R") side = Color::Red;
    else if (s == "b" || s == "B") side = Color::Black;
    else throw FenError("side to move must be 'w' or 'b', not " + quoted(s));
  }
  pos.set_side_to_move(side);

  // Remaining fields: an optional pool (Jieqi), placeholders '-', then halfmove and fullmove.
  std::vector<std::string> numbers;
  bool have_pool = false;
  for (size_t i = 2; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (is_number(f)) { numbers.push_back(f); continue; }
    if (f.find_first_not_of("+-0123456789") == std::string::npos && f.find_first_of("0123456789") != std::string::npos)
      throw FenError("move counter " + quoted(f) + " out of range (a whole number from 0 to 999999)");
    if (!numbers.empty()) throw FenError("unexpected FEN field " + quoted(f) + " after the move counters");
    if (f == "-") {
      // Jieqi: "-" in the pool's place is an empty pool (what to_fen writes when nothing is
      // hidden); with face-down pieces on the board it can only be a placeholder.
      if (variant == Variant::Jieqi && i == 2 && dark_count[0] + dark_count[1] == 0) have_pool = true;
      continue;
    }
    if (variant != Variant::Jieqi || have_pool) throw FenError("unexpected FEN field " + quoted(f));
    pos.pool() = parse_pool(f);
    have_pool = true;
  }
  if (numbers.size() > 2) throw FenError("too many FEN fields");
  if (numbers.size() >= 1) pos.halfmove_clock = std::stoi(numbers[0]);
  if (numbers.size() == 2) pos.fullmove_number = std::max(1, std::stoi(numbers[1]));

  if (variant == Variant::Jieqi) {
    for (Color c : {Color::Red, Color::Black}) {
      auto& pool = pos.pool()[index(c)];
      if (!have_pool)  // identities not on the board face-up are assumed unknown
        for (int t = Advisor; t <= Pawn; ++t)
          pool[t] = static_cast<uint8_t>(std::max(0, kMaxCount[t] - counts[index(c)][t]));
      int total = 0;
      for (int t = Advisor; t <= Pawn; ++t) {
        total += pool[t];
        if (pool[t] + counts[index(c)][t] > kMaxCount[t])
          throw FenError(std::string(c == Color::Red ? "Red" : "Black") + " has more '" +
                         piece_letter(static_cast<PieceType>(t)) + "' on the board and in the pool than the game has");
      }
      if (total < dark_count[index(c)])
        throw FenError(std::string(c == Color::Red ? "Red" : "Black") + "'s pool is smaller than its number of face-down pieces");
    }
  }
  if (pos.in_check(opposite(side))) throw FenError("the side not to move is in check");
  return pos;
}

std::string to_fen(const Position& pos) {
  std::string out;
  for (int r = 9; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 9; ++f) {
      Piece p = pos.at(make_square(f, r));
      if (!p) { ++empty; continue; }
      if (empty) out += static_cast<char>('0' + empty), empty = 0;
      char l = is_dark(p) ? 'X' : piece_letter(type_of(p));
      out += color_of(p) == Color::Red ? l : static_cast<char>(std::tolower(l));
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (r) out += '/';
  }
  out += pos.side_to_move() == Color::Red ? " w " : " b ";
  out += pos.variant() == Variant::Jieqi ? pool_to_string(pos.pool()) : "- -";
  out += " " + std::to_string(pos.halfmove_clock) + " " + std::to_string(pos.fullmove_number);
  return out;
}

}  // namespace xq
