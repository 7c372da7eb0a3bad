//===- Roofline.cpp - peak rates of the GPUs Kiln targets -----------------===//

#include "compiler/Target/Roofline.h"

using namespace kiln::target;

std::string_view kiln::target::mathPrecisionName(MathPrecision precision) {
  switch (precision) {
  case MathPrecision::Bits16:
    return "16-bit";
  case MathPrecision::Bits8:
    return "8-bit";
  case MathPrecision::Bits4:
    return "4-bit";
  }
  return "?";
}

std::optional<MathPrecision> kiln::target::mathPrecisionOf(ElementType operand) {
  switch (operand) {
  case ElementType::BF16:
  case ElementType::F16:
    return MathPrecision::Bits16;
  case ElementType::E4M3:
  case ElementType::E5M2:
    return MathPrecision::Bits8;
  case ElementType::E2M1:
    return MathPrecision::Bits4;
  default:
    return std::nullopt;
  }
}

double DevicePeak::flopsPerSecond(MathPrecision precision) const {
  switch (precision) {
  case MathPrecision::Bits16:
    return flops16;
  case MathPrecision::Bits8:
    return flops8;
  case MathPrecision::Bits4:
    return flops4;
  }
  return 0;
}

const std::vector<DevicePeak> &kiln::target::devicePeaks() {
  // Dense rates: the datasheets quote "with sparsity" figures; these are
  // half of those. Bandwidths are the HBM peak (TB/s = 1e12 bytes/s).
  static const std::vector<DevicePeak> table = {
      {"H100", "sm_90a", 3.35e12, 989.4e12, 1978.9e12, 0,
       "NVIDIA H100 datasheet, SXM5 (HBM3 3.35 TB/s)"},
      {"H200", "sm_90a", 4.8e12, 989.4e12, 1978.9e12, 0,
       "NVIDIA H200 datasheet, SXM (HBM3e 4.8 TB/s)"},
      {"B200", "sm_100a", 8.0e12, 2.25e15, 4.5e15, 9.0e15,
       "NVIDIA HGX B200 datasheet, per GPU (HBM3e 8 TB/s); FP8 also MXFP8, "
       "FP4 also NVFP4"},
  };
  return table;
}

std::vector<const DevicePeak *>
kiln::target::devicesForChip(std::string_view chip) {
  std::vector<const DevicePeak *> devices;
  for (const DevicePeak &device : devicePeaks())
    if (device.chip == chip)
      devices.push_back(&device);
  return devices;
}

std::optional<RooflineFloor>
kiln::target::rooflineFloor(const DevicePeak &device, MathPrecision precision,
                            double flops, double bytes) {
  double rate = device.flopsPerSecond(precision);
  if (rate <= 0)
    return std::nullopt;
  RooflineFloor floor;
  floor.computeSeconds = flops / rate;
  floor.memorySeconds = bytes / device.memoryBytesPerSecond;
  return floor;
}
