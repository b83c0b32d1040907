#include "notation.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace xq {

namespace {

const char* const kRedNumerals[10] = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九"};
const char* const kBlackNumerals[10] = {"", "１", "２", "３", "４", "５", "６", "７", "８", "９"};

// Files are numbered from each player's right: Red's file a is 9, Black's file a is 1.
int file_number(Color c, Square s) { return c == Color::Red ? 9 - file_of(s) : file_of(s) + 1; }
// How far "forward" (towards the enemy) a square is for colour c.
int forwardness(Color c, Square s) { return c == Color::Red ? rank_of(s) : 9 - rank_of(s); }

bool moves_diagonally(PieceType t) { return t == Advisor || t == Elephant || t == Horse; }

struct Parts {
  Color color;
  PieceType type;
  // Tandem pieces on one file: rank of the mover among them counted from the front (0-based) and
  // how many there are; 1 = no tandem.
  int order = 0, count = 1;
  // Another file also holds tandem pieces of this kind (soldiers only: no other kind has more
  // than two): the origin file is then written too (§8.2).
  bool two_files = false;
  int from_file;  // file number of the origin
  char direction;  // '+', '-', '='
  int amount;      // ranks moved or destination file number
};

// A face-down piece's move whose identity is given: the notation says what it turned out to be.
bool reveals(const Position& before, Move m) { return m.reveal != NoType && is_dark(before.at(m.from)); }

Parts analyse(const Position& pos, Move m) {
  Piece p = pos.at(m.from);
  Parts parts{color_of(p), type_of(p), 0, 1, false, 0, '=', 0};
  const Color c = parts.color;
  parts.from_file = file_number(c, m.from);
  // Tandem detection: same colour and displayed type on the origin file. Xiangqi advisors and
  // elephants never need it (their direction already tells them apart).
  bool tandem_matters = !(pos.variant() == Variant::Xiangqi && (parts.type == Advisor || parts.type == Elephant));
  if (tandem_matters) {
    std::vector<Square> same;
    for (int r = 0; r < kRanks; ++r) {
      Square s = make_square(file_of(m.from), r);
      Piece q = pos.at(s);
      if (q && color_of(q) == c && type_of(q) == parts.type) same.push_back(s);
    }
    if (same.size() > 1) {
      std::sort(same.begin(), same.end(), [&](Square a, Square b) { return forwardness(c, a) > forwardness(c, b); });
      parts.count = static_cast<int>(same.size());
      parts.order = static_cast<int>(std::find(same.begin(), same.end(), Square(m.from)) - same.begin());
      for (int f = 0; f < kFiles && !parts.two_files; ++f) {
        if (f == file_of(m.from)) continue;
        int n = 0;
        for (int r = 0; r < kRanks; ++r)
          if (Piece q = pos.at(make_square(f, r)); q && color_of(q) == c && type_of(q) == parts.type) ++n;
        parts.two_files = n > 1;
      }
    }
  }
  int gain = forwardness(c, m.to) - forwardness(c, m.from);
  if (gain == 0) {
    parts.direction = '=';
    parts.amount = file_number(c, m.to);
  } else {
    parts.direction = gain > 0 ? '+' : '-';
    parts.amount = moves_diagonally(parts.type) ? file_number(c, m.to) : std::abs(gain);
  }
  return parts;
}

}  // namespace

char wxf_piece_letter(PieceType t) {
  switch (t) {
    case King: return 'K';
    case Advisor: return 'A';
    case Elephant: return 'E';
    case Horse: return 'H';
    case Rook: return 'R';
    case Cannon: return 'C';
    case Pawn: return 'P';
    default: return '?';
  }
}

std::string chinese_piece_name(Color c, PieceType t) {
  static const char* const red[] = {"", "帅", "仕", "相", "马", "车", "炮", "兵"};
  static const char* const black[] = {"", "将", "士", "象", "马", "车", "炮", "卒"};
  return (c == Color::Red ? red : black)[t & 7];
}

std::string to_chinese(const Position& before, Move m) {
  Parts p = analyse(before, m);
  const char* const* numerals = p.color == Color::Red ? kRedNumerals : kBlackNumerals;
  std::string out;
  if (p.count == 1) {
    out = chinese_piece_name(p.color, p.type) + numerals[p.from_file];
  } else {
    static const char* const two[] = {"前", "后"};
    static const char* const three[] = {"前", "中", "后"};
    // Up to six in Jieqi: five revealed soldiers and the face-down piece on the file's soldier square.
    static const char* const many[] = {"一", "二", "三", "四", "五", "六"};
    const char* marker = p.count == 2 ? two[p.order] : p.count == 3 ? three[p.order] : many[std::min(p.order, 5)];
    // Tandem soldiers on two files: the file takes the piece name's place (前七进一).
    out = std::string(marker) + (p.two_files ? std::string(numerals[p.from_file]) : chinese_piece_name(p.color, p.type));
  }
  out += p.direction == '+' ? "进" : p.direction == '-' ? "退" : "平";
  out += numerals[p.amount];
  if (reveals(before, m)) out += "(翻" + chinese_piece_name(p.color, m.reveal) + ")";
  return out;
}

std::string to_wxf(const Position& before, Move m) {
  Parts p = analyse(before, m);
  std::string out(1, wxf_piece_letter(p.type));
  if (p.two_files) {  // tandem soldiers on two files: place from the front, then the file (26=5)
    out = std::string(1, static_cast<char>('1' + p.order)) + static_cast<char>('0' + p.from_file);
  } else if (p.count == 1) {
    out += static_cast<char>('0' + p.from_file);
  } else if (p.count == 2) {
    out += p.order == 0 ? '+' : '-';
  } else {
    out += static_cast<char>('a' + p.order);  // a = frontmost of three or more
  }
  out += p.direction;
  out += static_cast<char>('0' + p.amount);
  if (reveals(before, m)) out += std::string("=") + static_cast<char>(std::tolower(static_cast<unsigned char>(wxf_piece_letter(m.reveal))));
  return out;
}

}  // namespace xq
