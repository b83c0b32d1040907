#pragma once
// Per-player facts derived from the history (scores, colours, meetings, floats, byes).
#include <set>
#include <vector>

#include "pairing/types.h"

namespace xq::pairing {

enum class RoundKind { None, Played, ForfeitWin, ForfeitLoss, DoubleForfeit, Bye, Absent };

struct RoundEntry {
  RoundKind kind = RoundKind::None;  // None: player not yet in the event
  int opponent = -1;                 // -1 for bye / absent
  int points = 0;
  Colour colour = Colour::None;  // colour in game 1 (only for over-the-board rounds)
  int wins = 0, draws = 0, losses = 0;  // over-the-board games
  int forfeit_wins = 0;                 // games won because the opponent forfeited
  bool forfeited = false;               // a game of the round forfeited by this player
  int black_games = 0, black_wins = 0;
  int fouls = 0;
  int float_dir = 0;  // +1 paired up, -1 paired down (or bye), 0 same score
};

struct PlayerState {
  int score = 0;
  std::vector<RoundEntry> rounds;  // one per round considered
  std::vector<Colour> colours;     // colours of over-the-board single games, in order
  int reds = 0, blacks = 0;
  std::set<int> met;
  int byes = 0;
  bool forfeit_win = false;
  int forfeits = 0;  // rounds with a forfeited game (incl. double forfeits)
};

// Facts after the first `upto` rounds of the event (upto <= ev.rounds.size()).
std::vector<PlayerState> compute_states(const Event& ev, int upto);

// Is player p available for round r (1-based), given states after r-1 rounds?
bool is_available(const Event& ev, const std::vector<PlayerState>& st, int p, int round,
                  const std::vector<int>& unavailable);

// For each player, the round whose forfeit took them to the event's forfeit limit (max_forfeits):
// they are not paired after it. 0 for a player who never reached it (or when the event has none).
std::vector<int> removal_rounds(const Event& ev);

// Points a player receives for a bye round.
int bye_points(const Settings& s);

}  // namespace xq::pairing
