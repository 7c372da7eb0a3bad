//===- TensorMapParamsTest.cpp - Tensor-map arguments ---------------------===//

#include "TestManifests.h"

#include "runtime/TensorMapParams.h"

#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr uint64_t kBase = 0x7f0000000000ull;

/// Plans map `map` of `m` for tensor `t`, expecting success.
TmaDecision planOk(const Manifest &m, int map, const Tensor &t) {
  LaunchPlan plan = planOf(m);
  TmaDecision out;
  std::string error;
  EXPECT_TRUE(planTensorMap(plan, map, t, out, error)) << error;
  return out;
}

std::string planError(const Manifest &m, int map, const Tensor &t) {
  LaunchPlan plan = planOf(m);
  TmaDecision out;
  std::string error;
  EXPECT_FALSE(planTensorMap(plan, map, t, out, error)) << "planned";
  return error;
}

TEST(TensorMapParams, RowMajorMatrix) {
  TmaDecision p = planOk(matmulManifest(), 0,
                         Tensor::contiguous(kBase, DType::BF16, {256, 512}));
  ASSERT_TRUE(p.encode);
  const TensorMapEncoding &e = p.encoding;
  EXPECT_EQ(e.dataType, 9u); // CU_TENSOR_MAP_DATA_TYPE_BFLOAT16
  EXPECT_EQ(e.rank, 2u);
  EXPECT_EQ(e.address, kBase);
  EXPECT_EQ(e.dims[0], 512u); // innermost first
  EXPECT_EQ(e.dims[1], 256u);
  EXPECT_EQ(e.strides[0], 1024u); // bytes
  EXPECT_EQ(e.box[0], 64u);
  EXPECT_EQ(e.box[1], 128u);
  EXPECT_EQ(e.elementStrides[0], 1u);
  EXPECT_EQ(e.elementStrides[1], 1u);
  EXPECT_EQ(e.interleave, 0u);
  EXPECT_EQ(e.swizzle, 3u);     // CU_TENSOR_MAP_SWIZZLE_128B
  EXPECT_EQ(e.l2Promotion, 3u); // CU_TENSOR_MAP_L2_PROMOTION_L2_256B
  EXPECT_EQ(e.oobFill, 0u);     // CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE
}

TEST(TensorMapParams, StridedViewAndThreeAxes) {
  // A [256, 512] slice of a [256, 1024] buffer: the row stride is the buffer's.
  TmaDecision p =
      planOk(matmulManifest(), 0,
             Tensor::strided(kBase + 64, DType::BF16, {256, 512}, {1024, 1}));
  ASSERT_TRUE(p.encode);
  EXPECT_EQ(p.encoding.strides[0], 2048u);
  EXPECT_EQ(p.encoding.address, kBase + 64);

  Manifest moe = moeManifest();
  p = planOk(moe, 1, Tensor::contiguous(kBase, DType::E4M3, {8, 256, 384}));
  ASSERT_TRUE(p.encode);
  EXPECT_EQ(p.encoding.dataType,
            0u); // fp8 travels as CU_TENSOR_MAP_DATA_TYPE_UINT8
  EXPECT_EQ(p.encoding.rank, 3u);
  EXPECT_EQ(p.encoding.dims[0], 384u);
  EXPECT_EQ(p.encoding.dims[1], 256u);
  EXPECT_EQ(p.encoding.dims[2], 8u);
  EXPECT_EQ(p.encoding.strides[0], 384u);
  EXPECT_EQ(p.encoding.strides[1], 384u * 256u);
  EXPECT_EQ(p.encoding.box[2], 1u);
  EXPECT_EQ(p.encoding.swizzle, 3u);
  EXPECT_EQ(p.encoding.l2Promotion, 2u); // 128B
}

TEST(TensorMapParams, ClampRowsCopiesOnlyTheRowsTheTensorHas) {
  // A GEMM's lhs (clamp_rows): with M below the box's 128 rows the box
  // shrinks to M; with M at or above it the box stays.
  Manifest m = matmulManifest();
  m.tensorMaps[0].clampRows = true;
  for (auto [rows, box] : {std::pair<int64_t, uint32_t>{1, 1},
                           {17, 17},
                           {127, 127},
                           {128, 128},
                           {1000, 128}}) {
    TmaDecision p =
        planOk(m, 0, Tensor::contiguous(kBase, DType::BF16, {rows, 512}));
    ASSERT_TRUE(p.encode);
    EXPECT_EQ(p.encoding.box[1], box) << rows << " rows";
    EXPECT_EQ(p.encoding.box[0], 64u);
    EXPECT_EQ(static_cast<int64_t>(p.encoding.box[1]),
              clampedBoxRows(128, rows));
  }
  // Without the flag the box is the manifest's whatever the rows.
  TmaDecision p = planOk(matmulManifest(), 0,
                         Tensor::contiguous(kBase, DType::BF16, {1, 512}));
  EXPECT_EQ(p.encoding.box[1], 128u);
}

TEST(TensorMapParams, EnumValuesMatchCuda) {
  EXPECT_EQ(static_cast<uint32_t>(tmaDataType(TmaElement::U8)), 0u);
  EXPECT_EQ(static_cast<uint32_t>(tmaDataType(TmaElement::I32)), 3u);
  EXPECT_EQ(static_cast<uint32_t>(tmaDataType(TmaElement::F16)), 6u);
  EXPECT_EQ(static_cast<uint32_t>(tmaDataType(TmaElement::F32)), 7u);
  EXPECT_EQ(static_cast<uint32_t>(tmaDataType(TmaElement::BF16)), 9u);
  EXPECT_EQ(static_cast<uint32_t>(tmaDataType(TmaElement::U4x16Align8)), 13u);
  Manifest m = matmulManifest();
  const Swizzle sw[] = {Swizzle::None, Swizzle::B32, Swizzle::B64,
                        Swizzle::B128};
  for (uint32_t i = 0; i < 4; ++i) {
    m.tensorMaps[0].box = {16, 8};
    m.tensorMaps[0].swizzle = sw[i];
    m.tensorMaps[0].l2Promotion = static_cast<L2Promotion>(i);
    m.tensorMaps[0].oobFill = i % 2 ? OobFill::NaN : OobFill::Zero;
    TmaDecision p =
        planOk(m, 0, Tensor::contiguous(kBase, DType::BF16, {64, 64}));
    EXPECT_EQ(p.encoding.swizzle, i);
    EXPECT_EQ(p.encoding.l2Promotion, i);
    EXPECT_EQ(p.encoding.oobFill, i % 2);
  }
}

TEST(TensorMapParams, PackedFp4AsBytesAndAsNibbles) {
  Manifest m = fp4Manifest();
  // Map 0 reads e2m1 as u8: the innermost dim and the strides count bytes.
  TmaDecision p =
      planOk(m, 0, Tensor::contiguous(kBase, DType::E2M1, {128, 256}));
  ASSERT_TRUE(p.encode);
  EXPECT_EQ(p.encoding.dataType, 0u);
  EXPECT_EQ(p.encoding.dims[0], 128u);
  EXPECT_EQ(p.encoding.dims[1], 128u);
  EXPECT_EQ(p.encoding.strides[0], 128u);
  // Map 1 reads it as CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B: dims count 4-bit
  // values.
  p = planOk(m, 1, Tensor::contiguous(kBase, DType::E2M1, {64, 256}));
  ASSERT_TRUE(p.encode);
  EXPECT_EQ(p.encoding.dataType, 13u);
  EXPECT_EQ(p.encoding.dims[0], 256u);
  EXPECT_EQ(p.encoding.strides[0], 128u);
  // An odd row of values is not a whole number of u8 map elements; as nibbles
  // it is odd too.
  EXPECT_EQ(
      planError(m, 0,
                Tensor::strided(kBase, DType::E2M1, {128, 255}, {256, 1})),
      "param 'a': innermost extent 255 e2m1 values is not a whole number of u8 "
      "map elements "
      "(the kernel accesses it through tensor_maps[0], which is not optional)");
  // Map 1 is optional (a bulk-store target): a 127.5-byte row is skipped
  // before its odd nibble count matters.
  p = planOk(m, 1, Tensor::strided(kBase, DType::E2M1, {64, 255}, {256, 1}));
  EXPECT_FALSE(p.encode);
  EXPECT_EQ(p.skipReason,
            "param 'b' (tensor_maps[1]): innermost extent 255 x 4 bits is not "
            "a multiple of 16 bytes, and a bulk store would write past it");
  m.tensorMaps[1].optional = false;
  EXPECT_EQ(
      planError(m, 1, Tensor::strided(kBase, DType::E2M1, {64, 255}, {256, 1})),
      "param 'b': innermost extent 255 is odd; u4x16_align8 maps need an even "
      "number of 4-bit values (the kernel accesses it through tensor_maps[1], "
      "which is not optional)");
}

TEST(TensorMapParams, PackedStridesMustBeWholeBytes) {
  // checkArguments rejects this first; the map planner does not rely on it.
  EXPECT_EQ(
      planError(fp4Manifest(), 0,
                Tensor::strided(kBase, DType::E2M1, {128, 256}, {257, 1})),
      "param 'a': axis 0 has stride 257 e2m1 values, not a whole number of "
      "bytes (the kernel "
      "accesses it through tensor_maps[0], which is not optional)");
}

TEST(TensorMapParams, OptionalMapsAreSkippedWithAReason) {
  Manifest m = matmulManifest();
  // c is optional: a 2-byte aligned pointer cannot be described, so tma_ok
  // becomes 0.
  TmaDecision p =
      planOk(m, 2, Tensor::contiguous(kBase + 2, DType::BF16, {128, 256}));
  EXPECT_FALSE(p.encode);
  EXPECT_EQ(p.skipReason, "param 'c' (tensor_maps[2]): data pointer "
                          "0x7f0000000002 is not 16-byte aligned, "
                          "which a tensor map needs");
  EXPECT_TRUE(p.encoding == TensorMapEncoding());
  // N = 100 gives 200-byte rows, which a bulk store would overrun.
  p = planOk(m, 2, Tensor::contiguous(kBase, DType::BF16, {128, 100}));
  EXPECT_FALSE(p.encode);
  EXPECT_EQ(p.skipReason,
            "param 'c' (tensor_maps[2]): innermost extent 100 x 16 bits is not "
            "a multiple of 16 bytes, and a bulk store would write past it");
  // 128-byte rows 200 bytes apart: the row stride is not a multiple of 16.
  p = planOk(m, 2, Tensor::strided(kBase, DType::BF16, {128, 64}, {100, 1}));
  EXPECT_FALSE(p.encode);
  EXPECT_NE(
      p.skipReason.find("axis 0 has stride 100 bf16 elements = 200 bytes"),
      std::string::npos)
      << p.skipReason;
  // Describable: encoded.
  p = planOk(m, 2, Tensor::contiguous(kBase, DType::BF16, {128, 256}));
  EXPECT_TRUE(p.encode);
}

TEST(TensorMapParams, RequiredMapsFailNamingParamAndAxis) {
  Manifest m = matmulManifest();
  EXPECT_EQ(
      planError(m, 0, Tensor::contiguous(kBase + 8, DType::BF16, {128, 512})),
      "param 'a': data pointer 0x7f0000000008 is not 16-byte aligned, which a "
      "tensor map "
      "needs (the kernel accesses it through tensor_maps[0], which is not "
      "optional)");
  EXPECT_EQ(planError(m, 0, Tensor::contiguous(kBase, DType::BF16, {128, 500})),
            "param 'a': axis 0 has stride 500 bf16 elements = 1000 bytes, not "
            "a multiple of 16 "
            "bytes as a tensor map needs; pad it to a multiple of 8 elements "
            "(the kernel accesses "
            "it through tensor_maps[0], which is not optional)");
  EXPECT_EQ(
      planError(m, 1, Tensor::strided(kBase, DType::BF16, {256, 512}, {0, 1})),
      "param 'b': axis 0 has stride 0 (a broadcast view), which a tensor map "
      "cannot "
      "describe; materialize it (.contiguous()) (the kernel accesses it "
      "through "
      "tensor_maps[1], which is not optional)");
  EXPECT_NE(planError(m, 0,
                      Tensor::strided(kBase, DType::BF16, {128, 512},
                                      {int64_t(1) << 40, 1}))
                .find("axis 0 has stride 1099511627776 elements, at or above "
                      "the tensor map limit "
                      "of 2^40 bytes"),
            std::string::npos);
  EXPECT_NE(
      planError(m, 0, Tensor::strided(kBase, DType::BF16, {128, 512}, {512, 2}))
          .find("axis 1 (innermost) has stride 2; a tensor map needs it "
                "contiguous"),
      std::string::npos);
  EXPECT_NE(planError(m, 0,
                      Tensor::contiguous(kBase, DType::BF16,
                                         {1, (int64_t(1) << 32) + 1}))
                .find("axis 1 has extent 4294967297, above the tensor map "
                      "limit of 2^32"),
            std::string::npos);
  EXPECT_NE(planError(m, 0, Tensor::contiguous(kBase, DType::BF16, {2, 3, 4}))
                .find("rank 3, the map expects 2"),
            std::string::npos);
  // fp8 hint: 16 elements per 16 bytes.
  Manifest moe = moeManifest();
  EXPECT_NE(planError(moe, 0, Tensor::contiguous(kBase, DType::E4M3, {64, 100}))
                .find("pad it to a multiple of 16 elements"),
            std::string::npos);
}

TEST(TensorMapParams, EmptyTensors) {
  Manifest m = matmulManifest();
  EXPECT_EQ(planError(m, 0, Tensor::contiguous(kBase, DType::BF16, {128, 0})),
            "param 'a': it is empty (axis 1 has extent 0) and a tensor map "
            "cannot describe an "
            "empty tensor (the kernel accesses it through tensor_maps[0], "
            "which is not optional)");
  TmaDecision p = planOk(m, 2, Tensor::contiguous(0, DType::BF16, {0, 256}));
  EXPECT_FALSE(p.encode);
}

TEST(TensorMapParams, ExtentOneAxesGetStride16) {
  Manifest m = matmulManifest();
  // One row: its stride (here 7 elements, and 0) is never used by TMA.
  for (int64_t s : {int64_t(7), int64_t(0), int64_t(1) << 50}) {
    TmaDecision p =
        planOk(m, 0, Tensor::strided(kBase, DType::BF16, {1, 512}, {s, 1}));
    ASSERT_TRUE(p.encode) << s;
    EXPECT_EQ(p.encoding.strides[0], 16u);
  }
  // A usable stride is kept.
  TmaDecision p =
      planOk(m, 0, Tensor::strided(kBase, DType::BF16, {1, 512}, {2048, 1}));
  EXPECT_EQ(p.encoding.strides[0], 4096u);
  // Middle axes of extent 1 too (3-D map over w with E = 1).
  p = planOk(moeManifest(), 1,
             Tensor::strided(kBase, DType::E4M3, {1, 256, 384}, {5, 384, 1}));
  ASSERT_TRUE(p.encode);
  EXPECT_EQ(p.encoding.strides[0], 384u);
  EXPECT_EQ(p.encoding.strides[1], 16u);
}

TEST(TensorMapParams, EncodingEqualityCoversTheUsedEntries) {
  TensorMapEncoding a, b;
  a.rank = b.rank = 2;
  a.dims[0] = b.dims[0] = 64;
  a.dims[1] = b.dims[1] = 8;
  a.strides[0] = b.strides[0] = 128;
  a.strides[1] = 999; // beyond rank - 1: ignored
  EXPECT_TRUE(a == b);
  b.address = 16;
  EXPECT_TRUE(a != b);
  b.address = 0;
  b.strides[0] = 256;
  EXPECT_TRUE(a != b);
}

} // namespace
