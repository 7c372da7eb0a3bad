//===- kiln-translate.cpp - .kiln to tile IR, MLIR to LLVM IR -------------===//

#include "compiler/InitAll.h"
#include "compiler/tools/ForeignOptions.h"
#include "compiler/tools/ParserHazards.h"
#include "compiler/tools/LargeStack.h"
#include "frontend/ImportKiln.h"

#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/ParseUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

int main(int argc, char **argv) {
  // --help shows the translations and MLIR's options.
  kiln::hideForeignOptions();
  kiln::registerImportKilnTranslation();
  // Parses the text itself (rather than through a FromMLIR registration)
  // so that it can refuse what crashes MLIR's parser first
  // (ParserHazards.h).
  mlir::TranslateRegistration toLLVMIR(
      "mlir-to-llvmir", "Translate LLVM/NVVM dialect IR to LLVM IR",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         llvm::raw_ostream &output,
         mlir::MLIRContext *ctx) -> mlir::LogicalResult {
        const llvm::MemoryBuffer *input =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        if (std::optional<std::string> hazard =
                kiln::findParserHazard(input->getBuffer()))
          return mlir::emitError(mlir::FileLineColLoc::get(
                     ctx, input->getBufferIdentifier(), 1, 1))
                 << *hazard;
        mlir::DialectRegistry registry;
        kiln::registerAllDialects(registry);
        ctx->appendDialectRegistry(registry);
        mlir::OwningOpRef<mlir::Operation *> op =
            mlir::parseSourceFileForTool(sourceMgr, ctx,
                                         /*insertImplicitModule=*/true);
        if (!op)
          return mlir::failure();
        llvm::LLVMContext llvmContext;
        auto module = mlir::translateModuleToLLVMIR(*op, llvmContext);
        if (!module)
          return mlir::failure();
        module->print(output, nullptr);
        return mlir::success();
      });
  // MLIR's parser recurses once per nesting level of the input.
  return kiln::runWithLargeStack([&] {
    return mlir::failed(
        mlir::mlirTranslateMain(argc, argv, "Kiln translation driver"));
  });
}
