//===- kiln.cpp - the Kiln compiler driver --------------------------------===//
//
//   kiln compile k.kiln|k.mlir [--chip sm_90a|sm_100a]
//                       [--emit=ast|tile|cta|llvm|ptx|cubin|sass] [-o PATH]
//                       [--load-pass-plugin=PATH]...
//                       [--report [--dims M=..,N=..,K=..]...]
//   kiln --version
//
// Runs the registered kiln-compile pipeline up to the requested stage and
// writes it out; for cubin, also writes the launch manifest next to it. All
// MLIR debugging options (--mlir-print-ir-after-all, --mlir-print-debuginfo,
// --mlir-timing, ...) apply.
//
//===----------------------------------------------------------------------===//

#include "compiler/tools/ForeignOptions.h"
#include "compiler/tools/ParserHazards.h"
#include "compiler/tools/LargeStack.h"
#include "compiler/InitAll.h"
#include "compiler/Pipelines/Backend.h"
#include "compiler/Pipelines/Pipelines.h"
#include "compiler/Pipelines/Report.h"
#include "compiler/Target/Disassemble.h"
#include "compiler/Target/Ptxas.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "frontend/DiagnosticPrinter.h"
#include "frontend/ImportKiln.h"
#include "runtime/Manifest.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory kilnCategory("Kiln options");
static cl::OptionCategory mlirCategory(
    "MLIR options (inspecting the compiler: IR after each pass, timing)");
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<input .kiln file, or .mlir of tile or cta IR>"),
                                      cl::Required, cl::cat(kilnCategory));
static cl::opt<std::string> chip("chip",
                                 cl::desc("Target chip: sm_90a or sm_100a"),
                                 cl::init("sm_90a"), cl::cat(kilnCategory));
static cl::opt<std::string>
    emit("emit",
         cl::desc("What to produce: ast, tile, cta, llvm, ptx, cubin or sass "
                  "(the cubin's machine code, by the toolkit's nvdisasm)"),
         cl::init("cubin"), cl::cat(kilnCategory));
static cl::opt<std::string> outputFile(
    "o",
    cl::desc(
        "Output path (default: stdout for text, <input stem>.cubin for cubin)"),
    cl::value_desc("path"), cl::cat(kilnCategory));
static cl::opt<bool> lineInfo(
    "line-info",
    cl::desc("Put the .kiln line of each instruction into the PTX and cubin "
             "(for Nsight Compute's source view; the code is the same). "
             "--line-info=false leaves it out"),
    cl::init(true), cl::cat(kilnCategory));
static cl::opt<bool>
    explain("explain",
            cl::desc("Show the compiler's remarks (e.g. why it chose a "
                     "schedule)"),
            cl::init(false), cl::cat(kilnCategory));
static cl::list<std::string>
    passPlugins("load-pass-plugin",
                cl::desc("Load a plugin, e.g. one that adds fusion patterns "
                         "(docs/extending.md)"),
                cl::value_desc("path"), cl::cat(kilnCategory));
static cl::opt<bool>
    verbose("v", cl::desc("Print what was written and ptxas's resource report"),
            cl::init(false), cl::cat(kilnCategory));
// Bounds on the work and output hostile input can cause; each error that
// hits one names the option that raises it.
static cl::opt<unsigned> errorLimit(
    "error-limit",
    cl::desc("Print at most N errors and warnings (0: no limit)"),
    cl::value_desc("N"), cl::init(20), cl::cat(kilnCategory));
static cl::opt<uint64_t> maxSourceSize(
    "max-source-size",
    cl::desc("Refuse sources larger than this many bytes (default 16 MiB)"),
    cl::value_desc("bytes"), cl::init(16u << 20), cl::cat(kilnCategory));
static cl::opt<unsigned> ptxasTimeout(
    "ptxas-timeout",
    cl::desc("Stop ptxas after this many seconds (0: no limit)"),
    cl::value_desc("seconds"), cl::init(300), cl::cat(kilnCategory));

static cl::opt<bool> report(
    "report",
    cl::desc("Print each kernel's schedule, resources (shared and tensor "
             "memory, registers, spills) and, for each --dims shape, its "
             "roofline floor on the chip's GPUs"),
    cl::init(false), cl::cat(kilnCategory));
static cl::list<std::string>
    dimShapes("dims",
              cl::desc("A shape for --report, e.g. M=4096,N=4096,K=4096 "
                       "(repeat for several)"),
              cl::value_desc("NAME=V,..."), cl::cat(kilnCategory));

namespace {

const char *const kStages[] = {"ast", "tile", "cta",  "llvm",
                               "ptx", "cubin", "sass"};

LogicalResult writeText(StringRef path, StringRef text) {
  std::string error;
  // `-o k.kiln` (or a manifest path that lands on the source) would replace
  // the program with its own compilation.
  if (!path.empty() && path != "-" && inputFile != "-" &&
      llvm::sys::fs::equivalent(path, inputFile)) {
    llvm::errs() << "kiln: error: refusing to write " << path
                 << ": it is the input file\n";
    return failure();
  }
  llvm::SmallString<256> directory(path);
  llvm::sys::path::remove_filename(directory);
  if (path != "-" && !directory.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
      llvm::errs() << "kiln: error: cannot create " << directory << ": " << ec.message()
                   << "\n";
      return failure();
    }
  auto output = openOutputFile(path.empty() ? "-" : path, &error);
  if (!output) {
    llvm::errs() << "kiln: error: " << error << "\n";
    return failure();
  }
  output->os() << text;
  // A full disk or a closed pipe shows only at the flush; unchecked, the
  // stream's destructor would end the process with "LLVM ERROR".
  output->os().flush();
  if (std::error_code ec = output->os().error()) {
    output->os().clear_error();
    llvm::errs() << "kiln: error: cannot write "
                 << (path.empty() || path == "-" ? StringRef("to stdout")
                                                 : path)
                 << ": " << ec.message() << "\n";
    return failure();
  }
  output->keep();
  return success();
}

/// The input file, or stdin for "-", read up to `limit` bytes: a device like
/// /dev/zero or a runaway pipe must not grow the compiler until it is killed.
std::unique_ptr<llvm::MemoryBuffer> readSource(StringRef path,
                                               uint64_t limit) {
  using namespace llvm::sys;
  int fd = 0;
  if (path != "-")
    if (std::error_code ec = fs::openFileForRead(path, fd)) {
      llvm::errs() << "kiln: error: cannot open input file '" << path
                   << "': " << ec.message() << "\n";
      return nullptr;
    }
  fs::file_t file = fs::convertFDToNativeFile(fd);
  std::string text;
  char chunk[1 << 16];
  while (true) {
    llvm::Expected<size_t> read = fs::readNativeFile(file, chunk);
    if (!read) {
      llvm::errs() << "kiln: error: cannot read '" << path
                   << "': " << llvm::toString(read.takeError()) << "\n";
      if (path != "-")
        fs::closeFile(file);
      return nullptr;
    }
    if (*read == 0)
      break;
    if (limit != 0 && text.size() + *read > limit) {
      llvm::errs() << "kiln: error: '" << path
                   << "' is larger than the source size limit of " << limit
                   << " bytes; raise it with --max-source-size=BYTES (0: no "
                      "limit)\n";
      if (path != "-")
        fs::closeFile(file);
      return nullptr;
    }
    text.append(chunk, *read);
  }
  if (path != "-")
    fs::closeFile(file);
  return llvm::MemoryBuffer::getMemBufferCopy(text, path == "-" ? "<stdin>"
                                                                : path);
}

LogicalResult compile(MLIRContext &ctx, llvm::SourceMgr &sourceMgr) {
  if (emit == "ast") {
    std::string text;
    llvm::raw_string_ostream os(text);
    if (!kiln::printKilnAST(sourceMgr, &ctx, os))
      return failure();
    return writeText(outputFile, text);
  }
  // A .mlir file holds tile IR (compiled from the tile stage on) or
  // pipelined cta IR (lowered from convert-cta-to-nvvm on): what
  // `--emit=tile|cta` printed, possibly edited by hand.
  bool fromMlir = llvm::sys::path::extension(inputFile) == ".mlir";
  if (fromMlir) {
    if (std::optional<std::string> hazard = kiln::findParserHazard(
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                ->getBuffer())) {
      llvm::errs() << "kiln: error: " << inputFile << ": " << *hazard << "\n";
      return failure();
    }
  }
  OwningOpRef<ModuleOp> module =
      fromMlir ? parseSourceFile<ModuleOp>(sourceMgr, &ctx)
               : kiln::importKiln(sourceMgr, &ctx);
  if (!module)
    return failure();
  bool fromCta = fromMlir && !module->getOps<kiln::cta::ProgramOp>().empty();
  if (fromCta) {
    if (report || emit == "tile" || emit == "cta") {
      llvm::errs() << "kiln: error: " << inputFile
                   << " holds cta IR: --emit=llvm, ptx or cubin only, and no "
                      "--report (it needs the tile stage)\n";
      return failure();
    }
  }

  kiln::Stage stage = emit == "tile"  ? kiln::Stage::Tile
                      : emit == "cta" ? kiln::Stage::Cta
                                      : kiln::Stage::Llvm;
  std::vector<kiln::DimValues> shapes;
  for (const std::string &text : dimShapes) {
    kiln::DimValues dims;
    std::string error;
    if (!kiln::parseDimValues(text, dims, error)) {
      llvm::errs() << "kiln: error: " << error << "\n";
      return failure();
    }
    shapes.push_back(std::move(dims));
  }
  // The report goes to stdout unless the output does.
  llvm::raw_ostream &reportOs =
      outputFile == "-" ? llvm::errs() : llvm::outs();
  auto runPipeline = [&](llvm::function_ref<void(PassManager &)> build) {
    PassManager pm(&ctx);
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    applyDefaultTimingPassManagerCLOptions(pm);
    build(pm);
    return pm.run(*module);
  };
  // With --report the tile stage runs on its own first: schedules and
  // shapes are read there, before lowering erases them.
  std::vector<kiln::KernelReport> reports;
  if (report) {
    if (failed(runPipeline([&](PassManager &pm) {
          kiln::buildKilnCompilePipeline(pm, chip, kiln::Stage::Tile);
        })))
      return failure();
    reports = kiln::collectKernelReports(*module, chip, shapes);
  }
  // Entries the resource policy left out of the cubin (compileModule).
  std::vector<kiln::DroppedEntry> dropped;
  auto printReports = [&](llvm::ArrayRef<kiln::Manifest> manifests,
                          const kiln::target::PtxasReport *ptxas) {
    for (const kiln::KernelReport &kernel : reports) {
      // Variants (a narrower tile of the same kernel) live in their
      // kernel's manifest.
      const kiln::Launch *launch = nullptr;
      for (const kiln::Manifest &candidate : manifests) {
        if (candidate.entry == kernel.name)
          launch = &candidate.launch;
        for (const kiln::KernelVariant &variant : candidate.variants)
          if (variant.entry == kernel.name)
            launch = &variant.launch;
      }
      reportOs << (&kernel == &reports.front() ? "" : "\n");
      llvm::StringRef leftOut;
      for (const kiln::DroppedEntry &entry : dropped)
        if (entry.entry == kernel.name)
          leftOut = entry.reason;
      kiln::printKernelReport(reportOs, kernel, launch,
                              ptxas ? ptxas->findFunction(kernel.name)
                                    : nullptr,
                              leftOut);
    }
  };
  if (failed(runPipeline([&](PassManager &pm) {
        if (fromCta) {
          kiln::buildKilnNVVMPipeline(pm, chip, lineInfo);
        } else if (report) {
          if (stage != kiln::Stage::Tile)
            kiln::buildKilnLoweringPipeline(pm, chip, stage, lineInfo);
        } else {
          kiln::buildKilnCompilePipeline(pm, chip, stage, lineInfo);
        }
      }))) {
    // What is known before lowering still helps (the floor, the schedule).
    printReports({}, nullptr);
    return failure();
  }
  if (emit == "tile" || emit == "cta" || emit == "llvm") {
    printReports({}, nullptr);
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os, OpPrintingFlags());
    return writeText(outputFile, text);
  }

  if (emit == "ptx") {
    FailureOr<kiln::KernelArtifacts> artifacts = kiln::translateToPtx(*module);
    if (failed(artifacts))
      return failure();
    printReports(artifacts->manifests, nullptr);
    return writeText(outputFile, artifacts->ptx);
  }

  FailureOr<kiln::CompiledModule> compiled =
      kiln::compileModule(*module, chip, module->getLoc(), ptxasTimeout);
  if (failed(compiled)) {
    printReports({}, nullptr);
    return failure();
  }
  dropped = compiled->droppedEntries;
  for (const kiln::DroppedEntry &entry : dropped)
    emitRemark(module->getLoc())
        << "left out '" << entry.entry
        << "', which breaks the resource policy (" << entry.reason
        << "); the kernel's other variants serve every shape";
  kiln::KernelArtifacts *artifacts = &compiled->artifacts;
  kiln::target::PtxasResult *cubin = &compiled->ptxas;
  if (emit == "sass") {
    kiln::target::ValueOrError<std::string> sass =
        kiln::target::disassembleCubin(cubin->cubin, ptxasTimeout);
    if (!sass) {
      llvm::errs() << "kiln: error: " << sass.error() << "\n";
      return failure();
    }
    printReports(artifacts->manifests, &cubin->report);
    return writeText(outputFile, *sass);
  }
  std::string cubinPath = outputFile;
  if (cubinPath.empty())
    cubinPath = llvm::sys::path::stem(inputFile).str() + ".cubin";
  if (cubinPath == "-") {
    llvm::errs() << "kiln: error: a cubin needs an output file (-o PATH)\n";
    return failure();
  }
  if (failed(writeText(cubinPath, cubin->cubin)))
    return failure();

  // One manifest per kernel, next to the cubin: <stem>.kiln.json, or
  // <stem>.<kernel>.kiln.json when the file holds several kernels.
  llvm::SmallString<256> stem(cubinPath);
  llvm::sys::path::replace_extension(stem, "");
  for (kiln::Manifest &manifest : artifacts->manifests) {
    manifest.cubin = llvm::sys::path::filename(cubinPath).str();
    manifest.source = inputFile;
    std::string path = stem.str().str();
    if (artifacts->manifests.size() > 1)
      path += "." + manifest.kernel;
    path += ".kiln.json";
    if (failed(writeText(path, kiln::writeManifest(manifest))))
      return failure();
    if (verbose)
      llvm::errs() << "kiln: wrote " << cubinPath << " and " << path << "\n";
  }
  if (verbose)
    llvm::errs() << cubin->log;
  printReports(artifacts->manifests, &cubin->report);
  return success();
}

} // namespace

static int kilnMain(int argc, char **argv) {
  // What produced a cubin: the Python package keys its compile cache on this.
  if (argc == 2 && llvm::StringRef(argv[1]) == "--version") {
    std::optional<std::string> ptxas = kiln::target::findPtxas();
    llvm::outs() << "kiln " << KILN_VERSION << "\n"
                 << "LLVM " << LLVM_VERSION_STRING << "\n"
                 << "ptxas: " << (ptxas ? *ptxas : "not found") << "\n";
    return 0;
  }
  if (argc < 2 || llvm::StringRef(argv[1]) != "compile") {
    llvm::errs() << "usage: kiln compile <file.kiln> [--chip sm_90a|sm_100a] "
                    "[--emit=ast|tile|cta|llvm|ptx|cubin|sass] [-o PATH]\n"
                    "       kiln compile --help\n"
                    "       kiln --version\n";
    return argc >= 2 && (llvm::StringRef(argv[1]) == "--help" ||
                         llvm::StringRef(argv[1]) == "-h")
               ? 0
               : 1;
  }
  // --help shows Kiln's options and MLIR's, not those of every LLVM target.
  kiln::hideForeignOptions({&kilnCategory});
  // Passes are registered so that --mlir-print-ir-after=<pass> and friends
  // can name them.
  kiln::registerAllPasses();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  kiln::groupMlirOptions(mlirCategory);
  // `kiln compile ...`: parse what follows the subcommand (named so in
  // --help's usage line).
  std::vector<const char *> args = {"kiln compile"};
  args.insert(args.end(), argv + 2, argv + argc);
  cl::ParseCommandLineOptions(static_cast<int>(args.size()), args.data(),
                              "Kiln: compile .kiln tile kernels to cubins\n");
  if (!llvm::is_contained(kStages, emit)) {
    llvm::errs() << "kiln: error: unknown --emit=" << emit
                 << "; expected ast, tile, cta, llvm, ptx, cubin or sass\n";
    return 1;
  }
  if (!kiln::target::parseChip(chip)) {
    llvm::errs() << "kiln: error: unknown --chip " << chip << "; expected "
                 << kiln::target::knownChipNames() << "\n";
    return 1;
  }

  // Plugins register what they add (fusion patterns, passes) before the
  // pipeline is built; a plugin that cannot be loaded would silently change
  // the program that is compiled, so it is an error.
  for (const std::string &path : passPlugins) {
    llvm::Expected<PassPlugin> plugin = PassPlugin::load(path);
    if (!plugin) {
      llvm::errs() << "kiln: error: cannot load plugin '" << path
                   << "': " << llvm::toString(plugin.takeError()) << "\n";
      return 1;
    }
    plugin->registerPassRegistryCallbacks();
  }

  std::unique_ptr<llvm::MemoryBuffer> input =
      readSource(inputFile, maxSourceSize);
  if (!input)
    return 1;
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  const llvm::MemoryBuffer &source =
      *sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());

  DialectRegistry registry;
  kiln::registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // Diagnostics point at .kiln source lines; generic IR dumps would only
  // confuse (use --mlir-print-op-on-diagnostic to get them back).
  ctx.printOpOnDiagnostic(false);
  // MLIR's SourceMgr handler prints a whole source line per message and no
  // caret on non-ASCII lines; this one bounds both and counts CR line ends.
  kiln::DiagnosticPrinter printer(&ctx, source.getBufferIdentifier(),
                                  source.getBuffer(), errorLimit,
                                  llvm::errs());
  // Remarks explain choices; show them only when asked.
  ctx.getDiagEngine().registerHandler([&](Diagnostic &diag) -> LogicalResult {
    if (diag.getSeverity() == DiagnosticSeverity::Remark && !explain)
      return success();
    return failure(); // fall through to the printer
  });
  int status = failed(compile(ctx, sourceMgr)) ? 1 : 0;
  printer.printSummary("kiln", "--error-limit");
  return status;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // MLIR inputs (and deep IR) recurse deeply in MLIR's parser and printer.
  return kiln::runWithLargeStack([&] { return kilnMain(argc, argv); });
}
