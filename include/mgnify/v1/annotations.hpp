#pragma once

// Annotation entries, both the catalogue-wide lists (/annotations/...) and the
// per-analysis lists (/analyses/{acc}/go-terms, ...), which add `count`.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// Fields every annotation kind has.
struct AnnotationEntry : ResourceModel {
  std::string accession;
  std::optional<std::string> description;
  /// Only in per-analysis lists: how many matches the analysis had.
  std::optional<std::int64_t> count;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("accession", s.accession);
    v.optional("description", s.description);
    v.optional("count", s.count);
  }

  template <class V>
  static void relationships(V& v) {
    v.link_only("analyses");
  }
};

/// Type `go-terms` (also the go-slim lists). `lineage` is the GO namespace.
struct GoTerm : AnnotationEntry {
  std::optional<std::string> lineage;
  template <class Self, class V>
  static void fields(Self& s, V& v) {
    AnnotationEntry::fields(s, v);
    v.optional("lineage", s.lineage);
  }
};
MGNIFY_JSON_FIELDS(GoTerm, "go-term")

/// Type `interpro-identifiers`; id is the IPR accession.
struct InterproIdentifier : AnnotationEntry {};
MGNIFY_JSON_FIELDS(InterproIdentifier, "interpro-identifier")

/// Type `pfam-entries`; id is the PF accession.
struct PfamEntry : AnnotationEntry {};
MGNIFY_JSON_FIELDS(PfamEntry, "pfam-entry")

/// Type `kegg-orthologs`; id is the K number.
struct KeggOrtholog : AnnotationEntry {};
MGNIFY_JSON_FIELDS(KeggOrtholog, "kegg-ortholog")

/// Type `antismash-gene-clusters`.
struct AntismashGeneCluster : AnnotationEntry {};
MGNIFY_JSON_FIELDS(AntismashGeneCluster, "antismash-gene-cluster")

/// Type `kegg-modules`; per-analysis entries carry completeness and the KOs.
struct KeggModule : AnnotationEntry {
  std::optional<std::string> name;
  std::optional<double> completeness;
  std::vector<std::string> matching_kos;
  std::vector<std::string> missing_kos;
  template <class Self, class V>
  static void fields(Self& s, V& v) {
    AnnotationEntry::fields(s, v);
    v.optional("name", s.name);
    v.optional("completeness", s.completeness);
    v.defaulted("matching-kos", s.matching_kos);
    v.defaulted("missing-kos", s.missing_kos);
  }
};
MGNIFY_JSON_FIELDS(KeggModule, "kegg-module")

/// Type `genome-properties`; per-analysis entries carry presence
/// ("Yes", "Partial", "No").
struct GenomeProperty : AnnotationEntry {
  std::optional<std::string> presence;
  template <class Self, class V>
  static void fields(Self& s, V& v) {
    AnnotationEntry::fields(s, v);
    v.optional("presence", s.presence);
  }
};
MGNIFY_JSON_FIELDS(GenomeProperty, "genome-property")

/// Type `organisms` (taxonomy lists); id is the lineage. Its links.self is
/// double-encoded by the service: follow it as given, never rebuild it.
struct Organism : ResourceModel {
  std::string lineage;
  /// rank -> name, e.g. {"phylum": "Proteobacteria"}.
  std::map<std::string, std::string> hierarchy;
  std::optional<std::string> domain;
  std::optional<std::string> name;
  std::optional<std::string> parent;
  std::optional<std::string> rank;
  std::optional<std::string> pipeline_version;
  std::optional<std::int64_t> count;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("lineage", s.lineage);
    v.defaulted("hierarchy", s.hierarchy);
    v.optional("domain", s.domain);
    v.optional("name", s.name);
    v.optional("parent", s.parent);
    v.optional("rank", s.rank);
    v.optional("pipeline-version", s.pipeline_version);
    v.optional("count", s.count);
  }

  /// No relationships.
  template <class V>
  static void relationships(V&) {}
};
MGNIFY_JSON_FIELDS(Organism, "organism")

}  // namespace v1
MGNIFY_NAMESPACE_END
