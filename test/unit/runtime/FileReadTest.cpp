//===- FileReadTest.cpp - Bounded reads of regular files ------------------===//

#include "TestFiles.h"

#include "runtime/FileRead.h"
#include "runtime/Limits.h"
#include "runtime/Manifest.h"

#include "gtest/gtest.h"

#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace kiln;
using namespace kiln::test;

namespace {

TEST(FileRead, ReadsARegularFile) {
  TempFolder dir("fileread_ok");
  std::string path = dir.file("k.bin");
  writeFile(path, std::string("\x7f"
                              "ELF\0\1\2",
                              7));
  std::string out, error;
  ASSERT_TRUE(readRegularFile(path, 7, out, error)) << error;
  EXPECT_EQ(out, std::string("\x7f"
                             "ELF\0\1\2",
                             7));
  writeFile(path, "");
  ASSERT_TRUE(readRegularFile(path, 7, out, error)) << error;
  EXPECT_EQ(out, "");
}

TEST(FileRead, RefusesFilesAboveTheLimitBeforeReading) {
  TempFolder dir("fileread_big");
  std::string path = dir.file("big");
  writeFile(path, "12345678");
  std::string out, error;
  EXPECT_FALSE(readRegularFile(path, 7, out, error));
  EXPECT_EQ(error, "it is 8 bytes, more than the limit of 7 bytes (7 bytes)");
  // A sparse file of 16 MiB + 1: refused from its size, never read.
  ASSERT_EQ(::truncate(path.c_str(), kMaxManifestBytes + 1), 0);
  EXPECT_FALSE(readRegularFile(path, kMaxManifestBytes, out, error));
  EXPECT_EQ(error, "it is 16777217 bytes, more than the limit of 16777216 "
                   "bytes (16 MiB)");
}

TEST(FileRead, RefusesWhatIsNotARegularFile) {
  std::string out, error;
  EXPECT_FALSE(readRegularFile("/dev/zero", kMaxCubinBytes, out, error));
  EXPECT_EQ(error, "it is a character device, not a regular file");
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(readRegularFile("/", kMaxCubinBytes, out, error));
  EXPECT_EQ(error, "it is a directory, not a regular file");

  // A FIFO without a writer: refused at once instead of blocking.
  TempFolder dir("fileread_fifo");
  std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(readRegularFile(fifo, kMaxCubinBytes, out, error));
  EXPECT_EQ(error, "it is a FIFO, not a regular file");

  // Symbolic links are followed, and what they point to is checked.
  std::string link = dir.file("link");
  ASSERT_EQ(::symlink("/dev/zero", link.c_str()), 0);
  EXPECT_FALSE(readRegularFile(link, kMaxCubinBytes, out, error));
  EXPECT_EQ(error, "it is a character device, not a regular file");
}

TEST(FileRead, MissingFilesAndBadPaths) {
  std::string out, error;
  EXPECT_FALSE(readRegularFile("/nonexistent/k.cubin", 100, out, error));
  EXPECT_EQ(error, "No such file or directory");
  EXPECT_FALSE(readRegularFile("", 100, out, error));
  EXPECT_EQ(error, "the path is empty");
  EXPECT_FALSE(readRegularFile(std::string("k\0.cubin", 8), 100, out, error));
  EXPECT_EQ(error, "the path contains a NUL character");
}

TEST(FileRead, LimitText) {
  EXPECT_EQ(byteLimitText(kMaxManifestBytes), "16 MiB");
  EXPECT_EQ(byteLimitText(kMaxCubinBytes), "256 MiB");
  EXPECT_EQ(byteLimitText(4096), "4 KiB");
  EXPECT_EQ(byteLimitText(1000), "1000 bytes");
}

// The manifest reader the compiler's tools share goes through the same read.
TEST(FileRead, ManifestFilesAreBounded) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(readManifestFile("/dev/zero", m, error));
  EXPECT_EQ(error, "/dev/zero: cannot read the manifest: it is a character "
                   "device, not a regular file");
  TempFolder dir("fileread_manifest");
  std::string path = dir.file("k.kiln.json");
  writeFile(path, "{}");
  ASSERT_EQ(::truncate(path.c_str(), kMaxManifestBytes + 1), 0);
  EXPECT_FALSE(readManifestFile(path, m, error));
  EXPECT_EQ(error, path + ": cannot read the manifest: it is 16777217 bytes, "
                          "more than the limit of 16777216 bytes (16 MiB)");
}

} // namespace
