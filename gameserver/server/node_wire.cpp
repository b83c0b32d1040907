#include "server/node_wire.h"

#include <algorithm>
#include <charconv>

namespace gs {

static void put(std::string& out, std::string_view field) {
  out += std::to_string(field.size());
  out += ':';
  out += field;
}

std::string encode(const NodeMessage& m) {
  std::string out(1, static_cast<char>(m.kind));
  put(out, m.from_node);
  put(out, std::to_string(m.conn));
  put(out, m.user_id);
  put(out, m.user_name);
  put(out, m.guest ? "1" : "0");
  put(out, std::to_string(m.hops));
  put(out, m.payload);
  put(out, std::to_string(m.users.size()));
  for (const auto& u : m.users) put(out, u);
  return out;
}

namespace {
struct Reader {
  std::string_view in;
  bool ok = true;
  std::string_view field() {
    auto colon = in.find(':');
    size_t len = 0;
    if (!ok || colon == std::string_view::npos || colon == 0 || colon > 10) return fail();
    auto [p, ec] = std::from_chars(in.data(), in.data() + colon, len);
    if (ec != std::errc() || p != in.data() + colon || len > in.size() - colon - 1) return fail();
    std::string_view f = in.substr(colon + 1, len);
    in.remove_prefix(colon + 1 + len);
    return f;
  }
  uint64_t number() {
    auto f = field();
    uint64_t v = 0;
    auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
    if (!ok || ec != std::errc() || p != f.data() + f.size()) fail();
    return v;
  }
  std::string_view fail() {
    ok = false;
    return {};
  }
};
}  // namespace

std::optional<NodeMessage> decode_node_message(std::string_view bytes) {
  if (bytes.empty()) return std::nullopt;
  NodeMessage m;
  switch (bytes[0]) {
    case 'R': case 'F': case 'C': case 'S': case 'N': case 'A': case 'B': case 'U': m.kind = static_cast<NodeMessage::Kind>(bytes[0]); break;
    default: return std::nullopt;
  }
  Reader r{bytes.substr(1)};
  m.from_node = r.field();
  m.conn = r.number();
  m.user_id = r.field();
  m.user_name = r.field();
  m.guest = r.field() == "1";
  m.hops = static_cast<int>(std::min<uint64_t>(r.number(), 1000));
  m.payload = r.field();
  uint64_t n = r.number();
  if (!r.ok || n > 100000) return std::nullopt;
  for (uint64_t i = 0; i < n && r.ok; ++i) m.users.emplace_back(r.field());
  if (!r.ok || !r.in.empty()) return std::nullopt;
  return m;
}

}  // namespace gs
