// The board's symmetries, for property tests: the rules know no left or right, and no colour.
// A position mirrored left-right (file a <-> i), or turned 180° with the colours swapped (and the
// side to move), must have the same moves, perft counts, labels and verdicts (losers swapped).
#pragma once
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#include "rules/fen.h"
#include "rules/position.h"

namespace xq::test {

struct BoardTransform {
  bool mirror = false;   // file a <-> i
  bool colours = false;  // turn the board 180° and swap the colours (and the side to move)
  const char* name() const {
    return mirror && colours ? "mirrored, colours swapped" : mirror ? "mirrored" : colours ? "colours swapped" : "as is";
  }
};

// The three non-trivial transforms.
inline const BoardTransform kBoardTransforms[] = {{true, false}, {false, true}, {true, true}};

inline char swap_case(char ch) {
  unsigned char u = static_cast<unsigned char>(ch);
  return static_cast<char>(std::isupper(u) ? std::tolower(u) : std::toupper(u));
}

inline Square transform_square(Square s, BoardTransform t) {
  int file = file_of(s), rank = rank_of(s);
  if (t.mirror != t.colours) file = 8 - file;  // a 180° turn mirrors the files too
  if (t.colours) rank = 9 - rank;
  return make_square(file, rank);
}

// "h2e2" -> transformed; a suffix (Jieqi reveal) is kept, its case swapped with the colours.
inline std::string transform_iccs(const std::string& iccs, BoardTransform t) {
  std::string out = square_name(transform_square(static_cast<Square>(parse_square(iccs, 0)), t)) +
                    square_name(transform_square(static_cast<Square>(parse_square(iccs, 2)), t));
  for (size_t i = 4; i < iccs.size(); ++i) out += t.colours ? swap_case(iccs[i]) : iccs[i];
  return out;
}

inline std::string transform_moves(const std::string& moves, BoardTransform t) {
  std::istringstream in(moves);
  std::string w, out;
  while (in >> w) out += (out.empty() ? "" : " ") + transform_iccs(w, t);
  return out;
}

// Board, side to move and (Jieqi) the pool of hidden pieces; the move counters are kept.
inline std::string transform_fen(const std::string& fen, BoardTransform t) {
  std::istringstream in(fen);
  std::string board, side, rest, field;
  in >> board >> side;
  std::vector<std::string> tail;
  while (in >> field) tail.push_back(field);
  std::vector<std::string> ranks;  // expanded, '.' = empty
  std::string cur;
  for (char ch : board + "/") {
    if (ch == '/') {
      ranks.push_back(cur);
      cur.clear();
    } else if (ch >= '1' && ch <= '9') {
      cur.append(static_cast<size_t>(ch - '0'), '.');
    } else {
      cur += ch;
    }
  }
  if (t.colours) std::reverse(ranks.begin(), ranks.end());
  std::string out;
  for (size_t i = 0; i < ranks.size(); ++i) {
    std::string r = ranks[i];
    if (t.mirror != t.colours) std::reverse(r.begin(), r.end());
    if (t.colours) std::transform(r.begin(), r.end(), r.begin(), swap_case);
    int empty = 0;
    for (char ch : r) {
      if (ch == '.') {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += ch;
    }
    if (empty) out += std::to_string(empty);
    if (i + 1 < ranks.size()) out += '/';
  }
  if (t.colours) side = side == "w" ? "b" : "w";
  out += " " + side;
  for (size_t i = 0; i < tail.size(); ++i) {
    std::string f = tail[i];
    if (i == 0 && t.colours && !f.empty() && std::isalpha(static_cast<unsigned char>(f[0])))  // Jieqi pool
      std::transform(f.begin(), f.end(), f.begin(), swap_case);
    out += " " + f;
  }
  return out;
}

// The position transformed, with the Jieqi identities of its dark pieces carried along.
inline Position transform_position(const Position& pos, BoardTransform t) {
  Position out = parse_fen(transform_fen(to_fen(pos), t), pos.variant());
  for (Square s = 0; s < kSquares; ++s)
    if (pos.identity(s) != NoType) out.set_identity(transform_square(s, t), pos.identity(s));
  return out;
}

}  // namespace xq::test
