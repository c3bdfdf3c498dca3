#pragma once

// The MAG catalogues' annotation vocabularies and groupings: genome sets,
// COG categories, KEGG classes and modules, antiSMASH gene clusters. The same
// types come back from the top-level lists (cogs, kegg-classes, ...) and, with
// the per-genome counts filled in, from a genome's related lists
// (genomes/{acc}/cogs, /kegg-class, /kegg-module, /antismash-genecluster).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// Type `genome-sets`; id is the set's name ("NCBI", "EBI", ...).
struct GenomeSet : ResourceModel {
  std::string name;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("name", s.name);
  }

  template <class V>
  static void relationships(V& v) {
    v.link_only("genomes");
  }
};
MGNIFY_JSON_FIELDS(GenomeSet, "genome-set")

/// Shared by the vocabularies whose entries are a name and a description: as
/// listed at the top level, and with the counts a genome's list adds (how
/// many of its genes, and of its pangenome's, fall in the entry).
struct NamedGenomeCount : ResourceModel {
  std::string name;
  std::optional<std::string> description;
  std::optional<std::int64_t> genome_count;
  std::optional<std::int64_t> pangenome_count;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("name", s.name);
    v.optional("description", s.description);
    v.optional("genome-count", s.genome_count);
    v.optional("pangenome-count", s.pangenome_count);
  }

  /// No relationships.
  template <class V>
  static void relationships(V&) {}
};

/// A COG functional category ("C": "Energy production and conversion").
struct CogCategory : NamedGenomeCount {};
MGNIFY_JSON_FIELDS(CogCategory, "cog-category")

/// A KEGG module as the genome catalogues count it (the top-level
/// `kegg-modules` list), not the per-analysis KeggModule with completeness.
struct GenomeKeggModule : NamedGenomeCount {};
MGNIFY_JSON_FIELDS(GenomeKeggModule, "genome-kegg-module")

/// An antiSMASH gene-cluster class as the genome catalogues count it.
struct GenomeAntismashCluster : NamedGenomeCount {};
MGNIFY_JSON_FIELDS(GenomeAntismashCluster, "genome-antismash-cluster")

/// A KEGG BRITE class; `parent` is the enclosing class's id, null at the top.
struct KeggClass : ResourceModel {
  std::string class_id;
  std::optional<std::string> name;
  std::optional<std::string> parent;
  std::optional<std::int64_t> genome_count;
  std::optional<std::int64_t> pangenome_count;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("class-id", s.class_id);
    v.optional("name", s.name);
    v.optional("parent", s.parent);
    v.optional("genome-count", s.genome_count);
    v.optional("pangenome-count", s.pangenome_count);
  }

  /// No relationships.
  template <class V>
  static void relationships(V&) {}
};
MGNIFY_JSON_FIELDS(KeggClass, "kegg-class")

}  // namespace v1
MGNIFY_NAMESPACE_END
