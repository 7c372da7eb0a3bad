//===- WgmmaDescriptor.h - sm_90a wgmma descriptors and shapes --*- C++ -*-===//
//
// The 64-bit shared-memory matrix descriptor that wgmma.mma_async takes for
// its A and B operands, and the instruction geometry that goes with it.
// ptxas cannot check these bits (they are register values), so every
// constant here has a golden-value unit test; the K-major SW128/64/32 and
// MN-major SW128 values ran correctly on an H200 (sm90-hardware-check.md).
//
// Bit layout (PTX ISA 9.7.15.5.1.2.2, lowering-brief.md §5.2):
//   0-13  start address >> 4     16-29  LBO >> 4     32-45  SBO >> 4
//   49-51 base offset            62-63  swizzle (0 none, 1 128B, 2 64B, 3 32B)
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_WGMMADESCRIPTOR_H
#define KILN_COMPILER_TARGET_WGMMADESCRIPTOR_H

#include "compiler/Target/CanonicalLayout.h"
#include "compiler/Target/ElementType.h"
#include "compiler/Target/SmemDescriptor.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/ValueOrError.h"

#include <cstdint>
#include <vector>

namespace kiln::target {

/// LBO written where the hardware ignores it (swizzled K-major): 16 B, i.e.
/// field value 1, CUTLASS's "assumed 1". DeepGEMM writes 0; both ran.
constexpr uint32_t wgmmaIgnoredLeadingByteOffset = 16;

/// Packs `fields` into the 64-bit descriptor; fails on unaligned or
/// out-of-range fields.
ValueOrError<uint64_t>
encodeWgmmaSmemDescriptor(const SmemDescriptorFields &fields);

/// Unpacks a descriptor (byte units); used by tests and debug printing.
SmemDescriptorFields decodeWgmmaSmemDescriptor(uint64_t descriptor);

/// The descriptor of a canonical tile without its start address: the
/// compile-time constant that the lowering ORs with
/// `(addr >> 4) & descriptorStartAddressMask`. `rows` is the M/N extent for
/// K-major tiles and the K extent for MN-major tiles (CanonicalLayout.h).
/// Examples: K-major SW128 0x4000004000010000; MN-major SW128 with 64 K rows
/// 0x4000004002000000 (LBO 8192, SBO 1024).
ValueOrError<uint64_t>
wgmmaDescriptorHighBits(OperandMajor major, SwizzleMode swizzle, uint32_t rows);

/// What to add to a tile's descriptor to address k-step `step` (0-based) of
/// the K loop inside the tile: +2 per 32 B of K inside a K-major swizzle
/// atom, + rows * span / 16 per whole atom, and + K * span / 16 per
/// MN-major step (+128 for a bf16 SW128 k16 step). Rejects MN-major for
/// element types wgmma cannot transpose.
ValueOrError<uint64_t> wgmmaKStepDescriptorDelta(OperandMajor major,
                                                 SwizzleMode swizzle,
                                                 ElementType operand,
                                                 uint32_t rows, unsigned step);

/// What to add to a tile's descriptor to address the M/N sub-block starting
/// at `mnElements`, e.g. 64 for the second m64 wgmma of a 128-row A tile
/// (+64 * span / 16).
ValueOrError<uint64_t>
wgmmaMNDescriptorDelta(OperandMajor major, SwizzleMode swizzle,
                       ElementType operand, uint32_t rows, uint32_t mnElements);

/// The descriptors of one wgmma operand tile laid out the way cta buffers
/// are (CanonicalLayout.h: column blocks `span` bytes wide, each holding all
/// rows): the constant high bits and, per k-step, what to add to them.
struct WgmmaOperandDescriptors {
  uint64_t highBits = 0;
  std::vector<uint64_t> kStepDeltas;
};

/// Plans the descriptors of a wgmma operand buffer of `rows` x `columns`
/// elements (the buffer's shape: [M/N, K] K-major, [K, M/N] MN-major) read
/// in `kSteps` instruction k-steps. MN-major (a B tile stored [K, N], PTX
/// imm-trans-b = 1) needs f16/bf16, a swizzled layout (the one the hardware
/// check ran), and whole span-wide column blocks: LBO = rows x span (from
/// one block of columns to the next), SBO = 8 x span, k16 step = 16 rows x
/// span. Example: a bf16 SW128 [128 keys, 128 d] V tile has high bits
/// 0x4000004004000000 (LBO 16384, SBO 1024) and steps +128 per k16.
ValueOrError<WgmmaOperandDescriptors>
planWgmmaOperandDescriptors(OperandMajor major, SwizzleMode swizzle,
                            ElementType operand, uint32_t rows,
                            uint32_t columns, unsigned kSteps);

/// One wgmma.mma_async instruction's m64nNkK shape.
struct WgmmaInstructionShape {
  unsigned m = 64;
  unsigned n = 0;
  unsigned k = 0;
};

/// K of one instruction: 8 for tf32, 16 for f16/bf16, 32 for e4m3, e5m2,
/// u8, s8 (32 bytes of K in every case).
ValueOrError<unsigned> wgmmaInstructionK(ElementType operand);

/// True for the operand types wgmma can read MN-major (transposed): f16 and
/// bf16 only.
bool wgmmaSupportsMNMajor(ElementType operand);

/// Validates the operand/accumulator pair and N and returns the shape.
/// Floating-point kinds take N a multiple of 8 in [8, 256]; u8/s8 take
/// 8, 16, 24 or a multiple of 16 in [32, 256]. Accumulators: f32 for every
/// float kind, f16 also for f16/e4m3/e5m2, i32 for u8/s8.
ValueOrError<WgmmaInstructionShape>
wgmmaInstructionShape(ElementType operand, ElementType accumulator, unsigned n);

/// 32-bit accumulator registers per thread of an m64nN wgmma: N/2 for f32
/// and i32, N/4 for f16 (packed pairs).
ValueOrError<unsigned> wgmmaAccumulatorRegisters(ElementType accumulator,
                                                 unsigned n);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_WGMMADESCRIPTOR_H
