#include <gtest/gtest.h>

#include "auth/auth.h"

using gs::valid_user_name;

TEST(UserNames, LettersDigitsAndChineseCharacters) {
  for (const char* ok : {"bob", "Ann_Lee", "x-9", "王伟", "张志强", "李a", "wang_伟", "㐀㐁", "abcdefghijklmnopqrst",
                         "一二三四五六七八九十一二三四五六七八九十"})
    EXPECT_TRUE(valid_user_name(ok)) << ok;
  for (const char* bad : {"", "ab", "王", "a b", "abcdefghijklmnopqrstu", "一二三四五六七八九十一二三四五六七八九十一",
                          "bob!", "Ελένη", "Алла", "ｂｏｂ", "王\xE4\xBC", "\xE4\xBC\x9F\xFF", "名|字", "😀😀😀",
                          "王　伟" /* ideographic space */, "。。。"})
    EXPECT_FALSE(valid_user_name(bad)) << bad;
}
