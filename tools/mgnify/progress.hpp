#pragma once

// A one-line progress display on stderr, shown only when stderr is a
// terminal: in a pipeline or a log file it would be noise.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace mgnify_cli {

class ProgressBar {
 public:
  /// Enabled when stderr is a terminal (isatty) and `allowed`.
  explicit ProgressBar(std::string label, bool allowed = true);
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
  /// Ends the line (once); later updates are ignored.
  void finish();

 private:
  void draw(const std::string& text, std::optional<double> fraction, bool force);

  std::string label_;
  bool enabled_ = false;
  bool drawn_ = false;
  bool finished_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace mgnify_cli
