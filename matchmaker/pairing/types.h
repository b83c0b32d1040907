#pragma once
// Event / history model fed to the pairing and tiebreak functions.
// Everything is plain data so a service can rebuild it from storage; the
// library computes everything else from it (pairing = f(history, settings, seed)).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace xq::pairing {

constexpr int kBye = -2;  // Board::b of a pairing-allocated bye

enum class Colour : std::int8_t { None = 0, Red = 1, Black = -1 };

enum class Round1Mode { Adjacent, AdjacentAlternating, Fold, Random };

// Last-resort preference inside a score group when everything else is equal:
// a top-half player against a bottom-half one by pairing number (the CXA
// round-1 idea, FIDE Dutch), or neighbours 1-2, 3-4 ... (近号).
enum class GroupOrder { TopHalfVsBottomHalf, Adjacent };

enum class ByeOppPolicy { LowestScoring, LowestAll, Zero, VirtualOpponent, OwnScore };

enum class Tiebreak {
  OppScore,         // 对手分
  Progressive,      // 累进分
  SonnebornBerger,  // 小分
  Wins,             // 胜局
  BlackWins,        // 后胜局
  BlackGames,       // 后走局数
  Fouls,            // 犯规 (fewer ranks higher)
  HeadToHead,       // 直胜 (all tied players met each other)
  PrevRoundScore,   // 14.3.1 tail: score after n-1, n-2, ...
  DropEarlyRounds,  // 14.3.2 tail: drop round 1, then 1-2, ...
  PrevRoundRank,    // Jieqi: ranking after the previous round, cascading
  Lot,              // seeded lot
};

// One game of a board. Side a plays red in games 1, 3, ...; b in games 2, 4, ...
struct Game {
  int a_points = 0;
  int b_points = 0;
  bool forfeit = false;  // not played over the board (one or both absent)
  int a_fouls = 0;
  int b_fouls = 0;
};

// A board of a round. a = red in game 1; b = black in game 1, or kBye.
// games is empty for a bye or for a round not yet played.
struct Board {
  int a = -1;
  int b = -1;
  std::vector<Game> games;
};

struct Round {
  std::vector<Board> boards;
  std::vector<int> unavailable;  // players known absent before pairing (score 0)
};

struct Player {
  std::string name;
  int rating = 0;
  int number = 0;           // pairing number (1-based), see assign_pairing_numbers
  int join_round = 1;       // first round the player can be paired (late join)
  int withdrawn_round = 0;  // not paired from this round on; 0 = never
};

struct Settings {
  std::string name;
  int rounds = 7;
  int games_per_round = 1;  // 2 = Jieqi: two games with colours swapped
  int win_points = 2, draw_points = 1, loss_points = 0;
  Round1Mode round1 = Round1Mode::Adjacent;
  std::uint64_t seed = 0;  // pairing numbers, random round 1, lots
  // Pairing policies
  bool colour_rules_hard = true;       // no 3 same colours in a row, |red-black| <= 2 (before score)
  bool forfeit_counts_as_met = false;  // FIDE default: a forfeit is not a meeting
  bool bye_blocked_by_forfeit_win = true;
  int max_forfeits = 3;  // removed after forfeiting in this many rounds; 0 = never
  // FIDE C.04.1 f/g: in the last round (settings.rounds) the colour rules may
  // be broken between two players above 50% of the maximum score.
  bool relax_colour_last_round_topscorers = true;
  // Player ids that must never meet. Set at creation they name places in the registration list
  // (0 = first to join), so one may name a place nobody has taken yet: it has no effect.
  std::vector<std::pair<int, int>> forbidden;
  GroupOrder group_order = GroupOrder::TopHalfVsBottomHalf;
  bool self_check = true;                      // run the invariant checker on every round
  // Tiebreak policies
  std::vector<Tiebreak> tiebreaks;
  ByeOppPolicy bye_opp = ByeOppPolicy::LowestScoring;
  bool forfeit_opp_as_bye = false;  // forfeit round: real opponent's score (false) or bye value
  bool absent_as_bye = false;       // double forfeit / absent round: bye value (true) or 0
  bool bye_counts_as_win = false;   // does a bye count in the wins tiebreak
  bool forfeit_win_counts_as_win = false;  // does a game won by forfeit count in the wins tiebreak
};

struct Event {
  Settings settings;
  std::vector<Player> players;  // player id = index
  std::vector<Round> rounds;    // rounds played (or paired) so far
};

// Tiebreak presets named in the project decisions.
std::vector<Tiebreak> tiebreak_preset(const std::string& name);  // "jieqi", "cxa-14.3.1", "cxa-14.3.2", "senior"

// Draws pairing numbers 1..N at random from settings.seed (stable across platforms).
void assign_pairing_numbers(Event& ev);

// A player as the organiser knows them: pairing number and name ("#3 Wang"), not the list index.
std::string player_label(const Event& ev, int p);

// Pairing-number order (ties, e.g. numbers not drawn yet, fall back to the id).
inline bool number_before(const Event& ev, int a, int b) {
  const int na = ev.players[a].number, nb = ev.players[b].number;
  return na != nb ? na < nb : a < b;
}

// Deterministic PRNG used everywhere (splitmix64), so results do not depend on the std library.
std::uint64_t mix64(std::uint64_t x);

}  // namespace xq::pairing
