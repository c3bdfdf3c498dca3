#pragma once

// An opt-in, on-disk cache of successful GET responses, shared by every
// client (and every process of one user) given the same directory, so that
// re-running an analysis costs no requests. The session consults it before
// the rate limiter and the transport: a hit sends nothing.
//
// Whoever can write to the directory could choose what every process using it
// receives, so the directory must be the user's own and writable by nobody
// else, and the cache works in a subfolder of its own with a random secret:
// entries are signed with it (HMAC-SHA256) and named by it, so an entry
// rewritten without the secret is damaged, not believed. An entry is written
// to a private temporary file and renamed into place, so a reader sees a whole
// entry or none; a damaged one counts as a miss and is removed. Entries expire
// after a TTL and the least recently used go first once the folder outgrows
// its bound.

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
#include "mgnify/error.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/response_store.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

struct CacheOptions {
  /// Created (mode 0700) if missing. It must belong to the user running the
  /// program and not be writable by group or others; that user's processes
  /// may share it. The cache keeps its files in a subfolder, mgnify-responses,
  /// and never touches anything else in the directory.
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
  /// carries a credential is never stored. A response marked
  /// `Cache-Control: private` is stored only when this is set.
  bool store_authenticated = false;
  /// Request headers that say who is asking although their names do not look
  /// like a credential (`X-Auth`, `Authentication`): a request with one is
  /// authenticated, as with a token. Compared without regard to case. Every
  /// request header takes part in the key whether listed or not.
  std::vector<std::string> identity_headers;
};

struct CacheStats {
  std::uint64_t hits = 0;
  /// Lookups that found no usable entry, including the expired and damaged.
  std::uint64_t misses = 0;
  std::uint64_t expired = 0;
  /// Entries that failed their digest, could not be parsed, were not regular
  /// files or were dated ahead of the clock; they are removed.
  std::uint64_t damaged = 0;
  std::uint64_t stores = 0;
  /// Entries removed to keep the directory within max_bytes.
  std::uint64_t evictions = 0;
};

class ResponseCache : public http::ResponseStore {
 public:
  /// Throws InvalidArgument for an empty directory, a TTL or bound of zero;
  /// FileError when the directory cannot be created, is not the user's own or
  /// is writable by group or others, or when its cache subfolder or key is
  /// not the user's own private file.
  explicit ResponseCache(CacheOptions options) : options_(std::move(options)) {
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

  ResponseCache(const ResponseCache&) = delete;
  ResponseCache& operator=(const ResponseCache&) = delete;

  const CacheOptions& options() const noexcept { return options_; }

  CacheStats stats() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return stats_;
  }

  /// The folder the cache keeps its files in: `directory`/mgnify-responses.
  const std::filesystem::path& folder() const noexcept { return folder_; }

  /// Removes every entry in the folder, whichever process stored it.
  void clear() {
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

  /// The entry name for a request as the session is about to send it, or
  /// nullopt when the request bypasses the cache: anything but GET, a
  /// streamed body, `Cache-Control: no-store`, or credentials without
  /// store_authenticated.
  std::optional<std::string> key_for(const http::Request& request) const override {
    if (request.method != http::Method::get || request.body_sink) return std::nullopt;
    if (detail::has_cache_directive(request.headers, "no-store")) return std::nullopt;
    if (!options_.store_authenticated &&
        detail::is_authenticated_request(request, options_.identity_headers)) {
      return std::nullopt;
    }
    return detail::response_cache_key(request, secret_);
  }

  /// The stored response for `request` (key from key_for), fresh at `now`
  /// (the session's wall clock), or nullopt; always nullopt for a request
  /// that asks for a fresh answer (`Cache-Control: no-cache`). Never throws
  /// for what it finds on disk.
  std::optional<http::Response> lookup(const http::Request& request, const std::string& key,
                                       std::chrono::system_clock::time_point now) override {
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
      if (file) entry = detail::decode_cache_entry(*file, secret_);
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

  /// Stores the 200 response fetched for `request` under `key` when it is
  /// what the request asked for (answers_accept) and says nothing against
  /// keeping it (no-store, no-cache, private); anything else is ignored, as is
  /// a failure to write (the cache never fails a request). True when stored.
  bool store(const http::Request& request, const std::string& key, const http::Response& response,
             std::chrono::system_clock::time_point now) noexcept override {
    try {
      return store_or_throw(request, key, response, now);
    } catch (const std::exception&) {
      return false;
    }
  }

 private:
  static constexpr unsigned kStoresPerScan = 64;
  static constexpr std::string_view kEntrySuffix = ".entry";
  static constexpr std::string_view kTemporarySuffix = ".tmp";
  static constexpr std::size_t kTemporaryRandomBytes = 16;
  static constexpr std::chrono::hours kAbandonedTemporaryAge{1};
  static constexpr std::chrono::minutes kClockSkew{5};
  static constexpr std::string_view kFolderName = "mgnify-responses";
  static constexpr std::string_view kKeyName = "key";
  static constexpr std::size_t kSecretBytes = 32;
  static constexpr std::string_view kTagName = "CACHEDIR.TAG";
  // https://bford.info/cachedir/: backup tools skip a folder holding it.
  static constexpr std::string_view kTagSignature = "Signature: 8a477f597d28d172789f06886806bc55";

  bool store_or_throw(const http::Request& request, const std::string& key,
                      const http::Response& response, std::chrono::system_clock::time_point now) {
    if (!is_key(key) || response.status != 200 || carries_credentials(response)) return false;
    if (detail::forbids_storing(response)) return false;
    if (!options_.store_authenticated && detail::has_cache_directive(response.headers, "private")) {
      return false;
    }
    if (!detail::answers_accept(request, response)) return false;
    // Header values that are not UTF-8 cannot go into the JSON metadata; such
    // a response is simply not stored.
    const std::string bytes = detail::encode_cache_entry(response, now, secret_);
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

  std::filesystem::path entry_path(const std::string& key) const {
    return folder_ / (key + std::string(kEntrySuffix));
  }

  // Makes or opens `directory`/mgnify-responses and reads its secret. A new
  // folder is filled under a private name and renamed into place, so no
  // process ever sees one without its tag and key.
  void open_folder() {
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

  void make_folder() {
    const auto staging = folder_.parent_path() / (std::string(kFolderName) + "." +
                                                  detail::random_hex(kTemporaryRandomBytes) +
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

  std::string temporary_name(const std::string& key) const {
    return key + "." + detail::random_hex(kTemporaryRandomBytes) + std::string(kTemporarySuffix);
  }

  static bool is_lower_hex(std::string_view text, std::size_t length) {
    return text.size() == length && std::all_of(text.begin(), text.end(), [](char c) {
             return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
  }

  // A key names a file in the folder: only what key_for makes, so that no
  // caller-supplied text can point elsewhere.
  static bool is_key(std::string_view key) { return is_lower_hex(key, 64); }

  // The only names the cache removes: <key>.entry and <key>.<random>.tmp.
  static bool is_entry_name(std::string_view name) {
    return name.size() == 64 + kEntrySuffix.size() && is_key(name.substr(0, 64)) &&
           name.substr(64) == kEntrySuffix;
  }
  static bool is_temporary_name(std::string_view name) {
    constexpr std::size_t random_length = 2 * kTemporaryRandomBytes;
    return name.size() == 64 + 1 + random_length + kTemporarySuffix.size() &&
           is_key(name.substr(0, 64)) && name[64] == '.' &&
           is_lower_hex(name.substr(65, random_length), random_length) &&
           name.substr(65 + random_length) == kTemporarySuffix;
  }

  static bool carries_credentials(const http::Response& response) {
    if (detail::redact_url(response.url) != response.url) return true;
    return std::any_of(response.redirects.begin(), response.redirects.end(),
                       [](const std::string& url) { return detail::redact_url(url) != url; });
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

  CacheOptions options_;
  std::filesystem::path folder_;
  std::string secret_;
  std::filesystem::file_time_type::duration file_clock_offset_{};
  mutable std::mutex mutex_;
  CacheStats stats_;
  std::uint64_t bytes_estimate_ = 0;
  unsigned stores_since_scan_ = 0;
  std::chrono::system_clock::time_point last_stamp_{};
};

}  // namespace v0
}  // namespace mgnify
