#pragma once

// File digests for download verification. MGnify's v1 API publishes a
// `file-checksum` {checksum, checksum-algorithm} per download; OpenSSL's
// libcrypto (already linked through libcurl's TLS) computes MD5, SHA-1 and
// SHA-256 incrementally, so a file is hashed while it streams to disk.
// HMAC-SHA256 signs what must not be forged by someone without the key (the
// response cache's entries).

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "mgnify/error.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace files {

enum class HashAlgorithm { md5, sha1, sha256 };

/// "MD5", "SHA1" or "SHA256".
inline const char* hash_algorithm_name(HashAlgorithm algorithm) noexcept {
  switch (algorithm) {
    case HashAlgorithm::md5:
      return "MD5";
    case HashAlgorithm::sha1:
      return "SHA1";
    case HashAlgorithm::sha256:
      return "SHA256";
  }
  return "MD5";
}

/// Length of the lower-case hex digest (32, 40 or 64).
inline std::size_t digest_hex_length(HashAlgorithm algorithm) noexcept {
  switch (algorithm) {
    case HashAlgorithm::md5:
      return 32;
    case HashAlgorithm::sha1:
      return 40;
    case HashAlgorithm::sha256:
      return 64;
  }
  return 0;
}

/// Accepts the spellings found in the wild ("md5", "SHA-1", "sha_256", "SHA256"):
/// case, '-' and '_' are ignored. nullopt for anything else.
inline std::optional<HashAlgorithm> parse_hash_algorithm(std::string_view name) {
  std::string key;
  for (char c : name) {
    if (c == '-' || c == '_' || c == ' ') continue;
    key.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  if (key == "md5") return HashAlgorithm::md5;
  if (key == "sha1") return HashAlgorithm::sha1;
  if (key == "sha256") return HashAlgorithm::sha256;
  return std::nullopt;
}

/// An expected (or computed) digest: algorithm plus lower-case hex.
struct Checksum {
  HashAlgorithm algorithm = HashAlgorithm::sha256;
  std::string hex;

  /// Validates the hex digest's characters and length for the algorithm and
  /// normalises it to lower case. Throws InvalidArgument.
  static Checksum of(HashAlgorithm algorithm, std::string_view hex) {
    Checksum c;
    c.algorithm = algorithm;
    for (char ch : hex) {
      if (!std::isxdigit(static_cast<unsigned char>(ch))) {
        throw InvalidArgument("checksum '" + std::string(hex) + "' is not hexadecimal");
      }
      c.hex.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
    }
    if (c.hex.size() != digest_hex_length(algorithm)) {
      throw InvalidArgument(std::string("a ") + hash_algorithm_name(algorithm) + " checksum has " +
                            std::to_string(digest_hex_length(algorithm)) + " hex digits, '" +
                            std::string(hex) + "' has " + std::to_string(hex.size()));
    }
    return c;
  }

  /// From an API record such as v1's `file-checksum`, which sends empty strings
  /// when the checksum is unknown: an empty digest -> nullopt. An unknown algorithm
  /// or a malformed digest throws InvalidArgument rather than skipping the check.
  static std::optional<Checksum> from_record(std::string_view algorithm, std::string_view hex) {
    if (hex.empty()) return std::nullopt;
    const auto parsed = parse_hash_algorithm(algorithm);
    if (!parsed) {
      throw InvalidArgument("unsupported checksum algorithm '" + std::string(algorithm) +
                            "' (MD5, SHA1 and SHA256 are supported)");
    }
    return of(*parsed, hex);
  }

  /// Case-insensitive comparison with another hex digest.
  bool matches(std::string_view other_hex) const noexcept {
    if (other_hex.size() != hex.size()) return false;
    for (std::size_t i = 0; i < hex.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(other_hex[i])) != hex[i]) return false;
    }
    return true;
  }

  /// "SHA256:ab12..."
  std::string to_string() const { return std::string(hash_algorithm_name(algorithm)) + ":" + hex; }

  friend bool operator==(const Checksum& a, const Checksum& b) {
    return a.algorithm == b.algorithm && a.hex == b.hex;
  }
  friend bool operator!=(const Checksum& a, const Checksum& b) { return !(a == b); }
};

namespace detail {

inline std::string lower_hex(const unsigned char* bytes, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i) {
    hex.push_back(kDigits[bytes[i] >> 4]);
    hex.push_back(kDigits[bytes[i] & 0x0f]);
  }
  return hex;
}

}  // namespace detail

/// HMAC-SHA256 of `data` under `key`, as 64 lower-case hex digits.
inline std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> raw{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), raw.data(),
           &length) == nullptr) {
    throw Error("HMAC-SHA256 failed");
  }
  return detail::lower_hex(raw.data(), length);
}

/// Incremental digest over libcrypto's EVP interface. Not copyable; one per stream.
class Hasher {
 public:
  explicit Hasher(HashAlgorithm algorithm) : algorithm_(algorithm), ctx_(EVP_MD_CTX_new()) {
    if (!ctx_) throw Error("EVP_MD_CTX_new failed");
    reset();
  }

  HashAlgorithm algorithm() const noexcept { return algorithm_; }

  /// Starts over, as if nothing had been hashed.
  void reset() {
    if (EVP_DigestInit_ex(ctx_.get(), md(algorithm_), nullptr) != 1) {
      throw Error(std::string("cannot initialise ") + hash_algorithm_name(algorithm_));
    }
    finished_ = false;
  }

  void update(const void* data, std::size_t size) {
    if (finished_) throw std::logic_error("Hasher::update after hex_digest");
    if (size > 0 && EVP_DigestUpdate(ctx_.get(), data, size) != 1) {
      throw Error(std::string(hash_algorithm_name(algorithm_)) + " update failed");
    }
  }
  void update(std::string_view data) { update(data.data(), data.size()); }

  /// Finishes and returns the lower-case hex digest. Call reset() to reuse.
  std::string hex_digest() {
    if (finished_) throw std::logic_error("Hasher::hex_digest called twice without reset");
    std::array<unsigned char, EVP_MAX_MD_SIZE> raw{};
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(ctx_.get(), raw.data(), &length) != 1) {
      throw Error(std::string(hash_algorithm_name(algorithm_)) + " finalisation failed");
    }
    finished_ = true;
    return detail::lower_hex(raw.data(), length);
  }

 private:
  static const EVP_MD* md(HashAlgorithm algorithm) {
    switch (algorithm) {
      case HashAlgorithm::md5:
        return EVP_md5();
      case HashAlgorithm::sha1:
        return EVP_sha1();
      case HashAlgorithm::sha256:
        return EVP_sha256();
    }
    return EVP_sha256();
  }
  struct CtxFree {
    void operator()(EVP_MD_CTX* ctx) const noexcept { EVP_MD_CTX_free(ctx); }
  };

  HashAlgorithm algorithm_;
  std::unique_ptr<EVP_MD_CTX, CtxFree> ctx_;
  bool finished_ = false;
};

inline std::string hash_bytes(HashAlgorithm algorithm, std::string_view data) {
  Hasher h(algorithm);
  h.update(data);
  return h.hex_digest();
}

namespace detail {

/// Feeds the first `limit` bytes of a file (all of it when nullopt) into a hasher;
/// returns how many bytes were read. Throws FileError.
inline std::uint64_t hash_file_into(Hasher& hasher, const std::filesystem::path& path,
                                    std::optional<std::uint64_t> limit = std::nullopt) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw FileError(path, std::make_error_code(std::errc::no_such_file_or_directory),
                    "cannot open for reading");
  }
  std::array<char, 64 * 1024> buffer{};
  std::uint64_t total = 0;
  while (!limit || total < *limit) {
    std::size_t want = buffer.size();
    if (limit) want = static_cast<std::size_t>(std::min<std::uint64_t>(want, *limit - total));
    in.read(buffer.data(), static_cast<std::streamsize>(want));
    const auto got = in.gcount();
    if (got <= 0) break;
    hasher.update(buffer.data(), static_cast<std::size_t>(got));
    total += static_cast<std::uint64_t>(got);
  }
  if (in.bad()) throw FileError(path, std::make_error_code(std::errc::io_error), "read failed");
  return total;
}

}  // namespace detail

/// The hex digest of a whole file. Throws FileError when it cannot be read.
inline std::string hash_file(HashAlgorithm algorithm, const std::filesystem::path& path) {
  Hasher h(algorithm);
  detail::hash_file_into(h, path);
  return h.hex_digest();
}

}  // namespace files
}  // namespace v0
}  // namespace mgnify
