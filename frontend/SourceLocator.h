//===- SourceLocator.h - .kiln positions as MLIR locations ------*- C++ -*-===//
//
// Every frontend stage reports errors at a token of the source. This maps a
// pointer into the .kiln buffer to the FileLineColLoc that MLIR's SourceMgr
// diagnostic handlers print with the source line and a caret, and that
// `-verify-diagnostics` matches against `// expected-error` comments.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_SOURCELOCATOR_H
#define KILN_FRONTEND_SOURCELOCATOR_H

#include "frontend/SourceText.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

namespace kiln {

/// Turns positions in one buffer of a SourceMgr into locations and diagnostics.
class SourceLocator {
public:
  SourceLocator(const llvm::SourceMgr &sm, unsigned bufferID,
                mlir::MLIRContext *ctx);

  /// The text being compiled.
  llvm::StringRef getBuffer() const;

  /// The file:line:col location of `pos`, a pointer into the buffer. Lines
  /// end at LF, CRLF or CR (SourceMgr counts only LF); columns count bytes.
  mlir::FileLineColLoc getLoc(llvm::SMLoc pos) const;

  /// Starts an error at `pos`; stream the message into the result.
  mlir::InFlightDiagnostic emitError(llvm::SMLoc pos) const {
    return mlir::emitError(getLoc(pos));
  }
  /// Starts a warning at `pos`.
  mlir::InFlightDiagnostic emitWarning(llvm::SMLoc pos) const {
    return mlir::emitWarning(getLoc(pos));
  }

  mlir::MLIRContext *getContext() const { return ctx; }

private:
  const llvm::SourceMgr &sm;
  unsigned bufferID;
  mlir::MLIRContext *ctx;
  mlir::StringAttr filename;
  LineTable lines;
};

} // namespace kiln

#endif // KILN_FRONTEND_SOURCELOCATOR_H
