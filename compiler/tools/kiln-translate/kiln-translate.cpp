//===- kiln-translate.cpp - .kiln to tile IR, MLIR to LLVM IR -------------===//

#include "compiler/InitAll.h"
#include "compiler/tools/LargeStack.h"
#include "frontend/ImportKiln.h"

#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

int main(int argc, char **argv) {
  kiln::registerImportKilnTranslation();
  mlir::TranslateFromMLIRRegistration toLLVMIR(
      "mlir-to-llvmir", "Translate LLVM/NVVM dialect IR to LLVM IR",
      [](mlir::Operation *op, llvm::raw_ostream &output) {
        llvm::LLVMContext llvmContext;
        auto module = mlir::translateModuleToLLVMIR(op, llvmContext);
        if (!module)
          return mlir::failure();
        module->print(output, nullptr);
        return mlir::success();
      },
      [](mlir::DialectRegistry &registry) {
        kiln::registerAllDialects(registry);
      });
  // MLIR's parser recurses once per nesting level of the input.
  return kiln::runWithLargeStack([&] {
    return mlir::failed(
        mlir::mlirTranslateMain(argc, argv, "Kiln translation driver"));
  });
}
