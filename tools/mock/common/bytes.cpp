#include "common/bytes.hpp"

#include <algorithm>
#include <array>

namespace mgnify::mock {

std::uint32_t crc32_of(const std::string& bytes) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFU;
  for (char ch : bytes) c = table[(c ^ static_cast<unsigned char>(ch)) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFU;
}

void put_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

namespace {
constexpr std::size_t kStoredBlock = 65535;  // the largest stored deflate block
}  // namespace

std::string gzip_stored(const std::string& raw) {
  std::string out("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);  // no name, no mtime
  std::size_t pos = 0;
  do {
    const std::size_t n = std::min(kStoredBlock, raw.size() - pos);
    out.push_back(pos + n == raw.size() ? 1 : 0);  // BFINAL, BTYPE 00
    put_le(out, n, 2);
    put_le(out, ~n & 0xffff, 2);
    out.append(raw, pos, n);
    pos += n;
  } while (pos < raw.size());
  put_le(out, crc32_of(raw), 4);
  put_le(out, raw.size() & 0xffffffffU, 4);
  return out;
}

}  // namespace mgnify::mock
