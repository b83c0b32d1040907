#include "pairing/trf.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "pairing/round1.h"
#include "pairing/state.h"
#include "pairing/swiss.h"
#include "pairing/tiebreaks.h"

namespace xq::pairing {
namespace {

const std::vector<std::pair<Tiebreak, const char*>>& tb_ids() {
  static const std::vector<std::pair<Tiebreak, const char*>> ids = {
      {Tiebreak::OppScore, "opp"},         {Tiebreak::Progressive, "prog"},
      {Tiebreak::SonnebornBerger, "sb"},   {Tiebreak::Wins, "wins"},
      {Tiebreak::BlackWins, "bwins"},      {Tiebreak::BlackGames, "bgames"},
      {Tiebreak::Fouls, "fouls"},          {Tiebreak::HeadToHead, "h2h"},
      {Tiebreak::PrevRoundScore, "prevscore"}, {Tiebreak::DropEarlyRounds, "dropearly"},
      {Tiebreak::PrevRoundRank, "prevrank"},   {Tiebreak::Lot, "lot"}};
  return ids;
}

const char* bye_opp_name(ByeOppPolicy p) {
  switch (p) {
    case ByeOppPolicy::LowestScoring: return "lowest_scoring";
    case ByeOppPolicy::LowestAll: return "lowest_all";
    case ByeOppPolicy::Zero: return "zero";
    case ByeOppPolicy::VirtualOpponent: return "virtual_opponent";
    case ByeOppPolicy::OwnScore: return "own_score";
  }
  return "lowest_scoring";
}

ByeOppPolicy parse_bye_opp(const std::string& s) {
  for (auto p : {ByeOppPolicy::LowestScoring, ByeOppPolicy::LowestAll, ByeOppPolicy::Zero,
                 ByeOppPolicy::VirtualOpponent, ByeOppPolicy::OwnScore})
    if (s == bye_opp_name(p)) return p;
  throw std::runtime_error("TRF: unknown bye policy " + s);
}

char game_code(int mine, int theirs, bool forfeit) {
  if (forfeit) return mine > theirs ? '+' : '-';
  return mine > theirs ? '1' : (mine == theirs ? '=' : '0');
}

}  // namespace

std::string export_trf(const Event& ev, const std::vector<int>& final_order) {
  const Settings& s = ev.settings;
  const int n = static_cast<int>(ev.players.size());
  const int nr = static_cast<int>(ev.rounds.size());
  std::ostringstream o;
  std::string name = s.name;  // one line, whatever an older event's name holds
  for (char& c : name)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  o << "012 " << name << "\n";
  o << "XXR " << s.rounds << "\n";
  o << "XQG " << s.games_per_round << "\n";
  o << "XQP " << s.win_points << " " << s.draw_points << " " << s.loss_points << "\n";
  o << "XQM " << round1_mode_name(s.round1) << "\n";
  o << "XQS " << s.seed << "\n";
  o << "XQC " << s.colour_rules_hard << " " << s.forfeit_counts_as_met << " " << s.bye_blocked_by_forfeit_win
    << " " << s.max_forfeits << " " << s.relax_colour_last_round_topscorers << " "
    << (s.group_order == GroupOrder::Adjacent ? "adjacent" : "halves") << "\n";
  o << "XQB " << bye_opp_name(s.bye_opp) << " " << s.forfeit_opp_as_bye << " " << s.absent_as_bye << " "
    << s.bye_counts_as_win << " " << s.forfeit_win_counts_as_win << "\n";
  o << "XQT";
  for (std::size_t i = 0; i < s.tiebreaks.size(); ++i)
    for (auto& [t, id] : tb_ids())
      if (t == s.tiebreaks[i]) o << (i ? "," : " ") << id;
  o << "\n";
  // A pair may name a place in the registration list nobody has taken yet (set at creation).
  for (auto [a, b] : s.forbidden)
    if (a >= 0 && b >= 0 && a < n && b < n) o << "XXP " << ev.players[a].number << " " << ev.players[b].number << "\n";

  Standings st = compute_standings(ev);
  std::vector<int> rank(n, 0), score(n, 0);
  for (const auto& r : st.rows) rank[r.player] = r.rank, score[r.player] = r.score;
  if (!final_order.empty()) {
    // The players it leaves out (disqualified ones) come after it, in the standings' order, so no
    // two players share a rank.
    std::vector<char> listed(n, 0);
    for (std::size_t i = 0; i < final_order.size(); ++i) rank.at(final_order[i]) = static_cast<int>(i) + 1, listed.at(final_order[i]) = 1;
    int next = static_cast<int>(final_order.size());
    for (const auto& r : st.rows)
      if (!listed[r.player]) rank[r.player] = ++next;
  }
  // Per player per round: opponent, colour, codes, fouls.
  std::vector<std::vector<std::string>> cell(n, std::vector<std::string>(nr));
  std::vector<std::vector<int>> fouls(n, std::vector<int>(nr, 0));
  for (int r = 0; r < nr; ++r) {
    std::vector<char> done(n, 0);
    char buf[64];
    for (const Board& b : ev.rounds[r].boards) {
      if (b.b == kBye) {
        std::snprintf(buf, sizeof buf, "%4d - U", 0);
        cell[b.a][r] = buf;
        done[b.a] = 1;
        continue;
      }
      std::string ca, cb;
      for (const Game& g : b.games) {
        ca += game_code(g.a_points, g.b_points, g.forfeit);
        cb += game_code(g.b_points, g.a_points, g.forfeit);
        fouls[b.a][r] += g.a_fouls;
        fouls[b.b][r] += g.b_fouls;
      }
      if (b.games.empty()) ca = cb = std::string(static_cast<std::size_t>(s.games_per_round), '*');
      std::snprintf(buf, sizeof buf, "%4d w %s", ev.players[b.b].number, ca.c_str());
      cell[b.a][r] = buf;
      std::snprintf(buf, sizeof buf, "%4d b %s", ev.players[b.a].number, cb.c_str());
      cell[b.b][r] = buf;
      done[b.a] = done[b.b] = 1;
    }
    for (int p = 0; p < n; ++p)
      if (!done[p]) {
        std::snprintf(buf, sizeof buf, "%4d - Z", 0);
        cell[p][r] = buf;
      }
  }
  for (int p = 0; p < n; ++p) {
    const Player& pl = ev.players[p];
    char head[128];
    // TRF-16 columns: sex 10, title 11-13, name 15-47, rating 49-52, fed 54-56,
    // id 58-68, birth 70-79, points 81-84, rank 86-89, rounds from 92.
    // The name's 33 bytes end on a whole character (a Chinese character is three bytes).
    std::string name = pl.name.substr(0, 33);
    if (pl.name.size() > 33)
      while (!name.empty() && (static_cast<unsigned char>(pl.name[name.size()]) & 0xC0) == 0x80) name.pop_back();
    std::snprintf(head, sizeof head, "001 %4d %1s%3s %-33.33s %4d %3s %11s %10s %4d %4d  ", pl.number, "", "",
                  name.c_str(), pl.rating, "", "", "", score[p], rank[p]);
    o << head;
    for (int r = 0; r < nr; ++r) o << (r ? "  " : "") << cell[p][r];
    o << "\n";
  }
  for (int p = 0; p < n; ++p) {
    const Player& pl = ev.players[p];
    if (pl.join_round != 1 || pl.withdrawn_round != 0)
      o << "XQJ " << pl.number << " " << pl.join_round << " " << pl.withdrawn_round << "\n";
    bool any = std::any_of(fouls[p].begin(), fouls[p].end(), [](int f) { return f != 0; });
    if (any) {
      o << "XQF " << pl.number;
      for (int f : fouls[p]) o << " " << f;
      o << "\n";
    }
  }
  return o.str();
}

Event parse_trf(const std::string& text) {
  Event ev;
  Settings& s = ev.settings;
  struct Cell {
    int opp = 0;
    char colour = '-';
    std::string codes;
  };
  std::vector<std::vector<Cell>> cells;
  std::vector<std::pair<int, int>> forbidden_numbers;
  std::vector<std::vector<int>> join, foul_lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 3) continue;
    std::string tag = line.substr(0, 3);
    std::istringstream ls(line.size() > 4 ? line.substr(4) : "");
    if (tag == "012") {
      s.name = line.size() > 4 ? line.substr(4) : "";
    } else if (tag == "XXR") {
      ls >> s.rounds;
    } else if (tag == "XQG") {
      ls >> s.games_per_round;
    } else if (tag == "XQP") {
      ls >> s.win_points >> s.draw_points >> s.loss_points;
    } else if (tag == "XQM") {
      std::string m;
      ls >> m;
      s.round1 = parse_round1_mode(m);
    } else if (tag == "XQS") {
      ls >> s.seed;
    } else if (tag == "XQC") {
      ls >> s.colour_rules_hard >> s.forfeit_counts_as_met >> s.bye_blocked_by_forfeit_win >> s.max_forfeits;
      if (!(ls >> s.relax_colour_last_round_topscorers)) s.relax_colour_last_round_topscorers = true;
      std::string order;
      if (ls >> order) s.group_order = order == "adjacent" ? GroupOrder::Adjacent : GroupOrder::TopHalfVsBottomHalf;
    } else if (tag == "XQB") {
      std::string p;
      ls >> p >> s.forfeit_opp_as_bye >> s.absent_as_bye >> s.bye_counts_as_win;
      if (!(ls >> s.forfeit_win_counts_as_win)) s.forfeit_win_counts_as_win = false;  // older exports
      s.bye_opp = parse_bye_opp(p);
    } else if (tag == "XQT") {
      std::string list, id;
      ls >> list;
      std::istringstream ids(list);
      while (std::getline(ids, id, ',')) {
        bool found = false;
        for (auto& [t, name] : tb_ids())
          if (id == name) s.tiebreaks.push_back(t), found = true;
        if (!found) throw std::runtime_error("TRF: unknown tiebreak " + id);
      }
    } else if (tag == "XXP") {
      int a = 0, b = 0;
      ls >> a >> b;
      forbidden_numbers.emplace_back(a, b);
    } else if (tag == "XQJ") {
      int num = 0, j = 1, w = 0;
      ls >> num >> j >> w;
      join.push_back({num, j, w});
    } else if (tag == "XQF") {
      std::vector<int> v;
      int x;
      while (ls >> x) v.push_back(x);
      foul_lines.push_back(v);
    } else if (tag == "001") {
      if (line.size() < 89) throw std::runtime_error("TRF: short player line");
      Player p;
      p.number = std::stoi(line.substr(4, 4));
      std::string name = line.substr(14, 33);
      name.erase(name.find_last_not_of(' ') + 1);
      p.name = name;
      p.rating = std::stoi(line.substr(48, 4));
      ev.players.push_back(p);
      std::vector<Cell> row;
      std::istringstream rs(line.size() > 91 ? line.substr(91) : "");
      Cell c;
      while (rs >> c.opp >> c.colour >> c.codes) row.push_back(c);
      cells.push_back(row);
    }
  }
  const int n = static_cast<int>(ev.players.size());
  std::map<int, int> by_number;
  for (int p = 0; p < n; ++p) by_number[ev.players[p].number] = p;
  auto id_of = [&](int num) {
    auto it = by_number.find(num);
    if (it == by_number.end()) throw std::runtime_error("TRF: unknown pairing number " + std::to_string(num));
    return it->second;
  };
  for (auto [a, b] : forbidden_numbers) s.forbidden.emplace_back(id_of(a), id_of(b));
  for (auto& j : join) {
    Player& p = ev.players[id_of(j[0])];
    p.join_round = j[1];
    p.withdrawn_round = j[2];
  }
  std::size_t nr = 0;
  for (auto& r : cells) nr = std::max(nr, r.size());
  ev.rounds.resize(nr);
  auto points = [&](char c) {
    switch (c) {
      case '1': case '+': return s.win_points;
      case '=': return s.draw_points;
      default: return s.loss_points;
    }
  };
  for (std::size_t r = 0; r < nr; ++r) {
    Round& rd = ev.rounds[r];
    for (int p = 0; p < n; ++p) {
      if (r >= cells[p].size()) continue;
      const Cell& c = cells[p][r];
      if (c.codes == "U") {
        rd.boards.push_back({p, kBye, {}});
      } else if (c.opp == 0) {
        if (ev.players[p].join_round <= static_cast<int>(r) + 1) rd.unavailable.push_back(p);
      } else if (c.colour == 'w') {
        int q = id_of(c.opp);
        const Cell& d = cells[q].at(r);
        Board b{p, q, {}};
        if (c.codes.find('*') == std::string::npos) {
          for (std::size_t g = 0; g < c.codes.size(); ++g) {
            Game gm;
            char x = c.codes[g], y = g < d.codes.size() ? d.codes[g] : '0';
            gm.forfeit = x == '+' || x == '-';
            gm.a_points = points(x);
            gm.b_points = points(y);
            if (gm.forfeit && x == '-' && y == '-') gm.a_points = gm.b_points = 0;
            b.games.push_back(gm);
          }
        }
        rd.boards.push_back(b);
      }
    }
  }
  for (auto& f : foul_lines) {
    if (f.empty()) continue;
    int p = id_of(f[0]);
    for (std::size_t r = 1; r < f.size() && r - 1 < nr; ++r) {
      for (Board& b : ev.rounds[r - 1].boards) {
        if (b.games.empty()) continue;
        if (b.a == p) b.games[0].a_fouls += f[r];
        if (b.b == p) b.games[0].b_fouls += f[r];
      }
    }
  }
  // Keep the stored board order of each round comparable with the engine's.
  for (std::size_t r = 0; r < nr; ++r) {
    auto st = compute_states(ev, static_cast<int>(r));
    order_boards(ev, st, ev.rounds[r].boards);
  }
  return ev;
}

std::vector<Discrepancy> check_event(const Event& ev) {
  std::vector<Discrepancy> out;
  Event prefix = ev;
  prefix.rounds.clear();
  prefix.settings.self_check = true;
  auto name = [&](int p) {
    return p == kBye ? std::string("bye") : "#" + std::to_string(ev.players[p].number);
  };
  for (std::size_t r = 0; r < ev.rounds.size(); ++r) {
    const Round& actual = ev.rounds[r];
    PairingResult res = pair_round(prefix, actual.unavailable);
    const int rn = static_cast<int>(r) + 1;
    if (!res.ok) {
      out.push_back({rn, "engine could not pair this round: " + res.error});
    } else {
      std::set<std::pair<int, int>> want, got;
      for (const Board& b : res.record.boards) want.insert({b.a, b.b});
      for (const Board& b : actual.boards) got.insert({b.a, b.b});
      for (auto& [a, b] : got)
        if (!want.count({a, b})) {
          std::string msg = "board " + name(a) + "-" + name(b) + " differs from the engine";
          for (auto& [x, y] : want)
            if (x == a || y == a) msg += " (engine: " + name(x) + "-" + name(y) + ")";
          out.push_back({rn, msg});
        }
    }
    prefix.rounds.push_back(actual);
  }
  return out;
}

}  // namespace xq::pairing
