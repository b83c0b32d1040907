// Traditional move notation for display: Chinese (炮二平五) and WXF (C2=5). Face-down Jieqi pieces
// are named by the type of their start square.
#pragma once
#include <string>

#include "position.h"

namespace xq {

// `before` is the position the (legal) move is played from.
std::string to_chinese(const Position& before, Move m);
std::string to_wxf(const Position& before, Move m);
// Chinese name of a piece type for a colour: 帅/将, 仕/士, 相/象, 马, 车, 炮, 兵/卒.
std::string chinese_piece_name(Color c, PieceType t);
char wxf_piece_letter(PieceType t);  // K A E H R C P

}  // namespace xq
