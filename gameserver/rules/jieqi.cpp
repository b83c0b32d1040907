#include "jieqi.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <set>
#include <sstream>
#include <vector>

namespace xq {

namespace {

const std::array<PieceType, 15> kStandardSet = {Rook, Rook, Horse, Horse, Elephant, Elephant, Advisor, Advisor,
                                                Cannon, Cannon, Pawn, Pawn, Pawn, Pawn, Pawn};

uint64_t csprng_u64() {
  uint64_t v;
  if (RAND_bytes(reinterpret_cast<unsigned char*>(&v), sizeof v) != 1) throw std::runtime_error("CSPRNG failure");
  return v;
}

// Uniform integer in [0, n) from the CSPRNG, without modulo bias.
uint64_t csprng_below(uint64_t n) {
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  for (;;)
    if (uint64_t v = csprng_u64(); v < limit) return v % n;
}

std::string to_hex(const unsigned char* data, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) out += digits[data[i] >> 4], out += digits[data[i] & 15];
  return out;
}

}  // namespace

std::string Assignment::to_string() const {
  std::string out;
  for (int i = 0; i < 30; ++i) {
    char l = piece_letter(types[i]);
    out += i < 15 ? l : static_cast<char>(std::tolower(l));
  }
  return out;
}

Assignment Assignment::from_string(const std::string& s) {
  if (s.size() != 30) throw std::invalid_argument("an assignment has 30 letters");
  Assignment a;
  std::array<int, kPieceTypes> counts[2] = {};
  for (int i = 0; i < 30; ++i) {
    PieceType t = piece_type_from_letter(s[i]);
    bool upper = std::isupper(static_cast<unsigned char>(s[i]));
    if (t == NoType || t == King || upper != (i < 15)) throw std::invalid_argument("bad letter in assignment at position " + std::to_string(i));
    a.types[i] = t;
    ++counts[i < 15 ? 0 : 1][t];
  }
  for (auto& c : counts)
    for (PieceType t : kStandardSet)
      if (c[t] != std::count(kStandardSet.begin(), kStandardSet.end(), t))
        throw std::invalid_argument("an assignment must hold each side's 15 pieces exactly once");
  return a;
}

PieceType Assignment::at(Square s) const {
  for (Color c : {Color::Red, Color::Black}) {
    const auto& squares = dark_squares(c);
    for (int i = 0; i < 15; ++i)
      if (squares[i] == s) return types[index(c) * 15 + i];
  }
  return NoType;
}

Assignment draw_assignment() {
  Assignment a;
  for (int side = 0; side < 2; ++side) {
    std::array<PieceType, 15> set = kStandardSet;
    for (int i = 14; i > 0; --i) std::swap(set[i], set[csprng_below(static_cast<uint64_t>(i) + 1)]);
    std::copy(set.begin(), set.end(), a.types.begin() + side * 15);
  }
  return a;
}

std::string random_hex(size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  if (RAND_bytes(buf.data(), static_cast<int>(bytes)) != 1) throw std::runtime_error("CSPRNG failure");
  return to_hex(buf.data(), bytes);
}

std::string sha256_hex(const std::string& data) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), md, &len, EVP_sha256(), nullptr);
  return to_hex(md, len);
}

std::string commitment(const Assignment& a, const std::string& salt_hex) {
  return sha256_hex("jieqi-commit-v1|" + a.to_string() + "|" + salt_hex);
}

bool verify_commitment(const std::string& commitment_hex, const std::string& assignment, const std::string& salt_hex) {
  try {
    return commitment(Assignment::from_string(assignment), salt_hex) == commitment_hex;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

void apply_assignment(Position& pos, const Assignment& a) {
  for (Square s = 0; s < kSquares; ++s)
    if (is_dark(pos.at(s))) pos.set_identity(s, a.at(s));
}

void apply_hidden_list(Position& pos, const std::string& list) {
  std::stringstream in(list);
  std::set<Square> seen;
  int given[2][kPieceTypes] = {};
  for (std::string item; std::getline(in, item, ',');) {
    item.erase(std::remove_if(item.begin(), item.end(), [](unsigned char c) { return std::isspace(c); }), item.end());
    if (item.empty()) continue;
    Square s = parse_square(item, 0);
    if (s == kNoSquare || item.size() != 4 || item[2] != '=')
      throw std::invalid_argument("bad hidden entry '" + item + "' (expected like a0=P)");
    PieceType t = piece_type_from_letter(item[3]);
    if (t == NoType || t == King) throw std::invalid_argument("bad piece letter in hidden entry '" + item + "'");
    Piece p = pos.at(s);
    if (!is_dark(p)) throw std::invalid_argument("hidden entry '" + item + "': no face-down piece on " + square_name(s));
    Color c = std::isupper(static_cast<unsigned char>(item[3])) ? Color::Red : Color::Black;
    if (color_of(p) != c) throw std::invalid_argument("hidden entry '" + item + "': wrong colour for the piece on " + square_name(s));
    if (!seen.insert(s).second) throw std::invalid_argument("hidden entry '" + item + "': " + square_name(s) + " is given twice");
    // No more of a type than the face-down pieces can still be (the pool: the game's pieces less
    // those face up).
    if (++given[index(c)][t] > pos.pool()[index(c)][t])
      throw std::invalid_argument("hidden entry '" + item + "': more " + (c == Color::Red ? "Red" : "Black") + " '" +
                                  std::string(1, item[3]) + "' than the pool holds (" +
                                  std::to_string(pos.pool()[index(c)][t]) + ")");
    pos.set_identity(s, t);
  }
}

void assign_from_pool(Position& pos, uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (Color c : {Color::Red, Color::Black}) {
    std::vector<PieceType> bag;
    auto pool = pos.pool()[index(c)];
    std::vector<Square> unknown;
    for (Square s = 0; s < kSquares; ++s) {
      Piece p = pos.at(s);
      if (!is_dark(p) || color_of(p) != c) continue;
      if (pos.identity(s) == NoType) unknown.push_back(s);
      else if (pool[pos.identity(s)] > 0) --pool[pos.identity(s)];
    }
    for (int t = Advisor; t <= Pawn; ++t) bag.insert(bag.end(), pool[t], static_cast<PieceType>(t));
    if (bag.size() < unknown.size()) throw std::invalid_argument("the pool has fewer identities than face-down pieces");
    std::shuffle(bag.begin(), bag.end(), rng);
    for (size_t i = 0; i < unknown.size(); ++i) pos.set_identity(unknown[i], bag[i]);
  }
}

}  // namespace xq
