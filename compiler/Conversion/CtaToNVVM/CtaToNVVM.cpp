//===- CtaToNVVM.cpp - cta dialect to NVVM kernels ------------------------===//
//
// The only target-specific step of the compiler. Each cta.program becomes an
// `llvm.func {nvvm.kernel}` in a gpu.module targeting the chip with +ptx88
// (lower PTX versions abort LLVM on TMA and tcgen05). Tensor maps are
// __grid_constant__ by-value parameters (llvm.byval + nvvm.grid_constant on an
// llvm.func; gpu.func would drop them), and the launch ABI is attached as the
// kernel's manifest.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CtaToNVVM/CtaToNVVM.h"
#include "compiler/Conversion/CtaToNVVM/ChipLowering.h"
#include "compiler/Conversion/CtaToNVVM/KernelABI.h"
#include "compiler/Conversion/CtaToNVVM/LoweringUtils.h"
#include "compiler/Conversion/CtaToNVVM/ManifestAttr.h"
#include "compiler/Conversion/Passes.h"
#include "compiler/Target/Ptxas.h"
#include "compiler/Target/Swizzle.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTCTATONVVM
#include "compiler/Conversion/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

/// Whether any program computes math functions (exp, tanh, erf, ...), which
/// lower to libdevice calls; linking libdevice costs compile time otherwise.
bool usesMathFunctions(ModuleOp module) {
  return module
      .walk([](Operation *op) {
        return llvm::isa<math::MathDialect>(op->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The gpu.module for `chip`, with the dynamic shared-memory window.
gpu::GPUModuleOp getOrCreateKernelModule(ModuleOp module, StringRef chip) {
  MLIRContext *ctx = module.getContext();
  if (auto existing = module.lookupSymbol<gpu::GPUModuleOp>(kKernelModuleName))
    return existing;
  module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                  UnitAttr::get(ctx));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  // Math in epilogues (exp, tanh, erf, ...) becomes libdevice calls, linked
  // when the module is translated to PTX.
  ArrayAttr link;
  if (usesMathFunctions(module))
    if (std::optional<std::string> libdevice = target::findLibdevice())
      link = b.getArrayAttr({b.getStringAttr(*libdevice)});
  auto target =
      NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda",
                                chip, "+ptx88", /*targetFlags=*/nullptr, link);
  auto kernels = gpu::GPUModuleOp::create(b, module.getLoc(), kKernelModuleName,
                                          b.getArrayAttr({target}));
  b.setInsertionPointToStart(kernels.getBody());
  // `.extern .shared .align 1024 .b8 kiln_smem[]`: the dynamic window, sized
  // at launch from the manifest.
  LLVM::GlobalOp::create(
      b, module.getLoc(), LLVM::LLVMArrayType::get(b.getI8Type(), 0),
      /*isConstant=*/false, LLVM::Linkage::External, kSmemSymbol, Attribute(),
      /*alignment=*/target::swizzleAtomAlignment, /*addrSpace=*/3);
  return kernels;
}

/// The kernel function of `program`: ABI parameters, launch attributes, the
/// manifest, and an entry block that prefetches every tensor map into the
/// descriptor cache before first use.
LLVM::LLVMFuncOp createKernel(cta::ProgramOp program, const KernelABI &abi,
                              gpu::GPUModuleOp kernels) {
  MLIRContext *ctx = program.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(kernels.getBody());
  auto type =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), abi.entryTypes);
  auto func =
      LLVM::LLVMFuncOp::create(b, program.getLoc(), program.getSymName(), type);
  func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), UnitAttr::get(ctx));
  func->setAttr(
      NVVM::NVVMDialect::getReqntidAttrName(),
      b.getDenseI32ArrayAttr({static_cast<int32_t>(abi.blockThreads), 1, 1}));
  // With the thread count, one CTA per SM tells ptxas the register count at
  // entry, without which setmaxnreg is ignored (ptxas C7508).
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(1));
  if (abi.clusterSize > 1)
    func->setAttr(
        NVVM::NVVMDialect::getClusterDimAttrName(),
        b.getDenseI32ArrayAttr({static_cast<int32_t>(abi.clusterSize), 1, 1}));
  for (unsigned i = 0; i < abi.tensorMaps.size(); ++i) {
    func.setArgAttr(
        i, LLVM::LLVMDialect::getByValAttrName(),
        TypeAttr::get(LLVM::LLVMArrayType::get(b.getI8Type(), 128)));
    func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    b.getI64IntegerAttr(64));
    func.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(),
                    UnitAttr::get(ctx));
  }
  func->setAttr(kManifestAttrName, manifestToAttr(abi.manifest, ctx));

  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Emitter e(b, program.getLoc());
  e.ifThen(e.isThread(0), [&] {
    for (unsigned i = 0; i < abi.tensorMaps.size(); ++i)
      NVVM::PrefetchOp::create(b, program.getLoc(), /*cacheLevel=*/nullptr,
                               /*evictPriority=*/nullptr, func.getArgument(i),
                               /*predicate=*/Value(),
                               /*tensormap=*/true, /*uniform=*/false,
                               /*in_param_space=*/true);
  });
  return func;
}

/// Whether cta-allocate-resources ran on `program` for a chip with the
/// memories of `chip`: every buffer and barrier ring has its shared-memory
/// offset, and on chips with tensor memory every accumulator and block-scale
/// buffer its columns. Reports the first op without at that op.
LogicalResult checkResourcesAllocated(cta::ProgramOp program,
                                      const target::ChipInfo &chip) {
  auto missing = [](Operation *op, StringRef what) {
    return op->emitError()
           << "convert-cta-to-nvvm: no " << what
           << " allocated; run cta-allocate-resources (on a program whose "
              "chip is the target's) first";
  };
  if (!program.getSmemBytes())
    return missing(program, "shared memory");
  WalkResult walk = program.walk([&](Operation *op) {
    bool hasSmem = true, hasTmem = true;
    if (auto alloc = llvm::dyn_cast<cta::AllocOp>(op))
      hasSmem = static_cast<bool>(alloc.getSmemOffset());
    else if (auto ring = llvm::dyn_cast<cta::RingOp>(op))
      hasSmem = static_cast<bool>(ring.getSmemOffset());
    else if (auto ring = llvm::dyn_cast<cta::AccRingOp>(op))
      hasSmem = static_cast<bool>(ring.getSmemOffset()),
      hasTmem = static_cast<bool>(ring.getTmemColumn());
    else if (auto zero = llvm::dyn_cast<cta::AccZeroOp>(op))
      hasTmem = static_cast<bool>(zero.getTmemColumn());
    else if (auto mma = llvm::dyn_cast<cta::MmaOp>(op))
      for (Value scale : {mma.getLhsScale(), mma.getRhsScale()})
        if (auto alloc = scale ? scale.getDefiningOp<cta::AllocOp>() : nullptr)
          hasTmem &= static_cast<bool>(alloc.getTmemColumn());
    if (!hasSmem)
      return (missing(op, "shared memory"), WalkResult::interrupt());
    if (!hasTmem && chip.hasTensorMemory())
      return (missing(op, "tensor memory"), WalkResult::interrupt());
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Lowers the cta.programs of a module for one chip. The chip's lowering,
/// the type converter and the patterns are built once; each program then
/// gets its checks, its ABI and its kernel function, and one dialect
/// conversion lowers every program whose checks passed.
class ModuleLowering {
public:
  ModuleLowering(MLIRContext *ctx, const target::ChipInfo &chip)
      : chip(chip), lowering(createChipLowering(chip)), target(*ctx) {
    addCommonTypeConversions(converter);
    lowering->addTypeConversions(converter);
    RewritePatternSet set(ctx);
    populateCtaToNVVMCommonPatterns(converter, set, abis,
                                    lowering->resources());
    // Loops a program writes itself (attention's key loop) carry
    // accumulators and fragments: their types convert with them.
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, set,
                                                         target);
    lowering->populatePatterns(converter, set, abis);
    patterns = FrozenRewritePatternSet(std::move(set));
    target.addIllegalDialect<cta::CtaDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  }

  LogicalResult run(ModuleOp module) {
    abis.clear();
    bool ok = true;
    SmallVector<Operation *> prepared;
    for (cta::ProgramOp program :
         llvm::make_early_inc_range(module.getOps<cta::ProgramOp>())) {
      if (succeeded(prepare(program)))
        prepared.push_back(program);
      else
        ok = false;
    }
    if (!prepared.empty() &&
        failed(applyPartialConversion(prepared, target, patterns)))
      ok = false;
    return success(ok);
  }

private:
  /// The checks, the ABI and the kernel function of `program`.
  LogicalResult prepare(cta::ProgramOp program) {
    if (cta::ChipAttr scheduled = program.getChipAttr();
        scheduled && scheduled.getChip() != chip.id)
      return program.emitError()
             << "convert-cta-to-nvvm: the program was scheduled for "
             << target::chipName(scheduled.getChip()) << ", not " << chip.name;
    // Everything the patterns cannot lower is reported here, at its op.
    bool supported = true;
    program.walk(
        [&](Operation *op) { supported &= succeeded(lowering->check(op)); });
    if (!supported || failed(checkResourcesAllocated(program, chip)))
      return failure();
    FailureOr<KernelABI> abi = planKernelABI(program);
    if (failed(abi))
      return failure();
    abi->manifest.chip = std::string(chip.name);
    // Placeholders until the driver knows where it writes the cubin.
    abi->manifest.cubin = program.getSymName().str() + ".cubin";
    if (auto fileLoc = llvm::dyn_cast<FileLineColLoc>(program.getLoc()))
      abi->manifest.source = fileLoc.getFilename().str();
    // Hand-written cta IR can describe a launch no runtime could make (a
    // dim that no tensor's shape binds, say): a located error at the
    // program, not an internal one when the manifest is written.
    std::string manifestError;
    if (!validateManifest(abi->manifest, manifestError))
      return program.emitError()
             << "convert-cta-to-nvvm: the program cannot be launched: "
             << manifestError;
    auto module = program->getParentOfType<ModuleOp>();
    gpu::GPUModuleOp kernels = getOrCreateKernelModule(module, chip.name);
    LLVM::LLVMFuncOp kernel = createKernel(program, *abi, kernels);
    abis.add(std::move(*abi), kernel);
    return success();
  }

  const target::ChipInfo &chip;
  std::unique_ptr<ChipLowering> lowering;
  TypeConverter converter;
  KernelABIs abis;
  FrozenRewritePatternSet patterns;
  ConversionTarget target;
};

struct ConvertCtaToNVVMPass
    : public kiln::impl::ConvertCtaToNVVMBase<ConvertCtaToNVVMPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    // An unknown chip is reported at each program it would have lowered.
    if (const target::ChipInfo *info = target::lookupChip(std::string(chip)))
      lowering = std::make_shared<ModuleLowering>(ctx, *info);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!lowering) {
      for (cta::ProgramOp program : module.getOps<cta::ProgramOp>())
        program.emitError() << "convert-cta-to-nvvm: unknown chip '" << chip
                            << "'; expected " << target::knownChipNames();
      return signalPassFailure();
    }
    if (failed(lowering->run(module)))
      signalPassFailure();
  }

  std::shared_ptr<ModuleLowering> lowering;
};

} // namespace

std::unique_ptr<ChipLowering>
kiln::createChipLowering(const target::ChipInfo &chip) {
  switch (chip.mma) {
  case target::MmaFamily::Wgmma:
    return createWgmmaLowering(chip);
  case target::MmaFamily::Tcgen05:
    return createTcgen05Lowering(chip);
  }
  llvm_unreachable("a chip's MMA family");
}
