#pragma once

// Reading a downloaded summary file whole, gunzipped when it is gzip (the V6
// pipelines publish bgzip files: several gzip members in a row).

#include <filesystem>
#include <string>

namespace mgnify_cli {

/// The file's bytes, decompressed when they start with the gzip magic.
/// Throws mgnify::FileError when it cannot be read, mgnify::Error when the
/// gzip stream is corrupt or cut short.
std::string read_maybe_gzip(const std::filesystem::path& path);

}  // namespace mgnify_cli
