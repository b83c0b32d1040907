#include "pairing/tiebreaks.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "pairing/state.h"

namespace xq::pairing {

const char* tiebreak_name(Tiebreak t) {
  switch (t) {
    case Tiebreak::OppScore: return "对手分";
    case Tiebreak::Progressive: return "累进分";
    case Tiebreak::SonnebornBerger: return "小分";
    case Tiebreak::Wins: return "胜局";
    case Tiebreak::BlackWins: return "后胜局";
    case Tiebreak::BlackGames: return "后走局数";
    case Tiebreak::Fouls: return "犯规";
    case Tiebreak::HeadToHead: return "直胜";
    case Tiebreak::PrevRoundScore: return "前一轮积分";
    case Tiebreak::DropEarlyRounds: return "去掉前轮";
    case Tiebreak::PrevRoundRank: return "前一轮名次";
    case Tiebreak::Lot: return "抽签";
  }
  return "?";
}

int bye_opponent_value(const Event& ev, const std::vector<int>& scores, int player_before, int r, int n,
                       int points_in_round) {
  const Settings& s = ev.settings;
  switch (s.bye_opp) {
    case ByeOppPolicy::LowestScoring: {
      int best = 0;
      bool any = false;
      for (int v : scores)
        if (v > 0 && (!any || v < best)) best = v, any = true;
      return any ? best : 0;
    }
    case ByeOppPolicy::LowestAll: return scores.empty() ? 0 : *std::min_element(scores.begin(), scores.end());
    case ByeOppPolicy::Zero: return 0;
    case ByeOppPolicy::VirtualOpponent: {
      // FIDE 2017-2022: S_before + (win - points scored in R) + draw * (n - R).
      int w = s.win_points * s.games_per_round, d = s.draw_points * s.games_per_round;
      return player_before + (w - points_in_round) + d * (n - r);
    }
    case ByeOppPolicy::OwnScore: return -1;  // resolved by the caller
  }
  return 0;
}

namespace {

using Key = std::vector<long long>;

struct Ctx {
  const Event& ev;
  int n;  // rounds counted
  std::vector<PlayerState> st;
  std::vector<StandingRow> rows;               // indexed by player
  const std::vector<std::vector<int>>* ranks;  // ranks after rounds 1..n-1 (indexed [k-1][player])
};

Key key_of(const Ctx& c, Tiebreak t, int p, const std::vector<int>& group) {
  const StandingRow& r = c.rows[p];
  switch (t) {
    case Tiebreak::OppScore: return {r.opp_score};
    case Tiebreak::Progressive: return {r.progressive};
    case Tiebreak::SonnebornBerger: return {r.sb2};
    case Tiebreak::Wins: return {r.wins};
    case Tiebreak::BlackWins: return {r.black_wins};
    case Tiebreak::BlackGames: return {r.black_games};
    case Tiebreak::Fouls: return {-r.fouls};
    case Tiebreak::HeadToHead: {
      // Mini-league of the tied players, only when all of them have met.
      for (int a : group)
        for (int b : group)
          if (a != b && !c.st[a].met.count(b)) return {0};
      long long pts = 0;
      for (const RoundEntry& e : c.st[p].rounds)
        if (e.kind == RoundKind::Played && std::find(group.begin(), group.end(), e.opponent) != group.end())
          pts += e.points;
      return {pts};
    }
    case Tiebreak::PrevRoundScore: {
      Key k;
      for (int i = c.n - 1; i >= 1; --i) k.push_back(r.running[i - 1]);
      return k;
    }
    case Tiebreak::DropEarlyRounds: {
      Key k;
      for (int drop = 1; drop < c.n; ++drop) k.push_back(r.score - r.running[drop - 1]);
      return k;
    }
    case Tiebreak::PrevRoundRank: {
      Key k;
      for (int i = c.n - 1; i >= 1; --i) k.push_back(-(*c.ranks)[i - 1][p]);
      return k;
    }
    case Tiebreak::Lot: return {static_cast<long long>(mix64(c.ev.settings.seed ^ mix64(0x6c6f74ULL + p)) >> 1)};
  }
  return {0};
}

std::string display(const StandingRow& r, Tiebreak t, const Key& k) {
  std::ostringstream o;
  switch (t) {
    case Tiebreak::SonnebornBerger:
      o << r.sb2 / 2 << (r.sb2 % 2 ? ".5" : "");
      return o.str();
    case Tiebreak::Fouls: o << r.fouls; return o.str();
    case Tiebreak::PrevRoundRank:
      for (std::size_t i = 0; i < k.size(); ++i) o << (i ? "," : "") << -k[i];
      return o.str();
    default:
      for (std::size_t i = 0; i < k.size(); ++i) o << (i ? "," : "") << k[i];
      return o.str();
  }
}

// Ranks after n rounds; ranks_prev holds the ranks after 1..n-1 rounds.
Standings standings_at(const Event& ev, int n, const std::vector<std::vector<int>>& ranks_prev) {
  const int np = static_cast<int>(ev.players.size());
  const Settings& s = ev.settings;
  Ctx c{ev, n, compute_states(ev, n), std::vector<StandingRow>(np), &ranks_prev};
  std::vector<int> finals(np);
  for (int p = 0; p < np; ++p) finals[p] = c.st[p].score;
  for (int p = 0; p < np; ++p) {
    StandingRow& r = c.rows[p];
    const PlayerState& ps = c.st[p];
    r.player = p;
    r.score = ps.score;
    const Player& pl = ev.players[p];
    r.withdrawn = (pl.withdrawn_round != 0 && pl.withdrawn_round <= n + 1) ||
                  (s.max_forfeits > 0 && ps.forfeits >= s.max_forfeits);
    int running = 0;
    for (int i = 0; i < n; ++i) {
      const RoundEntry& e = ps.rounds[i];
      int before = running;
      running += e.points;
      r.running.push_back(running);
      r.progressive += running;
      r.wins += e.wins;
      if (s.forfeit_win_counts_as_win) r.wins += e.forfeit_wins;
      r.black_wins += e.black_wins;
      r.black_games += e.black_games;
      r.fouls += e.fouls;
      auto bye_value = [&]() {
        if (s.bye_opp == ByeOppPolicy::OwnScore) return ps.score;
        return bye_opponent_value(ev, finals, before, i + 1, n, e.points);
      };
      switch (e.kind) {
        case RoundKind::Played:
          r.opp_score += finals[e.opponent];
          break;
        case RoundKind::ForfeitWin:
        case RoundKind::ForfeitLoss:
          r.opp_score += s.forfeit_opp_as_bye ? bye_value() : finals[e.opponent];
          break;
        case RoundKind::Bye:
          r.opp_score += bye_value();
          if (s.bye_counts_as_win) r.wins += s.games_per_round;
          break;
        // A round before a late entrant joined is a round they were absent from too (the TRF
        // writes both as Z; a reinstated player's missed rounds are counted the same way).
        case RoundKind::DoubleForfeit:
        case RoundKind::Absent:
        case RoundKind::None:
          if (s.absent_as_bye) r.opp_score += bye_value();
          break;
      }
      if (e.kind == RoundKind::Played) {
        // 小分 per game: full opponent score for a win, half for a draw.
        r.sb2 += 2 * finals[e.opponent] * e.wins + finals[e.opponent] * e.draws;
      }
    }
  }
  // Rank by refining tied groups with each criterion in turn.
  std::vector<int> order(np);
  for (int p = 0; p < np; ++p) order[p] = p;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (c.rows[a].score != c.rows[b].score) return c.rows[a].score > c.rows[b].score;
    return number_before(ev, a, b);
  });
  std::vector<std::vector<int>> groups;
  for (int p : order) {
    if (groups.empty() || c.rows[groups.back().front()].score != c.rows[p].score) groups.push_back({});
    groups.back().push_back(p);
  }
  std::vector<std::map<Tiebreak, Key>> keys(np);
  for (Tiebreak t : s.tiebreaks) {
    std::vector<std::vector<int>> next;
    for (auto& g : groups) {
      for (int p : g) keys[p][t] = key_of(c, t, p, g);
      if (g.size() == 1) {
        next.push_back(g);
        continue;
      }
      std::stable_sort(g.begin(), g.end(), [&](int a, int b) { return keys[a][t] > keys[b][t]; });
      std::vector<int> cur;
      for (int p : g) {
        if (!cur.empty() && keys[cur.front()][t] != keys[p][t]) {
          next.push_back(cur);
          cur.clear();
        }
        cur.push_back(p);
      }
      next.push_back(cur);
    }
    groups = std::move(next);
  }
  Standings out;
  out.after_round = n;
  // The lot is shown as the place it draws (1 = first), not as the 63-bit number it is drawn by.
  std::vector<int> lot_place;
  if (std::find(s.tiebreaks.begin(), s.tiebreaks.end(), Tiebreak::Lot) != s.tiebreaks.end()) {
    std::vector<Key> lots(np);
    for (int p = 0; p < np; ++p) lots[p] = key_of(c, Tiebreak::Lot, p, {p});
    lot_place.assign(np, 1);
    for (int p = 0; p < np; ++p)
      for (int q = 0; q < np; ++q)
        if (lots[q] > lots[p]) ++lot_place[p];
  }
  int pos = 0;
  for (auto& g : groups) {
    int rank = pos + 1;
    for (int p : g) {
      StandingRow r = c.rows[p];
      r.rank = rank;
      for (Tiebreak t : s.tiebreaks) {
        auto it = keys[p].find(t);
        Key k = it != keys[p].end() ? it->second : key_of(c, t, p, {p});
        r.tiebreak_values.push_back(t == Tiebreak::Lot ? std::to_string(lot_place[p]) : display(r, t, k));
      }
      out.rows.push_back(std::move(r));
      ++pos;
    }
  }
  return out;
}

}  // namespace

Standings compute_standings(const Event& ev, int upto) {
  const int n = upto < 0 ? static_cast<int>(ev.rounds.size()) : upto;
  const bool needs_prev =
      std::find(ev.settings.tiebreaks.begin(), ev.settings.tiebreaks.end(), Tiebreak::PrevRoundRank) !=
      ev.settings.tiebreaks.end();
  std::vector<std::vector<int>> ranks;  // ranks[k-1][player] after k rounds
  if (needs_prev) {
    for (int k = 1; k < n; ++k) {
      Standings sk = standings_at(ev, k, ranks);
      std::vector<int> rk(ev.players.size(), 0);
      for (const auto& row : sk.rows) rk[row.player] = row.rank;
      ranks.push_back(std::move(rk));
    }
  }
  return standings_at(ev, n, ranks);
}

}  // namespace xq::pairing
