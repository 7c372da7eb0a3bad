//===- CudaDriverTest.cpp - The driver shim without a driver -------------===//
//
// The runtime loads libcuda.so.1 itself at the first call that needs the GPU
// (runtime/CudaDriver.h). These tests run where there is no driver: every
// refusal is the one clear message and nothing crashes. Tests of the
// process-wide driver run in a fresh process (gtest's "threadsafe" death-test
// style re-executes this binary) with KILN_LIBCUDA naming a missing file, so
// they give the same answer with or without a driver installed, whatever
// this process loaded before.
//
//===----------------------------------------------------------------------===//

#include "TestFiles.h"
#include "TestManifests.h"

#include "runtime/CudaDriver.h"
#include "runtime/Runtime.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>
#include <sys/stat.h>

using namespace kiln;
using namespace kiln::driver;

namespace {

const char *kTail =
    ": launching a Kiln kernel needs an NVIDIA GPU and its driver; compiling "
    "one does not (kiln compile --chip sm_90a, or kiln.compile(..., "
    "chip=\"sm_90a\") in Python)";

bool startsWith(const std::string &s, const std::string &prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Counts the table's non-null entry points: `library` of the runtime's list
/// and `tool` of kiln-run's.
void countEntries(const CudaDriver &d, int &library, int &tool, int &total) {
  library = tool = total = 0;
#define KILN_TEST_COUNT(name) library += d.name != nullptr, ++total;
  KILN_CUDA_LIBRARY_FUNCTIONS(KILN_TEST_COUNT)
#undef KILN_TEST_COUNT
#define KILN_TEST_COUNT(name) tool += d.name != nullptr, ++total;
  KILN_CUDA_TOOL_FUNCTIONS(KILN_TEST_COUNT)
#undef KILN_TEST_COUNT
}

void expectEmpty(const CudaDriver &d) {
  int library, tool, total;
  countEntries(d, library, tool, total);
  EXPECT_EQ(library, 0);
  EXPECT_EQ(tool, 0);
}

/// Runs `body` in a fresh process with KILN_LIBCUDA set to `library`; `body`
/// returns what went wrong, or "" when everything held.
void inFreshProcess(const char *library,
                    const std::function<std::string()> &body) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::setenv(kDriverLibraryEnv, library, 1);
        std::string failure = body();
        std::fprintf(stderr, "%s\n", failure.empty() ? "ok" : failure.c_str());
        std::exit(failure.empty() ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

} // namespace

TEST(CudaDriver, MissingLibraryIsAClearError) {
  CudaDriver d;
  Status s = openCudaDriver("/nonexistent/libcuda.so.1", /*fromEnv=*/true, d);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::Device);
  // The middle is dlerror's text.
  EXPECT_TRUE(startsWith(s.message(),
                         "the NVIDIA driver (/nonexistent/libcuda.so.1, from "
                         "KILN_LIBCUDA) could not be loaded (/nonexistent/"
                         "libcuda.so.1: cannot open shared object file"))
      << s.message();
  EXPECT_TRUE(endsWith(s.message(), std::string(")") + kTail)) << s.message();
  expectEmpty(d);
}

TEST(CudaDriver, DefaultNameIsNamedWithoutTheVariable) {
  // A name no loader search finds stands in for libcuda.so.1 on a machine
  // without the driver.
  CudaDriver d;
  Status s = openCudaDriver("libkiln-no-such-driver.so.1", false, d);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(startsWith(s.message(),
                         "the NVIDIA driver (libkiln-no-such-driver.so.1) "
                         "could not be loaded (libkiln-no-such-driver.so.1: "
                         "cannot open shared object file"))
      << s.message();
  EXPECT_EQ(s.message().find("KILN_LIBCUDA"), std::string::npos);
}

TEST(CudaDriver, FileThatIsNotALibraryIsAClearError) {
  test::TempFolder dir("cudadriver");
  std::string path = dir.file("libcuda.so.1");
  test::writeFile(path, "this is not an ELF shared object, it is text\n");
  CudaDriver d;
  Status s = openCudaDriver(path, true, d);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::Device);
  // glibc says "invalid ELF header" (or "file too short" for tiny files).
  EXPECT_TRUE(startsWith(s.message(), "the NVIDIA driver (" + path +
                                          ", from KILN_LIBCUDA) could not be "
                                          "loaded (" +
                                          path + ": "))
      << s.message();
  EXPECT_TRUE(endsWith(s.message(), kTail)) << s.message();
  expectEmpty(d);

  // A directory and an empty file: refused the same way.
  EXPECT_FALSE(openCudaDriver(dir.path, true, d).ok());
  std::string empty = dir.file("empty.so");
  test::writeFile(empty, "");
  s = openCudaDriver(empty, true, d);
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(endsWith(s.message(), kTail)) << s.message();
  expectEmpty(d);
}

TEST(CudaDriver, LibraryWithoutTheEntryPointsIsAClearError) {
  // A real shared library that is not the driver: the first entry point of
  // the list is missing.
  CudaDriver d;
  Status s = openCudaDriver("libm.so.6", true, d);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::Device);
  EXPECT_TRUE(startsWith(s.message(), "the NVIDIA driver (libm.so.6, from "
                                      "KILN_LIBCUDA) could not be loaded ("))
      << s.message();
  EXPECT_NE(s.message().find("undefined symbol: cuCtxGetCurrent; Kiln needs a "
                             "driver of CUDA 12.4 or newer)"),
            std::string::npos)
      << s.message();
  EXPECT_TRUE(endsWith(s.message(), kTail)) << s.message();
  expectEmpty(d);
}

TEST(CudaDriver, ToolFunctionsAreCheckedByName) {
  CudaDriver d;
  Status s = checkToolFunctions(d);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::Device);
  // cuda.h's name for it (cuDeviceGet has no _v2).
  EXPECT_TRUE(startsWith(s.message(), "the NVIDIA driver has no cuDeviceGet, "
                                      "which kiln-run calls: it is older "
                                      "than the CUDA "))
      << s.message();
}

// The process-wide driver, with KILN_LIBCUDA naming a file that is not there:
// the same clear status from every call and thread, and no table.
TEST(CudaDriverDeathTest, ProcessDriverFailsTheSameWayEveryTime) {
  inFreshProcess("/nonexistent/libcuda.so.1", []() -> std::string {
    if (loadedCudaDriver())
      return "loadedCudaDriver() is set before any load";
    const CudaDriver *d = reinterpret_cast<const CudaDriver *>(1);
    Status first = cudaDriver(d);
    if (first.ok() || d || first.code() != ErrorCode::Device)
      return "the first call did not fail with a device error: " +
             first.message();
    if (!startsWith(first.message(),
                    "the NVIDIA driver (/nonexistent/libcuda.so.1, from "
                    "KILN_LIBCUDA) could not be loaded (") ||
        !endsWith(first.message(), kTail))
      return "message: " + first.message();
    std::vector<std::string> seen(8);
    std::vector<std::thread> threads;
    for (size_t i = 0; i < seen.size(); ++i)
      threads.emplace_back([&seen, i] {
        const CudaDriver *t = nullptr;
        seen[i] = cudaDriver(t).message();
      });
    for (std::thread &t : threads)
      t.join();
    for (const std::string &m : seen)
      if (m != first.message())
        return "a later call said: " + m;
    if (loadedCudaDriver())
      return "loadedCudaDriver() is set after a failed load";
    // Without a driver there is no name for a code, and no crash either.
    if (cudaErrorText(CUDA_ERROR_INVALID_VALUE) != "CUDA error 1")
      return "cudaErrorText: " + cudaErrorText(CUDA_ERROR_INVALID_VALUE);
    return "";
  });
}

TEST(CudaDriverDeathTest, EmptyVariableMeansTheDefaultDriver) {
  inFreshProcess("", []() -> std::string {
    const CudaDriver *d = nullptr;
    Status s = cudaDriver(d);
    if (s.ok())
      return d ? "" : "success without a table"; // a driver is installed
    if (!startsWith(s.message(), "the NVIDIA driver (libcuda.so.1) could not "
                                 "be loaded (libcuda.so.1: "))
      return "message: " + s.message();
    return "";
  });
}

// What a module does without a driver: everything up to the first CUDA call
// works, and the calls that need the GPU return the driver's status.
TEST(CudaDriverDeathTest, ModuleWithoutADriver) {
  inFreshProcess("/nonexistent/libcuda.so.1", []() -> std::string {
    std::unique_ptr<Module> mod;
    Status s = Module::loadFromMemory(test::matmulManifest(),
                                      std::string("\x7f"
                                                  "ELF stand-in"),
                                      mod);
    if (!s.ok())
      return "loadFromMemory needed a driver: " + s.message();
    if (loadedCudaDriver())
      return "loading a module loaded the driver";

    s = mod->prepare();
    if (s.code() != ErrorCode::Device ||
        !startsWith(s.message(), "the NVIDIA driver (/nonexistent/"
                                 "libcuda.so.1, from KILN_LIBCUDA) could not "
                                 "be loaded (") ||
        !endsWith(s.message(), kTail))
      return "prepare: " + s.message();

    std::vector<Tensor> args = {
        Tensor::contiguous(0x7f0000000000, DType::BF16, {256, 512}),
        Tensor::contiguous(0x7f0010000000, DType::BF16, {384, 512}),
        Tensor::contiguous(0x7f0020000000, DType::BF16, {256, 384})};
    Status launched = mod->launch(args);
    if (launched.code() != s.code() || launched.message() != s.message())
      return "launch: " + launched.message();

    // A prepared launch needs the driver as a launch does, and one that was
    // never prepared refuses to launch, saying so.
    PreparedLaunch prepared;
    Status p = mod->prepareLaunch(args.data(), args.size(), nullptr, prepared);
    if (p.code() != s.code() || p.message() != s.message())
      return "prepareLaunch: " + p.message();
    if (!prepared.empty())
      return "a failed prepareLaunch left a launch";
    p = prepared.launch();
    if (p.code() != ErrorCode::InvalidValue ||
        !startsWith(p.message(), "launch of a PreparedLaunch that holds no "
                                 "launch"))
      return "unprepared launch: " + p.message();

    // Arguments are still checked first: their errors need no driver.
    args[1] = Tensor::contiguous(0x7f0010000000, DType::BF16, {384, 500});
    launched = mod->launch(args);
    if (launched.code() != ErrorCode::Argument)
      return "a bad argument gave: " + launched.message();
    if (mod->prepareLaunch(args.data(), args.size(), nullptr, prepared)
            .code() != ErrorCode::Argument)
      return "a bad argument to prepareLaunch was not an argument error";

    // Queries make no CUDA call.
    args[1] = Tensor::contiguous(0x7f0010000000, DType::BF16, {384, 512});
    std::vector<std::vector<int64_t>> shapes;
    bool known[3] = {true, true, false};
    if (!(s = mod->inferShapes(args.data(), known, 3, shapes)).ok() ||
        shapes[2] != std::vector<int64_t>{256, 384})
      return "inferShapes: " + s.message();
    int variant = -1;
    if (!(s = mod->chooseVariant(args.data(), nullptr, 3, 132, variant)).ok() ||
        variant != 0)
      return "chooseVariant: " + s.message();
    // A pin out of range is refused; a valid one is what a query answers.
    if (mod->pinVariant(static_cast<int>(mod->numVariants())).code() !=
            ErrorCode::InvalidValue ||
        mod->pinnedVariant() != -1)
      return "pinVariant accepted a variant the kernel does not have";
    std::string text;
    if (!(s = mod->explainVariant(args.data(), nullptr, 3, 132, text)).ok() ||
        (mod->numVariants() > 1 && text.find("<- chosen") == std::string::npos))
      return "explainVariant: " + s.message() + text;
    return "";
  });
}

#ifdef KILN_TEST_CUDA_STUB
// The toolkit's stub libcuda.so exports every driver symbol (and fails every
// call): each name the table looks up is one the driver has, in the spelling
// cuda.h gives it. In a fresh process: the stub's SONAME is libcuda.so.1, so
// once loaded it would stand in for the driver in every later test.
TEST(CudaDriverDeathTest, EveryEntryPointResolvesInTheToolkitStub) {
  struct stat st;
  if (::stat(KILN_TEST_CUDA_STUB, &st) != 0)
    GTEST_SKIP() << "no " KILN_TEST_CUDA_STUB;
  inFreshProcess(KILN_TEST_CUDA_STUB, []() -> std::string {
    CudaDriver d;
    Status s = openCudaDriver(KILN_TEST_CUDA_STUB, true, d);
    if (!s.ok())
      return s.message();
    int library, tool, total;
    countEntries(d, library, tool, total);
    if (library + tool != total)
      return std::to_string(total - library - tool) + " of " +
             std::to_string(total) + " entry points unresolved";
    if (!checkToolFunctions(d).ok())
      return checkToolFunctions(d).message();
    // The symbols cuda.h maps the names to, not the old ones of the same
    // name that the stub (like the driver) also exports.
    void *h = ::dlopen(KILN_TEST_CUDA_STUB, RTLD_NOW | RTLD_LOCAL);
    struct {
      void *entry;
      const char *symbol;
    } expected[] = {
        {reinterpret_cast<void *>(d.cuInit), "cuInit"},
        {reinterpret_cast<void *>(d.cuMemAlloc), "cuMemAlloc_v2"},
        {reinterpret_cast<void *>(d.cuMemFree), "cuMemFree_v2"},
        {reinterpret_cast<void *>(d.cuCtxPopCurrent), "cuCtxPopCurrent_v2"},
        {reinterpret_cast<void *>(d.cuStreamDestroy), "cuStreamDestroy_v2"},
        {reinterpret_cast<void *>(d.cuMemcpyHtoD), "cuMemcpyHtoD_v2"},
        {reinterpret_cast<void *>(d.cuLaunchKernelEx), "cuLaunchKernelEx"},
    };
    for (const auto &e : expected)
      if (!h || e.entry != ::dlsym(h, e.symbol))
        return std::string("the table's entry is not ") + e.symbol;
    // Every call of the stub fails; through the table it is a status, as
    // through a linked libcuda.
    if (d.cuInit(0) != CUDA_ERROR_STUB_LIBRARY)
      return "cuInit on the stub did not return CUDA_ERROR_STUB_LIBRARY";
    const CudaDriver *p = nullptr;
    if (!cudaDriver(p).ok() || !p || loadedCudaDriver() != p)
      return "the process driver from KILN_LIBCUDA did not load";
    return "";
  });
}
#endif
