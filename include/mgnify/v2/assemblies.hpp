#pragma once

// Assemblies and the genome link schemas listed under an assembly.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

struct Assembly {
  /// ERZ... (null for assemblies not yet registered at ENA).
  std::optional<std::string> accession;
  std::optional<DateTime> updated_at;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.optional("accession", self.accession);
    v.optional("updated_at", self.updated_at);
  }
};

struct AssemblyDetail : Assembly {
  std::optional<std::string> run_accession;
  std::optional<std::string> sample_accession;
  std::optional<std::string> reads_study_accession;
  std::optional<std::string> assembly_study_accession;
  std::optional<std::string> assembler_name;
  std::optional<std::string> assembler_version;
  /// coverage, coverage_depth, n_contigs, ... (null when absent)
  nlohmann::json metadata;
  /// e.g. {"assembly_completed": true} (null when absent)
  nlohmann::json status;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    Assembly::fields(self, v);
    v.optional("run_accession", self.run_accession);
    v.optional("sample_accession", self.sample_accession);
    v.optional("reads_study_accession", self.reads_study_accession);
    v.optional("assembly_study_accession", self.assembly_study_accession);
    v.optional("assembler_name", self.assembler_name);
    v.optional("assembler_version", self.assembler_version);
    v.defaulted("metadata", self.metadata);
    v.defaulted("status", self.status);
  }
};

/// A genome as referenced from an assembly link (OpenAPI `GenomeSchema`).
struct GenomeSchema {
  std::string accession;
  std::optional<std::string> catalogue_id;
  std::optional<std::string> taxon_lineage;
  std::optional<std::string> catalogue_version;
  std::optional<std::string> ena_genome_accession;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("accession", self.accession);
    v.optional("catalogue_id", self.catalogue_id);
    v.optional("taxon_lineage", self.taxon_lineage);
    v.optional("catalogue_version", self.catalogue_version);
    v.optional("ena_genome_accession", self.ena_genome_accession);
  }
};

/// assemblies/{acc}/genome-links item.
struct GenomeAssemblyLinkSchema {
  GenomeSchema genome;
  std::optional<std::string> species_rep;
  std::optional<std::string> mag_accession;
  std::optional<DateTime> updated_at;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("genome", self.genome);
    v.optional("species_rep", self.species_rep);
    v.optional("mag_accession", self.mag_accession);
    v.optional("updated_at", self.updated_at);
  }
};

/// assemblies/{acc}/additional-contained-genomes item.
struct AdditionalContainedGenomeSchema {
  GenomeSchema genome;
  std::optional<std::string> run_accession;
  std::optional<double> containment;
  std::optional<double> cani;
  std::optional<DateTime> updated_at;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("genome", self.genome);
    v.optional("run_accession", self.run_accession);
    v.optional("containment", self.containment);
    v.optional("cani", self.cani);
    v.optional("updated_at", self.updated_at);
  }
};

MGNIFY_JSON_FIELDS(Assembly, "assembly")
MGNIFY_JSON_FIELDS(AssemblyDetail, "assembly")
MGNIFY_JSON_FIELDS(GenomeSchema, "genome")
MGNIFY_JSON_FIELDS(GenomeAssemblyLinkSchema, "genome link")
MGNIFY_JSON_FIELDS(AdditionalContainedGenomeSchema, "contained genome")

}  // namespace v2
MGNIFY_NAMESPACE_END
