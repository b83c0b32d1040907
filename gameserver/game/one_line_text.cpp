#include "game/one_line_text.h"

namespace gs {

uint32_t next_code_point(const std::string& text, size_t& i) {
  const auto b = static_cast<unsigned char>(text[i]);
  const int extra = b < 0x80 ? 0 : (b & 0xE0) == 0xC0 ? 1 : (b & 0xF0) == 0xE0 ? 2 : (b & 0xF8) == 0xF0 ? 3 : 0;
  uint32_t cp = extra == 0 ? b : b & (0x3F >> extra);
  ++i;
  for (int k = 0; k < extra && i < text.size(); ++k, ++i) cp = (cp << 6) | (static_cast<unsigned char>(text[i]) & 0x3F);
  return cp;
}

bool refused_in_line(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x061C || cp == 0x200E ||
         cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0xFFF9 && cp <= 0xFFFB);
}

bool one_line_text(const std::string& text) {
  for (size_t i = 0; i < text.size();)
    if (refused_in_line(next_code_point(text, i))) return false;
  return true;
}

}  // namespace gs
