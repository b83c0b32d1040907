#include <gtest/gtest.h>

#include <string>
#include <vector>

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

// Passwords (security review, 2026-12-04): NUL made "\0\0\0\0\0\0" the same password as "" (the hash
// keys HMAC with it, which pads with zero bytes), and blanks other than space and tab passed.
TEST(Passwords, SixToTwoHundredBytesWithoutControlsAndNotOnlyBlank) {
  using gs::valid_password;
  for (const std::string& ok : std::vector<std::string>{"secret", "x123456", "six six", "密码密码", "pass\xE2\x80\x8Bword" /* a zero-width space inside */,
                               std::string(200, 'a')})
    EXPECT_TRUE(valid_password(ok)) << ok;
  for (const std::string& bad : std::vector<std::string>{std::string(), std::string("abcde"), std::string(201, 'a'), std::string(6, '\0'),
                                std::string("secret\0", 7), std::string("tab\tin it"), std::string("line\nbreak"),
                                std::string("del\x7F" "char"), std::string("c1\xC2\x85next"), std::string("      "),
                                std::string("\xE3\x80\x80\xE3\x80\x80\xE3\x80\x80") /* three ideographic spaces */,
                                std::string("\xE2\x80\x8B\xE2\x80\x8B\xE2\x80\x8B") /* zero-width spaces */})
    EXPECT_FALSE(valid_password(bad)) << bad.size();
}
