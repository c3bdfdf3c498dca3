#pragma once

// MAG catalogue models: genomes and genome catalogues.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "mgnify/v1/model_base.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v1 {

/// Type `genomes`; id is the MGYG accession.
struct Genome : ResourceModel {
  std::string accession;
  std::optional<std::string> ena_genome_accession;
  std::optional<std::string> ena_sample_accession;
  std::optional<std::string> ena_study_accession;
  std::optional<std::string> ncbi_genome_accession;
  std::optional<std::string> ncbi_sample_accession;
  std::optional<std::string> ncbi_study_accession;
  std::optional<std::string> img_genome_accession;
  std::optional<std::string> patric_genome_accession;
  std::optional<std::int64_t> length;
  std::optional<std::int64_t> num_contigs;
  std::optional<std::int64_t> n_50;
  std::optional<double> gc_content;
  /// "MAG" or "Isolate" (the attribute is literally named `type`).
  std::optional<std::string> genome_type;
  std::optional<double> completeness;
  std::optional<double> contamination;
  std::optional<double> rna_5s;
  std::optional<double> rna_16s;
  std::optional<double> rna_23s;
  std::optional<double> rna_5_8s;
  std::optional<double> rna_18s;
  std::optional<double> rna_28s;
  std::optional<std::int64_t> trnas;
  std::optional<std::int64_t> nc_rnas;
  std::optional<std::int64_t> num_proteins;
  std::optional<double> eggnog_coverage;
  std::optional<double> ipr_coverage;
  std::optional<std::string> taxon_lineage;
  std::optional<std::int64_t> num_genomes_total;
  std::optional<std::int64_t> num_genomes_non_redundant;
  std::optional<std::int64_t> pangenome_size;
  std::optional<std::int64_t> pangenome_core_size;
  std::optional<std::int64_t> pangenome_accessory_size;
  std::optional<std::string> geographic_origin;
  std::vector<std::string> geographic_range;
  std::optional<Timestamp> last_update;
  std::optional<Timestamp> first_created;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("accession", s.accession);
    v.optional("ena-genome-accession", s.ena_genome_accession);
    v.optional("ena-sample-accession", s.ena_sample_accession);
    v.optional("ena-study-accession", s.ena_study_accession);
    v.optional("ncbi-genome-accession", s.ncbi_genome_accession);
    v.optional("ncbi-sample-accession", s.ncbi_sample_accession);
    v.optional("ncbi-study-accession", s.ncbi_study_accession);
    v.optional("img-genome-accession", s.img_genome_accession);
    v.optional("patric-genome-accession", s.patric_genome_accession);
    v.optional("length", s.length);
    v.optional("num-contigs", s.num_contigs);
    v.optional("n-50", s.n_50);
    v.optional("gc-content", s.gc_content);
    v.optional("type", s.genome_type);
    v.optional("completeness", s.completeness);
    v.optional("contamination", s.contamination);
    v.optional("rna-5s", s.rna_5s);
    v.optional("rna-16s", s.rna_16s);
    v.optional("rna-23s", s.rna_23s);
    v.optional("rna-5-8s", s.rna_5_8s);
    v.optional("rna-18s", s.rna_18s);
    v.optional("rna-28s", s.rna_28s);
    v.optional("trnas", s.trnas);
    v.optional("nc-rnas", s.nc_rnas);
    v.optional("num-proteins", s.num_proteins);
    v.optional("eggnog-coverage", s.eggnog_coverage);
    v.optional("ipr-coverage", s.ipr_coverage);
    v.optional("taxon-lineage", s.taxon_lineage);
    v.optional("num-genomes-total", s.num_genomes_total);
    v.optional("num-genomes-non-redundant", s.num_genomes_non_redundant);
    v.optional("pangenome-size", s.pangenome_size);
    v.optional("pangenome-core-size", s.pangenome_core_size);
    v.optional("pangenome-accessory-size", s.pangenome_accessory_size);
    v.optional("geographic-origin", s.geographic_origin);
    v.defaulted("geographic-range", s.geographic_range);
    v.optional("last-update", s.last_update);
    v.optional("first-created", s.first_created);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("catalogue");
    v.with_ids("biome");
    v.link_only("downloads");
  }
};
MGNIFY_JSON_FIELDS(Genome, "genome")

/// Type `genome-catalogues`; id is the catalogue slug ("human-gut-v2-0").
struct GenomeCatalogue : ResourceModel {
  std::string catalogue_id;
  std::optional<std::string> version;
  std::optional<std::string> name;
  std::optional<std::string> description;
  std::optional<std::string> protein_catalogue_name;
  std::optional<std::string> protein_catalogue_description;
  std::optional<std::string> catalogue_biome_label;
  std::optional<std::string> catalogue_type;
  std::optional<std::int64_t> genome_count;
  std::optional<std::int64_t> unclustered_genome_count;
  std::optional<Timestamp> last_update;

  template <class Self, class V>
  static void fields(Self& s, V& v) {
    v.defaulted("catalogue-id", s.catalogue_id);
    v.optional("version", s.version);
    v.optional("name", s.name);
    v.optional("description", s.description);
    v.optional("protein-catalogue-name", s.protein_catalogue_name);
    v.optional("protein-catalogue-description", s.protein_catalogue_description);
    v.optional("catalogue-biome-label", s.catalogue_biome_label);
    v.optional("catalogue-type", s.catalogue_type);
    v.optional("genome-count", s.genome_count);
    v.optional("unclustered-genome-count", s.unclustered_genome_count);
    v.optional("last-update", s.last_update);
  }

  template <class V>
  static void relationships(V& v) {
    v.with_ids("biome");
    v.link_only("genomes");
    v.link_only("downloads");
  }
};
MGNIFY_JSON_FIELDS(GenomeCatalogue, "genome-catalogue")

}  // namespace v1
MGNIFY_NAMESPACE_END
