// BEAM search's cache on disk (runtime/opt_cache_db.h): entries by (kernel, device, width) survive
// reopening, and a damaged file is set aside and replaced, never a crash.
#include "runtime/opt_cache_db.h"

#include <gtest/gtest.h>

#include <fstream>

#include "runtime_test_util.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

using testing::TempDir;

TEST(OptCacheDb, StoresAndReplaysByKernelDeviceAndWidth) {
  TempDir dir;
  std::filesystem::path path = dir.path / "sub" / "beam.sqlite3";  // the folder is made too
  {
    OptCacheDb db(path);
    EXPECT_FALSE(db.lookup("k1", "CPU", 2));
    db.store("k1", "CPU", 2, {"[SPLIT(1, 4, UPCAST)]", 0.25});
    db.store("k1", "CPU", 4, {"[SWAP(0, 1)]", 0.5});
    db.store("k1", "CPU", 2, {"[SPLIT(0, 8, UPCAST)]", 0.125});  // replaces
  }
  OptCacheDb db(path);  // a second process's view
  std::optional<OptCacheEntry> e = db.lookup("k1", "CPU", 2);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->opts, "[SPLIT(0, 8, UPCAST)]");
  EXPECT_EQ(e->seconds, 0.125);
  ASSERT_TRUE(db.lookup("k1", "CPU", 4));
  EXPECT_EQ(db.lookup("k1", "CPU", 4)->opts, "[SWAP(0, 1)]");
  EXPECT_FALSE(db.lookup("k1", "CPU:1", 2));
  EXPECT_FALSE(db.lookup("k2", "CPU", 2));
  EXPECT_FALSE(db.lookup("k1", "CPU", 3));
}

TEST(OptCacheDb, AFileThatIsNoDatabaseIsSetAsideAndReplaced) {
  TempDir dir;
  std::filesystem::path path = dir.path / "beam.sqlite3";
  std::string junk(8192, 'x');
  std::ofstream(path, std::ios::binary) << junk;
  OptCacheDb db(path);
  EXPECT_FALSE(db.lookup("k", "CPU", 2));
  db.store("k", "CPU", 2, {"[]", 1.0});
  EXPECT_EQ(db.lookup("k", "CPU", 2)->opts, "[]");
  std::ifstream aside(dir.path / "beam.sqlite3.corrupt", std::ios::binary);
  std::string kept((std::istreambuf_iterator<char>(aside)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, junk);  // the old bytes are kept for a post-mortem
}

TEST(OptCacheDb, ATruncatedDatabaseIsReplaced) {
  TempDir dir;
  std::filesystem::path path = dir.path / "beam.sqlite3";
  {
    OptCacheDb db(path);
    for (int i = 0; i < 500; i++) db.store("kernel-" + std::to_string(i) + std::string(100, 'k'), "CPU", 2, {"[SWAP(0, 1)]", 1.0});
  }
  std::filesystem::resize_file(path, std::filesystem::file_size(path) / 2);
  OptCacheDb db(path);
  EXPECT_FALSE(db.lookup("kernel-499" + std::string(100, 'k'), "CPU", 2));
  db.store("k", "CPU", 2, {"[]", 1.0});
  EXPECT_TRUE(db.lookup("k", "CPU", 2));
  EXPECT_TRUE(std::filesystem::exists(dir.path / "beam.sqlite3.corrupt"));
}

TEST(OptCacheDb, AFolderInItsPlaceIsAClearError) {
  TempDir dir;
  std::filesystem::path path = dir.path / "beam.sqlite3";
  std::filesystem::create_directories(path);
  try {
    OptCacheDb db(path);
    FAIL() << "opened a folder as a database";
  } catch (const DeviceError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("BEAM cache " + path.string() + ": cannot open: ", 0), 0u) << e.what();
  }
}

TEST(OptCacheDb, AFileWhereItsFolderShouldBeIsAClearError) {
  TempDir dir;
  std::ofstream(dir.path / "not-a-folder") << "x";
  std::filesystem::path path = dir.path / "not-a-folder" / "beam.sqlite3";
  try {
    OptCacheDb db(path);
    FAIL() << "made a database under a file";
  } catch (const DeviceError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot create the folder of the BEAM cache " + path.string() + ": ", 0), 0u)
        << e.what();
  }
}

}  // namespace
}  // namespace onegrad
