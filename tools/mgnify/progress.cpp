#include "progress.hpp"

#include <unistd.h>

#include <utility>

namespace mgnify_cli {

namespace {

std::string human_bytes(std::uint64_t n) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(n);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f %s" : "%.1f %s", value, units[unit]);
  return buf;
}

}  // namespace

ProgressBar::ProgressBar(std::string label, bool allowed, bool forced)
    : label_(std::move(label)), terminal_(isatty(STDERR_FILENO) == 1) {
  enabled_ = forced || (allowed && terminal_);
}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::items(std::size_t done, std::optional<std::size_t> total, const char* unit) {
  std::string text = std::to_string(done);
  if (total) text += "/" + std::to_string(*total);
  text += std::string(" ") + unit;
  std::optional<double> fraction;
  if (total && *total > 0) fraction = static_cast<double>(done) / static_cast<double>(*total);
  draw(text, fraction, total && done >= *total);
}

void ProgressBar::bytes(std::uint64_t done, std::optional<std::uint64_t> total,
                        std::size_t files_done, std::size_t files_total) {
  std::string text = std::to_string(files_done) + "/" + std::to_string(files_total) + " files, " +
                     human_bytes(done);
  std::optional<double> fraction;
  if (total) {
    text += " of " + human_bytes(*total);
    if (*total > 0) fraction = static_cast<double>(done) / static_cast<double>(*total);
  }
  draw(text, fraction, files_done >= files_total);
}

void ProgressBar::text(const std::string& text, std::optional<double> fraction) {
  draw(text, fraction, false);
}

void ProgressBar::draw(const std::string& text, std::optional<double> fraction, bool force) {
  if (!enabled_ || finished_) return;
  if (!terminal_) {
    // A log gets a line per update that says something new, not a line per redraw.
    if (drawn_ && text == last_text_) return;
    last_text_ = text;
    drawn_ = true;
    std::fprintf(stderr, "%s: %s\n", label_.c_str(), text.c_str());
    std::fflush(stderr);
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (!force && drawn_ && now - last_ < std::chrono::milliseconds(100)) {
    // Drawn by finish() if nothing comes after it: the line ends at the last update.
    held_back_ = std::make_pair(text, fraction);
    return;
  }
  held_back_.reset();
  last_ = now;
  drawn_ = true;
  std::string bar;
  if (fraction) {
    const double f = *fraction < 0 ? 0 : (*fraction > 1 ? 1 : *fraction);
    constexpr int width = 24;
    const int filled = static_cast<int>(f * width);
    bar = " [" + std::string(static_cast<std::size_t>(filled), '#') +
          std::string(static_cast<std::size_t>(width - filled), '.') + "] " +
          std::to_string(static_cast<int>(f * 100)) + "%";
  }
  // \r and "erase to end of line" redraw in place.
  std::fprintf(stderr, "\r%s: %s%s\x1b[K", label_.c_str(), text.c_str(), bar.c_str());
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (finished_) return;
  if (held_back_) {
    const auto [text, fraction] = *held_back_;
    draw(text, fraction, true);
  }
  finished_ = true;
  if (enabled_ && drawn_ && terminal_) {
    std::fputc('\n', stderr);
    std::fflush(stderr);
  }
}

}  // namespace mgnify_cli
