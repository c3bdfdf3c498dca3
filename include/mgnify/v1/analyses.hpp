#pragma once

// Analysis-level models: analyses (type analysis-jobs), their contigs,
// pipelines and every kind of download.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v1 {

/// Type `analysis-jobs`; id is the MGYA accession.
struct Analysis : ResourceModel {
  std::string accession;
  std::vector<KeyValue> analysis_summary;
  std::optional<std::string> pipeline_version;
  /// "completed" or "QC not passed".
  std::optional<std::string> analysis_status;
  std::optional<std::string> experiment_type;
  std::optional<Timestamp> complete_time;
  std::optional<std::string> instrument_platform;
  std::optional<std::string> instrument_model;
  std::optional<bool> is_private;
  std::optional<Timestamp> last_update;
  std::optional<std::string> mgx_accession;

  template <class Self, class V>
  static void visit(Self& s, V&& v) {
    v("accession", s.accession);
    v("analysis-summary", s.analysis_summary);
    v("pipeline-version", s.pipeline_version);
    v("analysis-status", s.analysis_status);
    v("experiment-type", s.experiment_type);
    v("complete-time", s.complete_time);
    v("instrument-platform", s.instrument_platform);
    v("instrument-model", s.instrument_model);
    v("is-private", s.is_private);
    v("last-update", s.last_update);
    v("mgx-accession", s.mgx_accession);
  }
};
MGNIFY_V1_MODEL_JSON(Analysis)

/// Type `analysis-job-contigs`. The resource id changed meaning over time
/// (a database id, later the contig id): use `contig_id`.
struct AnalysisContig : ResourceModel {
  std::string contig_id;
  std::optional<std::int64_t> length;
  std::optional<double> coverage;
  std::optional<std::string> analysis_id;
  std::optional<std::string> accession;
  std::optional<std::string> pipeline_version;
  std::optional<std::int64_t> job_id;
  std::optional<bool> has_cog;
  std::optional<bool> has_kegg;
  std::optional<bool> has_go;
  std::optional<bool> has_pfam;
  std::optional<bool> has_interpro;
  std::optional<bool> has_antismash;
  std::optional<bool> has_kegg_module;

  template <class Self, class V>
  static void visit(Self& s, V&& v) {
    v("contig-id", s.contig_id);
    v("length", s.length);
    v("coverage", s.coverage);
    v("analysis-id", s.analysis_id);
    v("accession", s.accession);
    v("pipeline-version", s.pipeline_version);
    v("job-id", s.job_id);
    v("has-cog", s.has_cog);
    v("has-kegg", s.has_kegg);
    v("has-go", s.has_go);
    v("has-pfam", s.has_pfam);
    v("has-interpro", s.has_interpro);
    v("has-antismash", s.has_antismash);
    v("has-kegg-module", s.has_kegg_module);
  }
};
MGNIFY_V1_MODEL_JSON(AnalysisContig)

/// Type `pipelines`; id is the release version ("5.0").
struct Pipeline : ResourceModel {
  std::string release_version;
  std::optional<std::string> description;
  std::optional<std::string> changes;
  std::optional<Timestamp> release_date;
  std::optional<std::int64_t> samples_count;
  std::optional<std::int64_t> analyses_count;

  template <class Self, class V>
  static void visit(Self& s, V&& v) {
    v("release-version", s.release_version);
    v("description", s.description);
    v("changes", s.changes);
    v("release-date", s.release_date);
    v("samples-count", s.samples_count);
    v("analyses-count", s.analyses_count);
  }
};
MGNIFY_V1_MODEL_JSON(Pipeline)

/// `file-format` of a download.
struct FileFormat {
  std::string name;
  std::optional<std::string> extension;
  std::optional<bool> compression;
};
inline void from_json(const nlohmann::json& j, FileFormat& out) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_or_keep(j, "name", out.name);
  mgnify::detail::read_optional(j, "extension", out.extension);
  mgnify::detail::read_optional(j, "compression", out.compression);
}
inline void to_json(nlohmann::json& j, const FileFormat& f) {
  j = nlohmann::json{{"name", f.name}};
  mgnify::detail::write_optional(j, "extension", f.extension);
  mgnify::detail::write_optional(j, "compression", f.compression);
}

/// `description` of a download.
struct DownloadDescription {
  std::string label;
  std::string description;
};
inline void from_json(const nlohmann::json& j, DownloadDescription& out) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_or_keep(j, "label", out.label);
  mgnify::detail::read_or_keep(j, "description", out.description);
}
inline void to_json(nlohmann::json& j, const DownloadDescription& d) {
  j = nlohmann::json{{"label", d.label}, {"description", d.description}};
}

/// `file-checksum` of a download; both members are "" on old data.
struct FileChecksum {
  std::string checksum;
  std::string checksum_algorithm;
};
inline void from_json(const nlohmann::json& j, FileChecksum& out) {
  if (!j.is_object()) throw DecodeError("", "", std::string("expected an object, got ") + j.type_name());
  mgnify::detail::read_or_keep(j, "checksum", out.checksum);
  mgnify::detail::read_or_keep(j, "checksum-algorithm", out.checksum_algorithm);
}
inline void to_json(nlohmann::json& j, const FileChecksum& c) {
  j = nlohmann::json{{"checksum", c.checksum}, {"checksum-algorithm", c.checksum_algorithm}};
}

/// Every downloadable file: types `study-downloads`, `analysis-job-downloads`,
/// `genome-downloads`, `genome-catalogue-downloads`, `run-extra-annotations`,
/// `assembly-extra-annotations`. The id is the alias (public file name) and
/// links.self is the file's URL.
struct Download : ResourceModel {
  std::string alias;
  std::optional<FileFormat> file_format;
  std::optional<DownloadDescription> description;
  std::optional<std::string> group_type;
  std::optional<FileChecksum> file_checksum;

  /// The pipeline version the file belongs to (study and analysis downloads).
  std::optional<std::string> pipeline_version() const {
    const Relationship* r = relationship("pipeline");
    if (!r) return std::nullopt;
    auto one = r->one();
    return one ? std::optional<std::string>(one->id) : std::nullopt;
  }

  template <class Self, class V>
  static void visit(Self& s, V&& v) {
    v("alias", s.alias);
    v("file-format", s.file_format);
    v("description", s.description);
    v("group-type", s.group_type);
    v("file-checksum", s.file_checksum);
  }
};
MGNIFY_V1_MODEL_JSON(Download)

}  // namespace v1
}  // namespace v0
}  // namespace mgnify
