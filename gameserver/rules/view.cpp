#include "view.h"

#include <cctype>

#include "fen.h"

namespace xq {

namespace {
char letter_for(Color c, PieceType t) {
  char l = piece_letter(t);
  return c == Color::Red ? l : static_cast<char>(std::tolower(l));
}
}  // namespace

bool may_see_capture(const RulesGame& game, size_t ply, Viewer viewer) {
  if (game.result().over()) return true;  // everything is public at the end
  if (viewer == Viewer::Spectator) return false;
  const PlayedMove& pm = game.moves().at(ply);
  switch (game.rules().capture_visibility) {
    case CaptureVisibility::Both: return true;
    case CaptureVisibility::Nobody: return false;
    default: return (viewer == Viewer::Red ? Color::Red : Color::Black) == pm.mover;
  }
}

std::string record_iccs(const PlayedMove& pm) {
  std::string iccs = to_iccs(pm.move);
  if (is_dark(pm.moved)) iccs += letter_for(pm.mover, pm.move.reveal);
  if (pm.captured && is_dark(pm.captured) && pm.captured_identity != NoType)
    iccs += letter_for(color_of(pm.captured), pm.captured_identity);
  return iccs;
}

MoveView view_of_move(const RulesGame& game, size_t ply, Viewer viewer) {
  const PlayedMove& pm = game.moves().at(ply);
  MoveView v;
  v.iccs = to_iccs(pm.move);
  v.chinese = pm.chinese;
  v.wxf = pm.wxf;
  v.check = pm.gives_check;
  if (is_dark(pm.moved)) {  // a reveal is public: the piece turns face up on the board
    v.reveal = pm.move.reveal;
    v.iccs += letter_for(pm.mover, pm.move.reveal);
  }
  if (pm.captured) {
    v.captured = true;
    if (!is_dark(pm.captured)) {
      v.captured_type = type_of(pm.captured);
    } else if (pm.captured_identity != NoType && may_see_capture(game, ply, viewer)) {
      v.captured_type = pm.captured_identity;
      v.iccs += letter_for(color_of(pm.captured), pm.captured_identity);
    }
  }
  return v;
}

namespace {

// The position with the identities of captured face-down pieces that `known(ply)` names taken out
// of the pool, and no identity of a face-down piece on the board.
template <class Known>
std::string fen_knowing(const RulesGame& game, Known&& known) {
  Position shown = game.position();
  for (Square s = 0; s < kSquares; ++s) shown.set_identity(s, NoType);
  for (size_t ply = 0; ply < game.moves().size(); ++ply) {
    const PlayedMove& pm = game.moves()[ply];
    if (!pm.captured || !is_dark(pm.captured) || pm.captured_identity == NoType || !known(ply)) continue;
    auto& n = shown.pool()[index(color_of(pm.captured))][pm.captured_identity];
    if (n > 0) --n;
  }
  return to_fen(shown);
}

}  // namespace

std::string view_fen(const RulesGame& game, Viewer viewer) {
  // Xiangqi has nothing hidden: every viewer sees the position (and the walk below over the whole
  // game, done for every event sent, grew with the game's length).
  if (game.position().variant() == Variant::Xiangqi) return to_fen(game.position());
  // The same pool arithmetic as view_of: only dark captured pieces whose identity this viewer
  // may know leave the pool.
  return fen_knowing(game, [&](size_t ply) { return may_see_capture(game, ply, viewer); });
}

std::string record_fen(const RulesGame& game) {
  if (game.position().variant() == Variant::Xiangqi) return to_fen(game.position());
  return fen_knowing(game, [](size_t) { return true; });
}

GameView view_of(const RulesGame& game, Viewer viewer) {
  GameView out;
  // The pool a viewer sees: identities not yet public, minus captured ones this viewer knows.
  Position shown = game.position();
  for (Square s = 0; s < kSquares; ++s) shown.set_identity(s, NoType);
  for (size_t ply = 0; ply < game.moves().size(); ++ply) {
    out.moves.push_back(view_of_move(game, ply, viewer));
    const PlayedMove& pm = game.moves()[ply];
    if (!pm.captured) continue;
    CapturedView c;
    c.owner = color_of(pm.captured);
    c.was_dark = is_dark(pm.captured);
    c.type = out.moves.back().captured_type;
    out.captured.push_back(c);
    if (c.was_dark && c.type != NoType) {
      auto& n = shown.pool()[index(c.owner)][c.type];
      if (n > 0) --n;
    }
  }
  out.fen = to_fen(shown);
  return out;
}

}  // namespace xq
