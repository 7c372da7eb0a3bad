//===- DiagnosticPrinter.h - the driver's bounded diagnostics ---*- C++ -*-===//
//
// Prints the diagnostics of one compilation the way MLIR's SourceMgr handler
// does (`file:line:col: error: message`, the source line, a caret), with the
// bounds a driver needs on hostile input:
//
// - at most `limit` errors and warnings are printed (like -ferror-limit);
//   the rest are counted and summarized once by printSummary();
// - a source line is shown as a window of at most kMaxSnippetColumns display
//   columns around the caret, so a 1 MB line costs a short line per message;
// - lines end at LF, CRLF or CR, and the caret is placed by display width,
//   so it is right on lines with tabs and non-ASCII characters; characters
//   that would garble a terminal (controls, bidi controls, invalid UTF-8) are
//   shown as '?';
// - a diagnostic identical to one already printed (same location, severity
//   and message, as when a kernel and its variants fail the same way) is
//   printed once.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_DIAGNOSTICPRINTER_H
#define KILN_FRONTEND_DIAGNOSTICPRINTER_H

#include "frontend/SourceText.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {

class DiagnosticPrinter {
public:
  /// Display columns of a source line shown with a message.
  static constexpr unsigned kMaxSnippetColumns = 120;

  /// Handles every diagnostic of `ctx` that is not a remark while alive;
  /// `limit` 0 prints all. `buffer` is the source, named `bufferName`.
  DiagnosticPrinter(mlir::MLIRContext *ctx, llvm::StringRef bufferName,
                    llvm::StringRef buffer, unsigned limit,
                    llvm::raw_ostream &os);
  ~DiagnosticPrinter();

  /// If the limit hid diagnostics: one line saying how many, which limit
  /// and how to raise it (`option`, e.g. "--error-limit").
  void printSummary(llvm::StringRef tool, llvm::StringRef option);

  /// The source line at 1-based `line` and the caret under 1-based byte
  /// `column`, as printed (two lines, each ending in '\n').
  std::string formatSnippet(unsigned line, unsigned column) const;

private:
  mlir::LogicalResult handle(mlir::Diagnostic &diag);
  void print(mlir::Location loc, llvm::StringRef severity,
             llvm::StringRef message);

  mlir::MLIRContext *ctx;
  mlir::DiagnosticEngine::HandlerID id;
  std::string bufferName;
  llvm::StringRef buffer;
  LineTable lines;
  unsigned limit;
  llvm::raw_ostream &os;
  unsigned printed = 0;
  /// Everything printed so far, to print each diagnostic once.
  llvm::StringSet<> seen;
  unsigned suppressedErrors = 0;
  unsigned suppressedWarnings = 0;
};

} // namespace kiln

#endif // KILN_FRONTEND_DIAGNOSTICPRINTER_H
