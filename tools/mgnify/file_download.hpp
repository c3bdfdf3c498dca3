#pragma once

// How a manifest row is fetched: the one place `mgnify download` and
// `mgnify abundance-table` set up a transfer, so that both resume, verify and
// lay out files alike (DIR/<accession>/<alias>).

#include <filesystem>
#include <memory>
#include <mgnify/files/download.hpp>
#include <mgnify/http/session.hpp>
#include <string>

#include "file_listing.hpp"
#include "settings.hpp"

namespace mgnify_cli {

/// Where the SDK's verified downloads live (DownloadJob, download_many,
/// BatchProgress): the CLI names them through this alias only.
namespace downloads = mgnify::files;

/// Whether a path component from the service (accession, alias) stays inside
/// the download directory and carries no control characters into file names
/// that later reach a terminal through `ls` or a shell glob: not empty, `.`
/// or `..`, no `/` or `\`, and nothing that the terminal escaping
/// (mgnify::detail::escape_text) rewrites: no C0 control, DEL, C1 control
/// (U+0080..U+009F) or byte that is not part of valid UTF-8.
bool safe_component(const std::string& name);

/// The transfer of `row` to dir/<accession>/<alias>: checked against the
/// row's checksum and size, continuing a .part file when `resume` is set.
/// The row must have a URL and safe names.
downloads::DownloadJob download_job(const FileRow& row, const std::filesystem::path& dir,
                                    bool resume);

/// The session downloads of `api` go through; the token goes only to that
/// API's origin (download() checks).
std::shared_ptr<mgnify::http::Session> download_session(const Settings& settings, Api api);

}  // namespace mgnify_cli
