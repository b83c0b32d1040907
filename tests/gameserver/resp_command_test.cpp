// The hand-written request form against hiredis's own formatter, byte for byte.
#include "store/resp_command.h"

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <string>
#include <vector>

namespace {

std::string hiredis_form(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const auto& a : args) argv.push_back(a.data()), lens.push_back(a.size());
  char* out = nullptr;
  const long long n = redisFormatCommandArgv(&out, static_cast<int>(args.size()), argv.data(), lens.data());
  std::string s(out, static_cast<size_t>(n));
  redisFreeCommand(out);
  return s;
}

std::string ours(const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  std::vector<size_t> lens;
  for (const auto& a : args) argv.push_back(a.data()), lens.push_back(a.size());
  return gs::resp_command(args.size(), argv.data(), lens.data());
}

TEST(RespCommand, WritesTheProtocolsRequestForm) {
  EXPECT_EQ(ours({"GET", "k"}), "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
  EXPECT_EQ(ours({"SET", "k", ""}), "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n");
}

TEST(RespCommand, MatchesHiredisForEmptyBinaryAndLongArguments) {
  const std::vector<std::vector<std::string>> cases = {
      {"PING"},
      {"SET", "", ""},
      {"PUBLISH", "{xq}:ch", std::string("a\0b\r\n\xff", 6)},
      {"EVALSHA", std::string(40, 'f'), "2", "{xq}:game:1", "{xq}:game:2", std::string(100000, 'x'), "12345678901"},
  };
  for (const auto& args : cases) EXPECT_EQ(ours(args), hiredis_form(args)) << args[0];
}

}  // namespace
