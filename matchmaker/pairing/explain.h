#pragma once
// Arbiter-readable reasons for each board of a round (score group, float, colour due).
#include <string>
#include <vector>

#include "pairing/swiss.h"

namespace xq::pairing {

std::vector<std::string> explain_round(const Event& ev, const PairingProblem& pp, const Round& round);

}  // namespace xq::pairing
