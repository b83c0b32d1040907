// A notice to an event's players and organiser ("round 2 paired"): a stable code with named
// parameters, which clients say in their own language, and the English text for logs and for
// clients that do not know the code. docs/protocol.md lists the codes.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace xq::mm {

struct Notice {
  std::string code;
  std::vector<std::pair<std::string, std::string>> params;  // name → value (names, numbers as text)
  std::string text;                                          // the English sentence
  bool operator==(const Notice&) const = default;
};

// The notice `code` with its parameters; the text comes from the code's English template.
// Throws std::logic_error for a code without a template or a parameter it does not name.
Notice make_notice(std::string_view code, std::vector<std::pair<std::string, std::string>> params = {});

// Every code and its English template ("round {round} paired"), for the docs and the tests.
const std::vector<std::pair<std::string_view, std::string_view>>& notice_templates();

}  // namespace xq::mm
