#pragma once

// Downloadable result files of studies, analyses, genomes and catalogues, and
// helpers to pick them by group ("taxonomies.closed_reference.ssu") or type.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

/// An index (.fai, .gzi, .csi) published next to a download.
struct IndexFile {
  Enumerated<IndexType> index_type;
  /// Absent on some records; older servers called it `relative_url`.
  std::optional<std::string> url;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("index_type", self.index_type);
    v.renamed("url", "relative_url", self.url);
  }
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
  /// Null when the file has no index. Servers before Aug 2025 sent `index_file`:
  /// one index, or (in a later schema) a list of them.
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
    return g.size() == prefix.size() || prefix.empty() || prefix.back() == '.' ||
           g[prefix.size()] == '.';
  }

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("alias", self.alias);
    v.defaulted("download_type", self.download_type);
    v.defaulted("file_type", self.file_type);
    v.defaulted("short_description", self.short_description);
    v.defaulted("long_description", self.long_description);
    v.optional("download_group", self.download_group);
    v.optional("file_size_bytes", self.file_size_bytes);
    v.renamed("index_files", "index_file", self.index_files);
    v.optional("url", self.url);
  }
};

MGNIFY_JSON_FIELDS(IndexFile, "index file")
MGNIFY_JSON_FIELDS(DownloadFile, "download")

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
MGNIFY_NAMESPACE_END
