//===- Report.h - what `kiln compile --report` prints -----------*- C++ -*-===//
//
// Per kernel: the schedule it was given, the resources it takes (threads,
// shared memory, tensor-memory columns, registers and spills from ptxas),
// and for each `--dims` shape the work it does (tensor-core FLOPs and
// compulsory bytes) with the roofline floor on every device of the chip
// (compiler/Target/Roofline.h), so the distance to the speed of light is
// known before anything runs.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_PIPELINES_REPORT_H
#define KILN_COMPILER_PIPELINES_REPORT_H

#include "compiler/Target/Ptxas.h"
#include "compiler/Target/Roofline.h"
#include "runtime/Manifest.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// One `--dims` shape: dim names and values, in the order given.
using DimValues = std::vector<std::pair<std::string, int64_t>>;

/// Parses "M=256,N=4096,K=7168"; fails with a message.
bool parseDimValues(llvm::StringRef text, DimValues &out, std::string &error);

/// What one shape costs a kernel.
struct KernelWork {
  /// Tensor-core FLOPs (2 per multiply-add of every contraction).
  double flops = 0;
  /// Every parameter read or written once, in bytes.
  double bytes = 0;
  /// Empty when the shape could be evaluated, else why not.
  std::string error;
};

/// What the tile stage knows about one kernel.
struct KernelReport {
  std::string name;
  std::string chip;
  /// The schedule of its contraction, if it has one.
  int64_t tileM = 0, tileN = 0, tileK = 0, stages = 0, consumers = 0,
          clusterM = 1, clusterN = 1, accumulators = 0, accStages = 1;
  /// Whether the math warpgroups take whole tiles in turn (ping-pong).
  bool pingpong = false;
  /// Tensor-memory columns the schedule takes (accumulators and block
  /// scales), 0 on chips without tensor memory.
  int64_t tmemColumns = 0;
  /// The operands' rate class; none for kernels without a contraction the
  /// table covers.
  std::optional<target::MathPrecision> precision;
  /// One entry per requested shape, with the shape spelled for people.
  std::vector<std::pair<std::string, KernelWork>> work;
};

/// The report of every tile.kernel of `module` (after the tile stage) for
/// `chip` and `shapes`.
std::vector<KernelReport>
collectKernelReports(mlir::ModuleOp module, llvm::StringRef chip,
                     llvm::ArrayRef<DimValues> shapes);

/// Prints `kernel`; its `launch` and `ptxas` report add the resources when the
/// kernel was assembled (null otherwise), and `leftOutBecause` says why the
/// resource policy left an entry out of the cubin (a spill).
void printKernelReport(llvm::raw_ostream &os, const KernelReport &kernel,
                       const Launch *launch,
                       const target::PtxasFunctionReport *ptxas,
                       llvm::StringRef leftOutBecause = {});

} // namespace kiln

#endif // KILN_COMPILER_PIPELINES_REPORT_H
