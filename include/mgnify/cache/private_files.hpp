#pragma once

// POSIX file handling for a directory that must stay private to its user: the
// response cache trusts what it reads from its directory, so whoever else can
// write there could choose what every process using it receives. Files are
// opened without following symbolic links and without blocking on a FIFO, and
// new ones are created exclusively, so a name planted by someone else is
// refused rather than written through.

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

inline std::error_code last_errno() { return std::error_code(errno, std::generic_category()); }

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
  MGNIFY_DECL ~FileDescriptor();
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const noexcept { return fd_; }
  /// Closes now, so that a failed close (a full disk on NFS) is seen.
  MGNIFY_DECL bool close() noexcept;

 private:
  int fd_;
};

/// `size` bytes from the kernel's generator (getentropy: full entropy, never
/// a seeded PRNG). Throws Error when the kernel has none to give.
MGNIFY_DECL std::string random_bytes(std::size_t size);

/// 2 * `bytes` lower-case hex digits of random_bytes.
MGNIFY_DECL std::string random_hex(std::size_t bytes);

/// Why `st` may not hold data only its user should control, or nullopt when
/// it may: it must belong to the effective user and be writable by nobody else.
MGNIFY_DECL std::optional<std::string> not_private_because(const struct stat& st);

/// Throws FileError unless `path` (symbolic links followed) is a directory the
/// effective user owns and nobody else may write to.
MGNIFY_DECL void require_private_directory(const std::filesystem::path& path, const char* what);

/// The whole of a regular file the effective user owns, read without
/// following a symbolic link or waiting on a FIFO. nullopt when there is no
/// such name; an empty string for anything else that is not such a file, or
/// is longer than `limit` bytes, or cannot be read.
MGNIFY_DECL std::optional<std::string> read_own_regular_file(const std::filesystem::path& path,
                                                             std::uint64_t limit);

/// Creates `path` (mode 0600, never through an existing name or a symbolic
/// link) holding `bytes`. False when it cannot, with nothing left behind but
/// what another process may own under that name.
MGNIFY_DECL bool write_new_private_file(const std::filesystem::path& path, std::string_view bytes);

}  // namespace detail
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/cache/impl/private_files.ipp"
#endif
