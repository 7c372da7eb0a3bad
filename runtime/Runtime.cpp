//===- Runtime.cpp - Load and launch Kiln kernels -------------------------===//
//
// Everything that talks to the driver lives here, calling it through the table
// of CudaDriver.h, which loads libcuda.so.1 at the first launch or prepare();
// what can be decided without it (validation, dims, grid, tensor-map
// arguments, kernel-arg packing) comes from KilnRuntimeCore.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"

#include "runtime/ArgCheck.h"
#include "runtime/CudaDriver.h"
#include "runtime/DeviceCheck.h"
#include "runtime/OffsetsCheck.h"
#include "runtime/Format.h"
#include "runtime/KernelArgs.h"
#include "runtime/Limits.h"
#include "runtime/ModuleFiles.h"
#include "runtime/TensorMapParams.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>

namespace kiln {

// The core computes CUDA enum values without including cuda.h; keep them
// honest.
static_assert(static_cast<uint32_t>(TmaDataType::UInt8) ==
                  CU_TENSOR_MAP_DATA_TYPE_UINT8,
              "");
static_assert(static_cast<uint32_t>(TmaDataType::Int32) ==
                  CU_TENSOR_MAP_DATA_TYPE_INT32,
              "");
static_assert(static_cast<uint32_t>(TmaDataType::Float16) ==
                  CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
              "");
static_assert(static_cast<uint32_t>(TmaDataType::Float32) ==
                  CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
              "");
static_assert(static_cast<uint32_t>(TmaDataType::BFloat16) ==
                  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
              "");
static_assert(static_cast<uint32_t>(TmaDataType::U4x16Align8B) ==
                  CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
              "");
static_assert(static_cast<uint32_t>(Swizzle::B128) ==
                  CU_TENSOR_MAP_SWIZZLE_128B,
              "");
static_assert(static_cast<uint32_t>(Swizzle::B64) == CU_TENSOR_MAP_SWIZZLE_64B,
              "");
static_assert(static_cast<uint32_t>(Swizzle::B32) == CU_TENSOR_MAP_SWIZZLE_32B,
              "");
static_assert(static_cast<uint32_t>(L2Promotion::B256) ==
                  CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
              "");
static_assert(static_cast<uint32_t>(L2Promotion::B128) ==
                  CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
              "");
static_assert(static_cast<uint32_t>(L2Promotion::B64) ==
                  CU_TENSOR_MAP_L2_PROMOTION_L2_64B,
              "");
static_assert(static_cast<uint32_t>(OobFill::NaN) ==
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
              "");
static_assert(sizeof(TensorMapBytes) == sizeof(CUtensorMap), "");
static_assert(alignof(TensorMapBytes) == alignof(CUtensorMap), "");

namespace {

/// The driver's entry points. Only for code that runs after initDriver()
/// succeeded: every path to a CUDA call starts in Module::Impl::acquire, and a
/// module holds contexts (which its destructor releases) only after one did.
const driver::CudaDriver &cu() { return *driver::loadedCudaDriver(); }

} // namespace

std::string cudaErrorText(CUresult r) {
  const char *name = nullptr, *text = nullptr;
  // Callers may have a CUresult from their own driver calls; without a driver
  // here the code is all there is to say.
  const driver::CudaDriver *d = nullptr;
  if (driver::cudaDriver(d).ok()) {
    d->cuGetErrorName(r, &name);
    d->cuGetErrorString(r, &text);
  }
  std::string s =
      name ? name : "CUDA error " + std::to_string(static_cast<int>(r));
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

namespace {

Status cudaFailure(const std::string &what, CUresult r) {
  return Status::error(ErrorCode::Cuda, what + ": " + cudaErrorText(r));
}

/// Loads the driver and runs cuInit, once per process; both outcomes are
/// remembered, so every call reports the same failure.
Status initDriver() {
  const driver::CudaDriver *d = nullptr;
  Status s = driver::cudaDriver(d);
  if (!s.ok())
    return s;
  static std::once_flag once;
  static CUresult result = CUDA_SUCCESS;
  std::call_once(once, [d] { result = d->cuInit(0); });
  if (result != CUDA_SUCCESS)
    return cudaFailure("cuInit failed (is there a GPU and an NVIDIA driver?)",
                       result);
  return Status();
}

/// Pushes a context for the duration of a launch when it is not the current
/// one.
class ContextScope {
public:
  ContextScope() = default;
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;
  ~ContextScope() {
    if (pushed) {
      CUcontext ignored;
      cu().cuCtxPopCurrent(&ignored);
    }
  }
  CUresult enter(CUcontext ctx) {
    CUcontext current = nullptr;
    cu().cuCtxGetCurrent(&current);
    if (current == ctx)
      return CUDA_SUCCESS;
    CUresult r = cu().cuCtxPushCurrent(ctx);
    pushed = r == CUDA_SUCCESS;
    return r;
  }

private:
  bool pushed = false;
};

/// The last tensor map encoded for one manifest map in one context. Launches
/// with the same buffers (benchmark loops, CUDA-graph-like reuse) skip the
/// driver call.
struct CachedMap {
  bool valid = false;
  TensorMapEncoding encoding;
  TensorMapBytes bytes;
};

/// One kernel (the primary or a variant) of the module in one context.
struct KernelState {
  CUfunction function = nullptr;
  FunctionInfo functionInfo;
  /// For a kernel launched in clusters: how many of its clusters the device
  /// runs at once (cuOccupancyMaxActiveClusters), which caps a persistent
  /// grid; 0 when unknown (then the cap is floor(SMs / cluster) clusters).
  int64_t residentClusters = 0;
  /// One per tensor map of this kernel; guarded by ContextState::cacheMutex.
  std::vector<CachedMap> cache;
};

/// Zeroed device scratch for kernels that take a workspace (stream-K
/// partial tiles). Kernels leave it zero, so it is cleared once, when it is
/// allocated, at the size the largest grid of any variant needs, so that it
/// never grows (a stream being captured into a CUDA graph could not wait
/// for the old one). One per stream: launches on one stream run one after
/// another, launches on different streams may overlap and must not share
/// it. A graph keeps the workspace of the stream it was captured on.
struct Workspace {
  CUstream stream = nullptr;
  CUdeviceptr pointer = 0;
  size_t bytes = 0;
};

/// The module loaded into one context.
struct ContextState {
  CUcontext ctx = nullptr;
  CUmodule module = nullptr;
  DeviceInfo device;
  /// Indexed by variant (0 = the primary).
  std::vector<KernelState> kernels;
  std::mutex cacheMutex;
  /// Per param: the last pointer checkPointers accepted in this context, so
  /// repeated launches on the same buffers skip the driver queries.
  std::vector<uint64_t> checkedPointers;
  /// Guarded by cacheMutex.
  std::vector<Workspace> workspaces;
  /// Zeroes new workspaces off the caller's stream (created with the first).
  CUstream zeroStream = nullptr;
};

} // namespace

struct Module::Impl {
  LaunchPlan plan;
  std::string cubin;
  /// The cubin's path (or the caller's label) for messages.
  std::string cubinName;
  bool debug = false;

  /// The variant of the most recent successful launch; -1 before the first.
  std::atomic<int> lastVariant{-1};
  /// Module::pinVariant's variant, -1 for the cost rule's choice.
  std::atomic<int> pinnedVariant{-1};
  /// The variant launches with these dims run: the pinned one, else the
  /// cost rule's.
  int variantFor(const BoundDims &dims, int smCount) const {
    int pinned = pinnedVariant.load(std::memory_order_relaxed);
    return pinned >= 0 ? pinned : kiln::chooseVariant(plan, dims, smCount);
  }
  /// Module::setCheckOffsets.
  std::atomic<bool> checkOffsets{false};

  std::mutex mutex;
  std::vector<std::unique_ptr<ContextState>> contexts;
  std::vector<CUdevice> retainedPrimary;

  ~Impl();
  Status acquire(CUstream stream, const Tensor *args, size_t count,
                 ContextScope &scope, ContextState *&out);
  Status stateFor(CUcontext ctx, ContextState *&out);
  Status loadInto(ContextState &cs);
  Status loadKernel(ContextState &cs, const LaunchPlan &kp, KernelState &ks);
  Status checkPointers(ContextState &cs, const Tensor *args, size_t count);
  Status encodeMaps(ContextState &cs, const LaunchPlan &kp, KernelState &ks,
                    const Tensor *args, KernelArgPack &pack,
                    LaunchReport *report);
  Status workspaceFor(ContextState &cs, CUstream stream, size_t bytes,
                      uint64_t &out);
  Status checkSegments(const Tensor *args, const BoundDims &dims,
                       CUstream stream);
  /// All of a launch but issuing it (Module::launch, prepareLaunch).
  Status prepareLaunch(const Tensor *args, size_t count, CUstream stream,
                       PreparedLaunch::State &st, LaunchReport *report);
};

/// The checking mode: each group offsets param the manifest lists, read
/// after the work queued on `stream` (which may write it) has finished.
Status Module::Impl::checkSegments(const Tensor *args, const BoundDims &dims,
                                   CUstream stream) {
  const Manifest &m = plan.manifest;
  if (!cu().cuMemcpyDtoH)
    return Status::error(ErrorCode::Device,
                         "checking offsets: the driver has no cuMemcpyDtoH");
  CUresult r = cu().cuStreamSynchronize(stream);
  if (r != CUDA_SUCCESS)
    return Status::error(ErrorCode::Device,
                         "checking offsets: synchronizing the stream failed "
                         "(it cannot run inside stream capture): " +
                             cudaErrorText(r));
  for (const Segments &g : m.segments) {
    int p = m.findParam(g.param), d = m.findDim(g.rows);
    if (p < 0 || d < 0)
      continue; // validateManifest refused such a manifest.
    const Tensor &t = args[p];
    std::vector<int32_t> host(static_cast<size_t>(t.shape[0]));
    for (size_t i = 0; i < host.size();) {
      // Contiguous entries in one copy; a strided view one entry at a time.
      size_t run = t.strides[0] == 1 ? host.size() : 1;
      r = cu().cuMemcpyDtoH(
          host.data() + i,
          static_cast<CUdeviceptr>(t.data + i * t.strides[0] * sizeof(int32_t)),
          run * sizeof(int32_t));
      if (r != CUDA_SUCCESS)
        return Status::error(ErrorCode::Device,
                             "checking offsets: reading '" + g.param +
                                 "' failed: " + cudaErrorText(r));
      i += run;
    }
    std::string error;
    if (!checkGroupOffsets(host.data(), host.size(), dims.values[d], g.param,
                           g.rows, error))
      return Status::error(ErrorCode::Argument, error);
  }
  return Status();
}

Module::Impl::~Impl() {
  for (auto &cs : contexts) {
    if (!cs->module)
      continue;
    // Unloading needs the module's context; errors (a destroyed context, a
    // driver shutting down at exit) leave nothing to clean up.
    if (cu().cuCtxPushCurrent(cs->ctx) == CUDA_SUCCESS) {
      for (const Workspace &w : cs->workspaces)
        cu().cuMemFree(w.pointer);
      if (cs->zeroStream)
        cu().cuStreamDestroy(cs->zeroStream);
      cu().cuModuleUnload(cs->module);
      CUcontext ignored;
      cu().cuCtxPopCurrent(&ignored);
    }
  }
  for (CUdevice d : retainedPrimary)
    cu().cuDevicePrimaryCtxRelease(d);
}

Status Module::Impl::acquire(CUstream stream, const Tensor *args, size_t count,
                             ContextScope &scope, ContextState *&out) {
  Status s = initDriver();
  if (!s.ok())
    return s;

  CUresult r;
  CUcontext ctx = nullptr;
  if (stream != nullptr && stream != CU_STREAM_LEGACY &&
      stream != CU_STREAM_PER_THREAD) {
    if ((r = cu().cuStreamGetCtx(stream, &ctx)) != CUDA_SUCCESS)
      return cudaFailure("cannot find the context of the stream", r);
    if ((r = scope.enter(ctx)) != CUDA_SUCCESS)
      return cudaFailure("cannot make the stream's context current", r);
  } else {
    if ((r = cu().cuCtxGetCurrent(&ctx)) != CUDA_SUCCESS)
      return cudaFailure("cuCtxGetCurrent", r);
    if (!ctx) {
      // No context on this thread: use the primary context of the device that
      // holds the tensors (device 0 if none says), as the CUDA runtime and
      // PyTorch would.
      CUdevice dev = 0;
      for (size_t i = 0; i < count; ++i) {
        int ordinal = -1;
        if (args[i].data && args[i].numel() > 0 &&
            cu().cuPointerGetAttribute(
                &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                static_cast<CUdeviceptr>(args[i].data)) == CUDA_SUCCESS &&
            ordinal >= 0) {
          dev = ordinal;
          break;
        }
      }
      std::lock_guard<std::mutex> lock(mutex);
      if ((r = cu().cuDevicePrimaryCtxRetain(&ctx, dev)) != CUDA_SUCCESS)
        return cudaFailure("cannot retain the primary context of device " +
                               std::to_string(dev),
                           r);
      bool known = false;
      for (CUdevice d : retainedPrimary)
        known |= d == dev;
      if (known) // one reference per device is enough
        cu().cuDevicePrimaryCtxRelease(dev);
      else
        retainedPrimary.push_back(dev);
      if ((r = cu().cuCtxSetCurrent(ctx)) != CUDA_SUCCESS)
        return cudaFailure("cannot make the primary context current", r);
    }
  }
  return stateFor(ctx, out);
}

Status Module::Impl::stateFor(CUcontext ctx, ContextState *&out) {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &cs : contexts)
    if (cs->ctx == ctx) {
      out = cs.get();
      return Status();
    }
  auto cs = std::make_unique<ContextState>();
  cs->ctx = ctx;
  Status s = loadInto(*cs);
  if (!s.ok()) {
    if (cs->module)
      cu().cuModuleUnload(cs->module);
    return s;
  }
  cs->checkedPointers.assign(plan.params.size(), 0);
  out = cs.get();
  contexts.push_back(std::move(cs));
  return Status();
}

Status Module::Impl::loadInto(ContextState &cs) {
  CUdevice dev;
  CUresult r = cu().cuCtxGetDevice(&dev);
  if (r != CUDA_SUCCESS)
    return cudaFailure("cuCtxGetDevice", r);
  DeviceInfo &info = cs.device;
  info.ordinal = static_cast<int>(dev);
  char name[256] = {};
  if (cu().cuDeviceGetName(name, sizeof name - 1, dev) == CUDA_SUCCESS)
    info.name = name;
  int v = 0;
  auto attr = [&](CUdevice_attribute a, const char *what, int &out) -> Status {
    CUresult rr = cu().cuDeviceGetAttribute(&out, a, dev);
    return rr == CUDA_SUCCESS
               ? Status()
               : cudaFailure(std::string("querying ") + what, rr);
  };
  Status s;
  if (!(s = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                 "compute capability", info.ccMajor)) ||
      !(s = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                 "compute capability", info.ccMinor)) ||
      !(s = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "SM count",
                 info.smCount)) ||
      !(s = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                 "shared memory", v)))
    return s;
  info.maxSmemPerBlockOptin = v;

  std::string error;
  if (!checkChip(plan, info, error))
    return Status::error(ErrorCode::Device, error);

  if ((r = cu().cuModuleLoadData(&cs.module, cubin.data())) != CUDA_SUCCESS) {
    cs.module = nullptr;
    return cudaFailure(
        "cannot load " + cubinName + " on device " + std::to_string(dev), r);
  }
  cs.kernels.resize(plan.numVariants());
  for (size_t k = 0; k < plan.numVariants(); ++k)
    if (!(s = loadKernel(cs, plan.variantPlan(k), cs.kernels[k])))
      return s;
  return Status();
}

/// Looks up one kernel's entry in the loaded module and checks and configures
/// it: parameter sizes, shared memory and threads, the dynamic shared memory
/// attribute and large clusters.
Status Module::Impl::loadKernel(ContextState &cs, const LaunchPlan &kp,
                                KernelState &ks) {
  const Manifest &m = kp.manifest;
  const DeviceInfo &info = cs.device;
  std::string error;
  int v = 0;
  CUresult r;
  if ((r = cu().cuModuleGetFunction(&ks.function, cs.module,
                                    m.entry.c_str())) != CUDA_SUCCESS)
    return Status::error(ErrorCode::Manifest, cubinName + " has no entry '" +
                                                  m.entry + "' (" +
                                                  cudaErrorText(r) + ")");

  // The cubin's own parameter table (CUDA 12.4+ drivers) catches a manifest
  // that does not belong to this cubin. Only the manifest's indices are
  // queried: probing one past the end would count the cubin's parameters but is
  // reported as an API error by compute-sanitizer, so a cubin with extra
  // trailing parameters goes unnoticed. Other failures (old drivers) skip the
  // check.
  std::vector<size_t> sizes;
  bool tableKnown = true;
  for (size_t i = 0; i < kp.args.size(); ++i) {
    size_t offset = 0, size = 0;
    CUresult pr = cu().cuFuncGetParamInfo(ks.function, i, &offset, &size);
    if (pr == CUDA_ERROR_INVALID_VALUE) // the entry has only i parameters
      break;
    if (pr != CUDA_SUCCESS) {
      tableKnown = false;
      break;
    }
    sizes.push_back(size);
  }
  if (tableKnown && !checkEntryParams(kp, sizes, error))
    return Status::error(ErrorCode::Manifest, cubinName + ": " + error);

  FunctionInfo &fn = ks.functionInfo;
  if ((r = cu().cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                   ks.function)) == CUDA_SUCCESS)
    fn.staticSmem = v;
  if ((r = cu().cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                   ks.function)) == CUDA_SUCCESS)
    fn.maxThreadsPerBlock = v;
  if (!checkFunctionLimits(kp, info, fn, error))
    return Status::error(ErrorCode::Device, error);

  if ((r = cu().cuFuncSetAttribute(
           ks.function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
           static_cast<int>(m.launch.dynamicSmem))) != CUDA_SUCCESS)
    return cudaFailure("cannot allow " + std::to_string(m.launch.dynamicSmem) +
                           " bytes of dynamic shared memory for entry '" +
                           m.entry + "'",
                       r);
  const auto &c = m.launch.cluster;
  if (c[0] * c[1] * c[2] > kMaxPortableClusterCtas &&
      (r = cu().cuFuncSetAttribute(
           ks.function, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
           1)) != CUDA_SUCCESS)
    return cudaFailure("cannot allow a non-portable cluster of " +
                           std::to_string(c[0] * c[1] * c[2]) + " CTAs",
                       r);
  // A persistent kernel walks its tiles with a stride of its grid, so every
  // cluster it launches must be resident at once: the GPCs' SM counts are not
  // multiples of every cluster size (an H100 runs 66 clusters of 2 but fewer
  // than 33 of 4), and a cluster that only starts when another finishes runs
  // its whole share of tiles after it. Asked once per loaded kernel.
  if (c[0] * c[1] * c[2] > 1) {
    CUlaunchConfig cfg;
    std::memset(&cfg, 0, sizeof cfg);
    cfg.gridDimX = static_cast<unsigned>(c[0]);
    cfg.gridDimY = static_cast<unsigned>(c[1]);
    cfg.gridDimZ = static_cast<unsigned>(c[2]);
    cfg.blockDimX = static_cast<unsigned>(m.launch.block[0]);
    cfg.blockDimY = static_cast<unsigned>(m.launch.block[1]);
    cfg.blockDimZ = static_cast<unsigned>(m.launch.block[2]);
    cfg.sharedMemBytes = static_cast<unsigned>(m.launch.dynamicSmem);
    CUlaunchAttribute attr;
    std::memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = static_cast<unsigned>(c[0]);
    attr.value.clusterDim.y = static_cast<unsigned>(c[1]);
    attr.value.clusterDim.z = static_cast<unsigned>(c[2]);
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    int clusters = 0;
    if (cu().cuOccupancyMaxActiveClusters(&clusters, ks.function, &cfg) ==
            CUDA_SUCCESS &&
        clusters > 0)
      ks.residentClusters = clusters;
  }
  ks.cache.assign(kp.maps.size(), CachedMap());
  return Status();
}

Status Module::Impl::checkPointers(ContextState &cs, const Tensor *args,
                                   size_t count) {
  // A host pointer or a tensor on another device would fault inside the kernel
  // and poison the context (fatal for a PyTorch process), so it is rejected
  // here. DEVICE_POINTER is the query Triton's launcher relies on; it works for
  // cudaMalloc, memory pools and cuMemMap'd (expandable) segments.
  for (size_t i = 0; i < count; ++i) {
    const Tensor &t = args[i];
    if (t.numel() == 0)
      continue;
    {
      std::lock_guard<std::mutex> lock(cs.cacheMutex);
      if (cs.checkedPointers[i] == t.data)
        continue;
    }
    const std::string &name = plan.params[i].name;
    CUdeviceptr devPtr = 0;
    CUresult r =
        cu().cuPointerGetAttribute(&devPtr, CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
                                   static_cast<CUdeviceptr>(t.data));
    if (r != CUDA_SUCCESS)
      return Status::error(
          ErrorCode::Argument,
          "param '" + name + "': " + hexAddress(t.data) +
              " cannot be accessed by the device (a host pointer?): " +
              cudaErrorText(r));
    int ordinal = -1, managed = 0;
    if (cu().cuPointerGetAttribute(
            &ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
            static_cast<CUdeviceptr>(t.data)) == CUDA_SUCCESS &&
        ordinal >= 0 && ordinal != cs.device.ordinal) {
      cu().cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                 static_cast<CUdeviceptr>(t.data));
      if (!managed)
        return Status::error(
            ErrorCode::Argument,
            "param '" + name + "' is on device " + std::to_string(ordinal) +
                " but the launch runs on device " +
                std::to_string(cs.device.ordinal) +
                " (the stream's or the current context's device)");
    }
    std::lock_guard<std::mutex> lock(cs.cacheMutex);
    cs.checkedPointers[i] = t.data;
  }
  return Status();
}

Status Module::Impl::encodeMaps(ContextState &cs, const LaunchPlan &kp,
                                KernelState &ks, const Tensor *args,
                                KernelArgPack &pack, LaunchReport *report) {
  for (size_t i = 0; i < kp.maps.size(); ++i) {
    const PlannedMap &pm = kp.maps[i];
    TmaDecision tp;
    std::string error;
    if (!planTensorMap(kp, static_cast<int>(i), args[pm.param], tp, error))
      return Status::error(ErrorCode::Argument, error);
    if (!tp.encode) {
      pack.tmaOk[i] = 0; // the map stays zeroed
      if (report)
        report->skipped.push_back(tp.skipReason);
      if (debug)
        std::fprintf(stderr, "kiln: %s: optional tensor map skipped: %s\n",
                     plan.manifest.kernel.c_str(), tp.skipReason.c_str());
      continue;
    }
    {
      std::lock_guard<std::mutex> lock(cs.cacheMutex);
      CachedMap &c = ks.cache[i];
      if (c.valid && c.encoding == tp.encoding) {
        pack.maps[i] = c.bytes;
        continue;
      }
    }
    const TensorMapEncoding &e = tp.encoding;
    cuuint64_t dims[5], strides[4];
    cuuint32_t box[5], elementStrides[5];
    for (uint32_t a = 0; a < e.rank; ++a) {
      dims[a] = e.dims[a];
      box[a] = e.box[a];
      elementStrides[a] = e.elementStrides[a];
      if (a + 1 < e.rank)
        strides[a] = e.strides[a];
    }
    CUresult r = cu().cuTensorMapEncodeTiled(
        reinterpret_cast<CUtensorMap *>(&pack.maps[i]),
        static_cast<CUtensorMapDataType>(e.dataType), e.rank,
        reinterpret_cast<void *>(static_cast<uintptr_t>(e.address)), dims,
        strides, box, elementStrides,
        static_cast<CUtensorMapInterleave>(e.interleave),
        static_cast<CUtensorMapSwizzle>(e.swizzle),
        static_cast<CUtensorMapL2promotion>(e.l2Promotion),
        static_cast<CUtensorMapFloatOOBfill>(e.oobFill));
    if (r != CUDA_SUCCESS) {
      // planTensorMap checks every documented requirement, so this is a gap in
      // those checks.
      return cudaFailure(
          "cuTensorMapEncodeTiled rejected param '" + kp.params[pm.param].name +
              "' (" + kp.mapPath(static_cast<int>(i)) + ": dims " +
              bracketList(e.dims, static_cast<int>(e.rank)) +
              ", byte strides " +
              bracketList(e.strides, static_cast<int>(e.rank) - 1) + ", box " +
              bracketList(e.box, static_cast<int>(e.rank)) + ", address " +
              hexAddress(e.address) + "); please report this as a Kiln bug",
          r);
    }
    std::lock_guard<std::mutex> lock(cs.cacheMutex);
    CachedMap &c = ks.cache[i];
    c.valid = true;
    c.encoding = tp.encoding;
    c.bytes = pack.maps[i];
  }
  return Status();
}

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

Module::Module(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Module::~Module() = default;

const Manifest &Module::manifest() const { return impl->plan.manifest; }
const LaunchPlan &Module::plan() const { return impl->plan; }

Status Module::loadFromMemory(const Manifest &manifest, std::string cubin,
                              std::unique_ptr<Module> &out,
                              const std::string &name) {
  try {
    auto impl = std::make_unique<Impl>();
    std::string error;
    if (!buildLaunchPlan(manifest, impl->plan, error))
      return Status::error(ErrorCode::Manifest,
                           (name.empty() ? "" : name + ": ") + error);
    impl->cubinName = name.empty() ? "cubin '" + manifest.cubin + "'" : name;
    // Before the driver sees the bytes: cuModuleLoadData would also take
    // PTX text or a fatbin, and parses whatever it is given.
    if (!checkCubinImage(cubin, impl->cubinName, error))
      return Status::error(ErrorCode::Io, error);
    impl->cubin = std::move(cubin);
    const char *dbg = std::getenv("KILN_DEBUG");
    impl->debug = dbg && *dbg && std::strcmp(dbg, "0") != 0;
    impl->checkOffsets = checkOffsetsFromEnvironment();
    out.reset(new Module(std::move(impl)));
    return Status();
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal, "out of memory loading a module");
  }
}

Status Module::load(const std::string &manifestPath,
                    std::unique_ptr<Module> &out) {
  try {
    // Every check of the files and the manifest, before any CUDA call.
    Manifest m;
    std::string cubin, cubinPath;
    Status s = readModuleFiles(manifestPath, m, cubin, cubinPath);
    if (!s.ok())
      return s;
    return loadFromMemory(m, std::move(cubin), out, "'" + cubinPath + "'");
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal,
                         "out of memory loading " + manifestPath);
  }
}

Status Module::Impl::workspaceFor(ContextState &cs, CUstream stream,
                                  size_t bytes, uint64_t &out) {
  std::lock_guard<std::mutex> lock(cs.cacheMutex);
  for (const Workspace &w : cs.workspaces)
    if (w.stream == stream) {
      if (w.bytes < kWorkspaceCounterBytes + bytes)
        return Status::error(
            ErrorCode::Internal,
            "the stream-K workspace of " + std::to_string(w.bytes) +
                " bytes is smaller than the " + std::to_string(bytes) +
                " this launch needs");
      out = w.pointer;
      return Status();
    }
  // Sized for the widest grid any variant launches: persistent grids have
  // at most one CTA per SM.
  size_t perCta = 0;
  for (size_t v = 0; v < plan.numVariants(); ++v)
    perCta = std::max<size_t>(
        perCta, plan.variantPlan(v).manifest.launch.workspacePerCta);
  size_t size =
      kWorkspaceCounterBytes +
      std::max(bytes, perCta * static_cast<size_t>(std::max(cs.device.smCount, 1)));
  // Allocating while this thread's stream is captured into a CUDA graph is
  // allowed in relaxed capture mode (the allocation is not part of the
  // graph); the zeroing runs on a stream of our own and is waited for here.
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  cu().cuThreadExchangeStreamCaptureMode(&mode);
  CUdeviceptr p = 0;
  CUresult r = CUDA_SUCCESS;
  std::string what;
  if (!cs.zeroStream &&
      (r = cu().cuStreamCreate(&cs.zeroStream, CU_STREAM_NON_BLOCKING)) !=
          CUDA_SUCCESS)
    what = "cuStreamCreate for zeroing the stream-K workspace";
  else if ((r = cu().cuMemAlloc(&p, size)) != CUDA_SUCCESS)
    what = "cuMemAlloc of a " + std::to_string(size) +
           "-byte stream-K workspace";
  else if ((r = cu().cuMemsetD8Async(p, 0, size, cs.zeroStream)) !=
               CUDA_SUCCESS ||
           (r = cu().cuStreamSynchronize(cs.zeroStream)) != CUDA_SUCCESS)
    what = "zeroing the stream-K workspace";
  cu().cuThreadExchangeStreamCaptureMode(&mode);
  if (r != CUDA_SUCCESS) {
    if (p)
      cu().cuMemFree(p);
    return cudaFailure(what, r);
  }
  cs.workspaces.push_back(Workspace{stream, p, size});
  out = p;
  return Status();
}

Status Module::prepare(CUstream stream) {
  try {
    ContextScope scope;
    ContextState *cs = nullptr;
    return impl->acquire(stream, nullptr, 0, scope, cs);
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal, "out of memory");
  }
}

/// What a launch decides before issuing the kernel (Module::Impl::
/// prepareLaunch): the context, the kernel, its configuration and packed
/// arguments, and the dims the checking mode reads. Module::launch keeps it
/// on the stack; a PreparedLaunch keeps it, with a copy of the tensors.
struct PreparedLaunch::State {
  Module::Impl *impl = nullptr;
  CUcontext ctx = nullptr;
  CUfunction function = nullptr;
  CUlaunchConfig cfg;
  CUlaunchAttribute attr;
  KernelArgPack pack;
  bool empty = false;
  int variant = 0;
  /// A stream-K kernel's workspace belongs to this stream.
  bool perStream = false;
  CUstream stream = nullptr;
  /// The tensors (a PreparedLaunch's own copy; Module::launch passes the
  /// caller's).
  std::vector<Tensor> args;
  BoundDims dims;
  GridDims grid;
};

namespace {

/// Issues the launch `st` describes on `stream` in its context: the
/// checking mode's read of the offsets of `args` first, when it is on.
Status issueLaunch(const PreparedLaunch::State &st, const Tensor *args,
                   CUstream stream) {
  Module::Impl &impl = *st.impl;
  ContextScope scope;
  CUresult r = scope.enter(st.ctx);
  if (r != CUDA_SUCCESS)
    return cudaFailure("cannot make the launch's context current", r);
  Status s;
  if (impl.checkOffsets.load(std::memory_order_relaxed) &&
      !impl.plan.manifest.segments.empty() &&
      !(s = impl.checkSegments(args, st.dims, stream)))
    return s;
  if (!st.empty) {
    // Outputs the kernel accumulates into (row reductions) start from their
    // init value, written on the launch's stream just before it.
    for (size_t i = 0; i < impl.plan.params.size(); ++i) {
      ParamInit init = impl.plan.params[i].init;
      if (init == ParamInit::None || args[i].numel() == 0)
        continue;
      r = cu().cuMemsetD32Async(static_cast<CUdeviceptr>(args[i].data),
                                initBits(init),
                                static_cast<size_t>(args[i].numel()), stream);
      if (r != CUDA_SUCCESS)
        return cudaFailure("cannot write the initial value of output '" +
                               impl.plan.params[i].name + "'",
                           r);
    }
    CUlaunchConfig cfg = st.cfg;
    cfg.hStream = stream;
    cfg.attrs =
        cfg.numAttrs ? const_cast<CUlaunchAttribute *>(&st.attr) : nullptr;
    r = cu().cuLaunchKernelEx(&cfg, st.function,
                              const_cast<void **>(st.pack.params.data()),
                              nullptr);
  }
  if (r == CUDA_SUCCESS) {
    impl.lastVariant.store(st.variant, std::memory_order_relaxed);
    return Status();
  }
  const LaunchPlan &kp = impl.plan.variantPlan(st.variant);
  const Launch &l = kp.manifest.launch;
  return cudaFailure(
      "cuLaunchKernelEx failed for kernel '" + impl.plan.manifest.kernel +
          "' (entry '" + kp.manifest.entry + "', grid [" +
          std::to_string(st.grid.x) + ", " + std::to_string(st.grid.y) + ", " +
          std::to_string(st.grid.z) + "], block " +
          bracketList(l.block.data(), 3) + ", cluster " +
          bracketList(l.cluster.data(), 3) + ", dynamic smem " +
          std::to_string(l.dynamicSmem) + ")",
      r);
}

} // namespace

PreparedLaunch::PreparedLaunch() = default;
PreparedLaunch::~PreparedLaunch() = default;
PreparedLaunch::PreparedLaunch(PreparedLaunch &&) noexcept = default;
PreparedLaunch &PreparedLaunch::operator=(PreparedLaunch &&) noexcept = default;

bool PreparedLaunch::empty() const { return !state || state->empty; }

Status PreparedLaunch::launch(CUstream stream) const {
  if (!state)
    return Status::error(ErrorCode::InvalidValue,
                         "launch of a PreparedLaunch that holds no launch "
                         "(prepare it with Module::prepareLaunch)");
  if (state->perStream && stream != state->stream)
    return Status::error(
        ErrorCode::Argument,
        "kernel '" + state->impl->plan.manifest.kernel +
            "' was prepared for another stream: its stream-K workspace "
            "belongs to that stream (prepare the launch again for this one)");
  try {
    return issueLaunch(*state, state->args.data(), stream);
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal, "out of memory launching");
  }
}

Status Module::Impl::prepareLaunch(const Tensor *args, size_t count,
                                   CUstream stream, PreparedLaunch::State &st,
                                   LaunchReport *report) {
  std::string error;
  if (count > 0 && args == nullptr)
    return Status::error(ErrorCode::InvalidValue,
                         "launch: null argument array");
  BoundDims dims;
  if (!checkArguments(plan, args, count, dims, error))
    return Status::error(ErrorCode::Argument, error);

  ContextScope scope;
  ContextState *cs = nullptr;
  Status s = acquire(stream, args, count, scope, cs);
  if (!s.ok())
    return s;
  st.impl = this;
  st.ctx = cs->ctx;
  st.stream = stream;

  // The variant for these dims (integer arithmetic, no allocation); from here
  // on everything uses its plan.
  int variant = variantFor(dims, cs->device.smCount);
  const LaunchPlan &kp = plan.variantPlan(variant);
  KernelState &ks = cs->kernels[variant];
  const Launch &l = kp.manifest.launch;
  st.variant = variant;

  GridDims grid;
  if (!computeGrid(kp, dims, cs->device.smCount, grid, error,
                   ks.residentClusters))
    return Status::error(ErrorCode::Argument, error);
  st.grid = grid;
  if (report) {
    *report = LaunchReport();
    report->grid = grid;
    report->device = cs->device.ordinal;
    report->variant = variant;
    report->entry = kp.manifest.entry;
    for (int d = 0; d < 3; ++d) {
      report->block[d] = static_cast<uint32_t>(l.block[d]);
      report->cluster[d] = static_cast<uint32_t>(l.cluster[d]);
    }
    report->dynamicSmem = static_cast<uint32_t>(l.dynamicSmem);
  }
  st.dims = std::move(dims);
  if (grid.empty) {
    st.empty = true;
    return Status();
  }

  if (!(s = checkPointers(*cs, args, count)))
    return s;
  KernelArgPack &pack = st.pack;
  pack.reset(kp);
  if (!(s = encodeMaps(*cs, kp, ks, args, pack, report)))
    return s;
  if (l.workspacePerCta > 0) {
    size_t ctas = size_t(grid.x) * grid.y * grid.z;
    if (ctas > static_cast<size_t>(kWorkspaceMaxCtas))
      return Status::error(
          ErrorCode::Internal,
          "a stream-K grid of " + std::to_string(ctas) +
              " CTAs exceeds the workspace's " +
              std::to_string(kWorkspaceMaxCtas) + " counter slots");
    if (!(s = workspaceFor(*cs, stream, ctas * l.workspacePerCta,
                           pack.workspace)))
      return s;
    st.perStream = true;
  }
  packKernelArgs(kp, args, st.dims, pack);
  st.function = ks.function;

  CUlaunchConfig &cfg = st.cfg;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.gridDimX = grid.x;
  cfg.gridDimY = grid.y;
  cfg.gridDimZ = grid.z;
  cfg.blockDimX = static_cast<unsigned>(l.block[0]);
  cfg.blockDimY = static_cast<unsigned>(l.block[1]);
  cfg.blockDimZ = static_cast<unsigned>(l.block[2]);
  cfg.sharedMemBytes = static_cast<unsigned>(l.dynamicSmem);
  std::memset(&st.attr, 0, sizeof st.attr);
  if (l.cluster[0] * l.cluster[1] * l.cluster[2] != 1) {
    st.attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    st.attr.value.clusterDim.x = static_cast<unsigned>(l.cluster[0]);
    st.attr.value.clusterDim.y = static_cast<unsigned>(l.cluster[1]);
    st.attr.value.clusterDim.z = static_cast<unsigned>(l.cluster[2]);
    cfg.numAttrs = 1;
  }
  if (debug || report) {
    std::string argText = describeKernelArgs(kp, pack);
    if (debug)
      std::fprintf(
          stderr,
          "kiln: launch %s (entry %s) on device %d: grid [%u, %u, "
          "%u] block [%u, %u, %u] "
          "cluster [%u, %u, %u] smem %u\n%s%s",
          plan.manifest.kernel.c_str(), kp.manifest.entry.c_str(),
          cs->device.ordinal, grid.x, grid.y, grid.z, cfg.blockDimX,
          cfg.blockDimY, cfg.blockDimZ, static_cast<unsigned>(l.cluster[0]),
          static_cast<unsigned>(l.cluster[1]),
          static_cast<unsigned>(l.cluster[2]), cfg.sharedMemBytes,
          describeVariantChoice(plan, st.dims, cs->device.smCount).c_str(),
          argText.c_str());
    if (report) {
      report->kernelArgs = std::move(argText);
      report->tmaOk.assign(pack.tmaOk.begin(), pack.tmaOk.end());
    }
  }
  return Status();
}

Status Module::prepareLaunch(const Tensor *args, size_t count, CUstream stream,
                             PreparedLaunch &out) {
  try {
    auto st = std::make_unique<PreparedLaunch::State>();
    Status s = impl->prepareLaunch(args, count, stream, *st, nullptr);
    if (!s.ok())
      return s;
    st->args.assign(args, args + count);
    out.state = std::move(st);
    return Status();
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal,
                         "out of memory preparing a launch");
  }
}

Status Module::launch(const Tensor *args, size_t count, CUstream stream,
                      LaunchReport *report) {
  try {
    PreparedLaunch::State st;
    Status s = impl->prepareLaunch(args, count, stream, st, report);
    if (!s.ok() || !(s = issueLaunch(st, args, stream)))
      return s;
    if (report)
      report->launched = !st.empty;
    return Status();
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal,
                         "out of memory preparing a launch");
  }
}

Status Module::inferShapes(const Tensor *args, const bool *known, size_t count,
                           std::vector<std::vector<int64_t>> &shapes,
                           std::vector<int64_t> *dims) const {
  try {
    if (count > 0 && args == nullptr)
      return Status::error(ErrorCode::InvalidValue,
                           "inferShapes: null argument array");
    BoundDims bound;
    std::string error;
    if (!kiln::inferShapes(impl->plan, args, known, count, shapes, bound,
                           error))
      return Status::error(ErrorCode::Argument, error);
    if (dims)
      *dims = bound.values;
    return Status();
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal, "out of memory");
  }
}

size_t Module::numVariants() const { return impl->plan.numVariants(); }

const std::string &Module::variantEntry(size_t k) const {
  return impl->plan.variantPlan(k).manifest.entry;
}

int Module::lastVariant() const {
  return impl->lastVariant.load(std::memory_order_relaxed);
}

void Module::setCheckOffsets(bool on) {
  impl->checkOffsets.store(on, std::memory_order_relaxed);
}

bool Module::checkOffsets() const {
  return impl->checkOffsets.load(std::memory_order_relaxed);
}

Status Module::pinVariant(int variant) {
  if (variant < -1 || variant >= static_cast<int>(numVariants()))
    return Status::error(ErrorCode::InvalidValue,
                         "pinVariant: variant " + std::to_string(variant) +
                             " is not -1 (the cost rule) or one of the " +
                             std::to_string(numVariants()) + " variants");
  impl->pinnedVariant.store(variant, std::memory_order_relaxed);
  return Status();
}

int Module::pinnedVariant() const {
  return impl->pinnedVariant.load(std::memory_order_relaxed);
}

/// The dims a variant query binds from `args` (the `known` ones), checked:
/// every dim a grid the choice compares uses must be bound.
static Status bindDimsForChoice(const LaunchPlan &plan, const Tensor *args,
                                const bool *known, size_t count, int smCount,
                                BoundDims &dims) {
  if (count > 0 && args == nullptr)
    return Status::error(ErrorCode::InvalidValue,
                         "chooseVariant: null argument array");
  if (smCount < 1)
    return Status::error(ErrorCode::InvalidValue,
                         "chooseVariant: SM count " + std::to_string(smCount) +
                             " is not positive");
  std::string error;
  if (!bindDims(plan, args, known, count, dims, error))
    return Status::error(ErrorCode::Argument, error);
  // A launch binds every dim; a query from some tensors must bind the ones
  // the grids use, or the answer would be a guess.
  if (plan.chooseByCost)
    for (size_t k = 0; k < plan.numVariants(); ++k)
      for (const PlannedExpr &e : plan.variantPlan(k).gridExtents)
        if (e.dim >= 0 && dims.values[e.dim] < 0)
          return Status::error(ErrorCode::Argument,
                               "cannot choose a variant: dim '" +
                                   plan.dimName(e.dim) +
                                   "' (in the grid of entry '" +
                                   plan.variantPlan(k).manifest.entry +
                                   "') is not bound by any given tensor");
  return Status();
}

Status Module::explainVariant(const Tensor *args, const bool *known,
                              size_t count, int smCount,
                              std::string &text) const {
  try {
    BoundDims dims;
    Status s =
        bindDimsForChoice(impl->plan, args, known, count, smCount, dims);
    if (!s.ok())
      return s;
    text = "variant choice (" + std::to_string(smCount) + " SMs):\n" +
           describeVariantChoice(impl->plan, dims, smCount);
    int pinned = pinnedVariant();
    if (pinned >= 0)
      text += "  pinned: variant " + std::to_string(pinned) + " '" +
              variantEntry(static_cast<size_t>(pinned)) + "' runs\n";
    return Status();
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal, "out of memory");
  }
}

Status Module::chooseVariant(const Tensor *args, const bool *known,
                             size_t count, int smCount, int &variant) const {
  try {
    BoundDims dims;
    Status s =
        bindDimsForChoice(impl->plan, args, known, count, smCount, dims);
    if (!s.ok())
      return s;
    variant = impl->variantFor(dims, smCount);
    return Status();
  } catch (const std::bad_alloc &) {
    return Status::error(ErrorCode::Internal, "out of memory");
  }
}

} // namespace kiln
