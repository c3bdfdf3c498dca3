#pragma once

// The service's enumerations. Each enum has an `unknown` member, and a decoded
// value keeps the text it came from (Enumerated<E>), because the server adds
// values over time (B13 of the reference) and a new label must not break a
// client built before it.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "mgnify/enum_table.hpp"
#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

/// Experiment types. Responses carry the display label ("Metagenomic"); the
/// runs filter takes the code ("METAG"). Both are mapped here.
enum class ExperimentType {
  metatranscriptomic,
  metagenomic,
  amplicon,
  assembly,
  hybrid_assembly,
  long_read_assembly,
  metabarcoding,
  unknown_type,  // the service's own "Unknown" value (code UNKNO)
  unknown        // a value this SDK does not know yet
};
enum class PipelineVersion { v1, v2, v3, v4, v4_1, v5, v6, v6_1, unknown };
enum class DownloadType {
  coding_sequences,
  sequence_data,
  quality_control,
  functional_analysis,
  taxonomic_analysis,
  statistics,
  non_coding_rnas,
  genome_analysis,
  analysis_ro_crate,
  other,
  unknown
};
enum class FileType { fasta, tsv, biom, csv, json, svg, tree, html, gff, other, unknown };
enum class IndexType { fai, gzi, csi, unknown };
enum class GenomeType { mag, isolate, unknown };
enum class CatalogueType { prokaryotes, eukaryotes, viruses, unknown };
enum class CatalogueStatus { draft, ready, published, retired, unknown };
/// The `annotation_type` path segment of analyses/{acc}/annotations/{type}.
enum class AnnotationType {
  taxonomies_ssu,
  taxonomies_lsu,
  taxonomies_its_one_db,
  taxonomies_unite,
  taxonomies_pr2,
  taxonomies_dada2_pr2,
  taxonomies_dada2_silva,
  pfams,
  unknown
};

/// The wire text of each known value (every enumerator but `unknown`): the
/// tables of enum_table.hpp.
constexpr auto enum_names(ExperimentType) {
  return enum_table<ExperimentType>({
      {ExperimentType::metatranscriptomic, "Metatranscriptomic"},
      {ExperimentType::metagenomic, "Metagenomic"},
      {ExperimentType::amplicon, "Amplicon"},
      {ExperimentType::assembly, "Assembly"},
      {ExperimentType::hybrid_assembly, "Hybrid assembly"},
      {ExperimentType::long_read_assembly, "Long-read assembly"},
      {ExperimentType::metabarcoding, "Metabarcoding"},
      {ExperimentType::unknown_type, "Unknown"},
  });
}
/// What the runs list's experiment_type filter takes for each value.
constexpr auto experiment_type_codes() {
  return enum_table<ExperimentType>({
      {ExperimentType::metatranscriptomic, "METAT"},
      {ExperimentType::metagenomic, "METAG"},
      {ExperimentType::amplicon, "AMPLI"},
      {ExperimentType::assembly, "ASSEM"},
      {ExperimentType::hybrid_assembly, "HYASS"},
      {ExperimentType::long_read_assembly, "LRASS"},
      {ExperimentType::metabarcoding, "METAB"},
      {ExperimentType::unknown_type, "UNKNO"},
  });
}
constexpr auto enum_names(PipelineVersion) {
  return enum_table<PipelineVersion>({
      {PipelineVersion::v1, "V1"},
      {PipelineVersion::v2, "V2"},
      {PipelineVersion::v3, "V3"},
      {PipelineVersion::v4, "V4"},
      {PipelineVersion::v4_1, "V4.1"},
      {PipelineVersion::v5, "V5"},
      {PipelineVersion::v6, "V6"},
      {PipelineVersion::v6_1, "V6.1"},
  });
}
constexpr auto enum_names(DownloadType) {
  return enum_table<DownloadType>({
      {DownloadType::coding_sequences, "Coding Sequences"},
      {DownloadType::sequence_data, "Sequence data"},
      {DownloadType::quality_control, "Quality control"},
      {DownloadType::functional_analysis, "Functional analysis"},
      {DownloadType::taxonomic_analysis, "Taxonomic analysis"},
      {DownloadType::statistics, "Statistics"},
      {DownloadType::non_coding_rnas, "non-coding RNAs"},
      {DownloadType::genome_analysis, "Genome analysis"},
      {DownloadType::analysis_ro_crate, "Analysis RO Crate"},
      {DownloadType::other, "Other"},
  });
}
constexpr auto enum_names(FileType) {
  return enum_table<FileType>({
      {FileType::fasta, "fasta"},
      {FileType::tsv, "tsv"},
      {FileType::biom, "biom"},
      {FileType::csv, "csv"},
      {FileType::json, "json"},
      {FileType::svg, "svg"},
      {FileType::tree, "tree"},
      {FileType::html, "html"},
      {FileType::gff, "gff"},
      {FileType::other, "other"},
  });
}
constexpr auto enum_names(IndexType) {
  return enum_table<IndexType>({
      {IndexType::fai, "fai"},
      {IndexType::gzi, "gzi"},
      {IndexType::csi, "csi"},
  });
}
constexpr auto enum_names(GenomeType) {
  return enum_table<GenomeType>({
      {GenomeType::mag, "MAG"},
      {GenomeType::isolate, "Isolate"},
  });
}
constexpr auto enum_names(CatalogueType) {
  return enum_table<CatalogueType>({
      {CatalogueType::prokaryotes, "prokaryotes"},
      {CatalogueType::eukaryotes, "eukaryotes"},
      {CatalogueType::viruses, "viruses"},
  });
}
constexpr auto enum_names(CatalogueStatus) {
  return enum_table<CatalogueStatus>({
      {CatalogueStatus::draft, "draft"},
      {CatalogueStatus::ready, "ready"},
      {CatalogueStatus::published, "published"},
      {CatalogueStatus::retired, "retired"},
  });
}
constexpr auto enum_names(AnnotationType) {
  return enum_table<AnnotationType>({
      {AnnotationType::taxonomies_ssu, "taxonomies__ssu"},
      {AnnotationType::taxonomies_lsu, "taxonomies__lsu"},
      {AnnotationType::taxonomies_its_one_db, "taxonomies__its_one_db"},
      {AnnotationType::taxonomies_unite, "taxonomies__unite"},
      {AnnotationType::taxonomies_pr2, "taxonomies__pr2"},
      {AnnotationType::taxonomies_dada2_pr2, "taxonomies__dada2_pr2"},
      {AnnotationType::taxonomies_dada2_silva, "taxonomies__dada2_silva"},
      {AnnotationType::pfams, "pfams"},
  });
}

/// The wire text of a known value ("" for `unknown`).
template <class E>
constexpr const char* to_string(E value) noexcept {
  return enum_text(value);
}

/// The value named by `text`, or E::unknown.
template <class E>
constexpr E enum_from_string(std::string_view text) noexcept {
  return enum_value<E>(text).value_or(E::unknown);
}

/// The filter code the runs list takes for an experiment type ("METAG"; "" for `unknown`).
constexpr const char* experiment_type_code(ExperimentType type) noexcept {
  return text_in(experiment_type_codes(), type);
}

/// A decoded enum value together with the exact text the service sent, so that
/// values newer than this SDK survive as `unknown` + their text.
template <class E>
struct Enumerated {
  E value = E::unknown;
  std::string text;

  Enumerated() = default;
  Enumerated(E v) : value(v), text(to_string(v)) {}  // NOLINT: implicit so fields compare with E
  static Enumerated parse(std::string text) {
    Enumerated out;
    out.value = enum_from_string<E>(text);
    out.text = std::move(text);
    return out;
  }
  bool known() const noexcept { return value != E::unknown; }

  friend bool operator==(const Enumerated& a, E b) { return a.value == b; }
  friend bool operator!=(const Enumerated& a, E b) { return a.value != b; }
  friend bool operator==(const Enumerated& a, const Enumerated& b) { return a.text == b.text; }
  friend bool operator!=(const Enumerated& a, const Enumerated& b) { return a.text != b.text; }
};

template <class E>
void from_json(const nlohmann::json& j, Enumerated<E>& out) {
  if (!j.is_string()) {
    throw DecodeError("", "", std::string("expected an enum string, got ") + j.type_name());
  }
  out = Enumerated<E>::parse(j.get<std::string>());
}

template <class E>
void to_json(nlohmann::json& j, const Enumerated<E>& value) {
  j = value.text;
}

}  // namespace v2
MGNIFY_NAMESPACE_END
