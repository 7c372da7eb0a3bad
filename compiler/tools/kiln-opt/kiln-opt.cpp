//===- kiln-opt.cpp - run Kiln passes on MLIR -----------------------------===//

#include "compiler/InitAll.h"
#include "compiler/tools/ForeignOptions.h"
#include "compiler/tools/ParserHazards.h"
#include "compiler/tools/LargeStack.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help shows kiln-opt's options, MLIR's and the passes.
  kiln::hideForeignOptions();
  mlir::DialectRegistry registry;
  kiln::registerAllDialects(registry);
  kiln::registerAllPasses();
  auto [inputFile, outputFile] = mlir::registerAndParseCLIOptions(
      argc, argv, "Kiln optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // Options that read no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "kiln-opt: error: " << error << "\n";
    return 1;
  }
  if (std::optional<std::string> hazard =
          kiln::findParserHazard(input->getBuffer())) {
    llvm::errs() << "kiln-opt: error: "
                 << (inputFile == "-" ? std::string("<stdin>") : inputFile)
                 << ": " << *hazard << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "kiln-opt: error: " << error << "\n";
    return 1;
  }
  // MLIR's parser recurses once per nesting level of the input.
  return kiln::runWithLargeStack([&] {
    if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input),
                                       registry, config)))
      return 1;
    output->keep();
    return 0;
  });
}
