//===- ArgCheckTest.cpp - Dim binding, validation, inference --------------===//

#include "TestManifests.h"

#include "runtime/ArgCheck.h"

#include "gtest/gtest.h"

#include <limits>

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr uint64_t kBase =
    0x7f0000000000ull; // 256-byte aligned, like cudaMalloc

std::vector<Tensor> matmulArgs(int64_t M, int64_t N, int64_t K) {
  return {Tensor::contiguous(kBase, DType::BF16, {M, K}),
          Tensor::contiguous(kBase + 0x10000000, DType::BF16, {N, K}),
          Tensor::contiguous(kBase + 0x20000000, DType::BF16, {M, N})};
}

std::vector<Tensor> moeArgs(int64_t T, int64_t N, int64_t K, int64_t E) {
  return {
      Tensor::contiguous(kBase, DType::E4M3, {T, K}),
      Tensor::contiguous(kBase + 0x1000000, DType::F32, {T, (K + 127) / 128}),
      Tensor::contiguous(kBase + 0x2000000, DType::E4M3, {E, N, K}),
      Tensor::contiguous(kBase + 0x3000000, DType::F32,
                         {E, (N + 127) / 128, (K + 127) / 128}),
      Tensor::contiguous(kBase + 0x4000000, DType::I32, {E + 1}),
      Tensor::contiguous(kBase + 0x5000000, DType::F32, {8}),
      Tensor::contiguous(kBase + 0x6000000, DType::BF16, {T, N})};
}

std::string checkError(const LaunchPlan &plan,
                       const std::vector<Tensor> &args) {
  BoundDims dims;
  std::string error;
  EXPECT_FALSE(checkArguments(plan, args.data(), args.size(), dims, error))
      << "accepted";
  return error;
}

TEST(CheckArguments, AnAccumulatedOutputMustBeContiguous) {
  // The runtime fills it with one memset before the launch.
  Manifest m = matmulManifest();
  m.params[2].dtype = DType::F32;
  m.params[2].init = ParamInit::Zero;
  m.tensorMaps[2].element = TmaElement::F32; // the output's (optional) map
  m.tensorMaps[2].box = {32, 64};
  LaunchPlan plan = planOf(m);
  std::vector<Tensor> args = matmulArgs(256, 384, 512);
  args[2] = Tensor::contiguous(kBase + 0x20000000, DType::F32, {256, 384});
  BoundDims dims;
  std::string error;
  EXPECT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  args[2] = Tensor::strided(kBase + 0x20000000, DType::F32, {256, 384},
                            {512, 1});
  EXPECT_NE(checkError(plan, args).find(
                "the kernel accumulates into 'c', which the runtime first "
                "fills with zero, so it must be contiguous"),
            std::string::npos)
      << checkError(plan, args);
}

TEST(BindDims, BindsFromFirstPlainOccurrence) {
  LaunchPlan plan = planOf(matmulManifest());
  auto args = matmulArgs(1000, 512, 256);
  BoundDims dims;
  std::string error;
  ASSERT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  EXPECT_EQ(dims.values, (std::vector<int64_t>{1000, 512, 256}));
  EXPECT_EQ(dims.sources[0].param, 0); // M from a
  EXPECT_EQ(dims.sources[0].axis, 0);
  EXPECT_EQ(dims.sources[1].param, 1); // N from b
  EXPECT_EQ(dims.sources[2].param, 0); // K from a axis 1
  EXPECT_EQ(dims.sources[2].axis, 1);
}

TEST(BindDims, ChecksExpressionsAndConstants) {
  LaunchPlan plan = planOf(moeManifest());
  auto args = moeArgs(300, 256, 384, 8);
  BoundDims dims;
  std::string error;
  ASSERT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  EXPECT_EQ(dims.values, (std::vector<int64_t>{300, 256, 384, 8}));
  EXPECT_EQ(dims.sources[3].param, 2); // E from w axis 0, not from offsets' E+1

  auto bad = moeArgs(300, 256, 384, 8);
  bad[4] = Tensor::contiguous(kBase + 0x4000000, DType::I32, {8});
  EXPECT_EQ(checkError(plan, bad), "param 'offsets' axis 0: extent 8, expected "
                                   "E+1 = 9 with E = 8 (from param 'w' axis "
                                   "0)");
  bad = moeArgs(300, 256, 384, 8);
  bad[1] = Tensor::contiguous(kBase + 0x1000000, DType::F32, {300, 4});
  EXPECT_EQ(checkError(plan, bad), "param 'x.scale' axis 1: extent 4, expected "
                                   "cdiv(K,128) = 3 with K = 384 (from param "
                                   "'x' axis 1)");
  bad = moeArgs(300, 256, 384, 8);
  bad[5] = Tensor::contiguous(kBase + 0x5000000, DType::F32, {16});
  EXPECT_EQ(checkError(plan, bad),
            "param 'bias' axis 0: extent 16, expected 8");
}

// A dim named only as a name plus a constant (the offsets i32[B+1] of
// packed sequences) binds from it, after the plain occurrences: B = 8 from
// an extent of 9; an extent of 0 leaves it unbound.
TEST(BindDims, BindsFromANamePlusAConstant) {
  Manifest m = moeManifest();
  m.params[2] = param("w", ParamRole::Input, DType::E4M3, {"4", "N", "K"});
  m.params[3] = scale("w.scale", "w", DType::F32,
                      {"4", "cdiv(N,128)", "cdiv(K,128)"}, {128, 128});
  LaunchPlan plan = planOf(m);
  auto args = moeArgs(300, 256, 384, 4);
  args[4] = Tensor::contiguous(kBase + 0x4000000, DType::I32, {9});
  BoundDims dims;
  std::string error;
  ASSERT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  EXPECT_EQ(dims.values[3], 8); // E from offsets' E+1
  EXPECT_EQ(dims.sources[3].param, 4);
  args[4] = Tensor::contiguous(kBase + 0x4000000, DType::I32, {0});
  EXPECT_FALSE(checkArguments(plan, args.data(), args.size(), dims, error));
}

// A dim named only as a name times a constant (`K*2`: a contraction
// extent given by an expression) binds from it after plain and shifted
// names: K = extent / 2; an extent that is not a multiple fails the check.
TEST(BindDims, BindsFromANameTimesAConstant) {
  Manifest m = matmulManifest();
  m.params[0].shape[1] = DimExpr::make(DimExpr::Kind::Mul, "K", 2);
  m.params[1].shape[1] = DimExpr::make(DimExpr::Kind::Mul, "K", 2);
  LaunchPlan plan = planOf(m);
  auto args = matmulArgs(128, 256, 1024);
  BoundDims dims;
  std::string error;
  ASSERT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  int k = m.findDim("K");
  ASSERT_GE(k, 0);
  EXPECT_EQ(dims.values[k], 512);
  args = matmulArgs(128, 256, 1023);
  EXPECT_EQ(checkError(plan, args),
            "param 'a' axis 1: extent 1023, expected K*2 = 1022 with K = 511 "
            "(from param 'a' axis 1)");
}

TEST(BindDims, MismatchedDimNamesBothValues) {
  LaunchPlan plan = planOf(matmulManifest());
  auto args = matmulArgs(128, 256, 512);
  args[1] = Tensor::contiguous(kBase + 0x10000000, DType::BF16, {256, 256});
  EXPECT_EQ(checkError(plan, args), "param 'b' axis 1: extent 256 does not "
                                    "match K = 512 (from param 'a' axis 1)");
  args = matmulArgs(128, 256, 512);
  args[2] = Tensor::contiguous(kBase + 0x20000000, DType::BF16, {128, 255});
  EXPECT_EQ(checkError(plan, args), "param 'c' axis 1: extent 255 does not "
                                    "match N = 256 (from param 'b' axis 0)");
}

TEST(BindDims, CountDtypeRankAndExtentErrors) {
  LaunchPlan plan = planOf(matmulManifest());
  auto args = matmulArgs(128, 256, 512);
  std::vector<Tensor> two(args.begin(), args.begin() + 2);
  EXPECT_EQ(checkError(plan, two),
            "kernel 'matmul' takes 3 tensors (a, b, c), got 2");

  args = matmulArgs(128, 256, 512);
  args[1].dtype = DType::F16;
  EXPECT_EQ(checkError(plan, args), "param 'b': dtype f16, expected bf16");

  args = matmulArgs(128, 256, 512);
  args[0] = Tensor::contiguous(kBase, DType::BF16, {2, 128, 512});
  EXPECT_EQ(
      checkError(plan, args),
      "param 'a': rank 3 (shape [2, 128, 512]), expected 2 (shape [M, K])");

  args = matmulArgs(128, 256, 512);
  args[0] = Tensor::contiguous(kBase, DType::BF16, {1, 1, 1, 1, 1, 1, 1, 1, 1});
  EXPECT_EQ(args[0].rank, -1);
  EXPECT_NE(
      checkError(plan, args)
          .find("param 'a': invalid tensor description (more than 8 axes"),
      std::string::npos);

  args = matmulArgs(128, 256, 512);
  args[0].shape[0] = -5;
  EXPECT_EQ(checkError(plan, args), "param 'a' axis 0: negative extent -5");
}

TEST(BindDims, RejectsDimsBeyondInt32) {
  LaunchPlan plan = planOf(matmulManifest());
  int64_t huge = int64_t(std::numeric_limits<int32_t>::max()) + 1;
  auto args = matmulArgs(huge, 256, 16);
  EXPECT_EQ(checkError(plan, args),
            "param 'a' axis 0: extent 2147483648 for dim M exceeds the "
            "kernel's 32-bit dims (max "
            "2147483647)");
}

TEST(BindDims, NegativeExpressionsAreErrors) {
  Manifest m = matmulManifest();
  m.params[2].shape[0] = DimExpr::make(DimExpr::Kind::Sub, "M", 4);
  LaunchPlan plan = planOf(m);
  auto args = matmulArgs(2, 256, 512);
  args[2] = Tensor::contiguous(kBase + 0x20000000, DType::BF16, {0, 256});
  EXPECT_EQ(checkError(plan, args), "param 'c' axis 0: M-4 = -2 is negative "
                                    "with M = 2 (from param 'a' axis 0)");
}

TEST(BindDims, ExpressionsCannotOverflow) {
  // An operand beyond the kernel's 32-bit index limit is refused with the
  // manifest, before any launch evaluates it...
  Manifest m = matmulManifest();
  m.params[2].shape[0] =
      DimExpr::make(DimExpr::Kind::Mul, "M", int64_t(1) << 62);
  LaunchPlan plan;
  std::string error;
  EXPECT_FALSE(buildLaunchPlan(m, plan, error));
  EXPECT_EQ(error, "params[2] 'c' shape[0]: 'M*4611686018427387904': "
                   "4611686018427387904 exceeds the kernel's 32-bit index "
                   "limit (2147483647)");
  // ...and the largest operand it takes, times the largest dim, fits int64.
  m.params[2].shape[0] = DimExpr::make(DimExpr::Kind::Mul, "M", 2147483647);
  plan = planOf(m);
  auto args = matmulArgs(2147483647, 256, 512);
  args[2] = Tensor::contiguous(kBase + 0x20000000, DType::BF16, {4, 256});
  EXPECT_EQ(checkError(plan, args),
            "param 'c' axis 0: extent 4, expected M*2147483647 = "
            "4611686014132420609 with M = 2147483647 (from param 'a' axis 0)");
}

TEST(CheckArguments, PointerRules) {
  LaunchPlan plan = planOf(matmulManifest());
  auto args = matmulArgs(128, 256, 512);
  args[0].data = 0;
  EXPECT_EQ(checkError(plan, args),
            "param 'a': null data pointer for a tensor of shape [128, 512]");
  args = matmulArgs(128, 256, 512);
  args[1].data += 8;
  EXPECT_EQ(checkError(plan, args),
            "param 'b': data pointer 0x7f0010000008 is not 16-byte aligned "
            "(the manifest requires "
            "align 16)");
  // c asks only for 2-byte alignment; its optional tensor map decides
  // separately.
  args = matmulArgs(128, 256, 512);
  args[2].data += 2;
  BoundDims dims;
  std::string error;
  EXPECT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  args[2].data += 1;
  EXPECT_EQ(checkError(plan, args), "param 'c': data pointer 0x7f0020000003 is "
                                    "not 2-byte aligned (the manifest requires "
                                    "align 2)");
}

TEST(CheckArguments, StrideRules) {
  LaunchPlan plan = planOf(matmulManifest());
  auto args = matmulArgs(128, 256, 512);
  args[0] = Tensor::strided(kBase, DType::BF16, {128, 512},
                            {1, 128}); // a transposed view
  EXPECT_EQ(checkError(plan, args),
            "param 'a' axis 1: stride 128; the innermost axis must be "
            "contiguous (stride 1); call "
            ".contiguous()");
  args = matmulArgs(128, 256, 512);
  args[1] = Tensor::strided(kBase, DType::BF16, {256, 512}, {-512, 1});
  EXPECT_EQ(checkError(plan, args), "param 'b' axis 0: negative stride -512 "
                                    "(flipped views are not supported; call "
                                    ".contiguous())");
  // An innermost axis of extent 1 is never stepped, so its stride does not
  // matter.
  Manifest m = matmulManifest();
  m.tensorMaps.clear();
  m.kernelArgs.clear();
  plan = planOf(m);
  args = matmulArgs(128, 256, 1);
  args[0] = Tensor::strided(kBase, DType::BF16, {128, 1}, {1, 7});
  BoundDims dims;
  std::string error;
  EXPECT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
}

TEST(CheckArguments, EmptyTensorsSkipLayoutRules) {
  LaunchPlan plan = planOf(matmulManifest());
  auto args = matmulArgs(0, 256, 512);
  args[0].data = 0;
  args[2].data = 3; // never dereferenced
  args[0].strides[1] = 9;
  BoundDims dims;
  std::string error;
  EXPECT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  EXPECT_EQ(dims.values[0], 0);
}

TEST(CheckArguments, PackedRowsMustBeWholeBytes) {
  LaunchPlan plan = planOf(fp4Manifest());
  std::vector<Tensor> args = {
      Tensor::strided(kBase, DType::E2M1, {64, 256}, {257, 1}),
      Tensor::contiguous(kBase + 0x100000, DType::E2M1, {64, 256}),
      Tensor::contiguous(kBase + 0x200000, DType::E4M3, {64, 16}),
      Tensor::contiguous(kBase + 0x300000, DType::F16, {64, 64})};
  EXPECT_EQ(checkError(plan, args),
            "param 'a' axis 0: stride 257 e2m1 values is not a whole number of "
            "bytes (2 values per "
            "byte)");
}

TEST(InferShapes, AllocatesOutputsFromInputs) {
  LaunchPlan plan = planOf(moeManifest());
  auto args = moeArgs(300, 256, 384, 8);
  bool known[] = {true, true, true, true, true, true, false};
  std::vector<std::vector<int64_t>> shapes;
  BoundDims dims;
  std::string error;
  ASSERT_TRUE(
      inferShapes(plan, args.data(), known, args.size(), shapes, dims, error))
      << error;
  EXPECT_EQ(shapes[6], (std::vector<int64_t>{300, 256}));
  EXPECT_EQ(shapes[3], (std::vector<int64_t>{8, 2, 3}));
  EXPECT_EQ(shapes[4], (std::vector<int64_t>{9}));
  // Scales can be inferred too, from the data they scale.
  bool onlyData[] = {true, false, true, false, true, true, false};
  ASSERT_TRUE(inferShapes(plan, args.data(), onlyData, args.size(), shapes,
                          dims, error))
      << error;
  EXPECT_EQ(shapes[1], (std::vector<int64_t>{300, 3}));
}

TEST(InferShapes, ChecksKnownTensorsAndNamesUnboundDims) {
  LaunchPlan plan = planOf(matmulManifest());
  auto args = matmulArgs(128, 256, 512);
  bool onlyA[] = {true, false, false};
  std::vector<std::vector<int64_t>> shapes;
  BoundDims dims;
  std::string error;
  EXPECT_FALSE(
      inferShapes(plan, args.data(), onlyA, args.size(), shapes, dims, error));
  EXPECT_EQ(error, "cannot infer the shape of param 'b' [N, K]: dim 'N' is not "
                   "bound by any given "
                   "tensor");
  bool inputs[] = {true, true, false};
  args[1] = Tensor::contiguous(kBase, DType::BF16, {256, 100});
  EXPECT_FALSE(
      inferShapes(plan, args.data(), inputs, args.size(), shapes, dims, error));
  EXPECT_EQ(error, "param 'b' axis 1: extent 100 does not match K = 512 (from "
                   "param 'a' axis 1)");
  args[1] = Tensor::contiguous(kBase, DType::F32, {256, 512});
  EXPECT_FALSE(
      inferShapes(plan, args.data(), inputs, args.size(), shapes, dims, error));
  EXPECT_EQ(error, "param 'b': dtype f32, expected bf16");
}

} // namespace
