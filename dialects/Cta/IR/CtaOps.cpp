//===- CtaOps.cpp - operations of the cta dialect -------------------------===//

#include "dialects/Cta/IR/CtaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace kiln::cta;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Checks that `block`'s arguments are `leading` followed by `carried`.
static LogicalResult verifyBlockArgs(Operation *op, Block &block,
                                     TypeRange leading, TypeRange carried) {
  SmallVector<Type> expected(leading.begin(), leading.end());
  expected.append(carried.begin(), carried.end());
  if (block.getArgumentTypes() != TypeRange(expected)) {
    InFlightDiagnostic diag = op->emitOpError() << "body arguments must be (";
    llvm::interleaveComma(expected, diag);
    return diag << ")";
  }
  return success();
}

/// Checks that the region's yield carries `types`.
static LogicalResult verifyYield(Operation *op, Region &region,
                                 TypeRange types) {
  Block &block = region.front();
  auto yield =
      block.empty() ? YieldOp() : llvm::dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << "body must end in cta.yield";
  if (yield.getValues().getTypes() != types)
    return op->emitOpError() << "body yields " << yield.getValues().size()
                             << " values that do not match the carried types";
  return success();
}

/// A buffer with stages must be indexed by a slot, one without must not.
static LogicalResult verifySlot(Operation *op, StringRef what, BufferType type,
                                Value slot) {
  if ((type.getStages() > 1) != static_cast<bool>(slot))
    return op->emitOpError()
           << what
           << (slot ? " has one stage and takes no slot"
                    : " has several stages and needs a [slot]");
  return success();
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

ParseResult ProgramOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> args,
                      ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(args, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void ProgramOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

StringRef ProgramOp::getChip() {
  if (auto chip = (*this)->getAttrOfType<StringAttr>("cta.chip"))
    return chip.getValue();
  return "";
}

std::pair<int64_t, int64_t> ProgramOp::getClusterShape() {
  if (auto cluster = (*this)->getAttrOfType<DenseI64ArrayAttr>("cta.cluster"))
    if (cluster.size() == 2)
      return {cluster[0], cluster[1]};
  return {1, 1};
}

LogicalResult ProgramOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError() << "returns nothing; outputs are memref arguments";
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    if (llvm::isa<MemRefType>(type)) {
      if (!getArgAttrOfType<StringAttr>(index, "cta.param"))
        return emitOpError()
               << "tensor argument #" << index << " needs a cta.param name";
    } else if (llvm::isa<IndexType>(type)) {
      if (!getArgAttrOfType<StringAttr>(index, "cta.dim"))
        return emitOpError()
               << "index argument #" << index << " needs a cta.dim name";
    } else {
      return emitOpError() << "argument #" << index
                           << " must be a memref or an index, got " << type;
    }
  }
  if (auto cluster = (*this)->getAttrOfType<DenseI64ArrayAttr>("cta.cluster"))
    if (cluster.size() != 2 || cluster[0] < 1 || cluster[1] < 1)
      return emitOpError() << "cta.cluster must be two positive extents";
  return success();
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

void TileLoopOp::build(OpBuilder &builder, OperationState &state, Value extentM,
                       Value extentN, ArrayRef<int64_t> tileSizes,
                       ValueRange inits) {
  state.addOperands({extentM, extentN});
  state.addOperands(inits);
  state.addAttribute(getTileSizesAttrName(state.name),
                     builder.getDenseI64ArrayAttr(tileSizes));
  state.addTypes(inits.getTypes());
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value extent : {extentM, extentN})
    block->addArgument(builder.getIndexType(), extent.getLoc());
  for (Value init : inits)
    block->addArgument(init.getType(), init.getLoc());
}

void TileLoopOp::getAsmBlockArgumentNames(Region &region,
                                          OpAsmSetValueNameFn setNameFn) {
  static const char *const names[] = {"m0", "n0"};
  for (auto [index, arg] : llvm::enumerate(region.getArguments()))
    setNameFn(arg, index < 2 ? names[index] : "carried");
}

LogicalResult TileLoopOp::verify() {
  if (getTileSizes().size() != 2)
    return emitOpError() << "walks 2-D tiles: needs 2 tile sizes";
  if (llvm::any_of(getTileSizes(), [](int64_t size) { return size <= 0; }))
    return emitOpError() << "tile sizes must be positive";
  if (getGroupM() < 1)
    return emitOpError() << "group_m must be at least 1";
  if (auto cluster = getCluster())
    if (cluster->size() != 2 || (*cluster)[0] < 1 || (*cluster)[1] != 1)
      return emitOpError()
             << "cluster must be [n, 1]: CTAs of a cluster share tile columns";
  if (getResults().getTypes() != getInits().getTypes())
    return emitOpError() << "results must match the carried values";
  SmallVector<Type> origins(2, IndexType::get(getContext()));
  if (failed(verifyBlockArgs(*this, getBody().front(), origins,
                             getInits().getTypes())))
    return failure();
  return verifyYield(*this, getBody(), getInits().getTypes());
}

void MainloopOp::getAsmBlockArgumentNames(Region &region,
                                          OpAsmSetValueNameFn setNameFn) {
  for (auto [index, arg] : llvm::enumerate(region.getArguments()))
    setNameFn(arg, index == 0 ? "k0" : "acc");
}

LogicalResult MainloopOp::verify() {
  if (getStep() <= 0)
    return emitOpError() << "step must be positive, got " << getStep();
  if (getResults().getTypes() != getInits().getTypes())
    return emitOpError() << "results must match the accumulators";
  if (failed(verifyBlockArgs(*this, getBody().front(),
                             {IndexType::get(getContext())},
                             getInits().getTypes())))
    return failure();
  return verifyYield(*this, getBody(), getInits().getTypes());
}

//===----------------------------------------------------------------------===//
// Data movement and math
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  auto source = llvm::cast<MemRefType>(getSource().getType());
  BufferType buffer = getBuffer().getType();
  if (static_cast<int64_t>(getIndices().size()) != source.getRank())
    return emitOpError() << "needs " << source.getRank() << " indices, got "
                         << getIndices().size();
  if (source.getRank() != 2)
    return emitOpError() << "copies 2-D tiles, the source has rank "
                         << source.getRank();
  if (source.getElementType() != buffer.getElementType())
    return emitOpError() << "source elements " << source.getElementType()
                         << " differ from buffer elements "
                         << buffer.getElementType();
  if (getMulticast() < 1)
    return emitOpError() << "multicast must be at least 1";
  return verifySlot(*this, "buffer", buffer, getSlot());
}

LogicalResult MmaOp::verify() {
  BufferType lhs = getLhs().getType(), rhs = getRhs().getType();
  AccType acc = getAcc().getType();
  if (failed(verifySlot(*this, "lhs", lhs, getLhsSlot())) ||
      failed(verifySlot(*this, "rhs", rhs, getRhsSlot())))
    return failure();
  int64_t k = lhs.getShape()[1];
  int64_t rhsK = getTransposeB() ? rhs.getShape()[1] : rhs.getShape()[0];
  int64_t n = getTransposeB() ? rhs.getShape()[0] : rhs.getShape()[1];
  if (k != rhsK)
    return emitOpError() << "contraction extents differ: K=" << k
                         << " in lhs, K=" << rhsK << " in rhs";
  if (acc.getShape().size() != 2 || acc.getShape()[1] != n)
    return emitOpError() << "accumulator has " << acc.getShape().back()
                         << " columns but rhs provides " << n;
  if (acc.getShape()[0] > lhs.getShape()[0] ||
      (acc.getShape()[0] < lhs.getShape()[0] && !getLhsRow()))
    return emitOpError() << "accumulator rows (" << acc.getShape()[0]
                         << ") must equal lhs rows (" << lhs.getShape()[0]
                         << ") or select a slice with 'rows'";
  return success();
}

LogicalResult StoreOp::verify() {
  auto dest = llvm::cast<MemRefType>(getDest().getType());
  if (getAccs().empty())
    return emitOpError() << "needs at least one accumulator";
  if (static_cast<int64_t>(getIndices().size()) != dest.getRank() ||
      dest.getRank() != 2)
    return emitOpError() << "stores 2-D tiles with one index per axis";
  ArrayRef<int64_t> shape =
      llvm::cast<AccType>(getAccs()[0].getType()).getShape();
  SmallVector<Type> elements;
  for (Value acc : getAccs()) {
    auto type = llvm::cast<AccType>(acc.getType());
    if (type.getShape() != shape)
      return emitOpError() << "accumulators must have the same shape";
    elements.push_back(type.getElementType());
  }
  if (getStaging()) {
    BufferType staging = getStaging().getType();
    if (staging.getElementType() != dest.getElementType())
      return emitOpError() << "staging elements " << staging.getElementType()
                           << " differ from destination elements "
                           << dest.getElementType();
    if (failed(verifySlot(*this, "staging", staging, getStagingSlot())))
      return failure();
  }
  Block &block = getEpilogue().front();
  if (block.getArgumentTypes() != TypeRange(elements))
    return emitOpError() << "epilogue takes one element per accumulator";
  return verifyYield(*this, getEpilogue(), {dest.getElementType()});
}

//===----------------------------------------------------------------------===//
// Pipelining and warp specialization
//===----------------------------------------------------------------------===//

LogicalResult WarpSpecializeOp::verify() {
  if (getConsumerWarpgroups() < 1 || getConsumerWarpgroups() > 3)
    return emitOpError() << "needs 1 to 3 consumer warpgroups, got "
                         << getConsumerWarpgroups();
  for (int64_t regs : {getProducerRegs(), getConsumerRegs()})
    if (regs < 24 || regs > 256 || regs % 8 != 0)
      return emitOpError()
             << "register counts must be multiples of 8 in [24, 256], got "
             << regs;
  return success();
}

void ProduceOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setNameFn) {
  setNameFn(region.getArgument(0), "kb");
  setNameFn(region.getArgument(1), "slot");
}

LogicalResult ProduceOp::verify() {
  Type index = IndexType::get(getContext());
  return verifyBlockArgs(*this, getBody().front(), {index, index}, {});
}

void ConsumeOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setNameFn) {
  for (auto [index, arg] : llvm::enumerate(region.getArguments()))
    setNameFn(arg, index == 0 ? "kb" : index == 1 ? "slot" : "acc");
}

LogicalResult ConsumeOp::verify() {
  if (getResults().getTypes() != getInits().getTypes())
    return emitOpError() << "results must match the accumulators";
  Type index = IndexType::get(getContext());
  if (failed(verifyBlockArgs(*this, getBody().front(), {index, index},
                             getInits().getTypes())))
    return failure();
  return verifyYield(*this, getBody(), getInits().getTypes());
}

#define GET_OP_CLASSES
#include "dialects/Cta/IR/CtaOps.cpp.inc"
