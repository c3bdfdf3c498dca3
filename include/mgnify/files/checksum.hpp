#pragma once

// File digests for download verification. MGnify's v1 API publishes a
// `file-checksum` {checksum, checksum-algorithm} per download; OpenSSL's
// libcrypto (already linked through libcurl's TLS) computes MD5, SHA-1 and
// SHA-256 incrementally, so a file is hashed while it streams to disk.
// HMAC-SHA256 signs what must not be forged by someone without the key (the
// response cache's entries).
//
// libcrypto is named only by the bodies (impl/checksum.ipp): the hasher holds
// its digest context behind an opaque pointer, so a program built against the
// compiled library does not parse OpenSSL's headers for every client header.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mgnify/cancel.hpp"
#include "mgnify/config.hpp"
#include "mgnify/enum_table.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace files {

enum class HashAlgorithm { md5, sha1, sha256 };

/// Each algorithm's name, as parse_hash_algorithm reads it after dropping
/// separators and case.
constexpr auto enum_names(HashAlgorithm) {
  return enum_table<HashAlgorithm>({
      {HashAlgorithm::md5, "MD5"},
      {HashAlgorithm::sha1, "SHA1"},
      {HashAlgorithm::sha256, "SHA256"},
  });
}

/// "MD5", "SHA1" or "SHA256".
MGNIFY_DECL const char* hash_algorithm_name(HashAlgorithm algorithm) noexcept;

/// Length of the lower-case hex digest (32, 40 or 64).
MGNIFY_DECL std::size_t digest_hex_length(HashAlgorithm algorithm) noexcept;

/// Accepts the spellings found in the wild ("md5", "SHA-1", "sha_256", "SHA256"):
/// case, '-' and '_' are ignored. nullopt for anything else.
MGNIFY_DECL std::optional<HashAlgorithm> parse_hash_algorithm(std::string_view name);

/// An expected (or computed) digest: algorithm plus lower-case hex.
struct Checksum {
  HashAlgorithm algorithm = HashAlgorithm::sha256;
  std::string hex;

  /// Validates the hex digest's characters and length for the algorithm and
  /// normalises it to lower case. Throws InvalidArgument.
  MGNIFY_DECL static Checksum of(HashAlgorithm algorithm, std::string_view hex);

  /// From an API record such as v1's `file-checksum`, which sends empty strings
  /// when the checksum is unknown: an empty digest -> nullopt. An unknown algorithm
  /// or a malformed digest throws InvalidArgument rather than skipping the check.
  MGNIFY_DECL static std::optional<Checksum> from_record(std::string_view algorithm,
                                                         std::string_view hex);

  /// Case-insensitive comparison with another hex digest.
  MGNIFY_DECL bool matches(std::string_view other_hex) const noexcept;

  /// "SHA256:ab12..."
  MGNIFY_DECL std::string to_string() const;

  friend bool operator==(const Checksum& a, const Checksum& b) {
    return a.algorithm == b.algorithm && a.hex == b.hex;
  }
  friend bool operator!=(const Checksum& a, const Checksum& b) { return !(a == b); }
};

namespace detail {

MGNIFY_DECL std::string lower_hex(const unsigned char* bytes, std::size_t size);

/// libcrypto's digest context (EVP_MD_CTX), known by name to the bodies alone.
struct HashContext;
struct HashContextFree {
  MGNIFY_DECL void operator()(HashContext* context) const noexcept;
};

}  // namespace detail

/// HMAC-SHA256 of `data` under `key`, as 64 lower-case hex digits.
MGNIFY_DECL std::string hmac_sha256_hex(std::string_view key, std::string_view data);

/// Incremental digest over libcrypto's EVP interface. Not copyable; one per stream.
class Hasher {
 public:
  MGNIFY_DECL explicit Hasher(HashAlgorithm algorithm);

  HashAlgorithm algorithm() const noexcept { return algorithm_; }

  /// Starts over, as if nothing had been hashed.
  MGNIFY_DECL void reset();

  MGNIFY_DECL void update(const void* data, std::size_t size);
  void update(std::string_view data) { update(data.data(), data.size()); }

  /// Finishes and returns the lower-case hex digest. Call reset() to reuse.
  MGNIFY_DECL std::string hex_digest();

 private:
  HashAlgorithm algorithm_;
  std::unique_ptr<detail::HashContext, detail::HashContextFree> ctx_;
  bool finished_ = false;
};

MGNIFY_DECL std::string hash_bytes(HashAlgorithm algorithm, std::string_view data);

namespace detail {

/// Feeds the first `limit` bytes of a file (all of it when nullopt) into a hasher;
/// returns how many bytes were read. Throws FileError; between reads, the
/// error of a call that `stop` ended (CancelledError, or a timeout past its deadline).
MGNIFY_DECL std::uint64_t hash_file_into(Hasher& hasher, const std::filesystem::path& path,
                                         std::optional<std::uint64_t> limit = std::nullopt,
                                         const CancelToken& stop = CancelToken::never());

}  // namespace detail

/// The hex digest of a whole file. Throws FileError when it cannot be read,
/// and CancelledError (or a timeout TransportError) once `stop` fires.
MGNIFY_DECL std::string hash_file(HashAlgorithm algorithm, const std::filesystem::path& path,
                                  const CancelToken& stop = CancelToken::never());

}  // namespace files
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/files/impl/checksum.ipp"
#endif
