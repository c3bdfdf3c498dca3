#pragma once

// Assemblies and the genome link schemas listed under an assembly.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/v2/decode.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

struct Assembly {
  /// ERZ... (null for assemblies not yet registered at ENA).
  std::optional<std::string> accession;
  std::optional<DateTime> updated_at;
  RawJson raw;
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
};

/// A genome as referenced from an assembly link (OpenAPI `GenomeSchema`).
struct GenomeSchema {
  std::string accession;
  std::optional<std::string> catalogue_id;
  std::optional<std::string> taxon_lineage;
  std::optional<std::string> catalogue_version;
  std::optional<std::string> ena_genome_accession;
  RawJson raw;
};

/// assemblies/{acc}/genome-links item.
struct GenomeAssemblyLinkSchema {
  GenomeSchema genome;
  std::optional<std::string> species_rep;
  std::optional<std::string> mag_accession;
  std::optional<DateTime> updated_at;
  RawJson raw;
};

/// assemblies/{acc}/additional-contained-genomes item.
struct AdditionalContainedGenomeSchema {
  GenomeSchema genome;
  std::optional<std::string> run_accession;
  std::optional<double> containment;
  std::optional<double> cani;
  std::optional<DateTime> updated_at;
  RawJson raw;
};

inline void from_json(const nlohmann::json& j, Assembly& a) {
  detail::expect_object(j, "assembly");
  mgnify::detail::read_optional(j, "accession", a.accession);
  mgnify::detail::read_optional(j, "updated_at", a.updated_at);
  a.raw = j;
}

inline void to_json(nlohmann::json& j, const Assembly& a) {
  j = detail::base_object(a.raw);
  mgnify::detail::write_optional(j, "accession", a.accession);
  mgnify::detail::write_optional(j, "updated_at", a.updated_at);
}

inline void from_json(const nlohmann::json& j, AssemblyDetail& a) {
  from_json(j, static_cast<Assembly&>(a));
  mgnify::detail::read_optional(j, "run_accession", a.run_accession);
  mgnify::detail::read_optional(j, "sample_accession", a.sample_accession);
  mgnify::detail::read_optional(j, "reads_study_accession", a.reads_study_accession);
  mgnify::detail::read_optional(j, "assembly_study_accession", a.assembly_study_accession);
  mgnify::detail::read_optional(j, "assembler_name", a.assembler_name);
  mgnify::detail::read_optional(j, "assembler_version", a.assembler_version);
  if (auto it = j.find("metadata"); it != j.end()) a.metadata = *it;
  if (auto it = j.find("status"); it != j.end()) a.status = *it;
}

inline void to_json(nlohmann::json& j, const AssemblyDetail& a) {
  to_json(j, static_cast<const Assembly&>(a));
  mgnify::detail::write_optional(j, "run_accession", a.run_accession);
  mgnify::detail::write_optional(j, "sample_accession", a.sample_accession);
  mgnify::detail::write_optional(j, "reads_study_accession", a.reads_study_accession);
  mgnify::detail::write_optional(j, "assembly_study_accession", a.assembly_study_accession);
  mgnify::detail::write_optional(j, "assembler_name", a.assembler_name);
  mgnify::detail::write_optional(j, "assembler_version", a.assembler_version);
  j["metadata"] = a.metadata;
  j["status"] = a.status;
}

inline void from_json(const nlohmann::json& j, GenomeSchema& g) {
  detail::expect_object(j, "genome");
  mgnify::detail::read_required(j, "accession", g.accession);
  mgnify::detail::read_optional(j, "catalogue_id", g.catalogue_id);
  mgnify::detail::read_optional(j, "taxon_lineage", g.taxon_lineage);
  mgnify::detail::read_optional(j, "catalogue_version", g.catalogue_version);
  mgnify::detail::read_optional(j, "ena_genome_accession", g.ena_genome_accession);
  g.raw = j;
}

inline void to_json(nlohmann::json& j, const GenomeSchema& g) {
  j = detail::base_object(g.raw);
  j["accession"] = g.accession;
  mgnify::detail::write_optional(j, "catalogue_id", g.catalogue_id);
  mgnify::detail::write_optional(j, "taxon_lineage", g.taxon_lineage);
  mgnify::detail::write_optional(j, "catalogue_version", g.catalogue_version);
  mgnify::detail::write_optional(j, "ena_genome_accession", g.ena_genome_accession);
}

inline void from_json(const nlohmann::json& j, GenomeAssemblyLinkSchema& l) {
  detail::expect_object(j, "genome link");
  mgnify::detail::read_required(j, "genome", l.genome);
  mgnify::detail::read_optional(j, "species_rep", l.species_rep);
  mgnify::detail::read_optional(j, "mag_accession", l.mag_accession);
  mgnify::detail::read_optional(j, "updated_at", l.updated_at);
  l.raw = j;
}

inline void to_json(nlohmann::json& j, const GenomeAssemblyLinkSchema& l) {
  j = detail::base_object(l.raw);
  j["genome"] = l.genome;
  mgnify::detail::write_optional(j, "species_rep", l.species_rep);
  mgnify::detail::write_optional(j, "mag_accession", l.mag_accession);
  mgnify::detail::write_optional(j, "updated_at", l.updated_at);
}

inline void from_json(const nlohmann::json& j, AdditionalContainedGenomeSchema& c) {
  detail::expect_object(j, "contained genome");
  mgnify::detail::read_required(j, "genome", c.genome);
  mgnify::detail::read_optional(j, "run_accession", c.run_accession);
  mgnify::detail::read_optional(j, "containment", c.containment);
  mgnify::detail::read_optional(j, "cani", c.cani);
  mgnify::detail::read_optional(j, "updated_at", c.updated_at);
  c.raw = j;
}

inline void to_json(nlohmann::json& j, const AdditionalContainedGenomeSchema& c) {
  j = detail::base_object(c.raw);
  j["genome"] = c.genome;
  mgnify::detail::write_optional(j, "run_accession", c.run_accession);
  mgnify::detail::write_optional(j, "containment", c.containment);
  mgnify::detail::write_optional(j, "cani", c.cani);
  mgnify::detail::write_optional(j, "updated_at", c.updated_at);
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
