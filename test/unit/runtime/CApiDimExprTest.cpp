//===- CApiDimExprTest.cpp - kiln_dim_expr_parse --------------------------===//
//
// The C entry point other languages' bindings parse shapes with (Python's
// kiln._dimexpr): the kinds it reports are DimExpr's, and a name buffer too
// small is an error, never a truncated name.
//
//===----------------------------------------------------------------------===//

#include "runtime/kiln.h"

#include "gtest/gtest.h"

#include <string>

namespace {

TEST(CApiDimExpr, ReportsEachForm) {
  struct Case {
    const char *text;
    int32_t kind;
    const char *name;
    int64_t value;
  } cases[] = {{"128", KILN_DIM_CONST, "", 128},
               {"M", KILN_DIM_NAME, "M", 0},
               {"E + 1", KILN_DIM_ADD, "E", 1},
               {"S-1", KILN_DIM_SUB, "S", 1},
               {"H*2", KILN_DIM_MUL, "H", 2},
               {"cdiv(K, 128)", KILN_DIM_CDIV, "K", 128}};
  for (const Case &c : cases) {
    int32_t kind = -1;
    int64_t value = -1;
    char name[16] = "poison";
    ASSERT_EQ(kiln_dim_expr_parse(c.text, &kind, name, sizeof(name), &value),
              KILN_OK)
        << c.text << ": " << kiln_last_error();
    EXPECT_EQ(kind, c.kind) << c.text;
    EXPECT_STREQ(name, c.name) << c.text;
    EXPECT_EQ(value, c.value) << c.text;
  }
}

TEST(CApiDimExpr, RefusesBadTextAndSmallBuffers) {
  int32_t kind;
  int64_t value;
  char name[4];
  EXPECT_EQ(kiln_dim_expr_parse("M+N", &kind, name, sizeof(name), &value),
            KILN_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(kiln_last_error()).find("invalid dim expression"),
            std::string::npos);
  // "ABCD" needs 5 bytes with its NUL.
  EXPECT_EQ(kiln_dim_expr_parse("ABCD", &kind, name, sizeof(name), &value),
            KILN_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(kiln_last_error()).find("needs 5 bytes"),
            std::string::npos);
  EXPECT_EQ(kiln_dim_expr_parse("ABC", &kind, name, sizeof(name), &value),
            KILN_OK);
  EXPECT_STREQ(name, "ABC");
  EXPECT_EQ(kiln_dim_expr_parse(nullptr, &kind, name, sizeof(name), &value),
            KILN_ERROR_INVALID_VALUE);
}

} // namespace

// The checking mode's switch refuses a null module, naming the function.
TEST(CApi, SetCheckOffsetsRefusesNull) {
  EXPECT_EQ(kiln_module_set_check_offsets(nullptr, 1),
            KILN_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(kiln_last_error()).find("kiln_module_set_check_offsets"),
            std::string::npos);
  EXPECT_EQ(kiln_module_check_offsets(nullptr), -1);
}

// Prepared launches refuse null modules, outputs and handles, naming the
// function; freeing NULL does nothing.
TEST(CApi, PreparedLaunchRefusesNull) {
  kiln_prepared *prepared = reinterpret_cast<kiln_prepared *>(0x1);
  EXPECT_EQ(kiln_prepare_launch(nullptr, nullptr, 0, nullptr, &prepared),
            KILN_ERROR_INVALID_VALUE);
  EXPECT_EQ(prepared, nullptr);
  EXPECT_NE(std::string(kiln_last_error()).find("kiln_prepare_launch"),
            std::string::npos);
  EXPECT_EQ(kiln_launch_prepared(nullptr, nullptr), KILN_ERROR_INVALID_VALUE);
  EXPECT_NE(std::string(kiln_last_error()).find("kiln_launch_prepared"),
            std::string::npos);
  kiln_prepared_free(nullptr);
}
