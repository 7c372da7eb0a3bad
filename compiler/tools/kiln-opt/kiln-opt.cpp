//===- kiln-opt.cpp - run Kiln passes on MLIR -----------------------------===//

#include "compiler/InitAll.h"
#include "compiler/tools/LargeStack.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  kiln::registerAllPasses();
  // MLIR's parser recurses once per nesting level of the input.
  return kiln::runWithLargeStack([&] {
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, "Kiln optimizer driver\n", registry));
  });
}
