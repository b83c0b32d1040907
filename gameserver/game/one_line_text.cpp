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

bool invisible(uint32_t cp) {
  return cp == ' ' || cp == 0xA0 || cp == 0xAD || cp == 0x115F || cp == 0x1160 || cp == 0x1680 || cp == 0x180E ||
         (cp >= 0x2000 && cp <= 0x200D) || cp == 0x202F || (cp >= 0x205F && cp <= 0x2064) || cp == 0x3000 ||
         cp == 0x3164 || cp == 0xFEFF || cp == 0xFFA0 || (cp >= 0xE0000 && cp <= 0xE007F) || (cp >= 0xFE00 && cp <= 0xFE0F);
}

bool combining(uint32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) || (cp >= 0x1DC0 && cp <= 0x1DFF) ||
         (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE20 && cp <= 0xFE2F);
}

bool shows_something(const std::string& text) {
  for (size_t i = 0; i < text.size();) {
    const uint32_t cp = next_code_point(text, i);
    if (!invisible(cp) && !combining(cp) && !refused_in_line(cp)) return true;
  }
  return false;
}

}  // namespace gs
