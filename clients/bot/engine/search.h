// Alpha-beta search on one full-information position (for Jieqi: one sample of the hidden
// identities): iterative deepening, principal variation search, quiescence on captures and check
// evasions, transposition table, killer and history move ordering, null move and late move
// reductions. Repetitions (of the game's earlier positions or along the search path) score 0.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "rules/position.h"
#include "transposition.h"

namespace xq::engine {

constexpr int kInfinity = 32000;
constexpr int kMate = 30000;            // mated at ply p scores -(kMate - p)
constexpr int kMateBound = kMate - 512;  // scores beyond this are mates
constexpr int kMaxPly = 128;
// A repetition in which one side gave check with every move of the cycle and the other did not:
// the checking side loses by the rules (perpetual check), so the search scores it nearly so.
constexpr int kPerpetualCheck = 5000;

// One of the game's earlier positions, oldest first.
struct EarlierPosition {
  uint64_t hash = 0;
  bool in_check = false;  // the side to move there was in check (the move into it gave check)
};

using Clock = std::chrono::steady_clock;

struct SearchBudget {
  int max_depth = 64;
  uint64_t max_nodes = 0;  // for this call; 0 = none
  std::optional<Clock::time_point> deadline;       // abort the search here
  std::optional<Clock::time_point> soft_deadline;  // no new iteration after this
};

struct SearchResult {
  Move best{};
  bool has_move = false;
  int score = 0;
  int depth = 0;  // deepest iteration completed (0: none, best is the first ordered move)
};

class Searcher {
 public:
  // `pos`: the position to search (identities of face-down pieces must be known: a sample).
  // `earlier`: the game's earlier positions (reaching one again is a repetition). `consecutive`:
  // they are every position of the game up to this one, so that the checks of a cycle through
  // them can be told; otherwise a repetition through them simply scores 0.
  Searcher(const Position& pos, std::vector<EarlierPosition> earlier, bool consecutive, size_t tt_entries);

  SearchResult iterate(const SearchBudget& budget);
  // Root moves not to play (unless they are all there is): those the rules' repetition judgement
  // would lose.
  void exclude_root_moves(std::vector<Move> moves) { excluded_ = std::move(moves); }
  // Exact score of root move m searched to `depth` plies (m included); nullopt if stopped.
  std::optional<int> score_move(Move m, int depth, const SearchBudget& budget);

  uint64_t nodes() const { return nodes_; }
  const Position& position() const { return pos_; }

 private:
  int negamax(int depth, int alpha, int beta, int ply, bool null_ok);
  int quiesce(int alpha, int beta, int ply, int qdepth);
  int root_search(int depth, int alpha, int beta, Move& best);
  // Is the position at `ply` a repetition? Then `score` is its value for the side to move.
  bool repetition(int ply, int& score) const;
  void start(const SearchBudget& budget);
  bool should_stop();
  void order(const MoveList& list, int* scores, Move hash_move, int ply) const;
  Undo make(Move m, int ply);
  void unmake(Move m, const Undo& u);

  Position pos_;
  std::vector<uint64_t> earlier_sorted_;
  std::vector<EarlierPosition> earlier_;  // game order
  bool consecutive_ = false;
  TranspositionTable tt_;
  uint64_t nodes_ = 0, node_limit_ = 0;
  std::optional<Clock::time_point> deadline_;
  bool stop_ = false;
  int iter_depth_ = 0;
  Move killers_[kMaxPly][2]{};
  int history_[2][kSquares][kSquares]{};
  // Path: hash at each ply, and the last ply from which no capture or reveal happened since.
  uint64_t path_hash_[kMaxPly + 2]{};
  bool path_check_[kMaxPly + 2]{};  // the side to move at that ply is in check
  int reversible_from_[kMaxPly + 2]{};
  std::vector<Move> root_moves_;
  std::vector<Move> excluded_;
};

}  // namespace xq::engine
