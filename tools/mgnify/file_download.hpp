#pragma once

// How a manifest row is fetched: the one place `mgnify download` and
// `mgnify abundance-table` set up a transfer, so that both resume, verify and
// lay out files alike (DIR/<accession>/<alias>).

#include <cstddef>
#include <filesystem>
#include <memory>
#include <mgnify/cancel.hpp>
#include <mgnify/files/download.hpp>
#include <mgnify/http/session.hpp>
#include <mgnify/result.hpp>
#include <string>
#include <vector>

#include "file_listing.hpp"
#include "settings.hpp"

namespace mgnify_cli {

/// Where the SDK's verified downloads live (DownloadJob, download_many,
/// BatchProgress): the CLI names them through this alias only.
namespace downloads = mgnify::files;

/// Whether a path component from the service (accession, alias) stays inside
/// the download directory and carries no control characters into file names
/// that later reach a terminal through `ls` or a shell glob: not empty, `.`
/// or `..`, no `/` or `\`, and nothing that the terminal escaping
/// (mgnify::detail::escape_text) rewrites: no C0 control, DEL, C1 control
/// (U+0080..U+009F) or byte that is not part of valid UTF-8.
bool safe_component(const std::string& name);

/// The transfer of `row` to dir/<accession>/<alias>: checked against the
/// row's checksum and size, continuing a .part file when `resume` is set.
/// The row must have a URL and safe names.
downloads::DownloadJob download_job(const FileRow& row, const std::filesystem::path& dir,
                                    bool resume);

/// The session downloads of `api` go through; the token goes only to that
/// API's origin (download() checks).
std::shared_ptr<mgnify::http::Session> download_session(const Settings& settings, Api api);

/// The transfers of one command, in one or more batches (a v1 batch after
/// the v2 one), each with a "download" progress line. Ctrl-C (or a
/// scheduler's SIGTERM) during a batch stops its transfers, keeping their
/// .part files, and every later batch starts none; the progress line then
/// ends at the files that were done, never counting those given up, and
/// report_interrupted() prints the one summary line.
class InterruptibleDownloads {
 public:
  explicit InterruptibleDownloads(std::size_t concurrency);

  /// Runs `jobs` on `session`; `job_finished` as download_many calls it.
  std::vector<mgnify::Result<downloads::DownloadResult>> run(
      mgnify::http::Session& session, const std::vector<downloads::DownloadJob>& jobs,
      const downloads::JobFinishedCallback& job_finished = {});

  bool interrupted() const { return interrupt_.cancelled(); }
  /// Files of all batches so far that are on disk and verified.
  std::size_t done() const noexcept { return done_; }
  /// Files of all batches so far that are not (failed or given up).
  std::size_t left() const noexcept { return left_; }

  /// "interrupted: N done, M left; rerun the same command to resume" on
  /// stderr; returns the exit code of the signal (130 for SIGINT, 143 for SIGTERM).
  int report_interrupted() const;

 private:
  std::size_t concurrency_;
  mgnify::CancelToken interrupt_;
  std::size_t done_ = 0;
  std::size_t left_ = 0;
};

}  // namespace mgnify_cli
