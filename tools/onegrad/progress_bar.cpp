#include "progress_bar.h"

#include <cstdio>
#include <ostream>

namespace onegrad::cli {

namespace {

std::string clock_text(double seconds) {
  int64_t s = int64_t(seconds);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
  return buf;
}

// Accuracies as percentages, everything else with four decimals.
std::string figure_text(const std::string& name, double v) {
  char buf[32];
  if (name.rfind("acc", 0) == 0) std::snprintf(buf, sizeof buf, "%.2f%%", v * 100);
  else std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

}  // namespace

ProgressBar::ProgressBar(std::ostream& out, bool terminal, int64_t total_steps, std::string label, std::string unit)
    : out_(out), terminal_(terminal), total_(total_steps), label_(std::move(label)), unit_(std::move(unit)),
      start_(std::chrono::steady_clock::now()), last_draw_(start_) {}

double ProgressBar::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double ProgressBar::items_per_second() const { return items_ / std::max(elapsed(), 1e-9); }

void ProgressBar::update(int64_t items, const std::vector<std::pair<std::string, double>>& figures) {
  steps_++;
  items_ += items;
  figures_ = figures;
  auto now = std::chrono::steady_clock::now();
  if (terminal_) {
    if (now - last_draw_ >= std::chrono::milliseconds(100) || steps_ == total_) {
      last_draw_ = now;
      out_ << "\r" << line() << std::flush;
    }
  } else if (total_ > 0 && steps_ * 10 >= next_log_ * total_) {
    while (steps_ * 10 >= next_log_ * total_) next_log_++;
    out_ << line() << "\n" << std::flush;
  }
}

std::string ProgressBar::line() const {
  constexpr int kWidth = 24;
  double frac = total_ > 0 ? double(steps_) / double(total_) : 0.0;
  int filled = int(frac * kWidth);
  std::string text = label_ + " [" + std::string(size_t(filled), '#') + std::string(size_t(kWidth - filled), '.') +
                     "] " + std::to_string(steps_) + "/" + std::to_string(total_) + " ";
  for (const auto& [name, v] : figures_) text += " " + name + " " + figure_text(name, v) + " ";
  double t = elapsed();
  double eta = steps_ > 0 ? double(total_ - steps_) * t / double(steps_) : 0.0;
  char rate[48];
  std::snprintf(rate, sizeof rate, " %.0f %s/s  ", items_per_second(), unit_.c_str());
  return text + rate + clock_text(t) + "<" + clock_text(eta);
}

void ProgressBar::close() {
  if (terminal_) out_ << "\n" << std::flush;
}

}  // namespace onegrad::cli
