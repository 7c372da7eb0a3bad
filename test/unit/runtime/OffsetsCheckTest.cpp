//===- OffsetsCheckTest.cpp - The checking mode's rules -------------------===//

#include "runtime/OffsetsCheck.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <vector>

using namespace kiln;

namespace {

/// The message for `o` over `rows` rows, or "" when the offsets are good.
std::string why(const std::vector<int32_t> &o, int64_t rows) {
  std::string error;
  if (checkGroupOffsets(o.data(), o.size(), rows, "offsets", "T", error))
    return "";
  return error;
}

TEST(OffsetsCheck, AcceptsOffsetsThatSplitTheRows) {
  EXPECT_EQ(why({0, 100, 250, 300}, 300), "");
  EXPECT_EQ(why({0, 0, 0, 7, 7}, 7), "");    // empty groups
  EXPECT_EQ(why({0, 0}, 0), "");             // no rows at all
  EXPECT_EQ(why({0}, 0), "");                // no groups, no rows
}

TEST(OffsetsCheck, NamesTheFirstBadEntry) {
  EXPECT_EQ(why({-50, 20, 300}, 300),
            "offsets[0] = -50: the first group starts at row 0");
  EXPECT_EQ(why({5, 20, 300}, 300),
            "offsets[0] = 5: the first group starts at row 0");
  EXPECT_EQ(why({0, 200, 50, 300}, 300),
            "offsets[2] = 50 is below offsets[1] = 200: offsets never "
            "decrease");
  EXPECT_EQ(why({0, 100, 500}, 300),
            "offsets[2] = 500 is past the 300 rows of T");
  EXPECT_EQ(why({0, 100, 250}, 300),
            "offsets[2] = 250: the last group ends at T = 300 (rows past it "
            "would not be written)");
  EXPECT_EQ(why({0, -7, 300}, 300),
            "offsets[1] = -7 is below offsets[0] = 0: offsets never decrease");
  EXPECT_EQ(why({}, 0), "offsets is empty: it needs E + 1 entries");
}

TEST(OffsetsCheck, EnvironmentTurnsItOn) {
  ::unsetenv("KILN_CHECK_OFFSETS");
  EXPECT_FALSE(checkOffsetsFromEnvironment());
  ::setenv("KILN_CHECK_OFFSETS", "0", 1);
  EXPECT_FALSE(checkOffsetsFromEnvironment());
  ::setenv("KILN_CHECK_OFFSETS", "", 1);
  EXPECT_FALSE(checkOffsetsFromEnvironment());
  ::setenv("KILN_CHECK_OFFSETS", "1", 1);
  EXPECT_TRUE(checkOffsetsFromEnvironment());
  ::unsetenv("KILN_CHECK_OFFSETS");
}

} // namespace
