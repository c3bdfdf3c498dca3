#pragma once

// Bodies of the response cache (mgnify/cache/response_cache.hpp): its files on disk.

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "mgnify/cache/cache_entry.hpp"
#include "mgnify/cache/cache_key.hpp"
#include "mgnify/cache/cache_policy.hpp"
#include "mgnify/cache/private_files.hpp"
#include "mgnify/cache/response_cache.hpp"
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/response_store.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

MGNIFY_DECL ResponseCache::ResponseCache(CacheOptions options) : options_(std::move(options)) {
  if (options_.directory.empty()) throw InvalidArgument("cache directory must not be empty");
  if (options_.ttl.count() <= 0) throw InvalidArgument("cache ttl must be positive");
  if (options_.max_bytes == 0) throw InvalidArgument("cache max_bytes must be positive");
  open_folder();
  const auto file_now = std::filesystem::file_time_type::clock::now();
  const auto wall_now = std::chrono::system_clock::now();
  file_clock_offset_ = file_now.time_since_epoch() -
                       std::chrono::duration_cast<std::filesystem::file_time_type::duration>(
                           wall_now.time_since_epoch());
  std::lock_guard<std::mutex> lock(mutex_);
  bytes_estimate_ = scan_and_evict(nullptr);
}

MGNIFY_DECL CacheStats ResponseCache::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

MGNIFY_DECL void ResponseCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::error_code ec;
  for (std::filesystem::directory_iterator it(folder_, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::error_code remove_ec;
    if (is_entry_name(it->path().filename().string())) {
      std::filesystem::remove(it->path(), remove_ec);
    }
  }
  bytes_estimate_ = 0;
}

MGNIFY_DECL std::optional<std::string> ResponseCache::key_for(const http::Request& request) const {
  if (request.method != http::Method::get || request.body_sink) return std::nullopt;
  if (detail::has_cache_directive(request.headers, "no-store")) return std::nullopt;
  if (!options_.store_authenticated &&
      detail::is_authenticated_request(request, options_.identity_headers)) {
    return std::nullopt;
  }
  return detail::response_cache_key(request, secret_);
}

MGNIFY_DECL std::filesystem::path ResponseCache::entry_path(const std::string& key) const {
  return folder_ / (key + std::string(kEntrySuffix));
}

MGNIFY_DECL void ResponseCache::open_folder() {
  // "cache/" names "cache": its parent is the folder above.
  auto directory = options_.directory.lexically_normal();
  if (!directory.has_filename() && directory.has_parent_path()) {
    directory = directory.parent_path();
  }
  std::error_code ec;
  if (!std::filesystem::exists(directory, ec)) {
    if (directory.has_parent_path()) {
      std::filesystem::create_directories(directory.parent_path(), ec);
    }
    if (::mkdir(directory.c_str(), 0700) != 0 && errno != EEXIST) {
      throw FileError(directory, detail::last_errno(), "cannot create the cache directory");
    }
  }
  detail::require_private_directory(directory, "the cache directory");
  folder_ = directory / kFolderName;
  struct stat st {};
  if (::lstat(folder_.c_str(), &st) != 0) {
    make_folder();
    if (::lstat(folder_.c_str(), &st) != 0) {
      throw FileError(folder_, detail::last_errno(), "cannot create the cache folder");
    }
  }
  if (!S_ISDIR(st.st_mode)) {
    throw FileError(folder_, std::make_error_code(std::errc::not_a_directory),
                    "the cache folder is not a directory");
  }
  detail::require_private_directory(folder_, "the cache folder");
  const auto tag = detail::read_own_regular_file(folder_ / kTagName, 4096);
  if (!tag || tag->compare(0, kTagSignature.size(), kTagSignature) != 0) {
    throw FileError(folder_, {}, "not a response cache folder (it has no CACHEDIR.TAG)");
  }
  const auto key_path = folder_ / kKeyName;
  struct stat key_stat {};
  const auto secret = detail::read_own_regular_file(key_path, kSecretBytes);
  if (!secret || secret->size() != kSecretBytes || ::lstat(key_path.c_str(), &key_stat) != 0 ||
      (key_stat.st_mode & 077) != 0) {
    throw FileError(key_path, {}, "the cache key is not a private file of 32 bytes");
  }
  secret_ = *secret;
}

MGNIFY_DECL void ResponseCache::make_folder() {
  const auto staging = folder_.parent_path() /
                       (std::string(kFolderName) + "." + detail::random_hex(kTemporaryRandomBytes) +
                        std::string(kTemporarySuffix));
  if (::mkdir(staging.c_str(), 0700) != 0) {
    throw FileError(staging, detail::last_errno(), "cannot create the cache folder");
  }
  const std::string tag =
      std::string(kTagSignature) + "\n# A response cache of mgnify-cpp; see its docs/cache.md.\n";
  const bool filled =
      detail::write_new_private_file(staging / kTagName, tag) &&
      detail::write_new_private_file(staging / kKeyName, detail::random_bytes(kSecretBytes));
  // Fails when another process made the folder first: theirs is used.
  if (filled) ::rename(staging.c_str(), folder_.c_str());
  std::error_code ec;
  std::filesystem::remove_all(staging, ec);
}

MGNIFY_DECL std::string ResponseCache::temporary_name(const std::string& key) const {
  return key + "." + detail::random_hex(kTemporaryRandomBytes) + std::string(kTemporarySuffix);
}

MGNIFY_DECL bool ResponseCache::is_lower_hex(std::string_view text, std::size_t length) {
  return text.size() == length && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

MGNIFY_DECL bool ResponseCache::is_entry_name(std::string_view name) {
  return name.size() == 64 + kEntrySuffix.size() && is_key(name.substr(0, 64)) &&
         name.substr(64) == kEntrySuffix;
}

MGNIFY_DECL bool ResponseCache::is_temporary_name(std::string_view name) {
  constexpr std::size_t random_length = 2 * kTemporaryRandomBytes;
  return name.size() == 64 + 1 + random_length + kTemporarySuffix.size() &&
         is_key(name.substr(0, 64)) && name[64] == '.' &&
         is_lower_hex(name.substr(65, random_length), random_length) &&
         name.substr(65 + random_length) == kTemporarySuffix;
}

MGNIFY_DECL bool ResponseCache::carries_credentials(const http::Response& response) {
  if (detail::redact_url(response.url) != response.url) return true;
  return std::any_of(response.redirects.begin(), response.redirects.end(),
                     [](const std::string& url) { return detail::redact_url(url) != url; });
}

MGNIFY_DECL std::chrono::system_clock::time_point ResponseCache::access_stamp(
    std::chrono::system_clock::time_point now) {
  const auto next = last_stamp_ + std::chrono::microseconds(1);
  last_stamp_ = std::max(now, next);
  return last_stamp_;
}

MGNIFY_DECL std::filesystem::file_time_type ResponseCache::file_time(
    std::chrono::system_clock::time_point t) const {
  return std::filesystem::file_time_type(
      std::chrono::duration_cast<std::filesystem::file_time_type::duration>(t.time_since_epoch()) +
      file_clock_offset_);
}

MGNIFY_DECL std::uint64_t ResponseCache::scan_and_evict(const std::filesystem::path* keep) {
  try {
    return scan_and_evict_or_throw(keep);
  } catch (const std::exception&) {
    return 0;
  }
}

MGNIFY_DECL std::uint64_t ResponseCache::scan_and_evict_or_throw(
    const std::filesystem::path* keep) {
  struct Found {
    std::filesystem::file_time_type used;
    std::filesystem::path path;
    std::uint64_t size;
  };
  std::vector<Found> entries;
  std::uint64_t total = 0;
  std::error_code ec;
  const auto stale_before = std::filesystem::file_time_type::clock::now() - kAbandonedTemporaryAge;
  for (const auto& file : std::filesystem::directory_iterator(folder_, ec)) {
    const std::string name = file.path().filename().string();
    std::error_code file_ec;
    const auto used = file.last_write_time(file_ec);
    if (file_ec) continue;
    if (is_temporary_name(name)) {
      if (used < stale_before) std::filesystem::remove(file.path(), file_ec);
      continue;
    }
    if (!is_entry_name(name)) continue;
    const auto size = file.file_size(file_ec);
    if (file_ec) continue;
    entries.push_back(Found{used, file.path(), size});
    total += size;
  }
  if (total <= options_.max_bytes) return total;
  std::sort(entries.begin(), entries.end(), [](const Found& a, const Found& b) {
    return a.used != b.used ? a.used < b.used : a.path < b.path;
  });
  for (const auto& entry : entries) {
    if (total <= options_.max_bytes) break;
    if (keep && entry.path == *keep) continue;
    std::error_code remove_ec;
    if (std::filesystem::remove(entry.path, remove_ec)) ++stats_.evictions;
    total -= entry.size;
  }
  return total;
}

MGNIFY_DECL std::optional<http::Response> ResponseCache::lookup(
    const http::Request& request, const std::string& key,
    std::chrono::system_clock::time_point now) {
  if (!is_key(key)) return std::nullopt;
  if (detail::asks_for_fresh_response(request)) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.misses;
    return std::nullopt;
  }
  const auto path = entry_path(key);
  std::optional<std::string> file;
  std::optional<detail::CacheEntry> entry;
  try {
    file = detail::read_own_regular_file(path, options_.max_bytes);
    if (file) entry = detail::decode_cache_entry(*file, key, secret_);
  } catch (const std::exception&) {
    if (!file) file.emplace();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::error_code ec;
  // Dated ahead of the clock by more than hosts' clocks disagree: never
  // expiring, it would be served for ever.
  if (entry && entry->stored_at - now > kClockSkew) entry.reset();
  if (!entry || entry->response.status != 200) {
    ++stats_.misses;
    if (file) {
      ++stats_.damaged;
      std::filesystem::remove(path, ec);
    }
    return std::nullopt;
  }
  if (now - entry->stored_at > options_.ttl) {
    ++stats_.misses;
    ++stats_.expired;
    std::filesystem::remove(path, ec);
    return std::nullopt;
  }
  ++stats_.hits;
  std::filesystem::last_write_time(path, file_time(access_stamp(now)), ec);
  entry->response.from_cache = true;
  return std::move(entry->response);
}

MGNIFY_DECL bool ResponseCache::store(const http::Request& request, const std::string& key,
                                      const http::Response& response,
                                      std::chrono::system_clock::time_point now) noexcept {
  try {
    return store_or_throw(request, key, response, now);
  } catch (const std::exception&) {
    return false;
  }
}

MGNIFY_DECL bool ResponseCache::store_or_throw(const http::Request& request, const std::string& key,
                                               const http::Response& response,
                                               std::chrono::system_clock::time_point now) {
  if (!is_key(key) || response.status != 200 || carries_credentials(response)) return false;
  if (detail::forbids_storing(response)) return false;
  if (!options_.store_authenticated && detail::has_cache_directive(response.headers, "private")) {
    return false;
  }
  if (!detail::answers_accept(request, response)) return false;
  // Header values that are not UTF-8 cannot go into the JSON metadata; such
  // a response is simply not stored.
  const std::string bytes = detail::encode_cache_entry(response, now, key, secret_);
  if (bytes.size() > options_.max_bytes) return false;
  const auto path = entry_path(key);
  const auto temporary = folder_ / temporary_name(key);
  if (!detail::write_new_private_file(temporary, bytes)) return false;
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return false;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  std::filesystem::last_write_time(path, file_time(access_stamp(now)), ec);
  ++stats_.stores;
  bytes_estimate_ += bytes.size();
  // Other processes add entries this one does not count: a full scan now and
  // then keeps the bound honest without one per store.
  if (bytes_estimate_ > options_.max_bytes || ++stores_since_scan_ >= kStoresPerScan) {
    bytes_estimate_ = scan_and_evict(&path);
    stores_since_scan_ = 0;
  }
  return true;
}

MGNIFY_NAMESPACE_END
