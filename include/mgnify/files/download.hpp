#pragma once

// Verified, resumable file downloads over a Session.
//
// A download streams into `<path>.part` (never into memory), continues an
// interrupted transfer with `Range: bytes=N-`, checks the digest and size the
// API published, and only then renames the .part file onto `<path>`, so a file
// at the destination is always complete and verified. An existing destination
// is re-verified rather than trusted. Transient failures are retried by
// resuming, with the session's backoff and clock.
//
// The download directory may be shared with others, and the server may be
// hostile, so on POSIX systems:
// - the .part file is created with O_EXCL | O_NOFOLLOW and an existing one is
//   opened with O_NOFOLLOW and checked to be a regular file: a symbolic link,
//   fifo or directory planted there is a FileError, never followed or removed;
// - every byte goes through the descriptor of that file, and the rename onto
//   `<path>` happens only while the .part path still names that very file
//   (same device and inode), so a file swapped into its place is never
//   renamed onto a verified destination;
// - the remote file's validator (a strong ETag, else Last-Modified) is kept in
//   `<path>.part.validator`, so a later run resumes with `If-Range` and never
//   splices its old bytes onto a changed file. A .part without a validator is
//   resumed only when a checksum is expected (a wrong splice then fails the
//   digest and the file restarts once from byte 0); otherwise it is discarded.
//   An expected size alone does not catch a changed file of the same length;
// - no more bytes are written than DownloadOptions::max_bytes or than the
//   server itself announced (SizeLimitError).
//
// Clients expose this as a one-line member:
//   DownloadResult download(const std::string& url, const std::filesystem::path& path,
//                           const files::DownloadOptions& options = {},
//                           const CallOptions& call = {}) {
//     return files::download(session_, url, path, options, call);
//   }

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/call_options.hpp"
#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/result.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace files {

/// Where one download stands. `bytes_done` counts the bytes of the file on disk,
/// including a resumed .part, so it starts above zero when a transfer resumes.
/// It only goes down when the transfer restarts from the first byte: the server
/// ignored a Range request, or the remote file is no longer the one the .part
/// holds the start of.
struct DownloadProgress {
  std::uint64_t bytes_done = 0;
  /// The full size when known (expected size, Content-Range or Content-Length).
  std::optional<std::uint64_t> total;
};
using DownloadProgressCallback = std::function<void(const DownloadProgress&)>;

struct DownloadOptions {
  /// Expected digest, e.g. from v1's `file-checksum` via Checksum::from_record.
  std::optional<Checksum> checksum;
  /// Expected size in bytes, e.g. v2's `file_size_bytes`.
  std::optional<std::uint64_t> expected_size;
  /// Called on the downloading thread after every chunk written; keep it quick.
  DownloadProgressCallback progress;
  /// Continue an existing `<path>.part` (when its version is known or a
  /// checksum will judge it; see the file comment). When false it is deleted first.
  bool resume = true;
  /// Requests per download, resumptions included; 0 means the session's
  /// RetryOptions::max_attempts.
  int max_attempts = 0;
  /// Per-request limit; 0 means the session's request timeout. A transfer cut by
  /// a timeout resumes on the next attempt, so large files still finish.
  std::chrono::milliseconds timeout{0};
  /// Create the destination's parent directories when missing.
  bool create_directories = true;
  /// The most bytes the file may have. A body that grows past it (or past the
  /// size the server announced) is stopped before the excess reaches the disk:
  /// SizeLimitError, no file left. The default, 1 TiB, only bounds a stream of
  /// unknown length; std::nullopt lifts the cap.
  std::optional<std::uint64_t> max_bytes = kDefaultMaxBytes;

  static constexpr std::uint64_t kDefaultMaxBytes = std::uint64_t{1} << 40;
};

struct DownloadResult {
  std::string url;
  std::filesystem::path path;
  /// Size of the file now at `path`.
  std::uint64_t bytes = 0;
  /// Body bytes received over the network by this call (0 when already present).
  std::uint64_t bytes_transferred = 0;
  /// The digest that was checked, when a checksum was expected.
  std::optional<Checksum> verified_checksum;
  /// True when an expected size was given and matched.
  bool size_verified = false;
  /// True when bytes already on disk were kept and the rest fetched with Range.
  bool resumed = false;
  /// True when the destination already existed and passed verification; no request was sent.
  bool already_present = false;
  /// Requests sent (0 when already present).
  int attempts = 0;
};

/// Where a download to `path` keeps its bytes until verified: `<path>.part`.
inline std::filesystem::path partial_path(const std::filesystem::path& path) {
  std::filesystem::path part = path;
  part += ".part";
  return part;
}

/// Where a download to `path` keeps the remote file's validator (ETag or
/// Last-Modified) while a .part exists: `<path>.part.validator`.
inline std::filesystem::path validator_path(const std::filesystem::path& path) {
  std::filesystem::path p = path;
  p += ".part.validator";
  return p;
}

/// Downloads `url` to `path` (see the file comment). Throws InvalidArgument for
/// bad input before any request, IntegrityError when the bytes do not match
/// the expected checksum or size and SizeLimitError when there are too many of
/// them (no file is left at `path` or `path.part` in both cases), FileError for
/// local file-system failures and for anything but a regular file at
/// `path.part`, and the session's ApiError / TransportError subclasses once the
/// attempts are used up (the .part file is then kept, so a later call resumes).
/// `call`'s token stops it within CancelToken::kPollInterval with
/// CancelledError, its deadline with TransportError of kind timeout, neither
/// retried; nothing is left at `path` and the .part file stays for a later
/// resume.
MGNIFY_DECL DownloadResult download(http::Session& session, const std::string& url,
                                    const std::filesystem::path& path,
                                    const DownloadOptions& options = {},
                                    const CallOptions& call = {});

/// One entry of a bulk download.
struct DownloadJob {
  std::string url;
  std::filesystem::path path;
  DownloadOptions options;
};

/// Aggregate state of a bulk download.
struct BatchProgress {
  std::size_t files_total = 0;
  /// Files finished, successfully or not.
  std::size_t files_done = 0;
  std::size_t files_failed = 0;
  std::uint64_t bytes_done = 0;
  /// Sum of every file's size, once every size is known.
  std::optional<std::uint64_t> bytes_total;
};
using BatchProgressCallback = std::function<void(const BatchProgress&)>;

/// Called once per job that succeeded, with its index in the jobs and its
/// result, on the thread that downloaded it (so possibly concurrently for
/// different jobs), before download_many returns; for a record kept as the
/// batch goes, such as a result manifest that survives a kill.
using JobFinishedCallback = std::function<void(std::size_t job, const DownloadResult&)>;

/// Downloads a batch runs at once when BatchOptions::concurrency is 0.
inline constexpr std::size_t kDefaultDownloadConcurrency = 4;

/// Runs the jobs on up to `batch.concurrency` threads (0 means
/// kDefaultDownloadConcurrency) and returns one outcome per job, in input
/// order; a failed job does not stop the others. `batch.progress` counts
/// finished files; `bytes_progress`, for a byte-level display, is called after
/// every chunk of every job and when a job finishes. Both are called under
/// one lock (never concurrently, so snapshots arrive in order).
/// `job_finished` is called when a job succeeds, outside that lock; an
/// exception from it fails that job. Once `call`'s token is cancelled (or its
/// deadline passes), transfers in flight stop within CancelToken::kPollInterval
/// (their .part files stay for a later resume) and jobs not started send
/// nothing; each of those entries holds a CancelledError (a timeout
/// TransportError).
/// Jobs whose files would overlap are rejected before any request: the same
/// destination, a destination that is another job's .part or validator file,
/// and paths that differ only in ASCII case (one file on case-insensitive file
/// systems).
MGNIFY_DECL std::vector<Result<DownloadResult>> download_many(
    http::Session& session, const std::vector<DownloadJob>& jobs, const BatchOptions& batch = {},
    BatchProgressCallback bytes_progress = {}, JobFinishedCallback job_finished = {},
    const CallOptions& call = {});

}  // namespace files
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/files/impl/download.ipp"
#endif
