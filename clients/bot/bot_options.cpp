#include "bot_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <stdexcept>

namespace xqbot {
namespace {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

uint32_t parse_seconds(const std::string& s, const std::string& part) {
  uint32_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v > 6u * 3600)
    throw std::invalid_argument("bad time in seek \"" + part + "\" (want e.g. \"xiangqi 600+5\")");
  return v;
}

}  // namespace

std::vector<SeekSpec> parse_seek_specs(const std::string& text) {
  std::vector<SeekSpec> out;
  size_t from = 0;
  while (from <= text.size()) {
    size_t comma = text.find(',', from);
    if (comma == std::string::npos) comma = text.size();
    const std::string part = trim(text.substr(from, comma - from));
    from = comma + 1;
    if (part.empty()) {
      if (comma == text.size()) break;
      continue;
    }
    const size_t sp = part.find_first_of(" \t");
    if (sp == std::string::npos) throw std::invalid_argument("seek \"" + part + "\" has no time control");
    std::string variant = part.substr(0, sp);
    std::transform(variant.begin(), variant.end(), variant.begin(), [](unsigned char c) { return std::tolower(c); });
    SeekSpec s;
    if (variant == "xiangqi") s.variant = xq::v1::XIANGQI;
    else if (variant == "jieqi") s.variant = xq::v1::JIEQI;
    else throw std::invalid_argument("seek \"" + part + "\": the variant is xiangqi or jieqi");
    const std::string tc = trim(part.substr(sp));
    const size_t plus = tc.find('+');
    s.initial_ms = parse_seconds(tc.substr(0, plus), part) * 1000;
    s.increment_ms = plus == std::string::npos ? 0 : parse_seconds(tc.substr(plus + 1), part) * 1000;
    if (s.initial_ms == 0 || s.increment_ms > 120'000)
      throw std::invalid_argument("seek \"" + part + "\": initial 1 s to 6 h, increment at most 120 s");
    out.push_back(s);
    if (comma == text.size()) break;
  }
  return out;
}

std::string describe(const SeekSpec& s) {
  return std::string(s.variant == xq::v1::JIEQI ? "jieqi " : "xiangqi ") + std::to_string(s.initial_ms / 1000) + "+" +
         std::to_string(s.increment_ms / 1000);
}

std::optional<ServerUrl> parse_server_url(const std::string& url) {
  const std::string scheme = "ws://";
  if (url.rfind(scheme, 0) != 0) return std::nullopt;
  std::string rest = url.substr(scheme.size());
  ServerUrl u;
  const size_t slash = rest.find('/');
  if (slash != std::string::npos) {
    u.target = rest.substr(slash);
    rest = rest.substr(0, slash);
  }
  const size_t colon = rest.rfind(':');
  const size_t bracket = rest.find(']');  // [::1]:8080: the port's colon comes after the bracket
  if (colon == std::string::npos || (bracket != std::string::npos && colon < bracket)) {
    u.host = rest;
  } else {
    const std::string p = rest.substr(colon + 1);
    unsigned v = 0;
    auto [end, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
    if (p.empty() || ec != std::errc() || end != p.data() + p.size() || v == 0 || v > 65535) return std::nullopt;
    u.port = static_cast<uint16_t>(v);
    u.host = rest.substr(0, colon);
  }
  if (u.host.size() > 2 && u.host.front() == '[' && u.host.back() == ']') u.host = u.host.substr(1, u.host.size() - 2);
  if (u.host.empty()) return std::nullopt;
  return u;
}

}  // namespace xqbot
