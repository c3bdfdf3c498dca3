#pragma once

// Bodies of the digests (mgnify/files/checksum.hpp): the only file of the SDK
// that includes OpenSSL.

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include "mgnify/call_options.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/checksum.hpp"
#include "mgnify/files/download_errors.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace files {

MGNIFY_DECL const char* hash_algorithm_name(HashAlgorithm algorithm) noexcept {
  const char* name = enum_text(algorithm);
  return *name != '\0' ? name : "MD5";
}

MGNIFY_DECL std::size_t digest_hex_length(HashAlgorithm algorithm) noexcept {
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

MGNIFY_DECL std::optional<HashAlgorithm> parse_hash_algorithm(std::string_view name) {
  std::string key;
  for (char c : name) {
    if (c == '-' || c == '_' || c == ' ') continue;
    key.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  }
  return enum_value<HashAlgorithm>(key);
}

MGNIFY_DECL Checksum Checksum::of(HashAlgorithm algorithm, std::string_view hex) {
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

MGNIFY_DECL std::optional<Checksum> Checksum::from_record(std::string_view algorithm,
                                                          std::string_view hex) {
  if (hex.empty()) return std::nullopt;
  const auto parsed = parse_hash_algorithm(algorithm);
  if (!parsed) {
    throw InvalidArgument("unsupported checksum algorithm '" + std::string(algorithm) +
                          "' (MD5, SHA1 and SHA256 are supported)");
  }
  return of(*parsed, hex);
}

MGNIFY_DECL bool Checksum::matches(std::string_view other_hex) const noexcept {
  if (other_hex.size() != hex.size()) return false;
  for (std::size_t i = 0; i < hex.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(other_hex[i])) != hex[i]) return false;
  }
  return true;
}

MGNIFY_DECL std::string Checksum::to_string() const {
  return std::string(hash_algorithm_name(algorithm)) + ":" + hex;
}

namespace detail {

MGNIFY_DECL std::string lower_hex(const unsigned char* bytes, std::size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i) {
    hex.push_back(kDigits[bytes[i] >> 4]);
    hex.push_back(kDigits[bytes[i] & 0x0f]);
  }
  return hex;
}

// HashContext is never defined: its pointers are EVP_MD_CTX pointers under
// another name, converted back here before libcrypto sees them.
inline EVP_MD_CTX* evp_context(HashContext* context) noexcept {
  return reinterpret_cast<EVP_MD_CTX*>(context);
}

MGNIFY_DECL void HashContextFree::operator()(HashContext* context) const noexcept {
  EVP_MD_CTX_free(evp_context(context));
}

inline const EVP_MD* evp_digest(HashAlgorithm algorithm) noexcept {
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

}  // namespace detail

MGNIFY_DECL std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> raw{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
           reinterpret_cast<const unsigned char*>(data.data()), data.size(), raw.data(),
           &length) == nullptr) {
    throw Error("HMAC-SHA256 failed");
  }
  return detail::lower_hex(raw.data(), length);
}

MGNIFY_DECL Hasher::Hasher(HashAlgorithm algorithm)
    : algorithm_(algorithm), ctx_(reinterpret_cast<detail::HashContext*>(EVP_MD_CTX_new())) {
  if (!ctx_) throw Error("EVP_MD_CTX_new failed");
  reset();
}

MGNIFY_DECL void Hasher::reset() {
  if (EVP_DigestInit_ex(detail::evp_context(ctx_.get()), detail::evp_digest(algorithm_), nullptr) !=
      1) {
    throw Error(std::string("cannot initialise ") + hash_algorithm_name(algorithm_));
  }
  finished_ = false;
}

MGNIFY_DECL void Hasher::update(const void* data, std::size_t size) {
  if (finished_) throw std::logic_error("Hasher::update after hex_digest");
  if (size > 0 && EVP_DigestUpdate(detail::evp_context(ctx_.get()), data, size) != 1) {
    throw Error(std::string(hash_algorithm_name(algorithm_)) + " update failed");
  }
}

MGNIFY_DECL std::string Hasher::hex_digest() {
  if (finished_) throw std::logic_error("Hasher::hex_digest called twice without reset");
  std::array<unsigned char, EVP_MAX_MD_SIZE> raw{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(detail::evp_context(ctx_.get()), raw.data(), &length) != 1) {
    throw Error(std::string(hash_algorithm_name(algorithm_)) + " finalisation failed");
  }
  finished_ = true;
  return detail::lower_hex(raw.data(), length);
}

MGNIFY_DECL std::string hash_bytes(HashAlgorithm algorithm, std::string_view data) {
  Hasher h(algorithm);
  h.update(data);
  return h.hex_digest();
}

namespace detail {

MGNIFY_DECL std::uint64_t hash_file_into(Hasher& hasher, const std::filesystem::path& path,
                                         std::optional<std::uint64_t> limit,
                                         const CancelToken& stop) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw FileError(path, std::make_error_code(std::errc::no_such_file_or_directory),
                    "cannot open for reading");
  }
  std::array<char, 64 * 1024> buffer{};
  std::uint64_t total = 0;
  while (!limit || total < *limit) {
    mgnify::detail::throw_if_stopped(stop, "hashing " + path.string());
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

MGNIFY_DECL std::string hash_file(HashAlgorithm algorithm, const std::filesystem::path& path,
                                  const CancelToken& stop) {
  Hasher h(algorithm);
  detail::hash_file_into(h, path, std::nullopt, stop);
  return h.hex_digest();
}

}  // namespace files
MGNIFY_NAMESPACE_END
