// Runs the `xq` tool (XQ_BINARY, a compile definition) and keeps what it printed.
#pragma once
#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

struct CliRun {
  int exit_code;
  std::string out;  // stdout and stderr
  std::string last_line() const {
    std::string s = out;
    while (!s.empty() && s.back() == '\n') s.pop_back();
    auto nl = s.rfind('\n');
    return nl == std::string::npos ? s : s.substr(nl + 1);
  }
};

inline CliRun xq(const std::string& args) {
  std::string cmd = std::string(XQ_BINARY) + " " + args + " 2>&1";
  FILE* f = popen(cmd.c_str(), "r");
  CliRun r{-1, ""};
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), f)) r.out.append(buf.data(), n);
  int status = pclose(f);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}
