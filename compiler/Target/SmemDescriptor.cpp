//===- SmemDescriptor.cpp - Fields shared by smem MMA descriptors ---------===//

#include "compiler/Target/SmemDescriptor.h"

#include <string>

namespace kiln::target {

namespace {

/// A 14-bit field of 16-byte units covers 256 KiB.
constexpr uint64_t byteFieldLimit = uint64_t{1} << 18;

std::string checkByteField(const char *what, const char *field,
                           uint32_t bytes) {
  if (bytes % 16 != 0)
    return std::string(what) + " descriptor " + field + " " +
           std::to_string(bytes) + " B is not a multiple of 16 B";
  if (bytes >= byteFieldLimit)
    return std::string(what) + " descriptor " + field + " " +
           std::to_string(bytes) + " B does not fit the 14-bit field (max " +
           std::to_string(byteFieldLimit - 16) + " B)";
  return {};
}

} // namespace

ValueOrError<uint64_t>
packSmemDescriptorAddresses(const SmemDescriptorFields &fields,
                            const char *what) {
  struct {
    const char *name;
    uint32_t bytes;
  } byteFields[] = {{"start address", fields.startAddress},
                    {"leading byte offset", fields.leadingByteOffset},
                    {"stride byte offset", fields.strideByteOffset}};
  for (const auto &field : byteFields) {
    std::string problem = checkByteField(what, field.name, field.bytes);
    if (!problem.empty())
      return ValueOrError<uint64_t>::failure(problem);
  }
  if (fields.baseOffset > 7)
    return ValueOrError<uint64_t>::failure(
        std::string(what) + " descriptor base offset " +
        std::to_string(fields.baseOffset) + " does not fit 3 bits");
  return uint64_t{fields.startAddress >> 4} |
         (uint64_t{fields.leadingByteOffset >> 4} << 16) |
         (uint64_t{fields.strideByteOffset >> 4} << 32) |
         (uint64_t{fields.baseOffset} << 49);
}

SmemDescriptorFields unpackSmemDescriptorAddresses(uint64_t descriptor) {
  SmemDescriptorFields fields;
  fields.startAddress =
      static_cast<uint32_t>((descriptor & descriptorStartAddressMask) << 4);
  fields.leadingByteOffset =
      static_cast<uint32_t>(((descriptor >> 16) & 0x3FFF) << 4);
  fields.strideByteOffset =
      static_cast<uint32_t>(((descriptor >> 32) & 0x3FFF) << 4);
  fields.baseOffset = static_cast<uint8_t>((descriptor >> 49) & 0x7);
  return fields;
}

} // namespace kiln::target
