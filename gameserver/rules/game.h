// One game under the rules: the authoritative position (Jieqi identities included), the move
// history, and the end-of-game tests after every move (mate/stalemate, repetition adjudication,
// natural move limit, dead material). No clocks or network here; the server wraps this.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "adjudication.h"
#include "position.h"

namespace xq {

enum class Outcome : uint8_t { Ongoing, RedWins, BlackWins, Draw };
std::string outcome_name(Outcome o);  // "ongoing", "red-wins", "black-wins", "draw"

struct Result {
  Outcome outcome = Outcome::Ongoing;
  // checkmate | stalemate | perpetual_check | perpetual_chase | perpetual_mate_threat |
  // repetition_draw | move_limit | requested_move_limit | dead_material | resignation | timeout |
  // timeout_draw | agreement | abort | adjudication | forfeit
  std::string reason;
  bool over() const { return outcome != Outcome::Ongoing; }
  static Result win(Color winner, std::string why) {
    return {winner == Color::Red ? Outcome::RedWins : Outcome::BlackWins, std::move(why)};
  }
};

// Who learns the identity of a captured face-down Jieqi piece before the game ends.
enum class CaptureVisibility : uint8_t { Capturer, Nobody, Both };
std::string visibility_name(CaptureVisibility v);  // "capturer", "nobody", "both"
bool parse_visibility(const std::string& s, CaptureVisibility& out);

struct GameRules {
  Variant variant = Variant::Xiangqi;
  Ruleset ruleset = Ruleset::Cxa;
  int move_limit_plies = 120;        // plies without capture before the automatic draw (0 = off)
  int counted_checks_per_side = 10;  // checks beyond this per side do not advance the count (-1 = all count)
  CaptureVisibility capture_visibility = CaptureVisibility::Capturer;
  // Repetition is adjudicated when a position occurs for this time (3 = the usual threefold; a
  // club may ask for more rounds before it judges, jieqi-rules.md §6.3–6.4). The judged window
  // runs from the position's first occurrence, so every move of every round counts.
  int repetition_occurrences = 3;
  static constexpr int kMinRepetitions = 2, kMaxRepetitions = 12;
  // A move limit a player may ask for during the game (club regulations' "限着": "40回合限着，提出方
  // 将军不计, 从提出开始计步"): from the request, the game is drawn after this many plies, not counting
  // the requester's checks and the replies to them (a round with such a check is no round);
  // captures do not restart the count. 0 = no such request.
  int requested_limit_plies = 0;
  // Kills and chases of the requester during that limit that count, at most (seed 001: "提出方在
  // 限着中采用杀、捉着法最多合计20着"); beyond them, as with its checks, such a move and the reply to
  // it do not count (the text says no more; our reading). 0 = no cap.
  int requested_limit_forcing_cap = 0;
  AdjudicationOptions adjudication;
  // Only mate and stalemate end the game: a record written on past where the rules end it (an
  // arbiter who did not rule so; `xq notate`, `xq fen --moves`). Never in play.
  bool record_only = false;
  static GameRules defaults(Variant v);  // Xiangqi: 120 plies, 10 checks; Jieqi: 80 plies, all checks
};

struct PlayedMove {
  Move move;                          // reveal set when a face-down piece moved
  Color mover = Color::Red;
  Piece moved = kEmpty;               // the piece as it stood before the move (dark bit kept)
  Piece captured = kEmpty;            // the captured piece as it stood (dark bit kept)
  PieceType captured_identity = NoType;  // true identity of a captured face-down piece
  bool gives_check = false;
  std::string chinese;                // 炮二平五 (face-down pieces named by their positional type)
  std::string wxf;                    // C2=5
};

class RulesGame {
 public:
  enum class MoveError { None, GameOver, BadFormat, Illegal };

  // For Jieqi every face-down piece of `start` must have a known identity.
  RulesGame(GameRules rules, Position start);

  const GameRules& rules() const { return rules_; }
  const Position& start() const { return start_; }
  const Position& position() const { return pos_; }
  const Result& result() const { return result_; }
  const std::vector<PlayedMove>& moves() const { return moves_; }
  // Labels of the repetition window that ended the game, if it ended that way.
  const RepetitionVerdict* repetition() const { return has_repetition_ ? &repetition_ : nullptr; }

  // Plays an ICCS move ("h2e2"; a Jieqi reveal suffix is accepted and ignored: the server decides
  // the identity). On error `message` says why.
  MoveError play(const std::string& iccs, std::string* message = nullptr);
  MoveError play(Move m, std::string* message = nullptr);
  // Ends the game for a reason outside the board (resignation, timeout, agreement, abort…).
  void finish(Result r) { if (!result_.over()) result_ = std::move(r); }

  // Whether playing `m` may cost a repetition judgement or a move label: milliseconds (a quarter of
  // a second on contrived loops) where an ordinary move costs microseconds. True when the position
  // it reaches stood since the last capture or reveal as often as makes a judgement, or stood
  // within the nine rounds the nine-round rule looks at (nothing else is judged), or when the
  // requested limit labels the requester's moves. Costs a board copy; the server plays such a
  // move off its io threads. Never false for a move that then judges (judgements() tells).
  bool may_judge(Move m) const;
  bool may_judge(const std::string& iccs) const;  // by its squares; false when they do not parse
  // Repetition judgements and move labels made so far, the work may_judge predicts.
  uint64_t judgements() const { return judgements_; }

  std::vector<Move> legal_moves() const;
  // Material that could ever mate: Xiangqi any R/N/C/P; Jieqi any piece besides the king.
  bool can_mate(Color c) const;

  int plies_since_capture() const { return plies_since_capture_; }

  // The requested move limit (GameRules::requested_limit_plies). request_move_limit starts it for
  // `requester` (its checks and the replies to them do not count), or with none when an arbiter
  // imposes it on both sides (then every ply counts). An arbiter may also impose it on one side
  // (seed 001: "对其中某一方或双方进行'限着'处理"): `requester` is that side and `by_arbiter` set.
  // "" on success, else why not (not allowed in this game, already running, over).
  std::string request_move_limit(std::optional<Color> requester, bool by_arbiter = false);
  struct RequestedLimit {
    std::optional<Color> requester;  // the side whose checks do not count; none: every ply counts
    bool by_arbiter = false;         // imposed by an arbiter (always so without a requester)
    int counted_plies = 0;  // plies since the request that count toward the limit
    int limit_plies = 0;
    int forcing_moves = 0;       // the requester's kills and chases so far (requested_limit_forcing_cap)
    bool reply_void = false;     // the requester's last move did not count: nor does the reply
  };
  const std::optional<RequestedLimit>& requested_limit() const { return requested_limit_; }

 private:
  void adjudicate_after_move();
  bool dead_material() const;
  void judge(RepetitionVerdict verdict);
  std::vector<Move> moves_since_irreversible() const;
  // Jieqi: how many of colour c's unseen identities of type t are still free to be named (by a
  // reveal, or for a captured face-down piece): the pool less those already bound to a face-down
  // piece on the board (other than `except`) or to a captured one.
  int unbound(Color c, PieceType t, Square except) const;
  // AdjudicationOptions::cxa_nine_round_cycles: true when it ended the game.
  bool judge_nine_round_cycle();
  // Whether `side` mates or stalemates on its next move, whatever the opponent answers first.
  bool wins_next_move(Color side) const;
  const MoveLabel& label(size_t k, std::vector<Position>& before);  // of move irreversible_index_ + k, cached

  GameRules rules_;
  Position start_;
  Position pos_;
  Result result_;
  std::vector<PlayedMove> moves_;
  // Since the last irreversible move (capture or reveal): its position, hashes after each ply.
  void pool_as_both_players_know(Position& p) const;
  Position irreversible_start_;  // its pool: what both players know (pool_as_both_players_know)
  size_t irreversible_index_ = 0;  // index into moves_ of the first move after it
  std::vector<uint64_t> hashes_;   // hashes_[0] = irreversible_start_, then after each move
  int plies_since_capture_ = 0;
  int checks_since_capture_[2] = {0, 0};
  // Per move since the last irreversible one, its label once the nine-round rule asked for it
  // (labels cost up to milliseconds, so they are made only when asked, and once).
  std::vector<std::optional<MoveLabel>> labels_;
  static constexpr size_t kNineRoundPlies = 18;  // the nine-round rule's window (nine rounds)
  bool nine_round_judged_ = false;  // judged once since the last irreversible move (a draw): not again
  RepetitionVerdict repetition_;
  bool has_repetition_ = false;
  std::optional<RequestedLimit> requested_limit_;
  uint64_t judgements_ = 0;
};

}  // namespace xq
