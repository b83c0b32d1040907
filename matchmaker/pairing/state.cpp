#include "pairing/state.h"

#include <algorithm>

namespace xq::pairing {

int bye_points(const Settings& s) { return s.win_points * s.games_per_round; }

std::vector<PlayerState> compute_states(const Event& ev, int upto) {
  const int n = static_cast<int>(ev.players.size());
  const Settings& s = ev.settings;
  std::vector<PlayerState> st(n);
  for (int r = 0; r < upto; ++r) {
    const Round& rd = ev.rounds[r];
    std::vector<RoundEntry> e(n);
    for (int p = 0; p < n; ++p)
      if (ev.players[p].join_round <= r + 1) e[p].kind = RoundKind::Absent;
    for (const Board& b : rd.boards) {
      if (b.b == kBye) {
        e[b.a] = RoundEntry{};
        e[b.a].kind = RoundKind::Bye;
        e[b.a].points = bye_points(s);
        e[b.a].float_dir = -1;
        continue;
      }
      RoundEntry& ea = e[b.a];
      RoundEntry& eb = e[b.b];
      ea = RoundEntry{};
      eb = RoundEntry{};
      ea.opponent = b.b;
      eb.opponent = b.a;
      bool any_played = false, any_forfeit = false, a_forfeited = false, b_forfeited = false;
      for (std::size_t g = 0; g < b.games.size(); ++g) {
        const Game& gm = b.games[g];
        ea.points += gm.a_points;
        eb.points += gm.b_points;
        ea.fouls += gm.a_fouls;
        eb.fouls += gm.b_fouls;
        if (gm.forfeit) {
          any_forfeit = true;
          a_forfeited |= gm.a_points <= gm.b_points;
          b_forfeited |= gm.b_points <= gm.a_points;
          ea.forfeit_wins += gm.a_points > gm.b_points;
          eb.forfeit_wins += gm.b_points > gm.a_points;
          continue;
        }
        any_played = true;
        bool a_red = (g % 2 == 0);
        RoundEntry& black_side = a_red ? eb : ea;
        black_side.black_games++;
        if (gm.a_points > gm.b_points) {
          ea.wins++, eb.losses++;
          if (!a_red) ea.black_wins++;
        } else if (gm.a_points < gm.b_points) {
          eb.wins++, ea.losses++;
          if (a_red) eb.black_wins++;
        } else {
          ea.draws++, eb.draws++;
        }
      }
      // A no-show counts once per round, also when the round has two games.
      st[b.a].forfeits += a_forfeited;
      st[b.b].forfeits += b_forfeited;
      ea.forfeited = a_forfeited;
      eb.forfeited = b_forfeited;
      if (any_played) {
        ea.kind = eb.kind = RoundKind::Played;
        ea.colour = Colour::Red;
        eb.colour = Colour::Black;
      } else if (any_forfeit) {
        if (ea.points > eb.points) {
          ea.kind = RoundKind::ForfeitWin, eb.kind = RoundKind::ForfeitLoss;
        } else if (eb.points > ea.points) {
          eb.kind = RoundKind::ForfeitWin, ea.kind = RoundKind::ForfeitLoss;
        } else {
          ea.kind = eb.kind = RoundKind::DoubleForfeit;
        }
      } else {
        // Paired but no result yet: treat as a meeting with no points.
        ea.kind = eb.kind = RoundKind::Played;
        ea.colour = Colour::Red;
        eb.colour = Colour::Black;
      }
      int sa = st[b.a].score, sb = st[b.b].score;
      ea.float_dir = sb > sa ? 1 : (sb < sa ? -1 : 0);
      eb.float_dir = sa > sb ? 1 : (sa < sb ? -1 : 0);
    }
    for (int p = 0; p < n; ++p) {
      PlayerState& ps = st[p];
      const RoundEntry& re = e[p];
      ps.score += re.points;
      if (re.kind == RoundKind::Bye) ps.byes++;
      if (re.kind == RoundKind::ForfeitWin) ps.forfeit_win = true;
      if (re.opponent >= 0) {
        bool met = re.kind == RoundKind::Played ||
                   (s.forfeit_counts_as_met && re.kind != RoundKind::None);
        if (met) ps.met.insert(re.opponent);
      }
      if (re.kind == RoundKind::Played && s.games_per_round == 1) {
        ps.colours.push_back(re.colour);
        (re.colour == Colour::Red ? ps.reds : ps.blacks)++;
      }
      ps.rounds.push_back(re);
    }
  }
  return st;
}

std::vector<int> removal_rounds(const Event& ev) {
  std::vector<int> out(ev.players.size(), 0);
  if (ev.settings.max_forfeits <= 0) return out;
  const std::vector<PlayerState> st = compute_states(ev, static_cast<int>(ev.rounds.size()));
  for (size_t p = 0; p < out.size(); ++p) {
    int forfeits = 0;
    for (size_t r = 0; r < st[p].rounds.size() && out[p] == 0; ++r)
      if ((forfeits += st[p].rounds[r].forfeited) >= ev.settings.max_forfeits) out[p] = static_cast<int>(r) + 1;
  }
  return out;
}

bool is_available(const Event& ev, const std::vector<PlayerState>& st, int p, int round,
                  const std::vector<int>& unavailable) {
  const Player& pl = ev.players[p];
  if (pl.join_round > round) return false;
  if (pl.withdrawn_round != 0 && round >= pl.withdrawn_round) return false;
  if (ev.settings.max_forfeits > 0 && st[p].forfeits >= ev.settings.max_forfeits) return false;
  return std::find(unavailable.begin(), unavailable.end(), p) == unavailable.end();
}

}  // namespace xq::pairing
