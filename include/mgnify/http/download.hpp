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
// Clients expose this as a one-line member:
//   DownloadResult download(const std::string& url, const std::filesystem::path& path,
//                           const http::DownloadOptions& options = {}) {
//     return http::download(session_, url, path, options);
//   }

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/http/checksum.hpp"
#include "mgnify/http/download_errors.hpp"
#include "mgnify/http/executor.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/retry.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/result.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace http {

/// Where one download stands. `bytes_done` counts the bytes of the file on disk,
/// including a resumed .part, so it starts above zero when a transfer resumes.
/// It only goes down when a server ignores a Range request and the transfer
/// restarts from the first byte.
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
  /// Continue an existing `<path>.part`. When false it is deleted first.
  bool resume = true;
  /// Requests per download, resumptions included; 0 means the session's
  /// RetryOptions::max_attempts.
  int max_attempts = 0;
  /// Per-request limit; 0 means the session's request timeout. A transfer cut by
  /// a timeout resumes on the next attempt, so large files still finish.
  std::chrono::milliseconds timeout{0};
  /// Create the destination's parent directories when missing.
  bool create_directories = true;
  /// Stops the download (CancelledError) within CancelToken::kPollInterval;
  /// the .part file stays for a later resume.
  CancelToken cancel = CancelToken::never();
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

namespace detail {

inline std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty() || text.size() > 19) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

/// "bytes 100-999/1000" -> first byte 100, complete length 1000. "bytes */1000"
/// (RFC 9110 for 416) has no first byte; "/*" has no length.
struct ContentRange {
  std::optional<std::uint64_t> first;
  std::optional<std::uint64_t> complete_length;
};
inline ContentRange parse_content_range(std::string_view value) {
  ContentRange out;
  const auto space = value.find(' ');
  if (space == std::string_view::npos) return out;
  std::string_view spec = value.substr(space + 1);
  const auto slash = spec.find('/');
  if (slash == std::string_view::npos) return out;
  out.complete_length = parse_decimal(spec.substr(slash + 1));
  const std::string_view range = spec.substr(0, slash);
  const auto dash = range.find('-');
  if (dash != std::string_view::npos) out.first = parse_decimal(range.substr(0, dash));
  return out;
}

/// A 206 whose range does not start where the .part ends: its bytes cannot be appended.
struct RangeMismatch {};

inline std::uint64_t file_size_or_zero(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return ec ? 0 : static_cast<std::uint64_t>(size);
}

inline void remove_quietly(const std::filesystem::path& path) noexcept {
  std::error_code ec;
  std::filesystem::remove(path, ec);
}

/// Checks an existing file against what is expected. Returns false when it
/// cannot be verified (nothing expected) or does not match.
inline bool existing_file_valid(const std::filesystem::path& path, const DownloadOptions& options,
                                DownloadResult& result) {
  if (!options.checksum && !options.expected_size) return false;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  const std::uint64_t size = file_size_or_zero(path);
  if (options.expected_size && size != *options.expected_size) return false;
  if (options.checksum) {
    const std::string digest = hash_file(options.checksum->algorithm, path);
    if (!options.checksum->matches(digest)) return false;
    result.verified_checksum = Checksum{options.checksum->algorithm, digest};
  }
  result.size_verified = options.expected_size.has_value();
  result.bytes = size;
  return true;
}

/// The state of one download across its attempts: what is in the .part file,
/// the running digest of exactly those bytes, and what the server said.
class Transfer {
 public:
  Transfer(std::string url, std::filesystem::path destination, const DownloadOptions& options,
           DownloadResult& result)
      : url_(std::move(url)),
        destination_(std::move(destination)),
        part_(partial_path(destination_)),
        options_(options),
        result_(result) {
    if (options_.checksum) hasher_.emplace(options_.checksum->algorithm);
    total_ = options_.expected_size;
  }

  const std::filesystem::path& part() const noexcept { return part_; }
  std::uint64_t offset() const noexcept { return offset_; }
  const std::optional<std::uint64_t>& total() const noexcept { return total_; }
  const std::optional<std::string>& validator() const noexcept { return validator_; }

  /// Adopts an existing .part: its bytes count as done and feed the digest.
  void adopt_existing_part() {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(part_, ec)) return;
    const std::uint64_t size = file_size_or_zero(part_);
    if (options_.expected_size && size > *options_.expected_size) {
      restart();
      return;
    }
    if (hasher_) {
      if (hash_file_into(*hasher_, part_, size) != size) {
        restart();
        return;
      }
    }
    offset_ = size;
  }

  /// Forgets every byte: the .part is deleted and the digest starts over.
  void restart() {
    close();
    remove_quietly(part_);
    offset_ = 0;
    if (hasher_) hasher_->reset();
  }

  /// Prepares for a new response.
  void begin_attempt() { started_ = false; }
  bool started() const noexcept { return started_; }

  /// Called with the first chunk's head (or the head of an empty 2xx body).
  void start(const Response& head) {
    started_ = true;
    if (head.status == 206) {
      const auto range = parse_content_range(head.headers.value_or("Content-Range", ""));
      if (!range.first || *range.first != offset_) throw RangeMismatch{};
      if (range.complete_length) total_ = range.complete_length;
      if (offset_ > 0) result_.resumed = true;
      open(std::ios::app);
    } else {
      // A 200 to a Range request carries the whole file: the bytes on disk are
      // replaced, not appended to.
      if (offset_ > 0) restart();
      const auto encoded = head.headers.get("Content-Encoding");
      if (!encoded || *encoded == "identity") {
        if (auto length = parse_decimal(head.headers.value_or("Content-Length", "")))
          total_ = length;
      }
      open(std::ios::trunc);
    }
    if (!validator_) {
      const auto etag = head.headers.get("ETag");
      if (etag && etag->rfind("W/", 0) != 0) {
        validator_ = etag;  // weak validators are not allowed in If-Range
      } else if (auto modified = head.headers.get("Last-Modified")) {
        validator_ = modified;
      }
    }
    if (options_.expected_size && total_ && *total_ != *options_.expected_size) {
      fail_size(*total_);
    }
    report();
  }

  void write(const char* data, std::size_t size) {
    out_.write(data, static_cast<std::streamsize>(size));
    if (!out_) throw FileError(part_, std::make_error_code(std::errc::io_error), "cannot write");
    if (hasher_) hasher_->update(data, size);
    offset_ += size;
    result_.bytes_transferred += size;
    if (options_.expected_size && offset_ > *options_.expected_size) fail_size(offset_);
    report();
  }

  void close() {
    if (!out_.is_open()) return;
    out_.close();
    if (out_.fail()) {
      out_.clear();
      throw FileError(part_, std::make_error_code(std::errc::io_error), "cannot write");
    }
  }

  /// After the last byte: checks size and digest, deleting the .part on a mismatch.
  void verify() {
    if (options_.expected_size) {
      if (offset_ != *options_.expected_size) fail_size(offset_);
      result_.size_verified = true;
    }
    if (hasher_) {
      const std::string digest = hasher_->hex_digest();
      if (!options_.checksum->matches(digest)) {
        remove_quietly(part_);
        const Checksum actual{options_.checksum->algorithm, digest};
        throw IntegrityError(IntegrityError::Kind::checksum, url_, destination_,
                             options_.checksum->to_string(), actual.to_string());
      }
      result_.verified_checksum = Checksum{options_.checksum->algorithm, digest};
    }
  }

  /// Whether the bytes on disk already form the whole file, judged by whatever is known.
  bool known_complete(const std::optional<std::uint64_t>& server_total) {
    if (server_total) return offset_ == *server_total;
    if (options_.expected_size) return offset_ == *options_.expected_size;
    if (options_.checksum)
      return options_.checksum->matches(hash_file(options_.checksum->algorithm, part_));
    return false;
  }

  void report() {
    if (!options_.progress) return;
    DownloadProgress p;
    p.bytes_done = offset_;
    p.total = total_;
    last_reported_ = p;
    options_.progress(p);
  }

  /// The closing report, {size, size}, unless the last one already said so.
  void report_finished() {
    if (!options_.progress) return;
    if (last_reported_ && last_reported_->bytes_done == offset_ &&
        last_reported_->total == offset_) {
      return;
    }
    total_ = offset_;
    report();
  }

 private:
  void open(std::ios::openmode mode) {
    close();
    out_.open(part_, std::ios::binary | std::ios::out | mode);
    if (!out_) {
      throw FileError(part_, std::make_error_code(std::errc::io_error), "cannot open for writing");
    }
  }

  [[noreturn]] void fail_size(std::uint64_t actual) {
    close();
    remove_quietly(part_);
    throw IntegrityError(IntegrityError::Kind::size, url_, destination_,
                         std::to_string(*options_.expected_size), std::to_string(actual));
  }

  std::string url_;
  std::filesystem::path destination_;
  std::filesystem::path part_;
  const DownloadOptions& options_;
  DownloadResult& result_;
  std::optional<Hasher> hasher_;
  std::ofstream out_;
  std::uint64_t offset_ = 0;
  std::optional<std::uint64_t> total_;
  std::optional<std::string> validator_;
  bool started_ = false;
  std::optional<DownloadProgress> last_reported_;
};

}  // namespace detail

/// Downloads `url` to `path` (see the file comment). Throws InvalidArgument for
/// bad input before any request, IntegrityError when the bytes do not match
/// the expected checksum or size (no file is left at `path` or `path.part`),
/// FileError for local file-system failures, and the session's ApiError /
/// TransportError subclasses once the attempts are used up (the .part file is
/// then kept, so a later call resumes).
inline DownloadResult download(Session& session, const std::string& url,
                               const std::filesystem::path& path,
                               const DownloadOptions& options = {}) {
  namespace fs = std::filesystem;
  if (!parse_url(url)) throw InvalidArgument("not an absolute http(s) URL: '" + url + "'");
  if (path.empty() || !path.has_filename()) {
    throw InvalidArgument("download destination must name a file: '" + path.string() + "'");
  }
  if (options.max_attempts < 0) throw InvalidArgument("max_attempts must be >= 0");

  DownloadResult result;
  result.url = url;
  result.path = path;

  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    throw InvalidArgument("download destination is a directory: '" + path.string() + "'");
  }
  if (fs::exists(path, ec) && detail::existing_file_valid(path, options, result)) {
    result.already_present = true;
    detail::remove_quietly(partial_path(path));  // a stale leftover of an earlier run
    if (options.progress) options.progress(DownloadProgress{result.bytes, result.bytes});
    return result;
  }
  if (options.create_directories && path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw FileError(path.parent_path(), ec, "cannot create directory");
  }

  detail::Transfer transfer(url, path, options, result);
  if (options.resume) {
    transfer.adopt_existing_part();
  } else {
    transfer.restart();
  }

  const RetryOptions& retry = session.options().retry;
  const int max_attempts = options.max_attempts > 0 ? options.max_attempts : retry.max_attempts;
  Backoff backoff(retry);
  CallOptions call;
  // The token is for the API's origin; file hosts elsewhere never see it.
  call.send_token = same_origin(url, session.base_url());
  call.max_attempts = 1;
  call.timeout = options.timeout;
  call.cancel = options.cancel;

  for (int attempt = 1;; ++attempt) {
    result.attempts = attempt;
    const bool last = attempt >= max_attempts;
    auto pause = [&](std::optional<std::chrono::seconds> retry_after) {
      if (session.clock().sleep_or_cancel(backoff.next(attempt, retry_after), options.cancel)) {
        throw CancelledError(url);
      }
    };

    Request request;
    request.method = Method::get;
    request.url = url;
    request.headers.set("Accept", "*/*");
    // Byte offsets only mean something in the file's own encoding.
    request.headers.set("Accept-Encoding", "identity");
    if (transfer.offset() > 0) {
      request.headers.set("Range", "bytes=" + std::to_string(transfer.offset()) + "-");
      if (transfer.validator()) request.headers.set("If-Range", *transfer.validator());
    }
    request.body_sink = [&transfer](const Response& head, const char* data, std::size_t size) {
      if (!transfer.started()) transfer.start(head);
      transfer.write(data, size);
      return true;
    };
    transfer.begin_attempt();

    try {
      Response response = session.execute(std::move(request), call);
      if (!transfer.started()) transfer.start(response);  // an empty body
      transfer.close();
      const auto& total = transfer.total();
      if (total && transfer.offset() < *total) {
        // The connection ended early without an error (a close-delimited body).
        if (last) {
          throw TransportError(TransportError::Kind::receive, 0, url,
                               "transfer ended after " + std::to_string(transfer.offset()) +
                                   " of " + std::to_string(*total) + " bytes",
                               attempt);
        }
        pause(std::nullopt);
        continue;
      }
      break;
    } catch (const detail::RangeMismatch&) {
      transfer.restart();
      if (last) {
        throw TransportError(TransportError::Kind::other, 0, url,
                             "the server answered a Range request with another range", attempt);
      }
    } catch (const TransportError& e) {
      transfer.close();
      if (last || !retry.is_retryable(e)) throw e.with_attempts(attempt);
      pause(std::nullopt);
    } catch (const ApiError& e) {
      transfer.close();
      if (e.status() == 416 && transfer.offset() > 0) {
        // The .part may already hold every byte (a previous run stopped just
        // before the rename); otherwise it is unusable and the file restarts.
        if (transfer.known_complete(std::nullopt)) {
          transfer.begin_attempt();
          break;
        }
        transfer.restart();
        if (!last) continue;
      }
      if (last || !retry.is_retryable_status(e.status())) {
        ApiErrorInfo info = e.info();
        info.attempts = attempt;
        throw_api_error(std::move(info));
      }
      pause(e.retry_after());
    } catch (...) {
      transfer.close();
      throw;
    }
  }

  result.bytes = transfer.offset();
  transfer.verify();
  // rename(2) replaces the destination atomically: readers see the old file or the new one.
  fs::rename(transfer.part(), path, ec);
  if (ec) throw FileError(path, ec, "cannot rename " + transfer.part().string() + " onto");
  transfer.report_finished();
  return result;
}

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

/// Runs the jobs on up to `concurrency` threads (http::parallel_map) and returns
/// one outcome per job, in input order; a failed job does not stop the others.
/// `progress` is called under a lock (never concurrently, so snapshots arrive
/// in order) after every chunk of every job and when a job finishes.
/// Two jobs with the same destination are rejected before any request.
inline std::vector<Result<DownloadResult>> download_many(Session& session,
                                                         const std::vector<DownloadJob>& jobs,
                                                         std::size_t concurrency = 4,
                                                         BatchProgressCallback progress = {}) {
  if (concurrency == 0) throw InvalidArgument("concurrency must be at least 1");
  std::set<std::filesystem::path> destinations;
  for (const auto& job : jobs) {
    if (!parse_url(job.url))
      throw InvalidArgument("not an absolute http(s) URL: '" + job.url + "'");
    if (job.path.empty() || !job.path.has_filename()) {
      throw InvalidArgument("download destination must name a file: '" + job.path.string() + "'");
    }
    if (!destinations.insert(std::filesystem::absolute(job.path).lexically_normal()).second) {
      throw InvalidArgument("two downloads write to " + job.path.string());
    }
  }

  struct Slot {
    std::uint64_t bytes = 0;
    std::optional<std::uint64_t> total;
  };
  std::mutex mutex;
  std::vector<Slot> slots(jobs.size());
  BatchProgress state;
  state.files_total = jobs.size();
  for (std::size_t i = 0; i < jobs.size(); ++i) slots[i].total = jobs[i].options.expected_size;

  // Called with the lock held.
  auto publish = [&] {
    if (!progress) return;
    state.bytes_done = 0;
    std::uint64_t total = 0;
    bool all_known = true;
    for (const auto& s : slots) {
      state.bytes_done += s.bytes;
      if (s.total) {
        total += *s.total;
      } else {
        all_known = false;
      }
    }
    state.bytes_total = all_known ? std::optional<std::uint64_t>(total) : std::nullopt;
    progress(state);
  };

  return parallel_map(jobs.size(), concurrency, [&](std::size_t i) {
    DownloadOptions options = jobs[i].options;
    const DownloadProgressCallback own = jobs[i].options.progress;
    options.progress = [&, i, own](const DownloadProgress& p) {
      if (own) own(p);
      std::lock_guard<std::mutex> lock(mutex);
      slots[i].bytes = p.bytes_done;
      if (p.total) slots[i].total = p.total;
      publish();
    };
    try {
      DownloadResult r = download(session, jobs[i].url, jobs[i].path, options);
      std::lock_guard<std::mutex> lock(mutex);
      slots[i].bytes = r.bytes;
      slots[i].total = r.bytes;
      ++state.files_done;
      publish();
      return r;
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      ++state.files_done;
      ++state.files_failed;
      publish();
      throw;
    }
  });
}

}  // namespace http
}  // namespace v0
}  // namespace mgnify
