#pragma once

// Downloadable result files of studies, analyses, genomes and catalogues, and
// helpers to pick them by group ("taxonomies.closed_reference.ssu") or type.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

/// An index (.fai, .gzi, .csi) published next to a download.
struct IndexFile {
  Enumerated<IndexType> index_type;
  /// Absent on some records; older servers called it `relative_url`.
  std::optional<std::string> url;
  RawJson raw{};
};

struct DownloadFile {
  /// File name, unique within one object's downloads.
  std::string alias;
  Enumerated<DownloadType> download_type;
  Enumerated<FileType> file_type;
  std::string short_description;
  std::string long_description;
  /// Dotted group such as "quality_control" or "taxonomies.closed_reference.ssu".
  std::optional<std::string> download_group;
  std::optional<std::int64_t> file_size_bytes;
  /// Null when the file has no index. Servers before Aug 2025 sent a single `index_file`.
  std::optional<std::vector<IndexFile>> index_files;
  /// Null for legacy objects whose results were never given a public location
  /// (every v5 study download seen in production): such a file cannot be fetched.
  std::optional<std::string> url;
  RawJson raw{};

  bool has_url() const noexcept { return url.has_value() && !url->empty(); }
  /// True when download_group equals `prefix` or starts with it. A prefix ending
  /// in '.' ("taxonomies.") matches only below that group.
  bool in_group(std::string_view prefix) const {
    if (!download_group) return false;
    const std::string& g = *download_group;
    if (g.compare(0, prefix.size(), prefix) != 0) return false;
    return g.size() == prefix.size() || prefix.empty() || prefix.back() == '.' || g[prefix.size()] == '.';
  }
};

inline void from_json(const nlohmann::json& j, IndexFile& f) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_or_keep(j, "index_type", f.index_type);
  mgnify::detail::read_optional(j, "url", f.url);
  if (!f.url) mgnify::detail::read_optional(j, "relative_url", f.url);
  f.raw = j;
}

inline void to_json(nlohmann::json& j, const IndexFile& f) {
  j = f.raw.is_object() ? f.raw.json() : nlohmann::json::object();
  j["index_type"] = f.index_type;
  mgnify::detail::write_optional(j, "url", f.url);
}

inline void from_json(const nlohmann::json& j, DownloadFile& d) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_or_keep(j, "alias", d.alias);
  mgnify::detail::read_or_keep(j, "download_type", d.download_type);
  mgnify::detail::read_or_keep(j, "file_type", d.file_type);
  mgnify::detail::read_or_keep(j, "short_description", d.short_description);
  mgnify::detail::read_or_keep(j, "long_description", d.long_description);
  mgnify::detail::read_optional(j, "download_group", d.download_group);
  mgnify::detail::read_optional(j, "file_size_bytes", d.file_size_bytes);
  mgnify::detail::read_optional(j, "index_files", d.index_files);
  if (!d.index_files) {
    std::optional<IndexFile> single;
    mgnify::detail::read_optional(j, "index_file", single);
    if (single) d.index_files = std::vector<IndexFile>{*single};
  }
  mgnify::detail::read_optional(j, "url", d.url);
  d.raw = j;
}

inline void to_json(nlohmann::json& j, const DownloadFile& d) {
  j = d.raw.is_object() ? d.raw.json() : nlohmann::json::object();
  j["alias"] = d.alias;
  j["download_type"] = d.download_type;
  j["file_type"] = d.file_type;
  j["short_description"] = d.short_description;
  j["long_description"] = d.long_description;
  mgnify::detail::write_optional(j, "download_group", d.download_group);
  mgnify::detail::write_optional(j, "file_size_bytes", d.file_size_bytes);
  mgnify::detail::write_optional(j, "index_files", d.index_files);
  mgnify::detail::write_optional(j, "url", d.url);
}

/// Downloads whose group is `prefix` or lies below it (see DownloadFile::in_group).
inline std::vector<DownloadFile> select_by_group(const std::vector<DownloadFile>& downloads,
                                                 std::string_view prefix) {
  std::vector<DownloadFile> out;
  for (const auto& d : downloads) {
    if (d.in_group(prefix)) out.push_back(d);
  }
  return out;
}

inline std::vector<DownloadFile> select_by_file_type(const std::vector<DownloadFile>& downloads,
                                                     FileType type) {
  std::vector<DownloadFile> out;
  for (const auto& d : downloads) {
    if (d.file_type == type) out.push_back(d);
  }
  return out;
}

inline std::vector<DownloadFile> select_by_download_type(const std::vector<DownloadFile>& downloads,
                                                         DownloadType type) {
  std::vector<DownloadFile> out;
  for (const auto& d : downloads) {
    if (d.download_type == type) out.push_back(d);
  }
  return out;
}

/// Downloads keyed by download_group, in group order; files without a group are under "".
inline std::map<std::string, std::vector<DownloadFile>> group_downloads(
    const std::vector<DownloadFile>& downloads) {
  std::map<std::string, std::vector<DownloadFile>> out;
  for (const auto& d : downloads) out[d.download_group.value_or("")].push_back(d);
  return out;
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
