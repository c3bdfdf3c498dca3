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
#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download_errors.hpp"
#include "mgnify/http/message.hpp"
#include "mgnify/http/response_store.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

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
  MGNIFY_DECL explicit ResponseCache(CacheOptions options);

  ResponseCache(const ResponseCache&) = delete;
  ResponseCache& operator=(const ResponseCache&) = delete;

  const CacheOptions& options() const noexcept { return options_; }

  MGNIFY_DECL CacheStats stats() const;

  /// The folder the cache keeps its files in: `directory`/mgnify-responses.
  const std::filesystem::path& folder() const noexcept { return folder_; }

  /// Removes every entry in the folder, whichever process stored it.
  MGNIFY_DECL void clear();

  /// The entry name for a request as the session is about to send it, or
  /// nullopt when the request bypasses the cache: anything but GET, a
  /// streamed body, `Cache-Control: no-store`, or credentials without
  /// store_authenticated.
  MGNIFY_DECL std::optional<std::string> key_for(const http::Request& request) const override;

  /// The stored response for `request` (key from key_for), fresh at `now`
  /// (the session's wall clock), or nullopt; always nullopt for a request
  /// that asks for a fresh answer (`Cache-Control: no-cache`). Never throws
  /// for what it finds on disk.
  MGNIFY_DECL std::optional<http::Response> lookup(
      const http::Request& request, const std::string& key,
      std::chrono::system_clock::time_point now) override;

  /// Stores the 200 response fetched for `request` under `key` when it is
  /// what the request asked for (answers_accept) and says nothing against
  /// keeping it (no-store, no-cache, private); anything else is ignored, as is
  /// a failure to write (the cache never fails a request). True when stored.
  MGNIFY_DECL bool store(const http::Request& request, const std::string& key,
                         const http::Response& response,
                         std::chrono::system_clock::time_point now) noexcept override;

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

  MGNIFY_DECL bool store_or_throw(const http::Request& request, const std::string& key,
                                  const http::Response& response,
                                  std::chrono::system_clock::time_point now);

  MGNIFY_DECL std::filesystem::path entry_path(const std::string& key) const;

  // Makes or opens `directory`/mgnify-responses and reads its secret. A new
  // folder is filled under a private name and renamed into place, so no
  // process ever sees one without its tag and key.
  MGNIFY_DECL void open_folder();

  MGNIFY_DECL void make_folder();

  MGNIFY_DECL std::string temporary_name(const std::string& key) const;

  MGNIFY_DECL static bool is_lower_hex(std::string_view text, std::size_t length);

  // A key names a file in the folder: only what key_for makes, so that no
  // caller-supplied text can point elsewhere.
  static bool is_key(std::string_view key) { return is_lower_hex(key, 64); }

  // The only names the cache removes: <key>.entry and <key>.<random>.tmp.
  MGNIFY_DECL static bool is_entry_name(std::string_view name);
  MGNIFY_DECL static bool is_temporary_name(std::string_view name);

  MGNIFY_DECL static bool carries_credentials(const http::Response& response);

  // Strictly increasing within this cache, so that accesses made within one
  // clock tick still order as they happened.
  MGNIFY_DECL std::chrono::system_clock::time_point access_stamp(
      std::chrono::system_clock::time_point now);

  MGNIFY_DECL std::filesystem::file_time_type file_time(
      std::chrono::system_clock::time_point t) const;

  // Removes least recently used entries (never `keep`) until the rest fit in
  // max_bytes, and temporary files a crashed writer left; returns the bytes kept.
  // A directory that cannot be listed keeps its entries.
  MGNIFY_DECL std::uint64_t scan_and_evict(const std::filesystem::path* keep);

  MGNIFY_DECL std::uint64_t scan_and_evict_or_throw(const std::filesystem::path* keep);

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

MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/cache/impl/response_cache.ipp"
#endif
