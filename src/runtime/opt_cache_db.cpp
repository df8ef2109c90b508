#include "runtime/opt_cache_db.h"

#include <sqlite3.h>

#include <cstdio>
#include <system_error>

#include "runtime/cache_dir.h"
#include "uop/errors.h"

namespace onegrad {
namespace fs = std::filesystem;

namespace {

constexpr int kBusyTimeoutMs = 10000;  // another process writing its result: wait, do not fail

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS beam ("
    " kernel TEXT NOT NULL, device TEXT NOT NULL, width INTEGER NOT NULL,"
    " opts TEXT NOT NULL, seconds REAL NOT NULL,"
    " PRIMARY KEY (kernel, device, width))";

bool damaged(int rc) {
  int primary = rc & 0xff;
  return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT;
}

// A statement, finalized on every path out.
struct Statement {
  sqlite3_stmt* stmt = nullptr;
  ~Statement() { sqlite3_finalize(stmt); }
};

}  // namespace

OptCacheDb::OptCacheDb(fs::path path) : path_(std::move(path)) {
  std::error_code ec;
  if (path_.has_parent_path()) fs::create_directories(path_.parent_path(), ec);
  if (ec) throw DeviceError("cannot create the folder of the BEAM cache " + path_.string() + ": " + ec.message());
  open_or_rebuild();
}

OptCacheDb::~OptCacheDb() { sqlite3_close(db_); }

void OptCacheDb::fail(const std::string& what, int rc) const {
  std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  throw DeviceError("BEAM cache " + path_.string() + ": " + what + ": " + why);
}

void OptCacheDb::open_or_rebuild() {
  for (int attempt = 0;; attempt++) {
    int rc = sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
    if (rc == SQLITE_OK) {
      sqlite3_busy_timeout(db_, kBusyTimeoutMs);
      rc = sqlite3_exec(db_, kSchema, nullptr, nullptr, nullptr);
    }
    // No fsync per row: a row lost to a power cut is searched again, and a file damaged by one is
    // replaced below.
    if (rc == SQLITE_OK) rc = sqlite3_exec(db_, "PRAGMA synchronous = OFF", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) {
      // A file SQLite can open may still have damaged pages; quick_check reads them all (the file
      // holds one short row per kernel searched, so this is cheap).
      Statement check;
      rc = sqlite3_prepare_v2(db_, "PRAGMA quick_check", -1, &check.stmt, nullptr);
      if (rc == SQLITE_OK) rc = sqlite3_step(check.stmt);
      if (rc == SQLITE_ROW) {
        const unsigned char* verdict = sqlite3_column_text(check.stmt, 0);
        rc = verdict != nullptr && std::string(reinterpret_cast<const char*>(verdict)) == "ok" ? SQLITE_OK : SQLITE_CORRUPT;
      }
    }
    if (rc == SQLITE_OK) return;
    if (!damaged(rc) || attempt > 0) {
      std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
      sqlite3_close(db_);  // the constructor throws: no destructor will
      db_ = nullptr;
      throw DeviceError("BEAM cache " + path_.string() + ": cannot open: " + why);
    }
    // Not a database (a stray file, a crash mid-write on a file system without locks): keep the
    // bytes for a post-mortem and start an empty cache.
    sqlite3_close(db_);
    db_ = nullptr;
    fs::path aside = path_;
    aside += ".corrupt";
    std::error_code ec;
    fs::rename(path_, aside, ec);
    if (ec) throw DeviceError("BEAM cache " + path_.string() + " is not a valid database and cannot be moved aside: " + ec.message());
    std::fprintf(stderr, "onegrad: the BEAM cache %s was damaged; moved it to %s and started a new one\n", path_.c_str(),
                 aside.c_str());
  }
}

std::optional<OptCacheEntry> OptCacheDb::lookup(const std::string& kernel, const std::string& device, int64_t width) {
  std::lock_guard lock(mu_);
  Statement s;
  int rc = sqlite3_prepare_v2(db_, "SELECT opts, seconds FROM beam WHERE kernel = ?1 AND device = ?2 AND width = ?3", -1, &s.stmt, nullptr);
  if (rc != SQLITE_OK) fail("cannot look up a kernel", rc);
  sqlite3_bind_text(s.stmt, 1, kernel.c_str(), int(kernel.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(s.stmt, 2, device.c_str(), int(device.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int64(s.stmt, 3, width);
  rc = sqlite3_step(s.stmt);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) fail("cannot look up a kernel", rc);
  const unsigned char* opts = sqlite3_column_text(s.stmt, 0);
  return OptCacheEntry{opts != nullptr ? reinterpret_cast<const char*>(opts) : "", sqlite3_column_double(s.stmt, 1)};
}

void OptCacheDb::store(const std::string& kernel, const std::string& device, int64_t width, const OptCacheEntry& entry) {
  std::lock_guard lock(mu_);
  Statement s;
  int rc = sqlite3_prepare_v2(db_, "INSERT OR REPLACE INTO beam (kernel, device, width, opts, seconds) VALUES (?1, ?2, ?3, ?4, ?5)", -1,
                              &s.stmt, nullptr);
  if (rc != SQLITE_OK) fail("cannot store a kernel's opts", rc);
  sqlite3_bind_text(s.stmt, 1, kernel.c_str(), int(kernel.size()), SQLITE_TRANSIENT);
  sqlite3_bind_text(s.stmt, 2, device.c_str(), int(device.size()), SQLITE_TRANSIENT);
  sqlite3_bind_int64(s.stmt, 3, width);
  sqlite3_bind_text(s.stmt, 4, entry.opts.c_str(), int(entry.opts.size()), SQLITE_TRANSIENT);
  sqlite3_bind_double(s.stmt, 5, entry.seconds);
  rc = sqlite3_step(s.stmt);
  if (rc != SQLITE_DONE) fail("cannot store a kernel's opts", rc);
}

OptCacheDb& default_opt_cache_db() {
  static OptCacheDb* db = new OptCacheDb(default_cache_dir() / "beam.sqlite3");  // outlives every user
  return *db;
}

}  // namespace onegrad
