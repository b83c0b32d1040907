// What a line of text shown to others may hold (a chat line, an event's name, an arbiter's
// reason): no control characters (C0, DEL, C1), no line or paragraph breaks (Unicode's too), and
// none of the marks, overrides and isolates that make a line read in another order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace gs {

// The UTF-8 code point at text[i], advancing i past it (a malformed byte is taken as it is: the
// frame and JSON decoders have checked the encoding).
uint32_t next_code_point(const std::string& text, size_t& i);
// A code point a line of text may not hold (above).
bool refused_in_line(uint32_t cp);
// True if no code point of `text` is refused.
bool one_line_text(const std::string& text);

}  // namespace gs
