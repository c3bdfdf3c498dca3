#pragma once

// Bodies of download and download_many (mgnify/files/download.hpp): the .part
// file handling, resumption and verification.

#ifdef _WIN32
#include <fstream>
#else
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#endif

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/concurrency/parallel_map.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/retry.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/result.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace files {

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

/// A 206 that cannot be appended to the .part: another range, or (despite
/// If-Range) another version of the file.
struct RangeMismatch {
  const char* what;
};

/// The code of a FileError for a path that holds something this download will
/// not use: a link, fifo or directory, or a file it did not write.
inline std::error_code not_regular() noexcept {
  return std::make_error_code(std::errc::operation_not_permitted);
}

#ifndef _WIN32

inline std::error_code last_error() noexcept {
  return std::error_code(errno, std::generic_category());
}

/// A file this download opened itself, read and written through its
/// descriptor, so that what is hashed, written and finally renamed is provably
/// that one file, whatever happens to its path meanwhile.
class OwnFile {
 public:
  OwnFile() = default;
  OwnFile(const OwnFile&) = delete;
  OwnFile& operator=(const OwnFile&) = delete;
  OwnFile(OwnFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  OwnFile& operator=(OwnFile&& other) noexcept {
    if (this != &other) {
      close_quietly();
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  ~OwnFile() { close_quietly(); }

  bool is_open() const noexcept { return fd_ >= 0; }

  /// Creates `path`, which must not exist: whatever is there, a link
  /// included, makes this fail instead of being followed or reused.
  static OwnFile create(const std::filesystem::path& path) {
    OwnFile f;
    f.fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (f.fd_ < 0) throw FileError(path, last_error(), "cannot create");
    return f;
  }

  /// Opens the regular file at `path`; not open when nothing is there.
  /// Anything else (a symbolic link, fifo, directory, socket) is a FileError.
  /// O_NONBLOCK keeps a fifo swapped in after the lstat from blocking the open.
  static OwnFile open_existing(const std::filesystem::path& path) {
    struct stat seen {};
    if (::lstat(path.c_str(), &seen) != 0) {
      if (errno == ENOENT) return {};
      throw FileError(path, last_error(), "cannot inspect");
    }
    if (!S_ISREG(seen.st_mode)) throw FileError(path, not_regular(), "not a regular file, refused");
    OwnFile f;
    f.fd_ = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (f.fd_ < 0) throw FileError(path, last_error(), "cannot open");
    struct stat st = f.stat(path);
    if (!S_ISREG(st.st_mode) || st.st_dev != seen.st_dev || st.st_ino != seen.st_ino) {
      throw FileError(path, not_regular(), "replaced while being opened, refused");
    }
    const int flags = ::fcntl(f.fd_, F_GETFL);
    if (flags < 0 || ::fcntl(f.fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) {
      throw FileError(path, last_error(), "cannot open");
    }
    return f;
  }

  std::uint64_t size(const std::filesystem::path& path) const {
    return static_cast<std::uint64_t>(stat(path).st_size);
  }

  /// Passes the first `limit` bytes to consume(data, size), leaving the write
  /// position alone; returns how many there were.
  template <class Consume>
  std::uint64_t read(std::uint64_t limit, const std::filesystem::path& path, Consume&& consume) {
    std::array<char, 64 * 1024> buffer{};
    std::uint64_t done = 0;
    while (done < limit) {
      const auto want =
          static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), limit - done));
      const ::ssize_t got = ::pread(fd_, buffer.data(), want, static_cast<::off_t>(done));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw FileError(path, last_error(), "cannot read");
      if (got == 0) break;
      consume(buffer.data(), static_cast<std::size_t>(got));
      done += static_cast<std::uint64_t>(got);
    }
    return done;
  }

  /// Places the write position at `offset`, cutting whatever lies beyond.
  void resize(std::uint64_t offset, const std::filesystem::path& path) {
    if (::ftruncate(fd_, static_cast<::off_t>(offset)) != 0 ||
        ::lseek(fd_, static_cast<::off_t>(offset), SEEK_SET) < 0) {
      throw FileError(path, last_error(), "cannot truncate");
    }
  }

  void write(const char* data, std::size_t size, const std::filesystem::path& path) {
    while (size > 0) {
      const ::ssize_t n = ::write(fd_, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw FileError(path, last_error(), "cannot write");
      data += n;
      size -= static_cast<std::size_t>(n);
    }
  }

  /// Whether `path` names this very file right now (and is not a link to it).
  bool is_at(const std::filesystem::path& path) const {
    struct stat there {};
    if (::lstat(path.c_str(), &there) != 0 || !S_ISREG(there.st_mode)) return false;
    const struct stat mine = stat(path);
    return there.st_dev == mine.st_dev && there.st_ino == mine.st_ino;
  }

  /// Closes, reporting a failed close: on network file systems the last write errors arrive here.
  void close(const std::filesystem::path& path) {
    if (fd_ < 0) return;
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0 && errno != EINTR) throw FileError(path, last_error(), "cannot write");
  }

 private:
  struct stat stat(const std::filesystem::path& path) const {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw FileError(path, last_error(), "cannot inspect");
    return st;
  }
  void close_quietly() noexcept {
    if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  }

  int fd_ = -1;
};

/// Removes the regular file at `path`, if there is one; anything else stays.
inline void remove_file_quietly(const std::filesystem::path& path) noexcept {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(path.c_str());
}

#else

// Windows: no O_NOFOLLOW and no inode numbers through the standard library, so
// the checks are made on the path (symlink_status) just before each use.
class OwnFile {
 public:
  bool is_open() const noexcept { return out_.is_open(); }

  static OwnFile create(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
      throw FileError(path, std::make_error_code(std::errc::file_exists), "cannot create");
    }
    OwnFile f;
    f.out_.open(path, std::ios::binary | std::ios::in | std::ios::out | std::ios::trunc);
    if (!f.out_) throw FileError(path, std::make_error_code(std::errc::io_error), "cannot create");
    return f;
  }

  static OwnFile open_existing(const std::filesystem::path& path) {
    std::error_code ec;
    const auto status = std::filesystem::symlink_status(path, ec);
    if (!std::filesystem::exists(status)) return {};
    if (!std::filesystem::is_regular_file(status)) {
      throw FileError(path, not_regular(), "not a regular file, refused");
    }
    OwnFile f;
    f.out_.open(path, std::ios::binary | std::ios::in | std::ios::out);
    if (!f.out_) throw FileError(path, std::make_error_code(std::errc::io_error), "cannot open");
    f.out_.seekp(0, std::ios::end);
    return f;
  }

  std::uint64_t size(const std::filesystem::path& path) {
    out_.seekg(0, std::ios::end);
    const auto end = out_.tellg();
    if (end < 0) throw FileError(path, std::make_error_code(std::errc::io_error), "cannot inspect");
    return static_cast<std::uint64_t>(end);
  }

  template <class Consume>
  std::uint64_t read(std::uint64_t limit, const std::filesystem::path& path, Consume&& consume) {
    std::array<char, 64 * 1024> buffer{};
    std::uint64_t done = 0;
    const auto position = out_.tellp();
    out_.seekg(0);
    while (done < limit) {
      const auto want =
          static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), limit - done));
      out_.read(buffer.data(), static_cast<std::streamsize>(want));
      const auto got = out_.gcount();
      if (got <= 0) break;
      consume(buffer.data(), static_cast<std::size_t>(got));
      done += static_cast<std::uint64_t>(got);
    }
    if (out_.bad()) throw FileError(path, std::make_error_code(std::errc::io_error), "cannot read");
    out_.clear();
    out_.seekp(position);
    return done;
  }

  void resize(std::uint64_t offset, const std::filesystem::path& path) {
    out_.flush();
    std::error_code ec;
    std::filesystem::resize_file(path, offset, ec);
    if (ec) throw FileError(path, ec, "cannot truncate");
    out_.seekp(static_cast<std::streamoff>(offset));
  }

  void write(const char* data, std::size_t size, const std::filesystem::path& path) {
    out_.write(data, static_cast<std::streamsize>(size));
    if (!out_) throw FileError(path, std::make_error_code(std::errc::io_error), "cannot write");
  }

  bool is_at(const std::filesystem::path& path) const {
    std::error_code ec;
    return std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec));
  }

  void close(const std::filesystem::path& path) {
    if (!out_.is_open()) return;
    out_.close();
    if (out_.fail())
      throw FileError(path, std::make_error_code(std::errc::io_error), "cannot write");
  }

 private:
  std::fstream out_;
};

inline void remove_file_quietly(const std::filesystem::path& path) noexcept {
  std::error_code ec;
  if (std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec))) {
    std::filesystem::remove(path, ec);
  }
}

#endif

/// The validator a response names for If-Range: a strong ETag, else
/// Last-Modified (weak ETags are not allowed in If-Range).
inline std::optional<std::string> validator_of(const http::Response& head) {
  const auto etag = head.headers.get("ETag");
  if (etag && etag->rfind("W/", 0) != 0) return etag;
  return head.headers.get("Last-Modified");
}

/// Whether a validator can be sent back as a header value.
inline bool usable_validator(std::string_view v) {
  if (v.empty() || v.size() > 512) return false;
  return std::none_of(v.begin(), v.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

/// The validator an earlier run saved next to its .part; nullopt when there is
/// none or it is unusable. A link or other non-regular file there is a FileError.
inline std::optional<std::string> read_validator(const std::filesystem::path& path) {
  OwnFile file = OwnFile::open_existing(path);
  if (!file.is_open()) return std::nullopt;
  std::string text;
  file.read(1024, path, [&](const char* data, std::size_t size) { text.append(data, size); });
  file.close(path);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  if (!usable_validator(text)) return std::nullopt;
  return text;
}

/// Replaces the saved validator (none: removes it), never through a link.
inline void write_validator(const std::filesystem::path& path,
                            const std::optional<std::string>& validator) {
  remove_file_quietly(path);
  if (!validator || !usable_validator(*validator)) return;
  OwnFile file = OwnFile::create(path);
  const std::string line = *validator + "\n";
  file.write(line.data(), line.size(), path);
  file.close(path);
}

/// A consumer for OwnFile::read that feeds `hasher` and ends the read with
/// the call's error once `stop` (the call's cancel and deadline) fires: a
/// file of many gigabytes takes its time to hash.
inline auto watched(Hasher& hasher, const CancelToken& stop, const std::filesystem::path& path) {
  return [&hasher, &stop, &path](const char* data, std::size_t n) {
    mgnify::detail::throw_if_stopped(stop, "hashing " + path.string());
    hasher.update(data, n);
  };
}

/// Checks an existing file against what is expected. Returns false when it
/// cannot be verified (nothing expected) or does not match.
inline bool existing_file_valid(const std::filesystem::path& path, const DownloadOptions& options,
                                DownloadResult& result, const CancelToken& stop) {
  if (!options.checksum && !options.expected_size) return false;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return false;
  if (options.expected_size && size != *options.expected_size) return false;
  if (options.checksum) {
    const std::string digest = hash_file(options.checksum->algorithm, path, stop);
    if (!options.checksum->matches(digest)) return false;
    result.verified_checksum = Checksum{options.checksum->algorithm, digest};
  }
  result.size_verified = options.expected_size.has_value();
  result.bytes = static_cast<std::uint64_t>(size);
  return true;
}

/// The state of one download across its attempts: the .part file (open for
/// the whole download), the running digest of exactly its bytes, and what the
/// server said.
class Transfer {
 public:
  Transfer(std::string url, std::filesystem::path destination, const DownloadOptions& options,
           DownloadResult& result)
      : url_(std::move(url)),
        destination_(std::move(destination)),
        part_(partial_path(destination_)),
        sidecar_(validator_path(destination_)),
        options_(options),
        result_(result) {
    if (options_.checksum) hasher_.emplace(options_.checksum->algorithm);
    total_ = options_.expected_size;
  }

  std::uint64_t offset() const noexcept { return offset_; }
  const std::optional<std::uint64_t>& total() const noexcept { return total_; }
  const std::optional<std::string>& validator() const noexcept { return validator_; }

  /// Takes over what an earlier run left at the .part path, when it can be
  /// trusted: its bytes count as done and feed the digest. Otherwise it is
  /// deleted. A non-regular file there is a FileError.
  void adopt_existing_part(const CancelToken& stop) {
    OwnFile existing = OwnFile::open_existing(part_);
    if (!existing.is_open()) {
      remove_file_quietly(sidecar_);  // left by a run that stopped after its rename
      return;
    }
    const std::optional<std::string> saved =
        options_.resume ? read_validator(sidecar_) : std::nullopt;
    const std::uint64_t size = existing.size(part_);
    // Bytes of an unknown version are kept only when a digest will judge the result.
    bool keep = options_.resume && (saved || options_.checksum);
    if (options_.expected_size && size > *options_.expected_size) keep = false;
    if (options_.max_bytes && size > *options_.max_bytes) keep = false;
    if (keep && hasher_) {
      const std::uint64_t read = existing.read(size, part_, watched(*hasher_, stop, part_));
      if (read != size) {
        hasher_->reset();
        keep = false;
      }
    }
    if (!keep) {
      existing.close(part_);
      remove_file_quietly(part_);
      remove_file_quietly(sidecar_);
      return;
    }
    existing.resize(size, part_);  // the write position goes to the end
    file_ = std::move(existing);
    offset_ = size;
    validator_ = saved;
    unchecked_splice_ = !saved && size > 0;
  }

  /// Forgets every byte: the .part is emptied and the digest starts over.
  void restart() {
    if (file_.is_open()) file_.resize(0, part_);
    offset_ = 0;
    unchecked_splice_ = false;
    if (hasher_) hasher_->reset();
  }

  /// Prepares for a new response.
  void begin_attempt() { started_ = false; }
  bool started() const noexcept { return started_; }

  /// Called with the first chunk's head (or the head of an empty 2xx body).
  void start(const http::Response& head) {
    started_ = true;
    const std::optional<std::string> served = validator_of(head);
    if (head.status == 206) {
      const auto range = parse_content_range(head.headers.value_or("Content-Range", ""));
      if (!range.first || *range.first != offset_) {
        throw RangeMismatch{"the server answered a Range request with another range"};
      }
      if (validator_ && served && !same_version(*validator_, head)) {
        // A server that ignores If-Range: its bytes belong to another version.
        throw RangeMismatch{"the server answered a Range request from another version"};
      }
      if (range.complete_length) total_ = range.complete_length;
      if (offset_ > 0) result_.resumed = true;
      // Bytes of an unknown version are vouched for by the digest alone; a
      // validator saved now would let a later run trust them.
      if (!validator_ && served && !unchecked_splice_) remember(served);
    } else {
      // A 200 to a Range request carries the whole file: the bytes on disk are
      // replaced, not appended to.
      if (offset_ > 0) restart();
      total_ = options_.expected_size;
      const auto encoded = head.headers.get("Content-Encoding");
      if (!encoded || *encoded == "identity") {
        if (auto length = parse_decimal(head.headers.value_or("Content-Length", "")))
          total_ = length;
      }
      if (served != validator_) remember(served);
    }
    if (!file_.is_open()) file_ = OwnFile::create(part_);
    if (options_.expected_size && total_ && *total_ != *options_.expected_size) {
      fail_size(*total_);
    }
    if (options_.max_bytes && total_ && *total_ > *options_.max_bytes) {
      fail_limit(*options_.max_bytes, "DownloadOptions::max_bytes");
    }
    report();
  }

  void write(const char* data, std::size_t size) {
    // Checked before writing, so no byte beyond a limit reaches the disk.
    const std::uint64_t after = offset_ + size;
    if (options_.expected_size && after > *options_.expected_size) fail_size(after);
    if (total_ && after > *total_) fail_limit(*total_, "the size the server announced");
    if (options_.max_bytes && after > *options_.max_bytes) {
      fail_limit(*options_.max_bytes, "DownloadOptions::max_bytes");
    }
    file_.write(data, size, part_);
    if (hasher_) hasher_->update(data, size);
    offset_ = after;
    result_.bytes_transferred += size;
    report();
  }

  /// After the last byte: checks size and digest, deleting the .part on a
  /// mismatch. Returns false instead when the mismatch may come from bytes an
  /// earlier run left without a validator and `may_restart`: the .part is then
  /// emptied for a fresh transfer.
  bool verify(bool may_restart) {
    if (options_.expected_size) {
      if (offset_ != *options_.expected_size) fail_size(offset_);
      result_.size_verified = true;
    }
    if (hasher_) {
      const std::string digest = hasher_->hex_digest();
      if (!options_.checksum->matches(digest)) {
        if (unchecked_splice_ && may_restart) {
          restart();
          result_.resumed = false;
          return false;
        }
        discard();
        const Checksum actual{options_.checksum->algorithm, digest};
        throw IntegrityError(IntegrityError::Kind::checksum, url_, destination_,
                             options_.checksum->to_string(), actual.to_string());
      }
      result_.verified_checksum = Checksum{options_.checksum->algorithm, digest};
    }
    return true;
  }

  /// Whether the bytes on disk already form the whole file, judged by whatever is known.
  bool known_complete(const std::optional<std::uint64_t>& server_total, const CancelToken& stop) {
    if (server_total) return offset_ == *server_total;
    if (options_.expected_size) return offset_ == *options_.expected_size;
    if (options_.checksum && file_.is_open()) {
      Hasher h(options_.checksum->algorithm);
      file_.read(offset_, part_, watched(h, stop, part_));
      return options_.checksum->matches(h.hex_digest());
    }
    return false;
  }

  /// Renames the verified .part onto the destination, but only while the .part
  /// path still names the file written here.
  void commit() {
    if (!file_.is_open()) file_ = OwnFile::create(part_);  // nothing was ever started
    if (!file_.is_at(part_)) {
      file_.close(part_);
      throw FileError(part_, not_regular(),
                      "another file took the place of the one downloaded, not renamed onto " +
                          destination_.string());
    }
    file_.close(part_);
    std::error_code ec;
    // rename(2) replaces the destination atomically: readers see the old file or the new one.
    std::filesystem::rename(part_, destination_, ec);
    if (ec) throw FileError(destination_, ec, "cannot rename " + part_.string() + " onto");
    remove_file_quietly(sidecar_);
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
  /// Whether a 206 names the version If-Range asked for, comparing like with like.
  bool same_version(const std::string& ours, const http::Response& head) const {
    const bool etag = !ours.empty() && ours.front() == '"';
    const auto theirs = head.headers.get(etag ? "ETag" : "Last-Modified");
    return !theirs || *theirs == ours;
  }

  void remember(const std::optional<std::string>& validator) {
    validator_ = validator;
    write_validator(sidecar_, validator_);
  }

  /// Deletes the .part (when it is still ours) and the saved validator.
  void discard() noexcept {
    try {
      const bool ours = file_.is_open() && file_.is_at(part_);
      file_.close(part_);
      if (ours) remove_file_quietly(part_);
    } catch (...) {
      // Best effort: the caller is already throwing the error that matters.
    }
    remove_file_quietly(sidecar_);
  }

  [[noreturn]] void fail_size(std::uint64_t actual) {
    discard();
    throw IntegrityError(IntegrityError::Kind::size, url_, destination_,
                         std::to_string(*options_.expected_size), std::to_string(actual));
  }

  [[noreturn]] void fail_limit(std::uint64_t limit, const char* source) {
    discard();
    throw SizeLimitError(url_, destination_, limit, source);
  }

  std::string url_;
  std::filesystem::path destination_;
  std::filesystem::path part_;
  std::filesystem::path sidecar_;
  const DownloadOptions& options_;
  DownloadResult& result_;
  std::optional<Hasher> hasher_;
  OwnFile file_;
  std::uint64_t offset_ = 0;
  std::optional<std::uint64_t> total_;
  std::optional<std::string> validator_;
  /// Bytes kept from an earlier run without a validator: only the digest can vouch for them.
  bool unchecked_splice_ = false;
  bool started_ = false;
  std::optional<DownloadProgress> last_reported_;
};

/// What download() and download_many() refuse before any request.
inline void check_download_arguments(const std::string& url, const std::filesystem::path& path,
                                     const DownloadOptions& options) {
  http::require_http_url(url);
  if (path.empty() || !path.has_filename()) {
    throw InvalidArgument("download destination must name a file: '" + path.string() + "'");
  }
  if (options.max_attempts < 0) throw InvalidArgument("max_attempts must be >= 0");
}

}  // namespace detail

MGNIFY_DECL DownloadResult download(http::Session& session, const std::string& url,
                                    const std::filesystem::path& path,
                                    const DownloadOptions& options, const CallOptions& per_call) {
  namespace fs = std::filesystem;
  detail::check_download_arguments(url, path, options);

  DownloadResult result;
  result.url = url;
  result.path = path;

  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    throw InvalidArgument("download destination is a directory: '" + path.string() + "'");
  }
  const CancelToken stop = per_call.token();
  if (fs::exists(path, ec) && detail::existing_file_valid(path, options, result, stop)) {
    result.already_present = true;
    // Stale leftovers of an earlier run.
    detail::remove_file_quietly(partial_path(path));
    detail::remove_file_quietly(validator_path(path));
    if (options.progress) options.progress(DownloadProgress{result.bytes, result.bytes});
    return result;
  }
  if (options.create_directories && path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw FileError(path.parent_path(), ec, "cannot create directory");
  }

  detail::Transfer transfer(url, path, options, result);
  transfer.adopt_existing_part(stop);

  const http::RetryOptions& retry = session.options().retry;
  const int max_attempts = options.max_attempts > 0 ? options.max_attempts : retry.max_attempts;
  http::Backoff backoff(retry);
  http::RequestOptions call;
  // The token is for the API's origin; file hosts elsewhere never see it.
  call.send_token = http::same_origin(url, session.base_url());
  call.max_attempts = 1;
  call.timeout = options.timeout;
  call.cancel = stop;

  for (int attempt = 1;; ++attempt) {
    result.attempts = attempt;
    const bool last = attempt >= max_attempts;
    auto pause = [&](std::optional<std::chrono::seconds> retry_after) {
      if (session.clock().sleep_or_cancel(backoff.next(attempt, retry_after), call.cancel)) {
        mgnify::detail::throw_if_stopped(call.cancel, url);
      }
    };

    http::Request request;
    request.method = http::Method::get;
    request.url = url;
    request.headers.set("Accept", "*/*");
    // Byte offsets only mean something in the file's own encoding.
    request.headers.set("Accept-Encoding", "identity");
    if (transfer.offset() > 0) {
      request.headers.set("Range", "bytes=" + std::to_string(transfer.offset()) + "-");
      if (transfer.validator()) request.headers.set("If-Range", *transfer.validator());
    }
    request.body_sink = [&transfer](const http::Response& head, const char* data,
                                    std::size_t size) {
      if (!transfer.started()) transfer.start(head);
      transfer.write(data, size);
      return true;
    };
    transfer.begin_attempt();

    try {
      http::Response response = session.execute(std::move(request), call);
      if (!transfer.started()) transfer.start(response);  // an empty body
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
      if (!transfer.verify(!last)) continue;  // a wrong splice: once more from byte 0
      break;
    } catch (const detail::RangeMismatch& mismatch) {
      transfer.restart();
      if (last) throw TransportError(TransportError::Kind::other, 0, url, mismatch.what, attempt);
    } catch (const DeadlineExceededError&) {
      throw;
    } catch (const TransportError& e) {
      // A deadline that passed is not a transient failure: another attempt
      // would only be refused, and would end as a cancel.
      if (last || !retry.is_retryable(e) || call.cancel.cancelled()) {
        throw e.with_attempts(attempt);
      }
      pause(std::nullopt);
    } catch (const ApiError& e) {
      if (e.status() == 416 && transfer.offset() > 0) {
        // The .part may already hold every byte (a previous run stopped just
        // before the rename); otherwise it is unusable and the file restarts.
        if (transfer.known_complete(std::nullopt, call.cancel)) {
          transfer.begin_attempt();
          if (transfer.verify(!last)) break;
          continue;
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
    }
  }

  result.bytes = transfer.offset();
  transfer.commit();
  transfer.report_finished();
  return result;
}

namespace detail {

/// A path as a file system that ignores ASCII case sees it; the parent is
/// resolved through existing links, the file name itself is not (a rename
/// replaces a link, it does not write through it).
inline std::string folded_path(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const fs::path absolute = fs::absolute(path).lexically_normal();
  std::error_code ec;
  fs::path parent = fs::weakly_canonical(absolute.parent_path(), ec);
  if (ec) parent = absolute.parent_path();
  std::string text = (parent / absolute.filename()).lexically_normal().string();
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

/// Throws InvalidArgument naming both paths when one job's destination is, or
/// could be (ASCII case aside), another job's destination, .part or validator file.
inline void check_disjoint_files(const std::vector<DownloadJob>& jobs) {
  std::map<std::string, std::size_t> destinations;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const auto [at, inserted] = destinations.emplace(folded_path(jobs[i].path), i);
    if (!inserted) {
      throw InvalidArgument("two downloads write to the same file: " +
                            jobs[at->second].path.string() + " and " + jobs[i].path.string());
    }
  }
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    for (const auto& own : {partial_path(jobs[i].path), validator_path(jobs[i].path)}) {
      const auto hit = destinations.find(folded_path(own));
      if (hit != destinations.end()) {
        throw InvalidArgument("a download's destination is another's temporary file: " +
                              jobs[hit->second].path.string() + " is " + own.string() + " of " +
                              jobs[i].path.string());
      }
    }
  }
}

}  // namespace detail

MGNIFY_DECL std::vector<Result<DownloadResult>> download_many(http::Session& session,
                                                              const std::vector<DownloadJob>& jobs,
                                                              const BatchOptions& batch,
                                                              BatchProgressCallback bytes_progress,
                                                              JobFinishedCallback job_finished,
                                                              const CallOptions& call) {
  const std::size_t concurrency =
      batch.concurrency > 0 ? batch.concurrency : kDefaultDownloadConcurrency;
  // Every job's arguments before the first request: a batch with a bad job
  // starts none.
  for (const auto& job : jobs) detail::check_download_arguments(job.url, job.path, job.options);
  detail::check_disjoint_files(jobs);

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
    if (!bytes_progress) return;
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
    bytes_progress(state);
  };
  // Called with the lock held, once per job, whatever its outcome.
  auto finished = [&](bool failed) {
    ++state.files_done;
    if (failed) ++state.files_failed;
    publish();
    if (!batch.progress) return;
    try {
      batch.progress(state.files_done, state.files_total);
    } catch (...) {
      // A failing progress display must not turn a downloaded file into a failure.
    }
  };

  // One token for every job, so that the deadline counts from the batch's start.
  const CallOptions job_call = mgnify::detail::batch_call(call);
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
      mgnify::detail::throw_if_stopped(job_call.cancel, jobs[i].url);
      DownloadResult r = download(session, jobs[i].url, jobs[i].path, options, job_call);
      // Outside the lock: a caller that hashes the file must not stall the
      // other transfers' progress.
      if (job_finished) job_finished(i, r);
      std::lock_guard<std::mutex> lock(mutex);
      slots[i].bytes = r.bytes;
      slots[i].total = r.bytes;
      finished(false);
      return r;
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      finished(true);
      throw;
    }
  });
}

}  // namespace files
MGNIFY_NAMESPACE_END
