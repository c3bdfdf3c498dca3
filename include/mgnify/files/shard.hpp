#pragma once

// Deterministic shards of a manifest, so that N processes (a Slurm array, a
// Snakemake rule per shard) can each download one part of a catalogue with no
// scheduler of our own: every process reads the same manifest and keeps the
// rows of its own shard.
//
// A row's shard is a function of the row alone: its destination path
// `accession/alias` (the file's identity in the download directory) and the
// number of shards. That is the only rule under which adding rows to a
// manifest, or reordering it, never moves a row that was already there, so a
// rerun with a regenerated manifest resumes each shard where it stopped.
// The choice is rendezvous (highest random weight) hashing: every shard gets a
// score for the row from a fixed 64-bit hash (FNV-1a of the path, mixed with
// the shard number by the SplitMix64 finaliser; neither is std::hash, whose
// values may differ between builds), and the row goes to the highest. Going
// from N to N+1 shards moves only the rows that the new shard takes, about
// 1/(N+1) of them.
//
// The trade-off: because a row cannot look at the others, bytes are balanced
// in expectation, not exactly. With n files of similar size, each shard's
// share deviates from total/N by about sqrt(N/n) relative (3% for 4 shards of
// 4,000 files); one file far larger than the rest lands wholly on one shard.
// An exact bin-packing would move rows whenever one is added. shard_bytes()
// reports the outcome, so a workflow can choose N after seeing it.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/manifest.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace files {

/// One shard of `count`: `index` counts from 0 (the CLI's `I/N` from 1).
struct ShardSpec {
  std::size_t index = 0;
  std::size_t count = 1;
};

/// The most shards a manifest may be split into.
inline constexpr std::size_t kMaxShards = 100000;

namespace detail {

/// SplitMix64's finaliser: spreads every input bit over the output, which
/// FNV-1a alone does poorly for inputs that differ in their last bytes.
inline std::uint64_t mix64(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace detail

/// The key a row is sharded by: `accession/alias`, its path under the download directory.
inline std::string shard_key(const FileRow& row) { return row.accession + "/" + row.alias; }

/// FNV-1a, 64 bits, of `text`'s bytes: fixed by its definition, so every
/// build and platform computes the same value.
MGNIFY_DECL std::uint64_t fnv1a_64(std::string_view text) noexcept;

/// The shard (0 .. count-1) of a row with this key. Throws InvalidArgument
/// when `count` is 0 or above kMaxShards.
MGNIFY_DECL std::size_t shard_of_key(std::string_view key, std::size_t count);

/// The shard of `row`: shard_of_key(shard_key(row), count).
MGNIFY_DECL std::size_t shard_of(const FileRow& row, std::size_t count);

/// The rows of shard `spec`, in their manifest order. Throws InvalidArgument
/// when spec.index is not below spec.count (or the count is out of range).
MGNIFY_DECL std::vector<FileRow> select_shard(const std::vector<FileRow>& rows, ShardSpec spec);

/// Bytes per shard of the rows with a known size, index by shard.
MGNIFY_DECL std::vector<std::uint64_t> shard_bytes(const std::vector<FileRow>& rows,
                                                   std::size_t count);

/// Parses the CLI form `I/N`, 1 <= I <= N <= kMaxShards, into a 0-based
/// ShardSpec. Throws InvalidArgument naming the text otherwise.
MGNIFY_DECL ShardSpec parse_shard(std::string_view text);

}  // namespace files
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/files/impl/shard.ipp"
#endif
