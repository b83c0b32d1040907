#include "pairing/explain.h"

#include <set>
#include <sstream>
#include <utility>

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

std::string due_text(const ColourPref& pr, Lang lang) {
  const bool zh = lang == Lang::Zh;
  if (pr.due == Colour::None) return zh ? "无应得先后手" : "no colour due";
  std::ostringstream o;
  if (zh) o << (pr.due == Colour::Red ? "应执红" : "应执黑");
  else o << "due " << (pr.due == Colour::Red ? "red" : "black");
  const char* en[] = {"", "mild", "strong", "absolute"};
  const char* cn[] = {"", "弱", "强", "绝对"};
  const int k = static_cast<int>(pr.strength);
  if (zh) o << "（" << cn[k] << "，红黑差 " << (pr.diff > 0 ? "+" : "") << pr.diff << "）";
  else o << " (" << en[k] << ", red-black " << (pr.diff > 0 ? "+" : "") << pr.diff << ")";
  return o.str();
}

const char* colour_rule_zh(ColourRule r) {
  switch (r) {
    case ColourRule::OnlyLegal: return "只有合规的先后手（不三连、红黑差不超过 2）";
    case ColourRule::MoreRedsTakesBlack: return "多先者（或连先更长者）执黑";
    case ColourRule::AlternateLatestDiffering: return "先后手数相同：从两人最近一次不同的轮次起交替";
    case ColourRule::HigherRankedPreference: return "先后手历史相同：名次在前者得其应得先后手";
    case ColourRule::RoundParity: return "无先后手历史：单数轮编号小者执红，双数轮编号大者执红";
    case ColourRule::TwoGameAlternate: return "两局制：第一局先后手从两人最近一次不同的轮次起交替";
    case ColourRule::TwoGameRoundParity: return "两局制，历史相同：单数轮编号小者第一局执红，双数轮编号大者第一局执红";
    case ColourRule::Round1Mode: return "第一轮编排方式";
  }
  return "";
}

const char* colour_rule(ColourRule r, Lang lang) { return lang == Lang::Zh ? colour_rule_zh(r) : colour_rule_text(r); }

// Why a player left his score group, in the order an arbiter would check.
std::string float_reason(const Event& ev, const PairingProblem& pp, int p, Lang lang) {
  const bool zh = lang == Lang::Zh;
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
    if (zh) o << s << " 分无其他棋手";
    else o << "nobody else is on " << s;
  } else if (unmet == 0) {
    if (zh) o << "已与 " << s << " 分的其他棋手都对局过";
    else o << "has already met every other player on " << s;
  } else if ((same + 1) % 2 == 1) {
    if (zh) o << s << " 分组人数为奇数";
    else o << "score group " << s << " has an odd number of players";
  } else {
    o << (zh ? "余下的同分对手需用于他处：与之配对会造成重复对局、违反先后手规则，或使更高分组出现更大的浮动（自下而上调整）"
             : "the remaining same-score partners were needed elsewhere: pairing them would force a rematch, "
               "a colour-rule break or a bigger float higher up (bottom-up repair)");
  }
  return o.str();
}

}  // namespace

std::vector<std::string> explain_round(const Event& ev, const PairingProblem& pp, const Round& round, Lang lang) {
  const bool zh = lang == Lang::Zh;
  std::vector<std::string> out;
  // A random round 1 draws its pairs, colours and bye by lot, unless a forbidden pair sent it to
  // the engine (then the usual rules hold): told apart by whether the draw is what was paired.
  bool by_lot = false;
  if (pp.round == 1 && ev.settings.round1 == Round1Mode::Random) {
    std::set<std::pair<int, int>> drawn, paired;
    for (const Board& b : round1_boards(ev, pp)) drawn.emplace(b.a, b.b);
    for (const Board& b : round.boards) paired.emplace(b.a, b.b);
    by_lot = drawn == paired;
  }
  int board = 0;
  for (const Board& b : round.boards) {
    ++board;
    std::ostringstream o;
    if (zh) o << "第" << board << "台：";
    else o << "Board " << board << ": ";
    if (b.b == kBye) {
      if (by_lot && zh) o << who(ev, pp, b.a) << "轮空（按胜计分）：第1轮随机编排，抽签决定";
      else if (by_lot) o << who(ev, pp, b.a) << " gets the bye (scored as a win): drawn by lot (round 1, random pairing)";
      else if (zh) o << who(ev, pp, b.a) << "轮空（按胜计分）：能轮空的最低分组中编号最大者（在可行的编排之内）";
      else o << who(ev, pp, b.a) << " gets the bye (scored as a win): the highest pairing number of the lowest score group able to take it, as far as the pairing allows";
      if (pp.st[b.a].byes > 0) o << (zh ? "；注意：重复轮空，无其他棋手可轮空" : "; NOTE: repeated bye, no other player could take it");
      out.push_back(o.str());
      continue;
    }
    if (zh) o << who(ev, pp, b.a) << "执红对" << who(ev, pp, b.b) << "执黑。";
    else o << who(ev, pp, b.a) << " red vs " << who(ev, pp, b.b) << " black. ";
    if (pp.round == 1) {
      if (by_lot && zh) o << "第1轮，编排方式：" << round1_mode_name_zh(ev.settings.round1) << "，对手和先后手抽签决定。";
      else if (by_lot) o << "Round 1, mode " << round1_mode_name(ev.settings.round1) << ": opponents and colours drawn by lot.";
      else if (zh) o << "第1轮，编排方式：" << round1_mode_name_zh(ev.settings.round1) << "，按编号。";
      else o << "Round 1, mode " << round1_mode_name(ev.settings.round1) << ", by pairing numbers.";
      out.push_back(o.str());
      continue;
    }
    int sa = pp.st[b.a].score, sb = pp.st[b.b].score;
    if (sa == sb) {
      if (zh) o << "同分组 " << sa << "。";
      else o << "Same score group " << sa << ".";
    } else {
      int hi = sa > sb ? b.a : b.b, lo = hi == b.a ? b.b : b.a;
      // "Nearest" only when no player of the round stands between the two scores.
      bool nearest = true;
      for (int p : pp.players)
        if (pp.st[p].score > pp.st[lo].score && pp.st[p].score < pp.st[hi].score) nearest = false;
      if (zh)
        o << "浮动：" << who(ev, pp, hi) << "下调至 " << pp.st[lo].score << " 分（"
          << (nearest ? "最近的分数；" : "更近的分数按编排规则无法安排；") << float_reason(ev, pp, hi, lang) << "）。";
      else
        o << "Float: " << who(ev, pp, hi) << " paired down to score " << pp.st[lo].score << " ("
          << (nearest ? "nearest score; " : "the nearer scores could not take it under the pairing rules; ")
          << float_reason(ev, pp, hi, lang) << ").";
    }
    ColourChoice c = allocate_colours(ev, pp.st, b.a, b.b, pp.round);
    if (ev.settings.games_per_round == 1) {
      auto pref_of = [&](int p) { return colour_pref(pp.st[p]); };
      if (zh)
        o << "先后手：红方" << due_text(pref_of(b.a), lang) << "，黑方" << due_text(pref_of(b.b), lang) << "；"
          << colour_rule(c.rule, lang) << "。";
      else
        o << " Colours: red " << due_text(pref_of(b.a), lang) << ", black " << due_text(pref_of(b.b), lang) << "; "
          << colour_rule(c.rule, lang) << ".";
    } else {
      if (zh) o << colour_rule(c.rule, lang) << "；第二局交换先后手。";
      else o << " " << colour_rule(c.rule, lang) << "; game 2 swaps colours.";
    }
    out.push_back(o.str());
  }
  return out;
}

}  // namespace xq::pairing
