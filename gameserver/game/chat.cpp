#include "game/chat.h"

#include <algorithm>
#include <array>

namespace gs {

std::string GameChat::text_error(const std::string& text) {
  size_t chars = 0;
  bool visible = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if ((b & 0xC0) != 0x80) ++chars;  // a character starts at every byte that is not a continuation
    if (b < 0x20 || b == 0x7f) return "a chat line is one line of text, without control characters";
    if (b != ' ') visible = true;
  }
  // U+0085, U+2028, U+2029 (line breaks); U+202A–U+202E and U+2066–U+2069 (bidirectional controls).
  static const std::array<const char*, 12> kRefused = {"\xC2\x85",     "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAA",
                                                       "\xE2\x80\xAB", "\xE2\x80\xAC", "\xE2\x80\xAD", "\xE2\x80\xAE",
                                                       "\xE2\x81\xA6", "\xE2\x81\xA7", "\xE2\x81\xA8", "\xE2\x81\xA9"};
  for (const char* seq : kRefused)
    if (text.find(seq) != std::string::npos) return "a chat line is one line of text, without control characters";
  if (!visible) return "an empty chat line";
  if (chars > kMaxChars) return "a chat line has at most " + std::to_string(kMaxChars) + " characters";
  return "";
}

void GameChat::restore(std::vector<ChatEntry> lines) {
  std::sort(lines.begin(), lines.end(), [](const ChatEntry& a, const ChatEntry& b) { return a.seq < b.seq; });
  for (ChatEntry& e : lines) {
    auto& room = e.room == ChatRoom::Players ? players_ : spectators_;
    seq_ = std::max(seq_, e.seq);
    room.push_back(std::move(e));
    if (room.size() > kHistory) room.pop_front();
  }
}

std::optional<ChatEntry> GameChat::post(ChatRoom room, const std::string& user_id, const std::string& name,
                                        const std::string& text, int64_t steady_now_ms, int64_t wall_now_ms,
                                        std::string* why) {
  if (std::string e = text_error(text); !e.empty()) {
    if (why) *why = e;
    return std::nullopt;
  }
  auto& recent = recent_[user_id];
  while (!recent.empty() && recent.front() <= steady_now_ms - kWindowMs) recent.pop_front();
  if (recent.size() >= kBurst) {
    if (why) *why = "at most " + std::to_string(kBurst) + " chat lines in " + std::to_string(kWindowMs / 1000) + " seconds";
    return std::nullopt;
  }
  recent.push_back(steady_now_ms);
  ChatEntry e{room, user_id, name, text, wall_now_ms, ++seq_};
  auto& lines = room == ChatRoom::Players ? players_ : spectators_;
  lines.push_back(e);
  if (lines.size() > kHistory) lines.pop_front();
  return e;
}

}  // namespace gs
