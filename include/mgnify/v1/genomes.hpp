#pragma once

// MAG catalogue models: genomes and genome catalogues.

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
  static void visit(Self& s, V&& v) {
    v("accession", s.accession);
    v("ena-genome-accession", s.ena_genome_accession);
    v("ena-sample-accession", s.ena_sample_accession);
    v("ena-study-accession", s.ena_study_accession);
    v("ncbi-genome-accession", s.ncbi_genome_accession);
    v("ncbi-sample-accession", s.ncbi_sample_accession);
    v("ncbi-study-accession", s.ncbi_study_accession);
    v("img-genome-accession", s.img_genome_accession);
    v("patric-genome-accession", s.patric_genome_accession);
    v("length", s.length);
    v("num-contigs", s.num_contigs);
    v("n-50", s.n_50);
    v("gc-content", s.gc_content);
    v("type", s.genome_type);
    v("completeness", s.completeness);
    v("contamination", s.contamination);
    v("rna-5s", s.rna_5s);
    v("rna-16s", s.rna_16s);
    v("rna-23s", s.rna_23s);
    v("rna-5-8s", s.rna_5_8s);
    v("rna-18s", s.rna_18s);
    v("rna-28s", s.rna_28s);
    v("trnas", s.trnas);
    v("nc-rnas", s.nc_rnas);
    v("num-proteins", s.num_proteins);
    v("eggnog-coverage", s.eggnog_coverage);
    v("ipr-coverage", s.ipr_coverage);
    v("taxon-lineage", s.taxon_lineage);
    v("num-genomes-total", s.num_genomes_total);
    v("num-genomes-non-redundant", s.num_genomes_non_redundant);
    v("pangenome-size", s.pangenome_size);
    v("pangenome-core-size", s.pangenome_core_size);
    v("pangenome-accessory-size", s.pangenome_accessory_size);
    v("geographic-origin", s.geographic_origin);
    v("geographic-range", s.geographic_range);
    v("last-update", s.last_update);
    v("first-created", s.first_created);
  }
};
MGNIFY_V1_MODEL_JSON(Genome)

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
  static void visit(Self& s, V&& v) {
    v("catalogue-id", s.catalogue_id);
    v("version", s.version);
    v("name", s.name);
    v("description", s.description);
    v("protein-catalogue-name", s.protein_catalogue_name);
    v("protein-catalogue-description", s.protein_catalogue_description);
    v("catalogue-biome-label", s.catalogue_biome_label);
    v("catalogue-type", s.catalogue_type);
    v("genome-count", s.genome_count);
    v("unclustered-genome-count", s.unclustered_genome_count);
    v("last-update", s.last_update);
  }
};
MGNIFY_V1_MODEL_JSON(GenomeCatalogue)

}  // namespace v1
}  // namespace v0
}  // namespace mgnify
