//===- DiagnosticPrinterTest.cpp - kiln compile's diagnostic printing -----===//

#include "frontend/DiagnosticPrinter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace kiln;

namespace {

mlir::Location at(mlir::MLIRContext &ctx, unsigned line, unsigned col) {
  return mlir::FileLineColLoc::get(&ctx, "k.kiln", line, col);
}

TEST(DiagnosticPrinter, RepeatsArePrintedOnce) {
  // A kernel and its small-tile variants are clones: a lowering error they
  // share comes once per clone, at the same source location.
  mlir::MLIRContext ctx;
  std::string out;
  llvm::raw_string_ostream os(out);
  {
    DiagnosticPrinter printer(&ctx, "k.kiln", "kernel f\n  c = a\n", 20, os);
    mlir::emitError(at(ctx, 2, 3)) << "not implemented yet: x";
    mlir::emitError(at(ctx, 2, 3)) << "not implemented yet: x";
    mlir::emitError(at(ctx, 2, 5)) << "not implemented yet: x";
  }
  EXPECT_EQ(out, "k.kiln:2:3: error: not implemented yet: x\n"
                 "  c = a\n"
                 "  ^\n"
                 "k.kiln:2:5: error: not implemented yet: x\n"
                 "  c = a\n"
                 "    ^\n");
}

TEST(DiagnosticPrinter, LimitCountsTheRest) {
  mlir::MLIRContext ctx;
  std::string out;
  llvm::raw_string_ostream os(out);
  DiagnosticPrinter printer(&ctx, "k.kiln", "x\n", 2, os);
  for (unsigned col = 1; col <= 5; ++col)
    mlir::emitWarning(at(ctx, 1, col)) << "w" << col;
  mlir::emitError(at(ctx, 1, 1)) << "e";
  printer.printSummary("kiln", "--error-limit");
  EXPECT_NE(out.find("warning: w2"), std::string::npos);
  EXPECT_EQ(out.find("warning: w3"), std::string::npos);
  EXPECT_NE(out.find("kiln: error: 1 more error(s) and 3 more warning(s) not "
                     "shown: the limit of 2 diagnostics was hit; raise it "
                     "with --error-limit=N (0: no limit)"),
            std::string::npos);
}

TEST(DiagnosticPrinter, SnippetsByDisplayWidth) {
  mlir::MLIRContext ctx;
  std::string out;
  llvm::raw_string_ostream os(out);
  std::string longLine(1000, 'y');
  std::string text = "a\rb\r\n\tc = é $\n" + longLine + "\n";
  DiagnosticPrinter printer(&ctx, "k.kiln", text, 0, os);
  // Line 3 after a CR and a CRLF; the tab is 8 columns, é one.
  EXPECT_EQ(printer.formatSnippet(3, 9), "        c = é $\n"
                                         "              ^\n");
  // A 1000-column line: 60 columns each side of the caret, marked as cut.
  std::string window = printer.formatSnippet(4, 500);
  EXPECT_EQ(window, "..." + std::string(120, 'y') + "...\n" +
                        std::string(63, ' ') + "^\n");
  // A caret past the end of the line stays after it.
  EXPECT_EQ(printer.formatSnippet(1, 5), "a\n ^\n");
}

} // namespace
