// What one viewer may know of a game: the single place where Jieqi secrecy is applied. Used for
// players, spectators, reconnect catch-up and exports alike.
#pragma once
#include <string>
#include <vector>

#include "game.h"

namespace xq {

enum class Viewer : uint8_t { Red, Black, Spectator };

struct CapturedView {
  Color owner = Color::Red;  // colour of the captured piece
  PieceType type = NoType;   // NoType = a face-down piece whose identity this viewer may not know
  bool was_dark = false;
};

struct MoveView {
  std::string iccs;     // "h2e2", Jieqi "a0a1P" (reveal), plus the captured identity when known
  std::string chinese;  // "炮二平五"
  std::string wxf;      // "C2=5"
  bool check = false;
  PieceType reveal = NoType;  // identity revealed by this move (public)
  bool captured = false;
  PieceType captured_type = NoType;  // NoType when unknown to this viewer
};

struct GameView {
  std::string fen;  // current position as this viewer may know it (pool = identities it can't rule out)
  std::vector<MoveView> moves;
  std::vector<CapturedView> captured;
};

// Everything is public once the game is over.
GameView view_of(const RulesGame& game, Viewer viewer);
// view_of(game, viewer).fen without rendering every move (the hot path needs only the FEN).
std::string view_fen(const RulesGame& game, Viewer viewer);
// The FEN of one who knows every identity the game's record holds (the `xq` tool, given the moves
// with their captured letters): the named captured pieces are out of the pool.
std::string record_fen(const RulesGame& game);
// A move as the full record writes it (jieqi-rules.md §9.2): ICCS, the identity a face-down mover
// turned up as, then the identity of a captured face-down piece where it is known (`a0a6Rp`).
std::string record_iccs(const PlayedMove& pm);
MoveView view_of_move(const RulesGame& game, size_t ply, Viewer viewer);
// May `viewer` know the identity of the piece captured at `ply`?
bool may_see_capture(const RulesGame& game, size_t ply, Viewer viewer);

}  // namespace xq
