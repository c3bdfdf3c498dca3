#pragma once

// Failures specific to file downloads, next to the SDK's other typed errors:
// the local file system refused something (FileError), or the bytes that
// arrived are not the file the API described (IntegrityError), or more of them
// arrived than allowed (SizeLimitError).

#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

/// A local file could not be created, written, read or renamed.
class FileError : public Error {
 public:
  MGNIFY_ERROR_CLONE(FileError)
  FileError(std::filesystem::path path, std::error_code code, const std::string& what)
      : Error(what + ": " + path.string() + (code ? " (" + code.message() + ")" : std::string())),
        path_(std::move(path)),
        code_(code) {}

  const std::filesystem::path& path() const noexcept { return path_; }
  const std::error_code& code() const noexcept { return code_; }

 private:
  std::filesystem::path path_;
  std::error_code code_;
};

/// A download completed but failed verification: its digest or its size is not
/// what the API published. The partial file has been deleted and no file was
/// left at the destination path.
class IntegrityError : public Error {
 public:
  MGNIFY_ERROR_CLONE(IntegrityError)
  enum class Kind { checksum, size };

  IntegrityError(Kind kind, std::string url, std::filesystem::path path, std::string expected,
                 std::string actual)
      : Error(compose(kind, url, path, expected, actual)),
        kind_(kind),
        url_(std::move(url)),
        path_(std::move(path)),
        expected_(std::move(expected)),
        actual_(std::move(actual)) {}

  Kind kind() const noexcept { return kind_; }
  const std::string& url() const noexcept { return url_; }
  /// The destination that was not written.
  const std::filesystem::path& path() const noexcept { return path_; }
  /// For checksums "ALGORITHM:hex"; for sizes a decimal byte count.
  const std::string& expected() const noexcept { return expected_; }
  const std::string& actual() const noexcept { return actual_; }

 private:
  static std::string compose(Kind kind, const std::string& url, const std::filesystem::path& path,
                             const std::string& expected, const std::string& actual) {
    return std::string(kind == Kind::checksum ? "checksum mismatch" : "size mismatch") + " for " +
           url + " -> " + path.string() + ": expected " + expected + ", got " + actual;
  }

  Kind kind_;
  std::string url_;
  std::filesystem::path path_;
  std::string expected_;
  std::string actual_;
};

/// A download sent more bytes than it may: more than DownloadOptions::max_bytes,
/// or more than the server itself announced (Content-Length, Content-Range).
/// The transfer was stopped before the excess reached the disk, the partial
/// file has been deleted, and it is not retried: the same server would send
/// the same bytes again.
class SizeLimitError : public Error {
 public:
  MGNIFY_ERROR_CLONE(SizeLimitError)
  SizeLimitError(std::string url, std::filesystem::path path, std::uint64_t limit,
                 const std::string& source)
      : Error("download of " + url + " -> " + path.string() + " exceeds " + source + " (" +
              std::to_string(limit) + " bytes)"),
        url_(std::move(url)),
        path_(std::move(path)),
        limit_(limit) {}

  const std::string& url() const noexcept { return url_; }
  /// The destination that was not written.
  const std::filesystem::path& path() const noexcept { return path_; }
  /// The byte count that was exceeded.
  std::uint64_t limit() const noexcept { return limit_; }

 private:
  std::string url_;
  std::filesystem::path path_;
  std::uint64_t limit_;
};

MGNIFY_NAMESPACE_END
