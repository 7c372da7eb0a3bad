//===- KernelABI.cpp - the launch ABI of a lowered cta.program ------------===//

#include "compiler/Conversion/CtaToNVVM/KernelABI.h"
#include "compiler/Conversion/CtaToNVVM/LoweringUtils.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/MLIR/ElementTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace kiln;

namespace {

/// The manifest dtype of an MLIR scalar type: the target library names
/// element types exactly as the manifest does.
std::optional<DType> toDType(Type type) {
  std::optional<target::ElementType> element = target::getElementType(type);
  DType dtype;
  if (!element || !parseDType(target::elementTypeName(*element), dtype))
    return std::nullopt;
  return dtype;
}

TmaElement toManifestElement(const target::TmaElement &element) {
  TmaElement out = TmaElement::U8;
  for (TmaElement candidate :
       {TmaElement::BF16, TmaElement::F16, TmaElement::F32, TmaElement::I32,
        TmaElement::U8, TmaElement::U4x16Align8})
    if (element.manifestName == tmaElementName(candidate))
      out = candidate;
  return out;
}

Swizzle toManifestSwizzle(target::SwizzleMode mode) {
  switch (mode) {
  case target::SwizzleMode::Bytes32:
    return Swizzle::B32;
  case target::SwizzleMode::Bytes64:
    return Swizzle::B64;
  case target::SwizzleMode::Bytes128:
    return Swizzle::B128;
  case target::SwizzleMode::None:
    break;
  }
  return Swizzle::None;
}

/// The manifest spelling of an extent: a dim argument's name or a constant.
FailureOr<DimExpr> extentExpr(cta::ProgramOp program, Value extent) {
  if (auto arg = llvm::dyn_cast<BlockArgument>(extent))
    if (cta::DimAttr dim = program.getDim(arg.getArgNumber()))
      return DimExpr::dim(dim.getName().str());
  if (auto constant = extent.getDefiningOp<arith::ConstantIndexOp>())
    return DimExpr::constant(constant.value());
  return failure();
}

} // namespace

void KernelABIs::add(KernelABI abi, LLVM::LLVMFuncOp kernel) {
  std::string name = abi.manifest.entry;
  entries[name] = Entry{std::move(abi), kernel};
}

const KernelABIs::Entry &KernelABIs::entryOf(Operation *op) const {
  for (Operation *parent = op; parent; parent = parent->getParentOp()) {
    StringRef name;
    if (auto program = llvm::dyn_cast<cta::ProgramOp>(parent))
      name = program.getSymName();
    else if (auto kernel = llvm::dyn_cast<LLVM::LLVMFuncOp>(parent))
      name = kernel.getSymName();
    else
      continue;
    auto found = entries.find(name);
    if (found != entries.end())
      return found->second;
  }
  llvm::report_fatal_error("convert-cta-to-nvvm: an op outside every program "
                           "being lowered");
}

ExtentSource kiln::findExtent(cta::ProgramOp program, tile::DimExprAttr dim) {
  ExtentSource source;
  if (std::optional<int64_t> constant = dim.getConstant())
    source.constant = *constant;
  else if (dim.getKind() == DimExpr::Kind::Name ||
           dim.getKind() == DimExpr::Kind::Add ||
           dim.getKind() == DimExpr::Kind::Sub) {
    source.dimArgument = program.findDimArgument(dim.getName().getValue());
    source.offset = dim.getKind() == DimExpr::Kind::Add   ? dim.getValue()
                    : dim.getKind() == DimExpr::Kind::Sub ? -dim.getValue()
                                                          : 0;
  } else if (dim.getKind() == DimExpr::Kind::CeilDiv && dim.getValue() > 0) {
    source.dimArgument = program.findDimArgument(dim.getName().getValue());
    source.divisor = dim.getValue();
  }
  return source;
}

FailureOr<KernelABI> kiln::planKernelABI(cta::ProgramOp program) {
  KernelABI abi;
  MLIRContext *ctx = program.getContext();
  Manifest &manifest = abi.manifest;
  manifest.kernel = program.getSymName().str();
  if (FlatSymbolRefAttr of = program.getVariantOfAttr())
    manifest.kernel = of.getValue().str();
  manifest.entry = program.getSymName().str();
  if (cta::ChipAttr chip = program.getChipAttr())
    manifest.chip = std::string(target::chipName(chip.getChip()));
  abi.clusterSize =
      program.getClusterShape().first * program.getClusterShape().second;
  DenseI64ArrayAttr block = program.getBlockAttr();
  if (!block || block.size() != 3)
    return program.emitError(
        "convert-cta-to-nvvm: the program has no block size; run "
        "cta-pipeline first");
  abi.blockThreads = block[0] * block[1] * block[2];

  // Parameters, as the caller passes them.
  Block &body = program.getBody().front();
  for (unsigned i = 0; i < program.getNumArguments(); ++i) {
    auto memref = llvm::dyn_cast<MemRefType>(program.getArgumentTypes()[i]);
    if (!memref)
      continue;
    cta::ParamAttr attr = program.getParam(i);
    Param param;
    param.name = attr.getName().str();
    param.role = attr.getKind() == tile::ParamKind::output ? ParamRole::Output
                 : attr.getKind() == tile::ParamKind::scale
                     ? ParamRole::Scale
                     : ParamRole::Input;
    std::optional<DType> dtype = toDType(memref.getElementType());
    if (!dtype)
      return program.emitError()
             << "convert-cta-to-nvvm: no manifest dtype for "
             << memref.getElementType();
    param.dtype = *dtype;
    for (tile::DimExprAttr dim : attr.getShape())
      param.shape.push_back(dim.getExpr());
    if (attr.getScaleOf())
      param.scaleOf = attr.getScaleOf().str();
    param.block.assign(attr.getBlock().begin(), attr.getBlock().end());
    // Set below from how the kernel reads it: 16 for TMA operands.
    param.align = (dtypeBits(param.dtype) + 7) / 8;
    manifest.params.push_back(param);
  }
  auto paramIndex = [&](unsigned programArg) {
    StringRef name = program.getParam(programArg).getName().getValue();
    for (auto [index, param] : llvm::enumerate(manifest.params))
      if (param.name == name)
        return index;
    return manifest.params.size();
  };

  // Tensor maps: one per (tensor, box, swizzle); they are the first entry
  // parameters, passed by value as __grid_constant__.
  auto addMap = [&](Operation *op, Value memrefValue, cta::BufferType buffer,
                    int64_t rows, bool optional,
                    bool clampRows) -> FailureOr<unsigned> {
    auto arg = llvm::dyn_cast<BlockArgument>(memrefValue);
    if (!arg || arg.getOwner() != &body)
      return op->emitError(
          "convert-cta-to-nvvm: copies must read program arguments");
    // Every tensor has a manifest dtype (above), which is named after its
    // target element type, and copies and stores keep their tensor's
    // elements (the cta verifiers).
    std::optional<target::ElementType> element =
        target::getElementType(buffer.getElementType());
    if (!element)
      llvm_unreachable("a copied tensor without a target element type");
    target::ValueOrError<target::TmaBoxPlan> plan =
        target::planTmaBoxes(*element, rows, buffer.getShape()[1],
                             buffer.getSwizzleMode());
    if (!plan)
      return op->emitError() << "convert-cta-to-nvvm: " << plan.error();
    for (auto [index, existing] : llvm::enumerate(abi.tensorMaps)) {
      if (existing.programArg == arg.getArgNumber() &&
          existing.boxes.box == plan->box &&
          existing.boxes.swizzle == plan->swizzle &&
          manifest.tensorMaps[index].clampRows == clampRows) {
        manifest.tensorMaps[index].optional &= optional;
        return static_cast<unsigned>(index);
      }
    }
    abi.tensorMaps.push_back({arg.getArgNumber(), *plan});
    TensorMapDesc desc;
    desc.param = manifest.params[paramIndex(arg.getArgNumber())].name;
    desc.element = toManifestElement(plan->element);
    // The box covers the last two axes; one element along the others.
    desc.box = {plan->box[0], plan->box[1]};
    desc.box.resize(llvm::cast<MemRefType>(memrefValue.getType()).getRank(),
                    1);
    desc.swizzle = toManifestSwizzle(plan->swizzle);
    // Operand tiles are re-read by many CTAs: keep whole 256-byte lines in L2.
    desc.l2Promotion = optional ? L2Promotion::None : L2Promotion::B256;
    desc.oobFill = OobFill::Zero;
    desc.optional = optional;
    desc.clampRows = clampRows;
    manifest.tensorMaps.push_back(desc);
    if (!optional)
      manifest.params[paramIndex(arg.getArgNumber())].align = 16;
    return static_cast<unsigned>(abi.tensorMaps.size() - 1);
  };

  SmallVector<cta::StoreOp> stores;
  // Vectors written with plain stores or atomics (cta.store_rows,
  // cta.combine_cols), with how they combine.
  SmallVector<std::pair<Value, std::optional<cta::ReduceKind>>> vectorStores;
  SmallVector<Value> offsetTensors;
  // Global tensors addressed with plain loads and stores, in first use.
  SmallVector<unsigned> plainTensors;
  auto addPlain = [&](Value memref) {
    unsigned arg = llvm::cast<BlockArgument>(memref).getArgNumber();
    if (!llvm::is_contained(plainTensors, arg))
      plainTensors.push_back(arg);
  };
  WalkResult walk = program.walk([&](Operation *op) {
    if (auto load = llvm::dyn_cast<cta::LoadOp>(op)) {
      cta::BufferType buffer = load.getBuffer().getType();
      auto [firstRow, endRow] = load.getFilledRows();
      // (cta.load's verifier keeps sources to ranks 2..5, TMA's range.)
      FailureOr<unsigned> map =
          addMap(op, load.getSource(), buffer,
                 (endRow - firstRow) / load.getMulticast(), false,
                 load.getRowExtent() != nullptr);
      if (failed(map))
        return WalkResult::interrupt();
      abi.loadMap[op] = *map;
    } else if (auto store = llvm::dyn_cast<cta::StoreOp>(op)) {
      if (!store.getStaging())
        return (store.emitError(
                    "convert-cta-to-nvvm: stores need a staging buffer"),
                WalkResult::interrupt());
      for (Value value : {store.getDest()})
        if (!llvm::isa<BlockArgument>(value) ||
            llvm::cast<BlockArgument>(value).getOwner() != &body)
          return (store.emitError("convert-cta-to-nvvm: stores must write "
                                  "program arguments"),
                  WalkResult::interrupt());
      for (Value input : store.getInputs())
        if (!llvm::isa<BlockArgument>(input) ||
            llvm::cast<BlockArgument>(input).getOwner() != &body)
          return (store.emitError("convert-cta-to-nvvm: epilogue inputs "
                                  "must be program arguments"),
                  WalkResult::interrupt());
      // (Inputs, of rank 1 or 2, are read at the element's row and column
      // alone: they broadcast over a destination's leading axes.)
      cta::BufferType staging = store.getStaging().getType();
      FailureOr<unsigned> map =
          addMap(op, store.getDest(), staging, staging.getShape()[0],
                 /*optional=*/true, /*clampRows=*/false);
      if (failed(map))
        return WalkResult::interrupt();
      abi.storeArgs[op].tensorMap = *map;
      stores.push_back(store);
    } else if (llvm::isa<cta::ReadIndexOp>(op) ||
               (llvm::isa<cta::TileLoopOp>(op) &&
                llvm::cast<cta::TileLoopOp>(op).getOffsets())) {
      // Offsets read with plain loads (a grouped walk's, cta.read_index).
      Value source = llvm::isa<cta::ReadIndexOp>(op)
                         ? llvm::cast<cta::ReadIndexOp>(op).getSource()
                         : llvm::cast<cta::TileLoopOp>(op).getOffsets();
      auto arg = llvm::dyn_cast<BlockArgument>(source);
      if (!arg || arg.getOwner() != &body)
        return (op->emitError("convert-cta-to-nvvm: offsets must be program "
                              "arguments"),
                WalkResult::interrupt());
      offsetTensors.push_back(source);
      // A grouped walk's offsets split the rows of its row axis: the
      // runtime's checking mode reads them (Manifest.h, Segments).
      if (auto loop = llvm::dyn_cast<cta::TileLoopOp>(op))
        if (auto rowsArg = llvm::dyn_cast<BlockArgument>(
                loop.getExtents()[loop.getExtents().size() - 2]))
          if (auto dim = program.getArgAttrOfType<cta::DimAttr>(
                  rowsArg.getArgNumber(), cta::ProgramOp::kDimAttrName)) {
            Segments segments{
                manifest.params[paramIndex(arg.getArgNumber())].name,
                dim.getName().str()};
            if (!llvm::is_contained(manifest.segments, segments))
              manifest.segments.push_back(segments);
          }
    } else if (llvm::isa<cta::ReadVectorOp, cta::ReadScalarOp>(op)) {
      // f32 values the math threads read with plain loads (block scales).
      Value source = op->getOperand(0);
      auto arg = llvm::dyn_cast<BlockArgument>(source);
      if (!arg || arg.getOwner() != &body)
        return (op->emitError("convert-cta-to-nvvm: reads must read program "
                              "arguments"),
                WalkResult::interrupt());
      addPlain(source);
    } else if (llvm::isa<cta::StoreRowsOp, cta::CombineColsOp>(op)) {
      auto rows = llvm::dyn_cast<cta::StoreRowsOp>(op);
      auto cols = llvm::dyn_cast<cta::CombineColsOp>(op);
      Value destValue = rows ? rows.getDest() : cols.getDest();
      auto dest = llvm::dyn_cast<BlockArgument>(destValue);
      if (!dest || dest.getOwner() != &body)
        return (op->emitError("convert-cta-to-nvvm: stores must write "
                              "program arguments"),
                WalkResult::interrupt());
      vectorStores.push_back(
          {destValue, rows ? rows.getCombine()
                           : std::optional<cta::ReduceKind>(cols.getKind())});
    } else if (auto roles = llvm::dyn_cast<cta::WarpSpecializeOp>(op)) {
      SmallVector<bool> storesInRole;
      for (auto [index, region] : llvm::enumerate(roles.getBodies())) {
        int64_t firstWarpgroup =
            roles.getFirstWarp(index) / target::warpsPerWarpgroup;
        bool storesHere = false;
        int64_t roleThreads =
            roles.getRole(index).getWarps() * target::threadsPerWarp;
        cta::RoleKind kind = roles.getRole(index).getKind();
        region.walk([&](Operation *inner) {
          if (auto join = llvm::dyn_cast<cta::StreamKJoinOp>(inner)) {
            StreamKJoinPlan &plan = abi.streamKJoins[inner];
            plan.firstWarpgroup = firstWarpgroup;
            plan.threads = roleThreads;
            // Each warpgroup holds its accumulators' elements, evenly.
            for (Value acc : join.getAccs()) {
              auto type = llvm::cast<cta::AccType>(acc.getType());
              plan.floats +=
                  type.getShape()[0] * type.getShape()[1] / kWarpgroupThreads;
            }
          }
          if (auto store = llvm::dyn_cast<cta::StoreOp>(inner))
            storesHere |= static_cast<bool>(store.getStaging());
          if (llvm::isa<cta::TileLoopOp>(inner) &&
              (kind == cta::RoleKind::producer || kind == cta::RoleKind::mma))
            abi.singleThreadWalks.insert(inner);
        });
        storesInRole.push_back(storesHere);
      }
      abi.roleStores[op] = storesInRole;
    } else if (auto mma = llvm::dyn_cast<cta::MmaOp>(op)) {
      abi.ctaPair |= mma.getCtaPair();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  Type tensorMapType = LLVM::LLVMPointerType::get(ctx);
  Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
  for (unsigned i = 0; i < abi.tensorMaps.size(); ++i) {
    abi.entryTypes.push_back(tensorMapType);
    manifest.kernelArgs.push_back(
        {KernelArgKind::TensorMap, static_cast<int64_t>(i), "", "", -1});
  }
  // Plain-store fallback for destinations a tensor map cannot describe, and
  // plain loads of epilogue inputs.
  for (cta::StoreOp store : stores) {
    StoreArgs &args = abi.storeArgs[store];
    args.tmaOk = abi.entryTypes.size();
    abi.entryTypes.push_back(i32);
    manifest.kernelArgs.push_back(
        {KernelArgKind::TmaOk, args.tensorMap, "", "", -1});
    addPlain(store.getDest());
    for (Value input : store.getInputs())
      addPlain(input);
  }
  for (auto [dest, combine] : vectorStores) {
    addPlain(dest);
    // Rows (columns) combined into the output start from the reduction's
    // identity, which the runtime writes before each launch.
    if (combine)
      manifest.params[paramIndex(llvm::cast<BlockArgument>(dest)
                                     .getArgNumber())]
          .init = *combine == cta::ReduceKind::sum ? ParamInit::Zero
                                                   : ParamInit::NegInf;
  }
  for (Value offsets : offsetTensors)
    addPlain(offsets);
  for (unsigned arg : plainTensors) {
    std::string name = manifest.params[paramIndex(arg)].name;
    PointerArgs &args = abi.pointerArgs[arg];
    args.pointer = abi.entryTypes.size();
    abi.entryTypes.push_back(LLVM::LLVMPointerType::get(ctx, 1));
    manifest.kernelArgs.push_back({KernelArgKind::Pointer, -1, name, "", -1});
    int64_t rank =
        llvm::cast<MemRefType>(program.getArgumentTypes()[arg]).getRank();
    for (int64_t axis = 0; axis + 1 < rank; ++axis) {
      args.strides.push_back(abi.entryTypes.size());
      abi.entryTypes.push_back(i64);
      manifest.kernelArgs.push_back(
          {KernelArgKind::Stride, -1, name, "", axis});
    }
  }
  for (unsigned i = 0; i < program.getNumArguments(); ++i) {
    cta::DimAttr dim = program.getDim(i);
    if (!dim)
      continue;
    abi.dimArgs[i] = abi.entryTypes.size();
    abi.entryTypes.push_back(i32);
    manifest.dims.push_back(dim.getName().str());
    manifest.kernelArgs.push_back(
        {KernelArgKind::Dim, -1, "", dim.getName().str(), -1});
  }
  // The stream-K workspace: one region per CTA of the grid.
  if (!abi.streamKJoins.empty()) {
    int64_t perCta = 0;
    for (auto &entry : abi.streamKJoins) {
      if (entry.second.floats % 4 != 0)
        return entry.first->emitError()
               << "convert-cta-to-nvvm: stream-K partial tiles move 4 "
                  "registers at a time; "
               << entry.second.floats << " per thread is not a multiple of 4";
      if (entry.second.threads / kWarpgroupThreads * 16 >
          kWorkspaceCounterStride)
        return entry.first->emitError()
               << "convert-cta-to-nvvm: a stream-K join in a role of "
               << entry.second.threads << " threads needs more than the "
               << kWorkspaceCounterStride << " counter bytes a CTA has";
      perCta = std::max(perCta, entry.second.regionBytes());
    }
    abi.workspaceArg = abi.entryTypes.size();
    abi.entryTypes.push_back(LLVM::LLVMPointerType::get(ctx, 1));
    manifest.kernelArgs.push_back({KernelArgKind::Workspace, -1, "", "", -1});
    manifest.launch.workspacePerCta = llvm::alignTo(perCta, 16);
  }
  // Every tensor's extents, for the bounds of plain loads and stores.
  for (unsigned i = 0; i < program.getNumArguments(); ++i) {
    cta::ParamAttr param = program.getParam(i);
    if (!param)
      continue;
    SmallVector<ExtentArg, 4> &extents = abi.extents[i];
    for (tile::DimExprAttr dim : param.getShape()) {
      ExtentSource source = findExtent(program, dim);
      ExtentArg extent;
      extent.constant = source.constant;
      if (source.dimArgument)
        extent.dimParam = abi.dimArgs.lookup(*source.dimArgument);
      extent.offset = source.offset;
      extent.divisor = source.divisor;
      extents.push_back(extent);
    }
  }

  // Shared and tensor memory, as cta-allocate-resources decided them (the
  // lowering checked that it ran).
  abi.smemBytes = program.getSmemBytes().value_or(0);
  abi.tmemColumns = program.getTmemColumns().value_or(0);
  abi.tmemSlot = program.getTmemSlot().value_or(0);

  // Launch rule, from the tile walk.
  Launch &launch = manifest.launch;
  launch.block = {block[0], block[1], block[2]};
  launch.cluster = {program.getClusterShape().first,
                    program.getClusterShape().second, 1};
  launch.dynamicSmem = abi.smemBytes;
  if (FloatAttr cost = program.getTileCostAttr())
    launch.tileCost = cost.getValueAsDouble();
  if (FloatAttr cost = program.getTailCostAttr())
    launch.tailCost = cost.getValueAsDouble();
  cta::TileLoopOp loop;
  program.walk([&](cta::TileLoopOp op) {
    if (!loop)
      loop = op;
  });
  if (!loop)
    return program.emitError("convert-cta-to-nvvm: the program walks no tiles");
  launch.rule = loop.getPersistent() ? GridRule::Persistent : GridRule::Tiles;
  for (auto [extent, tile] :
       llvm::zip(loop.getExtents(), loop.getTileSizes())) {
    FailureOr<DimExpr> expr = extentExpr(program, extent);
    if (failed(expr))
      return loop.emitError(
          "convert-cta-to-nvvm: tile extents must be dims or constants");
    launch.tiles.push_back({*expr, tile});
  }
  // A stream-K walk splits K among the CTAs of a persistent grid: the grid
  // is sized by the output tiles alone, and the K axis goes to the split
  // rule, which the runtime's explanation of a choice shows.
  if (loop.getWalk() == cta::WalkKind::stream_k) {
    launch.streamK.halves = loop.getHalves();
    launch.streamK.maxTailPercent = loop.getHalves()
                                        ? target::streamKHalvesMaxTailPercent
                                        : target::streamKMaxTailPercent;
    launch.streamK.k = launch.tiles.back();
    launch.tiles.pop_back();
    launch.streamK.joinSteps = target::streamKJoinSteps;
  }
  // A grouped walk's row tiles depend on the offsets on the device: the
  // persistent grid counts the groups as a factor, an upper bound of
  // cdiv(T, tm) + E (the count only caps the grid at the SMs).
  if (loop.getWalk() == cta::WalkKind::grouped) {
    FailureOr<DimExpr> groups = extentExpr(program, loop.getGroups());
    if (failed(groups))
      return loop.emitError(
          "convert-cta-to-nvvm: the group count must be a dim or a constant");
    launch.tiles.insert(launch.tiles.end() - 1, {*groups, 1});
  }
  return abi;
}
