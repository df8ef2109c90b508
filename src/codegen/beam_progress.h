// BEAM search's progress bar: one line on stderr, redrawn in place, while a kernel is searched,
// and only when stderr is a terminal (a log file or a pipe gets nothing, not a screen of '\r's).
#pragma once
#include <cstddef>
#include <string>

namespace onegrad {

// "BEAM r_64_64_64  round 2 [##########..........] 12/24  best 1.23 ms": the kernel, the round,
// how many of its candidates are timed, and the best time so far.
std::string beam_progress_line(const std::string& kernel, int round, size_t done, size_t total, double best_seconds);

class BeamProgress {
 public:
  explicit BeamProgress(std::string kernel);  // on only when stderr is a terminal
  ~BeamProgress();                            // ends the line
  BeamProgress(const BeamProgress&) = delete;
  BeamProgress& operator=(const BeamProgress&) = delete;

  void update(int round, size_t done, size_t total, double best_seconds);

 private:
  std::string kernel_;
  bool on_;
  bool drawn_ = false;
};

// "1.23 ms", "456 us", "2.50 s": a time the way the progress bar and DEBUG print it.
std::string seconds_text(double seconds);

}  // namespace onegrad
