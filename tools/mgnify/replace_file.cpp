#include "replace_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <mgnify/cache/private_files.hpp>
#include <mgnify/files/download_errors.hpp>
#include <string>
#include <system_error>

namespace mgnify_cli {
namespace {

[[noreturn]] void fail(const std::filesystem::path& path, int error, const char* what) {
  throw mgnify::FileError(path, std::error_code(error, std::generic_category()),
                          std::string("cannot write ") + what);
}

}  // namespace

void replace_file(const std::filesystem::path& path, std::string_view bytes, const char* what) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) fail(path, ec.value(), what);
  const std::filesystem::path temporary =
      folder / ("." + path.filename().string() + "." + mgnify::detail::random_hex(8) + ".tmp");
  const int fd =
      ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) fail(path, errno, what);
  int error = 0;
  for (std::size_t written = 0; error == 0 && written < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : EIO;
    } else {
      written += static_cast<std::size_t>(n);
    }
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && ::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
  if (error != 0) {
    ::unlink(temporary.c_str());
    fail(path, error, what);
  }
}

}  // namespace mgnify_cli
