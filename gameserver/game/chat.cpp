#include "game/chat.h"

#include "game/one_line_text.h"

#include <algorithm>

namespace gs {

std::string GameChat::text_error(const std::string& text) {
  static const std::string kOneLine = "a chat line is one line of text, without control characters";
  size_t chars = 0;
  int marks = 0;  // combining marks in a row: a few accents, not a tower of them
  bool visible = false;
  for (size_t i = 0; i < text.size();) {
    const uint32_t cp = next_code_point(text, i);
    ++chars;
    if (refused_in_line(cp)) return kOneLine;
    marks = combining(cp) ? marks + 1 : 0;
    if (marks > 4) return "at most four accents on a character";
    if (!invisible(cp) && !combining(cp)) visible = true;
  }
  if (!visible) return "an empty chat line";
  if (chars > kMaxChars) return "a chat line has at most " + std::to_string(kMaxChars) + " characters";
  return "";
}

void GameChat::restore(std::vector<ChatEntry> lines) {
  std::sort(lines.begin(), lines.end(), [](const ChatEntry& a, const ChatEntry& b) { return a.seq < b.seq; });
  uint64_t last = 0;
  for (ChatEntry& e : lines) {
    auto& room = e.room == ChatRoom::Players ? players_ : spectators_;
    last = std::max(last, e.seq);
    room.push_back(std::move(e));
    if (room.size() > kHistory) room.pop_front();
  }
  // Past every stored number (lines stored before the rooms had numbers of their own may have
  // either parity), the players' odd, the spectators' even.
  next_players_ = std::max(next_players_, last + 1 + (last % 2));
  next_spectators_ = std::max(next_spectators_, last + 2 - (last % 2));
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
  uint64_t& next = room == ChatRoom::Players ? next_players_ : next_spectators_;
  ChatEntry e{room, user_id, name, text, wall_now_ms, next};
  next += 2;
  auto& lines = room == ChatRoom::Players ? players_ : spectators_;
  lines.push_back(e);
  if (lines.size() > kHistory) lines.pop_front();
  return e;
}

}  // namespace gs
