#include "pairing/colour.h"

#include <cstdlib>

namespace xq::pairing {

const char* colour_rule_text(ColourRule r) {
  switch (r) {
    case ColourRule::OnlyLegal: return "only legal colours (no 3 in a row, red/black difference <= 2)";
    case ColourRule::MoreRedsTakesBlack: return "the player with more reds (多先) or the longer red run takes black";
    case ColourRule::AlternateLatestDiffering: return "equal balance: alternate from the latest round where their colours differ";
    case ColourRule::HigherRankedPreference: return "identical histories: the higher-ranked player gets his due colour";
    case ColourRule::RoundParity: return "no colour history: odd round lower number red, even round higher number red";
    case ColourRule::TwoGameAlternate: return "two-game round: game-1 colour alternates from the latest round where they differ";
    case ColourRule::TwoGameRoundParity: return "two-game round, same history: odd round lower number red in game 1, even round higher";
    case ColourRule::Round1Mode: return "round-1 mode";
  }
  return "";
}

ColourPref colour_pref(const PlayerState& s) {
  ColourPref p;
  p.diff = s.reds - s.blacks;
  if (!s.colours.empty()) {
    Colour last = s.colours.back();
    int len = 0;
    for (auto it = s.colours.rbegin(); it != s.colours.rend() && *it == last; ++it) ++len;
    p.streak = last == Colour::Red ? len : -len;
  }
  if (s.colours.empty()) return p;
  if (p.diff >= 2 || p.streak >= 2) {
    p.due = Colour::Black, p.strength = PrefStrength::Absolute;
  } else if (p.diff <= -2 || p.streak <= -2) {
    p.due = Colour::Red, p.strength = PrefStrength::Absolute;
  } else if (p.diff == 1) {
    p.due = Colour::Black, p.strength = PrefStrength::Strong;
  } else if (p.diff == -1) {
    p.due = Colour::Red, p.strength = PrefStrength::Strong;
  } else {
    p.due = s.colours.back() == Colour::Red ? Colour::Black : Colour::Red;
    p.strength = PrefStrength::Mild;
  }
  return p;
}

bool colour_violates(const PlayerState& s, Colour c) {
  int diff = s.reds - s.blacks + (c == Colour::Red ? 1 : -1);
  if (std::abs(diff) > 2) return true;
  int n = static_cast<int>(s.colours.size());
  return n >= 2 && s.colours[n - 1] == c && s.colours[n - 2] == c;
}

namespace {

// Match BP's colour state: 100*(reds-blacks) + signed streak; larger takes black.
int colour_state(const ColourPref& p) { return 100 * p.diff + p.streak; }

bool ranks_higher(const Event& ev, const std::vector<PlayerState>& st, int x, int y) {
  if (st[x].score != st[y].score) return st[x].score > st[y].score;
  return number_before(ev, x, y);
}

ColourChoice by_round_parity(const Event& ev, int x, int y, int round, ColourRule rule) {
  int lo = number_before(ev, x, y) ? x : y;
  int hi = lo == x ? y : x;
  if (round % 2 == 1) return {lo, hi, rule};
  return {hi, lo, rule};
}

ColourChoice two_game(const Event& ev, const std::vector<PlayerState>& st, int x, int y,
                      int round) {
  // Each player gets both colours; only game 1 is decided: alternate from the
  // most recent round where their game-1 colours differ.
  const auto& rx = st[x].rounds;
  const auto& ry = st[y].rounds;
  for (int i = static_cast<int>(rx.size()) - 1; i >= 0; --i) {
    Colour cx = rx[i].kind == RoundKind::Played ? rx[i].colour : Colour::None;
    Colour cy = ry[i].kind == RoundKind::Played ? ry[i].colour : Colour::None;
    if (cx == cy) continue;
    if (cx == Colour::Red || cy == Colour::Black) return {y, x, ColourRule::TwoGameAlternate};
    return {x, y, ColourRule::TwoGameAlternate};
  }
  return by_round_parity(ev, x, y, round, ColourRule::TwoGameRoundParity);
}

}  // namespace

ColourChoice allocate_colours(const Event& ev, const std::vector<PlayerState>& st, int x, int y,
                              int round) {
  if (ev.settings.games_per_round >= 2) return two_game(ev, st, x, y, round);
  const PlayerState& sx = st[x];
  const PlayerState& sy = st[y];
  bool x_red_ok = !colour_violates(sx, Colour::Red) && !colour_violates(sy, Colour::Black);
  bool x_black_ok = !colour_violates(sx, Colour::Black) && !colour_violates(sy, Colour::Red);
  if (x_red_ok != x_black_ok) {
    if (x_red_ok) return {x, y, ColourRule::OnlyLegal};
    return {y, x, ColourRule::OnlyLegal};
  }
  ColourPref px = colour_pref(sx), py = colour_pref(sy);
  int ax = colour_state(px), ay = colour_state(py);
  if (ax != ay) {
    // The one with more reds (多先) / the longer red run takes black.
    if (ax > ay) return {y, x, ColourRule::MoreRedsTakesBlack};
    return {x, y, ColourRule::MoreRedsTakesBlack};
  }
  // Equal state: alternate from the latest round where the sequences differ.
  const auto& cx = sx.colours;
  const auto& cy = sy.colours;
  for (int i = static_cast<int>(cx.size()) - 1, j = static_cast<int>(cy.size()) - 1; i >= 0 && j >= 0;
       --i, --j) {
    if (cx[i] != cy[j]) {
      if (cx[i] == Colour::Red) return {y, x, ColourRule::AlternateLatestDiffering};
      return {x, y, ColourRule::AlternateLatestDiffering};
    }
  }
  if (px.due != Colour::None) {
    int hi = ranks_higher(ev, st, x, y) ? x : y;
    int lo = hi == x ? y : x;
    if (px.due == Colour::Red) return {hi, lo, ColourRule::HigherRankedPreference};
    return {lo, hi, ColourRule::HigherRankedPreference};
  }
  return by_round_parity(ev, x, y, round, ColourRule::RoundParity);
}

}  // namespace xq::pairing
