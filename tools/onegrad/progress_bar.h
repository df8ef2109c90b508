// A progress bar for loops over batches: count, bar, items/s, time spent and left, and named
// figures (loss, accuracy). On a terminal it redraws one line in place; into a file or a pipe it
// writes a line at every tenth of the way, so logs stay short (python/onegrad/progress.py is the
// same bar for Python loops).
#pragma once
#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace onegrad::cli {

class ProgressBar {
 public:
  ProgressBar(std::ostream& out, bool terminal, int64_t total_steps, std::string label, std::string unit = "images");
  // One step done, covering `items` items; the figures replace the ones shown.
  void update(int64_t items, const std::vector<std::pair<std::string, double>>& figures);
  void close();
  double items_per_second() const;

 private:
  std::string line() const;
  double elapsed() const;

  std::ostream& out_;
  bool terminal_;
  int64_t total_, steps_ = 0, items_ = 0, next_log_ = 1;
  std::string label_, unit_;
  std::vector<std::pair<std::string, double>> figures_;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace onegrad::cli
