#pragma once

// Reading a downloaded summary file whole, gunzipped when it is gzip (the V6
// pipelines publish bgzip files: several gzip members in a row).

#include <cstdint>
#include <filesystem>
#include <string>

namespace mgnify_cli {

/// The most text one summary file may hold, inflated or plain: 1 GiB. The
/// file is held whole and then parsed, so this bounds the memory a file can
/// take (a gzip bomb inflates a thousandfold); MGnify's summary tables are
/// tens of megabytes at most.
inline constexpr std::uint64_t kMaxSummaryBytes = std::uint64_t{1} << 30;

/// The file's bytes, decompressed when they start with the gzip magic.
/// Throws mgnify::FileError when it cannot be read or holds more than
/// `max_bytes` (compressed or not), mgnify::Error when the gzip stream is
/// corrupt or cut short.
std::string read_maybe_gzip(const std::filesystem::path& path,
                            std::uint64_t max_bytes = kMaxSummaryBytes);

}  // namespace mgnify_cli
