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
  // `earlier`: hashes of the game's earlier positions (reaching one scores as a draw).
  Searcher(const Position& pos, std::vector<uint64_t> earlier, size_t tt_entries);

  SearchResult iterate(const SearchBudget& budget);
  // Exact score of root move m searched to `depth` plies (m included); nullopt if stopped.
  std::optional<int> score_move(Move m, int depth, const SearchBudget& budget);

  uint64_t nodes() const { return nodes_; }
  const Position& position() const { return pos_; }

 private:
  int negamax(int depth, int alpha, int beta, int ply, bool null_ok);
  int quiesce(int alpha, int beta, int ply, int qdepth);
  int root_search(int depth, int alpha, int beta, Move& best);
  bool repeated(int ply) const;
  void start(const SearchBudget& budget);
  bool should_stop();
  void order(const MoveList& list, int* scores, Move hash_move, int ply) const;
  Undo make(Move m, int ply);
  void unmake(Move m, const Undo& u);

  Position pos_;
  std::vector<uint64_t> earlier_;  // sorted
  TranspositionTable tt_;
  uint64_t nodes_ = 0, node_limit_ = 0;
  std::optional<Clock::time_point> deadline_;
  bool stop_ = false;
  int iter_depth_ = 0;
  Move killers_[kMaxPly][2]{};
  int history_[2][kSquares][kSquares]{};
  // Path: hash at each ply, and the last ply from which no capture or reveal happened since.
  uint64_t path_hash_[kMaxPly + 2]{};
  int reversible_from_[kMaxPly + 2]{};
  std::vector<Move> root_moves_;
};

}  // namespace xq::engine
