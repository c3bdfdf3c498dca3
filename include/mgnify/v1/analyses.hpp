#pragma once

// Analysis-level models: analyses (type analysis-jobs), their contigs,
// pipelines and every kind of download.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
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
  static void fields(Self& s, V& v) {
    v.defaulted("accession", s.accession);
    v.defaulted("analysis-summary", s.analysis_summary);
    v.optional("pipeline-version", s.pipeline_version);
    v.optional("analysis-status", s.analysis_status);
    v.optional("experiment-type", s.experiment_type);
    v.optional("complete-time", s.complete_time);
    v.optional("instrument-platform", s.instrument_platform);
    v.optional("instrument-model", s.instrument_model);
    v.optional("is-private", s.is_private);
    v.optional("last-update", s.last_update);
    v.optional("mgx-accession", s.mgx_accession);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("sample");
    v.with_ids("study");
    v.with_ids("run");
    v.with_ids("assembly");
    v.link_only("downloads");
    v.link_only("taxonomy");
    v.link_only("taxonomy-lsu");
    v.link_only("taxonomy-ssu");
    v.link_only("taxonomy-itsonedb");
    v.link_only("taxonomy-itsunite");
    v.link_only("go-terms");
    v.link_only("go-slim");
    v.link_only("interpro-identifiers");
    v.link_only("antismash-gene-clusters");
    v.link_only("genome-properties");
  }
};
MGNIFY_JSON_FIELDS(Analysis, "analysis")

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
  static void fields(Self& s, V& v) {
    v.defaulted("contig-id", s.contig_id);
    v.optional("length", s.length);
    v.optional("coverage", s.coverage);
    v.optional("analysis-id", s.analysis_id);
    v.optional("accession", s.accession);
    v.optional("pipeline-version", s.pipeline_version);
    v.optional("job-id", s.job_id);
    v.optional("has-cog", s.has_cog);
    v.optional("has-kegg", s.has_kegg);
    v.optional("has-go", s.has_go);
    v.optional("has-pfam", s.has_pfam);
    v.optional("has-interpro", s.has_interpro);
    v.optional("has-antismash", s.has_antismash);
    v.optional("has-kegg-module", s.has_kegg_module);
  }

  /// No relationships.
  template <class V>
  static void relationships(V&) {}
};
MGNIFY_JSON_FIELDS(AnalysisContig, "analysis-contig")

/// Type `pipelines`; id is the release version ("5.0").
struct Pipeline : ResourceModel {
  std::string release_version;
  std::optional<std::string> description;
  std::optional<std::string> changes;
  std::optional<Timestamp> release_date;
  std::optional<std::int64_t> samples_count;
  std::optional<std::int64_t> analyses_count;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("release-version", s.release_version);
    v.optional("description", s.description);
    v.optional("changes", s.changes);
    v.optional("release-date", s.release_date);
    v.optional("samples-count", s.samples_count);
    v.optional("analyses-count", s.analyses_count);
  }

  template <class V>
  static void relationships(V& v) {
    v.link_only("samples");
    v.link_only("analyses");
    v.with_ids("tools");
  }
};
MGNIFY_JSON_FIELDS(Pipeline, "pipeline")

/// `file-format` of a download.
struct FileFormat {
  std::string name;
  std::optional<std::string> extension;
  std::optional<bool> compression;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("name", self.name);
    v.optional("extension", self.extension);
    v.optional("compression", self.compression);
  }
};
MGNIFY_JSON_FIELDS(FileFormat, "file-format")

/// `description` of a download.
struct DownloadDescription {
  std::string label;
  std::string description;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("label", self.label);
    v.defaulted("description", self.description);
  }
};
MGNIFY_JSON_FIELDS(DownloadDescription, "download description")

/// `file-checksum` of a download; both members are "" on old data.
struct FileChecksum {
  std::string checksum;
  std::string checksum_algorithm;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("checksum", self.checksum);
    v.defaulted("checksum-algorithm", self.checksum_algorithm);
  }
};
MGNIFY_JSON_FIELDS(FileChecksum, "file-checksum")

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
  static void fields(Self& s, V& v) {
    v.defaulted("alias", s.alias);
    v.optional("file-format", s.file_format);
    v.optional("description", s.description);
    v.optional("group-type", s.group_type);
    v.optional("file-checksum", s.file_checksum);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("pipeline");
  }
};
MGNIFY_JSON_FIELDS(Download, "download")

}  // namespace v1
MGNIFY_NAMESPACE_END
