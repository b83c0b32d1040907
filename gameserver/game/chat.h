// A game's chat, without I/O (time is passed in): what may be written, how fast, and the lines a
// newcomer to a room is shown. Two rooms: the players' (read by the two players) and the
// spectators' (read by the spectators), so no advice reaches a player. GameActor sends the lines.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gs {

enum class ChatRoom { Players = 1, Spectators = 2 };

struct ChatEntry {
  ChatRoom room = ChatRoom::Players;
  std::string user_id, name, text;
  int64_t at_ms = 0;  // wall time
  // Unique in the game: the players' lines are numbered 1, 3, 5 …, the spectators' 2, 4, 6 …, each
  // room on its own, so the numbers a room reads tell nothing of the other room's talk.
  uint64_t seq = 0;
};

class GameChat {
 public:
  static constexpr size_t kHistory = 50;       // lines kept per room
  static constexpr size_t kMaxChars = 200;     // Unicode characters a line
  static constexpr size_t kBurst = 5;          // lines a user may write …
  static constexpr int64_t kWindowMs = 10'000;  // … within this time

  // "" if `text` may be a line: 1..kMaxChars characters, not only spaces, no control characters,
  // line breaks (Unicode's too) or bidirectional overrides (which make a line read as another).
  static std::string text_error(const std::string& text);

  // Records a line, or says why not (text, or the user writing faster than the limit).
  std::optional<ChatEntry> post(ChatRoom room, const std::string& user_id, const std::string& name,
                                const std::string& text, int64_t steady_now_ms, int64_t wall_now_ms, std::string* why);
  // Lines stored before (a reload or takeover of the game), in any order: kept as they were,
  // the newest kHistory per room, and each room's numbering goes on after all of them.
  void restore(std::vector<ChatEntry> lines);
  const std::deque<ChatEntry>& history(ChatRoom room) const {
    return room == ChatRoom::Players ? players_ : spectators_;
  }

 private:
  std::deque<ChatEntry> players_, spectators_;
  std::map<std::string, std::deque<int64_t>> recent_;  // user → steady times of their last lines
  uint64_t next_players_ = 1, next_spectators_ = 2;
};

}  // namespace gs
