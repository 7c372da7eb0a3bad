//===- CtaToSm90.cpp - cta lowering patterns for sm_90a (Hopper) ----------===//
//
// On sm_90a an accumulator lives in the registers of the warpgroup that owns
// it (the wgmma fragment), MMAs are wgmma.mma_async on shared-memory
// descriptors, and the consumer side of a ring releases a stage once the
// wgmma batch that read it has completed. Stores apply the epilogue to each
// fragment element (reading epilogue inputs at the element's row and
// column) and stream the tile out through stmatrix, a swizzled staging
// buffer and TMA stores, or store elements directly when the destination
// cannot take a bulk copy.
//
// Layout rule used throughout (cta-assign-layouts): a buffer is a row of
// column blocks `span` bytes wide; block j holds all rows, row r at r * span
// within it, 16-byte chunks XOR-swizzled by the row. Buffers and blocks start
// on 1024-byte boundaries, so every descriptor keeps base_offset 0.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CtaToNVVM/ChipLowering.h"
#include "compiler/Conversion/CtaToNVVM/LoweringUtils.h"
#include "compiler/Conversion/CtaToNVVM/TileStore.h"
#include "compiler/Target/MLIR/ElementTypes.h"
#include "compiler/Target/WarpReduce.h"
#include "compiler/Target/WgmmaDescriptor.h"
#include "compiler/Target/WgmmaFragment.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;

/// The wgmma operand type of a shared-memory tile's elements.
static std::optional<NVVM::WGMMATypes> wgmmaOperandType(Type element) {
  if (element.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (element.isF16())
    return NVVM::WGMMATypes::f16;
  if (llvm::isa<Float8E4M3FNType>(element))
    return NVVM::WGMMATypes::e4m3;
  if (llvm::isa<Float8E5M2Type>(element))
    return NVVM::WGMMATypes::e5m2;
  return std::nullopt;
}

namespace {

/// Rows of one wgmma instruction (and of one accumulator fragment).
constexpr int64_t kMmaRows = target::wgmmaRows;

/// Accumulators are whole wgmma fragments: 64 rows each.
std::optional<std::string> accumulatorError(cta::AccType acc) {
  if (acc.getShape()[0] % kMmaRows == 0)
    return std::nullopt;
  return "a " + std::to_string(acc.getShape()[0]) +
         "-row accumulator; on sm_90a accumulators are whole 64-row wgmma "
         "fragments";
}

LogicalResult checkAccumulator(Operation *op, cta::AccType acc) {
  if (std::optional<std::string> error = accumulatorError(acc))
    return op->emitError() << "convert-cta-to-nvvm: " << *error;
  return success();
}

/// How a cta.mma becomes wgmma.mma_async instructions: one m64nNk16 (or k32
/// for 8-bit floats) per 64-row fragment and K step, on a K-major lhs
/// descriptor and a K-major (transpose_b) or, for f16/bf16, MN-major rhs.
/// The one place that decides whether an MMA lowers on sm_90a: the check
/// before the conversion reports its error, the pattern emits its plan.
struct WgmmaPlan {
  NVVM::WGMMATypes typeA, typeB;
  target::WgmmaInstructionShape shape;
  /// The descriptors' constant fields.
  uint64_t highA = 0, highB = 0;
  /// Per K step: what each descriptor advances by; per fragment: what the
  /// lhs descriptor advances by to its 64 rows.
  SmallVector<uint64_t> stepA, stepB, fragmentA;
  /// The first K step's scale-out: zero when the MMA overwrites (accumulate
  /// false).
  NVVM::WGMMAScaleOut firstScaleOut = NVVM::WGMMAScaleOut::one;
  /// The lhs is a register fragment (`lhs` layout): A comes from
  /// wgmmaARegistersPerKStep b32 registers per K step (no descriptor, no
  /// highA, stepA or fragmentA), the rhs from its descriptor.
  bool lhsInRegisters = false;
  /// The rhs is stored [K, N] (no transpose_b): wgmma reads B MN-major,
  /// layout `row` on the descriptor form, imm-trans-b 1 on the register
  /// form (f16/bf16 only).
  bool rhsMNMajor = false;
};

/// Text of an element type in a wgmma instruction name.
StringRef wgmmaTypeName(NVVM::WGMMATypes type) {
  return NVVM::stringifyWGMMATypes(type);
}

/// The accumulate flag's first scale-out, where it is a constant.
target::ValueOrError<NVVM::WGMMAScaleOut> firstScaleOut(cta::MmaOp mma) {
  using Result = target::ValueOrError<NVVM::WGMMAScaleOut>;
  Value accumulate = mma.getAccumulate();
  if (!accumulate)
    return NVVM::WGMMAScaleOut::one;
  auto constant = accumulate.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return Result::failure("not implemented yet on sm_90a: an accumulate "
                           "flag computed at run time");
  return llvm::cast<BoolAttr>(constant.getValue()).getValue()
             ? NVVM::WGMMAScaleOut::one
             : NVVM::WGMMAScaleOut::zero;
}

/// The rhs descriptors (compiler/Target's planWgmmaOperandDescriptors):
/// K-major with transpose_b (stored [N, K]), else MN-major (stored [K, N],
/// f16/bf16 only).
LogicalResult planRhs(cta::MmaOp mma, target::ElementType a, unsigned kSteps,
                      WgmmaPlan &plan, std::string &error) {
  cta::BufferType rhs = mma.getRhs().getType();
  plan.rhsMNMajor = !mma.getTransposeB();
  target::OperandMajor major =
      plan.rhsMNMajor ? target::OperandMajor::MN : target::OperandMajor::K;
  target::ValueOrError<target::WgmmaOperandDescriptors> b =
      target::planWgmmaOperandDescriptors(major, rhs.getSwizzleMode(), a,
                                          rhs.getShape()[0], rhs.getShape()[1],
                                          kSteps);
  if (!b) {
    error = plan.rhsMNMajor ? "rhs must be K-major (transpose_b): " + b.error()
                            : b.error();
    return failure();
  }
  plan.highB = b->highBits;
  plan.stepB.assign(b->kStepDeltas.begin(), b->kStepDeltas.end());
  return success();
}

/// What both wgmma forms decide alike: the first K step's scale-out, the
/// accumulator, the instruction shape for `element` operands and the
/// accumulator's N, and that the lhs's `lhsK` columns are whole
/// instructions.
LogicalResult planInstruction(cta::MmaOp mma, Type element, int64_t lhsK,
                              WgmmaPlan &plan, std::string &error) {
  target::ValueOrError<NVVM::WGMMAScaleOut> scale = firstScaleOut(mma);
  if (!scale) {
    error = scale.error();
    return failure();
  }
  plan.firstScaleOut = *scale;
  cta::AccType acc = mma.getAcc().getType();
  if (std::optional<std::string> accError = accumulatorError(acc)) {
    error = *accError;
    return failure();
  }
  target::ValueOrError<target::WgmmaInstructionShape> shape =
      target::wgmmaInstructionShape(*target::getElementType(element),
                                    target::ElementType::F32,
                                    acc.getShape()[1]);
  if (!shape) {
    error = shape.error();
    return failure();
  }
  plan.shape = *shape;
  if (lhsK % shape->k != 0) {
    error = describe("K = ", lhsK, " is not a multiple of the wgmma's K of ",
                     shape->k);
    return failure();
  }
  return success();
}

/// An MMA whose lhs is a register fragment (attention's P @ V): wgmma
/// m64nNk16 with A from registers (the RS form), 16-bit operands only (the
/// layout of compiler/Target's wgmmaAFragmentCoord), a K-major or MN-major
/// rhs.
target::ValueOrError<WgmmaPlan> planRegisterWgmma(cta::MmaOp mma,
                                                  cta::FragType lhs) {
  using Plan = target::ValueOrError<WgmmaPlan>;
  if (mma.getLhsScale())
    return Plan::failure(
        "sm_90a has no block-scaled MMA (NVFP4, MXFP8 need sm_100a)");
  Type element = lhs.getElementType();
  if (!element.isBF16() && !element.isF16())
    return Plan::failure(describe("not implemented yet on sm_90a: an MMA "
                                  "with ",
                                  element, " lhs registers (16-bit only)"));
  WgmmaPlan plan;
  plan.lhsInRegisters = true;
  plan.typeA = plan.typeB = *wgmmaOperandType(element);
  std::string error;
  if (failed(planInstruction(mma, element, lhs.getShape()[1], plan, error)) ||
      failed(planRhs(mma, *target::getElementType(element),
                     lhs.getShape()[1] / plan.shape.k, plan, error)))
    return Plan::failure(error);
  return plan;
}

target::ValueOrError<WgmmaPlan> planWgmma(cta::MmaOp mma) {
  using Plan = target::ValueOrError<WgmmaPlan>;
  if (mma.getCtaPair())
    return Plan::failure("a CTA pair's MMA (cta_pair) is "
                         "tcgen05.mma.cta_group::2, which sm_90a does not "
                         "have (sm_100a)");
  if (auto frag = llvm::dyn_cast<cta::FragType>(mma.getLhs().getType()))
    return planRegisterWgmma(mma, frag);
  auto lhs = llvm::dyn_cast<cta::BufferType>(mma.getLhs().getType());
  if (!lhs)
    return Plan::failure("an MMA with its lhs in tensor memory "
                         "(tcgen05.mma, sm_100a); sm_90a has no tensor memory");
  if (mma.getLhsScale())
    return Plan::failure(
        "sm_90a has no block-scaled MMA (NVFP4, MXFP8 need sm_100a)");
  cta::BufferType rhs = mma.getRhs().getType();
  Type element = lhs.getElementType(), rhsElement = rhs.getElementType();
  std::optional<NVVM::WGMMATypes> typeA = wgmmaOperandType(element),
                                  typeB = wgmmaOperandType(rhsElement);
  for (auto [type, wgmma] : {std::pair(element, typeA), {rhsElement, typeB}})
    if (!wgmma)
      return Plan::failure(
          describe("no sm_90a MMA for ", type, " operands yet"));
  // (wgmma takes two equal 16-bit types, or any two 8-bit floats: what the
  // cta.mma verifier admits.)
  WgmmaPlan plan;
  plan.typeA = *typeA;
  plan.typeB = *typeB;
  std::string error;
  if (failed(planInstruction(mma, element, lhs.getShape()[1], plan, error)))
    return Plan::failure(error);
  cta::AccType acc = mma.getAcc().getType();
  target::ElementType a = *target::getElementType(element);
  const target::WgmmaInstructionShape *shape = &plan.shape;
  if (lhs.getShape()[0] % kMmaRows != 0)
    return Plan::failure(describe("the lhs has ", lhs.getShape()[0],
                                  " rows; wgmma reads whole 64-row blocks"));
  target::ValueOrError<uint64_t> highA = target::wgmmaDescriptorHighBits(
      target::OperandMajor::K, lhs.getSwizzleMode(), lhs.getShape()[0]);
  if (!highA)
    return Plan::failure(highA.error());
  plan.highA = *highA;
  if (failed(planRhs(mma, a, lhs.getShape()[1] / shape->k, plan, error)))
    return Plan::failure(error);
  for (int64_t k = 0; k < lhs.getShape()[1] / shape->k; ++k) {
    target::ValueOrError<uint64_t> stepA = target::wgmmaKStepDescriptorDelta(
        target::OperandMajor::K, lhs.getSwizzleMode(), a, lhs.getShape()[0], k);
    if (!stepA)
      return Plan::failure(stepA.error());
    plan.stepA.push_back(*stepA);
  }
  for (int64_t m = 0; m < acc.getShape()[0] / kMmaRows; ++m) {
    target::ValueOrError<uint64_t> block = target::wgmmaMNDescriptorDelta(
        target::OperandMajor::K, lhs.getSwizzleMode(), a, lhs.getShape()[0],
        m * kMmaRows);
    if (!block)
      return Plan::failure(block.error());
    plan.fragmentA.push_back(*block);
  }
  return plan;
}


//===----------------------------------------------------------------------===//
// Accumulators in registers
//===----------------------------------------------------------------------===//
// An accumulator of R rows is R/64 wgmma fragments. With one fragment it
// lowers to that fragment's struct; with several, to a struct of them, so
// that each wgmma takes and returns a whole fragment (extracting single
// registers between wgmmas would make ptxas serialize them, C7514).

int64_t fragments(cta::AccType type) { return type.getShape()[0] / kMmaRows; }

Type fragmentStruct(MLIRContext *ctx, cta::AccType type) {
  return LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(type.getShape()[1] / 2, Float32Type::get(ctx)));
}

Type accStruct(cta::AccType type) {
  MLIRContext *ctx = type.getContext();
  if (fragments(type) == 1)
    return fragmentStruct(ctx, type);
  return LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(fragments(type), fragmentStruct(ctx, type)));
}

/// Reads and writes the fragments and registers of a lowered accumulator.
struct AccRegisters {
  AccRegisters(Emitter &e, cta::AccType type) : e(e), type(type) {}

  Value getFragment(Value acc, int64_t m) {
    if (fragments(type) == 1)
      return acc;
    return LLVM::ExtractValueOp::create(e.b, e.loc, acc, m);
  }
  Value setFragment(Value acc, Value fragment, int64_t m) {
    if (fragments(type) == 1)
      return fragment;
    return LLVM::InsertValueOp::create(e.b, e.loc, acc, fragment, m);
  }
  /// Register `i` of fragment `m`.
  Value getElement(Value acc, int64_t m, int64_t i) {
    if (fragments(type) == 1)
      return LLVM::ExtractValueOp::create(e.b, e.loc, acc, i);
    return LLVM::ExtractValueOp::create(e.b, e.loc, acc,
                                        ArrayRef<int64_t>{m, i});
  }

  /// Zeros, written by one `mov` per register. A zero aggregate would let
  /// LLVM copy one zeroed register into the others, and ptxas serializes
  /// the wgmma pipeline (C7514) when non-wgmma instructions read
  /// accumulator registers, which those copies do.
  Value zero() {
    Value acc = LLVM::UndefOp::create(e.b, e.loc, accStruct(type));
    auto structType = llvm::cast<LLVM::LLVMStructType>(
        fragmentStruct(type.getContext(), type));
    int64_t regs = structType.getBody().size();
    std::string text, constraints;
    for (int64_t i = 0; i < regs; ++i) {
      text += "mov.b32 $" + std::to_string(i) + ", 0;\n";
      constraints += (i ? ",=f" : "=f");
    }
    for (int64_t m = 0; m < fragments(type); ++m) {
      Value zeros = e.inlineAsm(structType, ValueRange{}, text, constraints);
      acc = setFragment(acc, zeros, m);
    }
    return acc;
  }

  /// Pins an accumulator's registers at this point of the program: an empty
  /// side-effecting inline asm that takes and returns every register. LLVM
  /// sees the wgmma results as ordinary values and would otherwise move
  /// their first reads above the wgmma.wait_group that makes them valid (or
  /// the zero-initialization below the wgmma.fence that publishes it).
  Value pin(Value acc, bool copy = false) {
    for (int64_t m = 0; m < fragments(type); ++m) {
      Value fragment = getFragment(acc, m);
      auto structType = llvm::cast<LLVM::LLVMStructType>(fragment.getType());
      int64_t regs = structType.getBody().size();
      SmallVector<Value> operands;
      std::string constraints, text;
      for (int64_t i = 0; i < regs; ++i) {
        operands.push_back(
            LLVM::ExtractValueOp::create(e.b, e.loc, fragment, i));
        constraints += (i ? ",=f" : "=f");
      }
      for (int64_t i = 0; i < regs; ++i) {
        constraints += copy ? ",f" : "," + std::to_string(i);
        if (copy)
          text += "mov.b32 $" + std::to_string(i) + ", $" +
                  std::to_string(regs + i) + ";\n";
      }
      Value pinned = e.inlineAsm(structType, operands, text, constraints);
      acc = setFragment(acc, pinned, m);
    }
    return acc;
  }

  Emitter &e;
  cta::AccType type;
};

/// Pins every accumulator among `values` (types from `types`).
SmallVector<Value> pinAccumulators(Emitter &e, ValueRange values,
                                   TypeRange types, bool copy = false) {
  SmallVector<Value> pinned;
  for (auto [value, type] : llvm::zip(values, types)) {
    auto acc = llvm::dyn_cast<cta::AccType>(type);
    pinned.push_back(acc ? AccRegisters(e, acc).pin(value, copy) : value);
  }
  return pinned;
}

//===----------------------------------------------------------------------===//
// Register fragments
//===----------------------------------------------------------------------===//
// Every value the math warpgroup keeps in registers lowers to a struct of
// its 64-row fragments (or to the one fragment when there is one), each a
// struct of the thread's registers, placed by compiler/Target's
// WgmmaFragment.h:
//   acc layout (an accumulator, an `acc` fragment): C/2 registers per
//     fragment, register i at wgmmaAccumulatorCoord(thread, i) (+64 rows
//     per fragment): the accumulator struct itself;
//   lhs layout: C/16 K steps of wgmmaARegistersPerKStep b32 registers per
//     fragment, register 4j + q packing the two 16-bit elements
//     wgmmaAFragmentCoord(thread, j, q, 0 and 1) (low half first);
//   rows vector: 2 registers per fragment, the thread's two rows
//     wgmmaAccumulatorRows(thread) (+64 per fragment);
//   cols vector: one fragment of C/4 registers, register 2j + e at column
//     wgmmaAccumulatorColumn(thread, j, e).

enum class RegisterKind { acc, lhs, rows, cols };

struct RegisterTile {
  RegisterKind kind;
  /// Rows and columns of the tile; a rows vector has no columns, a cols
  /// vector no rows.
  int64_t rows = 0, cols = 0;
  /// The tile's elements, and the type of one register.
  Type element, reg;

  int64_t fragments() const {
    return kind == RegisterKind::cols ? 1 : rows / kMmaRows;
  }
  int64_t registers() const {
    switch (kind) {
    case RegisterKind::acc:
      return cols / 2;
    case RegisterKind::lhs:
      return cols / 16 * target::wgmmaARegistersPerKStep;
    case RegisterKind::rows:
      return 2;
    case RegisterKind::cols:
      return cols / 4;
    }
    llvm_unreachable("a register kind");
  }
  Type fragmentType() const {
    return LLVM::LLVMStructType::getLiteral(
        reg.getContext(), SmallVector<Type>(registers(), reg));
  }
  Type type() const {
    if (fragments() == 1)
      return fragmentType();
    return LLVM::LLVMStructType::getLiteral(
        reg.getContext(), SmallVector<Type>(fragments(), fragmentType()));
  }
};

/// How a register value of cta type `type` lies in the registers, if it is
/// one.
std::optional<RegisterTile> registerTileOf(Type type) {
  if (auto acc = llvm::dyn_cast<cta::AccType>(type))
    return RegisterTile{RegisterKind::acc, acc.getShape()[0],
                        acc.getShape()[1], acc.getElementType(),
                        Float32Type::get(type.getContext())};
  auto frag = llvm::dyn_cast<cta::FragType>(type);
  if (!frag)
    return std::nullopt;
  Type element = frag.getElementType();
  switch (frag.getLayout()) {
  case cta::FragLayout::acc:
    return RegisterTile{RegisterKind::acc, frag.getShape()[0],
                        frag.getShape()[1], element, element};
  case cta::FragLayout::lhs:
    return RegisterTile{RegisterKind::lhs, frag.getShape()[0],
                        frag.getShape()[1], element,
                        IntegerType::get(type.getContext(), 32)};
  case cta::FragLayout::rows:
    return RegisterTile{RegisterKind::rows, frag.getShape()[0], 0, element,
                        element};
  case cta::FragLayout::cols:
    return RegisterTile{RegisterKind::cols, 0, frag.getShape()[0], element,
                        element};
  }
  llvm_unreachable("a fragment layout");
}

/// Why a register value of `type` cannot live in wgmma fragments, if it
/// cannot.
std::optional<std::string> registerTileError(Type type) {
  std::optional<RegisterTile> tile = registerTileOf(type);
  if (!tile)
    return describe("not implemented yet on sm_90a: ", type,
                    " as a register value");
  if (tile->kind != RegisterKind::cols && tile->rows % kMmaRows != 0)
    return describe("a ", tile->rows, "-row ", type,
                    "; on sm_90a register tiles are whole 64-row wgmma "
                    "fragments");
  int64_t columnStep = tile->kind == RegisterKind::lhs ? 16 : 8;
  if (tile->kind != RegisterKind::rows && tile->cols % columnStep != 0)
    return describe("a ", type, " of ", tile->cols,
                    " columns; wgmma fragments have multiples of ",
                    columnStep);
  if (tile->element.getIntOrFloatBitWidth() > 32)
    return describe("not implemented yet on sm_90a: register tiles of ",
                    tile->element);
  if (tile->kind == RegisterKind::lhs &&
      tile->element.getIntOrFloatBitWidth() != 16)
    return describe("not implemented yet on sm_90a: an lhs fragment of ",
                    tile->element, " (16-bit elements only)");
  return std::nullopt;
}

/// Reads and builds register values of one RegisterTile.
struct TileRegisters {
  TileRegisters(Emitter &e, RegisterTile tile) : e(e), tile(tile) {}
  TileRegisters(Emitter &e, Type ctaType)
      : e(e), tile(*registerTileOf(ctaType)) {}

  /// Register `i` of fragment `m`.
  Value get(Value value, int64_t m, int64_t i) {
    if (tile.fragments() == 1)
      return LLVM::ExtractValueOp::create(e.b, e.loc, value, i);
    return LLVM::ExtractValueOp::create(e.b, e.loc, value,
                                        ArrayRef<int64_t>{m, i});
  }
  /// The value whose register `i` of fragment `m` is `fn(m, i)`.
  Value build(llvm::function_ref<Value(int64_t, int64_t)> fn) {
    Value whole;
    if (tile.fragments() != 1)
      whole = LLVM::UndefOp::create(e.b, e.loc, tile.type());
    for (int64_t m = 0; m < tile.fragments(); ++m) {
      Value fragment = LLVM::UndefOp::create(e.b, e.loc, tile.fragmentType());
      for (int64_t i = 0; i < tile.registers(); ++i)
        fragment =
            LLVM::InsertValueOp::create(e.b, e.loc, fragment, fn(m, i), i);
      if (tile.fragments() == 1)
        return fragment;
      whole = LLVM::InsertValueOp::create(e.b, e.loc, whole, fragment, m);
    }
    return whole;
  }

  Emitter &e;
  RegisterTile tile;
};

/// Two 16-bit values as one b32 register, `lo` in the low half.
Value packHalves(Emitter &e, Value lo, Value hi) {
  auto pair = VectorType::get({2}, lo.getType());
  Value v = LLVM::UndefOp::create(e.b, e.loc, pair);
  v = LLVM::InsertElementOp::create(e.b, e.loc, v, lo, e.i32(0));
  v = LLVM::InsertElementOp::create(e.b, e.loc, v, hi, e.i32(1));
  return LLVM::BitcastOp::create(e.b, e.loc, e.i32Type(), v);
}

/// The register ops (cta.splat, cta.frag_map, cta.reduce_rows,
/// cta.scale_rows, cta.convert): one plan decides whether each lowers on
/// sm_90a, for the check and for its pattern.
target::ValueOrError<bool> planRegisterOp(Operation *op) {
  using Plan = target::ValueOrError<bool>;
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Type type : types)
    if (llvm::isa<cta::AccType, cta::FragType>(type))
      if (std::optional<std::string> error = registerTileError(type))
        return Plan::failure(*error);
  if (auto reduce = llvm::dyn_cast<cta::ReduceRowsOp>(op))
    if (!registerTileOf(reduce.getInput().getType())->element.isF32())
      return Plan::failure(describe(
          "not implemented yet on sm_90a: row reductions of ",
          registerTileOf(reduce.getInput().getType())->element, " elements"));
  return true;
}

/// The tile row (i32) of register `i` of fragment `m` of `tile`, for the
/// thread whose rows start at `selfRow` and columns at `selfCol`; the
/// column likewise. A rows vector has column 0, a cols vector row 0.
std::pair<Value, Value> registerPosition(Emitter &e, const RegisterTile &tile,
                                         Value selfRow, Value selfCol,
                                         int64_t m, int64_t i) {
  // (Small non-negative sums, marked so: LLVM then folds the constant
  // through the widening to index and into the compares that read it.)
  auto add = [&](Value x, int64_t offset) -> Value {
    return arith::AddIOp::create(e.b, e.loc, x, e.i32(offset),
                                 arith::IntegerOverflowFlags::nuw |
                                     arith::IntegerOverflowFlags::nsw);
  };
  switch (tile.kind) {
  case RegisterKind::acc: {
    target::FragmentCoord c = target::wgmmaAccumulatorCoord(0, i);
    return {add(selfRow, m * kMmaRows + c.row), add(selfCol, c.col)};
  }
  case RegisterKind::rows:
    return {add(selfRow, m * kMmaRows + target::wgmmaAccumulatorRows(0)[i]),
            e.i32(0)};
  case RegisterKind::cols:
    return {e.i32(0),
            add(selfCol, target::wgmmaAccumulatorColumn(0, i / 2, i % 2))};
  case RegisterKind::lhs:
    break;
  }
  llvm_unreachable("frag_map yields acc-layout tiles and vectors");
}

/// A fragment of one value: every register holds it (an lhs fragment: two
/// copies packed per register).
/// Turns between math warpgroups: named barrier mmaTurnBarrierBase + w is
/// warpgroup w's turn; its `wait` syncs there with the 128 threads of the
/// previous warpgroup's `pass` (so 256 threads in all).
struct MmaTurnLowering : public OpConversionPattern<cta::MmaTurnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::MmaTurnOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    Value wg = e.toI32(adaptor.getWarpgroup());
    int64_t count = static_cast<int64_t>(op.getWarpgroups());
    Value threads = e.i32(2 * kWarpgroupThreads);
    auto barrierOf = [&](Value w) {
      return e.add(w, e.i32(target::mmaTurnBarrierBase));
    };
    auto arriveAt = [&](Value w) {
      NVVM::BarrierArriveOp::create(rewriter, op.getLoc(), barrierOf(w),
                                    threads);
    };
    switch (op.getKind()) {
    case cta::TurnKind::wait:
      NVVM::BarrierOp::create(rewriter, op.getLoc(), Type(), barrierOf(wg),
                              threads, nullptr, Value());
      break;
    case cta::TurnKind::pass:
      arriveAt(e.urem(e.add(wg, e.i32(1)), e.i32(count)));
      break;
    case cta::TurnKind::start:
      e.ifThen(e.eq(wg, e.i32(count - 1)), [&] { arriveAt(e.i32(0)); });
      break;
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct SplatLowering : public OpConversionPattern<cta::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target::ValueOrError<bool> plan = planRegisterOp(op);
    if (!plan)
      return rewriter.notifyMatchFailure(op, plan.error());
    Emitter e(rewriter, op.getLoc());
    TileRegisters regs(e, op.getResult().getType());
    Value value = adaptor.getValue();
    if (regs.tile.kind == RegisterKind::lhs)
      value = packHalves(e, value, value);
    rewriter.replaceOp(op, regs.build([&](int64_t, int64_t) { return value; }));
    return success();
  }
};

/// The body of a frag_map evaluated once per register of the result: the
/// element's row and column (index), then each input's element at the same
/// position (an acc-layout input's register of the same index, a vector's
/// register of the element's row or column).
struct FragMapLowering : public OpConversionPattern<cta::FragMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::FragMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target::ValueOrError<bool> plan = planRegisterOp(op);
    if (!plan)
      return rewriter.notifyMatchFailure(op, plan.error());
    Emitter e(rewriter, op.getLoc());
    TileRegisters result(e, op.getResult().getType());
    SmallVector<TileRegisters> inputs;
    for (Value input : op.getInputs())
      inputs.emplace_back(e, input.getType());
    Block &body = op.getBody().front();
    bool needsRow = !body.getArgument(0).use_empty();
    bool needsCol = !body.getArgument(1).use_empty();
    Value lane = needsRow || needsCol ? e.warpgroupLaneHere() : Value();
    Value selfRow = needsRow ? e.threadMap(target::wgmmaQuadRow, lane) : Value();
    Value selfCol =
        needsCol ? e.threadMap(target::wgmmaPairColumn, lane) : Value();
    Value lowered = result.build([&](int64_t m, int64_t i) -> Value {
      IRMapping mapping;
      if (needsRow || needsCol) {
        auto [row, col] = registerPosition(
            e, result.tile, selfRow ? selfRow : e.i32(0),
            selfCol ? selfCol : e.i32(0), m, i);
        mapping.map(body.getArgument(0), e.toIndex(row));
        mapping.map(body.getArgument(1), e.toIndex(col));
      }
      for (auto [index, input] : llvm::enumerate(inputs)) {
        Value value = adaptor.getInputs()[index];
        Value element;
        switch (input.tile.kind) {
        case RegisterKind::acc:
          element = input.get(value, m, i);
          break;
        case RegisterKind::rows:
          element = input.get(
              value, m,
              result.tile.kind == RegisterKind::rows
                  ? i
                  : target::wgmmaRowVectorRegister(i));
          break;
        case RegisterKind::cols:
          element = input.get(
              value, 0,
              result.tile.kind == RegisterKind::cols
                  ? i
                  : target::wgmmaColumnVectorRegister(i));
          break;
        case RegisterKind::lhs:
          llvm_unreachable("frag_map reads no lhs fragments (verifier)");
        }
        mapping.map(body.getArgument(2 + index), element);
      }
      for (Operation &inner : body.without_terminator())
        rewriter.clone(inner, mapping);
      return mapping.lookupOrDefault(
          llvm::cast<cta::YieldOp>(body.getTerminator()).getValues()[0]);
    });
    rewriter.replaceOp(op, lowered);
    return success();
  }
};

/// Each row times its factor, in a branch that threads whose rows all have
/// factor 1 skip: the warp runs the multiplies only where one of its 16
/// rows (per 64-row fragment) moved. The wgmma accumulator layout gives a
/// thread two rows per fragment, so its test is a few compares.
struct ScaleRowsLowering : public OpConversionPattern<cta::ScaleRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::ScaleRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target::ValueOrError<bool> plan = planRegisterOp(op);
    if (!plan)
      return rewriter.notifyMatchFailure(op, plan.error());
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    TileRegisters tile(e, op.getInput().getType());
    TileRegisters factors(e, op.getFactors().getType());
    Value input = adaptor.getInput(), rows = adaptor.getFactors();
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getF32FloatAttr(1.0f));
    // (une: a NaN factor multiplies, so that it reaches the row.)
    Value moved;
    for (int64_t m = 0; m < factors.tile.fragments(); ++m)
      for (int64_t i = 0; i < factors.tile.registers(); ++i) {
        Value differs =
            arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::UNE,
                                  factors.get(rows, m, i), one);
        moved = moved ? arith::OrIOp::create(rewriter, loc, moved, differs)
                            .getResult()
                      : differs;
      }
    auto branch = scf::IfOp::create(rewriter, loc, TypeRange{input.getType()},
                                    moved, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
      Value scaled = tile.build([&](int64_t m, int64_t i) -> Value {
        Value factor = factors.get(rows, m, target::wgmmaRowVectorRegister(i));
        Value element = tile.get(input, m, i);
        return arith::MulFOp::create(rewriter, loc, element, factor);
      });
      scf::YieldOp::create(rewriter, loc, scaled);
      rewriter.setInsertionPointToStart(&branch.getElseRegion().front());
      scf::YieldOp::create(rewriter, loc, input);
    }
    rewriter.replaceOp(op, branch.getResult(0));
    return success();
  }
};

/// Each row's max or sum: the thread folds the registers of each of its
/// rows (a tree, for latency), then its quad exchanges partial results with
/// one xor-shuffle per wgmmaRowReductionShuffleMasks entry, after which
/// every thread of the quad holds the row's result. Max is
/// arith.maximumf, so -inf (a masked row) stays -inf and NaN propagates.
struct ReduceRowsLowering : public OpConversionPattern<cta::ReduceRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::ReduceRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target::ValueOrError<bool> plan = planRegisterOp(op);
    if (!plan)
      return rewriter.notifyMatchFailure(op, plan.error());
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    TileRegisters input(e, op.getInput().getType());
    TileRegisters result(e, op.getResult().getType());
    Value all = e.i32(-1), clamp = e.i32(0x1f);
    Value lowered = result.build([&](int64_t m, int64_t half) -> Value {
      SmallVector<Value> values;
      for (int64_t i = 0; i < input.tile.registers(); ++i)
        if (target::wgmmaRowVectorRegister(i) == half)
          values.push_back(input.get(adaptor.getInput(), m, i));
      Value value = combineTree(e, op.getKind(), std::move(values));
      for (unsigned mask : target::wgmmaRowReductionShuffleMasks) {
        Value other = NVVM::ShflOp::create(
            rewriter, loc, value.getType(), all, value, e.i32(mask), clamp,
            NVVM::ShflKind::bfly, UnitAttr());
        value = combineTree(e, op.getKind(), {value, other});
      }
      return value;
    });
    rewriter.replaceOp(op, lowered);
    return success();
  }
};

/// An f32 acc-layout tile rounded (to nearest even) into the lhs layout:
/// register 4j + q of K step j packs accumulator registers
/// accumulatorRegisterForA(j, q, 0 and 1) of the same thread.
struct ConvertLowering : public OpConversionPattern<cta::ConvertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target::ValueOrError<bool> plan = planRegisterOp(op);
    if (!plan)
      return rewriter.notifyMatchFailure(op, plan.error());
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    TileRegisters input(e, op.getInput().getType());
    TileRegisters result(e, op.getResult().getType());
    Type half = result.tile.element;
    constexpr int64_t perStep = target::wgmmaARegistersPerKStep;
    Value lowered = result.build([&](int64_t m, int64_t r) -> Value {
      int64_t step = r / perStep, q = r % perStep;
      auto rounded = [&](unsigned element) -> Value {
        Value x = input.get(adaptor.getInput(), m,
                            target::accumulatorRegisterForA(step, q, element));
        return arith::TruncFOp::create(rewriter, loc, half, x);
      };
      Value lo = rounded(0);
      Value hi = rounded(1);
      return packHalves(e, lo, hi);
    });
    rewriter.replaceOp(op, lowered);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Column groups of an accumulator are runs of its fragment registers: the
/// wgmma accumulator holds columns [8j, 8j + 8) in registers [4j, 4j + 4).
struct SplitColsLowering : public OpConversionPattern<cta::SplitColsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::SplitColsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    cta::AccType whole = op.getInput().getType();
    AccRegisters from(e, whole);
    SmallVector<Value> parts;
    for (auto [index, part] : llvm::enumerate(op.getParts())) {
      auto type = llvm::cast<cta::AccType>(part.getType());
      AccRegisters to(e, type);
      int64_t regs = type.getShape()[1] / 2;
      int64_t first = target::wgmmaAccumulatorRegister(
          0, index * type.getShape()[1] / 8, 0);
      Value value =
          LLVM::UndefOp::create(rewriter, op.getLoc(), accStruct(type));
      for (int64_t m = 0; m < fragments(type); ++m) {
        Value fragment = LLVM::UndefOp::create(
            rewriter, op.getLoc(), fragmentStruct(getContext(), type));
        for (int64_t i = 0; i < regs; ++i)
          fragment = LLVM::InsertValueOp::create(
              rewriter, op.getLoc(), fragment,
              from.getElement(adaptor.getInput(), m, first + i), i);
        value = to.setFragment(value, fragment, m);
      }
      parts.push_back(value);
    }
    rewriter.replaceOp(op, parts);
    return success();
  }
};

struct AccZeroLowering : public OpConversionPattern<cta::AccZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::AccZeroOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, AccRegisters(e, op.getAcc().getType()).zero());
    return success();
  }
};

/// Whether a pipelined stage computes on accumulators in registers (reads
/// one with anything but an MMA): then the stage's batch completes before
/// the next stage starts (wait_group 0), not one stage later.
bool stageReadsAccumulators(cta::ConsumeOp consume) {
  WalkResult walk = consume.getBody().walk([&](Operation *op) {
    if (llvm::isa<cta::MmaOp, cta::YieldOp>(op))
      return WalkResult::advance();
    for (Type type : op->getOperandTypes())
      if (llvm::isa<cta::AccType>(type))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Whether something in the MMA's stage other than the stage's yield or a
/// later MMA reads its result: that read must wait for the wgmmas.
bool readInStage(cta::MmaOp mma) {
  for (Operation *user : mma.getResult().getUsers())
    if (!llvm::isa<cta::YieldOp, cta::MmaOp>(user))
      return true;
  return false;
}

/// Whether the MMA's lowering commits its wgmmas and waits for them at once
/// (wait_group 0): outside a pipelined stage, or where the stage reads its
/// result (an fp8 block-scaled product promoted into the running sum).
bool waitsAtOnce(cta::MmaOp mma) {
  return !mma.getAsync() && (!mma.getInStage() || readInStage(mma));
}

/// Whether a pipelined stage ends with none of its wgmmas in flight: its
/// last MMA waited for itself, or a cta.mma_wait leaving none in flight
/// came after it. Then the step needs no commit and wait of its own: an
/// empty commit group still issues a wgmma (ptxas's 64x8x16 placeholder),
/// which queues behind the other warpgroup's MMAs on the shared tensor
/// cores, so its wait would hold this warpgroup until those complete.
bool stageEndsCompleted(cta::ConsumeOp consume) {
  bool inFlight = false;
  for (Operation &op : consume.getBody().front()) {
    if (auto mma = llvm::dyn_cast<cta::MmaOp>(op))
      inFlight = !waitsAtOnce(mma);
    else if (auto wait = llvm::dyn_cast<cta::MmaWaitOp>(op))
      inFlight = inFlight && wait.getLaterAttr().getInt() != 0;
    else if (op.getNumRegions() &&
             op.walk([](cta::MmaOp) { return WalkResult::interrupt(); })
                 .wasInterrupted())
      inFlight = true; // an MMA in a nested region: not followed here
  }
  return !inFlight;
}

/// A warpgroup releases a stage with lanes 0..cluster size-1: lane r
/// arrives on the stage's empty barrier in cluster CTA r, because every
/// CTA's producer multicasts into this CTA's copy of the stage.
void releaseStage(Emitter &e, Value ring, Value slot, int64_t stages,
                  int64_t clusterSize) {
  Value lane = e.warpgroupLane();
  Value empty = e.barrier(ring, slot, stages, true);
  if (clusterSize == 1) {
    e.ifThen(e.eq(lane, e.i32(0)), [&] {
      NVVM::MBarrierArriveOp::create(e.b, e.loc, Type(), empty, Value(),
                                     NVVM::MemScopeKind::CTA, false);
    });
    return;
  }
  e.ifThen(e.ult(lane, e.i32(clusterSize)), [&] {
    Value remote = NVVM::MapaOp::create(
        e.b, e.loc, LLVM::LLVMPointerType::get(e.b.getContext(), 7), empty,
        lane);
    // .release.cta like a local arrive: the stage was read by wgmma, whose
    // completion wgmma.wait_group already established; a cluster-scope
    // release would add a GPU-wide memory barrier to every K step.
    NVVM::MBarrierArriveOp::create(e.b, e.loc, Type(), remote, Value(),
                                   NVVM::MemScopeKind::CTA, false);
  });
}

/// For each K step: wait until the stage is full, issue the stage's MMAs as
/// one wgmma batch, and keep it in flight while the next stage's batch is
/// issued: once the previous batch has completed (wait_group 1), its stage
/// is released for the producer to refill.
struct ConsumeLowering : public AbiPattern<cta::ConsumeOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::ConsumeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    Value ring = adaptor.getRing();
    int64_t stages = op.getRing().getType().getStages();
    int64_t clusterSize = abi.clusterSize;
    Value position = e.toI32(adaptor.getPosition());
    Value count = adaptor.getCount();
    TypeRange carriedTypes = op.getInits().getTypes();

    bool registerMath = stageReadsAccumulators(op);
    bool completed = registerMath && stageEndsCompleted(op);
    ConsumeStepHooks hooks;
    // The stage's wgmmas read and write the carried accumulators: pinned
    // where the batch starts, published by wgmma.fence.
    hooks.beforeBody = [&](Emitter &step, ValueRange carried) {
      SmallVector<Value> pinned = pinAccumulators(step, carried, carriedTypes);
      NVVM::WgmmaFenceAlignedOp::create(step.b, step.loc);
      return pinned;
    };
    // Commit the stage's batch and keep it in flight; once the previous
    // batch has completed, its stage goes back to the producer. A stage
    // that computes on registers completes its own batch before the next
    // stage starts, so it goes back at once: held one step longer, a
    // two-stage ring would leave the producer no stage to fill ahead and
    // every step would wait for its own copy. A stage whose last MMA
    // already waited for itself has nothing left to commit.
    hooks.afterBody = [&](Emitter &step, Value kb, Value iteration,
                          Value slot) {
      if (!completed) {
        NVVM::WgmmaGroupSyncAlignedOp::create(step.b, step.loc);
        NVVM::WgmmaWaitGroupSyncOp::create(step.b, step.loc,
                                           registerMath ? 0 : 1);
      }
      if (registerMath) {
        releaseStage(step, ring, slot, stages, clusterSize);
        return;
      }
      step.ifThen(
          step.cmp(arith::CmpIPredicate::ugt, step.toI32(kb), step.i32(0)),
          [&] {
            Value previous =
                step.ringSlot(step.sub(iteration, step.i32(1)), stages);
            releaseStage(step, ring, previous, stages, clusterSize);
          });
    };
    scf::ForOp loop = lowerConsumeLoop(rewriter, op, ring, position, count,
                                       adaptor.getInits(), hooks);
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    SmallVector<Value> results = {Value()};
    llvm::append_range(results,
                       pinAccumulators(e, loop.getResults(), carriedTypes));
    Value count32 = e.toI32(count);
    if (!registerMath)
      e.ifThen(e.cmp(arith::CmpIPredicate::ugt, count32, e.i32(0)), [&] {
        Value last =
            e.ringSlot(e.sub(e.add(position, count32), e.i32(1)), stages);
        releaseStage(e, ring, last, stages, clusterSize);
      });
    results[0] = e.toIndex(e.add(position, count32));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// Whether `acc`, an MMA's accumulator, was written in the MMA's own
/// pipelined stage by something other than an MMA (a frag_map rescaling
/// it): after the stage's wgmma.fence.
bool writtenInStage(Value acc, cta::MmaOp mma) {
  Operation *def = acc.getDefiningOp();
  return def && def->getBlock() == mma->getBlock() &&
         !llvm::isa<cta::MmaOp>(def);
}

/// wgmma.wait_group with the MMAs issued after this one left in flight,
/// then the accumulator's registers pinned after the wait, so that LLVM
/// reads none of them before it.
struct MmaWaitLowering : public OpConversionPattern<cta::MmaWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::MmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, op.getLoc(),
                                       op.getLaterAttr().getInt());
    rewriter.replaceOp(op, AccRegisters(e, op.getResult().getType())
                               .pin(adaptor.getPending()));
    return success();
  }
};

/// The warpgroup's arrival on the stage's empty barrier (and its peers'
/// in a cluster), as after a cta.consume step.
struct StageReleaseLowering : public AbiPattern<cta::StageReleaseOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::StageReleaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    int64_t stages = op.getRing().getType().getStages();
    Value slot = e.ringSlot(e.toI32(adaptor.getPosition()), stages);
    releaseStage(e, adaptor.getRing(), slot, stages, abis.of(op).clusterSize);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The shared-memory address of an MMA's rhs tile in its stage.
Value mmaRhsAddress(Emitter &e, cta::MmaOp op, cta::MmaOp::Adaptor adaptor) {
  Value slot = op.getRhsSlot() ? e.toI32(adaptor.getRhsSlot()) : e.i32(0);
  return e.add(e.smemAddress(adaptor.getRhs()),
               e.mul(slot, e.i32(op.getRhs().getType().getStageBytes())));
}

/// One wgmma.mma_async m64nNk16 with A from the registers `a` and B from
/// the descriptor `descB`, on one accumulator fragment: inline asm
/// (MLIR 22's nvvm.wgmma.mma_async takes A only as a descriptor; the text
/// ran on an H200, lowering-brief.md section 3.4), the accumulator tied in
/// and out. `overwrite`: scale-d 0, D = A x B. The trailing immediates are
/// imm-scale-a, imm-scale-b and imm-trans-b (the register form has no
/// imm-trans-a; sm90-hardware-check.md): trans-b 1 for an MN-major rhs.
Value registerWgmma(Emitter &e, const WgmmaPlan &plan, Value fragment,
                    ArrayRef<Value> a, Value descB, bool overwrite) {
  auto structType = llvm::cast<LLVM::LLVMStructType>(fragment.getType());
  int64_t regs = structType.getBody().size();
  SmallVector<Value> operands;
  std::string constraints, outputs;
  for (int64_t i = 0; i < regs; ++i) {
    operands.push_back(LLVM::ExtractValueOp::create(e.b, e.loc, fragment, i));
    constraints += (i ? ",=f" : "=f");
    outputs += (i ? ", $" : "$") + std::to_string(i);
  }
  for (int64_t i = 0; i < regs; ++i)
    constraints += "," + std::to_string(i);
  std::string inputs;
  for (auto [q, value] : llvm::enumerate(a)) {
    operands.push_back(value);
    constraints += ",r";
    inputs += (q ? ", $" : "$") + std::to_string(2 * regs + q);
  }
  int64_t descIndex = 2 * regs + static_cast<int64_t>(a.size());
  operands.push_back(descB);
  constraints += ",l";
  operands.push_back(e.i32(overwrite ? 0 : 1));
  constraints += ",n";
  std::string text =
      "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(descIndex + 1) +
      ", 0;\nwgmma.mma_async.sync.aligned.m" + std::to_string(plan.shape.m) +
      "n" + std::to_string(plan.shape.n) + "k" + std::to_string(plan.shape.k) +
      ".f32." + wgmmaTypeName(plan.typeA).str() + "." +
      wgmmaTypeName(plan.typeB).str() + " {" + outputs + "}, {" + inputs +
      "}, $" + std::to_string(descIndex) + ", p, 1, 1, " +
      (plan.rhsMNMajor ? "1" : "0") + ";\n}";
  return e.inlineAsm(structType, operands, text, constraints);
}

/// acc += lhs x rhs as wgmma.mma_async, as planWgmma plans it. In a
/// pipelined stage the wgmmas join the stage's batch; elsewhere the MMA is
/// its own batch and completes before its result is used.
struct MmaLowering : public OpConversionPattern<cta::MmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target::ValueOrError<WgmmaPlan> plan = planWgmma(op);
    if (!plan)
      return rewriter.notifyMatchFailure(op, plan.error());
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    cta::AccType accType = op.getAcc().getType();
    AccRegisters regs(e, accType);
    // In a pipelined stage the wgmmas join the stage's batch, fenced where
    // the stage starts; a stage that also computes on registers fences
    // again before an MMA whose registers (a register lhs, an accumulator
    // rescaled in the stage) were written since, and waits for an MMA whose
    // result the stage reads (attention's S). Outside a stage an MMA is
    // fenced and committed as its own group, then waited for at once, or,
    // if asynchronous, by its cta.mma_wait.
    bool batched = op.getInStage();
    bool fence = !batched || plan->lhsInRegisters ||
                 writtenInStage(op.getAcc(), op);
    bool wait = waitsAtOnce(op);
    Value acc = adaptor.getAcc();
    if (fence) {
      acc = regs.pin(acc);
      NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    }
    if (plan->lhsInRegisters) {
      Value descB = e.smemDescriptor(
          mmaRhsAddress(e, op, adaptor), plan->highB);
      TileRegisters lhs(e, op.getLhs().getType());
      constexpr int64_t perStep = target::wgmmaARegistersPerKStep;
      for (auto [k, stepB] : llvm::enumerate(plan->stepB)) {
        Value dB = e.add(descB, e.i64(stepB));
        for (int64_t mb = 0; mb < fragments(accType); ++mb) {
          SmallVector<Value> a;
          for (int64_t q = 0; q < perStep; ++q)
            a.push_back(lhs.get(adaptor.getLhs(), mb, k * perStep + q));
          Value fragment = regs.getFragment(acc, mb);
          bool overwrite =
              k == 0 && plan->firstScaleOut == NVVM::WGMMAScaleOut::zero;
          acc = regs.setFragment(
              acc, registerWgmma(e, *plan, fragment, a, dB, overwrite), mb);
        }
      }
    } else {
      // Descriptors of this stage's tiles; the warpgroup's rows start
      // `lhs_row` rows into every column block of the lhs.
      MmaOperandAddresses addresses = mmaOperandAddresses(e, op, adaptor);
      Value descA = e.smemDescriptor(addresses.lhs, plan->highA),
            descB = e.smemDescriptor(addresses.rhs, plan->highB);
      // Outside a pipelined stage (attention's S = Q Kᵀ in its key loop),
      // the lhs tile is the same every step: LLVM would hoist each k step's
      // descriptor out of the loop, 64-bit registers live across it.
      if (!batched)
        descA = e.opaque(descA);
      acc = sharedWgmmas(e, *plan, regs, acc, descA, descB);
    }
    if (wait || op.getAsync())
      NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    if (wait) {
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
      acc = regs.pin(acc);
    }
    rewriter.replaceOp(op, acc);
    return success();
  }

  /// The wgmmas of an MMA with both operands in shared memory.
  Value sharedWgmmas(Emitter &e, const WgmmaPlan &plan, AccRegisters &regs,
                     Value acc, Value descA, Value descB) const {
    auto mmaShape = NVVM::MMAShapeAttr::get(getContext(), plan.shape.m,
                                            plan.shape.n, plan.shape.k);
    for (auto [k, stepA, stepB] : llvm::enumerate(plan.stepA, plan.stepB)) {
      Value dB = e.add(descB, e.i64(stepB));
      for (auto [mb, blockA] : llvm::enumerate(plan.fragmentA)) {
        Value dA = e.add(descA, e.i64(stepA + blockA));
        Value fragment = regs.getFragment(acc, mb);
        Value result = NVVM::WgmmaMmaAsyncOp::create(
            e.b, e.loc, fragment.getType(), fragment, dA, dB, mmaShape,
            plan.typeA, plan.typeB, NVVM::WGMMATypes::f32,
            k == 0 ? plan.firstScaleOut : NVVM::WGMMAScaleOut::one,
            NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
            NVVM::MMALayout::row,
            plan.rhsMNMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col,
            nullptr);
        acc = regs.setFragment(acc, result, mb);
      }
    }
    return acc;
  }
};

/// A tile store, one staging block (one TMA box) at a time: the epilogue
/// for the block's fragment elements (reading epilogue inputs at each
/// element's row and column), written into the block with stmatrix (16-bit
/// outputs) or paired stores (32-bit), then copied out (TileStore). Working
/// block by block keeps only one block's results live next to the
/// accumulators.
struct StoreLowering : public AbiPattern<cta::StoreOp> {
  using AbiPattern::AbiPattern;

  /// Where this thread's fragment elements sit in the tile: the thread's
  /// own offset plus the register's, as the wgmma accumulator layout places
  /// them (compiler/Target/WgmmaFragment.h):
  /// coord(thread, reg) = coord(thread, 0) + coord(0, reg), with
  /// coord(thread, 0) = (target::wgmmaQuadRow, target::wgmmaPairColumn).
  static int64_t regRow(int64_t m, int64_t i) {
    return m * kMmaRows + target::wgmmaAccumulatorCoord(0, i).row;
  }
  static int64_t regCol(int64_t i) {
    return target::wgmmaAccumulatorCoord(0, i).col;
  }

  LogicalResult
  matchAndRewrite(cta::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    LLVM::LLVMFuncOp kernel = abis.kernelOf(op);
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    OpBuilder &b = rewriter;
    TileStore store(e, op, adaptor.getIndices(), adaptor.getRowLimit(),
                    adaptor.getGroup(), adaptor.getStaging(),
                    adaptor.getStagingSlot(), abi, kernel);
    if (failed(store.prepare()))
      return rewriter.notifyMatchFailure(op, "unknown destination extents");
    auto accType = cta::AccType::get(getContext(), op.getTileShape(),
                                     Float32Type::get(getContext()));
    AccRegisters regs(e, accType);
    Type element = store.element;
    int64_t fragmentsOf = store.rows / kMmaRows;
    int64_t elementBytes = store.elementBytes;
    int64_t blockColumns = store.blockColumns;

    Value t = store.lane;
    Value selfRow = e.threadMap(target::wgmmaQuadRow, t);
    Value selfCol = e.threadMap(target::wgmmaPairColumn, t);
    Value laneRow = e.add(store.row0, selfRow);
    Value laneCol = e.add(store.col0, selfCol);
    auto pack = [&](Value lo, Value hi) -> Value {
      Value pair = LLVM::UndefOp::create(b, loc, VectorType::get({2}, element));
      pair = LLVM::InsertElementOp::create(b, loc, pair, lo, e.i32(0));
      pair = LLVM::InsertElementOp::create(b, loc, pair, hi, e.i32(1));
      return pair;
    };
    // The address this thread gives stmatrix.x4 for a 16x16 block; 32-bit
    // outputs store the thread's fragment pairs directly.
    Value stRow = e.threadMap(target::stmatrixX4Row, t);
    Value stColBytes = e.mul(e.threadMap(target::stmatrixX4Column, t),
                             e.i32(elementBytes));
    Value pairColBytes = e.mul(selfCol, e.i32(elementBytes));

    // The epilogue of fragment element (m, i); each element is computed
    // where it is written to the staging block, so that only a few results
    // are live next to the accumulators (an epilogue with transcendental
    // functions would spill otherwise).
    auto valueAt = [&](int64_t m, int64_t i) -> Value {
      SmallVector<Value> values;
      for (Value value : adaptor.getValues())
        values.push_back(regs.getElement(value, m, i));
      return store.epilogue(values, laneRow, regRow(m, i), laneCol, regCol(i));
    };

    for (int64_t block = 0; block < store.tileBlocks; ++block) {
      // This block's registers of each fragment: columns
      // [block * blockColumns, (block + 1) * blockColumns).
      int64_t firstReg = block * blockColumns / 2;
      Value buffer = store.beginBlock(block);
      for (int64_t m = 0; m < fragmentsOf; ++m) {
        if (elementBytes == 2) {
          Value row = e.add(stRow, e.i32(m * kMmaRows));
          for (int64_t jj = 0; jj < blockColumns / 16; ++jj) {
            int64_t block16 = firstReg / 8 + jj; // the tile's 16-column block
            SmallVector<Value> quads;
            for (int64_t q = 0; q < 4; ++q)
              quads.push_back(LLVM::BitcastOp::create(
                  b, loc, e.i32Type(),
                  pack(valueAt(m, target::stmatrixX4AccumulatorRegister(
                                      block16, q, 0)),
                       valueAt(m, target::stmatrixX4AccumulatorRegister(
                                      block16, q, 1)))));
            Value offset = store.swizzled(
                row, e.add(e.i32(16 * jj * elementBytes), stColBytes));
            NVVM::StMatrixOp::create(
                b, loc, e.bytePtr(buffer, offset), quads, NVVM::MMALayout::row,
                NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
                NVVM::LdStMatrixEltType::B16);
          }
        } else {
          for (int64_t c8 = 0; c8 < blockColumns / 8; ++c8) {
            for (int64_t half = 0; half < 2; ++half) {
              // The fragment register of (row 8 * half, column 8 * c8).
              int64_t i = target::wgmmaAccumulatorRegister(
                  half, firstReg / 4 + c8, 0);
              Value row = e.add(selfRow, e.i32(regRow(m, i)));
              Value offset = store.swizzled(
                  row, e.add(e.i32(8 * c8 * elementBytes), pairColBytes));
              LLVM::StoreOp::create(b, loc,
                                    pack(valueAt(m, i), valueAt(m, i + 1)),
                                    e.bytePtr(buffer, offset),
                                    /*alignment=*/8);
            }
          }
        }
      }
      store.endBlock(buffer, block);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A rows vector into global memory. Each row's value is in the four
/// threads of its quad (cta.reduce_rows leaves it in all of them); the one
/// that holds the row's column 0 writes it with a plain store, rows at or
/// past the destination's last extent and the row limit skipped. (One f32
/// per row, 256 bytes per warpgroup: no staging buffer or bulk copy pays.)
struct StoreRowsLowering : public AbiPattern<cta::StoreRowsOp> {
  using AbiPattern::AbiPattern;

  LogicalResult
  matchAndRewrite(cta::StoreRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    FailureOr<VectorDestination> dest = rowsDestination(
        e, op, adaptor.getIndices(), adaptor.getRowLimit(), abis.of(op),
        abis.kernelOf(op));
    if (failed(dest))
      return rewriter.notifyMatchFailure(op, "unknown destination extents");
    Value lane = e.warpgroupLane();
    Value writer =
        e.eq(e.threadMap(target::wgmmaPairColumn, lane), e.i32(0));
    Value firstRow = e.add(e.toI32(adaptor.getIndices().back()),
                           e.threadMap(target::wgmmaQuadRow, lane));
    TileRegisters registers(e, op.getValue().getType());
    for (int64_t m = 0; m < registers.tile.fragments(); ++m) {
      for (int64_t i = 0; i < registers.tile.registers(); ++i) {
        Value row = e.add(
            firstRow,
            e.i32(m * kMmaRows + target::wgmmaAccumulatorRows(0)[i]));
        Value value = registers.get(adaptor.getValue(), m, i);
        dest->store(e, row, value, writer);
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A rows (cols) vector read from memory: each thread loads the two rows it
/// holds per 64-row fragment (the quad's rows, wgmmaAccumulatorRows), or
/// its C/4 columns (wgmmaPairColumn plus each register's block), clamped
/// into the tensor like every index (readF32Clamped).
struct ReadVectorLowering : public AbiPattern<cta::ReadVectorOp> {
  using AbiPattern::AbiPattern;

  LogicalResult
  matchAndRewrite(cta::ReadVectorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    SmallVector<Value> indices = e.toI32(adaptor.getIndices());
    size_t axis = indices.size() - 2;
    TileRegisters result(e, op.getResult().getType());
    bool rows = result.tile.kind == RegisterKind::rows;
    Value lane = e.warpgroupLane();
    Value selfRow = e.threadMap(target::wgmmaQuadRow, lane);
    Value selfCol = e.threadMap(target::wgmmaPairColumn, lane);
    bool failedRead = false;
    Value lowered = result.build([&](int64_t m, int64_t i) -> Value {
      auto [row, col] =
          registerPosition(e, result.tile, selfRow, selfCol, m, i);
      SmallVector<Value> at(indices);
      at[axis] = e.add(indices[axis], rows ? row : col);
      FailureOr<Value> value = readF32Clamped(e, abis.of(op), abis.kernelOf(op),
                                              op.getSource(), at);
      if (failed(value)) {
        failedRead = true;
        return e.i32(0);
      }
      return *value;
    });
    if (failedRead)
      return rewriter.notifyMatchFailure(op, "unknown source extents");
    rewriter.replaceOp(op, lowered);
    return success();
  }
};

/// Each column's max or sum of the warpgroup's rows, combined into the
/// destination warp by warp: the thread folds its registers of each of its
/// C/4 column slots (wgmmaColumnVectorRegister; rows at or past the limit
/// as the identity), the eight lanes that hold the same columns
/// reduce-scatter the slots (wgmmaColumnReductionShuffleMasks), and each
/// lane adds (maxes) the slots it ends with into their columns with a
/// relaxed atomic. A warp writes each column of the tile once, so a
/// 128-row tile makes eight atomics per column.
struct CombineColsLowering : public AbiPattern<cta::CombineColsOp> {
  using AbiPattern::AbiPattern;

  LogicalResult
  matchAndRewrite(cta::CombineColsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    FailureOr<VectorDestination> dest = columnsDestination(
        e, op, adaptor.getIndices(), abis.of(op), abis.kernelOf(op));
    if (failed(dest))
      return rewriter.notifyMatchFailure(op, "unknown destination extents");
    cta::ReduceKind kind = op.getKind();
    TileRegisters input(e, op.getValue().getType());
    Value lane = e.warpgroupLane();
    Value selfRow = e.threadMap(target::wgmmaQuadRow, lane);
    Value selfCol = e.threadMap(target::wgmmaPairColumn, lane);
    // The rows of the warpgroup's slice that the product has (signed: the
    // last warpgroup of an edge tile may have none).
    Value rowsLeft =
        e.sub(e.toI32(adaptor.getRowLimit()), e.toI32(adaptor.getRow()));
    Value identity = reductionIdentity(e, kind);
    ArrayRef<unsigned> masks(target::wgmmaColumnReductionShuffleMasks);
    int64_t slots = input.tile.cols / 4;
    // Padded so that each lane ends with an even number of slots: its
    // first slot is then the first of an 8-column block.
    int64_t lanes = int64_t{1} << masks.size();
    int64_t padded = llvm::alignTo(slots, 2 * lanes);
    SmallVector<SmallVector<Value>> bySlot(padded);
    for (int64_t m = 0; m < input.tile.fragments(); ++m)
      for (int64_t i = 0; i < input.tile.registers(); ++i) {
        Value row =
            registerPosition(e, input.tile, selfRow, selfCol, m, i).first;
        Value inside = e.cmp(arith::CmpIPredicate::slt, row, rowsLeft);
        bySlot[target::wgmmaColumnVectorRegister(i)].push_back(
            arith::SelectOp::create(rewriter, op.getLoc(), inside,
                                    input.get(adaptor.getValue(), m, i),
                                    identity));
      }
    SmallVector<Value> values;
    for (SmallVector<Value> &slot : bySlot)
      values.push_back(slot.empty() ? identity
                                    : combineTree(e, kind, std::move(slot)));
    values = reduceScatterLanes(e, kind, std::move(values), masks, lane);
    Value first = reduceScatterFirst(e, lane, masks, padded);
    // Slot c is column wgmmaAccumulatorColumn(l, c/2, c%2): with `first`
    // even, slot first + j is column block first/2 past slot j's.
    Value blockColumns = e.i32(target::wgmmaAccumulatorColumn(0, 1, 0));
    Value base = e.add(e.toI32(adaptor.getIndices().back()),
                       e.add(selfCol, e.mul(e.udiv(first, e.i32(2)),
                                            blockColumns)));
    for (auto [j, value] : llvm::enumerate(values)) {
      int64_t at = static_cast<int64_t>(j);
      Value real = e.ult(e.add(first, e.i32(at)), e.i32(slots));
      Value column = e.add(
          base, e.i32(target::wgmmaAccumulatorColumn(0, at / 2, at % 2)));
      dest->store(e, column, value, real);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Float4s of the other part loaded before any is added: 64 registers next
/// to a 128-register accumulator stay under the math warpgroups' budget.
constexpr int64_t kJoinLoadBatch = 16;

/// The two parts of a stream-K tile meet in the workspace (KernelABI.h,
/// StreamKJoinPlan), and whichever arrives last finishes the tile, so
/// neither waits for the other: each warpgroup of a part stores its
/// registers as float4s into its part's half of the region, syncs, and one
/// thread counts its arrival on the warpgroup's counter (`atom.acq_rel.gpu`:
/// its stores published, the other part's seen); a barrier reduction tells
/// the warpgroup whether it came second. The second adds the other part's
/// float4s to its registers, resets the counter for the next launch and
/// runs the epilogue; the first goes on to its next tile. The decision is
/// per warpgroup, so every thread of one runs the same epilogue.
struct StreamKJoinLowering : public AbiPattern<cta::StreamKJoinOp> {
  using AbiPattern::AbiPattern;

  LogicalResult
  matchAndRewrite(cta::StreamKJoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    LLVM::LLVMFuncOp kernel = abis.kernelOf(op);
    auto found = abi.streamKJoins.find(op);
    if (found == abi.streamKJoins.end())
      return rewriter.notifyMatchFailure(op, "outside a warp role");
    const StreamKJoinPlan &plan = found->second;
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    MLIRContext *ctx = getContext();
    Type f32 = Float32Type::get(ctx), i64 = rewriter.getI64Type();
    Type i32 = e.i32Type();
    auto vec4 = VectorType::get({4}, f32);
    auto global = LLVM::LLVMPointerType::get(ctx, 1);

    Value kBegin = e.toI32(adaptor.getKBegin());
    Value kEnd = e.toI32(adaptor.getKEnd());
    Value kExtent = e.toI32(adaptor.getKExtent());
    Value secondPart = e.cmp(arith::CmpIPredicate::ne, kBegin, e.i32(0));
    Value split = arith::OrIOp::create(rewriter, loc, secondPart,
                                       e.ult(kEnd, kExtent));

    Value thread =
        e.sub(e.threadId(), e.i32(plan.firstWarpgroup * kWarpgroupThreads));
    Value warpgroup = e.udiv(thread, e.i32(kWarpgroupThreads));
    Value lane = e.urem(thread, e.i32(kWarpgroupThreads));
    Value rank = abi.clusterSize > 1
                     ? Value(NVVM::ClusterId::create(rewriter, loc, i32))
                     : e.i32(0);
    Value region = e.add(
        e.mul(e.toI32(adaptor.getPartial()), e.i32(abi.clusterSize)), rank);
    // Counters first, at the same place for every kernel of the manifest;
    // the sums after the counter area (KernelABI.h, StreamKJoinPlan).
    Value workspace = kernel.getArgument(abi.workspaceArg);
    Value regionOffset = e.add(
        e.i64(kWorkspaceCounterBytes),
        e.mul(arith::ExtUIOp::create(rewriter, loc, i64, region),
              e.i64(plan.regionBytes())));
    Value base = LLVM::GEPOp::create(rewriter, loc, global,
                                     rewriter.getI8Type(), workspace,
                                     ValueRange{regionOffset});
    Value own = e.bytePtr(base, e.mul(arith::ExtUIOp::create(rewriter, loc,
                                                             i32, secondPart),
                                      e.i32(plan.partBytes())));
    Value other = e.bytePtr(
        base, e.mul(arith::ExtUIOp::create(
                        rewriter, loc, i32,
                        e.cmp(arith::CmpIPredicate::eq, kBegin, e.i32(0))),
                    e.i32(plan.partBytes())));
    Value counter = e.bytePtr(
        workspace,
        e.add(e.mul(region, e.i32(kWorkspaceCounterStride)),
              e.mul(warpgroup, e.i32(16))));
    auto float4At = [&](Value part, int64_t j) {
      return e.bytePtr(part, e.mul(e.add(e.i32(j * plan.threads), thread),
                                   e.i32(16)));
    };
    // The warpgroup's named barrier, as the store uses.
    Value barrierId = e.warpgroupBarrierId();

    // Every register of every accumulator, in order: (acc, fragment, reg).
    struct Reg {
      unsigned acc;
      int64_t fragment, index;
    };
    SmallVector<Reg> registers;
    SmallVector<cta::AccType> types;
    for (auto [a, value] : llvm::enumerate(op.getAccs())) {
      auto type = llvm::cast<cta::AccType>(value.getType());
      types.push_back(type);
      for (int64_t m = 0; m < fragments(type); ++m)
        for (int64_t i = 0; i < type.getShape()[1] / 2; ++i)
          registers.push_back({static_cast<unsigned>(a), m, i});
    }
    int64_t float4s = static_cast<int64_t>(registers.size()) / 4;
    SmallVector<Value> accs(adaptor.getAccs());
    SmallVector<Type> resultTypes;
    for (Value acc : accs)
      resultTypes.push_back(acc.getType());
    resultTypes.push_back(rewriter.getI1Type());
    auto element = [&](ArrayRef<Value> values, const Reg &r) {
      return AccRegisters(e, types[r.acc]).getElement(values[r.acc], r.fragment,
                                                      r.index);
    };

    auto join = scf::IfOp::create(rewriter, loc, resultTypes, split,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      // A whole tile: its own sums, complete.
      rewriter.setInsertionPointToStart(&join.getElseRegion().front());
      SmallVector<Value> whole(accs);
      whole.push_back(arith::ConstantIntOp::create(rewriter, loc, 1, 1));
      scf::YieldOp::create(rewriter, loc, whole);

      // A part: publish, count the arrival, and finish if second.
      rewriter.setInsertionPointToStart(&join.getThenRegion().front());
      for (int64_t j = 0; j < float4s; ++j) {
        Value v = LLVM::UndefOp::create(rewriter, loc, vec4);
        for (int64_t l = 0; l < 4; ++l)
          v = LLVM::InsertElementOp::create(rewriter, loc, v,
                                            element(accs, registers[4 * j + l]),
                                            e.i32(l));
        LLVM::StoreOp::create(rewriter, loc, v, float4At(own, j),
                              /*alignment=*/16);
      }
      NVVM::BarrierOp::create(rewriter, loc, Type(), barrierId,
                              e.i32(kWarpgroupThreads), nullptr, Value());
      auto count = scf::IfOp::create(rewriter, loc, TypeRange{i32},
                                     e.eq(lane, e.i32(0)),
                                     /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard inner(rewriter);
        rewriter.setInsertionPointToStart(&count.getThenRegion().front());
        Value before = e.inlineAsm(
            i32, ValueRange{counter},
            "atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;", "=r,l,~{memory}");
        scf::YieldOp::create(
            rewriter, loc,
            ValueRange{arith::ExtUIOp::create(rewriter, loc, i32,
                                              e.eq(before, e.i32(1)))});
        rewriter.setInsertionPointToStart(&count.getElseRegion().front());
        scf::YieldOp::create(rewriter, loc, ValueRange{e.i32(0)});
      }
      // (nvvm.barrier takes a reduction only on barrier 0.)
      Value second =
          e.inlineAsm(i32, ValueRange{barrierId, count.getResult(0)},
                      "{\n.reg .pred kiln_in, kiln_out;\n"
                      "setp.ne.u32 kiln_in, $2, 0;\n"
                      "bar.red.or.pred kiln_out, $1, 128, kiln_in;\n"
                      "selp.u32 $0, 1, 0, kiln_out;\n}",
                      "=r,r,r,~{memory}");
      Value finishes = e.cmp(arith::CmpIPredicate::ne, second, e.i32(0));
      auto add = scf::IfOp::create(rewriter, loc, TypeRange(resultTypes).drop_back(),
                                   finishes, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard inner(rewriter);
        rewriter.setInsertionPointToStart(&add.getThenRegion().front());
        SmallVector<Value> sums(accs);
        // The other part's float4s in batches, each batch's loads before its
        // adds: a batch is one round trip to L2, not one per float4 (the
        // accumulator and a batch must fit the math warpgroups' registers).
        for (int64_t j0 = 0; j0 < float4s; j0 += kJoinLoadBatch) {
          int64_t j1 = std::min(float4s, j0 + kJoinLoadBatch);
          SmallVector<Value> loaded;
          for (int64_t j = j0; j < j1; ++j)
            loaded.push_back(LLVM::LoadOp::create(
                rewriter, loc, vec4, float4At(other, j), /*alignment=*/16));
          for (int64_t j = j0; j < j1; ++j) {
            for (int64_t l = 0; l < 4; ++l) {
              const Reg &r = registers[4 * j + l];
              Value sum = arith::AddFOp::create(
                  rewriter, loc, element(sums, r),
                  LLVM::ExtractElementOp::create(rewriter, loc,
                                                 loaded[j - j0], e.i32(l)));
              AccRegisters regs(e, types[r.acc]);
              Value fragment = regs.getFragment(sums[r.acc], r.fragment);
              fragment = LLVM::InsertValueOp::create(rewriter, loc, fragment,
                                                     sum, r.index);
              sums[r.acc] =
                  regs.setFragment(sums[r.acc], fragment, r.fragment);
            }
          }
        }
        // Both parts have arrived: the counter is free for the next launch.
        e.ifThen(e.eq(lane, e.i32(0)), [&] {
          LLVM::StoreOp::create(rewriter, loc, e.i32(0), counter,
                                /*alignment=*/4);
        });
        scf::YieldOp::create(rewriter, loc, sums);
        rewriter.setInsertionPointToStart(&add.getElseRegion().front());
        scf::YieldOp::create(rewriter, loc, accs);
      }
      SmallVector<Value> results(add.getResults());
      results.push_back(finishes);
      scf::YieldOp::create(rewriter, loc, results);
    }
    rewriter.replaceOp(op, join.getResults());
    return success();
  }
};

/// What the wgmma patterns lower, checked before the conversion starts.
LogicalResult checkWgmmaLowered(Operation *op, target::Chip chip) {
  // (Its verifier keeps it to math roles; a named barrier per warpgroup.)
  if (llvm::isa<cta::MmaTurnOp>(op))
    return success();
  if (auto rows = llvm::dyn_cast<cta::StoreRowsOp>(op)) {
    if (std::optional<std::string> error =
            registerTileError(rows.getValue().getType()))
      return op->emitError() << "convert-cta-to-nvvm: " << *error;
    return checkDestExtentsKnown(op, rows.getDest());
  }
  if (auto rows = llvm::dyn_cast<cta::ReadVectorOp>(op)) {
    if (std::optional<std::string> error =
            registerTileError(rows.getResult().getType()))
      return op->emitError() << "convert-cta-to-nvvm: " << *error;
    return checkDestExtentsKnown(op, rows.getSource(), "source");
  }
  if (auto cols = llvm::dyn_cast<cta::CombineColsOp>(op)) {
    if (std::optional<std::string> error =
            registerTileError(cols.getValue().getType()))
      return op->emitError() << "convert-cta-to-nvvm: " << *error;
    return checkDestExtentsKnown(op, cols.getDest());
  }
  if (llvm::isa<cta::SplatOp, cta::FragMapOp, cta::ReduceRowsOp,
                cta::ScaleRowsOp, cta::ConvertOp>(op)) {
    target::ValueOrError<bool> plan = planRegisterOp(op);
    if (!plan)
      return op->emitError() << "convert-cta-to-nvvm: " << plan.error();
    return success();
  }
  if (failed(checkLoweredAlike(op, chip)))
    return failure();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](cta::AccZeroOp zero) -> LogicalResult {
        return checkAccumulator(op, zero.getAcc().getType());
      })
      .Case([&](cta::LoadOp load) -> LogicalResult {
        if (load.getCtaPair())
          return op->emitError("convert-cta-to-nvvm: a CTA pair's copy "
                               "(cta_pair) feeds tcgen05.mma.cta_group::2, "
                               "which sm_90a does not have (sm_100a)");
        return success();
      })
      .Case([&](cta::MmaOp mma) -> LogicalResult {
        target::ValueOrError<WgmmaPlan> plan = planWgmma(mma);
        if (!plan)
          return op->emitError() << "convert-cta-to-nvvm: " << plan.error();
        return success();
      })
      .Case([&](cta::StoreOp store) -> LogicalResult {
        for (Value value : store.getValues())
          if (failed(checkAccumulator(
                  op, llvm::cast<cta::AccType>(value.getType()))))
            return failure();
        return success();
      })
      .Case([&](cta::StreamKJoinOp join) -> LogicalResult {
        for (Value value : join.getAccs())
          if (failed(checkAccumulator(
                  op, llvm::cast<cta::AccType>(value.getType()))))
            return failure();
        return success();
      })
      .Default([](Operation *) { return success(); });
}

class WgmmaLowering final : public ChipLowering {
public:
  using ChipLowering::ChipLowering;
  LogicalResult check(Operation *op) const override {
    return checkWgmmaLowered(op, chip.id);
  }
  void addTypeConversions(TypeConverter &converter) const override {
    converter.addConversion(
        [](cta::AccType type) -> Type { return accStruct(type); });
    // Fragments and row/column vectors: the registers of RegisterTile.
    converter.addConversion([](cta::FragType type) -> Type {
      return registerTileOf(type)->type();
    });
  }
  void populatePatterns(TypeConverter &converter, RewritePatternSet &patterns,
                        const KernelABIs &abis) const override {
    MLIRContext *ctx = patterns.getContext();
    patterns.add<AccZeroLowering, SplitColsLowering, MmaLowering, SplatLowering,
                 FragMapLowering, ReduceRowsLowering, ScaleRowsLowering,
                 ConvertLowering, MmaTurnLowering, MmaWaitLowering>(converter,
                                                                    ctx);
    patterns.add<ConsumeLowering, StoreLowering, StoreRowsLowering,
                 CombineColsLowering, ReadVectorLowering, StreamKJoinLowering,
                 StageReleaseLowering>(converter, ctx, abis);
  }
};

} // namespace

std::unique_ptr<ChipLowering>
kiln::createWgmmaLowering(const target::ChipInfo &chip) {
  return std::make_unique<WgmmaLowering>(chip);
}
