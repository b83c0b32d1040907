#pragma once
// TRF-style text export of an event (FIDE TRF-16 player lines, plus XQ*
// lines for what TRF cannot say), its parser, and a pairings checker that
// replays an event round by round and reports every pairing that differs.
//
// Lines:
//   012 <event name>
//   XXR <rounds>                        XQG <games per round>
//   XQP <win> <draw> <loss>             XQM <round-1 mode>      XQS <seed>
//   XQC <colour_hard> <forfeit_met> <bye_blocked_by_forfeit_win> <max_forfeits> <relax_last_round> <halves|adjacent>
//   XQB <bye_opp policy> <forfeit_opp_as_bye> <absent_as_bye> <bye_counts_as_win> [<forfeit_win_counts_as_win>]
//   XQT <tiebreak,tiebreak,...>
//   XXP <number> <number>               forbidden pair (pairing numbers)
//   001 ... TRF-16 columns: 5-8 pairing number, 15-47 name, 49-52 rating,
//       81-84 points, 86-89 rank; from column 92 one "oooo c r" per round:
//       opponent number (0000 none), colour of game 1 (w = red, b = black, -),
//       result per game: 1 = 0 win/draw/loss, + - forfeit win/loss (both - =
//       double forfeit), U bye, Z absent, * not played yet.
//   XQJ <number> <join round> <withdrawn round>
//   XQF <number> <fouls round 1> <fouls round 2> ...
#include <string>
#include <vector>

#include "pairing/types.h"

namespace xq::pairing {

// `final_order` (players, best first), when given, is the rank column instead of the Swiss
// standings: an event decided by a play-off ranks its players by it. Players it leaves out (the
// disqualified) are ranked after it, in the standings' order.
std::string export_trf(const Event& ev, const std::vector<int>& final_order = {});
// Throws std::runtime_error on malformed input.
Event parse_trf(const std::string& text);

struct Discrepancy {
  int round = 0;
  std::string text;
};

// Re-pairs every round from the history before it and lists boards that
// differ (missing, extra, other colours) or rounds the engine cannot pair.
std::vector<Discrepancy> check_event(const Event& ev);

}  // namespace xq::pairing
