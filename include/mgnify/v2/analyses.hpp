#pragma once

// Analyses: the list form (study/run/assembly sub-lists), the detail form
// (detail endpoint and the top-level analyses/ list) with downloads, and the
// annotation views.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/assemblies.hpp"
#include "mgnify/v2/decode.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/v2/runs.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

struct Analysis {
  /// "MGYA" + 8 digits.
  std::string accession;
  /// MGYS accession of the parent study.
  std::string study_accession;
  Enumerated<ExperimentType> experiment_type;
  std::optional<AnalysedRun> run;
  std::optional<Sample> sample;
  std::optional<Assembly> assembly;
  std::optional<Enumerated<PipelineVersion>> pipeline_version;
  RawJson raw;
};

struct AnalysisDetail : Analysis {
  std::vector<DownloadFile> downloads;
  /// The schema says array-or-null; older servers sent one object, read here as a list of one.
  std::optional<std::vector<AnalysedRun>> read_run;
  nlohmann::json quality_control_summary;
  std::optional<std::string> results_dir;
  nlohmann::json metadata;

  /// Downloads in `group_prefix` (e.g. "taxonomies." for every taxonomy file).
  std::vector<DownloadFile> downloads_in_group(std::string_view group_prefix) const {
    return select_by_group(downloads, group_prefix);
  }
  std::vector<DownloadFile> downloads_of_type(FileType type) const {
    return select_by_file_type(downloads, type);
  }
  /// Downloads keyed by download_group.
  std::map<std::string, std::vector<DownloadFile>> downloads_by_group() const {
    return group_downloads(downloads);
  }
};

/// One row of analyses/{acc}/annotations/{type}.
struct AnalysisTypedAnnotation {
  std::optional<std::int64_t> count;
  std::optional<std::string> description;
  std::optional<std::string> organism;
  RawJson raw;
};

struct AnalysisWithAnnotations : AnalysisDetail {
  /// Keys are annotation types; values are lists of {count, description,
  /// organism} or objects of such lists ({"taxonomies": {"lsu": [...]}}).
  nlohmann::json annotations = nlohmann::json::object();

  /// The rows under a path such as {"pfams"} or {"taxonomies", "lsu"}; empty when absent.
  std::vector<AnalysisTypedAnnotation> annotation_rows(const std::vector<std::string>& path) const {
    const nlohmann::json* node = &annotations;
    for (const auto& key : path) {
      if (!node->is_object()) return {};
      auto it = node->find(key);
      if (it == node->end()) return {};
      node = &*it;
    }
    if (!node->is_array()) return {};
    return mgnify::detail::convert_at<std::vector<AnalysisTypedAnnotation>>(*node, "/annotations");
  }
};

inline void from_json(const nlohmann::json& j, Analysis& a) {
  detail::expect_object(j, "analysis");
  mgnify::detail::read_required(j, "accession", a.accession);
  mgnify::detail::read_or_keep(j, "study_accession", a.study_accession);
  mgnify::detail::read_or_keep(j, "experiment_type", a.experiment_type);
  mgnify::detail::read_optional(j, "run", a.run);
  mgnify::detail::read_optional(j, "sample", a.sample);
  mgnify::detail::read_optional(j, "assembly", a.assembly);
  mgnify::detail::read_optional(j, "pipeline_version", a.pipeline_version);
  a.raw = j;
  // Nested objects view the analysis's raw instead of keeping a copy each.
  if (a.run) a.run->raw = RawJson::view(a.raw, "/run");
  if (a.sample) a.sample->raw = RawJson::view(a.raw, "/sample");
  if (a.assembly) a.assembly->raw = RawJson::view(a.raw, "/assembly");
}

inline void to_json(nlohmann::json& j, const Analysis& a) {
  j = detail::base_object(a.raw);
  j["accession"] = a.accession;
  j["study_accession"] = a.study_accession;
  j["experiment_type"] = a.experiment_type;
  mgnify::detail::write_optional(j, "run", a.run);
  mgnify::detail::write_optional(j, "sample", a.sample);
  mgnify::detail::write_optional(j, "assembly", a.assembly);
  mgnify::detail::write_optional(j, "pipeline_version", a.pipeline_version);
}

inline void from_json(const nlohmann::json& j, AnalysisDetail& a) {
  from_json(j, static_cast<Analysis&>(a));
  mgnify::detail::read_or_keep(j, "downloads", a.downloads);
  for (std::size_t i = 0; i < a.downloads.size(); ++i) {
    a.downloads[i].raw = RawJson::view(a.raw, "/downloads/" + std::to_string(i));
  }
  if (auto it = j.find("read_run"); it != j.end() && it->is_object()) {
    a.read_run = std::vector<AnalysedRun>{mgnify::detail::convert_at<AnalysedRun>(*it, "/read_run")};
  } else {
    mgnify::detail::read_optional(j, "read_run", a.read_run);
  }
  if (auto it = j.find("quality_control_summary"); it != j.end()) a.quality_control_summary = *it;
  mgnify::detail::read_optional(j, "results_dir", a.results_dir);
  if (auto it = j.find("metadata"); it != j.end()) a.metadata = *it;
}

inline void to_json(nlohmann::json& j, const AnalysisDetail& a) {
  to_json(j, static_cast<const Analysis&>(a));
  j["downloads"] = a.downloads;
  mgnify::detail::write_optional(j, "read_run", a.read_run);
  j["quality_control_summary"] = a.quality_control_summary;
  mgnify::detail::write_optional(j, "results_dir", a.results_dir);
  j["metadata"] = a.metadata;
}

inline void from_json(const nlohmann::json& j, AnalysisTypedAnnotation& t) {
  detail::expect_object(j, "annotation");
  mgnify::detail::read_optional(j, "count", t.count);
  mgnify::detail::read_optional(j, "description", t.description);
  mgnify::detail::read_optional(j, "organism", t.organism);
  t.raw = j;
}

inline void to_json(nlohmann::json& j, const AnalysisTypedAnnotation& t) {
  j = detail::base_object(t.raw);
  mgnify::detail::write_optional(j, "count", t.count);
  mgnify::detail::write_optional(j, "description", t.description);
  mgnify::detail::write_optional(j, "organism", t.organism);
}

inline void from_json(const nlohmann::json& j, AnalysisWithAnnotations& a) {
  from_json(j, static_cast<AnalysisDetail&>(a));
  if (auto it = j.find("annotations"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) {
      throw DecodeError("/annotations", "", std::string("expected an object, got ") + it->type_name());
    }
    a.annotations = *it;
  }
}

inline void to_json(nlohmann::json& j, const AnalysisWithAnnotations& a) {
  to_json(j, static_cast<const AnalysisDetail&>(a));
  j["annotations"] = a.annotations;
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
