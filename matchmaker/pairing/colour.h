#pragma once
// Colour (先后手) preferences and allocation for a pair (spec §1.5 / §6.3).
#include <string>

#include "pairing/state.h"

namespace xq::pairing {

enum class PrefStrength { None = 0, Mild = 1, Strong = 2, Absolute = 3 };

struct ColourPref {
  Colour due = Colour::None;
  PrefStrength strength = PrefStrength::None;
  int diff = 0;    // reds - blacks
  int streak = 0;  // signed length of the current same-colour run (red > 0)
};

ColourPref colour_pref(const PlayerState& s);

// Would giving colour c to this player break "no 3 in a row" / "|R-B| <= 2"?
bool colour_violates(const PlayerState& s, Colour c);

// Which step of the allocation order decided (see colour_rule_text).
enum class ColourRule {
  OnlyLegal, MoreRedsTakesBlack, AlternateLatestDiffering, HigherRankedPreference, RoundParity,
  TwoGameAlternate, TwoGameRoundParity, Round1Mode
};
const char* colour_rule_text(ColourRule r);

struct ColourChoice {
  int red = -1, black = -1;
  ColourRule rule = ColourRule::RoundParity;
};

// Chooses who plays red (in game 1). `rank_key` orders players by standing
// (higher score first, then lower pairing number) for the "higher-ranked
// player's preference" step. round is 1-based.
ColourChoice allocate_colours(const Event& ev, const std::vector<PlayerState>& st, int x, int y,
                              int round);

}  // namespace xq::pairing
