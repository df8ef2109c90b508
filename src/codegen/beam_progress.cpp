#include "codegen/beam_progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace onegrad {

namespace {
constexpr size_t kBarWidth = 20;
}

std::string seconds_text(double seconds) {
  char buf[32];
  if (seconds >= 1) std::snprintf(buf, sizeof buf, "%.2f s", seconds);
  else if (seconds >= 1e-3) std::snprintf(buf, sizeof buf, "%.2f ms", seconds * 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f us", seconds * 1e6);
  return buf;
}

std::string beam_progress_line(const std::string& kernel, int round, size_t done, size_t total, double best_seconds) {
  size_t filled = total == 0 ? kBarWidth : std::min(kBarWidth, done * kBarWidth / total);
  std::string bar = std::string(filled, '#') + std::string(kBarWidth - filled, '.');
  return "BEAM " + kernel + "  round " + std::to_string(round) + " [" + bar + "] " + std::to_string(done) + "/" +
         std::to_string(total) + "  best " + seconds_text(best_seconds);
}

BeamProgress::BeamProgress(std::string kernel) : kernel_(std::move(kernel)), on_(isatty(STDERR_FILENO) == 1) {}

BeamProgress::~BeamProgress() {
  if (drawn_) std::fputc('\n', stderr);
}

void BeamProgress::update(int round, size_t done, size_t total, double best_seconds) {
  if (!on_) return;
  // \033[K clears what a longer previous line left to the right
  std::fprintf(stderr, "\r%s\033[K", beam_progress_line(kernel_, round, done, total, best_seconds).c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace onegrad
