//===- Chip.h - The limits of each target chip ------------------*- C++ -*-===//
//
// Schedule selection, the warp-specialized pipeline and the lowering all
// bound their choices by the same few hardware numbers: shared memory a CTA
// may opt into, the register file, setmaxnreg's rules, the MMA's geometry
// and tensor memory. They live here, one ChipInfo per target, so that a pass
// asks the chip instead of repeating a constant.
//
// Reference: lowering-brief.md §2.4, §5; sm90-hardware-check.md (setmaxnreg);
// the PTX ISA's wgmma, tcgen05 and setmaxnreg sections; CUDA's occupancy
// limits for compute capability 9.0 and 10.0.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_CHIP_H
#define KILN_COMPILER_TARGET_CHIP_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace kiln::target {

/// Threads of one warp and warps of one warpgroup: the same on every chip
/// Kiln targets (the PTX ISA's warp and warpgroup).
constexpr unsigned threadsPerWarp = 32;
constexpr unsigned warpsPerWarpgroup = 4;
/// Bytes (and alignment) of one mbarrier object in shared memory.
constexpr unsigned mbarrierBytes = 8;
/// Threads of one CTA: CUDA's maxThreadsPerBlock on every chip Kiln targets.
constexpr unsigned maxThreadsPerBlock = 1024;
/// Named barriers (`bar.sync` ids) a CTA has, and how Kiln's lowering uses
/// them: 0 is the whole CTA's, 1 + w warpgroup w's own (its epilogue's
/// staging), and mmaTurnBarrierBase + m math warpgroup m's MMA turn
/// (cta.mma_turn: ping-pong between math warpgroups).
constexpr unsigned namedBarriers = 16;
constexpr unsigned mmaTurnBarrierBase = 8;
/// The largest thread-block cluster any target launches (16 CTAs needs the
/// non-portable opt-in; ChipInfo::maxClusterSize is the portable size).
constexpr unsigned maxClusterSizeNonPortable = 16;
/// Kernels compute tile indices, element coordinates and grid positions in
/// 32-bit integers: a TMA copy's coordinates are signed 32-bit, and the
/// lowering's grid arithmetic is i32. Every constant extent, dim offset or
/// multiplier and schedule number that reaches that arithmetic (group_m) is
/// at most this, so that none is truncated.
constexpr int64_t maxKernelIndex = 2147483647; // INT32_MAX
/// Stages of a kernel's operand ring: at least two (one being filled while
/// another is read), at most eight (more never paid on any shape measured,
/// and each stage's mbarriers and phase bits are unrolled state).
constexpr int64_t minPipelineStages = 2;
constexpr int64_t maxPipelineStages = 8;
/// The deepest ring the IR may name (#tile.schedule, #cta.schedule, buffers
/// and rings): room above maxPipelineStages for hand-written programs that
/// experiment, while each stage's mbarriers and phase bits stay few.
constexpr int64_t maxIrStages = 16;
/// setmaxnreg's operand on every chip Kiln targets: a multiple of
/// setmaxnregStep in [setmaxnregLowest, setmaxnregHighest] (PTX ISA,
/// setmaxnreg). ChipInfo repeats them per chip for the register split.
constexpr unsigned setmaxnregStep = 8;
constexpr unsigned setmaxnregLowest = 24;
constexpr unsigned setmaxnregHighest = 256;
/// Rows of the narrowest MMA a warpgroup issues (wgmma m64; tcgen05.mma's
/// M = 64 form): CTA tile rows are a multiple of it.
constexpr int64_t mmaMinRows = 64;
/// N granularity every chip's MMA accepts (wgmma: 8, tcgen05.mma with
/// M = 128: 16).
constexpr int64_t mmaCommonNMultiple = 16;
/// Bytes of K one MMA instruction reads per row (K = 16 for 16-bit
/// operands, 32 for 8-bit, 64 for 4-bit).
constexpr int64_t mmaKBytes = 32;
/// The largest CTA tile along M (two 128-row math warpgroups, or a CTA
/// pair's 256-row tcgen05 tile) and along N (the widest MMA N).
constexpr int64_t maxTileM = 256;
constexpr int64_t maxTileN = 256;
/// Math (sm_90a) or epilogue (sm_100a) warpgroups a schedule may have.
constexpr int64_t maxConsumerWarpgroups = 2;
/// CTAs along M of a cluster that multicasts the rhs tile; CTAs of a cluster
/// share tile columns, so a cluster is [1, 1], [2, 1] or [4, 1].
constexpr int64_t maxClusterM = 4;
/// A stream-K walk splits the last tiles' K steps only when the partial
/// last wave would be at most this percentage of a wave: joining a split
/// tile costs about a quarter of a tile's time (its 128 KB of f32 partial
/// sums written and read back), so a fuller last wave loses more than it
/// saves. Measured on an H100 (docs/performance.md, "Stream-K tail").
constexpr int64_t streamKMaxTailPercent = 33;
/// What that join adds to a split launch, in K steps of one tile: a quarter
/// of a 64-step tile (K = 4096 in 64-element steps), the fit of whole waves
/// + last-wave fraction + join to the split A/Bs on an H100
/// (docs/performance.md, "Stream-K tail"). The join takes a fixed time, so
/// it is a larger share of a tile with fewer K steps: the walk splits only
/// where the rounds it saves, (G - T mod G) / G, outweigh it (kt steps per
/// tile: kt * (G - T mod G) > streamKJoinSteps * G); the runtime's
/// explanation of a choice estimates a split's rounds with it (manifest
/// `launch.stream_k.join_steps`).
constexpr int64_t streamKJoinSteps = 16;
/// A stream-K walk in halves (split-K of a partial last wave) splits when
/// the partial last wave has at most this percentage of a wave's tiles: two
/// clusters take each split tile's halves at once.
constexpr int64_t streamKHalvesMaxTailPercent = 50;

/// The chips Kiln targets. The IR names one with `#cta.chip<sm_90a>`; what
/// a chip can do is its ChipInfo, never a test of its name.
enum class Chip : uint8_t { Sm90a, Sm100a };

/// The tensor-core instruction family of a chip: where its accumulators
/// live and how its MMAs are issued, which decides how convert-cta-to-nvvm
/// lowers accumulators, MMAs and stores.
enum class MmaFamily : uint8_t {
  /// wgmma.mma_async: a warpgroup's accumulators in its registers.
  Wgmma,
  /// tcgen05.mma: one thread issues, accumulators in tensor memory.
  Tcgen05,
};

/// The hardware facts of one target that bound a kernel's schedule and
/// register split. Each comment says whether a field counts per SM, per CTA
/// or per thread.
struct ChipInfo {
  Chip id;
  /// The ptxas architecture name: "sm_90a" or "sm_100a".
  std::string_view name;
  /// Dynamic shared memory one CTA may opt into, in bytes (227 KiB on both
  /// chips; cudaFuncAttributeMaxDynamicSharedMemorySize).
  unsigned smemPerBlockOptIn;
  /// Bytes of that window a schedule must leave for mbarriers and for
  /// aligning the dynamic window to 1024 bytes (what SW128 tiles need).
  unsigned smemReserve;
  /// Bytes of L2 cache per device, a lower bound over the chip's parts
  /// (cudaDevAttrL2CacheSize: 52428800 on an H100 SXM, measured; sm_100a
  /// parts have more, and this figure stands in until one is measured); a
  /// walk sizes the operands the CTAs running at once share by it.
  unsigned l2Bytes;
  /// 32-bit registers per SM, shared by every resident thread.
  unsigned registerFile;
  /// The most registers ptxas gives one thread.
  unsigned maxRegistersPerThread;
  /// setmaxnreg counts are multiples of this.
  unsigned setmaxnregGranularity;
  /// The smallest count setmaxnreg accepts.
  unsigned setmaxnregMin;
  /// The largest count setmaxnreg accepts.
  unsigned setmaxnregMax;
  /// Threads of one warpgroup: the unit that issues wgmma and setmaxnreg.
  unsigned threadsPerWarpgroup;
  /// f32 accumulator registers a math thread may hold; the rest of its
  /// registers hold addresses, descriptors and epilogue temporaries. 0 where
  /// accumulators live in tensor memory (sm_100a).
  unsigned accumulatorRegisterBudget;
  /// 32-bit columns of tensor memory per SM; 0 on a chip without it.
  unsigned tensorMemoryColumns;
  /// Lanes (rows) of tensor memory per SM; 0 on a chip without it.
  unsigned tensorMemoryLanes;
  /// Accumulator rows one MMA instruction covers: a warpgroup's wgmma m64 on
  /// sm_90a, one CTA's tcgen05.mma M = 128 on sm_100a.
  unsigned mmaRowsPerInstruction;
  /// The widest N of one MMA instruction.
  unsigned mmaMaxN;
  /// N of one MMA instruction (of mmaRowsPerInstruction rows) is a multiple
  /// of this: 8 for wgmma, 16 for tcgen05.mma with M = 128 on one CTA (as
  /// CUTLASS's SM100 MMA atoms assert).
  unsigned mmaNMultiple;
  /// The largest portable thread-block cluster (larger ones need a
  /// non-portable opt-in and may not be schedulable).
  unsigned maxClusterSize;
  /// Registers a TMA producer warpgroup keeps after setmaxnreg.dec: it only
  /// computes addresses and issues copies.
  unsigned producerRegisters;
  /// Whether the tensor cores multiply block-scaled operands (NVFP4, MXFP8:
  /// tcgen05.mma's block_scale kinds).
  bool blockScaledMma;
  /// Whether a kernel also ships narrower-tile variants that the runtime
  /// picks per launch (measured on this chip: docs/performance.md).
  bool tileVariants;
  /// Whether a persistent walk may split its last wave's K steps (stream-K:
  /// lowered for this chip).
  bool streamK;
  /// The tensor-core instructions the lowering emits.
  MmaFamily mma;

  /// Whether accumulators live in tensor memory (tcgen05) rather than in
  /// registers (wgmma).
  bool hasTensorMemory() const { return tensorMemoryColumns != 0; }
};

/// The description of `chip`.
const ChipInfo &getChipInfo(Chip chip);

/// The chip named `name` ("sm_90a", "sm_100a"), if Kiln targets it.
std::optional<Chip> parseChip(std::string_view name);

/// The ptxas name of `chip`.
std::string_view chipName(Chip chip);

/// The description of `name` ("sm_90a", "sm_100a"), or nullptr when Kiln
/// does not target that chip.
const ChipInfo *lookupChip(std::string_view name);

/// The most dynamic shared memory any known chip lets one CTA opt into: an
/// upper bound for checks that do not know the chip yet.
unsigned largestSmemPerBlockOptIn();

/// The chips lookupChip() knows, spelled for an error message: "sm_90a or
/// sm_100a".
std::string_view knownChipNames();

/// Registers per math thread once `producerWarpgroups` warpgroups have
/// dropped to `chip.producerRegisters` with setmaxnreg.dec: the rest of the
/// registers the CTA was launched with (each thread's share of the register
/// file, rounded down to the allocation granularity: 168 for 384 threads)
/// split evenly over `consumerWarpgroups`, rounded down to setmaxnreg's
/// granularity and capped at 240 (the largest count that ran on the H200,
/// and CUTLASS's). One producer gives 240 for one consumer, 232 for two and
/// 152 for three. Returns 0 when no consumer or no register is left.
unsigned warpSpecializedConsumerRegisters(const ChipInfo &chip,
                                          unsigned producerWarpgroups,
                                          unsigned consumerWarpgroups);
/// The same with producers at `producerRegisters` per thread (a producer
/// that only issues copies, such as attention's, drops to setmaxnreg's
/// lowest count: one producer at 24 leaves 240 for two consumers).
unsigned warpSpecializedConsumerRegisters(const ChipInfo &chip,
                                          unsigned producerWarpgroups,
                                          unsigned consumerWarpgroups,
                                          unsigned producerRegisters);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_CHIP_H
