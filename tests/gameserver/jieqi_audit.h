// Jieqi secrecy audit shared by the integration tests: checks one viewer's frames.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "xq.pb.h"

namespace {
using namespace xq::v1;

std::map<int, char> board_of(const std::string& fen) {
  std::map<int, char> b;
  int rank = 9, file = 0;
  for (char c : fen) {
    if (c == ' ') break;
    if (c == '/') {
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '9') {
      file += c - '0';
    } else {
      b[rank * 9 + file] = c;
      ++file;
    }
  }
  return b;
}

int darks(const std::map<int, char>& b) {
  int n = 0;
  for (auto& [sq, c] : b) n += (c == 'X' || c == 'x');
  return n;
}

int square_of(const std::string& iccs, size_t at) { return (iccs[at + 1] - '0') * 9 + (iccs[at] - 'a'); }

// Checks one viewer's frames: every FEN shows exactly the dark pieces it should, a captured dark
// piece's identity is shown only to the capturer, and no assignment/salt before the end. At least
// `min_moves` moves must have been checked (every move but the one that ended the game: a game of
// random moves may end early, when a revealed chariot or cannon mates).
void audit(const std::vector<ServerMessage>& frames, const std::string& gid, Side viewer, const std::string& assignment,
           const std::string& salt, int min_moves = 11) {
  std::string fen;
  bool ended = false;
  int checked_moves = 0;
  // The move that ends the game is rendered after the end, when everything is public.
  uint64_t end_version = UINT64_MAX;
  for (const auto& f : frames)
    if (f.has_game_event() && f.game_event().kind() == GameEvent::GAME_ENDED) end_version = f.game_event().version();
  for (const auto& f : frames) {
    std::string bytes = f.SerializeAsString();
    if (f.has_game_event() && f.game_event().kind() == GameEvent::GAME_ENDED) ended = true;
    if (!ended) {
      ASSERT_EQ(bytes.find(assignment), std::string::npos) << "assignment leaked to viewer " << viewer;
      ASSERT_EQ(bytes.find(salt), std::string::npos) << "salt leaked to viewer " << viewer;
    }
    if (f.has_game_started() && f.game_started().game_id() == gid) fen = f.game_started().fen();
    if (f.has_game_state() && f.game_state().game_id() == gid) fen = f.game_state().fen();
    if (!f.has_game_event() || f.game_event().game_id() != gid) continue;
    const GameEvent& e = f.game_event();
    if (e.kind() == GameEvent::GAME_ENDED) continue;
    if (e.kind() != GameEvent::MOVE || fen.empty() || e.version() + 1 == end_version) continue;
    auto before = board_of(fen);
    const std::string& iccs = e.move().iccs();
    int from = square_of(iccs, 0), to = square_of(iccs, 2);
    bool moved_dark = before.count(from) && (before[from] == 'X' || before[from] == 'x');
    bool captured_dark = before.count(to) && (before[to] == 'X' || before[to] == 'x');
    auto after = board_of(e.fen());
    EXPECT_EQ(darks(after), darks(before) - (moved_dark ? 1 : 0) - (captured_dark ? 1 : 0))
        << "dark piece count wrong for viewer " << viewer << " after " << iccs;
    if (captured_dark) {
      bool capturer = (viewer == RED && e.side() == RED) || (viewer == BLACK && e.side() == BLACK);
      if (!capturer) EXPECT_EQ(e.move().captured_type(), "") << "captured identity leaked to viewer " << viewer;
    }
    // A revealed piece shows its identity on the board, everything else stays dark.
    if (moved_dark) EXPECT_FALSE(e.move().reveal().empty());
    fen = e.fen();
    ++checked_moves;
  }
  EXPECT_GE(checked_moves, min_moves) << "viewer " << viewer;
  EXPECT_TRUE(ended);
}

}  // namespace
