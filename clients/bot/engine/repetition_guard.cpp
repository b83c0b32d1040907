#include "repetition_guard.h"

#include <algorithm>
#include <unordered_set>

#include "rules/game.h"
#include "rules/jieqi.h"

namespace xq::engine {

namespace {

bool reversible(const Position& p, Move m) { return p.at(m.to) == kEmpty && !is_dark(p.at(m.from)); }

// The reversible move that leads from `a` to `b`, if there is one.
bool move_between(const Position& a, const Position& b, Move& out) {
  MoveList list;
  a.generate_legal(list);
  for (const Move& m : list) {
    if (!reversible(a, m)) continue;
    Position x = a;
    x.make(m);
    if (x == b) {
      out = m;
      return true;
    }
  }
  return false;
}

bool lost_by(const RulesGame& g, Color side) {
  const Outcome o = g.result().outcome;
  return (o == Outcome::RedWins && side == Color::Black) || (o == Outcome::BlackWins && side == Color::Red);
}

}  // namespace

std::vector<bool> repetition_losses(const std::vector<Position>& history, const Position& root,
                                    const MoveList& moves, int max_judgements,
                                    std::optional<std::chrono::steady_clock::time_point> deadline) {
  auto may_judge = [&](int judged) {
    return judged < max_judgements && (!deadline || std::chrono::steady_clock::now() < *deadline);
  };
  std::vector<bool> out(static_cast<size_t>(moves.size), false);
  // The stretch of history joined to the root by reversible moves.
  std::vector<Move> line;
  size_t first = history.size();
  const Position* next = &root;
  while (first > 0) {
    Move m;
    if (!move_between(history[first - 1], *next, m)) break;
    line.push_back(m);
    --first;
    next = &history[first];
  }
  if (line.empty()) return out;  // nothing to repeat within two plies
  std::reverse(line.begin(), line.end());

  std::unordered_set<uint64_t> seen;
  for (size_t i = first; i < history.size(); ++i) seen.insert(history[i].hash());
  seen.insert(root.hash());

  Position start = history[first];
  if (start.variant() == Variant::Jieqi) assign_from_pool(start, 1);  // reversible moves never reveal
  GameRules rules = GameRules::defaults(start.variant());
  rules.move_limit_plies = 0;
  rules.requested_limit_plies = 0;
  RulesGame game(rules, start);
  for (const Move& m : line)
    if (game.play(m) != RulesGame::MoveError::None) return out;
  if (game.result().over()) return out;

  const Color us = root.side_to_move();
  int judged = 0;
  for (int i = 0; i < moves.size && may_judge(judged); ++i) {
    const Move m = moves.moves[i];
    if (!reversible(root, m)) continue;
    Position after = root;
    after.make(m);
    // Replies that return to a position of the stretch (found on the board alone; the game is
    // copied and played only when there is something to judge).
    std::vector<Move> returning;
    MoveList replies;
    after.generate_legal(replies);
    for (const Move& r : replies) {
      if (!reversible(after, r)) continue;
      Position back = after;
      back.make(r);
      if (seen.count(back.hash())) returning.push_back(r);
    }
    const bool repeats = seen.count(after.hash()) > 0;
    if (!repeats && returning.empty()) continue;
    RulesGame g1 = game;
    if (repeats) ++judged;
    if (g1.play(m) != RulesGame::MoveError::None) continue;
    if (lost_by(g1, us)) {
      out[static_cast<size_t>(i)] = true;
      continue;
    }
    if (g1.result().over()) continue;
    for (const Move& r : returning) {
      if (!may_judge(judged)) break;
      ++judged;
      RulesGame g2 = g1;
      if (g2.play(r) == RulesGame::MoveError::None && lost_by(g2, us)) {
        out[static_cast<size_t>(i)] = true;
        break;
      }
    }
  }
  return out;
}

}  // namespace xq::engine
