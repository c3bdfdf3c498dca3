#pragma once

// The on-disk form of one cached response. A file is
//   "mgnify-response-cache 3\n" <metadata JSON> "\n" <body> <HMAC-SHA256 of all before, 64 hex>
// under the cache's secret, so that a truncated, garbled or half-written file,
// or one rewritten by anyone without the secret, is recognised by its
// trailing digest and reads as "no entry", never as a wrong response. The
// metadata names the key the entry was written under, inside the signed text:
// an intact entry copied or renamed to another key's file name answers
// another request, and reads as "no entry" there too.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/files/checksum.hpp"
#include "mgnify/http/headers.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace detail {

inline constexpr std::string_view kCacheEntryMagic = "mgnify-response-cache 3\n";
inline constexpr std::size_t kCacheEntryDigestLength = 64;

struct CacheEntry {
  std::chrono::system_clock::time_point stored_at;
  http::Response response;
};

/// Headers worth keeping: credentials a server sets (Set-Cookie) are not.
inline std::string encode_cache_entry(const http::Response& response,
                                      std::chrono::system_clock::time_point stored_at,
                                      std::string_view key, std::string_view secret) {
  nlohmann::json headers = nlohmann::json::array();
  for (const auto& [name, value] : response.headers) {
    if (!http::is_secret_header(name)) headers.push_back({name, value});
  }
  const nlohmann::json meta = {
      {"key", key},
      {"stored_at_ms",
       std::chrono::duration_cast<std::chrono::milliseconds>(stored_at.time_since_epoch()).count()},
      {"status", response.status},
      {"url", response.url},
      {"redirects", response.redirects},
      {"headers", std::move(headers)},
      {"body_bytes", response.body.size()}};
  std::string out(kCacheEntryMagic);
  out += meta.dump();
  out.push_back('\n');
  out += response.body;
  out += files::hmac_sha256_hex(secret, out);
  return out;
}

/// Compares digests in time independent of where they differ.
inline bool same_digest(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  unsigned char difference = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    difference = static_cast<unsigned char>(difference | (a[i] ^ b[i]));
  }
  return difference == 0;
}

/// nullopt for anything that is not a complete, intact entry written under `key`.
inline std::optional<CacheEntry> decode_cache_entry(std::string_view file, std::string_view key,
                                                    std::string_view secret) {
  if (file.size() < kCacheEntryMagic.size() + kCacheEntryDigestLength) return std::nullopt;
  const std::string_view content = file.substr(0, file.size() - kCacheEntryDigestLength);
  if (!same_digest(files::hmac_sha256_hex(secret, content), file.substr(content.size()))) {
    return std::nullopt;
  }
  if (content.substr(0, kCacheEntryMagic.size()) != kCacheEntryMagic) return std::nullopt;
  const std::string_view rest = content.substr(kCacheEntryMagic.size());
  const std::size_t newline = rest.find('\n');
  if (newline == std::string_view::npos) return std::nullopt;
  try {
    const auto meta = nlohmann::json::parse(rest.substr(0, newline));
    const std::string_view body = rest.substr(newline + 1);
    if (meta.at("key").get<std::string>() != key) return std::nullopt;
    if (meta.at("body_bytes").get<std::size_t>() != body.size()) return std::nullopt;
    CacheEntry entry;
    entry.stored_at = std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::milliseconds(meta.at("stored_at_ms").get<std::int64_t>())));
    entry.response.status = meta.at("status").get<int>();
    entry.response.url = meta.at("url").get<std::string>();
    entry.response.redirects = meta.at("redirects").get<std::vector<std::string>>();
    for (const auto& header : meta.at("headers")) {
      entry.response.headers.add(header.at(0).get<std::string>(), header.at(1).get<std::string>());
    }
    entry.response.body.reserve(body.size() + http::kBodyPadding);
    entry.response.body.assign(body.data(), body.size());
    return entry;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace detail
MGNIFY_NAMESPACE_END
