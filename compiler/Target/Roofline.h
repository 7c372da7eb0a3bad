//===- Roofline.h - peak rates of the GPUs Kiln targets ---------*- C++ -*-===//
//
// The speed of light of a kernel on a GPU: the time its arithmetic takes at
// the tensor cores' peak rate and the time its compulsory memory traffic
// (every input read once, every output written once) takes at the memory's
// peak bandwidth; the larger is a floor no schedule can beat. `kiln compile
// --report` prints it next to the kernel's resources (docs/target.md has
// the table and where each number comes from).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_ROOFLINE_H
#define KILN_COMPILER_TARGET_ROOFLINE_H

#include "compiler/Target/ElementType.h"

#include <optional>
#include <string_view>
#include <vector>

namespace kiln::target {

/// Operand width class of the tensor cores' peak rates.
enum class MathPrecision : uint8_t { Bits16, Bits8, Bits4 };

/// "16-bit", "8-bit", "4-bit".
std::string_view mathPrecisionName(MathPrecision precision);

/// The rate class of an MMA on `operand` elements: bf16/f16 -> 16-bit,
/// e4m3/e5m2 (block-scaled MXFP8 too) -> 8-bit, e2m1 (NVFP4, MXFP4) ->
/// 4-bit; none for other types.
std::optional<MathPrecision> mathPrecisionOf(ElementType operand);

/// Published peak rates of one GPU: dense tensor-core math (sparsity
/// excluded) and memory bandwidth, from NVIDIA's datasheets.
struct DevicePeak {
  /// "H100", "H200", "B200".
  std::string_view name;
  /// The chip Kiln compiles for it.
  std::string_view chip;
  /// Memory bandwidth in bytes per second.
  double memoryBytesPerSecond;
  /// Dense tensor-core FLOP/s by operand width; 0 where the chip has no
  /// such MMA (FP4 on sm_90a).
  double flops16, flops8, flops4;
  /// Which datasheet and configuration the numbers are from.
  std::string_view source;

  double flopsPerSecond(MathPrecision precision) const;
};

/// Every device of the table, in order.
const std::vector<DevicePeak> &devicePeaks();

/// The devices of the table that run `chip`'s code.
std::vector<const DevicePeak *> devicesForChip(std::string_view chip);

/// The floor of one kernel launch on one device.
struct RooflineFloor {
  double computeSeconds = 0;
  double memorySeconds = 0;
  double seconds() const {
    return computeSeconds > memorySeconds ? computeSeconds : memorySeconds;
  }
  bool computeBound() const { return computeSeconds >= memorySeconds; }
};

/// The floor of `flops` tensor-core FLOPs at `precision` and `bytes` of
/// compulsory memory traffic on `device`; nullopt when the device has no
/// MMA of that precision.
std::optional<RooflineFloor> rooflineFloor(const DevicePeak &device,
                                           MathPrecision precision,
                                           double flops, double bytes);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_ROOFLINE_H
