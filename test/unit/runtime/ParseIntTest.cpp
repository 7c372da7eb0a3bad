//===- ParseIntTest.cpp - Decimal integers with a range -------------------===//

#include "runtime/ParseInt.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>

using namespace kiln;

namespace {

/// parseIntInRange fails with exactly `want`.
void expectRefused(const std::string &text, int64_t lo, int64_t hi,
                   const std::string &want) {
  int64_t v = 42;
  std::string error;
  EXPECT_FALSE(parseIntInRange(text, lo, hi, v, error)) << text;
  EXPECT_EQ(error, want);
  EXPECT_EQ(v, 42) << "the output changed on failure";
}

TEST(ParseInt, AcceptsIntegersInRange) {
  int64_t v;
  std::string error;
  EXPECT_TRUE(parseIntInRange("0", 0, 10, v, error));
  EXPECT_EQ(v, 0);
  EXPECT_TRUE(parseIntInRange("-7", -10, 10, v, error));
  EXPECT_EQ(v, -7);
  EXPECT_TRUE(parseIntInRange("9223372036854775807", 0, INT64_MAX, v, error));
  EXPECT_EQ(v, INT64_MAX);
  EXPECT_TRUE(parseIntInRange("-9223372036854775808", INT64_MIN, 0, v, error));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(parseIntInRange("007", 0, 10, v, error));
  EXPECT_EQ(v, 7);
}

TEST(ParseInt, RefusesValuesOutsideTheRangeInsteadOfWrapping) {
  // Past int64: strtoll would clamp (and a cast to int would wrap).
  expectRefused("99999999999999999999", 0, 2147483647,
                "'99999999999999999999' is outside 0..2147483647");
  expectRefused("9223372036854775808", 0, 10000000,
                "'9223372036854775808' is outside 0..10000000");
  expectRefused("-9223372036854775809", INT64_MIN, INT64_MAX,
                "'-9223372036854775809' is outside "
                "-9223372036854775808..9223372036854775807");
  expectRefused("4294967296", 0, 2147483647,
                "'4294967296' is outside 0..2147483647");
  expectRefused("-1", 0, 5, "'-1' is outside 0..5");
  expectRefused("6", 0, 5, "'6' is outside 0..5");
}

TEST(ParseInt, RefusesWhatIsNotAnInteger) {
  expectRefused("", 0, 5, "'' is not an integer");
  expectRefused("12x", 0, 100, "'12x' is not an integer");
  expectRefused(" 1", 0, 5, "' 1' is not an integer");
  expectRefused("+1", 0, 5, "'+1' is not an integer");
  expectRefused("1.5", 0, 5, "'1.5' is not an integer");
  expectRefused("1e3", 0, 5000, "'1e3' is not an integer");
  expectRefused("-", 0, 5, "'-' is not an integer");
  expectRefused("0x10", 0, 100, "'0x10' is not an integer");
}

} // namespace
