#include <gtest/gtest.h>

#include <fstream>

#include "game/chat.h"
#include "game/chat_filter.h"
#include "game/codec.h"

using gs::ChatRoom;
using gs::GameChat;

TEST(GameChat, OneLineOfTextWithinTheLimits) {
  EXPECT_EQ(GameChat::text_error("good game"), "");
  EXPECT_EQ(GameChat::text_error("好棋！"), "");
  EXPECT_EQ(GameChat::text_error(std::string(200, 'a')), "");
  EXPECT_NE(GameChat::text_error(std::string(201, 'a')), "");
  // 200 characters of three bytes each are 600 bytes, and fine; one more is not.
  std::string han;
  for (int i = 0; i < 200; ++i) han += "棋";
  EXPECT_EQ(GameChat::text_error(han), "");
  EXPECT_NE(GameChat::text_error(han + "棋"), "");
  for (const std::string bad : {std::string(""), std::string("   "), std::string("two\nlines"), std::string("tab\there"),
                                std::string("nul\0x", 5), std::string("del\x7f"), std::string("next\xC2\x85line"),
                                std::string("para\xE2\x80\xA9graph"), std::string("evil\xE2\x80\xAEtxt.exe"),
                                std::string("isolate\xE2\x81\xA6x"),
                                // C1 controls (a terminal's CSI), direction marks
                                std::string("a\xC2\x9B" "2Jb"), std::string("a\xC2\x80"), std::string("x\xE2\x80\x8Fy"),
                                // lines that show nothing: no-break and ideographic spaces, zero-width
                                // characters, a Hangul filler, a BOM, tag characters
                                std::string("\xC2\xA0\xC2\xA0"), std::string("\xE3\x80\x80"), std::string("\xE2\x80\x8B"),
                                std::string("\xE2\x80\x8D"), std::string("\xE3\x85\xA4"), std::string("\xEF\xBB\xBF"),
                                std::string("\xF3\xA0\x81\x81\xF3\xA0\x81\x82"),
                                // a tower of accents
                                std::string("e") + "\xCC\x81\xCC\x82\xCC\x83\xCC\x84\xCC\x85"})
    EXPECT_NE(GameChat::text_error(bad), "") << bad;
  // Accents, joined emoji and a space inside a line are fine.
  EXPECT_EQ(GameChat::text_error("cafe\xCC\x81"), "");
  EXPECT_EQ(GameChat::text_error("\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9"), "");
  EXPECT_EQ(GameChat::text_error("\xE5\xA5\xBD\xE3\x80\x80\xE6\xA3\x8B"), "");
}

TEST(GameChat, RoomsKeepTheirOwnLastFiftyLines) {
  GameChat chat;
  std::string why;
  int64_t t = 0;
  for (int i = 0; i < 60; ++i) {
    // Different writers: the rate limit is per user.
    ASSERT_TRUE(chat.post(ChatRoom::Spectators, "u" + std::to_string(i), "n", "line " + std::to_string(i), t += 10, 1000 + i, &why)) << why;
  }
  ASSERT_TRUE(chat.post(ChatRoom::Players, "red", "Red", "hello", t += 10, 2000, &why));
  const auto& spect = chat.history(ChatRoom::Spectators);
  ASSERT_EQ(spect.size(), GameChat::kHistory);
  EXPECT_EQ(spect.front().text, "line 10");
  EXPECT_EQ(spect.back().text, "line 59");
  ASSERT_EQ(chat.history(ChatRoom::Players).size(), 1u);
  EXPECT_EQ(chat.history(ChatRoom::Players).front().seq, 1u) << "the spectators' sixty lines are not counted";
  EXPECT_EQ(spect.back().seq, 120u) << "their own: 2, 4, … 120";
  EXPECT_EQ(chat.history(ChatRoom::Players).front().at_ms, 2000);
}

TEST(GameChat, FiveLinesInTenSecondsAUser) {
  GameChat chat;
  std::string why;
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(chat.post(ChatRoom::Players, "red", "Red", "hi", 1000 + i, 0, &why)) << why;
  EXPECT_FALSE(chat.post(ChatRoom::Players, "red", "Red", "hi", 2000, 0, &why));
  EXPECT_NE(why.find("at most 5"), std::string::npos) << why;
  EXPECT_TRUE(chat.post(ChatRoom::Players, "black", "Black", "hi", 2000, 0, &why)) << "another user is not held back";
  EXPECT_TRUE(chat.post(ChatRoom::Players, "red", "Red", "hi", 1000 + 10'000, 0, &why)) << "the first line left the window";
  EXPECT_FALSE(chat.post(ChatRoom::Players, "red", "Red", "bad\nline", 50'000, 0, &why));
  EXPECT_EQ(chat.history(ChatRoom::Players).size(), 7u) << "refused lines are not kept";
}

TEST(GameChat, RestoredLinesKeepTheirOrderAndTheNumberingGoesOn) {
  GameChat chat;
  std::vector<gs::ChatEntry> stored;
  for (uint64_t seq = 1; seq <= 60; ++seq)
    stored.push_back({seq % 2 ? ChatRoom::Players : ChatRoom::Spectators, "u", "n", "line " + std::to_string(seq), 0, seq});
  std::swap(stored[0], stored[59]);  // stored out of order
  chat.restore(stored);
  EXPECT_EQ(chat.history(ChatRoom::Players).size(), 30u);
  EXPECT_EQ(chat.history(ChatRoom::Players).front().seq, 1u);
  EXPECT_EQ(chat.history(ChatRoom::Spectators).back().seq, 60u);
  std::string why;
  auto next = chat.post(ChatRoom::Players, "v", "m", "after", 0, 0, &why);
  ASSERT_TRUE(next) << why;
  EXPECT_EQ(next->seq, 61u);
  auto watcher = chat.post(ChatRoom::Spectators, "w", "m", "after", 0, 0, &why);
  ASSERT_TRUE(watcher) << why;
  EXPECT_EQ(watcher->seq, 62u);
  auto second = chat.post(ChatRoom::Players, "v2", "m", "again", 0, 0, &why);
  ASSERT_TRUE(second) << why;
  EXPECT_EQ(second->seq, 63u) << "a room's numbers go up by two whatever the other room writes";
}

TEST(GameChat, StoredFormRoundTrips) {
  const gs::ChatEntry e{ChatRoom::Spectators, "g-0123456789abcdef", "guest-张伟", "好棋 \"quoted\"", 1764500000000, 7};
  const gs::ChatEntry back = gs::decode_chat(gs::encode_chat(e));
  EXPECT_EQ(back.room, e.room);
  EXPECT_EQ(back.user_id, e.user_id);
  EXPECT_EQ(back.name, e.name);
  EXPECT_EQ(back.text, e.text);
  EXPECT_EQ(back.at_ms, e.at_ms);
  EXPECT_EQ(back.seq, e.seq);
  EXPECT_THROW(gs::decode_chat("{}"), std::exception);
}

// The operator's blocked words: found whatever the case and the spaces or punctuation put between
// their letters, Chinese ones as written; other lines pass; comments and blank lines in the file
// are not words.
TEST(ChatFilter, BlockedWordsAreFoundThroughCaseSpacesAndPunctuation) {
  const gs::ChatFilter none;
  EXPECT_FALSE(none.blocks("anything at all"));
  const gs::ChatFilter f({"idiot", "臭棋篓子", "", " . "});
  EXPECT_EQ(f.size(), 2u) << "entries with nothing left once normalised are dropped";
  for (const char* bad : {"you idiot", "IDIOT", "i d i o t!", "id.iot", "I-d_I*o t", "你这个臭棋篓子", "臭棋篓子。"})
    EXPECT_TRUE(f.blocks(bad)) << bad;
  for (const char* fine : {"good game", "idle moves", "臭棋", "好棋！", "i do it"})
    EXPECT_FALSE(f.blocks(fine)) << fine;
  const std::string path = ::testing::TempDir() + "/blocked-words.txt";
  {
    std::ofstream out(path);
    out << "# operator's list\n\nnoob\n";
  }
  const gs::ChatFilter from_file = gs::ChatFilter::from_file(path);
  EXPECT_EQ(from_file.size(), 1u);
  EXPECT_TRUE(from_file.blocks("N00B? no: noob"));
  EXPECT_FALSE(from_file.blocks("operator's list"));
  EXPECT_THROW(gs::ChatFilter::from_file(path + ".missing"), std::runtime_error);
}
