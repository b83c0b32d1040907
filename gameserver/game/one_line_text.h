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
// A code point that shows nothing: spaces of every width, zero-width and format characters,
// fillers, tag characters, variation selectors.
bool invisible(uint32_t cp);
// A combining mark (an accent put on the character before it).
bool combining(uint32_t cp);
// True if `text` shows something: a code point neither invisible nor combining.
bool shows_something(const std::string& text);

}  // namespace gs
