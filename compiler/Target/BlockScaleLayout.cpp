//===- BlockScaleLayout.cpp - Block scale factors for tcgen05 -------------===//

#include "compiler/Target/BlockScaleLayout.h"

#include "runtime/BlockScale.h"

#include <string>

namespace kiln::target {

namespace {

uint64_t ceilDiv(uint64_t value, uint64_t divisor) {
  return (value + divisor - 1) / divisor;
}

} // namespace

// The atom layout itself is the runtime's (runtime/BlockScale.h): the host
// code that builds scale tensors and these offsets cannot drift apart.
static_assert(scaleFactorAtomRows == kiln::kScaleAtomRows &&
                  scaleFactorAtomKBlocks == kiln::kScaleAtomKBlocks &&
                  scaleFactorAtomBytes == kiln::kScaleAtomBytes,
              "the compiler and the runtime disagree on the scale-factor atom");

ValueOrError<uint32_t> scaleFactorAtomByteOffset(uint32_t row,
                                                 uint32_t kBlock) {
  uint32_t offset = 0;
  std::string error;
  if (!kiln::scaleFactorAtomOffset(row, kBlock, offset, error))
    return ValueOrError<uint32_t>::failure(error);
  return offset;
}

ValueOrError<uint64_t> scaleFactorByteOffset(uint64_t row, uint64_t kBlock,
                                             uint64_t kBlocks) {
  uint64_t offset = 0;
  std::string error;
  if (!kiln::scaleFactorOffset(row, kBlock, kBlocks, offset, error))
    return ValueOrError<uint64_t>::failure(error);
  return offset;
}

uint64_t scaleFactorTensorBytes(uint64_t rows, uint64_t kBlocks) {
  return kiln::scaleFactorBytes(rows, kBlocks);
}

uint32_t scaleFactorAtomTmemColumn(uint32_t rows, uint32_t kAtom,
                                   uint32_t rowAtom) {
  uint32_t rowAtoms = static_cast<uint32_t>(ceilDiv(rows, scaleFactorAtomRows));
  return (kAtom * rowAtoms + rowAtom) * scaleFactorAtomTmemColumns;
}

ValueOrError<ScaleFactorTmemOperand> scaleFactorTmemOperand(Tcgen05Kind kind,
                                                            unsigned scaleBlock,
                                                            uint32_t rows,
                                                            unsigned mmaIndex) {
  ValueOrError<unsigned> vectorSize = tcgen05ScaleVectorSize(kind, scaleBlock);
  if (!vectorSize)
    return ValueOrError<ScaleFactorTmemOperand>::failure(vectorSize.error());
  if (rows == 0)
    return ValueOrError<ScaleFactorTmemOperand>::failure(
        "a scaled operand needs at least one row");
  uint32_t firstBlock = mmaIndex * *vectorSize;
  ScaleFactorTmemOperand operand;
  operand.columnOffset =
      scaleFactorAtomTmemColumn(rows, firstBlock / scaleFactorAtomKBlocks, 0);
  operand.scaleFactorId = firstBlock % scaleFactorAtomKBlocks;
  return operand;
}

ValueOrError<uint32_t> scaleFactorTmemColumns(uint32_t rows, uint32_t kElements,
                                              unsigned scaleBlock) {
  if (scaleBlock != 16 && scaleBlock != 32)
    return ValueOrError<uint32_t>::failure(
        "scale blocks are 16 or 32 elements, not " +
        std::to_string(scaleBlock));
  if (kElements % scaleBlock != 0)
    return ValueOrError<uint32_t>::failure(
        "K extent " + std::to_string(kElements) + " is not a whole number of " +
        std::to_string(scaleBlock) + "-element scale blocks");
  uint64_t kBlocks = kElements / scaleBlock;
  return static_cast<uint32_t>(ceilDiv(rows, scaleFactorAtomRows) *
                               ceilDiv(kBlocks, scaleFactorAtomKBlocks) *
                               scaleFactorAtomTmemColumns);
}

} // namespace kiln::target
