// The accounts the operator runs as computer players (--bot-accounts): shown as such to players
// (Player.bot), so that nobody mistakes the engine for a person or a person for the engine.
#pragma once
#include <set>
#include <string>

namespace gs {

class BotAccounts {
 public:
  // Comma-separated registered account names; spaces around names are ignored.
  static BotAccounts parse(const std::string& names);
  // Registered accounts only: a guest named like a bot account is a person.
  bool contains(const std::string& name, bool guest) const;
  bool empty() const { return lower_names_.empty(); }

 private:
  std::set<std::string> lower_names_;  // account names match without regard to case, as at login
};

}  // namespace gs
