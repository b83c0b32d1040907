#include "bot_accounts.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace gs {

static std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

BotAccounts BotAccounts::parse(const std::string& names) {
  BotAccounts b;
  std::istringstream in(names);
  for (std::string name; std::getline(in, name, ',');) {
    const auto first = name.find_first_not_of(" \t"), last = name.find_last_not_of(" \t");
    if (first != std::string::npos) b.lower_names_.insert(lower(name.substr(first, last - first + 1)));
  }
  return b;
}

bool BotAccounts::contains(const std::string& name, bool guest) const {
  return !guest && lower_names_.count(lower(name)) > 0;
}

}  // namespace gs
