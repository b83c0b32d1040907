// Traditional move notation for display: Chinese (炮二平五) and WXF (C2=5). Face-down Jieqi pieces
// are named by the type of their start square; a move that reveals one says what it turned out to
// be when the move carries the identity (jieqi-rules.md §9.2): 兵九进一(翻车), P9+1=r.
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
