//===- Runtime.h - Load and launch Kiln kernels (C++ API) ------*- C++ -*-===//
//
// A kiln::Module is one compiled kernel: its manifest and cubin. Launching it
// validates the tensors against the manifest, encodes the tensor maps, computes
// the grid and calls cuLaunchKernelEx on the caller's stream.
//
//   std::unique_ptr<kiln::Module> mod;
//   kiln::Status s = kiln::Module::load("out/matmul.kiln.json", mod);
//   if (s.ok())
//     s = mod->launch({kiln::Tensor::contiguous(a, kiln::DType::BF16, {M, K}),
//                      kiln::Tensor::contiguous(b, kiln::DType::BF16, {N, K}),
//                      kiln::Tensor::contiguous(c, kiln::DType::BF16, {M, N})},
//                      stream);
//   if (!s.ok())
//     std::cerr << s.message() << "\n";
//
// Contexts: a launch runs in the stream's context. On the default stream
// (nullptr) it runs in the current context or, if there is none, in the primary
// context of the device holding the tensors (retained and made current), which
// is the context PyTorch and the CUDA runtime use. The cubin is loaded into
// each context the first time a launch needs it and stays loaded until the
// Module is destroyed. Launches from several threads are safe.
//
// The driver (libcuda.so.1) is not linked: the first prepare() or launch() of
// the process loads it (CudaDriver.h). Without one, loading modules and the
// queries still work, and those calls return ErrorCode::Device with a message
// that says the driver could not be loaded.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_RUNTIME_H
#define KILN_RUNTIME_RUNTIME_H

#include "runtime/Grid.h"
#include "runtime/LaunchPlan.h"
#include "runtime/Manifest.h"
#include "runtime/Status.h"
#include "runtime/Tensor.h"

#include <cuda.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

/// What one launch did; filled when the caller asks for it.
struct LaunchReport {
  /// False when the grid is empty (zero tiles): nothing ran, which is not an
  /// error.
  bool launched = false;
  GridDims grid;
  std::array<uint32_t, 3> block = {1, 1, 1};
  std::array<uint32_t, 3> cluster = {1, 1, 1};
  uint32_t dynamicSmem = 0;
  /// The device ordinal the launch ran on.
  int device = -1;
  /// The kernel the launch chose (docs/manifest.md, "Variants"): 0 for the
  /// primary, k for manifest().variants[k-1]; and its entry symbol. Set for
  /// empty grids too (what would have run).
  int variant = 0;
  std::string entry;
  /// Per tensor map: 1 if encoded, 0 if optional and skipped.
  std::vector<int> tmaOk;
  /// Why optional maps were skipped (one entry per skipped map).
  std::vector<std::string> skipped;
  /// The kernel arguments, one per line (describeKernelArgs).
  std::string kernelArgs;
};

class Module;

/// A launch prepared once (Module::prepareLaunch): its arguments checked,
/// variant, grid and tensor maps chosen and its kernel arguments packed;
/// launch() issues it again with none of that work (docs/runtime.md,
/// "Prepared launches"). Valid while the module lives and the tensors keep
/// their memory, shapes and strides (the caller's promise: nothing is
/// re-checked). A default-constructed one launches nothing and fails.
class PreparedLaunch {
public:
  PreparedLaunch();
  ~PreparedLaunch();
  PreparedLaunch(PreparedLaunch &&) noexcept;
  PreparedLaunch &operator=(PreparedLaunch &&) noexcept;

  /// Launches on `stream`, which must belong to the context the launch was
  /// prepared in (a stream-K kernel's, on the stream it was prepared for:
  /// its workspace is per stream). The checking mode (setCheckOffsets), when
  /// on, still checks the offsets before each launch.
  Status launch(CUstream stream = nullptr) const;
  /// Whether the grid is empty (launch() then does nothing).
  bool empty() const;

  struct State;

private:
  friend class Module;
  std::unique_ptr<State> state;
};

class Module {
public:
  /// Reads the manifest at `manifestPath` and the cubin it names, a plain file
  /// name in the manifest's folder: both regular files, at most 16 MiB and 256
  /// MiB, the manifest valid and the cubin an ELF image (docs/runtime.md, "What
  /// the runtime reads"). No CUDA call happens here; the cubin is loaded on the
  /// first launch or prepare().
  static Status load(const std::string &manifestPath,
                     std::unique_ptr<Module> &out);
  /// The same from memory: `cubin` is the image cuModuleLoadData takes, which
  /// must be a non-empty ELF image of at most 256 MiB; `name` labels messages.
  static Status loadFromMemory(const Manifest &manifest, std::string cubin,
                               std::unique_ptr<Module> &out,
                               const std::string &name = "");

  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  const Manifest &manifest() const;
  const LaunchPlan &plan() const;

  /// Loads the cubin into the context a launch on `stream` would use and checks
  /// the device (compute capability, shared memory, threads, entry parameters),
  /// so those errors can surface before the first launch.
  Status prepare(CUstream stream = nullptr);

  /// Validates `args` (one per manifest param, in order), chooses the variant
  /// for the bound dims, encodes its tensor maps and launches it on `stream`.
  /// An empty grid returns success without launching. Kernel faults are
  /// asynchronous, as for any CUDA launch.
  Status launch(const Tensor *args, size_t count, CUstream stream = nullptr,
                LaunchReport *report = nullptr);
  Status launch(const std::vector<Tensor> &args, CUstream stream = nullptr,
                LaunchReport *report = nullptr) {
    return launch(args.data(), args.size(), stream, report);
  }

  /// Everything launch() does before issuing the kernel, kept in `out` so
  /// that out.launch() issues it again and again with a few microseconds of
  /// host time (no checks, no tensor-map encoding); `stream` picks the
  /// context (and, for stream-K kernels, the workspace) as for launch().
  Status prepareLaunch(const Tensor *args, size_t count, CUstream stream,
                       PreparedLaunch &out);

  /// Shapes of every param from the `known` tensors (see inferShapes in
  /// ArgCheck.h); used to allocate outputs. `dims` receives the bound dim
  /// values (-1 where unbound).
  Status inferShapes(const Tensor *args, const bool *known, size_t count,
                     std::vector<std::vector<int64_t>> &shapes,
                     std::vector<int64_t> *dims = nullptr) const;

  /// Kernels in the cubin: 1 + manifest().variants.size(). Variant 0 is the
  /// primary (manifest().entry), k is manifest().variants[k-1].
  size_t numVariants() const;
  /// The entry symbol of variant `k` (< numVariants()).
  const std::string &variantEntry(size_t k) const;
  /// The variant a launch with these tensors would run on a device with
  /// `smCount` SMs, without launching or any CUDA call. Dims are bound from the
  /// `known` tensors (nullptr: all) and checked as inferShapes does; every dim
  /// a grid uses must be bound.
  Status chooseVariant(const Tensor *args, const bool *known, size_t count,
                       int smCount, int &variant) const;
  /// The variant the most recent successful launch (on any thread) chose; -1
  /// before the first.
  int lastVariant() const;
  /// Every later launch (and prepared launch, and chooseVariant) runs variant
  /// `variant` instead of the one the cost rule picks; -1 gives the choice back
  /// to the cost rule. For measuring the variants and for working around a
  /// choice that is wrong on some device. InvalidValue outside
  /// -1..numVariants()-1.
  Status pinVariant(int variant);
  /// The pinned variant, -1 when none is.
  int pinnedVariant() const;
  /// Why a launch with these tensors would run the variant it would, on a
  /// device with `smCount` SMs: per variant its CTAs, waves and cost, the chosen
  /// one marked (and the pin, if any); the tensors as for chooseVariant.
  Status explainVariant(const Tensor *args, const bool *known, size_t count,
                        int smCount, std::string &text) const;

  /// The checking mode (docs/runtime.md, "Checking offsets"): before each
  /// launch, synchronize `stream`, copy the group offsets the manifest lists
  /// (`segments`) to the host and refuse the launch (ErrorCode::Argument) at
  /// the first entry outside 0 = o[0] <= ... <= o[E] = rows. Off unless
  /// $KILN_CHECK_OFFSETS was set (not "0") when the module was loaded; for
  /// debugging, not inside stream capture.
  void setCheckOffsets(bool on);
  bool checkOffsets() const;

  struct Impl;

private:
  explicit Module(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

/// "CUDA_ERROR_INVALID_VALUE (invalid argument)" for a driver result; the
/// driver supplies the words, so without one it is "CUDA error 1".
std::string cudaErrorText(CUresult r);

} // namespace kiln

#endif // KILN_RUNTIME_RUNTIME_H
