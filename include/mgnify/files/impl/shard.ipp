#pragma once

// Bodies of the manifest sharding (mgnify/files/shard.hpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/manifest.hpp"
#include "mgnify/files/shard.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace files {

namespace detail {

inline void check_shard_count(std::size_t count) {
  if (count == 0 || count > kMaxShards) {
    throw InvalidArgument("shard count must be 1 to " + std::to_string(kMaxShards) + ", not " +
                          std::to_string(count));
  }
}

/// Digits only, no sign or space, and at most kMaxShards.
inline bool shard_number(std::string_view text, std::size_t& out) {
  if (text.empty() || text.size() > 6) return false;
  std::size_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<std::size_t>(c - '0');
  }
  out = value;
  return true;
}

}  // namespace detail

MGNIFY_DECL std::uint64_t fnv1a_64(std::string_view text) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

MGNIFY_DECL std::size_t shard_of_key(std::string_view key, std::size_t count) {
  detail::check_shard_count(count);
  const std::uint64_t base = fnv1a_64(key);
  std::size_t best = 0;
  std::uint64_t best_score = 0;
  for (std::size_t shard = 0; shard < count; ++shard) {
    const std::uint64_t score = detail::mix64(base ^ detail::mix64(shard + 1));
    if (shard == 0 || score > best_score) {
      best = shard;
      best_score = score;
    }
  }
  return best;
}

MGNIFY_DECL std::size_t shard_of(const FileRow& row, std::size_t count) {
  return shard_of_key(shard_key(row), count);
}

MGNIFY_DECL std::vector<FileRow> select_shard(const std::vector<FileRow>& rows, ShardSpec spec) {
  detail::check_shard_count(spec.count);
  if (spec.index >= spec.count) {
    throw InvalidArgument("shard index " + std::to_string(spec.index) + " is not below the count " +
                          std::to_string(spec.count));
  }
  std::vector<FileRow> out;
  for (const auto& row : rows) {
    if (shard_of(row, spec.count) == spec.index) out.push_back(row);
  }
  return out;
}

MGNIFY_DECL std::vector<std::uint64_t> shard_bytes(const std::vector<FileRow>& rows,
                                                   std::size_t count) {
  detail::check_shard_count(count);
  std::vector<std::uint64_t> bytes(count, 0);
  for (const auto& row : rows) {
    if (row.size_bytes) bytes[shard_of(row, count)] += *row.size_bytes;
  }
  return bytes;
}

MGNIFY_DECL ShardSpec parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  std::size_t index = 0;
  std::size_t count = 0;
  if (slash == std::string_view::npos || !detail::shard_number(text.substr(0, slash), index) ||
      !detail::shard_number(text.substr(slash + 1), count) || count == 0 || count > kMaxShards ||
      index == 0 || index > count) {
    throw InvalidArgument("shard '" + std::string(text) +
                          "' is not I/N with 1 <= I <= N <= " + std::to_string(kMaxShards));
  }
  return ShardSpec{index - 1, count};
}

}  // namespace files
MGNIFY_NAMESPACE_END
