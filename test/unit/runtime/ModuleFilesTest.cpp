//===- ModuleFilesTest.cpp - What Module::load reads, before CUDA ---------===//
//
// Module::load (and so kiln_module_load and kiln.load) reads its files
// through readModuleFiles; every refusal here happens before any CUDA call.
//
//===----------------------------------------------------------------------===//

#include "TestFiles.h"
#include "TestManifests.h"

#include "runtime/Limits.h"
#include "runtime/ModuleFiles.h"

#include "gtest/gtest.h"

#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;
using namespace kiln::test;

namespace {

const std::string kElf = std::string("\x7f"
                                     "ELF",
                                     4) +
                         "rest of a cubin";

/// The matmul manifest naming `cubin`.
std::string manifestNaming(const std::string &cubin) {
  std::string text = kMatmulJson;
  const std::string from = "\"cubin\": \"matmul.cubin\"";
  text.replace(text.find(from), from.size(), "\"cubin\": \"" + cubin + "\"");
  return text;
}

/// A folder holding k.kiln.json (naming `cubin`) and, unless `cubinBytes` is
/// null, the cubin.
struct Artifacts {
  TempFolder dir;
  std::string manifest;
  Artifacts(const std::string &tag, const std::string &cubin,
            const std::string *cubinBytes)
      : dir(tag) {
    manifest = dir.file("k.kiln.json");
    writeFile(manifest, manifestNaming(cubin));
    if (cubinBytes)
      writeFile(dir.file(cubin), *cubinBytes);
  }
};

/// readModuleFiles fails with `code` and exactly `want`.
void expectLoadError(const std::string &manifest, ErrorCode code,
                     const std::string &want) {
  Manifest m;
  std::string cubin, cubinPath;
  Status s = readModuleFiles(manifest, m, cubin, cubinPath);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), code) << errorCodeName(s.code());
  EXPECT_EQ(s.message(), want);
}

TEST(ModuleFiles, ReadsTheManifestAndTheCubinNextToIt) {
  Artifacts a("modfiles_ok", "matmul.cubin", &kElf);
  Manifest m;
  std::string cubin, cubinPath;
  Status s = readModuleFiles(a.manifest, m, cubin, cubinPath);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(m.kernel, "matmul");
  EXPECT_EQ(cubin, kElf);
  EXPECT_EQ(cubinPath, a.dir.path + "/matmul.cubin");
}

TEST(ModuleFiles, CubinPathIsTheManifestsFolder) {
  Manifest m = matmulManifest();
  EXPECT_EQ(cubinPathFor("out/k.kiln.json", m), "out/matmul.cubin");
  EXPECT_EQ(cubinPathFor("/abs/out/k.kiln.json", m), "/abs/out/matmul.cubin");
  EXPECT_EQ(cubinPathFor("k.kiln.json", m), "matmul.cubin");
}

TEST(ModuleFiles, RefusesCubinsOutsideTheManifestsFolder) {
  for (const char *bad :
       {"../../etc/passwd", "/etc/passwd", "/dev/zero", "sub/k.cubin", ".."}) {
    SCOPED_TRACE(bad);
    Artifacts a("modfiles_outside", "matmul.cubin", &kElf);
    writeFile(a.manifest, manifestNaming(bad));
    expectLoadError(a.manifest, ErrorCode::Manifest,
                    a.manifest + ": cubin '" + bad +
                        "' is not a plain file name: the cubin is read from "
                        "the manifest's folder, so the name may not contain "
                        "'/' or '\\', be '.' or '..', or be absolute");
  }
}

TEST(ModuleFiles, RefusesCubinsThatAreNotRegularFiles) {
  // A link next to the manifest is followed (test/gpu links cubins so), but
  // not into a device: /dev/zero would never end.
  Artifacts a("modfiles_dev", "k.cubin", nullptr);
  std::string link = a.dir.file("k.cubin");
  ASSERT_EQ(::symlink("/dev/zero", link.c_str()), 0);
  expectLoadError(a.manifest, ErrorCode::Io,
                  link + ": cannot read the cubin named by " + a.manifest +
                      ": it is a character device, not a regular file");

  Artifacts f("modfiles_fifo", "k.cubin", nullptr);
  std::string fifo = f.dir.file("k.cubin");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expectLoadError(f.manifest, ErrorCode::Io,
                  fifo + ": cannot read the cubin named by " + f.manifest +
                      ": it is a FIFO, not a regular file");

  Artifacts d("modfiles_dir", "k.cubin", nullptr);
  std::string sub = d.dir.path + "/k.cubin";
  ASSERT_EQ(::mkdir(sub.c_str(), 0700), 0);
  expectLoadError(d.manifest, ErrorCode::Io,
                  sub + ": cannot read the cubin named by " + d.manifest +
                      ": it is a directory, not a regular file");
  ::rmdir(sub.c_str());
}

TEST(ModuleFiles, RefusesCubinsThatAreNotCubins) {
  std::string text = "not an ELF file";
  Artifacts a("modfiles_notelf", "k.cubin", &text);
  std::string cubin = a.dir.path + "/k.cubin";
  expectLoadError(a.manifest, ErrorCode::Io,
                  cubin +
                      ": not a cubin (it does not start with the ELF magic "
                      "\\x7fELF) (named by " +
                      a.manifest + ")");
  writeFile(cubin, "");
  expectLoadError(a.manifest, ErrorCode::Io,
                  cubin + ": the cubin is empty (named by " + a.manifest + ")");
  writeFile(cubin, std::string("\x7f"
                               "EL",
                               3));
  expectLoadError(a.manifest, ErrorCode::Io,
                  cubin +
                      ": not a cubin (it does not start with the ELF magic "
                      "\\x7fELF) (named by " +
                      a.manifest + ")");
}

TEST(ModuleFiles, RefusesOversizedFilesWithoutReadingThem) {
  // Sparse files: their size is refused before a byte is read.
  Artifacts a("modfiles_big", "k.cubin", &kElf);
  std::string cubin = a.dir.path + "/k.cubin";
  ASSERT_EQ(::truncate(cubin.c_str(), kMaxCubinBytes + 1), 0);
  expectLoadError(a.manifest, ErrorCode::Io,
                  cubin + ": cannot read the cubin named by " + a.manifest +
                      ": it is 268435457 bytes, more than the limit of "
                      "268435456 bytes (256 MiB)");
  ASSERT_EQ(::truncate(a.manifest.c_str(), kMaxManifestBytes + 1), 0);
  expectLoadError(a.manifest, ErrorCode::Io,
                  a.manifest +
                      ": cannot read the manifest: it is 16777217 bytes, more "
                      "than the limit of 16777216 bytes (16 MiB)");
}

TEST(ModuleFiles, RefusesManifestsThatAreNotRegularFiles) {
  expectLoadError("/dev/zero", ErrorCode::Io,
                  "/dev/zero: cannot read the manifest: it is a character "
                  "device, not a regular file");
  TempFolder dir("modfiles_manifestdir");
  expectLoadError(dir.path, ErrorCode::Io,
                  dir.path + ": cannot read the manifest: it is a directory, "
                             "not a regular file");
  expectLoadError(dir.path + "/missing.kiln.json", ErrorCode::Io,
                  dir.path + "/missing.kiln.json: cannot read the manifest: "
                             "No such file or directory");
}

TEST(ModuleFiles, ChecksTheManifestBeforeReadingTheCubin) {
  // A hostile manifest is refused before its cubin is opened (the cubin here
  // is a FIFO, which a read would block on without O_NONBLOCK).
  Artifacts a("modfiles_badmanifest", "k.cubin", nullptr);
  std::string fifo = a.dir.file("k.cubin");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string text = manifestNaming("k.cubin");
  const std::string from = "\"block\": [384, 1, 1]";
  text.replace(text.find(from), from.size(),
               "\"block\": [4294967296, 4294967296, 1]");
  writeFile(a.manifest, text);
  expectLoadError(a.manifest, ErrorCode::Manifest,
                  a.manifest +
                      ": launch.block [4294967296, 4294967296, 1] exceeds "
                      "CUDA's limits (1024 threads, z <= 64)");
}

TEST(ModuleFiles, CubinImageCheck) {
  std::string error;
  EXPECT_TRUE(checkCubinImage(kElf, "k", error)) << error;
  EXPECT_FALSE(checkCubinImage("", "cubin 'k.cubin'", error));
  EXPECT_EQ(error, "cubin 'k.cubin': the cubin is empty");
  // PTX text, which cuModuleLoadData would otherwise JIT.
  EXPECT_FALSE(checkCubinImage(".version 8.7\n.target sm_90a\n", "k", error));
  EXPECT_EQ(error,
            "k: not a cubin (it does not start with the ELF magic \\x7fELF)");
}

} // namespace
