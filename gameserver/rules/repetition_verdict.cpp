// The verdict of a repeated cycle (xiangqi-rules.md §5 steps 3–4) under the CXA, AXF and computer
// rulesets, from the labels of its moves (move_labels.cpp). Design notes in adjudication.h.
#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "adjudication.h"
#include "move_labels_detail.h"

namespace xq {

namespace {

struct SideSummary {
  int moves = 0;
  bool all_check = true;
  bool all_forcing = true;  // check / kill / chase
  bool any_check = false;
  bool any_kill = false;
  bool pure_chase_only = true;  // every move is a chase that is neither check nor kill
  bool any_pure_chase = false;
  bool any_chase = false;  // a non-checking move that chases
  bool mild = false;
  std::vector<size_t> pure_chase_labels;  // indices into the verdict's labels
  std::optional<std::set<int>> chase_common;      // ⋂ targets of all moves (chase_same)
  std::optional<std::set<int>> chase_common_axf;  // same, check moves with targets included
  std::optional<std::set<int>> pure_chase_common; // ⋂ targets of chase-only moves (CXA)
  bool chase_same = true, chase_same_axf = true;
};

void intersect(std::optional<std::set<int>>& acc, const std::vector<ChaseTarget>& t) {
  std::set<int> ids;
  for (const auto& c : t) ids.insert(c.piece_id);
  if (!acc) {
    acc = ids;
    return;
  }
  std::set<int> out;
  for (int i : *acc)
    if (ids.count(i)) out.insert(i);
  acc = out;
}

}  // namespace

const char* perpetual_reason(bool all_check, bool chase) {
  return all_check ? "perpetual_check" : chase ? "perpetual_chase" : "perpetual_mate_threat";
}

RepetitionVerdict judge_repetition(const Position& start, const std::vector<Move>& moves, size_t window_begin,
                                   Ruleset ruleset, const AdjudicationOptions& options) {
  RepetitionVerdict v;
  // Replay: positions before every ply, and the piece identities (start squares) on each.
  std::vector<Position> pos;
  std::vector<std::array<int, kSquares>> ids;
  pos.reserve(moves.size() + 1);
  ids.reserve(moves.size() + 1);
  pos.push_back(start);
  ids.emplace_back();
  for (Square s = 0; s < kSquares; ++s) ids[0][s] = start.at(s) ? s : -1;
  for (Move m : moves) {
    Position next = pos.back();
    next.make(m);
    std::array<int, kSquares> id = ids.back();
    id[m.to] = id[m.from];
    id[m.from] = -1;
    pos.push_back(std::move(next));
    ids.push_back(id);
  }
  SideSummary side[2];
  for (size_t i = window_begin; i < moves.size(); ++i) {
    Move m = moves[i];
    Color mover = pos[i].side_to_move();
    {
      // Context: the position before the opponent's last move. For the very first ply of the
      // record use the same point of the second loop, so both loops are labelled alike.
      const Position* previous = nullptr;
      const Move* prev_move = nullptr;
      if (i > 0) {
        previous = &pos[i - 1];
        prev_move = &moves[i - 1];
      } else {
        for (size_t j = i + 1; j < moves.size(); ++j)
          if (pos[j].hash() == pos[i].hash() && pos[j] == pos[i]) {
            previous = &pos[j - 1];
            prev_move = &moves[j - 1];
            break;
          }
      }
      MoveLabel l = detail::label_move_ids(pos[i], m, ruleset, previous, prev_move, ids[i].data(), options);
      SideSummary& ss = side[index(mover)];
      ++ss.moves;
      bool chase = !l.chases.empty();
      if (!l.check) ss.all_check = false;
      if (!(l.check || l.kill || chase)) ss.all_forcing = false;
      if (l.check || l.free_check) ss.any_check = true;
      if (l.kill) ss.any_kill = true;
      // computer / CXA chase_same: every move a chase (a checking move does not chase here)
      if (!chase || l.check) ss.chase_same = false;
      else intersect(ss.chase_common, l.chases);
      if (!chase) ss.chase_same_axf = false;
      else intersect(ss.chase_common_axf, l.chases);
      bool pure_chase = chase && !l.check && !l.kill;
      if (!pure_chase) ss.pure_chase_only = false;
      if (chase && !l.check) ss.any_chase = true;
      if (pure_chase) {
        ss.any_pure_chase = true;
        intersect(ss.pure_chase_common, l.chases);
        ss.pure_chase_labels.push_back(v.labels.size());
      }
      v.labels.push_back(std::move(l));
    }
  }
  // Severity (CXA): a side is mild when one of its chase-only moves chases the common target(s)
  // only jointly (联合捉) or as an under-protected piece (捉少根子).
  for (SideSummary& ss : side) {
    for (size_t li : ss.pure_chase_labels) {
      bool move_mild = true, any = false;
      for (const ChaseTarget& c : v.labels[li].chases) {
        if (ss.pure_chase_common && !ss.pure_chase_common->empty() && !ss.pure_chase_common->count(c.piece_id))
          continue;
        any = true;
        if (!(c.joint || c.under_protected)) move_mild = false;
      }
      if (any && move_mild) ss.mild = true;
    }
  }
  auto chase_same = [&](const SideSummary& s, bool axf) {
    if (s.moves == 0) return false;
    if (axf) return s.chase_same_axf && s.chase_common_axf && !s.chase_common_axf->empty();
    return s.chase_same && s.chase_common && !s.chase_common->empty();
  };
  auto lose = [&](Color c, const SideSummary& s, bool chase_reason) {
    v.outcome = c == Color::Red ? RepetitionVerdict::Outcome::RedLoses : RepetitionVerdict::Outcome::BlackLoses;
    v.reason = perpetual_reason(s.all_check, chase_reason);
  };
  const SideSummary& red = side[0];
  const SideSummary& black = side[1];
  bool red_check = red.moves > 0 && red.all_check, black_check = black.moves > 0 && black.all_check;
  if (red_check != black_check) {
    lose(red_check ? Color::Red : Color::Black, red_check ? red : black, false);
    return v;
  }
  if (red_check && black_check) return v;
  if (ruleset == Ruleset::Computer || ruleset == Ruleset::Axf) {
    bool axf = ruleset == Ruleset::Axf;
    if (!axf && (red.any_check || black.any_check)) return v;
    bool rc = chase_same(red, axf), bc = chase_same(black, axf);
    if (rc != bc) lose(rc ? Color::Red : Color::Black, rc ? red : black, true);
    return v;
  }
  // CXA
  auto forbidden = [&](const SideSummary& s) {
    if (s.moves == 0 || !s.all_forcing) return false;
    if (s.pure_chase_only && !options.cxa_count_pure_chase) return false;
    if (s.any_pure_chase && options.cxa_chase_needs_common_target) {
      // Chasing different pieces in turn is allowed: the chase-only moves must share a target.
      if (!s.pure_chase_common || s.pure_chase_common->empty()) return false;
    }
    return true;
  };
  bool rf = forbidden(red), bf = forbidden(black);
  if (rf != bf) {
    const SideSummary& s = rf ? red : black;
    lose(rf ? Color::Red : Color::Black, s, s.any_chase);
    return v;
  }
  if (rf && bf && red.mild != black.mild) {
    // Severe v mild: the severe side must change.
    bool red_severe = !red.mild;
    const SideSummary& s = red_severe ? red : black;
    lose(red_severe ? Color::Red : Color::Black, s, s.any_chase);
  }
  return v;
}

}  // namespace xq
