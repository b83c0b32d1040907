#include "notice.h"

#include <algorithm>
#include <stdexcept>

namespace xq::mm {

const std::vector<std::pair<std::string_view, std::string_view>>& notice_templates() {
  static const std::vector<std::pair<std::string_view, std::string_view>> table = {
      {"event_started", "event started"},
      {"event_finished", "event finished"},
      {"event_paused", "event paused"},
      {"event_paused_because", "event paused by the organiser: {reason}"},
      {"event_resumed", "event resumed"},
      {"event_cancelled", "event cancelled by the organiser"},
      {"event_cancelled_because", "event cancelled by the organiser: {reason}"},
      {"settings_changed", "settings changed: {list}"},
      {"round_paired", "round {round} paired"},
      {"round_paired_ahead",
       "round {round} paired (not by the best pairing, which would have left round {next} with no pairing free of "
       "rematches and second byes)"},
      {"round_started", "round {round} started"},
      {"pairing_edited", "round {round} pairing edited"},
      {"paired_again_with", "round {round} paired again with {name}"},
      {"paired_again_without", "round {round} paired again without {name}"},
      {"pair_again_by_hand", "round {round} must be paired again by the organiser: {why}"},
      {"paused_pairing_failed", "paused: {why}; the organiser must pair the round"},
      {"playoff_started", "play-off started"},
      {"playoff_drawn", "play-off drawn: its games start with the next round"},
      {"playoff_games_started", "play-off games started"},
      {"joined", "{name} joined"},
      {"withdrew", "{name} withdrew"},
      {"withdrawn_banned", "{name} withdrawn: account banned"},
      {"reinstated", "{name} is back in the event"},
      {"warned", "{name} warned"},
      {"warned_because", "{name} warned: {reason}"},
      {"disqualified", "{name} disqualified"},
      {"disqualified_because", "{name} disqualified: {reason}"},
      {"removed_for_forfeits", "{name} is out of the event after round {round}: {limit} forfeits, the event's limit"},
      {"back_after_correction", "{name} is back in the event: after the correction, fewer than {limit} forfeits"},
      {"not_played_withdrew", "{game} not played: {name} withdrew"},
      {"not_played_disqualified", "{game} not played: {name} is disqualified"},
      {"never_paired", "never paired from now on: {a} – {b}"},
      {"result_corrected", "round {round}, board {board}: {red} – {black} corrected to {score}"},
      {"result_corrected_game", "round {round}, board {board}, game {game}: {red} – {black} corrected to {score}"},
      {"knockout_corrected", "{knockout}: {red} – {black} corrected to {score}"},
      {"knockout_replayed", "{knockout}: {red} – {black} was aborted and is played again"},
      {"foul", "round {round}, board {board}: a foul recorded against {name} ({count} in this game)"},
      {"foul_game", "round {round}, board {board}, game {game}: a foul recorded against {name} ({count} in this game)"},
  };
  return table;
}

Notice make_notice(std::string_view code, std::vector<std::pair<std::string, std::string>> params) {
  const auto& table = notice_templates();
  auto it = std::find_if(table.begin(), table.end(), [&](const auto& e) { return e.first == code; });
  if (it == table.end()) throw std::logic_error("notice without a template: " + std::string(code));
  std::string text;
  std::string_view rest = it->second;
  for (size_t open; (open = rest.find('{')) != std::string_view::npos;) {
    const size_t close = rest.find('}', open);
    const std::string_view name = rest.substr(open + 1, close - open - 1);
    auto p = std::find_if(params.begin(), params.end(), [&](const auto& kv) { return kv.first == name; });
    if (p == params.end()) throw std::logic_error("notice " + std::string(code) + " needs {" + std::string(name) + "}");
    text.append(rest.substr(0, open)).append(p->second);
    rest.remove_prefix(close + 1);
  }
  text.append(rest);
  return {std::string(code), std::move(params), std::move(text)};
}

}  // namespace xq::mm
