#pragma once

// Byte-level encodings the mock's services share: CRC-32, little-endian
// fields and gzip made of stored deflate blocks.

#include <cstdint>
#include <string>

namespace mgnify::mock {

/// CRC-32 (IEEE 802.3, the one gzip and ZIP carry) of `bytes`.
std::uint32_t crc32_of(const std::string& bytes);

/// Appends the low `bytes` bytes of `value`, least significant first.
void put_le(std::string& out, std::uint64_t value, int bytes);

/// RFC 1952 around RFC 1951 stored blocks: gunzip reads it without the mock
/// needing a compressor, and its length is a function of the input length alone.
std::string gzip_stored(const std::string& raw);

}  // namespace mgnify::mock
