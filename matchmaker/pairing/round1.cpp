#include "pairing/round1.h"

#include <algorithm>
#include <stdexcept>

namespace xq::pairing {

Round1Mode parse_round1_mode(const std::string& s) {
  if (s == "adjacent") return Round1Mode::Adjacent;
  if (s == "adjacent-alternating") return Round1Mode::AdjacentAlternating;
  if (s == "fold") return Round1Mode::Fold;
  if (s == "random") return Round1Mode::Random;
  throw std::invalid_argument("unknown round-1 mode: " + s);
}

const char* round1_mode_name(Round1Mode m) {
  switch (m) {
    case Round1Mode::Adjacent: return "adjacent";
    case Round1Mode::AdjacentAlternating: return "adjacent-alternating";
    case Round1Mode::Fold: return "fold";
    case Round1Mode::Random: return "random";
  }
  return "?";
}

const char* round1_mode_name_zh(Round1Mode m) {
  switch (m) {
    case Round1Mode::Adjacent: return "近号配对（1–2、3–4）";
    case Round1Mode::AdjacentAlternating: return "近号配对（1–2、4–3），先后手交替";
    case Round1Mode::Fold: return "拦腰（1–n/2+1、2–n/2+2）";
    case Round1Mode::Random: return "随机";
  }
  return "?";
}

namespace {

bool forbidden(const Event& ev, int a, int b) {
  for (auto [x, y] : ev.settings.forbidden)
    if ((x == a && y == b) || (x == b && y == a)) return true;
  return false;
}

}  // namespace

std::vector<Board> round1_boards(const Event& ev, const PairingProblem& pp) {
  std::vector<int> order;
  for (int p : pp.players) order.push_back(p);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return number_before(ev, a, b); });
  const Round1Mode mode = ev.settings.round1;
  std::uint64_t rng = mix64(ev.settings.seed ^ 0x726f756e6431ULL);  // "round1"
  if (mode == Round1Mode::Random) {
    for (int i = static_cast<int>(order.size()) - 1; i > 0; --i) {
      rng = mix64(rng);
      std::swap(order[i], order[static_cast<int>(rng % static_cast<std::uint64_t>(i + 1))]);
    }
  }
  int bye = -1;
  if (order.size() % 2 == 1) {
    bye = order.back();
    order.pop_back();
  }
  const int m = static_cast<int>(order.size()) / 2;
  // pairs[k] = (listed first, listed second); first = lower number / upper half.
  std::vector<std::pair<int, int>> pairs;
  for (int k = 0; k < m; ++k) {
    if (mode == Round1Mode::Fold)
      pairs.emplace_back(order[k], order[k + m]);
    else
      pairs.emplace_back(order[2 * k], order[2 * k + 1]);
  }
  // Keep forbidden pairs apart: swap the second player with a later board
  // (or an earlier one) whose swap leaves both boards legal.
  for (int k = 0; k < m; ++k) {
    if (!forbidden(ev, pairs[k].first, pairs[k].second)) continue;
    for (int d = 1; d < m; ++d) {
      int cand[2] = {k + d, k - d};
      bool done = false;
      for (int t : cand) {
        if (t < 0 || t >= m) continue;
        if (!forbidden(ev, pairs[k].first, pairs[t].second) &&
            !forbidden(ev, pairs[t].first, pairs[k].second)) {
          std::swap(pairs[k].second, pairs[t].second);
          done = true;
          break;
        }
      }
      if (done) break;
    }
  }
  std::vector<Board> boards;
  for (int k = 0; k < m; ++k) {
    auto [x, y] = pairs[k];
    int lo = number_before(ev, x, y) ? x : y;
    int hi = lo == x ? y : x;
    bool lower_red = true;
    switch (mode) {
      case Round1Mode::Adjacent: lower_red = true; break;
      case Round1Mode::AdjacentAlternating:
      case Round1Mode::Fold: lower_red = (k % 2 == 0); break;  // odd boards lower number red
      case Round1Mode::Random:
        rng = mix64(rng);
        lower_red = (rng & 1) == 0;  // colours by lot
        break;
    }
    boards.push_back(lower_red ? Board{lo, hi, {}} : Board{hi, lo, {}});
  }
  if (bye >= 0) boards.push_back({bye, kBye, {}});
  return boards;
}

}  // namespace xq::pairing
