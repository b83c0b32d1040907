#include "pairing/types.h"

#include <stdexcept>

namespace xq::pairing {

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::vector<Tiebreak> tiebreak_preset(const std::string& name) {
  using T = Tiebreak;
  if (name == "jieqi") return {T::OppScore, T::Progressive, T::Fouls, T::PrevRoundRank, T::Lot};
  if (name == "cxa-14.3.1")
    return {T::OppScore, T::Wins, T::Fouls, T::BlackGames, T::PrevRoundScore, T::Lot};
  if (name == "cxa-14.3.2")
    return {T::Progressive, T::Wins, T::Fouls, T::BlackGames, T::DropEarlyRounds, T::Lot};
  // The senior seed's own chain: 对手分、胜局、犯规、直胜、后走局数, then previous-round score.
  if (name == "senior")
    return {T::OppScore, T::Wins, T::Fouls, T::HeadToHead, T::BlackGames, T::PrevRoundScore, T::Lot};
  throw std::invalid_argument("unknown tiebreak preset: " + name);
}

void assign_pairing_numbers(Event& ev) {
  const int n = static_cast<int>(ev.players.size());
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::uint64_t s = mix64(ev.settings.seed ^ 0x6e756d62657273ULL);  // "numbers"
  // Fisher-Yates with our own generator: identical on every platform.
  for (int i = n - 1; i > 0; --i) {
    s = mix64(s);
    int j = static_cast<int>(s % static_cast<std::uint64_t>(i + 1));
    std::swap(order[i], order[j]);
  }
  for (int k = 0; k < n; ++k) ev.players[order[k]].number = k + 1;
}

std::string player_label(const Event& ev, int p) {
  const Player& pl = ev.players[p];
  return (pl.number > 0 ? "#" + std::to_string(pl.number) + " " : "") + pl.name;
}

}  // namespace xq::pairing
