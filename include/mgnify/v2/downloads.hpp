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
    return g.size() == prefix.size() || prefix.empty() || prefix.back() == '.' ||
           g[prefix.size()] == '.';
  }
};

inline void from_json(const nlohmann::json& j, IndexFile& f) {
  if (!j.is_object())
    throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_or_keep(j, "index_type", f.index_type);
  mgnify::detail::read_optional(j, "url", f.url);
  if (!f.url) mgnify::detail::read_optional(j, "relative_url", f.url);
  f.raw = j;
}

/// Writes over the raw object, so that a decoded index re-encodes exactly: a
/// url read from `relative_url` goes back there, not into a new `url`.
inline void to_json(nlohmann::json& j, const IndexFile& f) {
  j = f.raw.is_object() ? f.raw.json() : nlohmann::json::object();
  const auto url = j.find("url");
  const auto relative = j.find("relative_url");
  const bool from_relative =
      (url == j.end() || url->is_null()) && relative != j.end() && !relative->is_null();
  const mgnify::detail::JsonFieldWriter writer{j};
  writer.defaulted("index_type", f.index_type);
  writer.optional(from_relative ? "relative_url" : "url", f.url);
}

namespace detail {

/// `index_file`, the name servers before Aug 2025 used, read only without
/// `index_files`: one index, or (in the later schema) a list of them.
inline std::optional<std::vector<IndexFile>> legacy_index_files(const nlohmann::json& j) {
  const auto it = j.find("index_file");
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (it->is_array()) {
    return mgnify::detail::convert_at<std::vector<IndexFile>>(*it, "/index_file");
  }
  return std::vector<IndexFile>{mgnify::detail::convert_at<IndexFile>(*it, "/index_file")};
}

/// Index files read from `index_file` go back there, in the form they came in
/// (one object or a list) while that form can hold them.
inline void write_index_files(nlohmann::json& j,
                              const std::optional<std::vector<IndexFile>>& files) {
  const auto plural = j.find("index_files");
  const auto single = j.find("index_file");
  const bool legacy =
      (plural == j.end() || plural->is_null()) && single != j.end() && !single->is_null();
  if (legacy && !files) {
    j["index_file"] = nullptr;
  } else if (legacy && single->is_array()) {
    j["index_file"] = *files;
  } else if (legacy && files->size() == 1) {
    j["index_file"] = files->front();
  } else {
    mgnify::detail::JsonFieldWriter{j}.optional("index_files", files);
  }
}

}  // namespace detail

inline void from_json(const nlohmann::json& j, DownloadFile& d) {
  if (!j.is_object())
    throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_or_keep(j, "alias", d.alias);
  mgnify::detail::read_or_keep(j, "download_type", d.download_type);
  mgnify::detail::read_or_keep(j, "file_type", d.file_type);
  mgnify::detail::read_or_keep(j, "short_description", d.short_description);
  mgnify::detail::read_or_keep(j, "long_description", d.long_description);
  mgnify::detail::read_optional(j, "download_group", d.download_group);
  mgnify::detail::read_optional(j, "file_size_bytes", d.file_size_bytes);
  mgnify::detail::read_optional(j, "index_files", d.index_files);
  if (!d.index_files) d.index_files = detail::legacy_index_files(j);
  mgnify::detail::read_optional(j, "url", d.url);
  d.raw = j;
}

/// Writes over the raw object with the rules of the field tables
/// (detail/fields.hpp): absent stays absent, null stays null.
inline void to_json(nlohmann::json& j, const DownloadFile& d) {
  j = d.raw.is_object() ? d.raw.json() : nlohmann::json::object();
  const mgnify::detail::JsonFieldWriter writer{j};
  writer.defaulted("alias", d.alias);
  writer.defaulted("download_type", d.download_type);
  writer.defaulted("file_type", d.file_type);
  writer.defaulted("short_description", d.short_description);
  writer.defaulted("long_description", d.long_description);
  writer.optional("download_group", d.download_group);
  writer.optional("file_size_bytes", d.file_size_bytes);
  detail::write_index_files(j, d.index_files);
  writer.optional("url", d.url);
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
