//===- LimitsTest.cpp - The runtime's limits agree with the compiler's ----===//
//
// The runtime cannot include the compiler (it builds without it), so
// runtime/Limits.h repeats the hardware numbers of compiler/Target/Chip.h.
// That header's constants are plain constexpr (no MLIR, no LLVM), so this
// test can include it and check that the two never drift.
//
//===----------------------------------------------------------------------===//

#include "runtime/Limits.h"

#include "compiler/Target/Chip.h"

#include "gtest/gtest.h"

namespace {

static_assert(kiln::kMaxThreadsPerBlock == kiln::target::maxThreadsPerBlock,
              "runtime/Limits.h and compiler/Target/Chip.h disagree on the "
              "threads of a block");
static_assert(kiln::kMaxClusterCtas == kiln::target::maxClusterSizeNonPortable,
              "runtime/Limits.h and compiler/Target/Chip.h disagree on the "
              "largest cluster");
static_assert(kiln::kMaxKernelIndex == kiln::target::maxKernelIndex,
              "runtime/Limits.h and compiler/Target/Chip.h disagree on the "
              "kernel index limit");

TEST(Limits, FileLimitsAreWhatTheDocsSay) {
  // docs/runtime.md and docs/manifest.md quote these.
  EXPECT_EQ(kiln::kMaxManifestBytes, 16u * 1024 * 1024);
  EXPECT_EQ(kiln::kMaxCubinBytes, 256u * 1024 * 1024);
  EXPECT_EQ(kiln::kMaxDynamicSmemBytes, 227 * 1024);
}

} // namespace
