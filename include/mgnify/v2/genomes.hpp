#pragma once

// Genome catalogues and their genomes (MAGs and isolates).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/v2/biomes.hpp"
#include "mgnify/v2/datetime.hpp"
#include "mgnify/v2/downloads.hpp"
#include "mgnify/v2/enums.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
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
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("catalogue_id", self.catalogue_id);
    v.defaulted("version", self.version);
    v.defaulted("name", self.name);
    v.optional("status", self.status);
    v.optional("description", self.description);
    v.optional("protein_catalogue_name", self.protein_catalogue_name);
    v.optional("protein_catalogue_description", self.protein_catalogue_description);
    v.optional("updated_at", self.updated_at);
    v.optional("result_directory", self.result_directory);
    v.optional("genome_count", self.genome_count);
    v.optional("unclustered_genome_count", self.unclustered_genome_count);
    v.defaulted("ftp_url", self.ftp_url);
    v.defaulted("pipeline_version_tag", self.pipeline_version_tag);
    v.defaulted("catalogue_biome_label", self.catalogue_biome_label);
    v.defaulted("catalogue_type", self.catalogue_type);
    v.defaulted("other_stats", self.other_stats);
    v.optional("biome", self.biome);
    v.defaulted("downloads", self.downloads);
  }
};

struct GenomeCatalogueDetail : GenomeCatalogue {
  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    GenomeCatalogue::fields(self, v);
  }
};

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
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("accession", self.accession);
    v.optional("ena_genome_accession", self.ena_genome_accession);
    v.optional("ena_sample_accession", self.ena_sample_accession);
    v.optional("ena_study_accession", self.ena_study_accession);
    v.optional("ncbi_genome_accession", self.ncbi_genome_accession);
    v.optional("ncbi_study_accession", self.ncbi_study_accession);
    v.optional("img_genome_accession", self.img_genome_accession);
    v.optional("patric_genome_accession", self.patric_genome_accession);
    v.optional("length", self.length);
    v.optional("num_contigs", self.num_contigs);
    v.optional("num_genomes_total", self.num_genomes_total);
    v.optional("n_50", self.n_50);
    v.optional("gc_content", self.gc_content);
    v.defaulted("type", self.type);
    v.optional("completeness", self.completeness);
    v.optional("contamination", self.contamination);
    v.defaulted("catalogue_id", self.catalogue_id);
    v.optional("taxon_lineage", self.taxon_lineage);
    v.optional("updated_at", self.updated_at);
    v.optional("geographic_origin", self.geographic_origin);
    v.defaulted("geographic_range", self.geographic_range);
    v.optional("biome", self.biome);
  }
};

struct GenomeDetail : Genome {
  std::optional<double> rna_5s, rna_5_8s, rna_16s, rna_18s, rna_23s, rna_28s;
  std::optional<double> trnas, nc_rnas, eggnog_coverage, ipr_coverage;
  std::optional<std::int64_t> num_proteins, pangenome_size, pangenome_core_size,
      pangenome_accessory_size;
  std::vector<DownloadFile> downloads;
  std::optional<GenomeCatalogue> catalogue;

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    Genome::fields(self, v);
    v.optional("rna_5s", self.rna_5s);
    v.optional("rna_5_8s", self.rna_5_8s);
    v.optional("rna_16s", self.rna_16s);
    v.optional("rna_18s", self.rna_18s);
    v.optional("rna_23s", self.rna_23s);
    v.optional("rna_28s", self.rna_28s);
    v.optional("trnas", self.trnas);
    v.optional("nc_rnas", self.nc_rnas);
    v.optional("eggnog_coverage", self.eggnog_coverage);
    v.optional("ipr_coverage", self.ipr_coverage);
    v.optional("num_proteins", self.num_proteins);
    v.optional("pangenome_size", self.pangenome_size);
    v.optional("pangenome_core_size", self.pangenome_core_size);
    v.optional("pangenome_accessory_size", self.pangenome_accessory_size);
    v.defaulted("downloads", self.downloads);
    v.optional("catalogue", self.catalogue);
  }
};

/// genomes/{accession}/annotations: free-form annotation tables keyed by type.
struct GenomeWithAnnotations {
  std::string accession;
  /// Null when the server sends none (iterating it then yields nothing).
  nlohmann::json annotations;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("accession", self.accession);
    v.defaulted("annotations", self.annotations);
  }
};

MGNIFY_JSON_FIELDS(GenomeCatalogue, "genome catalogue")
MGNIFY_JSON_FIELDS(GenomeCatalogueDetail, "genome catalogue")
MGNIFY_JSON_FIELDS(Genome, "genome")
MGNIFY_JSON_FIELDS(GenomeDetail, "genome")

MGNIFY_JSON_FIELDS(GenomeWithAnnotations, "genome annotations")

}  // namespace v2
MGNIFY_NAMESPACE_END
