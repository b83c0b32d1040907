// Jieqi hidden identities: the secret assignment, its CSPRNG draw, the SHA-256 commitment, and
// the parsing of fixed assignments used by tests and the xq tool.
#pragma once
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "position.h"

namespace xq {

// The true identity of each face-down piece at the start: index i < 15 is Red's dark_squares(Red)[i],
// index 15 + i is Black's dark_squares(Black)[i].
struct Assignment {
  std::array<PieceType, 30> types{};
  // 30 letters, uppercase Red then lowercase Black, in dark_squares order ("PCRNAPBRANCPBPP...").
  std::string to_string() const;
  static Assignment from_string(const std::string& s);  // throws std::invalid_argument
  PieceType at(Square s) const;                          // NoType if s is not a start square
  bool operator==(const Assignment&) const = default;
};

// A uniformly random assignment (each side shuffled independently) from the OS CSPRNG.
Assignment draw_assignment();
// Random bytes from the OS CSPRNG, hex-encoded.
std::string random_hex(size_t bytes);

// SHA-256 (hex) of "jieqi-commit-v1|<assignment>|<salt>": published at game start.
std::string commitment(const Assignment& a, const std::string& salt_hex);
bool verify_commitment(const std::string& commitment_hex, const std::string& assignment, const std::string& salt_hex);
std::string sha256_hex(const std::string& data);

// Sets the identity of every dark piece on pos from the assignment (only squares that still hold a
// face-down piece of the right colour).
void apply_assignment(Position& pos, const Assignment& a);

// Parses "a0=P,b0=C,…" (uppercase Red, lowercase Black) and fixes those identities on pos. Throws
// std::invalid_argument naming the bad entry.
void apply_hidden_list(Position& pos, const std::string& list);
// Gives every dark piece whose identity is unknown an identity drawn from pos's pool with a
// deterministic generator seeded by `seed` (for tools and tests, not for live games).
void assign_from_pool(Position& pos, uint64_t seed);

}  // namespace xq
