#include "game/chat_filter.h"

#include <fstream>
#include <stdexcept>

namespace gs {

// Lower-case ASCII letters and digits, and every byte of a multi-byte UTF-8 character, kept in
// order; ASCII spaces, punctuation and symbols dropped.
std::string ChatFilter::normalised(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (c >= 0x80) out += static_cast<char>(c);
    else if (c >= 'A' && c <= 'Z') out += static_cast<char>(c - 'A' + 'a');
    else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out += static_cast<char>(c);
  }
  return out;
}

ChatFilter::ChatFilter(const std::vector<std::string>& words) {
  for (const auto& w : words)
    if (std::string n = normalised(w); !n.empty()) words_.push_back(std::move(n));
}

ChatFilter ChatFilter::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::vector<std::string> words;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') words.push_back(line);
  return ChatFilter(words);
}

bool ChatFilter::blocks(const std::string& text) const {
  if (words_.empty()) return false;
  const std::string n = normalised(text);
  for (const auto& w : words_)
    if (n.find(w) != std::string::npos) return true;
  return false;
}

}  // namespace gs
