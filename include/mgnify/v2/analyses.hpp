#pragma once

// Analyses: the list form (study/run/assembly sub-lists), the detail form
// (detail endpoint and the top-level analyses/ list) with downloads, and the
// annotation views.

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/assemblies.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/v2/runs.hpp"
#include "mgnify/v2/samples.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
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
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("accession", self.accession);
    v.defaulted("study_accession", self.study_accession);
    v.defaulted("experiment_type", self.experiment_type);
    v.optional("run", self.run);
    v.optional("sample", self.sample);
    v.optional("assembly", self.assembly);
    v.optional("pipeline_version", self.pipeline_version);
  }
};

struct AnalysisDetail : Analysis {
  std::vector<DownloadFile> downloads;
  /// A list or null (one object, read as a list of one, in the first OpenAPI document and from
  /// older servers).
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

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    Analysis::fields(self, v);
    v.defaulted("downloads", self.downloads);
    v.optional("read_run", self.read_run);
    v.defaulted("quality_control_summary", self.quality_control_summary);
    v.optional("results_dir", self.results_dir);
    v.defaulted("metadata", self.metadata);
  }
};

/// One row of analyses/{acc}/annotations/{type}.
struct AnalysisTypedAnnotation {
  std::optional<std::int64_t> count;
  std::optional<std::string> description;
  std::optional<std::string> organism;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.optional("count", self.count);
    v.optional("description", self.description);
    v.optional("organism", self.organism);
  }
};

struct AnalysisWithAnnotations : AnalysisDetail {
  /// Keys are annotation types; values are lists of {count, description,
  /// organism} or objects of such lists ({"taxonomies": {"lsu": [...]}}).
  /// Null when the server sends none (iterating it then yields nothing).
  nlohmann::json annotations;

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

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    AnalysisDetail::fields(self, v);
    v.defaulted("annotations", self.annotations);
  }
};

namespace detail {

/// `read_run` is one object or null in the first OpenAPI document (f523197) and
/// older servers send that, a list or null in the later one (f4e66b3); one
/// object is read as a list of one, and `raw` keeps what was sent.
template <class A>
void read_analysis_detail(const nlohmann::json& j, A& a) {
  const auto run = j.is_object() ? j.find("read_run") : j.end();
  if (run == j.end() || !run->is_object()) {
    mgnify::detail::read_fields(j, a, "analysis");
    return;
  }
  nlohmann::json as_list = j;
  as_list["read_run"] = nlohmann::json::array({*run});
  mgnify::detail::read_fields(as_list, a, "analysis");
  a.raw = j;
}

/// A one-object read_run goes back as one object while it holds one run, so
/// that the document re-encodes as it came.
template <class A>
void write_analysis_detail(nlohmann::json& j, const A& a) {
  mgnify::detail::write_fields(j, a);
  const nlohmann::json& sent = a.raw.json();
  const auto run = sent.is_object() ? sent.find("read_run") : sent.end();
  if (run != sent.end() && run->is_object() && a.read_run && a.read_run->size() == 1) {
    j["read_run"] = a.read_run->front();
  }
}

}  // namespace detail

MGNIFY_JSON_FIELDS(Analysis, "analysis")
MGNIFY_JSON_FIELDS(AnalysisTypedAnnotation, "annotation")

// Templates, as MGNIFY_JSON_FIELDS makes them, so that only a file that
// converts an analysis instantiates its field table.
template <class Json, std::enable_if_t<std::is_same<Json, nlohmann::json>::value, int> = 0>
void from_json(const Json& j, AnalysisDetail& a) {
  detail::read_analysis_detail(j, a);
}
template <class Json, std::enable_if_t<std::is_same<Json, nlohmann::json>::value, int> = 0>
void to_json(Json& j, const AnalysisDetail& a) {
  detail::write_analysis_detail(j, a);
}

template <class Json, std::enable_if_t<std::is_same<Json, nlohmann::json>::value, int> = 0>
void from_json(const Json& j, AnalysisWithAnnotations& a) {
  detail::read_analysis_detail(j, a);
  if (!a.annotations.is_object() && !a.annotations.is_null()) {
    throw DecodeError("/annotations", "",
                      std::string("expected an object, got ") + a.annotations.type_name());
  }
}
template <class Json, std::enable_if_t<std::is_same<Json, nlohmann::json>::value, int> = 0>
void to_json(Json& j, const AnalysisWithAnnotations& a) {
  detail::write_analysis_detail(j, a);
}

}  // namespace v2
MGNIFY_NAMESPACE_END
