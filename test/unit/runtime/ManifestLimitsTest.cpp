//===- ManifestLimitsTest.cpp - Hostile numbers and names in manifests ----===//
//
// A manifest is a file anyone can write. Every number in it is bounded before
// the runtime multiplies it or hands it to the driver, and the cubin it names
// must lie next to it; these tests feed it what a careless or hostile writer
// would.
//
//===----------------------------------------------------------------------===//

#include "TestManifests.h"

#include "runtime/Grid.h"
#include "runtime/Manifest.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>

using namespace kiln;
using namespace kiln::test;

namespace {

/// `text` with the first occurrence of `from` replaced.
std::string edit(std::string text, const std::string &from,
                 const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' not in the text";
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

/// The matmul manifest with `from` replaced by `to` does not parse, and the
/// message contains `needle`.
void expectRefused(const std::string &from, const std::string &to,
                   const std::string &needle) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifest(edit(kMatmulJson, from, to), m, error))
      << "parsed with " << to;
  EXPECT_NE(error.find(needle), std::string::npos)
      << "error: " << error << "\nwanted: " << needle;
}

/// The matmul manifest after `change` fails validation with exactly `want`.
void expectInvalid(const std::function<void(Manifest &)> &change,
                   const std::string &want) {
  Manifest m = matmulManifest();
  change(m);
  std::string error;
  EXPECT_FALSE(validateManifest(m, error)) << "valid, expected: " << want;
  EXPECT_EQ(error, want);
}

const char *kBlock = "\"block\": [384, 1, 1]";
const char *kCluster = "\"cluster\": [2, 1, 1]";

TEST(ManifestLimits, BlockEntriesThatWouldOverflowTheThreadCount) {
  // 2^32 * 2^32 wraps to 0 in int64: the entries are bounded first.
  expectRefused(kBlock, "\"block\": [4294967296, 4294967296, 1]",
                "launch.block [4294967296, 4294967296, 1] exceeds CUDA's "
                "limits (1024 threads, z <= 64)");
  expectRefused(kBlock, "\"block\": [9223372036854775807, 2, 1]",
                "launch.block [9223372036854775807, 2, 1] exceeds CUDA's "
                "limits");
  expectRefused(kBlock, "\"block\": [1, 1, 4294967296]",
                "launch.block [1, 1, 4294967296] exceeds CUDA's limits");
  expectRefused(kBlock, "\"block\": [32, 33, 1]",
                "launch.block [32, 33, 1] exceeds CUDA's limits");
  expectRefused(kBlock, "\"block\": [-1, 1, 1]",
                "launch.block has a non-positive entry");
  // The limits themselves are accepted.
  for (const char *ok : {"[1024, 1, 1]", "[1, 1024, 1]", "[16, 1, 64]"}) {
    Manifest m;
    std::string error;
    EXPECT_TRUE(parseManifest(
        edit(kMatmulJson, kBlock, std::string("\"block\": ") + ok), m, error))
        << ok << ": " << error;
  }
}

TEST(ManifestLimits, ClusterEntriesThatWouldOverflowTheCtaCount) {
  // 2^32 * 2^32 wraps to 0 in int64.
  expectRefused(kCluster, "\"cluster\": [4294967296, 4294967296, 1]",
                "launch.cluster [4294967296, 4294967296, 1] has more than "
                "2^63 CTAs; the hardware maximum is 16");
  expectRefused(kCluster, "\"cluster\": [4294967296, 1, 4294967296]",
                "has more than 2^63 CTAs");
  expectRefused(kCluster, "\"cluster\": [4294967296, 1, 1]",
                "launch.cluster has 4294967296 CTAs; the hardware maximum is "
                "16");
  expectRefused(kCluster, "\"cluster\": [17, 1, 1]",
                "launch.cluster has 17 CTAs; the hardware maximum is 16");
  expectInvalid(
      [](Manifest &m) {
        m.launch.cluster = {1, 16, 2};
      },
      "launch.cluster has 32 CTAs; the hardware maximum is 16");
  // 16 is the non-portable maximum, and allowed.
  Manifest m;
  std::string error;
  EXPECT_TRUE(parseManifest(
      edit(kMatmulJson, kCluster, "\"cluster\": [16, 1, 1]"), m, error))
      << error;
}

TEST(ManifestLimits, DynamicSharedMemoryWithinTheLargestChip) {
  expectInvalid([](Manifest &m) { m.launch.dynamicSmem = 232449; },
                "launch.dynamic_smem 232449 is out of range (0..232448 bytes, "
                "the most shared memory one block can opt into on any "
                "supported chip)");
  expectRefused("\"dynamic_smem\": 214016",
                "\"dynamic_smem\": 9223372036854775807",
                "launch.dynamic_smem 9223372036854775807 is out of range");
  Manifest m = matmulManifest();
  m.launch.dynamicSmem = 232448;
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

TEST(ManifestLimits, GridTilesAndExtentsWithinTheKernelIndexLimit) {
  expectInvalid(
      [](Manifest &m) { m.launch.tiles[0].tile = int64_t(1) << 40; },
      "launch.grid.tiles[0]: tile 1099511627776 exceeds the kernel's 32-bit "
      "index limit (2147483647)");
  expectRefused("[\"M\", 128]", "[\"4294967296\", 128]",
                "launch.grid.tiles[0]: '4294967296': 4294967296 exceeds the "
                "kernel's 32-bit index limit (2147483647)");
  expectRefused("[\"M\", 128]", "[\"M*9223372036854775807\", 128]",
                "launch.grid.tiles[0]: 'M*9223372036854775807'");
  expectRefused("[\"M\", 128]", "[\"cdiv(M,4294967296)\", 128]",
                "exceeds the kernel's 32-bit index limit");
  expectRefused("\"shape\": [\"M\", \"K\"]",
                "\"shape\": [\"M+2147483648\", \"K\"]",
                "params[0] 'a' shape[0]: 'M+2147483648': 2147483648 exceeds "
                "the kernel's 32-bit index limit");
  // The limit itself is accepted.
  Manifest m = matmulManifest();
  m.launch.tiles[0].tile = 2147483647;
  m.params[2].shape[0] = DimExpr::make(DimExpr::Kind::Add, "M", 2147483647);
  std::string error;
  EXPECT_TRUE(validateManifest(m, error)) << error;
}

TEST(ManifestLimits, TheLargestTilesGridDoesNotOverflow) {
  // The biggest tile count a valid manifest allows, ~2^62, is reported as too
  // large a grid instead of being rounded up to the cluster past int64.
  Manifest m = matmulManifest();
  m.launch.rule = GridRule::Tiles;
  m.launch.cluster = {16, 1, 1};
  m.launch.tiles = {{DimExpr::make(DimExpr::Kind::Mul, "M", 2147483647), 1}};
  LaunchPlan plan = planOf(m);
  BoundDims dims;
  dims.values = {2147483647, 1, 1};
  dims.sources.assign(3, DimSource());
  GridDims grid;
  std::string error;
  EXPECT_FALSE(computeGrid(plan, dims, 132, grid, error));
  EXPECT_EQ(error, "grid [4611686014132420609, 1, 1] exceeds CUDA's limits "
                   "(x < 2^31, y and z <= 65535)");
}

TEST(ManifestLimits, ScaleBlocksAndBoxes) {
  Manifest m = moeManifest();
  m.params[1].block = {1, int64_t(1) << 40};
  std::string error;
  EXPECT_FALSE(validateManifest(m, error));
  EXPECT_EQ(error, "params[1] 'x.scale': block entry 1099511627776 exceeds "
                   "the kernel's 32-bit index limit (2147483647)");
  expectRefused("\"box\": [64, 128]", "\"box\": [64, 4294967296]",
                "tensor_maps[0] ('a'): box[1] = 4294967296 is outside 1..256");
}

TEST(ManifestLimits, JsonNumbersAreNeverWrapped) {
  // Beyond uint64: nlohmann reads a double.
  expectRefused(kBlock, "\"block\": [99999999999999999999, 1, 1]",
                "launch.block[0]: expected an integer, got 1e+20 (written as "
                "a floating-point number, or beyond 64 bits)");
  // Beyond int64, within uint64.
  expectRefused(kBlock, "\"block\": [9223372036854775808, 1, 1]",
                "launch.block[0]: integer out of range");
  expectRefused(kBlock, "\"block\": [18446744073709551615, 1, 1]",
                "launch.block[0]: integer out of range");
  // Written with an exponent or a point, even when whole.
  expectRefused(kBlock, "\"block\": [3.84e2, 1, 1]",
                "launch.block[0]: expected an integer, got 384 (written as a "
                "floating-point number, or beyond 64 bits)");
  expectRefused(kBlock, "\"block\": [384.0, 1, 1]",
                "launch.block[0]: expected an integer, got 384");
  expectRefused(kBlock, "\"block\": [383.5, 1, 1]",
                "launch.block[0]: expected an integer, got a fraction");
  // Negative values: each field's own rule.
  expectRefused("\"dynamic_smem\": 214016", "\"dynamic_smem\": -214016",
                "launch.dynamic_smem -214016 is out of range");
  expectRefused("[\"M\", 128]", "[\"M\", -128]",
                "launch.grid.tiles[0]: tile -128 is not positive");
  expectRefused("{\"kind\": \"tensor_map\", \"map\": 0}",
                "{\"kind\": \"tensor_map\", \"map\": -9223372036854775808}",
                "kernel_args[0] (tensor_map): map -9223372036854775808 is not "
                "an index");
  expectRefused("\"version\": 1", "\"version\": 1e300",
                "version: expected an integer, got 1.0000000000000001e+300");
}

TEST(ManifestLimits, CubinIsAPlainFileNameNextToTheManifest) {
  const char *cubin = "\"cubin\": \"matmul.cubin\"";
  for (const char *bad :
       {"../../etc/passwd", "/etc/passwd", "sub/matmul.cubin", "..", ".",
        "a\\\\b.cubin", "/dev/zero", "matmul.cubin/"}) {
    SCOPED_TRACE(bad);
    expectRefused(cubin, std::string("\"cubin\": \"") + bad + "\"",
                  "' is not a plain file name: the cubin is read from the "
                  "manifest's folder");
  }
  // A NUL would cut the path short.
  expectRefused(cubin, "\"cubin\": \"matmul.cubin\\u0000/../../etc/passwd\"",
                "cubin 'matmul.cubin\\x00/../../etc/passwd' is not a plain "
                "file name");
  expectRefused(cubin, "\"cubin\": \"\"", "cubin is empty");
  // The compiler writes the file name alone; names that merely contain dots
  // are file names.
  for (const char *ok : {"matmul.cubin", "..matmul.cubin", "a..b.cubin",
                         "kernel cubin", ".hidden"}) {
    Manifest m;
    std::string error;
    EXPECT_TRUE(parseManifest(
        edit(kMatmulJson, cubin, std::string("\"cubin\": \"") + ok + "\""), m,
        error))
        << ok << ": " << error;
  }
  expectInvalid([](Manifest &m) { m.cubin = "../k.cubin"; },
                "cubin '../k.cubin' is not a plain file name: the cubin is "
                "read from the manifest's folder, so the name may not contain "
                "'/' or '\\', be '.' or '..', or be absolute");
}

TEST(ManifestLimits, ChipNamesHaveAtMostFourDigits) {
  expectRefused("\"chip\": \"sm_90a\"",
                "\"chip\": \"sm_99999999999999999999a\"",
                "chip 'sm_99999999999999999999a' is not a chip name");
  Manifest m;
  std::string error;
  EXPECT_TRUE(parseManifest(
      edit(kMatmulJson, "\"chip\": \"sm_90a\"", "\"chip\": \"sm_1000a\""), m,
      error))
      << error;
}

} // namespace
