//===- Report.cpp - what `kiln compile --report` prints -------------------===//

#include "compiler/Pipelines/Report.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/MLIR/ElementTypes.h"
#include "compiler/Target/TensorMemory.h"
#include "dialects/Tile/IR/TileOps.h"
#include "dialects/Tile/IR/TileShapes.h"
#include "runtime/DimExpr.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace kiln;

bool kiln::parseDimValues(StringRef text, DimValues &out, std::string &error) {
  SmallVector<StringRef> items;
  text.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (items.empty()) {
    error = "--dims: expected NAME=VALUE[,NAME=VALUE...]";
    return false;
  }
  for (StringRef item : items) {
    auto [name, value] = item.trim().split('=');
    int64_t number = 0;
    if (!isDimName(name.str()) || value.getAsInteger(10, number) ||
        number < 0) {
      error = ("--dims: '" + item.trim() +
               "' is not NAME=non-negative-integer")
                  .str();
      return false;
    }
    for (const auto &[seen, unused] : out)
      if (seen == name) {
        error = ("--dims: " + name + " is given twice").str();
        return false;
      }
    out.push_back({name.str(), number});
  }
  return true;
}

namespace {

/// The extents of a tile tensor for `dims`, or a message naming what is
/// missing.
FailureOr<SmallVector<int64_t>> extentsOf(Value tensor, const DimValues &dims,
                                          std::string &error) {
  auto type = llvm::cast<RankedTensorType>(tensor.getType());
  SmallVector<int64_t> extents;
  for (tile::DimExprAttr dim : tile::getDimAttrs(type)) {
    DimExpr expr = dim.getExpr();
    std::string text = expr.str();
    int64_t nameValue = 0;
    if (expr.kind != DimExpr::Kind::Const) {
      auto found = llvm::find_if(
          dims, [&](const auto &dim) { return dim.first == expr.name; });
      if (found == dims.end()) {
        error = "--dims has no value for " + expr.name;
        return failure();
      }
      nameValue = found->second;
    }
    int64_t value = 0;
    if (!expr.evaluate(nameValue, value) || value < 0) {
      error = "extent '" + text + "' overflows or is negative";
      return failure();
    }
    extents.push_back(value);
  }
  return extents;
}

double elementsOf(ArrayRef<int64_t> extents) {
  double n = 1;
  for (int64_t e : extents)
    n *= static_cast<double>(e);
  return n;
}

double bitsOf(Value tensor) {
  Type element = llvm::cast<RankedTensorType>(tensor.getType()).getElementType();
  if (std::optional<target::ElementType> known = target::getElementType(element))
    return target::elementBits(*known);
  return element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
}

/// 2 * M * N * K of one product `lhs x rhs` (rhs transposed when
/// `transposeB`), batch axes included; -1 with a message on failure.
double productFlops(Value lhs, Value rhs, bool transposeA, bool transposeB,
                    const DimValues &dims, std::string &error) {
  FailureOr<SmallVector<int64_t>> a = extentsOf(lhs, dims, error);
  FailureOr<SmallVector<int64_t>> b = extentsOf(rhs, dims, error);
  if (failed(a) || failed(b) || a->size() < 2 || b->size() < 2)
    return -1;
  size_t ra = a->size(), rb = b->size();
  double m = (*a)[transposeA ? ra - 1 : ra - 2];
  double k = (*a)[transposeA ? ra - 2 : ra - 1];
  double n = (*b)[transposeB ? rb - 2 : rb - 1];
  double batch = elementsOf(ArrayRef<int64_t>(*a).drop_back(2));
  return 2 * batch * m * n * k;
}

/// FLOPs of an attention op, FlashAttention's count: its two products,
/// 2 S T d (scores) and 2 S T dv (output) per batch entry, halved under the
/// causal mask (S = T: the kept half of the scores). Mask regions count
/// every score. Packed sequences fail: their work depends on the offsets.
double attentionFlops(tile::AttentionOp attention, const DimValues &dims,
                      std::string &error) {
  if (attention.getQOffsets()) {
    error = "the work of packed sequences depends on their offsets";
    return -1;
  }
  FailureOr<SmallVector<int64_t>> q = extentsOf(attention.getQ(), dims, error);
  FailureOr<SmallVector<int64_t>> k = extentsOf(attention.getK(), dims, error);
  FailureOr<SmallVector<int64_t>> v = extentsOf(attention.getV(), dims, error);
  if (failed(q) || failed(k) || failed(v))
    return -1;
  size_t rank = q->size();
  double batch = elementsOf(ArrayRef<int64_t>(*q).drop_back(2));
  double s = (*q)[rank - 2], t = (*k)[rank - 2];
  double d = (*q)[rank - 1], dv = (*v)[rank - 1];
  double flops = 2 * batch * s * t * (d + dv);
  return attention.getMaskKind() == tile::AttentionMask::causal ? flops / 2
                                                                : flops;
}

KernelWork measure(tile::KernelOp kernel, const DimValues &dims) {
  KernelWork work;
  for (Value arg : kernel.getBody().getArguments()) {
    FailureOr<SmallVector<int64_t>> extents = extentsOf(arg, dims, work.error);
    if (failed(extents))
      return work;
    work.bytes += elementsOf(*extents) * bitsOf(arg) / 8;
  }
  auto ret = llvm::cast<tile::ReturnOp>(kernel.getBody().front().getTerminator());
  for (Value out : ret.getValues()) {
    FailureOr<SmallVector<int64_t>> extents = extentsOf(out, dims, work.error);
    if (failed(extents))
      return work;
    work.bytes += elementsOf(*extents) * bitsOf(out) / 8;
  }
  auto add = [&](double flops) {
    if (flops < 0)
      return false;
    work.flops += flops;
    return true;
  };
  WalkResult walk = kernel.walk([&](Operation *op) {
    bool ok = true;
    if (auto contract = llvm::dyn_cast<tile::ContractOp>(op)) {
      for (Attribute attr : contract.getContractions()) {
        auto mma = llvm::cast<tile::MmaAttr>(attr);
        ok &= add(productFlops(contract.getInputs()[mma.getLhs()],
                               contract.getInputs()[mma.getRhs()],
                               mma.getTransposeA(), mma.getTransposeB(), dims,
                               work.error));
      }
    } else if (auto matmul = llvm::dyn_cast<tile::MatmulOp>(op)) {
      ok = add(productFlops(matmul.getLhs(), matmul.getRhs(), false,
                            matmul.getTransposeB(), dims, work.error));
    } else if (auto scaled = llvm::dyn_cast<tile::ScaledMatmulOp>(op)) {
      ok = add(productFlops(scaled.getLhs(), scaled.getRhs(), false,
                            scaled.getTransposeB(), dims, work.error));
    } else if (auto attention = llvm::dyn_cast<tile::AttentionOp>(op)) {
      ok = add(attentionFlops(attention, dims, work.error));
    }
    return ok ? WalkResult::advance() : WalkResult::interrupt();
  });
  if (walk.wasInterrupted() && work.error.empty())
    work.error = "cannot count the kernel's products";
  return work;
}

/// The operand type of the kernel's first product.
std::optional<target::MathPrecision> precisionOf(tile::KernelOp kernel) {
  Value lhs;
  kernel.walk([&](Operation *op) {
    if (lhs)
      return;
    if (auto contract = llvm::dyn_cast<tile::ContractOp>(op))
      lhs = contract.getInputs()[llvm::cast<tile::MmaAttr>(
                                     contract.getContractions()[0])
                                     .getLhs()];
    else if (auto matmul = llvm::dyn_cast<tile::MatmulOp>(op))
      lhs = matmul.getLhs();
    else if (auto scaled = llvm::dyn_cast<tile::ScaledMatmulOp>(op))
      lhs = scaled.getLhs();
    else if (auto attention = llvm::dyn_cast<tile::AttentionOp>(op))
      lhs = attention.getQ();
  });
  if (!lhs)
    return std::nullopt;
  std::optional<target::ElementType> element = target::getElementType(
      llvm::cast<RankedTensorType>(lhs.getType()).getElementType());
  if (!element)
    return std::nullopt;
  return target::mathPrecisionOf(*element);
}

std::string spell(const DimValues &dims) {
  std::string text;
  for (const auto &[name, value] : dims)
    text += (text.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return text;
}

/// 1234567 -> "1,234,567".
std::string grouped(uint64_t value) {
  std::string digits = std::to_string(value), text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      text += ',';
    text += digits[i];
  }
  return text;
}

/// Seconds as "12.3 us" or "4.56 ms".
std::string duration(double seconds) {
  if (seconds < 1e-3)
    return llvm::formatv("{0:F2} us", seconds * 1e6).str();
  return llvm::formatv("{0:F3} ms", seconds * 1e3).str();
}

} // namespace

std::vector<KernelReport>
kiln::collectKernelReports(ModuleOp module, StringRef chip,
                           ArrayRef<DimValues> shapes) {
  std::vector<KernelReport> reports;
  for (auto kernel : module.getOps<tile::KernelOp>()) {
    KernelReport report;
    report.name = kernel.getSymName().str();
    report.chip = chip.str();
    // The first scheduled product's tiles (an attention: its scores and
    // output are the accumulators).
    auto take = [&](std::optional<tile::ScheduleAttr> schedule,
                    int64_t accumulators) {
      if (!schedule || report.tileM)
        return;
      report.tileM = schedule->getTileM();
      report.tileN = schedule->getTileN();
      report.tileK = schedule->getTileK();
      report.stages = schedule->getStages();
      report.consumers = schedule->getConsumers();
      report.clusterM = schedule->getClusterM();
      report.clusterN = schedule->getClusterN();
      report.accumulators = accumulators;
      report.accStages = schedule->getAccStages();
      report.pingpong = schedule->getPingpong();
    };
    kernel.walk([&](Operation *op) {
      if (auto contract = llvm::dyn_cast<tile::ContractOp>(op))
        take(contract.getSchedule(), contract.getContractions().size());
      else if (auto attention = llvm::dyn_cast<tile::AttentionOp>(op))
        take(attention.getSchedule(), 2);
    });
    if (std::optional<int64_t> columns = kernel.getTmemColumns())
      report.tmemColumns = *columns;
    report.precision = precisionOf(kernel);
    for (const DimValues &dims : shapes)
      report.work.push_back({spell(dims), measure(kernel, dims)});
    reports.push_back(std::move(report));
  }
  return reports;
}

void kiln::printKernelReport(llvm::raw_ostream &os, const KernelReport &kernel,
                             const Launch *launch,
                             const target::PtxasFunctionReport *ptxas,
                             StringRef leftOutBecause) {
  os << "kernel " << kernel.name << " (" << kernel.chip << ")\n";
  const target::ChipInfo *chip = target::lookupChip(kernel.chip);
  if (kernel.tileM) {
    os << "  schedule: tile " << kernel.tileM << "x" << kernel.tileN << "x"
       << kernel.tileK;
    if (chip && chip->tensorMemoryColumns &&
        kernel.tileM == target::ctaPairSize * target::tmemLanes)
      os << " (CTA pair, " << target::tmemLanes << " rows per CTA)";
    os << ", " << kernel.stages << " stages, ";
    // With tensor-memory accumulators one MMA warp feeds epilogue
    // warpgroups through accumulator sets (docs/architecture.md, 7.1).
    if (chip && chip->tensorMemoryColumns)
      os << "MMA warp + " << kernel.consumers << " epilogue warpgroup(s), "
         << kernel.accStages << " accumulator set(s)";
    else
      os << kernel.consumers << " math warpgroup(s)"
         << (kernel.pingpong ? " taking whole tiles in turn (ping-pong)" : "");
    os << ", cluster " << kernel.clusterM << "x" << kernel.clusterN << ", "
       << kernel.accumulators << " accumulator(s)\n";
  }
  if (launch) {
    os << "  resources: "
       << launch->block[0] * launch->block[1] * launch->block[2] << " threads, "
       << grouped(launch->dynamicSmem)
       << " B dynamic shared memory";
    if (chip)
      os << " (of " << grouped(chip->smemPerBlockOptIn) << ")";
    if (chip && chip->tensorMemoryColumns && kernel.tmemColumns) {
      target::ValueOrError<uint32_t> columns = target::tmemAllocationColumns(
          static_cast<uint32_t>(kernel.tmemColumns));
      if (columns)
        os << ", " << *columns << " tensor-memory columns (of "
           << chip->tensorMemoryColumns << ")";
    }
    os << "\n";
  } else if (!leftOutBecause.empty()) {
    os << "  left out of the cubin: it breaks the resource policy ("
       << leftOutBecause << "); the kernel's other entries serve every shape\n";
  } else {
    os << "  resources: not known (the kernel was not assembled)\n";
  }
  if (ptxas)
    os << "  ptxas: " << ptxas->registers << " registers per thread, "
       << ptxas->spillStoreBytes << " B spill stores, " << ptxas->spillLoadBytes
       << " B spill loads, " << ptxas->barriers << " named barriers\n";
  for (const auto &[shape, work] : kernel.work) {
    os << "  at " << shape << ": ";
    if (!work.error.empty()) {
      os << work.error << "\n";
      continue;
    }
    os << llvm::formatv("{0:F1} GFLOP", work.flops * 1e-9) << ", "
       << llvm::formatv("{0:F1} MB", work.bytes * 1e-6) << " compulsory traffic\n";
    std::vector<const target::DevicePeak *> devices =
        target::devicesForChip(kernel.chip);
    for (const target::DevicePeak *device : devices) {
      os << "    " << device->name << ": ";
      std::optional<target::RooflineFloor> floor =
          kernel.precision ? target::rooflineFloor(*device, *kernel.precision,
                                                   work.flops, work.bytes)
                           : std::nullopt;
      if (!floor) {
        os << "no tensor-core rate for these operands\n";
        continue;
      }
      double seconds = floor->seconds();
      os << "floor " << duration(seconds) << " ("
         << (floor->computeBound() ? "compute" : "memory") << "-bound; math "
         << duration(floor->computeSeconds) << " at "
         << llvm::formatv("{0:F0}",
                          device->flopsPerSecond(*kernel.precision) * 1e-12)
         << " TFLOP/s " << target::mathPrecisionName(*kernel.precision)
         << ", memory " << duration(floor->memorySeconds) << " at "
         << llvm::formatv("{0:F2}", device->memoryBytesPerSecond * 1e-12)
         << " TB/s) = at most "
         << llvm::formatv("{0:F0}", seconds > 0 ? work.flops / seconds * 1e-12
                                                : 0.0)
         << " TFLOP/s\n";
    }
  }
}
