//===- ImportKiln.cpp - the frontend's entry points -----------------------===//

#include "frontend/ImportKiln.h"
#include "frontend/ASTPrinter.h"
#include "frontend/MLIRGen.h"
#include "frontend/Parser.h"
#include "frontend/Sema.h"

#include "dialects/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;

/// Parses and checks the main buffer; null after errors.
static std::unique_ptr<kiln::ast::Module>
parseAndCheck(const kiln::SourceLocator &locator) {
  std::unique_ptr<kiln::ast::Module> module = kiln::parseModule(locator);
  if (!module || failed(kiln::checkModule(*module, locator)))
    return nullptr;
  return module;
}

OwningOpRef<ModuleOp> kiln::importKiln(llvm::SourceMgr &sm, MLIRContext *ctx) {
  ctx->loadDialect<tile::TileDialect, arith::ArithDialect, math::MathDialect>();
  SourceLocator locator(sm, sm.getMainFileID(), ctx);
  std::unique_ptr<ast::Module> ast = parseAndCheck(locator);
  if (!ast)
    return nullptr;
  OwningOpRef<ModuleOp> module = genModule(*ast, locator);
  // Sema admits only programs MLIRGen can express; a verifier failure here is
  // a frontend bug, still reported at the offending op's source location.
  if (!module || failed(verify(*module)))
    return nullptr;
  return module;
}

bool kiln::printKilnAST(llvm::SourceMgr &sm, MLIRContext *ctx,
                        llvm::raw_ostream &os) {
  SourceLocator locator(sm, sm.getMainFileID(), ctx);
  std::unique_ptr<ast::Module> ast = parseAndCheck(locator);
  if (!ast)
    return false;
  printAST(*ast, sm, os);
  return true;
}

void kiln::registerImportKilnTranslation() {
  // `--kiln-ast` prints the typed AST, as `kiln compile --emit=ast` does, so
  // that lit tests can check parsing and typing with kiln-translate alone.
  static TranslateRegistration astRegistration(
      "kiln-ast", "print the typed AST of a .kiln kernel file",
      [](const std::shared_ptr<llvm::SourceMgr> &sm, llvm::raw_ostream &os,
         MLIRContext *ctx) { return success(printKilnAST(*sm, ctx, os)); });
  static TranslateToMLIRRegistration registration(
      "import-kiln", "import a .kiln kernel file as tile dialect IR",
      [](llvm::SourceMgr &sm, MLIRContext *ctx) -> OwningOpRef<Operation *> {
        OwningOpRef<ModuleOp> module = importKiln(sm, ctx);
        if (!module)
          return nullptr;
        return module.release().getOperation();
      },
      [](DialectRegistry &registry) {
        registry.insert<tile::TileDialect, arith::ArithDialect,
                        math::MathDialect>();
      });
}
