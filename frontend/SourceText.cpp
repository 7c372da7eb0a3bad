//===- SourceText.cpp - what counts as .kiln source text ------------------===//

#include "frontend/SourceText.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace kiln;

std::pair<uint32_t, unsigned> kiln::decodeUTF8(const char *p,
                                               const char *end) {
  auto byte = [](char c) { return static_cast<unsigned char>(c); };
  unsigned char lead = byte(*p);
  if (lead < 0x80)
    return {lead, 1};
  // 0xC0, 0xC1 and 0xF5..0xFF never start a sequence (overlong or beyond
  // U+10FFFF).
  unsigned length = lead >= 0xF0 && lead <= 0xF4   ? 4
                    : lead >= 0xE0 && lead < 0xF0 ? 3
                    : lead >= 0xC2 && lead < 0xE0 ? 2
                                                  : 0;
  if (length == 0 || end - p < length)
    return {0, 0};
  uint32_t cp = lead & (0x7F >> length);
  for (unsigned i = 1; i < length; ++i) {
    if ((byte(p[i]) & 0xC0) != 0x80)
      return {0, 0};
    cp = (cp << 6) | (byte(p[i]) & 0x3F);
  }
  // The shortest form only (a 3-byte U+002F is not '/'), no surrogates, at
  // most U+10FFFF.
  static const uint32_t minimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < minimum[length] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
    return {0, 0};
  return {cp, length};
}

bool kiln::isBidiControl(uint32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
         cp == 0x200E || cp == 0x200F || cp == 0x061C;
}

std::string kiln::checkSourceCharacter(const char *p, const char *end,
                                       unsigned &length) {
  std::string message;
  llvm::raw_string_ostream os(message);
  auto [cp, size] = decodeUTF8(p, end);
  length = size ? size : 1;
  if (size == 0) {
    os << "invalid UTF-8 byte "
       << llvm::format("0x%02X", static_cast<unsigned char>(*p));
    return message;
  }
  bool whitespace = cp == '\t' || cp == '\n' || cp == '\r' || cp == '\v' ||
                    cp == '\f';
  if ((cp < 0x20 && !whitespace) || cp == 0x7F)
    os << "unexpected character " << llvm::format("U+%04X", cp);
  else if (isBidiControl(cp))
    os << "bidirectional control character " << llvm::format("U+%04X", cp)
       << " is not allowed: it makes the text display in another order than "
          "it compiles";
  return message;
}

LineTable::LineTable(llvm::StringRef text) : text(text) {
  starts.push_back(0);
  for (size_t i = 0, e = text.size(); i != e; ++i) {
    if (text[i] == '\r' && i + 1 != e && text[i + 1] == '\n')
      ++i;
    if (text[i] == '\n' || text[i] == '\r')
      starts.push_back(i + 1);
  }
}

std::pair<unsigned, unsigned>
LineTable::getLineAndColumn(size_t offset) const {
  auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  unsigned line = it - starts.begin();
  return {line, static_cast<unsigned>(offset - starts[line - 1] + 1)};
}

llvm::StringRef LineTable::getLine(unsigned line) const {
  if (line == 0 || line > starts.size())
    return "";
  size_t begin = starts[line - 1];
  size_t end = line < starts.size() ? starts[line] : text.size();
  // A line holds only its own line end: LF, CRLF or CR.
  return text.slice(begin, end).rtrim("\r\n");
}
