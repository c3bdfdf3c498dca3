#pragma once

// An opt-in, on-disk cache of successful GET responses, shared by every
// client (and every process) given the same directory, so that re-running an
// analysis costs no requests. The session consults it before the rate limiter
// and the transport: a hit sends nothing.
//
// Safe to share: an entry is written to a private temporary file and renamed
// into place, so a reader sees a whole entry or none; a damaged entry fails
// its digest, counts as a miss and is removed. Entries expire after a TTL and
// the least recently used go first once the directory outgrows its bound.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "mgnify/cache/cache_entry.hpp"
#include "mgnify/cache/cache_key.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/response_store.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

struct CacheOptions {
  /// Created if missing. Several processes may share it.
  std::filesystem::path directory;
  /// Entries older than this are misses and are fetched again.
  std::chrono::seconds ttl = std::chrono::hours(24);
  /// Bound on the entries' total size; the least recently used are removed
  /// beyond it. A response larger than the bound is not stored.
  std::uint64_t max_bytes = std::uint64_t{1} << 30;
  /// Responses to requests that carry credentials (the token, a secret
  /// header, a credential in the URL) are private to their caller and are not
  /// stored unless this is set. Entries are keyed by a digest of the
  /// credentials, so one caller never receives another's; the credentials
  /// themselves are never written. A response whose URL (or a redirect's)
  /// carries a credential is never stored.
  bool store_authenticated = false;
};

struct CacheStats {
  std::uint64_t hits = 0;
  /// Lookups that found no usable entry, including the expired and damaged.
  std::uint64_t misses = 0;
  std::uint64_t expired = 0;
  /// Entries that failed their digest or could not be parsed; they are removed.
  std::uint64_t damaged = 0;
  std::uint64_t stores = 0;
  /// Entries removed to keep the directory within max_bytes.
  std::uint64_t evictions = 0;
};

class ResponseCache : public http::ResponseStore {
 public:
  /// Throws InvalidArgument for an empty directory, a TTL or bound of zero,
  /// and FileError when the directory cannot be created.
  explicit ResponseCache(CacheOptions options) : options_(std::move(options)) {
    if (options_.directory.empty()) throw InvalidArgument("cache directory must not be empty");
    if (options_.ttl.count() <= 0) throw InvalidArgument("cache ttl must be positive");
    if (options_.max_bytes == 0) throw InvalidArgument("cache max_bytes must be positive");
    std::error_code ec;
    std::filesystem::create_directories(options_.directory, ec);
    if (ec || !std::filesystem::is_directory(options_.directory, ec)) {
      throw FileError(options_.directory,
                      ec ? ec : std::make_error_code(std::errc::not_a_directory),
                      "cannot create the cache directory");
    }
    const auto file_now = std::filesystem::file_time_type::clock::now();
    const auto wall_now = std::chrono::system_clock::now();
    file_clock_offset_ = file_now.time_since_epoch() -
                         std::chrono::duration_cast<std::filesystem::file_time_type::duration>(
                             wall_now.time_since_epoch());
    std::lock_guard<std::mutex> lock(mutex_);
    bytes_estimate_ = scan_and_evict(nullptr);
  }

  ResponseCache(const ResponseCache&) = delete;
  ResponseCache& operator=(const ResponseCache&) = delete;

  const CacheOptions& options() const noexcept { return options_; }

  CacheStats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

  /// Removes every entry in the directory, whichever process stored it.
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::error_code ec;
    for (std::filesystem::directory_iterator it(options_.directory, ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
      std::error_code remove_ec;
      if (is_entry(it->path())) std::filesystem::remove(it->path(), remove_ec);
    }
    bytes_estimate_ = 0;
  }

  /// The entry name for a request as the session is about to send it, or
  /// nullopt when the request bypasses the cache: anything but GET, a
  /// streamed body, or credentials without store_authenticated.
  std::optional<std::string> key_for(const http::Request& request) const override {
    if (request.method != http::Method::get || request.body_sink) return std::nullopt;
    if (!options_.store_authenticated && detail::is_authenticated_request(request)) {
      return std::nullopt;
    }
    return detail::response_cache_key(request);
  }

  /// The stored response for a key from key_for, fresh at `now` (the
  /// session's wall clock), or nullopt. Never throws for what it finds on disk.
  std::optional<http::Response> lookup(const std::string& key,
                                       std::chrono::system_clock::time_point now) override {
    if (!is_key(key)) return std::nullopt;
    const auto path = entry_path(key);
    std::optional<std::string> file;
    std::optional<detail::CacheEntry> entry;
    try {
      file = read_file(path);
      if (file) entry = detail::decode_cache_entry(*file);
    } catch (const std::exception&) {
      if (!file) file.emplace();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    std::error_code ec;
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

  /// Stores a 200 response fetched for `key`; anything else is ignored, as is
  /// a failure to write (the cache never fails a request). True when stored.
  bool store(const std::string& key, const http::Response& response,
             std::chrono::system_clock::time_point now) noexcept override {
    try {
      return store_or_throw(key, response, now);
    } catch (const std::exception&) {
      return false;
    }
  }

 private:
  static constexpr unsigned kStoresPerScan = 64;
  static constexpr std::string_view kEntrySuffix = ".entry";
  static constexpr std::chrono::hours kAbandonedTemporaryAge{1};

  bool store_or_throw(const std::string& key, const http::Response& response,
                      std::chrono::system_clock::time_point now) {
    if (!is_key(key) || response.status != 200 || carries_credentials(response)) return false;
    // Header values that are not UTF-8 cannot go into the JSON metadata; such
    // a response is simply not stored.
    const std::string bytes = detail::encode_cache_entry(response, now);
    if (bytes.size() > options_.max_bytes) return false;
    const auto path = entry_path(key);
    const auto temporary = options_.directory / (key + ".tmp." + unique_suffix());
    std::error_code ec;
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      out.close();
      if (!out) {
        std::filesystem::remove(temporary, ec);
        return false;
      }
    }
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

  std::filesystem::path entry_path(const std::string& key) const {
    return options_.directory / (key + std::string(kEntrySuffix));
  }

  // A key names a file in the directory: only what key_for makes, so that no
  // caller-supplied text can point elsewhere.
  static bool is_key(const std::string& key) {
    return key.size() == 64 && std::all_of(key.begin(), key.end(), [](char c) {
             return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
  }

  static bool is_entry(const std::filesystem::path& path) {
    return path.extension() == kEntrySuffix;
  }
  static bool is_temporary(const std::filesystem::path& path) {
    return path.filename().string().find(".tmp.") != std::string::npos;
  }

  static bool carries_credentials(const http::Response& response) {
    if (detail::redact_url(response.url) != response.url) return true;
    return std::any_of(response.redirects.begin(), response.redirects.end(),
                       [](const std::string& url) { return detail::redact_url(url) != url; });
  }

  static std::optional<std::string> read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return std::string();
    return bytes;
  }

  std::string unique_suffix() {
    thread_local std::mt19937_64 random{std::random_device{}()};
    return std::to_string(random()) + "." + std::to_string(++temporary_counter_);
  }

  // Strictly increasing within this cache, so that accesses made within one
  // clock tick still order as they happened.
  std::chrono::system_clock::time_point access_stamp(std::chrono::system_clock::time_point now) {
    const auto next = last_stamp_ + std::chrono::microseconds(1);
    last_stamp_ = std::max(now, next);
    return last_stamp_;
  }

  std::filesystem::file_time_type file_time(std::chrono::system_clock::time_point t) const {
    return std::filesystem::file_time_type(
        std::chrono::duration_cast<std::filesystem::file_time_type::duration>(
            t.time_since_epoch()) +
        file_clock_offset_);
  }

  // Removes least recently used entries (never `keep`) until the rest fit in
  // max_bytes, and temporary files a crashed writer left; returns the bytes kept.
  // A directory that cannot be listed keeps its entries.
  std::uint64_t scan_and_evict(const std::filesystem::path* keep) {
    try {
      return scan_and_evict_or_throw(keep);
    } catch (const std::exception&) {
      return 0;
    }
  }

  std::uint64_t scan_and_evict_or_throw(const std::filesystem::path* keep) {
    struct Found {
      std::filesystem::file_time_type used;
      std::filesystem::path path;
      std::uint64_t size;
    };
    std::vector<Found> entries;
    std::uint64_t total = 0;
    std::error_code ec;
    const auto stale_before =
        std::filesystem::file_time_type::clock::now() - kAbandonedTemporaryAge;
    for (const auto& file : std::filesystem::directory_iterator(options_.directory, ec)) {
      std::error_code file_ec;
      const auto used = file.last_write_time(file_ec);
      if (file_ec) continue;
      if (is_temporary(file.path())) {
        if (used < stale_before) std::filesystem::remove(file.path(), file_ec);
        continue;
      }
      if (!is_entry(file.path())) continue;
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

  CacheOptions options_;
  std::filesystem::file_time_type::duration file_clock_offset_{};
  mutable std::mutex mutex_;
  CacheStats stats_;
  std::uint64_t bytes_estimate_ = 0;
  unsigned stores_since_scan_ = 0;
  std::chrono::system_clock::time_point last_stamp_{};
  std::atomic<std::uint64_t> temporary_counter_{0};
};

}  // namespace v0
}  // namespace mgnify
