#pragma once
// Round-1 generators (spec §1.3 / §6.2): adjacent, adjacent-alternating, fold, random.
#include <string>
#include <vector>

#include "pairing/swiss.h"

namespace xq::pairing {

Round1Mode parse_round1_mode(const std::string& s);  // "adjacent", "adjacent-alternating", "fold", "random"
const char* round1_mode_name(Round1Mode m);
// The mode as the Chinese explain lines name it (近号配对, 拦腰…).
const char* round1_mode_name_zh(Round1Mode m);

// Boards of round 1 for the available players (pp.players, in pairing-number
// order). Odd field: the last number gets the bye (a virtual 空号 N+1).
// Forbidden pairs are moved apart by swapping the lower-listed player with a
// neighbouring board.
std::vector<Board> round1_boards(const Event& ev, const PairingProblem& pp);

}  // namespace xq::pairing
