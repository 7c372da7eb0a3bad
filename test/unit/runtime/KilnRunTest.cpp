//===- KilnRunTest.cpp - kiln-run's options and buffer sizes --------------===//
//
// kiln-run needs a GPU to run, but what it does with its command line does
// not: every number a user types is range-checked here, so that
// `--dims M=99999999999999999999` or `--device 4294967296` is a usage error
// instead of a wrapped value. Its host references are checked here too, on
// outputs whose values are known.
//
//===----------------------------------------------------------------------===//

#include "runtime/tools/kiln-run/HostData.h"
#include "runtime/tools/kiln-run/Options.h"
#include "runtime/tools/kiln-run/Reference.h"

#include "gtest/gtest.h"

#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

using namespace kiln;
using namespace kiln::tools;

namespace {

/// Parses `kiln-run k.kiln.json <args...>`.
ParseResult parse(std::initializer_list<const char *> args, Options &o,
                  std::string &error) {
  std::vector<const char *> argv = {"kiln-run", "k.kiln.json"};
  argv.insert(argv.end(), args.begin(), args.end());
  o = Options();
  error.clear();
  return parseArgs(static_cast<int>(argv.size()), argv.data(), o, error);
}

/// Parsing fails as a usage error with exactly `want`.
void expectUsageError(std::initializer_list<const char *> args,
                      const std::string &want) {
  Options o;
  std::string error;
  EXPECT_EQ(parse(args, o, error), ParseResult::Error) << want;
  EXPECT_EQ(error, want);
}

TEST(KilnRunOptions, ParsesEveryOption) {
  Options o;
  std::string error;
  ASSERT_EQ(parse({"--dims", "M=1024,N=0,K=2147483647", "--iters=10000000",
                   "--warmup", "0", "--seed", "9223372036854775807", "--device",
                   "2147483647", "--check-work", "1", "--values",
                   "offsets=-2147483648,2147483647", "--check", "--ref",
                   "swiglu", "-v", "--check-offsets", "--host-time",
                   "--explain", "--entry", "matmul_128x64"},
                  o, error),
            ParseResult::Run)
      << error;
  EXPECT_EQ(o.manifest, "k.kiln.json");
  EXPECT_EQ(o.dims.at("M"), 1024);
  EXPECT_EQ(o.dims.at("N"), 0); // an empty launch, which kiln-run reports
  EXPECT_EQ(o.dims.at("K"), 2147483647);
  EXPECT_EQ(o.iters, 10000000);
  EXPECT_EQ(o.warmup, 0);
  EXPECT_EQ(o.seed, 9223372036854775807ull);
  EXPECT_EQ(o.device, 2147483647);
  EXPECT_EQ(o.checkWork, 1);
  EXPECT_EQ(o.values.at("offsets"),
            (std::vector<int32_t>{INT32_MIN, INT32_MAX}));
  EXPECT_TRUE(o.check);
  EXPECT_EQ(o.ref, "swiglu");
  EXPECT_TRUE(o.verbose);
  EXPECT_TRUE(o.hostTime);
  EXPECT_TRUE(o.checkOffsets);
  EXPECT_TRUE(o.explain);
  EXPECT_EQ(o.entry, "matmul_128x64");
  EXPECT_EQ(parse({"--help"}, o, error), ParseResult::Help);
}

TEST(KilnRunOptions, DimsWithinTheKernelIndexLimit) {
  expectUsageError({"--dims", "M=99999999999999999999"},
                   "--dims: M: '99999999999999999999' is outside "
                   "0..2147483647 (dims reach the kernel as 32-bit integers)");
  expectUsageError({"--dims", "M=2147483648"},
                   "--dims: M: '2147483648' is outside 0..2147483647 (dims "
                   "reach the kernel as 32-bit integers)");
  expectUsageError({"--dims", "M=-1"},
                   "--dims: M: '-1' is outside 0..2147483647 (dims reach the "
                   "kernel as 32-bit integers)");
  expectUsageError({"--dims", "M=12x"},
                   "--dims: M: '12x' is not an integer (dims reach the kernel "
                   "as 32-bit integers)");
  expectUsageError({"--dims", "M"}, "--dims: 'M' is not NAME=VALUE");
  expectUsageError({"--dims", "=5"}, "--dims: '=5' is not NAME=VALUE");
  expectUsageError({"--dims", "M=1,,N=2"}, "--dims: '' is not NAME=VALUE");
}

TEST(KilnRunOptions, CountsAndOrdinalsAreRangeChecked) {
  expectUsageError({"--iters", "9223372036854775808"},
                   "--iters: '9223372036854775808' is outside 0..10000000");
  expectUsageError({"--iters", "10000001"},
                   "--iters: '10000001' is outside 0..10000000");
  expectUsageError({"--iters", "-1"}, "--iters: '-1' is outside 0..10000000");
  expectUsageError({"--warmup", "4294967296"},
                   "--warmup: '4294967296' is outside 0..10000000");
  expectUsageError({"--device", "4294967296"},
                   "--device: '4294967296' is outside 0..2147483647");
  expectUsageError({"--device=-1"}, "--device: '-1' is outside 0..2147483647");
  expectUsageError({"--seed", "18446744073709551616"},
                   "--seed: '18446744073709551616' is outside "
                   "0..9223372036854775807");
  expectUsageError({"--check-work", "1e9"},
                   "--check-work: '1e9' is not an integer");
  expectUsageError({"--iters"}, "--iters needs a value");
}

TEST(KilnRunOptions, ValuesAreI32) {
  expectUsageError({"--values", "offsets=0,2147483648"},
                   "--values: offsets: '2147483648' is outside "
                   "-2147483648..2147483647 (the values of an i32 input)");
  expectUsageError({"--values", "offsets=-2147483649"},
                   "--values: offsets: '-2147483649' is outside "
                   "-2147483648..2147483647 (the values of an i32 input)");
  expectUsageError({"--values", "offsets"},
                   "--values: expected NAME=v0,v1,...");
  expectUsageError({"--values", "=1,2"}, "--values: expected NAME=v0,v1,...");
}

TEST(KilnRunOptions, OtherUsageErrors) {
  expectUsageError({"--ref", "conv"},
                   "--ref: 'conv' is not matmul, swiglu, grouped, "
                   "grouped-swiglu, attention or attention-causal");
  expectUsageError({"--bogus"}, "unknown option --bogus");
  expectUsageError({"--host-time", "--iters", "0"},
                   "--host-time times --iters calls; --iters is 0");
  expectUsageError({"other.kiln.json"},
                   "more than one manifest given ('k.kiln.json', "
                   "'other.kiln.json')");
  Options o;
  std::string error;
  const char *argv[] = {"kiln-run"};
  EXPECT_EQ(parseArgs(1, argv, o, error), ParseResult::Error);
  EXPECT_EQ(error, "no manifest given");
}

TEST(KilnRunBuffers, SizesNeverWrap) {
  int64_t numel;
  size_t bytes;
  ASSERT_TRUE(bufferSize(DType::BF16, {1024, 512}, numel, bytes));
  EXPECT_EQ(numel, 1024 * 512);
  EXPECT_EQ(bytes, 1024u * 512 * 2);
  ASSERT_TRUE(bufferSize(DType::E2M1, {3, 5}, numel, bytes));
  EXPECT_EQ(bytes, 8u); // 15 four-bit values round up to 8 bytes
  ASSERT_TRUE(bufferSize(DType::F32, {0, 2147483647}, numel, bytes));
  EXPECT_EQ(bytes, 0u);
  // Four dims of 2^31 - 1: 2^124 elements, which a plain int64 product
  // wraps.
  const int64_t big = 2147483647;
  EXPECT_FALSE(bufferSize(DType::F32, {big, big, big, big}, numel, bytes));
  EXPECT_FALSE(bufferSize(DType::F32, {big, big, 1 << 20}, numel, bytes));
  EXPECT_TRUE(bufferSize(DType::F32, {1 << 20, 1 << 20, 1 << 16}, numel,
                         bytes)); // 2^56 elements: the limit
  EXPECT_EQ(bytes, size_t(1) << 58);
}

} // namespace

namespace {

/// Float operand of `rows` x `cols` from `values`.
Operand operand(int64_t rows, int64_t cols, std::vector<float> values) {
  Operand op;
  op.rows = rows;
  op.cols = cols;
  op.values = std::move(values);
  return op;
}

/// Two query rows over three keys whose scores q . k are all 1 (D = 4).
struct UniformScores {
  UniformScores() {
    shape.entries = 1;
    shape.S = 2;
    shape.T = 3;
    shape.D = 4;
    shape.Dv = 2;
    shape.kvEntry = {0};
  }
  AttentionShape shape;
  Operand q = operand(2, 4, {1, 0, 0, 0, 1, 0, 0, 0});
  Operand k = operand(3, 4, {1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1});
  Operand v = operand(3, 2, {1, 10, 2, 20, 6, 60});
};

} // namespace

// Two query rows over three keys with equal scores: the softmax is uniform, so
// each output is the mean of the values (over all keys, or under the causal
// mask over keys 0..i); a wrong element fails and is named.
TEST(KilnRunReference, AttentionAgainstKnownOutputs) {
  UniformScores in;
  AttentionShape &shape = in.shape;
  const Operand &q = in.q, &k = in.k, &v = in.v;
  std::vector<float> all = {3, 30, 3, 30};
  std::vector<float> causal = {1, 10, 1.5f, 15};
  auto check = [&](const std::vector<float> &out, bool isCausal) {
    shape.causal = isCausal;
    return checkAttention(shape, q, k, v, DType::BF16, DType::F32,
                          reinterpret_cast<const uint8_t *>(out.data()),
                          {0, 1});
  };
  CheckStats st = check(all, false);
  EXPECT_EQ(st.mismatches, 0) << st.firstBad;
  EXPECT_EQ(st.rowsChecked, 2);
  st = check(causal, true);
  EXPECT_EQ(st.mismatches, 0) << st.firstBad;
  std::vector<float> wrong = all;
  wrong[3] = 31;
  st = check(wrong, false);
  EXPECT_EQ(st.mismatches, 1);
  EXPECT_NE(st.firstBad.find("query 1, column 1"), std::string::npos)
      << st.firstBad;
  // The causal outputs are not the full softmax's.
  EXPECT_GT(check(causal, false).mismatches, 0);
}

// The log-sum-exp of the same rows: every score is 1 / sqrt(4) = 0.5, so
// row i's is 0.5 + ln(keys) (3 keys, or i + 1 under the causal mask); a
// wrong value fails and is named, and a row without keys (T = 0) must be
// -inf exactly.
TEST(KilnRunReference, AttentionLogSumExp) {
  UniformScores in;
  AttentionShape &shape = in.shape;
  const Operand &q = in.q, &k = in.k, &v = in.v;
  std::vector<float> out = {1, 10, 1.5f, 15};
  auto check = [&](const std::vector<float> &lse) {
    shape.causal = true;
    return checkAttention(shape, q, k, v, DType::BF16, DType::F32,
                          reinterpret_cast<const uint8_t *>(out.data()),
                          {0, 1}, reinterpret_cast<const uint8_t *>(lse.data()),
                          DType::F32);
  };
  std::vector<float> lse = {0.5f, 0.5f + std::log(2.0f)};
  CheckStats st = check(lse);
  EXPECT_EQ(st.mismatches, 0) << st.firstBad;
  std::vector<float> wrong = {0.5f, 0.5f + std::log(3.0f)}; // the full softmax's
  st = check(wrong);
  EXPECT_EQ(st.mismatches, 1);
  EXPECT_NE(st.firstBad.find("query 1, log-sum-exp"), std::string::npos)
      << st.firstBad;

  // No keys: the output row has no reference, the log-sum-exp is -inf.
  shape.T = 0;
  std::vector<float> none = {-INFINITY, -INFINITY};
  st = check(none);
  EXPECT_EQ(st.mismatches, 4); // the two output rows' four columns
  std::vector<float> finite = {0, -INFINITY};
  EXPECT_EQ(check(finite).mismatches, 5);
}
