//===- DimExprTest.cpp - Parsing, spelling, evaluation --------------------===//

#include "runtime/Manifest.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>

using namespace kiln;

namespace {

DimExpr parseOk(const std::string &s) {
  DimExpr e;
  std::string error;
  EXPECT_TRUE(DimExpr::parse(s, e, error)) << s << ": " << error;
  return e;
}

std::string parseError(const std::string &s) {
  DimExpr e;
  std::string error;
  EXPECT_FALSE(DimExpr::parse(s, e, error)) << s << " parsed";
  return error;
}

TEST(DimExpr, ParsesEveryForm) {
  DimExpr c = parseOk("128");
  EXPECT_EQ(c.kind, DimExpr::Kind::Const);
  EXPECT_EQ(c.value, 128);
  DimExpr n = parseOk("M");
  EXPECT_EQ(n.kind, DimExpr::Kind::Name);
  EXPECT_EQ(n.name, "M");
  EXPECT_TRUE(n.isPlainName());
  DimExpr a = parseOk("E+1");
  EXPECT_EQ(a.kind, DimExpr::Kind::Add);
  EXPECT_EQ(a.name, "E");
  EXPECT_EQ(a.value, 1);
  EXPECT_FALSE(a.isPlainName());
  EXPECT_EQ(parseOk("S-1").kind, DimExpr::Kind::Sub);
  EXPECT_EQ(parseOk("H*2").kind, DimExpr::Kind::Mul);
  DimExpr d = parseOk("cdiv(K,128)");
  EXPECT_EQ(d.kind, DimExpr::Kind::CeilDiv);
  EXPECT_EQ(d.name, "K");
  EXPECT_EQ(d.value, 128);
  EXPECT_EQ(parseOk("seq_len_2").name, "seq_len_2");
}

TEST(DimExpr, IgnoresSpacesAndSpellsCanonically) {
  EXPECT_EQ(parseOk(" cdiv( K , 128 ) ").str(), "cdiv(K,128)");
  EXPECT_EQ(parseOk("E + 1").str(), "E+1");
  for (const char *s : {"0", "128", "M", "E+1", "S-1", "H*2", "cdiv(K,128)"})
    EXPECT_EQ(parseOk(s).str(), s);
  EXPECT_EQ(parseOk(parseOk("cdiv(N,16)").str()), parseOk("cdiv(N,16)"));
}

TEST(DimExpr, RejectsMalformedText) {
  EXPECT_NE(parseError("").find("empty"), std::string::npos);
  EXPECT_NE(parseError("M+").find("not a non-negative integer"),
            std::string::npos);
  EXPECT_NE(parseError("M/2").find("unexpected '/'"), std::string::npos);
  EXPECT_NE(parseError("M+-1").find("'-1' is not a non-negative integer"),
            std::string::npos);
  EXPECT_NE(parseError("-1").find("not a dim name"), std::string::npos);
  EXPECT_NE(parseError("2M").find("not an integer"), std::string::npos);
  EXPECT_NE(parseError("99999999999999999999").find("fits 64 bits"),
            std::string::npos);
  EXPECT_NE(parseError("cdiv(K,0)").find("division by zero"),
            std::string::npos);
  EXPECT_NE(parseError("cdiv(K)").find("two arguments"), std::string::npos);
  EXPECT_NE(parseError("cdiv(K,128").find("missing ')'"), std::string::npos);
  EXPECT_NE(parseError("cdiv(1,128)").find("not a dim name"),
            std::string::npos);
  EXPECT_NE(parseError("cdiv(K,x)").find("not a non-negative integer"),
            std::string::npos);
  // Every message quotes the text and lists the accepted forms.
  std::string e = parseError("M%3");
  EXPECT_NE(e.find("'M%3'"), std::string::npos);
  EXPECT_NE(e.find("cdiv(NAME,N)"), std::string::npos);
}

TEST(DimExpr, Evaluates) {
  int64_t v;
  ASSERT_TRUE(parseOk("128").evaluate(7, v));
  EXPECT_EQ(v, 128);
  ASSERT_TRUE(parseOk("M").evaluate(7, v));
  EXPECT_EQ(v, 7);
  ASSERT_TRUE(parseOk("E+1").evaluate(7, v));
  EXPECT_EQ(v, 8);
  ASSERT_TRUE(parseOk("S-1").evaluate(7, v));
  EXPECT_EQ(v, 6);
  ASSERT_TRUE(parseOk("H*2").evaluate(7, v));
  EXPECT_EQ(v, 14);
  ASSERT_TRUE(parseOk("cdiv(K,128)").evaluate(512, v));
  EXPECT_EQ(v, 4);
  ASSERT_TRUE(parseOk("cdiv(K,128)").evaluate(513, v));
  EXPECT_EQ(v, 5);
  ASSERT_TRUE(parseOk("cdiv(K,128)").evaluate(0, v));
  EXPECT_EQ(v, 0);
  // Negative results are returned; callers reject them with context.
  ASSERT_TRUE(parseOk("M-4").evaluate(2, v));
  EXPECT_EQ(v, -2);
}

TEST(DimExpr, EvaluationOverflowFails) {
  int64_t v;
  int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_FALSE(parseOk("M+1").evaluate(big, v));
  EXPECT_FALSE(parseOk("M*2").evaluate(big / 2 + 1, v));
  EXPECT_FALSE(parseOk("M-1").evaluate(std::numeric_limits<int64_t>::min(), v));
  EXPECT_FALSE(DimExpr::make(DimExpr::Kind::CeilDiv, "K", 0).evaluate(5, v));
}

} // namespace
