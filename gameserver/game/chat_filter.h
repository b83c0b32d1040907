// Words an operator does not want in the game chats (`--chat-blocked-words FILE`): a line that
// contains one is refused. Pure. Matching ignores ASCII case and the spaces and punctuation people
// put between letters to slip past a filter ("i d i o t", "id.iot"); Chinese words match as written
// (their characters are never split by a case or a space rule).
#pragma once
#include <string>
#include <vector>

namespace gs {

class ChatFilter {
 public:
  ChatFilter() = default;
  // One word or phrase per entry; empty entries and those with nothing left once normalised are
  // dropped.
  explicit ChatFilter(const std::vector<std::string>& words);
  // One entry per line; lines starting with '#' are comments. Throws std::runtime_error if the
  // file cannot be read.
  static ChatFilter from_file(const std::string& path);

  bool blocks(const std::string& text) const;
  size_t size() const { return words_.size(); }

 private:
  static std::string normalised(const std::string& text);
  std::vector<std::string> words_;  // normalised
};

}  // namespace gs
