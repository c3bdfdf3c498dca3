#include "gzip_text.hpp"

#include <zlib.h>

#include <cerrno>
#include <fstream>
#include <mgnify/error.hpp>
#include <mgnify/files/download_errors.hpp>
#include <system_error>

namespace mgnify_cli {

namespace {

mgnify::FileError too_large(const std::filesystem::path& path, std::uint64_t max_bytes,
                            const char* what) {
  return mgnify::FileError(
      path, std::make_error_code(std::errc::file_too_large),
      std::string(what) + " more than the limit of " + std::to_string(max_bytes) + " bytes");
}

std::string gunzip(const std::string& in, const std::filesystem::path& path,
                   std::uint64_t max_bytes) {
  const std::string name = path.filename().string();
  z_stream stream{};
  // 15 + 16: gzip framing only, the largest window.
  if (inflateInit2(&stream, 15 + 16) != Z_OK) throw mgnify::Error("cannot start gunzip");
  std::string out;
  char buffer[1 << 16];
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  stream.avail_in = static_cast<uInt>(in.size());
  int status = Z_OK;
  for (;;) {
    stream.next_out = reinterpret_cast<Bytef*>(buffer);
    stream.avail_out = sizeof buffer;
    status = inflate(&stream, Z_NO_FLUSH);
    const std::size_t produced = sizeof buffer - stream.avail_out;
    // Checked before the text grows: a bomb stops at the bound, not after it.
    if (produced > max_bytes - out.size()) {
      inflateEnd(&stream);
      throw too_large(path, max_bytes, "inflates to");
    }
    out.append(buffer, produced);
    if (status == Z_STREAM_END) {
      // bgzip: another member may follow.
      if (stream.avail_in == 0) break;
      if (inflateReset(&stream) != Z_OK) break;
      continue;
    }
    if (status != Z_OK || (stream.avail_in == 0 && stream.avail_out != 0)) break;
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) {
    throw mgnify::Error(name + ": corrupt or truncated gzip data" +
                        (stream.msg ? std::string(" (") + stream.msg + ")" : std::string()));
  }
  return out;
}

}  // namespace

std::string read_maybe_gzip(const std::filesystem::path& path, std::uint64_t max_bytes) {
  errno = 0;
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    const int reason = errno;
    throw mgnify::FileError(path.string(),
                            reason ? std::error_code(reason, std::generic_category())
                                   : std::make_error_code(std::errc::io_error),
                            "cannot read");
  }
  // Read in chunks against the bound, so neither a huge file nor a FIFO is held whole.
  std::string bytes;
  char chunk[1 << 16];
  while (file.read(chunk, sizeof chunk) || file.gcount() > 0) {
    const auto got = static_cast<std::size_t>(file.gcount());
    if (got > max_bytes - bytes.size()) throw too_large(path, max_bytes, "holds");
    bytes.append(chunk, got);
  }
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    return gunzip(bytes, path, max_bytes);
  }
  return bytes;
}

}  // namespace mgnify_cli
