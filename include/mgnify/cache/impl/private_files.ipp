#pragma once

// Bodies of mgnify/cache/private_files.hpp.

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

#include "mgnify/cache/private_files.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

MGNIFY_DECL std::string random_bytes(std::size_t size) {
  std::string out(size, '\0');
  for (std::size_t at = 0; at < size;) {
    const std::size_t chunk = std::min<std::size_t>(256, size - at);  // getentropy's limit
    if (::getentropy(&out[at], chunk) != 0) {
      throw Error("no random bytes from the system: " + last_errno().message());
    }
    at += chunk;
  }
  return out;
}

MGNIFY_DECL std::string random_hex(std::size_t bytes) {
  const std::string raw = random_bytes(bytes);
  return files::detail::lower_hex(reinterpret_cast<const unsigned char*>(raw.data()), raw.size());
}

MGNIFY_DECL std::optional<std::string> not_private_because(const struct stat& st) {
  if (st.st_uid != ::geteuid()) {
    return "belongs to another user (uid " + std::to_string(st.st_uid) +
           "); use a directory of your own";
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return "is writable by group or others; use one only you can write to (chmod go-w)";
  }
  return std::nullopt;
}

MGNIFY_DECL void require_private_directory(const std::filesystem::path& path, const char* what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw FileError(path, last_errno(), std::string(what));
  if (!S_ISDIR(st.st_mode)) {
    throw FileError(path, std::make_error_code(std::errc::not_a_directory), what);
  }
  if (auto why = not_private_because(st)) throw FileError(path, {}, std::string(what) + " " + *why);
}

MGNIFY_DECL std::optional<std::string> read_own_regular_file(const std::filesystem::path& path,
                                                             std::uint64_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    return std::string();
  }
  FileDescriptor file(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid() ||
      static_cast<std::uint64_t>(st.st_size) > limit) {
    return std::string();
  }
  std::string bytes;
  bytes.reserve(static_cast<std::size_t>(st.st_size));
  char buffer[64 * 1024];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return std::string();
    if (got == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(got));
    if (bytes.size() > limit) return std::string();
  }
  return bytes;
}

MGNIFY_DECL bool write_new_private_file(const std::filesystem::path& path, std::string_view bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  FileDescriptor file(fd);
  bool ok = true;
  for (std::size_t at = 0; ok && at < bytes.size();) {
    const ssize_t wrote = ::write(fd, bytes.data() + at, bytes.size() - at);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) ok = false;
    if (ok) at += static_cast<std::size_t>(wrote);
  }
  ok = file.close() && ok;
  if (!ok) ::unlink(path.c_str());
  return ok;
}

MGNIFY_DECL FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

MGNIFY_DECL bool FileDescriptor::close() noexcept {
  const int fd = fd_;
  fd_ = -1;
  return ::close(fd) == 0;
}

}  // namespace detail
MGNIFY_NAMESPACE_END
