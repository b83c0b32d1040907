#pragma once
// Arbiter-readable reasons for each board of a round (score group, float, colour due).
#include <string>
#include <vector>

#include "pairing/swiss.h"

namespace xq::pairing {

enum class Lang { En, Zh };

// One line per board, in English or in Chinese (the web client shows the reader's language).
std::vector<std::string> explain_round(const Event& ev, const PairingProblem& pp, const Round& round, Lang lang = Lang::En);

}  // namespace xq::pairing
