#pragma once
// Fixed-width signed integer (two's complement, little-endian 64-bit limbs).
// Pairing weights pack many lexicographic criteria as bit fields, which can
// need several hundred bits for large events; this keeps them exact.
#include <array>
#include <cstdint>
#include <string>

namespace xq::pairing {

template <int L>
struct Wide {
  std::array<std::uint64_t, L> limb{};

  static Wide from_int(std::int64_t x) {
    Wide w;
    w.limb[0] = static_cast<std::uint64_t>(x);
    for (int i = 1; i < L; ++i) w.limb[i] = x < 0 ? ~0ULL : 0ULL;
    return w;
  }
  // Adds value << offset (value must fit in 64 bits).
  void add_field(std::uint64_t value, int offset) {
    int li = offset / 64, sh = offset % 64;
    if (li >= L || value == 0) return;
    Wide t;
    t.limb[li] = value << sh;
    if (sh != 0 && li + 1 < L) t.limb[li + 1] = value >> (64 - sh);
    *this = *this + t;
  }
  bool negative() const { return (limb[L - 1] >> 63) != 0; }

  friend Wide operator+(const Wide& a, const Wide& b) {
    Wide r;
    unsigned carry = 0;
    for (int i = 0; i < L; ++i) {
      std::uint64_t s = a.limb[i] + b.limb[i];
      unsigned c1 = s < a.limb[i];
      std::uint64_t s2 = s + carry;
      unsigned c2 = s2 < s;
      r.limb[i] = s2;
      carry = c1 | c2;
    }
    return r;
  }
  friend Wide operator-(const Wide& a, const Wide& b) {
    Wide r;
    unsigned borrow = 0;
    for (int i = 0; i < L; ++i) {
      std::uint64_t d = a.limb[i] - b.limb[i];
      unsigned b1 = a.limb[i] < b.limb[i];
      std::uint64_t d2 = d - borrow;
      unsigned b2 = d < static_cast<std::uint64_t>(borrow);
      r.limb[i] = d2;
      borrow = b1 | b2;
    }
    return r;
  }
  Wide& operator+=(const Wide& o) { return *this = *this + o; }
  Wide& operator-=(const Wide& o) { return *this = *this - o; }
  friend bool operator==(const Wide& a, const Wide& b) { return a.limb == b.limb; }
  friend bool operator<(const Wide& a, const Wide& b) {
    bool na = a.negative(), nb = b.negative();
    if (na != nb) return na;
    for (int i = L - 1; i >= 0; --i)
      if (a.limb[i] != b.limb[i]) return a.limb[i] < b.limb[i];
    return false;
  }
  friend bool operator<=(const Wide& a, const Wide& b) { return !(b < a); }
  friend bool operator>(const Wide& a, const Wide& b) { return b < a; }
  Wide twice() const { return *this + *this; }
  // Floor division by two (arithmetic shift).
  Wide half() const {
    Wide r;
    for (int i = 0; i < L; ++i) {
      std::uint64_t hi = (i + 1 < L) ? limb[i + 1] : (negative() ? ~0ULL : 0ULL);
      r.limb[i] = (limb[i] >> 1) | (hi << 63);
    }
    return r;
  }
  // Extracts bits [offset, offset+bits) of a non-negative value (bits <= 64).
  std::uint64_t field(int offset, int bits) const {
    std::uint64_t out = 0;
    for (int b = 0; b < bits; ++b) {
      int pos = offset + b, li = pos / 64;
      if (li >= L) break;
      out |= ((limb[li] >> (pos % 64)) & 1ULL) << b;
    }
    return out;
  }
  std::string hex() const {
    static const char* d = "0123456789abcdef";
    std::string s;
    for (int i = L - 1; i >= 0; --i)
      for (int k = 15; k >= 0; --k) s += d[(limb[i] >> (4 * k)) & 15];
    return s;
  }
};

}  // namespace xq::pairing
