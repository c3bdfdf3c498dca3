#pragma once

// The v1 mock's catalogue: every object is a pure function of its index, so
// the data is deterministic, costs no memory up front, and the same index
// always renders the same JSON. Sizes are chosen so that lists need many
// pages (20,000 studies, 12,000 samples, an analysis with 600 contigs).

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace mgnify::mock::v1data {

inline constexpr std::size_t kStudies = 20000;
inline constexpr std::size_t kBigStudySamples = 300;   // MGYS00000001
inline constexpr std::size_t kSamplesPerStudy = 6;     // MGYS00000002 ... MGYS00001951
inline constexpr std::size_t kStudiesWithSamples = 1951;
inline constexpr std::size_t kSamples = kBigStudySamples + (kStudiesWithSamples - 1) * kSamplesPerStudy;
inline constexpr std::size_t kBigAnalysisContigs = 600;  // MGYA00000001
inline constexpr std::size_t kPublications = 60;
inline constexpr std::size_t kGenomes = 300;
inline constexpr std::size_t kGenomesPerCatalogue = 100;
inline constexpr std::size_t kPrivateStudies = 3;

inline constexpr const char* kTestUser = "webin-test";
inline constexpr const char* kTestPassword = "correct horse battery staple";
inline constexpr const char* kTestToken =
    "eyJhbGciOiJIUzI1NiJ9.eyJ1c2VybmFtZSI6IndlYmluLXRlc3QifQ.mock-signature";

inline std::string fmt(const char* pattern, unsigned long long n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, pattern, n);
  return buf;
}

struct BiomeDef {
  const char* lineage;
  const char* name;
};

// Parents precede children; leaves are where studies and samples live.
inline const std::vector<BiomeDef>& biomes() {
  static const std::vector<BiomeDef> all = {
      {"root", "root"},
      {"root:Environmental", "Environmental"},
      {"root:Environmental:Aquatic", "Aquatic"},
      {"root:Environmental:Aquatic:Marine", "Marine"},
      {"root:Environmental:Aquatic:Freshwater", "Freshwater"},
      {"root:Environmental:Terrestrial", "Terrestrial"},
      {"root:Environmental:Terrestrial:Soil", "Soil"},
      {"root:Environmental:Terrestrial:Soil:Grasslands", "Grasslands"},
      {"root:Environmental:Terrestrial:Soil:Forest soil", "Forest soil"},
      {"root:Engineered", "Engineered"},
      {"root:Engineered:Wastewater", "Wastewater"},
      {"root:Engineered:Wastewater:Industrial wastewater", "Industrial wastewater"},
      {"root:Engineered:Wastewater:Industrial wastewater:Petrochemical", "Petrochemical"},
      {"root:Engineered:Wastewater:Activated Sludge", "Activated Sludge"},
      {"root:Host-associated", "Host-associated"},
      {"root:Host-associated:Human", "Human"},
      {"root:Host-associated:Human:Digestive system", "Digestive system"},
      {"root:Host-associated:Human:Skin", "Skin"},
      {"root:Host-associated:Plants", "Plants"},
      {"root:Host-associated:Plants:Rhizosphere", "Rhizosphere"},
  };
  return all;
}

// Indexes into biomes() of the leaves, in the order studies cycle through them.
inline const std::vector<std::size_t>& leaf_biomes() {
  static const std::vector<std::size_t> leaves = {3, 4, 7, 8, 12, 13, 16, 17, 19};
  return leaves;
}

inline bool in_subtree(const std::string& lineage, const std::string& root) {
  return lineage == root || (lineage.size() > root.size() && lineage.compare(0, root.size(), root) == 0 &&
                             lineage[root.size()] == ':');
}

inline std::size_t biome_depth(const std::string& lineage) {
  std::size_t d = 1;
  for (char c : lineage) d += c == ':';
  return d;
}

// Studies ------------------------------------------------------------------
inline std::string study_accession(std::size_t i) { return fmt("MGYS%08llu", i + 1); }
inline std::size_t study_biome(std::size_t i) { return leaf_biomes()[i % leaf_biomes().size()]; }
inline std::size_t study_sample_begin(std::size_t i) {
  if (i == 0) return 0;
  if (i < kStudiesWithSamples) return kBigStudySamples + (i - 1) * kSamplesPerStudy;
  return kSamples;
}
inline std::size_t study_sample_end(std::size_t i) {
  if (i == 0) return kBigStudySamples;
  if (i < kStudiesWithSamples) return study_sample_begin(i) + kSamplesPerStudy;
  return kSamples;
}
inline const char* study_centre(std::size_t i) {
  static const char* const centres[] = {"EMG", "DOE Joint Genome Institute", "BGI",
                                        "University of Example"};
  return centres[i % 4];
}
inline std::int64_t study_publication(std::size_t i) {  // -1 when none
  return i % 4 == 0 ? static_cast<std::int64_t>((i / 4) % kPublications) : -1;
}

// Samples, runs, assemblies and analyses: one run and one analysis per sample.
inline std::size_t sample_study(std::size_t s) {
  return s < kBigStudySamples ? 0 : 1 + (s - kBigStudySamples) / kSamplesPerStudy;
}
inline std::string sample_accession(std::size_t s) { return fmt("ERS%07llu", 1000000 + s); }
inline std::size_t sample_biome(std::size_t s) { return study_biome(sample_study(s)); }
inline const char* experiment_type_of(std::size_t s) {
  static const char* const types[] = {"metagenomic", "amplicon", "metatranscriptomic", "assembly"};
  return types[s % 4];
}
// Temperatures from -5 to 34.5 in steps of 0.5, spread over the samples.
inline double sample_temperature(std::size_t s) { return -5.0 + static_cast<double>((s * 37) % 80) * 0.5; }
inline std::string run_accession(std::size_t s) { return fmt("ERR%07llu", 3000000 + s); }
inline bool has_assembly(std::size_t s) { return s % 4 == 3; }
inline std::string assembly_accession(std::size_t s) { return fmt("ERZ%07llu", 4000000 + s); }
inline std::string analysis_accession(std::size_t s) { return fmt("MGYA%08llu", s + 1); }
inline const char* analysis_pipeline(std::size_t s) { return s % 2 == 0 ? "5.0" : "4.1"; }
inline std::size_t analysis_contigs(std::size_t s) { return s == 0 ? kBigAnalysisContigs : (s % 10) * 3; }

inline const std::vector<const char*>& experiment_types() {
  static const std::vector<const char*> all = {"metatranscriptomic", "metagenomic", "amplicon",
                                               "assembly", "metabarcoding", "unknown",
                                               "hybrid_assembly", "long_reads_assembly"};
  return all;
}
inline const std::vector<const char*>& pipelines() {
  static const std::vector<const char*> all = {"1.0", "2.0", "3.0", "4.0", "4.1", "5.0"};
  return all;
}

// Genomes and catalogues.
struct CatalogueDef {
  const char* id;
  const char* name;
  std::size_t biome;
};
inline const std::vector<CatalogueDef>& catalogues() {
  static const std::vector<CatalogueDef> all = {
      {"human-gut-v2-0-2", "Unified Human Gastrointestinal Genome", 16},
      {"marine-v2-0", "Marine", 3},
      {"soil-v1-0", "Soil", 7}};
  return all;
}
inline std::string genome_accession(std::size_t g) { return fmt("MGYG%09llu", g + 1); }

// Annotations.
enum class AnnKind { go, interpro, pfam, kegg_ortholog, kegg_module, genome_property, antismash };
struct AnnDef {
  AnnKind kind;
  const char* path;  // under /annotations and /analyses/{acc}
  const char* type;
  std::size_t count;
};
inline const std::vector<AnnDef>& annotation_kinds() {
  static const std::vector<AnnDef> all = {
      {AnnKind::go, "go-terms", "go-terms", 40},
      {AnnKind::interpro, "interpro-identifiers", "interpro-identifiers", 60},
      {AnnKind::pfam, "pfam-entries", "pfam-entries", 40},
      {AnnKind::kegg_ortholog, "kegg-orthologs", "kegg-orthologs", 30},
      {AnnKind::kegg_module, "kegg-modules", "kegg-modules", 20},
      {AnnKind::genome_property, "genome-properties", "genome-properties", 15},
      {AnnKind::antismash, "antismash-gene-clusters", "antismash-gene-clusters", 10}};
  return all;
}
inline std::string annotation_accession(AnnKind kind, std::size_t k) {
  switch (kind) {
    case AnnKind::go: return fmt("GO:%07llu", 8000 + k * 3);
    case AnnKind::interpro: return fmt("IPR%06llu", 1000 + k * 7);
    case AnnKind::pfam: return fmt("PF%05llu", 100 + k * 11);
    case AnnKind::kegg_ortholog: return fmt("K%05llu", k * 13 + 1);
    case AnnKind::kegg_module: return fmt("M%05llu", k + 1);
    case AnnKind::genome_property: return fmt("GenProp%04llu", k + 1);
    case AnnKind::antismash: {
      static const char* const names[] = {"terpene", "NRPS", "T1PKS", "bacteriocin", "lanthipeptide",
                                          "siderophore", "arylpolyene", "ectoine", "betalactone",
                                          "resorcinol"};
      return names[k % 10];
    }
  }
  return {};
}
// An analysis has every second entry of each kind.
inline bool analysis_has_annotation(std::size_t s, std::size_t k) { return (s + k) % 2 == 0; }

inline const std::vector<const char*>& organisms() {
  static const std::vector<const char*> all = {
      "Bacteria",
      "Bacteria:Proteobacteria",
      "Bacteria:Proteobacteria:Gammaproteobacteria",
      "Bacteria:Proteobacteria:Alphaproteobacteria",
      "Bacteria:Firmicutes",
      "Bacteria:Firmicutes:Clostridia",
      "Bacteria:Bacteroidetes",
      "Bacteria:Bacteroidetes:Bacteroidia",
      "Archaea",
      "Archaea:Euryarchaeota",
      "Archaea:Euryarchaeota:Methanobacteria",
      "Eukaryota"};
  return all;
}

// Known metadata keys (the real service validates metadata_key against its variable names).
inline const std::vector<const char*>& metadata_keys() {
  static const std::vector<const char*> all = {
      "temperature", "depth", "investigation type", "geographic location (country and/or sea,region)",
      "collection date", "environment (biome)", "instrument model", "salinity"};
  return all;
}

}  // namespace mgnify::mock::v1data
