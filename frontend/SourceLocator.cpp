//===- SourceLocator.cpp - .kiln positions as MLIR locations --------------===//

#include "frontend/SourceLocator.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

using namespace kiln;

SourceLocator::SourceLocator(const llvm::SourceMgr &sm, unsigned bufferID,
                             mlir::MLIRContext *ctx)
    : sm(sm), bufferID(bufferID), ctx(ctx),
      lines(sm.getMemoryBuffer(bufferID)->getBuffer()) {
  // The diagnostic handlers find the buffer of a location by this name, so it
  // must be the buffer's identifier exactly.
  filename = mlir::StringAttr::get(
      ctx, sm.getMemoryBuffer(bufferID)->getBufferIdentifier());
}

llvm::StringRef SourceLocator::getBuffer() const {
  return sm.getMemoryBuffer(bufferID)->getBuffer();
}

mlir::FileLineColLoc SourceLocator::getLoc(llvm::SMLoc pos) const {
  if (!pos.isValid())
    return mlir::FileLineColLoc::get(filename, 0, 0);
  auto [line, col] =
      lines.getLineAndColumn(pos.getPointer() - getBuffer().data());
  return mlir::FileLineColLoc::get(filename, line, col);
}
