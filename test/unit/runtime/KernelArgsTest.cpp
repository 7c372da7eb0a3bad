//===- KernelArgsTest.cpp - Kernel parameter layout and packing -----------===//

#include "TestManifests.h"

#include "runtime/ArgCheck.h"
#include "runtime/KernelArgs.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr uint64_t kBase = 0x7f0000000000ull;

TEST(KernelArgs, SizesOfEachKind) {
  EXPECT_EQ(kernelArgBytes(KernelArgKind::TensorMap), 128u);
  EXPECT_EQ(kernelArgBytes(KernelArgKind::Pointer), 8u);
  EXPECT_EQ(kernelArgBytes(KernelArgKind::Stride), 8u);
  EXPECT_EQ(kernelArgBytes(KernelArgKind::Dim), 4u);
  EXPECT_EQ(kernelArgBytes(KernelArgKind::TmaOk), 4u);
  EXPECT_EQ(kernelArgBytes(KernelArgKind::Workspace), 8u);
  EXPECT_EQ(sizeof(TensorMapBytes), 128u);
  EXPECT_EQ(alignof(TensorMapBytes), 128u);
}

TEST(KernelArgs, EntryParamsMustMatchTheCubin) {
  LaunchPlan plan = planOf(matmulManifest());
  std::vector<size_t> sizes = {128, 128, 128, 4, 8, 8, 4, 4, 4};
  std::string error;
  EXPECT_TRUE(checkEntryParams(plan, sizes, error)) << error;
  std::vector<size_t> fewer(sizes.begin(), sizes.end() - 1);
  EXPECT_FALSE(checkEntryParams(plan, fewer, error));
  EXPECT_EQ(
      error,
      "the cubin's entry 'matmul' takes 8 parameters but the manifest lists 9 "
      "kernel_args; the manifest does not belong to this cubin");
  sizes[3] = 8;
  EXPECT_FALSE(checkEntryParams(plan, sizes, error));
  EXPECT_EQ(
      error,
      "kernel_args[3] (tma_ok) is 4 bytes but parameter 3 of the cubin's entry "
      "'matmul' is 8 bytes; the manifest does not belong to this cubin");
}

TEST(KernelArgs, PacksInManifestOrder) {
  LaunchPlan plan = planOf(matmulManifest());
  std::vector<Tensor> args = {
      Tensor::contiguous(kBase, DType::BF16, {1000, 512}),
      Tensor::contiguous(kBase + 0x100000, DType::BF16, {768, 512}),
      Tensor::strided(kBase + 0x200000, DType::BF16, {1000, 768}, {800, 1})};
  BoundDims dims;
  std::string error;
  ASSERT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;

  KernelArgPack pack;
  pack.reset(plan);
  ASSERT_EQ(pack.maps.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    pack.maps[i].bytes[0] =
        static_cast<unsigned char>(0xA0 + i); // stand-in encodings
    EXPECT_EQ(reinterpret_cast<uintptr_t>(&pack.maps[i]) % 128, 0u);
  }
  pack.tmaOk[2] = 0;
  packKernelArgs(plan, args.data(), dims, pack);
  ASSERT_EQ(pack.params.size(), 9u);

  // tensor_map args point at the encoded maps.
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(static_cast<unsigned char *>(pack.params[i])[0], 0xA0 + i);
  int32_t tmaOk;
  std::memcpy(&tmaOk, pack.params[3], 4);
  EXPECT_EQ(tmaOk, 0);
  uint64_t ptr;
  std::memcpy(&ptr, pack.params[4], 8);
  EXPECT_EQ(ptr, kBase + 0x200000);
  int64_t stride;
  std::memcpy(&stride, pack.params[5], 8);
  EXPECT_EQ(stride, 800); // elements, not bytes
  int32_t d[3];
  for (int i = 0; i < 3; ++i)
    std::memcpy(&d[i], pack.params[6 + i], 4);
  EXPECT_EQ(d[0], 1000);
  EXPECT_EQ(d[1], 768);
  EXPECT_EQ(d[2], 512);

  std::string text = describeKernelArgs(plan, pack);
  EXPECT_NE(text.find("  2 tensor_map map 2 (param 'c') zeroed\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  3 tma_ok map 2 = 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  4 pointer 'c' = 0x7f0000200000\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  5 stride 'c' axis 0 = 800\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  8 dim K = 512\n"), std::string::npos) << text;
}

TEST(KernelArgs, PacksTheWorkspacePointer) {
  Manifest m = matmulManifest();
  m.kernelArgs.push_back({KernelArgKind::Workspace, -1, "", "", -1});
  m.launch.workspacePerCta = 66560;
  LaunchPlan plan = planOf(m);
  std::vector<Tensor> args = {
      Tensor::contiguous(kBase, DType::BF16, {1000, 512}),
      Tensor::contiguous(kBase + 0x100000, DType::BF16, {768, 512}),
      Tensor::contiguous(kBase + 0x200000, DType::BF16, {1000, 768})};
  BoundDims dims;
  std::string error;
  ASSERT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  KernelArgPack pack;
  pack.reset(plan);
  EXPECT_EQ(pack.workspace, 0u);
  pack.workspace = kBase + 0x900000;
  packKernelArgs(plan, args.data(), dims, pack);
  ASSERT_EQ(pack.params.size(), 10u);
  uint64_t ptr;
  std::memcpy(&ptr, pack.params[9], 8);
  EXPECT_EQ(ptr, kBase + 0x900000);
  std::string text = describeKernelArgs(plan, pack);
  EXPECT_NE(text.find("  9 workspace = 0x7f0000900000\n"), std::string::npos)
      << text;
}

TEST(KernelArgs, ResetZeroesMapsAndSetsTmaOk) {
  LaunchPlan plan = planOf(moeManifest());
  KernelArgPack pack;
  pack.reset(plan);
  ASSERT_EQ(pack.maps.size(), 3u);
  for (const TensorMapBytes &m : pack.maps)
    for (unsigned char b : m.bytes)
      EXPECT_EQ(b, 0);
  EXPECT_EQ(pack.tmaOk, (std::vector<int32_t>{1, 1, 1}));
  EXPECT_EQ(pack.params.size(), plan.args.size());
}

} // namespace
