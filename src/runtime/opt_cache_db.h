// BEAM search's results on disk (docs/kernel_opts.md, "BEAM search"): an SQLite file,
// <cache dir>/beam.sqlite3, with one row per (kernel key, device, beam width) holding the opts the
// search chose (as text) and the time it measured, so a second process replays the choice
// without compiling or timing a single candidate. The runtime stores text only: what an opt is
// belongs to codegen.
//
// The file is shared by every process using the cache folder: SQLite locks it, and writers wait
// for each other (up to a few seconds). A file that is not an SQLite database, or a damaged one,
// is set aside (renamed *.corrupt) and a new one started: the cache only ever saves time.
#pragma once
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

struct sqlite3;

namespace onegrad {

struct OptCacheEntry {
  std::string opts;      // the opts, as opts_text writes them
  double seconds = 0;    // the kernel's time with them when the search ran
};

class OptCacheDb {
 public:
  // Opens (creating if needed) the database at `path`, its folder included. Throws DeviceError
  // naming the path and SQLite's reason when it can be neither opened nor made anew (a folder in
  // its place, no permission).
  explicit OptCacheDb(std::filesystem::path path);
  ~OptCacheDb();
  OptCacheDb(const OptCacheDb&) = delete;
  OptCacheDb& operator=(const OptCacheDb&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // The entry of (kernel, device, width), if one was stored.
  std::optional<OptCacheEntry> lookup(const std::string& kernel, const std::string& device, int64_t width);
  // Stores (or replaces) the entry of (kernel, device, width).
  void store(const std::string& kernel, const std::string& device, int64_t width, const OptCacheEntry& entry);

 private:
  void open_or_rebuild();
  [[noreturn]] void fail(const std::string& what, int rc) const;

  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  std::mutex mu_;  // one statement at a time (kernels are built on several threads)
};

// The process's database, <default_cache_dir()>/beam.sqlite3, opened when first used.
OptCacheDb& default_opt_cache_db();

}  // namespace onegrad
