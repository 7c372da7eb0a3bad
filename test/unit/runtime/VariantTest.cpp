//===- VariantTest.cpp - Kernel variants: manifest, plans, the choice -----===//
//
// A manifest may carry several compilations of one kernel (`variants`); the
// runtime picks one per launch by the cost rule of docs/manifest.md:
// T = CTAs before the persistent cap (tiles rounded up to the cluster),
// resident = floor(SMs / C) * C, waves = ceil(T / resident),
// cost = waves * tile_cost + tail_cost (a stream-K split is explained, not
// costed); the smallest cost wins, the earliest
// on ties (within rounding), and
// any tile_cost of 0 means the primary always runs.
//
//===----------------------------------------------------------------------===//

#include "TestManifests.h"

#include "runtime/ArgCheck.h"
#include "runtime/DeviceCheck.h"
#include "runtime/Grid.h"
#include "runtime/KernelArgs.h"
#include "runtime/TensorMapParams.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace kiln;
using namespace kiln::test;

namespace {

constexpr uint64_t kBase = 0x7f0000000000ull;

std::string edit(std::string text, const std::string &from,
                 const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos)
      << "'" << from << "' not in the manifest text";
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

void expectParseError(const std::string &text, const std::string &needle) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifest(text, m, error)) << "parsed, expected: " << needle;
  EXPECT_NE(error.find(needle), std::string::npos)
      << "error: " << error << "\nwanted: " << needle;
}

/// The variants manifest after `change` fails validation with exactly `want`.
void expectInvalid(const std::function<void(Manifest &)> &change,
                   const std::string &want) {
  Manifest m = matmulVariantsManifest();
  change(m);
  std::string error;
  EXPECT_FALSE(validateManifest(m, error)) << "valid, expected: " << want;
  EXPECT_EQ(error, want);
  LaunchPlan plan;
  EXPECT_FALSE(buildLaunchPlan(m, plan, error));
}

BoundDims dimsOf(std::vector<int64_t> v) {
  BoundDims d;
  d.values = std::move(v);
  d.sources.assign(d.values.size(), DimSource());
  return d;
}

GridAxis axis(const std::string &dim, int64_t tile) {
  return {DimExpr::dim(dim), tile};
}

/// A variant of `m` with its own entry, launch and tile cost, sharing the
/// primary's maps and args.
KernelVariant variantOf(const Manifest &m, const std::string &entry,
                        std::vector<GridAxis> tiles, double tileCost,
                        std::array<int64_t, 3> cluster = {1, 1, 1}) {
  KernelVariant v;
  v.entry = entry;
  v.tensorMaps = m.tensorMaps;
  v.kernelArgs = m.kernelArgs;
  v.launch = m.launch;
  v.launch.tiles = std::move(tiles);
  v.launch.tileCost = tileCost;
  v.launch.cluster = cluster;
  return v;
}

int choose(const Manifest &m, std::vector<int64_t> dims, int sms = 132) {
  return chooseVariant(planOf(m), dimsOf(std::move(dims)), sms);
}

VariantCost costOf(const Manifest &m, size_t k, std::vector<int64_t> dims,
                   int sms = 132) {
  LaunchPlan plan = planOf(m);
  return variantCost(plan.variantPlan(k), dimsOf(std::move(dims)), sms);
}

//===----------------------------------------------------------------------===//
// Manifest JSON
//===----------------------------------------------------------------------===//

TEST(VariantManifest, ReadsTheDocumentedExample) {
  Manifest m = matmulVariantsManifest();
  EXPECT_EQ(m.entry, "matmul");
  EXPECT_EQ(m.launch.tileCost, 4);
  ASSERT_EQ(m.variants.size(), 1u);
  const KernelVariant &v = m.variants[0];
  EXPECT_EQ(v.entry, "matmul_128x64");
  ASSERT_EQ(v.tensorMaps.size(), 3u);
  EXPECT_EQ(v.tensorMaps[1].box, (std::vector<int64_t>{64, 64}));
  ASSERT_EQ(v.kernelArgs.size(), 9u);
  EXPECT_EQ(v.kernelArgs[3].kind, KernelArgKind::TmaOk);
  EXPECT_EQ(v.launch.dynamicSmem, 148480);
  EXPECT_EQ(v.launch.rule, GridRule::Persistent);
  EXPECT_EQ(v.launch.tiles[1].tile, 64);
  EXPECT_EQ(v.launch.tileCost, 1.4);
  // The plain example has neither key: tile_cost defaults to 0 (unknown).
  Manifest plain = matmulManifest();
  EXPECT_EQ(plain.launch.tileCost, 0);
  EXPECT_TRUE(plain.variants.empty());
}

TEST(VariantManifest, RoundTripsVariantsAndTileCost) {
  Manifest m = matmulVariantsManifest();
  std::string text = writeManifest(m);
  Manifest back;
  std::string error;
  ASSERT_TRUE(parseManifest(text, back, error)) << error << "\n" << text;
  EXPECT_TRUE(back == m) << text;
  EXPECT_EQ(writeManifest(back), text);
  EXPECT_NE(text.find("\"tile_cost\":4"), std::string::npos) << text;
  EXPECT_NE(text.find("\"tile_cost\":1.4"), std::string::npos) << text;
  // A variant is an indented object with one map or arg per line.
  EXPECT_NE(text.find("  \"variants\": [\n    {\n      \"entry\": "
                      "\"matmul_128x64\",\n      \"tensor_maps\": [\n        "
                      "{\"param\":\"a\""),
            std::string::npos)
      << text;

  // Defaults are omitted, so single-kernel manifests are written as before.
  std::string plain = writeManifest(matmulManifest());
  EXPECT_EQ(plain.find("tile_cost"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("variants"), std::string::npos) << plain;

  // Several variants, another grid rule, fractional costs, a tile cost
  // without variants.
  Manifest moe = moeManifest();
  moe.launch.tileCost = 0.1;
  EXPECT_TRUE(parseManifest(writeManifest(moe), back, error)) << error;
  EXPECT_TRUE(back == moe);
  moe.variants.push_back(variantOf(
      moe, "moe_64", {axis("N", 64), axis("T", 64)}, 1.0 / 3, {1, 2, 1}));
  moe.variants.push_back(variantOf(
      moe, "moe_persistent", {axis("N", 128), axis("T", 128)}, 7, {2, 1, 1}));
  moe.variants[1].launch.rule = GridRule::Persistent;
  moe.variants[1].kernelArgs.pop_back();
  moe.variants[1].tensorMaps.pop_back();
  moe.variants[1].kernelArgs.erase(moe.variants[1].kernelArgs.begin() + 2,
                                   moe.variants[1].kernelArgs.begin() + 4);
  ASSERT_TRUE(validateManifest(moe, error)) << error;
  text = writeManifest(moe);
  ASSERT_TRUE(parseManifest(text, back, error)) << error << "\n" << text;
  EXPECT_TRUE(back == moe) << text;
  EXPECT_EQ(back.variants[0].launch.tileCost, 1.0 / 3); // exact round trip
}

TEST(VariantManifest, TileCostIsANumber) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(
      edit(kMatmulVariantsJson, "\"tile_cost\": 4,", "\"tile_cost\": 4.25,"), m,
      error))
      << error;
  EXPECT_EQ(m.launch.tileCost, 4.25);
  ASSERT_TRUE(parseManifest(
      edit(kMatmulVariantsJson, "\"tile_cost\": 4,", "\"tile_cost\": 0,"), m,
      error))
      << error;
  EXPECT_EQ(m.launch.tileCost, 0);
  expectParseError(
      edit(kMatmulVariantsJson, "\"tile_cost\": 4,", "\"tile_cost\": true,"),
      "launch.tile_cost: expected a number, got boolean");
  expectParseError(
      edit(kMatmulVariantsJson, "\"tile_cost\": 1.4", "\"tile_cost\": \"1.4\""),
      "variants[0].launch.tile_cost: expected a number, got string");
  expectParseError(
      edit(kMatmulVariantsJson, "\"tile_cost\": 4,", "\"tile_cost\": -4,"),
      "launch.tile_cost -4 is not a finite number >= 0");
}

TEST(VariantManifest, TailCostIsAnOptionalNumber) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(kMatmulVariantsJson, m, error)) << error;
  EXPECT_EQ(m.launch.tailCost, 0);
  ASSERT_TRUE(parseManifest(edit(kMatmulVariantsJson, "\"tile_cost\": 1.4",
                                 "\"tile_cost\": 1.4, \"tail_cost\": 0.25"),
                            m, error))
      << error;
  EXPECT_EQ(m.variants[0].launch.tailCost, 0.25);
  // Written only where it is set, and read back exactly.
  std::string text = writeManifest(m);
  EXPECT_NE(text.find("\"tail_cost\":0.25"), std::string::npos) << text;
  EXPECT_EQ(writeManifest(matmulVariantsManifest()).find("tail_cost"),
            std::string::npos);
  Manifest back;
  ASSERT_TRUE(parseManifest(text, back, error)) << error;
  EXPECT_TRUE(back == m);
  expectParseError(edit(kMatmulVariantsJson, "\"tile_cost\": 4,",
                        "\"tile_cost\": 4, \"tail_cost\": \"1\","),
                   "launch.tail_cost: expected a number, got string");
  expectParseError(edit(kMatmulVariantsJson, "\"tile_cost\": 4,",
                        "\"tile_cost\": 4, \"tail_cost\": -1,"),
                   "launch.tail_cost -1 is not a finite number >= 0");
  expectInvalid(
      [](Manifest &m) {
        m.variants[0].launch.tailCost =
            std::numeric_limits<double>::quiet_NaN();
      },
      "variants[0].launch.tail_cost nan is not a finite number >= 0");
}

TEST(VariantManifest, JsonErrorsNameTheVariantPath) {
  expectParseError(
      edit(kMatmulVariantsJson, "\"variants\": [", "\"variants\": 5, \"x\": ["),
      "variants: expected an array, got number");
  expectParseError(
      edit(kMatmulVariantsJson, "\"variants\": [", "\"variants\": [7, "),
      "variants[0]: expected an object, got number");
  expectParseError(
      edit(kMatmulVariantsJson, "\"entry\": \"matmul_128x64\",", ""),
      "variants[0]: missing key \"entry\"");
  expectParseError(
      edit(kMatmulVariantsJson,
           "\"box\": [64, 64],  \"swizzle\": \"128B\", "
           "\"l2_promotion\": \"256B\"",
           "\"box\": [64, 64],  \"swizzle\": \"256B\", "
           "\"l2_promotion\": \"256B\""),
      "variants[0].tensor_maps[1].swizzle: unknown swizzle '256B'");
  expectParseError(edit(kMatmulVariantsJson, "[\"N\", 64]]", "[\"N\"]]"),
                   "variants[0].launch.grid.tiles[1]: expected [extent, tile]");
  expectParseError(edit(kMatmulVariantsJson,
                        "\"launch\": {\"block\": [384, 1, 1], \"cluster\": "
                        "[2, 1, 1], \"dynamic_smem\": 148480",
                        "\"lunch\": {\"block\": [384, 1, 1], \"cluster\": "
                        "[2, 1, 1], \"dynamic_smem\": 148480"),
                   "variants[0]: missing key \"launch\"");
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

TEST(VariantValidate, EntriesAreNonEmptyAndUnique) {
  expectInvalid([](Manifest &m) { m.variants[0].entry.clear(); },
                "variants[0].entry is empty");
  expectInvalid(
      [](Manifest &m) { m.variants[0].entry = "matmul"; },
      "variants[0].entry 'matmul' is also the primary kernel's entry");
  expectInvalid([](Manifest &m) { m.variants.push_back(m.variants[0]); },
                "variants[1].entry 'matmul_128x64' is also the entry of "
                "variants[0]");
}

TEST(VariantValidate, EachVariantIsCheckedLikeThePrimary) {
  // Kernel args index the variant's own maps.
  expectInvalid([](Manifest &m) { m.variants[0].tensorMaps.pop_back(); },
                "variants[0].kernel_args[2] (tensor_map): map 2 is not an "
                "index into variants[0].tensor_maps (2 maps)");
  expectInvalid([](Manifest &m) { m.variants[0].kernelArgs[3].map = -1; },
                "variants[0].kernel_args[3] (tma_ok): map -1 is not an index "
                "into variants[0].tensor_maps (3 maps)");
  // ... and the shared params and dims.
  expectInvalid([](Manifest &m) { m.variants[0].kernelArgs[4].param = "d"; },
                "variants[0].kernel_args[4] (pointer): param 'd' does not "
                "exist");
  expectInvalid([](Manifest &m) { m.variants[0].kernelArgs[5].axis = 2; },
                "variants[0].kernel_args[5] (stride): axis 2 is outside param "
                "'c' of rank 2");
  expectInvalid([](Manifest &m) { m.variants[0].kernelArgs[8].dim = "Q"; },
                "variants[0].kernel_args[8] (dim): dim 'Q' is not in dims (M, "
                "N, K)");
  // Tensor maps.
  expectInvalid([](Manifest &m) { m.variants[0].tensorMaps[1].param = "zz"; },
                "variants[0].tensor_maps[1]: param 'zz' does not exist");
  expectInvalid(
      [](Manifest &m) {
        m.variants[0].tensorMaps[1].box = {128, 64};
      },
      "variants[0].tensor_maps[1] ('b'): the innermost box is 256 "
      "bytes, wider than the 128B swizzle span");
  expectInvalid(
      [](Manifest &m) {
        m.variants[0].tensorMaps[0].element = TmaElement::F16;
      },
      "variants[0].tensor_maps[0] ('a'): element f16 cannot carry dtype bf16 "
      "(fp8 and ue8m0 use u8; e2m1 uses u8 or u4x16_align8)");
  // Launch.
  expectInvalid(
      [](Manifest &m) {
        m.variants[0].launch.block = {2048, 1, 1};
      },
      "variants[0].launch.block [2048, 1, 1] exceeds CUDA's limits "
      "(1024 threads, z <= 64)");
  expectInvalid([](Manifest &m) { m.variants[0].launch.dynamicSmem = -1; },
                "variants[0].launch.dynamic_smem -1 is out of range (0..232448 "
                "bytes, the most shared memory one block can opt into on any "
                "supported chip)");
  expectInvalid(
      [](Manifest &m) {
        m.variants[0].launch.cluster = {1, 2, 1};
      },
      "variants[0].launch.grid: rule \"persistent\" launches a 1-D "
      "grid, so cluster must be [n, 1, 1]");
  expectInvalid(
      [](Manifest &m) {
        m.variants[0].launch.tiles[1].extent = DimExpr::dim("Z");
      },
      "variants[0].launch.grid.tiles[1]: 'Z' uses dim 'Z', which is not in "
      "dims (M, N, K)");
  expectInvalid([](Manifest &m) { m.variants[0].launch.tiles[0].tile = 0; },
                "variants[0].launch.grid.tiles[0]: tile 0 is not positive");
  expectInvalid([](Manifest &m) { m.variants[0].launch.tileCost = -1; },
                "variants[0].launch.tile_cost -1 is not a finite number >= 0");
  expectInvalid(
      [](Manifest &m) {
        m.variants[0].launch.tileCost =
            std::numeric_limits<double>::quiet_NaN();
      },
      "variants[0].launch.tile_cost nan is not a finite number >= 0");
  expectInvalid(
      [](Manifest &m) {
        m.launch.tileCost = std::numeric_limits<double>::infinity();
      },
      "launch.tile_cost inf is not a finite number >= 0");
  // The primary's messages keep their unprefixed paths.
  expectInvalid([](Manifest &m) { m.kernelArgs[0].map = 3; },
                "kernel_args[0] (tensor_map): map 3 is not an index into "
                "tensor_maps (3 maps)");
}

TEST(VariantValidate, VariantsMayDifferInMapsArgsAndRule) {
  Manifest m = matmulVariantsManifest();
  KernelVariant &v = m.variants[0];
  // No store map: the variant writes c through its pointer only.
  v.tensorMaps.pop_back();
  v.kernelArgs = {arg(KernelArgKind::TensorMap, 0),
                  arg(KernelArgKind::TensorMap, 1),
                  arg(KernelArgKind::Pointer, -1, "c"),
                  arg(KernelArgKind::Stride, -1, "c", "", 0),
                  arg(KernelArgKind::Dim, -1, "", "M"),
                  arg(KernelArgKind::Dim, -1, "", "N"),
                  arg(KernelArgKind::Dim, -1, "", "K")};
  v.launch.rule = GridRule::Tiles;
  v.launch.cluster = {1, 2, 1};
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

//===----------------------------------------------------------------------===//
// Launch plans
//===----------------------------------------------------------------------===//

TEST(VariantPlan, OnePlanPerVariant) {
  LaunchPlan plan = planOf(matmulVariantsManifest());
  ASSERT_EQ(plan.numVariants(), 2u);
  EXPECT_TRUE(plan.chooseByCost);
  EXPECT_EQ(plan.variant, 0);
  EXPECT_EQ(&plan.variantPlan(0), &plan);
  EXPECT_EQ(plan.manifest.variants.size(), 1u); // the manifest as given
  EXPECT_EQ(plan.maps[1].box[1], 256u);
  EXPECT_EQ(plan.mapPath(2), "tensor_maps[2]");

  const LaunchPlan &v = plan.variantPlan(1);
  EXPECT_EQ(v.variant, 1);
  EXPECT_EQ(v.manifest.entry, "matmul_128x64");
  EXPECT_TRUE(v.manifest.variants.empty());
  EXPECT_TRUE(v.variants.empty());
  EXPECT_EQ(v.maps[1].box[1], 64u);
  EXPECT_EQ(v.manifest.launch.dynamicSmem, 148480);
  EXPECT_EQ(v.manifest.launch.tiles[1].tile, 64);
  ASSERT_EQ(v.gridExtents.size(), 2u);
  EXPECT_EQ(v.gridExtents[1].dim, 1);
  EXPECT_EQ(v.args.size(), 9u);
  EXPECT_EQ(v.params.size(), plan.params.size());
  EXPECT_EQ(v.params[2].maps, (std::vector<int>{2}));
  EXPECT_EQ(v.mapPath(2), "variants[0].tensor_maps[2]");

  // No variants, or a tile_cost of 0 anywhere: no choice to make.
  EXPECT_FALSE(planOf(matmulManifest()).chooseByCost);
  Manifest m = matmulVariantsManifest();
  m.variants[0].launch.tileCost = 0;
  EXPECT_FALSE(planOf(m).chooseByCost);
  m = matmulVariantsManifest();
  m.launch.tileCost = 0;
  EXPECT_FALSE(planOf(m).chooseByCost);
}

TEST(VariantPlan, TensorMapMessagesNameTheVariantsMap) {
  LaunchPlan plan = planOf(matmulVariantsManifest());
  const LaunchPlan &v = plan.variantPlan(1);
  TmaDecision d;
  std::string error;
  // An optional map that is skipped.
  ASSERT_TRUE(planTensorMap(
      v, 2, Tensor::contiguous(kBase + 2, DType::BF16, {128, 256}), d, error))
      << error;
  EXPECT_FALSE(d.encode);
  EXPECT_EQ(d.skipReason, "param 'c' (variants[0].tensor_maps[2]): data "
                          "pointer 0x7f0000000002 is not 16-byte aligned, "
                          "which a tensor map needs");
  // A required map that cannot be encoded: the message says which entry the
  // dims chose.
  Tensor b = Tensor::strided(kBase, DType::BF16, {768, 500}, {500, 1});
  EXPECT_FALSE(planTensorMap(v, 1, b, d, error));
  EXPECT_EQ(error, "param 'b': axis 0 has stride 500 bf16 elements = 1000 "
                   "bytes, not a multiple of 16 bytes as a tensor map needs; "
                   "pad it to a multiple of 8 elements (entry "
                   "'matmul_128x64', chosen for these dims, accesses it "
                   "through variants[0].tensor_maps[1], which is not "
                   "optional)");
  // The primary's message is unchanged.
  EXPECT_FALSE(planTensorMap(plan, 1, b, d, error));
  EXPECT_NE(error.find("(the kernel accesses it through tensor_maps[1], which "
                       "is not optional)"),
            std::string::npos)
      << error;
}

TEST(VariantPlan, KernelArgsAndDeviceChecksUseTheVariant) {
  Manifest m = matmulVariantsManifest();
  KernelVariant &kv = m.variants[0];
  kv.entry = "matmul_nostore";
  kv.tensorMaps.pop_back();
  kv.kernelArgs = {arg(KernelArgKind::TensorMap, 1),
                   arg(KernelArgKind::TensorMap, 0),
                   arg(KernelArgKind::Pointer, -1, "c"),
                   arg(KernelArgKind::Stride, -1, "c", "", 0),
                   arg(KernelArgKind::Dim, -1, "", "N")};
  kv.launch.dynamicSmem = 230000;
  LaunchPlan plan = planOf(m);
  const LaunchPlan &v = plan.variantPlan(1);

  std::vector<Tensor> args = {
      Tensor::contiguous(kBase, DType::BF16, {1000, 512}),
      Tensor::contiguous(kBase + 0x100000, DType::BF16, {768, 512}),
      Tensor::strided(kBase + 0x200000, DType::BF16, {1000, 768}, {800, 1})};
  BoundDims dims;
  std::string error;
  ASSERT_TRUE(checkArguments(plan, args.data(), args.size(), dims, error))
      << error;
  KernelArgPack pack;
  pack.reset(v);
  ASSERT_EQ(pack.maps.size(), 2u);
  ASSERT_EQ(pack.params.size(), 5u);
  packKernelArgs(v, args.data(), dims, pack);
  EXPECT_EQ(pack.params[0], &pack.maps[1]);
  EXPECT_EQ(pack.params[1], &pack.maps[0]);
  EXPECT_EQ(*static_cast<uint64_t *>(pack.params[2]), kBase + 0x200000);
  EXPECT_EQ(*static_cast<int64_t *>(pack.params[3]), 800);
  EXPECT_EQ(*static_cast<int32_t *>(pack.params[4]), 768);
  EXPECT_EQ(describeKernelArgs(v, pack), "  0 tensor_map map 1 (param 'b')\n"
                                         "  1 tensor_map map 0 (param 'a')\n"
                                         "  2 pointer 'c' = 0x7f0000200000\n"
                                         "  3 stride 'c' axis 0 = 800\n"
                                         "  4 dim N = 768\n");

  // The cubin's parameter table is checked per entry.
  EXPECT_TRUE(checkEntryParams(v, {128, 128, 8, 8, 4}, error)) << error;
  EXPECT_FALSE(checkEntryParams(v, {128, 128, 128, 4, 8, 8, 4, 4, 4}, error));
  EXPECT_EQ(error, "the cubin's entry 'matmul_nostore' takes 9 parameters but "
                   "the manifest lists 5 kernel_args; the manifest does not "
                   "belong to this cubin");

  // Device limits are checked per entry and name it.
  DeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.ccMajor = 9;
  h200.smCount = 132;
  // (A device with less shared memory than the manifest's largest chip, so
  // that the primary's 214016 bytes fit and the variant's 230000 do not.)
  h200.maxSmemPerBlockOptin = 220000;
  FunctionInfo fn;
  EXPECT_TRUE(checkFunctionLimits(plan, h200, fn, error)) << error;
  EXPECT_FALSE(checkFunctionLimits(v, h200, fn, error));
  EXPECT_EQ(error, "kernel 'matmul' (entry 'matmul_nostore') needs 230000 "
                   "bytes of dynamic shared memory per block, but device 0 "
                   "(NVIDIA H200) allows at most 220000");
}

//===----------------------------------------------------------------------===//
// The choice
//===----------------------------------------------------------------------===//

TEST(VariantChoice, MatmulTilesOnAnH200) {
  // 132 SMs, clusters of 2: 132 CTAs per wave. Primary 128x256 (cost 4 per
  // tile), variant 128x64 (cost 1.4).
  Manifest m = matmulVariantsManifest();
  // 1024^3: 32 tiles (1 wave, 4) vs 128 tiles (1 wave, 1.4).
  EXPECT_EQ(choose(m, {1024, 1024, 1024}), 1);
  // 2048^3: 128 tiles (1 wave, 4) vs 512 (4 waves, 5.6).
  EXPECT_EQ(choose(m, {2048, 2048, 2048}), 0);
  // 4096^3: 512 tiles (4 waves, 16) vs 2048 (16 waves, 22.4).
  EXPECT_EQ(choose(m, {4096, 4096, 4096}), 0);
  // Small and ragged shapes: 2 x 1 tiles vs 2 x 4.
  EXPECT_EQ(choose(m, {200, 200, 64}), 1);
  // K is not a grid axis.
  EXPECT_EQ(choose(m, {1024, 1024, 1 << 20}), 1);

  VariantCost c = costOf(m, 1, {4096, 4096, 4096});
  EXPECT_TRUE(c.usable);
  EXPECT_EQ(c.ctas, 2048);
  EXPECT_EQ(c.resident, 132);
  EXPECT_EQ(c.waves, 16);
  EXPECT_DOUBLE_EQ(c.cost, 22.4);

  EXPECT_EQ(describeVariantChoice(planOf(m), dimsOf({1024, 1024, 1024}), 132),
            "  variant 0 'matmul': 32 CTAs, 1 wave of 132, tile_cost 4, cost "
            "4\n"
            "  variant 1 'matmul_128x64': 128 CTAs, 1 wave of 132, tile_cost "
            "1.4, cost 1.4  <- chosen\n");
  EXPECT_EQ(describeVariantChoice(planOf(matmulManifest()),
                                  dimsOf({1024, 1024, 1024}), 132),
            "");
}

TEST(VariantChoice, SeveralDims) {
  // A batched 3-axis tiles kernel: tiles 128x128 (cost 2), 64x64 (0.6) and
  // 256x128 (3.5).
  Manifest m;
  m.kernel = "bmm";
  m.chip = "sm_90a";
  m.cubin = "bmm.cubin";
  m.entry = "bmm_128";
  m.dims = {"B", "M", "N"};
  m.params = {param("c", ParamRole::Output, DType::BF16, {"B", "M", "N"})};
  m.kernelArgs = {arg(KernelArgKind::Pointer, -1, "c")};
  m.launch.block = {128, 1, 1};
  m.launch.tiles = {axis("N", 128), axis("M", 128), axis("B", 1)};
  m.launch.tileCost = 2;
  m.variants.push_back(variantOf(
      m, "bmm_64", {axis("N", 64), axis("M", 64), axis("B", 1)}, 0.6));
  m.variants.push_back(variantOf(
      m, "bmm_256", {axis("N", 128), axis("M", 256), axis("B", 1)}, 3.5));
  // 16 / 64 / 8 CTAs: one wave each; 2 vs 0.6 vs 3.5.
  EXPECT_EQ(choose(m, {1, 512, 512}), 1);
  // 128 (1 wave, 2) / 512 (4, 2.4) / 64 (1, 3.5).
  EXPECT_EQ(choose(m, {2, 1024, 1024}), 0);
  // 256 (2, 4) / 1024 (8, 4.8) / 128 (1, 3.5).
  EXPECT_EQ(choose(m, {4, 1024, 1024}), 2);
  // 2048 (16, 32) / 8192 (63, 37.8) / 1024 (8, 28).
  EXPECT_EQ(choose(m, {8, 2048, 2048}), 2);
  VariantCost c = costOf(m, 1, {8, 2048, 2048});
  EXPECT_EQ(c.ctas, 8192);
  EXPECT_EQ(c.waves, 63);
  // The SM count matters: on 264 SMs the 128x128 tiles take 8 waves (16)
  // against 4 (14).
  EXPECT_EQ(choose(m, {8, 2048, 2048}, 264), 2);
  // On 64 SMs: 128 CTAs (2 waves, 4) / 512 (8, 4.8) / 64 (1, 3.5).
  EXPECT_EQ(choose(m, {2, 1024, 1024}, 64), 2);
}

TEST(VariantChoice, TilesRoundUpToTheCluster) {
  // Persistent, cluster 2: 5 row tiles take 3 clusters of 2 rows, so 5 x 3
  // tiles launch 6 x 3 = 18 CTAs.
  Manifest m = matmulVariantsManifest();
  VariantCost c = costOf(m, 0, {640, 768, 64});
  EXPECT_EQ(c.ctas, 18);
  EXPECT_EQ(c.waves, 1);
  // One row tile (M <= 128): half of each cluster has no rows, so 112 column
  // tiles are 224 CTAs, two waves of 132.
  c = costOf(m, 0, {128, 256 * 112, 64});
  EXPECT_EQ(c.ctas, 224);
  EXPECT_EQ(c.waves, 2);

  // 133 tiles on 133 SMs: one wave without a cluster; with clusters of 2 the
  // CTAs round up to 134 and a wave holds only 132, so the cheaper-per-tile
  // clustered variant loses.
  Manifest r = matmulVariantsManifest();
  r.launch.cluster = {1, 1, 1};
  r.launch.tileCost = 1;
  r.launch.tiles = {axis("M", 128), axis("N", 256)};
  r.variants[0] = variantOf(r, "clustered", r.launch.tiles, 0.9, {2, 1, 1});
  std::vector<int64_t> dims = {128 * 133, 256, 64};
  c = costOf(r, 0, dims, 133);
  EXPECT_EQ(c.ctas, 133);
  EXPECT_EQ(c.resident, 133);
  EXPECT_EQ(c.waves, 1);
  c = costOf(r, 1, dims, 133);
  EXPECT_EQ(c.ctas, 134);
  EXPECT_EQ(c.resident, 132);
  EXPECT_EQ(c.waves, 2);
  EXPECT_EQ(choose(r, dims, 133), 0);
  // On 134 SMs both fit one wave: the clustered variant's 0.9 wins.
  EXPECT_EQ(choose(r, dims, 134), 1);

  // Clusters of 4: 133 tiles -> 136 CTAs, 2 waves of 132.
  r.variants[0].launch.cluster = {4, 1, 1};
  c = costOf(r, 1, {128 * 133, 256, 64}, 132);
  EXPECT_EQ(c.ctas, 136);
  EXPECT_EQ(c.waves, 2);
  c = costOf(r, 1, {128 * 132, 256, 64}, 132);
  EXPECT_EQ(c.ctas, 132);
  EXPECT_EQ(c.waves, 1);

  // The tiles rule rounds each axis up to its cluster dim, and a wave holds
  // whole clusters of x*y*z CTAs.
  Manifest t = matmulVariantsManifest();
  t.launch.rule = GridRule::Tiles;
  t.launch.cluster = {1, 2, 1};
  t.variants.clear();
  c = costOf(t, 0, {3 * 128, 3 * 256, 64});
  EXPECT_EQ(c.ctas, 12); // 3 x 4
  EXPECT_EQ(c.resident, 132);
  t.launch.cluster = {1, 8, 1};
  c = costOf(t, 0, {16 * 128, 8 * 256, 64});
  EXPECT_EQ(c.ctas, 128);
  EXPECT_EQ(c.resident, 128); // floor(132 / 8) * 8
  EXPECT_EQ(c.waves, 1);
  c = costOf(t, 0, {17 * 128, 8 * 256, 64});
  EXPECT_EQ(c.ctas, 136);
  EXPECT_EQ(c.waves, 2);
}

TEST(VariantChoice, TiesGoToTheEarlierCandidate) {
  Manifest m = matmulVariantsManifest();
  m.variants[0].launch.tileCost = 4; // 1 wave each at 1024^3: 4 vs 4
  EXPECT_EQ(choose(m, {1024, 1024, 1024}), 0);
  m.variants[0].launch.tileCost = 2;
  KernelVariant twin = m.variants[0];
  twin.entry = "matmul_128x64_twin";
  m.variants.push_back(twin);
  EXPECT_EQ(choose(m, {1024, 1024, 1024}), 1); // 4 vs 2 vs 2
  m.variants[1].launch.tileCost = 1.5;
  EXPECT_EQ(choose(m, {1024, 1024, 1024}), 2); // 4 vs 2 vs 1.5
}

// A ping-pong variant: each tile costs less than the cooperative one's, but
// the last tile's epilogue is not hidden (tail_cost), so at one tile per CTA
// the two cost the same and the earlier one runs, while with more waves
// the ping-pong one wins.
TEST(VariantChoice, TailCostIsAddedOncePerLaunch) {
  Manifest m = matmulVariantsManifest();
  // The 128x64 variant as the cooperative tile, costing 3 per tile.
  m.variants[0].launch.tileCost = 3;
  KernelVariant pingpong = m.variants[0];
  pingpong.entry = "matmul_128x64pp";
  pingpong.launch.tileCost = 2.9;
  pingpong.launch.tailCost = 0.1;
  m.variants.push_back(pingpong);
  // 1024^3: 128 tiles of 128x64, one wave of 132: 4 (primary: 32 tiles of
  // 128x256), 3 and 2.9 + 0.1 (a tie within rounding: the earlier runs).
  EXPECT_EQ(costOf(m, 2, {1024, 1024, 1024}).cost, 3.0);
  EXPECT_EQ(choose(m, {1024, 1024, 1024}), 1);
  // 2048 x 4096: 1024 tiles, 8 waves: 23.3 against the primary's 2 waves
  // of 128x256 tiles, 8.
  EXPECT_EQ(costOf(m, 2, {2048, 4096, 64}).cost, 8 * 2.9 + 0.1);
  EXPECT_EQ(choose(m, {2048, 4096, 64}), 0);
  // 768 x 2816: 6 x 44 = 264 tiles of 128x64, 2 waves: 6 vs 5.9; the
  // primary's 6 x 11 = 66 tiles on 2x1 clusters, 1 wave: 4.
  EXPECT_EQ(choose(m, {768, 2816, 64}), 0);
  m.launch.tileCost = 8;
  EXPECT_EQ(choose(m, {768, 2816, 64}), 2);
  std::string text = describeVariantChoice(planOf(m),
                                           dimsOf({768, 2816, 64}), 132);
  EXPECT_NE(text.find("'matmul_128x64pp': 264 CTAs, 2 waves of 132, "
                      "tile_cost 2.9, tail_cost 0.1, cost 5.9  <- chosen"),
            std::string::npos)
      << text;
}

// A stream-K kernel (launch.stream_k) splits the last tiles' K steps over
// its clusters when the partial last wave is small and the join pays: the
// rule reports the split and its rounds by the manifest's join estimate
// (T / G + join_steps / K steps) but costs whole waves, as measured best.
Manifest streamKManifest() {
  Manifest m = matmulVariantsManifest();
  m.launch.streamK.maxTailPercent = 33;
  m.launch.streamK.k = {DimExpr::dim("K"), 64};
  m.launch.streamK.joinSteps = 16;
  return m;
}

/// The cost rule's numbers and the stream-K estimate of kernel k at dims.
struct CostAndSplit : VariantCost, StreamKEstimate {};
CostAndSplit splitOf(const Manifest &m, size_t k, std::vector<int64_t> dims) {
  LaunchPlan plan = planOf(m);
  const LaunchPlan &kernel = plan.variantPlan(k);
  BoundDims bound = dimsOf(std::move(dims));
  CostAndSplit r;
  static_cast<VariantCost &>(r) = variantCost(kernel, bound, 132);
  static_cast<StreamKEstimate &>(r) = streamKEstimate(kernel, bound, r);
  return r;
}

TEST(VariantChoice, AStreamKSplitIsExplainedAndCostedAsWholeWaves) {
  Manifest m = streamKManifest();
  // 2048 x 2304 x 4096: 16 x 9 tiles of 128x256 on 2x1 clusters, 72
  // cluster tiles on 66 clusters: a last wave of 6 (9%) is split. 72 / 66
  // rounds + 16 of 64 K steps.
  CostAndSplit c = splitOf(m, 0, {2048, 2304, 4096});
  EXPECT_TRUE(c.streamKSplit);
  EXPECT_EQ(c.waves, 2);
  EXPECT_DOUBLE_EQ(c.rounds, 72.0 / 66 + 0.25);
  EXPECT_EQ(c.cost, 2 * 4);
  // The choice is the one without stream_k: the 128x64 variant's 5 waves of
  // 1.4 (7) against the primary's 8.
  EXPECT_EQ(choose(m, {2048, 2304, 4096}), 1);
  EXPECT_EQ(choose(matmulVariantsManifest(), {2048, 2304, 4096}), 1);
  std::string text =
      describeVariantChoice(planOf(m), dimsOf({2048, 2304, 4096}), 132);
  EXPECT_NE(text.find("'matmul': 144 CTAs, 2 waves of 132 (stream-K split: "
                      "~1.34091 rounds with the join), tile_cost 4, cost 8\n"),
            std::string::npos)
      << text;
  // The join is a fixed time: with 32 K steps a tile it is half a tile;
  // with 16 a whole one, more than the 60 / 66 of a round the split saves,
  // so the walk does not split there (kt * (G - rem) > join_steps * G).
  EXPECT_DOUBLE_EQ(splitOf(m, 0, {2048, 2304, 2048}).rounds, 72.0 / 66 + 0.5);
  CostAndSplit fewSteps = splitOf(m, 0, {2048, 2304, 1024});
  EXPECT_FALSE(fewSteps.streamKSplit);
  EXPECT_EQ(fewSteps.rounds, 2);
  // The variant has no stream_k: whole waves.
  EXPECT_FALSE(splitOf(m, 1, {2048, 2304, 4096}).streamKSplit);
}

TEST(VariantChoice, AStreamKKernelRunsWholeWavesWhereTheWalkDoesNotSplit) {
  Manifest m = streamKManifest();
  // A last wave of 58 of 66 clusters (88% > 33%): 256 cluster tiles.
  CostAndSplit full = splitOf(m, 0, {4096, 4096, 4096});
  EXPECT_FALSE(full.streamKSplit);
  EXPECT_EQ(full.rounds, 4);
  EXPECT_EQ(full.cost, 16);
  // Fewer tiles than clusters (16 of 66), no partial wave (66 of 66), no K
  // steps.
  for (std::vector<int64_t> dims :
       {std::vector<int64_t>{1024, 1024, 4096},
        std::vector<int64_t>{1536, 2816, 4096},
        std::vector<int64_t>{2048, 2304, 0}}) {
    CostAndSplit c = splitOf(m, 0, dims);
    EXPECT_FALSE(c.streamKSplit) << dims[0] << "x" << dims[1] << "x" << dims[2];
    EXPECT_EQ(c.rounds, static_cast<double>(c.waves));
  }
  // The edge: 33% of 66 clusters is 21.78, so a last wave of 21 splits
  // and one of 22 does not (one column of 87 and 88 cluster tiles: 174 and
  // 176 row tiles on 2x1 clusters).
  EXPECT_TRUE(splitOf(m, 0, {128 * 174, 256, 4096}).streamKSplit);  // T = 87
  EXPECT_FALSE(splitOf(m, 0, {128 * 176, 256, 4096}).streamKSplit); // T = 88
}

/// The variants manifest's JSON with `"stream_k": value` in the primary's
/// launch.
std::string withStreamK(const std::string &value) {
  return edit(kMatmulVariantsJson, "\"tile_cost\": 4,",
              "\"tile_cost\": 4, \"stream_k\": " + value + ",");
}

/// `m` written and read back: the same manifest.
void expectRoundTrip(const Manifest &m) {
  Manifest back;
  std::string error;
  ASSERT_TRUE(parseManifest(writeManifest(m), back, error)) << error;
  EXPECT_TRUE(back == m);
}

// A stream-K walk in halves (split-K of a partial last wave,
// `split: "halves"`, max_tail_percent 50): the last T mod G tiles, when at
// most half the clusters, each in two K halves; every tile when there are
// fewer than G / 2. Explained as the whole rounds + (a half + the join) / K
// steps; costed as whole waves.
Manifest halvesManifest() {
  Manifest m = streamKManifest();
  m.launch.streamK.halves = true;
  m.launch.streamK.maxTailPercent = 50;
  return m;
}

TEST(VariantChoice, SplitKHalvesAreExplainedAndCostedAsWholeWaves) {
  Manifest m = halvesManifest();
  // 2048 x 2304 x 4096: 72 cluster tiles on 66: 1 round + (32 + 16) / 64.
  CostAndSplit c = splitOf(m, 0, {2048, 2304, 4096});
  EXPECT_TRUE(c.streamKSplit);
  EXPECT_DOUBLE_EQ(c.rounds, 1.75);
  EXPECT_EQ(c.cost, 2 * 4);
  // 512 x 4096 x 14336: 32 cluster tiles, fewer than half of 66: all split,
  // (112 + 16) / 224 of a round.
  CostAndSplit few = splitOf(m, 0, {512, 4096, 14336});
  EXPECT_TRUE(few.streamKSplit);
  EXPECT_DOUBLE_EQ(few.rounds, 128.0 / 224);
  // The edge: a last wave of 33 of 66 splits, 34 does not (one column of
  // 99 and 100 cluster tiles).
  EXPECT_TRUE(splitOf(m, 0, {256 * 99, 256, 4096}).streamKSplit);
  EXPECT_FALSE(splitOf(m, 0, {256 * 100, 256, 4096}).streamKSplit);
  // A half must outweigh the join: 33 K steps split (17 > 16), 32 do not.
  EXPECT_TRUE(splitOf(m, 0, {2048, 2304, 64 * 33}).streamKSplit);
  EXPECT_FALSE(splitOf(m, 0, {2048, 2304, 64 * 32}).streamKSplit);
  std::string text =
      describeVariantChoice(planOf(m), dimsOf({2048, 2304, 4096}), 132);
  EXPECT_NE(text.find("'matmul': 144 CTAs, 2 waves of 132 (split-K halves: "
                      "~1.75 rounds with the join)"),
            std::string::npos)
      << text;
}

TEST(VariantManifest, StreamKHalvesRoundTrip) {
  Manifest m = halvesManifest();
  std::string text = writeManifest(m);
  EXPECT_NE(text.find("\"join_steps\":16.0,\"split\":\"halves\"}"),
            std::string::npos)
      << text;
  expectRoundTrip(m);
  // Runs are the default; another word is an error.
  EXPECT_EQ(writeManifest(streamKManifest()).find("split"), std::string::npos);
  Manifest back;
  std::string error;
  auto with = withStreamK;
  ASSERT_TRUE(parseManifest(with("{\"max_tail_percent\": 33, \"k\": [\"K\", 64], "
                                 "\"join_steps\": 16, \"split\": \"runs\"}"),
                            back, error))
      << error;
  EXPECT_FALSE(back.launch.streamK.halves);
  expectParseError(with("{\"max_tail_percent\": 50, \"k\": [\"K\", 64], "
                        "\"join_steps\": 16, \"split\": \"thirds\"}"),
                   "launch.stream_k.split: 'thirds' is not runs or halves");
  expectParseError(with("{\"max_tail_percent\": 50, \"k\": [\"K\", 64], "
                        "\"join_steps\": 16, \"split\": 2}"),
                   "launch.stream_k.split: expected a string");
}

TEST(VariantManifest, StreamKIsAnOptionalRule) {
  Manifest m = streamKManifest();
  std::string text = writeManifest(m);
  EXPECT_NE(text.find("\"stream_k\":{\"max_tail_percent\":33,\"k\":[\"K\",64],"
                      "\"join_steps\":16.0}"),
            std::string::npos)
      << text;
  expectRoundTrip(m);
  EXPECT_EQ(writeManifest(matmulVariantsManifest()).find("stream_k"),
            std::string::npos);
  Manifest back;
  std::string error;
  auto with = withStreamK;
  ASSERT_TRUE(parseManifest(
      with("{\"max_tail_percent\": 33, \"k\": [\"K\", 64], \"join_steps\": 16}"),
      back, error))
      << error;
  EXPECT_EQ(back.launch.streamK.k.tile, 64);
  expectParseError(with("true"), "launch.stream_k: expected an object, got boolean");
  expectParseError(with("{\"k\": [\"K\", 64], \"join_steps\": 16}"),
                   "launch.stream_k: missing key \"max_tail_percent\"");
  expectParseError(
      with("{\"max_tail_percent\": 0, \"k\": [\"K\", 64], \"join_steps\": 16}"),
      "launch.stream_k.max_tail_percent: 0 is outside [1, 100]");
  expectParseError(
      with("{\"max_tail_percent\": 33, \"k\": \"K\", \"join_steps\": 16}"),
      "launch.stream_k.k: expected [extent, tile]");
  expectParseError(
      with("{\"max_tail_percent\": 33, \"k\": [\"K\", 64]}"),
      "launch.stream_k: missing key \"join_steps\"");
  expectInvalid(
      [](Manifest &m) {
        m.variants[0].launch.streamK = streamKManifest().launch.streamK;
        m.variants[0].launch.streamK.maxTailPercent = 101;
      },
      "variants[0].launch.stream_k.max_tail_percent 101 is outside [1, 100]");
  expectInvalid(
      [](Manifest &m) {
        m.launch.streamK = streamKManifest().launch.streamK;
        m.launch.streamK.joinSteps = -1;
      },
      "launch.stream_k.join_steps -1 is not a finite number >= 0");
  expectInvalid(
      [](Manifest &m) {
        m.launch.streamK = streamKManifest().launch.streamK;
        m.launch.streamK.k.tile = 0;
      },
      "launch.stream_k.k: tile 0 is not positive");
  expectInvalid(
      [](Manifest &m) {
        m.launch.streamK = streamKManifest().launch.streamK;
        m.launch.streamK.k.extent = DimExpr::dim("Q");
      },
      "launch.stream_k.k: 'Q' uses dim 'Q', which is not in dims (M, N, K)");
  expectInvalid(
      [](Manifest &m) {
        m.launch.streamK = streamKManifest().launch.streamK;
        m.launch.rule = GridRule::Tiles;
      },
      "launch.stream_k needs the persistent grid rule");
}

TEST(VariantChoice, AnyUnknownTileCostRunsThePrimary) {
  Manifest m = matmulVariantsManifest();
  ASSERT_EQ(choose(m, {1024, 1024, 1024}), 1);
  m.launch.tileCost = 0;
  EXPECT_EQ(choose(m, {1024, 1024, 1024}), 0);
  m = matmulVariantsManifest();
  m.variants[0].launch.tileCost = 0; // would be "free", still not chosen
  EXPECT_EQ(choose(m, {1024, 1024, 1024}), 0);
  EXPECT_EQ(describeVariantChoice(planOf(m), dimsOf({1024, 1024, 1024}), 132),
            "  some kernel has tile_cost 0 (unknown): the primary runs\n"
            "  variant 0 'matmul': 32 CTAs, 1 wave of 132, tile_cost 4, cost "
            "4  <- chosen\n"
            "  variant 1 'matmul_128x64': 128 CTAs, 1 wave of 132, tile_cost "
            "0, cost 0\n");
  // Without variants there is nothing to choose.
  EXPECT_EQ(choose(matmulManifest(), {1024, 1024, 1024}), 0);
}

TEST(VariantChoice, ZeroTilesStillLaunchNothing) {
  Manifest m = matmulVariantsManifest();
  for (std::vector<int64_t> dims :
       {std::vector<int64_t>{0, 1024, 64}, std::vector<int64_t>{1024, 0, 64}}) {
    VariantCost c = costOf(m, 1, dims);
    EXPECT_TRUE(c.usable);
    EXPECT_EQ(c.ctas, 0);
    EXPECT_EQ(c.waves, 0);
    EXPECT_EQ(c.cost, 0);
    LaunchPlan plan = planOf(m);
    int k = chooseVariant(plan, dimsOf(dims), 132);
    EXPECT_EQ(k, 0); // every cost is 0: the earliest wins
    GridDims g;
    std::string error;
    ASSERT_TRUE(computeGrid(plan.variantPlan(k), dimsOf(dims), 132, g, error))
        << error;
    EXPECT_TRUE(g.empty);
  }
  // With the primary's cost unknown the primary runs, and is empty too.
  m.launch.tileCost = 0;
  LaunchPlan plan = planOf(m);
  GridDims g;
  std::string error;
  ASSERT_EQ(chooseVariant(plan, dimsOf({0, 1024, 64}), 132), 0);
  ASSERT_TRUE(computeGrid(plan, dimsOf({0, 1024, 64}), 132, g, error));
  EXPECT_TRUE(g.empty);
}

TEST(VariantChoice, UncostableKernels) {
  // A variant whose cluster does not fit the device is never chosen.
  Manifest m = matmulVariantsManifest();
  m.variants[0].launch.cluster = {16, 1, 1};
  EXPECT_EQ(choose(m, {1024, 1024, 1024}, 8), 0);
  EXPECT_FALSE(costOf(m, 1, {1024, 1024, 1024}, 8).usable);
  EXPECT_EQ(choose(m, {1024, 1024, 1024}, 132), 1);
  // A primary that cannot be costed runs, so computeGrid reports why.
  m = matmulVariantsManifest();
  m.launch.tiles[0].extent = DimExpr::make(DimExpr::Kind::Sub, "M", 200);
  EXPECT_EQ(choose(m, {100, 1024, 64}), 0);
  EXPECT_FALSE(costOf(m, 0, {100, 1024, 64}).usable);
  EXPECT_EQ(choose(m, {1024, 1024, 64}), 1);
  // Unbound dims (a query from some tensors only) cannot be costed.
  EXPECT_FALSE(costOf(m, 1, {-1, 1024, 64}).usable);
  // No SMs, no waves.
  EXPECT_EQ(choose(matmulVariantsManifest(), {1024, 1024, 64}, 0), 0);
}

TEST(VariantChoice, HugeGridsSaturateInsteadOfOverflowing) {
  Manifest m = matmulVariantsManifest();
  for (GridAxis &a : m.launch.tiles)
    a.tile = 1;
  m.launch.tiles.push_back(axis("K", 1));
  m.variants[0].launch.tiles = m.launch.tiles;
  std::vector<int64_t> dims = {2000000000, 2000000000, 2000000000};
  VariantCost c = costOf(m, 0, dims);
  EXPECT_TRUE(c.usable);
  EXPECT_EQ(c.ctas, int64_t(1) << 62);
  EXPECT_EQ(c.waves, (int64_t(1) << 62) / 132 + 1);
  EXPECT_TRUE(std::isfinite(c.cost));
  EXPECT_EQ(choose(m, dims), 1); // same waves, cheaper tiles
}

} // namespace
