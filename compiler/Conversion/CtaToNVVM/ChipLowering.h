//===- ChipLowering.h - what convert-cta-to-nvvm asks of a chip --*- C++ -*-===//
//
// convert-cta-to-nvvm lowers the same cta IR for every chip; what differs is
// where accumulators live, how MMAs consume a stage and how accumulators
// reach memory. Each family of tensor-core instructions (wgmma on sm_90a,
// tcgen05 on sm_100a) implements this interface once, and the chip's
// description (target::ChipInfo::mma) picks the implementation, never its
// name. The pass asks the interface, in order:
//
// 1. check: every op the chip's patterns cannot lower is reported at the
//    op before anything is rewritten. Where an op's legality depends on how
//    it lowers (an MMA's instruction shape and descriptors), the check and
//    the pattern call the same plan function (planWgmma, planTcgen05Mma), so
//    the two cannot disagree;
// 2. addTypeConversions and populatePatterns, once per pass: the patterns
//    hold no state of a program; they find its ABI and kernel through
//    KernelABIs;
// 3. resources: what a CTA sets up before its warp roles start and tears
//    down after (the tensor-memory allocation), as cta-allocate-resources
//    decided it.
//
// Adding a chip of an existing family is a ChipInfo row; adding an op is one
// pattern (and, where legality needs it, one plan) in the family's file.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_CHIPLOWERING_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_CHIPLOWERING_H

#include "compiler/Conversion/CtaToNVVM/KernelABI.h"
#include "compiler/Target/Chip.h"

#include "mlir/Transforms/DialectConversion.h"

#include <functional>
#include <memory>

namespace kiln {

struct Emitter;

/// What a chip sets up for the whole CTA before its warp roles start and
/// tears down once every role has finished (on sm_100a: the tensor-memory
/// allocation). Each runs in every thread of the CTA, for the program whose
/// ABI it is given; either may be empty.
struct CtaResources {
  std::function<void(Emitter &, const KernelABI &)> acquire, release;
};

class ChipLowering {
public:
  explicit ChipLowering(const target::ChipInfo &chip) : chip(chip) {}
  virtual ~ChipLowering() = default;

  /// Reports, at the op, what this chip's patterns cannot lower.
  virtual mlir::LogicalResult check(mlir::Operation *op) const = 0;
  /// The chip's type conversions (accumulators), added after the common
  /// ones.
  virtual void addTypeConversions(mlir::TypeConverter &converter) const = 0;
  /// The chip's patterns, added next to the common ones.
  virtual void populatePatterns(mlir::TypeConverter &converter,
                                mlir::RewritePatternSet &patterns,
                                const KernelABIs &abis) const = 0;
  /// The CTA-wide set-up and tear-down of the chip's resources.
  virtual CtaResources resources() const { return {}; }

  const target::ChipInfo &chip;
};

/// The lowering of `chip`'s MMA family.
std::unique_ptr<ChipLowering> createChipLowering(const target::ChipInfo &chip);

/// wgmma (sm_90a): accumulators and fragments in registers, the consumer side
/// of rings (wgmma batches release stages), stmatrix + TMA-store epilogues
/// (CtaToSm90.cpp).
std::unique_ptr<ChipLowering> createWgmmaLowering(const target::ChipInfo &chip);

/// tcgen05 (sm_100a): accumulators in tensor memory (the type converter
/// gives the TMEM address and whether the accumulator holds data yet),
/// tcgen05.mma issued by one thread and committed to the stage's empty
/// barrier, tcgen05.ld + TMA-store epilogues (CtaToSm100.cpp).
std::unique_ptr<ChipLowering>
createTcgen05Lowering(const target::ChipInfo &chip);

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_CHIPLOWERING_H
