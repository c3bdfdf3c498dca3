#pragma once

// A one-line progress display on stderr, shown by default only when stderr is
// a terminal: in a pipeline or a log file it would be noise. A command may
// offer a flag that asks for it anyway (a batch job's log); off a terminal it
// is then written as plain lines, one per update (repeats skipped), without
// redraw escapes.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

namespace mgnify_cli {

class ProgressBar {
 public:
  /// Enabled when stderr is a terminal (isatty) and `allowed`, or when `forced`.
  explicit ProgressBar(std::string label, bool allowed = true, bool forced = false);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  bool enabled() const noexcept { return enabled_; }

  /// Counts of items ("12/40 records"). Redraws at most every 100 ms, except
  /// that reaching the total always draws. Not thread-safe: callers serialise.
  void items(std::size_t done, std::optional<std::size_t> total, const char* unit);
  /// Bytes and files of a bulk download.
  void bytes(std::uint64_t done, std::optional<std::uint64_t> total, std::size_t files_done,
             std::size_t files_total);
  /// Free text, such as a job's state ("RUNNING, 1/2 jobs done"), with a bar
  /// when `fraction` is given; redrawn as items() is. The caller sanitizes
  /// text that a server chose.
  void text(const std::string& text, std::optional<double> fraction = std::nullopt);
  /// Draws the last update if the redraw limit held it back, then ends the
  /// line (once); later updates are ignored.
  void finish();

 private:
  void draw(const std::string& text, std::optional<double> fraction, bool force);

  std::string label_;
  bool enabled_ = false;
  bool terminal_ = false;
  bool drawn_ = false;
  std::string last_text_;
  bool finished_ = false;
  std::chrono::steady_clock::time_point last_{};
  std::optional<std::pair<std::string, std::optional<double>>> held_back_;
};

}  // namespace mgnify_cli
