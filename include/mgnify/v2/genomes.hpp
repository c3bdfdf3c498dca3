#pragma once

// Genome catalogues and their genomes (MAGs and isolates).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mgnify/raw_json.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/v2/decode.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace v2 {

/// List form of a catalogue (OpenAPI `GenomeCatalogueList` / `GenomeCatalogueBase`).
struct GenomeCatalogue {
  std::string catalogue_id;
  std::string version;
  std::string name;
  /// draft/ready/published/retired; newer servers only.
  std::optional<Enumerated<CatalogueStatus>> status;
  std::optional<std::string> description;
  std::optional<std::string> protein_catalogue_name;
  std::optional<std::string> protein_catalogue_description;
  std::optional<DateTime> updated_at;
  std::optional<std::string> result_directory;
  std::optional<std::int64_t> genome_count;
  std::optional<std::int64_t> unclustered_genome_count;
  std::string ftp_url;
  std::string pipeline_version_tag;
  std::string catalogue_biome_label;
  Enumerated<CatalogueType> catalogue_type;
  /// e.g. {"Total proteins": "12,345,678"} (string values; null when absent)
  nlohmann::json other_stats;
  std::optional<Biome> biome;
  /// Newer servers only.
  std::vector<DownloadFile> downloads;
  RawJson raw;
};

struct GenomeCatalogueDetail : GenomeCatalogue {};

/// List form of a genome (OpenAPI `GenomeList`).
struct Genome {
  /// MGYG...
  std::string accession;
  std::optional<std::string> ena_genome_accession;
  std::optional<std::string> ena_sample_accession;
  std::optional<std::string> ena_study_accession;
  std::optional<std::string> ncbi_genome_accession;
  std::optional<std::string> ncbi_study_accession;
  std::optional<std::string> img_genome_accession;
  std::optional<std::string> patric_genome_accession;
  std::optional<std::int64_t> length;
  std::optional<std::int64_t> num_contigs;
  std::optional<std::int64_t> num_genomes_total;
  std::optional<std::int64_t> n_50;
  std::optional<double> gc_content;
  Enumerated<GenomeType> type;
  std::optional<double> completeness;
  std::optional<double> contamination;
  std::string catalogue_id;
  std::optional<std::string> taxon_lineage;
  std::optional<DateTime> updated_at;
  std::optional<std::string> geographic_origin;
  std::vector<std::string> geographic_range;
  std::optional<Biome> biome;
  RawJson raw;
};

struct GenomeDetail : Genome {
  std::optional<double> rna_5s, rna_5_8s, rna_16s, rna_18s, rna_23s, rna_28s;
  std::optional<double> trnas, nc_rnas, eggnog_coverage, ipr_coverage;
  std::optional<std::int64_t> num_proteins, pangenome_size, pangenome_core_size,
      pangenome_accessory_size;
  std::vector<DownloadFile> downloads;
  std::optional<GenomeCatalogue> catalogue;
};

/// genomes/{accession}/annotations: free-form annotation tables keyed by type.
struct GenomeWithAnnotations {
  std::string accession;
  nlohmann::json annotations = nlohmann::json::object();
  RawJson raw;
};

inline void from_json(const nlohmann::json& j, GenomeCatalogue& c) {
  detail::expect_object(j, "genome catalogue");
  mgnify::detail::read_required(j, "catalogue_id", c.catalogue_id);
  mgnify::detail::read_or_keep(j, "version", c.version);
  mgnify::detail::read_or_keep(j, "name", c.name);
  mgnify::detail::read_optional(j, "status", c.status);
  mgnify::detail::read_optional(j, "description", c.description);
  mgnify::detail::read_optional(j, "protein_catalogue_name", c.protein_catalogue_name);
  mgnify::detail::read_optional(j, "protein_catalogue_description", c.protein_catalogue_description);
  mgnify::detail::read_optional(j, "updated_at", c.updated_at);
  mgnify::detail::read_optional(j, "result_directory", c.result_directory);
  mgnify::detail::read_optional(j, "genome_count", c.genome_count);
  mgnify::detail::read_optional(j, "unclustered_genome_count", c.unclustered_genome_count);
  mgnify::detail::read_or_keep(j, "ftp_url", c.ftp_url);
  mgnify::detail::read_or_keep(j, "pipeline_version_tag", c.pipeline_version_tag);
  mgnify::detail::read_or_keep(j, "catalogue_biome_label", c.catalogue_biome_label);
  mgnify::detail::read_or_keep(j, "catalogue_type", c.catalogue_type);
  if (auto it = j.find("other_stats"); it != j.end()) c.other_stats = *it;
  mgnify::detail::read_optional(j, "biome", c.biome);
  mgnify::detail::read_or_keep(j, "downloads", c.downloads);
  c.raw = j;
}

inline void to_json(nlohmann::json& j, const GenomeCatalogue& c) {
  j = detail::base_object(c.raw);
  j["catalogue_id"] = c.catalogue_id;
  j["version"] = c.version;
  j["name"] = c.name;
  if (c.status) j["status"] = *c.status;
  mgnify::detail::write_optional(j, "description", c.description);
  mgnify::detail::write_optional(j, "protein_catalogue_name", c.protein_catalogue_name);
  mgnify::detail::write_optional(j, "protein_catalogue_description", c.protein_catalogue_description);
  mgnify::detail::write_optional(j, "updated_at", c.updated_at);
  mgnify::detail::write_optional(j, "result_directory", c.result_directory);
  mgnify::detail::write_optional(j, "genome_count", c.genome_count);
  mgnify::detail::write_optional(j, "unclustered_genome_count", c.unclustered_genome_count);
  j["ftp_url"] = c.ftp_url;
  j["pipeline_version_tag"] = c.pipeline_version_tag;
  j["catalogue_biome_label"] = c.catalogue_biome_label;
  j["catalogue_type"] = c.catalogue_type;
  j["other_stats"] = c.other_stats;
  mgnify::detail::write_optional(j, "biome", c.biome);
  if (!c.downloads.empty()) j["downloads"] = c.downloads;
}

inline void from_json(const nlohmann::json& j, GenomeCatalogueDetail& c) {
  from_json(j, static_cast<GenomeCatalogue&>(c));
}
inline void to_json(nlohmann::json& j, const GenomeCatalogueDetail& c) {
  to_json(j, static_cast<const GenomeCatalogue&>(c));
}

inline void from_json(const nlohmann::json& j, Genome& g) {
  detail::expect_object(j, "genome");
  using mgnify::detail::read_optional;
  mgnify::detail::read_required(j, "accession", g.accession);
  read_optional(j, "ena_genome_accession", g.ena_genome_accession);
  read_optional(j, "ena_sample_accession", g.ena_sample_accession);
  read_optional(j, "ena_study_accession", g.ena_study_accession);
  read_optional(j, "ncbi_genome_accession", g.ncbi_genome_accession);
  read_optional(j, "ncbi_study_accession", g.ncbi_study_accession);
  read_optional(j, "img_genome_accession", g.img_genome_accession);
  read_optional(j, "patric_genome_accession", g.patric_genome_accession);
  read_optional(j, "length", g.length);
  read_optional(j, "num_contigs", g.num_contigs);
  read_optional(j, "num_genomes_total", g.num_genomes_total);
  read_optional(j, "n_50", g.n_50);
  read_optional(j, "gc_content", g.gc_content);
  mgnify::detail::read_or_keep(j, "type", g.type);
  read_optional(j, "completeness", g.completeness);
  read_optional(j, "contamination", g.contamination);
  mgnify::detail::read_or_keep(j, "catalogue_id", g.catalogue_id);
  read_optional(j, "taxon_lineage", g.taxon_lineage);
  read_optional(j, "updated_at", g.updated_at);
  read_optional(j, "geographic_origin", g.geographic_origin);
  mgnify::detail::read_or_keep(j, "geographic_range", g.geographic_range);
  read_optional(j, "biome", g.biome);
  g.raw = j;
}

inline void to_json(nlohmann::json& j, const Genome& g) {
  using mgnify::detail::write_optional;
  j = detail::base_object(g.raw);
  j["accession"] = g.accession;
  write_optional(j, "ena_genome_accession", g.ena_genome_accession);
  write_optional(j, "ena_sample_accession", g.ena_sample_accession);
  write_optional(j, "ncbi_genome_accession", g.ncbi_genome_accession);
  write_optional(j, "img_genome_accession", g.img_genome_accession);
  write_optional(j, "patric_genome_accession", g.patric_genome_accession);
  write_optional(j, "length", g.length);
  write_optional(j, "num_contigs", g.num_contigs);
  write_optional(j, "n_50", g.n_50);
  write_optional(j, "gc_content", g.gc_content);
  j["type"] = g.type;
  write_optional(j, "completeness", g.completeness);
  write_optional(j, "contamination", g.contamination);
  j["catalogue_id"] = g.catalogue_id;
  write_optional(j, "geographic_origin", g.geographic_origin);
  j["geographic_range"] = g.geographic_range;
  write_optional(j, "biome", g.biome);
}

inline void from_json(const nlohmann::json& j, GenomeDetail& g) {
  using mgnify::detail::read_optional;
  from_json(j, static_cast<Genome&>(g));
  read_optional(j, "rna_5s", g.rna_5s);
  read_optional(j, "rna_5_8s", g.rna_5_8s);
  read_optional(j, "rna_16s", g.rna_16s);
  read_optional(j, "rna_18s", g.rna_18s);
  read_optional(j, "rna_23s", g.rna_23s);
  read_optional(j, "rna_28s", g.rna_28s);
  read_optional(j, "trnas", g.trnas);
  read_optional(j, "nc_rnas", g.nc_rnas);
  read_optional(j, "eggnog_coverage", g.eggnog_coverage);
  read_optional(j, "ipr_coverage", g.ipr_coverage);
  read_optional(j, "num_proteins", g.num_proteins);
  read_optional(j, "pangenome_size", g.pangenome_size);
  read_optional(j, "pangenome_core_size", g.pangenome_core_size);
  read_optional(j, "pangenome_accessory_size", g.pangenome_accessory_size);
  mgnify::detail::read_or_keep(j, "downloads", g.downloads);
  read_optional(j, "catalogue", g.catalogue);
}

inline void to_json(nlohmann::json& j, const GenomeDetail& g) {
  to_json(j, static_cast<const Genome&>(g));
  j["downloads"] = g.downloads;
  mgnify::detail::write_optional(j, "catalogue", g.catalogue);
}

inline void from_json(const nlohmann::json& j, GenomeWithAnnotations& g) {
  detail::expect_object(j, "genome annotations");
  mgnify::detail::read_required(j, "accession", g.accession);
  if (auto it = j.find("annotations"); it != j.end() && !it->is_null()) g.annotations = *it;
  g.raw = j;
}

inline void to_json(nlohmann::json& j, const GenomeWithAnnotations& g) {
  j = detail::base_object(g.raw);
  j["accession"] = g.accession;
  j["annotations"] = g.annotations;
}

}  // namespace v2
}  // namespace v0
}  // namespace mgnify
