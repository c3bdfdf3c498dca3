#pragma once

// The files of a study, analysis or genome as one flat table (the manifest),
// from either API, filtered like mg-toolkit's `bulk_download -p VERSION -g GROUP`.

#include <cstdint>
#include <istream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "settings.hpp"

namespace mgnify_cli {

/// One downloadable file: a manifest line.
struct FileRow {
  std::string accession;  // the object the file belongs to (analysis, study or genome)
  std::string alias;      // file name
  std::string pipeline_version;
  std::string group;  // v1 group-type, v2 download_group
  std::string description;
  std::string file_type;
  std::string experiment_type;
  std::string url;  // empty: the service publishes no location (v2 legacy results)
  std::string checksum_algorithm;
  std::string checksum;
  std::optional<std::uint64_t> size_bytes;
};

/// Manifest column names, in order.
const std::vector<std::string>& manifest_columns();
nlohmann::json to_json(const FileRow& row);

enum class Api { v1, v2 };

struct Selection {
  Api api = Api::v2;
  std::string accession;
  std::string pipeline;             // -p: "5.0", "V6", "6.1"; empty: every version
  std::vector<std::string> groups;  // -g: any of these; empty: every group
  bool study_summaries = false;     // a study's own summary files instead of its analyses' files
  std::size_t concurrency = 4;
};

/// "V5", "v5.0" and "5" name the same pipeline: "5".
std::string normalise_version(const std::string& version);
/// "Taxonomic analysis SSU rRNA" and "taxonomic_analysis_ssu_rrna" are the same group.
std::string normalise_group(const std::string& group);

/// Lists the selected files. Per-object failures (one analysis of a study)
/// are printed to stderr and reported through `first_error`; the other rows
/// are still returned.
std::vector<FileRow> list_files(const Selection& selection, const Settings& settings,
                                std::exception_ptr& first_error);

/// Reads a manifest written by `mgnify downloads --format tsv` or `--manifest`.
std::vector<FileRow> read_manifest(std::istream& in, const std::string& name);

}  // namespace mgnify_cli
