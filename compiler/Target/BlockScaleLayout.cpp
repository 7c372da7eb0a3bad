//===- BlockScaleLayout.cpp - Block scale factors for tcgen05 -------------===//

#include "compiler/Target/BlockScaleLayout.h"

#include <string>

namespace kiln::target {

namespace {

uint64_t ceilDiv(uint64_t value, uint64_t divisor) {
  return (value + divisor - 1) / divisor;
}

} // namespace

ValueOrError<uint32_t> scaleFactorAtomByteOffset(uint32_t row,
                                                 uint32_t kBlock) {
  if (row >= scaleFactorAtomRows || kBlock >= scaleFactorAtomKBlocks)
    return ValueOrError<uint32_t>::failure(
        "scale-factor atom position (row " + std::to_string(row) + ", block " +
        std::to_string(kBlock) + ") is outside the 128 x 4 atom");
  return 16 * (row % 32) + 4 * (row / 32) + kBlock;
}

ValueOrError<uint64_t> scaleFactorByteOffset(uint64_t row, uint64_t kBlock,
                                             uint64_t kBlocks) {
  if (kBlock >= kBlocks)
    return ValueOrError<uint64_t>::failure(
        "scale block " + std::to_string(kBlock) + " is beyond the " +
        std::to_string(kBlocks) + " blocks of a row");
  uint64_t atomsAlongK = ceilDiv(kBlocks, scaleFactorAtomKBlocks);
  uint64_t atom = (row / scaleFactorAtomRows) * atomsAlongK +
                  kBlock / scaleFactorAtomKBlocks;
  ValueOrError<uint32_t> inside = scaleFactorAtomByteOffset(
      static_cast<uint32_t>(row % scaleFactorAtomRows),
      static_cast<uint32_t>(kBlock % scaleFactorAtomKBlocks));
  return atom * scaleFactorAtomBytes + *inside;
}

uint64_t scaleFactorTensorBytes(uint64_t rows, uint64_t kBlocks) {
  return ceilDiv(rows, scaleFactorAtomRows) *
         ceilDiv(kBlocks, scaleFactorAtomKBlocks) * scaleFactorAtomBytes;
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
