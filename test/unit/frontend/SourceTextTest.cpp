//===- SourceTextTest.cpp - UTF-8 decoding, text checks, line table -------===//

#include "frontend/SourceText.h"

#include "gtest/gtest.h"

#include <string>

using namespace kiln;

namespace {

std::pair<uint32_t, unsigned> decode(const std::string &bytes) {
  return decodeUTF8(bytes.data(), bytes.data() + bytes.size());
}

std::string check(const std::string &bytes) {
  unsigned length;
  return checkSourceCharacter(bytes.data(), bytes.data() + bytes.size(),
                              length);
}

TEST(SourceText, DecodesShortestFormsOnly) {
  EXPECT_EQ(decode("a"), std::make_pair(uint32_t('a'), 1u));
  EXPECT_EQ(decode("\xC3\xA9"), std::make_pair(uint32_t(0xE9), 2u));
  EXPECT_EQ(decode("\xE2\x80\xAE"), std::make_pair(uint32_t(0x202E), 3u));
  EXPECT_EQ(decode("\xF4\x8F\xBF\xBF"), std::make_pair(uint32_t(0x10FFFF), 4u));
  // Overlong '/' in 2, 3 and 4 bytes.
  EXPECT_EQ(decode("\xC0\xAF").second, 0u);
  EXPECT_EQ(decode("\xE0\x80\xAF").second, 0u);
  EXPECT_EQ(decode("\xF0\x80\x80\xAF").second, 0u);
  // Surrogates, past U+10FFFF, truncated, a bad continuation.
  EXPECT_EQ(decode("\xED\xA0\x80").second, 0u);
  EXPECT_EQ(decode("\xED\xBF\xBF").second, 0u);
  EXPECT_EQ(decode("\xF4\x90\x80\x80").second, 0u);
  EXPECT_EQ(decode("\xF5\x80\x80\x80").second, 0u);
  EXPECT_EQ(decode("\xE2\x80").second, 0u);
  EXPECT_EQ(decode("\xC3\x28").second, 0u);
  EXPECT_EQ(decode("\x80").second, 0u);
}

TEST(SourceText, RejectsControlsAndBidi) {
  EXPECT_EQ(check("a"), "");
  EXPECT_EQ(check("\t"), "");
  EXPECT_EQ(check("\r"), "");
  EXPECT_EQ(check("\xC3\xA9"), "");
  EXPECT_EQ(check(std::string(1, '\0')), "unexpected character U+0000");
  EXPECT_EQ(check("\x7F"), "unexpected character U+007F");
  EXPECT_EQ(check("\xFF"), "invalid UTF-8 byte 0xFF");
  for (const char *bidi : {"\xE2\x80\xAA", "\xE2\x80\xAE", "\xE2\x81\xA6",
                           "\xE2\x81\xA9", "\xE2\x80\x8E", "\xE2\x80\x8F",
                           "\xD8\x9C"})
    EXPECT_NE(check(bidi).find("bidirectional control character"),
              std::string::npos)
        << bidi;
}

TEST(SourceText, LineEnds) {
  LineTable lines("a\nb\r\nc\rd\n\re");
  EXPECT_EQ(lines.getNumLines(), 6u);
  EXPECT_EQ(lines.getLineAndColumn(0), std::make_pair(1u, 1u));
  EXPECT_EQ(lines.getLineAndColumn(2), std::make_pair(2u, 1u));
  EXPECT_EQ(lines.getLineAndColumn(5), std::make_pair(3u, 1u));
  EXPECT_EQ(lines.getLineAndColumn(7), std::make_pair(4u, 1u));
  EXPECT_EQ(lines.getLineAndColumn(10), std::make_pair(6u, 1u));
  EXPECT_EQ(lines.getLine(2), "b");
  EXPECT_EQ(lines.getLine(3), "c");
  EXPECT_EQ(lines.getLine(5), "");
  EXPECT_EQ(lines.getLine(6), "e");
  EXPECT_EQ(lines.getLine(7), "");
}

} // namespace
