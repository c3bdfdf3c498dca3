#pragma once

// Files the CLI leaves for other programs (a download manifest, a shard's
// result manifest) often live in folders others may write to: a cluster's
// shared project or scratch folder.

#include <filesystem>
#include <string_view>

namespace mgnify_cli {

/// Makes `path` hold exactly `bytes`: written to a new file beside it, created
/// exclusively under an unpredictable name and never through a symbolic link,
/// then renamed over `path`. A reader sees the old file or the new one, never
/// half of one; a symbolic link planted at `path` is replaced, not followed, so
/// nobody can point the write at another of the user's files; a failure leaves
/// no temporary file behind. Creates missing parent folders. Throws
/// mgnify::FileError naming `what` ("manifest").
void replace_file(const std::filesystem::path& path, std::string_view bytes, const char* what);

}  // namespace mgnify_cli
