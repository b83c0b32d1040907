#include "pairing/explain.h"

#include <sstream>

#include "pairing/round1.h"

namespace xq::pairing {
namespace {

std::string who(const Event& ev, const PairingProblem& pp, int p) {
  std::ostringstream o;
  o << "#" << ev.players[p].number;
  if (!ev.players[p].name.empty()) o << " " << ev.players[p].name;
  o << " (" << pp.st[p].score << ")";
  return o.str();
}

std::string due_text(const ColourPref& pr) {
  if (pr.due == Colour::None) return "no colour due";
  std::ostringstream o;
  o << "due " << (pr.due == Colour::Red ? "red" : "black");
  const char* s[] = {"", "mild", "strong", "absolute"};
  o << " (" << s[static_cast<int>(pr.strength)] << ", red-black " << (pr.diff > 0 ? "+" : "") << pr.diff
    << ")";
  return o.str();
}

// Why a player left his score group, in the order an arbiter would check.
std::string float_reason(const Event& ev, const PairingProblem& pp, int p) {
  const int s = pp.st[p].score;
  int same = 0, unmet = 0;
  for (int q : pp.players) {
    if (q == p || pp.st[q].score != s) continue;
    ++same;
    bool forbidden = false;
    for (auto [x, y] : ev.settings.forbidden) forbidden |= (x == p && y == q) || (x == q && y == p);
    if (!pp.st[p].met.count(q) && !forbidden) ++unmet;
  }
  std::ostringstream o;
  if (same == 0) {
    o << "nobody else is on " << s;
  } else if (unmet == 0) {
    o << "has already met every other player on " << s;
  } else if ((same + 1) % 2 == 1) {
    o << "score group " << s << " has an odd number of players";
  } else {
    o << "the remaining same-score partners were needed elsewhere: pairing them would force a rematch, "
         "a colour-rule break or a bigger float higher up (bottom-up repair)";
  }
  return o.str();
}

}  // namespace

std::vector<std::string> explain_round(const Event& ev, const PairingProblem& pp, const Round& round) {
  std::vector<std::string> out;
  int board = 0;
  for (const Board& b : round.boards) {
    ++board;
    std::ostringstream o;
    o << "Board " << board << ": ";
    if (b.b == kBye) {
      o << who(ev, pp, b.a) << " gets the bye (scored as a win): lowest score group able to take it";
      if (pp.st[b.a].byes > 0) o << "; NOTE: repeated bye, no other player could take it";
      out.push_back(o.str());
      continue;
    }
    o << who(ev, pp, b.a) << " red vs " << who(ev, pp, b.b) << " black. ";
    if (pp.round == 1) {
      o << "Round 1, mode " << round1_mode_name(ev.settings.round1) << ", by pairing numbers.";
      out.push_back(o.str());
      continue;
    }
    int sa = pp.st[b.a].score, sb = pp.st[b.b].score;
    if (sa == sb) {
      o << "Same score group " << sa << ".";
    } else {
      int hi = sa > sb ? b.a : b.b, lo = hi == b.a ? b.b : b.a;
      // "Nearest" only when no player of the round stands between the two scores.
      bool nearest = true;
      for (int p : pp.players)
        if (pp.st[p].score > pp.st[lo].score && pp.st[p].score < pp.st[hi].score) nearest = false;
      o << "Float: " << who(ev, pp, hi) << " paired down to score " << pp.st[lo].score << " ("
        << (nearest ? "nearest score; " : "the nearer scores could not take it under the pairing rules; ")
        << float_reason(ev, pp, hi) << ").";
    }
    if (ev.settings.games_per_round == 1) {
      auto pref_of = [&](int p) { return colour_pref(pp.st[p]); };
      ColourChoice c = allocate_colours(ev, pp.st, b.a, b.b, pp.round);
      o << " Colours: red " << due_text(pref_of(b.a)) << ", black " << due_text(pref_of(b.b)) << "; "
        << colour_rule_text(c.rule) << ".";
    } else {
      ColourChoice c = allocate_colours(ev, pp.st, b.a, b.b, pp.round);
      o << " " << colour_rule_text(c.rule) << "; game 2 swaps colours.";
    }
    out.push_back(o.str());
  }
  return out;
}

}  // namespace xq::pairing
