// Every route the v1 reference notes name (the API root's category list and
// the endpoint catalogue's table, reference/v1-api.md sections 3 and 4) must
// have a LegacyClient method or be named, with the reason, in the exclusion
// list. Each method of the table is called against the mock and must request
// exactly its method and path shape.

#include <catch2/catch.hpp>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "genome_search_calls.hpp"
#include "route_check.hpp"
#include "skip.hpp"
#include "support/v1_rig.hpp"
#include "v1/data.hpp"

using mgnify::v1::LegacyClient;
using mgnify::v1::Query;

namespace {

struct CoverageEntry {
  const char* verb;
  const char* method;
  std::function<void(LegacyClient&)> call;
};

void walk(mgnify::Paged<mgnify::v1::Resource> paged) { paged.total(); }
template <class T>
void first_page(mgnify::Paged<T> paged) {
  paged.total();
}

/// The id of a list's first item, for routes that need an existing one.
template <class T>
std::string first_id(mgnify::Paged<T> paged) {
  for (const auto& item : paged) return item.id();
  throw std::runtime_error("empty list");
}

const std::map<std::string, CoverageEntry>& v1_coverage_table() {
  using namespace mgnify::v1;
  namespace d = mgnify::mock::v1data;
  static const std::string analysis = "MGYA00000001";
  static const std::string genome = d::genome_accession(0);
  static const std::map<std::string, CoverageEntry> table = {
      // Top-level lists (the API root's categories).
      {"biomes", {"GET", "biomes", [](LegacyClient& c) { first_page(c.biomes()); }}},
      {"studies", {"GET", "studies", [](LegacyClient& c) { first_page(c.studies()); }}},
      {"super-studies", {"GET", "super_studies", [](LegacyClient& c) { first_page(c.super_studies()); }}},
      {"samples", {"GET", "samples", [](LegacyClient& c) { first_page(c.samples()); }}},
      {"runs", {"GET", "runs", [](LegacyClient& c) { first_page(c.runs()); }}},
      {"analyses", {"GET", "analyses", [](LegacyClient& c) { first_page(c.analyses()); }}},
      {"assemblies", {"GET", "assemblies", [](LegacyClient& c) { first_page(c.assemblies()); }}},
      {"pipelines", {"GET", "pipelines", [](LegacyClient& c) { first_page(c.pipelines()); }}},
      {"experiment-types", {"GET", "experiment_types", [](LegacyClient& c) { first_page(c.experiment_types()); }}},
      {"publications", {"GET", "publications", [](LegacyClient& c) { first_page(c.publications()); }}},
      {"pipeline-tools", {"GET", "pipeline_tools", [](LegacyClient& c) { first_page(c.pipeline_tools()); }}},
      {"annotations/go-terms", {"GET", "go_terms", [](LegacyClient& c) { first_page(c.go_terms()); }}},
      {"annotations/interpro-identifiers",
       {"GET", "interpro_identifiers", [](LegacyClient& c) { first_page(c.interpro_identifiers()); }}},
      {"annotations/antismash-gene-clusters",
       {"GET", "antismash_gene_clusters", [](LegacyClient& c) { first_page(c.antismash_gene_clusters()); }}},
      {"annotations/genome-properties",
       {"GET", "genome_properties", [](LegacyClient& c) { first_page(c.genome_properties()); }}},
      {"annotations/kegg-modules", {"GET", "kegg_modules", [](LegacyClient& c) { first_page(c.kegg_modules()); }}},
      {"annotations/kegg-orthologs", {"GET", "kegg_orthologs", [](LegacyClient& c) { first_page(c.kegg_orthologs()); }}},
      {"annotations/pfam-entries", {"GET", "pfam_entries", [](LegacyClient& c) { first_page(c.pfam_entries()); }}},
      {"annotations/organisms", {"GET", "organisms", [](LegacyClient& c) { first_page(c.organisms()); }}},
      {"antismash-geneclusters",
       {"GET", "genome_antismash_clusters", [](LegacyClient& c) { first_page(c.genome_antismash_clusters()); }}},
      {"mydata", {"GET", "mydata", [](LegacyClient& c) { first_page(c.my_studies()); }}},
      {"genomes", {"GET", "genomes", [](LegacyClient& c) { first_page(c.genomes()); }}},
      {"cogs", {"GET", "cogs", [](LegacyClient& c) { first_page(c.cogs()); }}},
      {"genomeset", {"GET", "genome_sets", [](LegacyClient& c) { first_page(c.genome_sets()); }}},
      {"kegg-classes", {"GET", "kegg_classes", [](LegacyClient& c) { first_page(c.kegg_classes()); }}},
      {"kegg-modules", {"GET", "genome_kegg_modules", [](LegacyClient& c) { first_page(c.genome_kegg_modules()); }}},
      {"genome-catalogues", {"GET", "genome_catalogues", [](LegacyClient& c) { first_page(c.genome_catalogues()); }}},
      // Biomes.
      {"biomes/{lineage}", {"GET", "biome", [](LegacyClient& c) { c.biome("root:Engineered"); }}},
      {"biomes/top10", {"GET", "top10_biomes", [](LegacyClient& c) { c.top10_biomes(); }}},
      {"biomes/{lineage}/children", {"GET", "biome_children", [](LegacyClient& c) { first_page(c.biome_children("root:Engineered")); }}},
      {"biomes/{lineage}/studies", {"GET", "biome_studies", [](LegacyClient& c) { first_page(c.biome_studies("root:Engineered")); }}},
      {"biomes/{lineage}/samples", {"GET", "biome_samples", [](LegacyClient& c) { first_page(c.biome_samples("root:Engineered")); }}},
      {"biomes/{lineage}/genomes", {"GET", "biome_genomes", [](LegacyClient& c) { first_page(c.biome_genomes("root:Host-associated")); }}},
      {"biomes/{lineage}/genome-catalogues",
       {"GET", "biome_genome_catalogues", [](LegacyClient& c) { first_page(c.biome_genome_catalogues("root:Host-associated")); }}},
      // Studies.
      {"studies/{acc}", {"GET", "study", [](LegacyClient& c) { c.study("MGYS00000002"); }}},
      {"studies/recent", {"GET", "recent_studies", [](LegacyClient& c) { first_page(c.recent_studies()); }}},
      {"studies/{acc}/biomes", {"GET", "study_biomes", [](LegacyClient& c) { first_page(c.study_biomes("MGYS00000002")); }}},
      {"studies/{acc}/samples", {"GET", "study_samples", [](LegacyClient& c) { first_page(c.study_samples("MGYS00000002")); }}},
      {"studies/{acc}/analyses", {"GET", "study_analyses", [](LegacyClient& c) { first_page(c.study_analyses("MGYS00000002")); }}},
      {"studies/{acc}/publications",
       {"GET", "study_publications", [](LegacyClient& c) { first_page(c.study_publications("MGYS00000002")); }}},
      {"studies/{acc}/studies", {"GET", "study_studies", [](LegacyClient& c) { first_page(c.study_studies("MGYS00000002")); }}},
      {"studies/{acc}/geocoordinates",
       {"GET", "study_geocoordinates", [](LegacyClient& c) { first_page(c.study_geocoordinates("MGYS00000002")); }}},
      {"studies/{acc}/downloads", {"GET", "study_downloads", [](LegacyClient& c) { first_page(c.study_downloads("MGYS00000002")); }}},
      // Super studies.
      {"super-studies/{id-or-slug}", {"GET", "super_study", [](LegacyClient& c) { c.super_study("atlanteco"); }}},
      {"super-studies/{id-or-slug}/flagship-studies",
       {"GET", "super_study_flagship_studies", [](LegacyClient& c) { first_page(c.super_study_flagship_studies("atlanteco")); }}},
      {"super-studies/{id-or-slug}/related-studies",
       {"GET", "super_study_related_studies", [](LegacyClient& c) { first_page(c.super_study_related_studies("atlanteco")); }}},
      {"super-studies/{id-or-slug}/related-genome-catalogues",
       {"GET", "super_study_related_genome_catalogues",
        [](LegacyClient& c) { first_page(c.super_study_related_genome_catalogues("atlanteco")); }}},
      {"super-studies/{id-or-slug}/biomes",
       {"GET", "super_study_biomes", [](LegacyClient& c) { first_page(c.super_study_biomes("atlanteco")); }}},
      // Samples, runs, assemblies.
      {"samples/{acc}", {"GET", "sample", [](LegacyClient& c) { c.sample("ERS1000003"); }}},
      {"samples/{acc}/runs", {"GET", "sample_runs", [](LegacyClient& c) { first_page(c.sample_runs("ERS1000003")); }}},
      {"samples/{acc}/studies", {"GET", "sample_studies", [](LegacyClient& c) { first_page(c.sample_studies("ERS1000003")); }}},
      {"samples/{acc}/metadata", {"GET", "sample_metadata", [](LegacyClient& c) { first_page(c.sample_metadata("ERS1000003")); }}},
      {"runs/{acc}", {"GET", "run", [](LegacyClient& c) { c.run("ERR3000003"); }}},
      {"runs/{acc}/analyses", {"GET", "run_analyses", [](LegacyClient& c) { first_page(c.run_analyses("ERR3000003")); }}},
      {"runs/{acc}/assemblies", {"GET", "run_assemblies", [](LegacyClient& c) { first_page(c.run_assemblies("ERR3000003")); }}},
      {"runs/{acc}/extra-annotations",
       {"GET", "run_extra_annotations", [](LegacyClient& c) { first_page(c.run_extra_annotations("ERR3000003")); }}},
      {"assemblies/{acc}", {"GET", "assembly", [](LegacyClient& c) { c.assembly("ERZ4000003"); }}},
      {"assemblies/{acc}/analyses", {"GET", "assembly_analyses", [](LegacyClient& c) { first_page(c.assembly_analyses("ERZ4000003")); }}},
      {"assemblies/{acc}/runs", {"GET", "assembly_runs", [](LegacyClient& c) { first_page(c.assembly_runs("ERZ4000003")); }}},
      {"assemblies/{acc}/extra-annotations",
       {"GET", "assembly_extra_annotations", [](LegacyClient& c) { first_page(c.assembly_extra_annotations("ERZ4000003")); }}},
      // Analyses.
      {"analyses/{acc}", {"GET", "analysis", [](LegacyClient& c) { c.analysis(analysis); }}},
      {"analyses/{acc}/downloads", {"GET", "analysis_downloads", [](LegacyClient& c) { first_page(c.analysis_downloads(analysis)); }}},
      {"analyses/{acc}/go-terms", {"GET", "analysis_go_terms", [](LegacyClient& c) { first_page(c.analysis_go_terms(analysis)); }}},
      {"analyses/{acc}/go-slim", {"GET", "analysis_go_slim", [](LegacyClient& c) { first_page(c.analysis_go_slim(analysis)); }}},
      {"analyses/{acc}/interpro-identifiers",
       {"GET", "analysis_interpro_identifiers", [](LegacyClient& c) { first_page(c.analysis_interpro_identifiers(analysis)); }}},
      {"analyses/{acc}/pfam-entries", {"GET", "analysis_pfam_entries", [](LegacyClient& c) { first_page(c.analysis_pfam_entries(analysis)); }}},
      {"analyses/{acc}/kegg-orthologs",
       {"GET", "analysis_kegg_orthologs", [](LegacyClient& c) { first_page(c.analysis_kegg_orthologs(analysis)); }}},
      {"analyses/{acc}/kegg-modules", {"GET", "analysis_kegg_modules", [](LegacyClient& c) { first_page(c.analysis_kegg_modules(analysis)); }}},
      {"analyses/{acc}/genome-properties",
       {"GET", "analysis_genome_properties", [](LegacyClient& c) { first_page(c.analysis_genome_properties(analysis)); }}},
      {"analyses/{acc}/antismash-gene-clusters",
       {"GET", "analysis_antismash_gene_clusters", [](LegacyClient& c) { first_page(c.analysis_antismash_gene_clusters(analysis)); }}},
      {"analyses/{acc}/taxonomy",
       {"GET", "analysis_taxonomy(legacy)", [](LegacyClient& c) { first_page(c.analysis_taxonomy(analysis, TaxonomyKind::legacy)); }}},
      {"analyses/{acc}/taxonomy/ssu",
       {"GET", "analysis_taxonomy(ssu)", [](LegacyClient& c) { first_page(c.analysis_taxonomy(analysis, TaxonomyKind::ssu)); }}},
      {"analyses/{acc}/taxonomy/lsu",
       {"GET", "analysis_taxonomy(lsu)", [](LegacyClient& c) { first_page(c.analysis_taxonomy(analysis, TaxonomyKind::lsu)); }}},
      {"analyses/{acc}/taxonomy/itsonedb",
       {"GET", "analysis_taxonomy(itsonedb)", [](LegacyClient& c) { first_page(c.analysis_taxonomy(analysis, TaxonomyKind::itsonedb)); }}},
      {"analyses/{acc}/taxonomy/unite",
       {"GET", "analysis_taxonomy(unite)", [](LegacyClient& c) { first_page(c.analysis_taxonomy(analysis, TaxonomyKind::unite)); }}},
      {"analyses/{acc}/contigs", {"GET", "analysis_contigs", [](LegacyClient& c) { first_page(c.analysis_contigs(analysis)); }}},
      {"analyses/{acc}/contigs/{contig_id}",
       {"GET", "analysis_contig_fasta", [](LegacyClient& c) { c.analysis_contig_fasta(analysis, "ERR3000000.1-contig-1"); }}},
      {"analyses/{acc}/contigs/{contig_id}/annotations",
       {"GET", "analysis_contig_gff", [](LegacyClient& c) { c.analysis_contig_gff(analysis, "ERR3000000.1-contig-1"); }}},
      {"analyses/{acc}/gc-distribution",
       {"GET", "analysis_qc_chart(gc_distribution)", [](LegacyClient& c) { c.analysis_qc_chart(analysis, QcChart::gc_distribution); }}},
      {"analyses/{acc}/nucleotide-distribution",
       {"GET", "analysis_qc_chart(nucleotide_distribution)",
        [](LegacyClient& c) { c.analysis_qc_chart(analysis, QcChart::nucleotide_distribution); }}},
      {"analyses/{acc}/seq-length",
       {"GET", "analysis_qc_chart(seq_length)", [](LegacyClient& c) { c.analysis_qc_chart(analysis, QcChart::seq_length); }}},
      {"analyses/{acc}/summary",
       {"GET", "analysis_qc_chart(summary)", [](LegacyClient& c) { c.analysis_qc_chart(analysis, QcChart::summary); }}},
      // Experiment types, pipelines, tools.
      {"experiment-types/{name}", {"GET", "experiment_type", [](LegacyClient& c) { c.experiment_type("metagenomic"); }}},
      {"experiment-types/{name}/samples",
       {"GET", "experiment_type_samples", [](LegacyClient& c) { first_page(c.experiment_type_samples("metagenomic")); }}},
      {"experiment-types/{name}/runs",
       {"GET", "experiment_type_runs", [](LegacyClient& c) { first_page(c.experiment_type_runs("metagenomic")); }}},
      {"experiment-types/{name}/analyses",
       {"GET", "experiment_type_analyses", [](LegacyClient& c) { first_page(c.experiment_type_analyses("metagenomic")); }}},
      {"pipelines/{ver}", {"GET", "pipeline", [](LegacyClient& c) { c.pipeline("5.0"); }}},
      {"pipelines/{ver}/samples", {"GET", "pipeline_samples", [](LegacyClient& c) { first_page(c.pipeline_samples("5.0")); }}},
      {"pipelines/{ver}/analyses", {"GET", "pipeline_analyses", [](LegacyClient& c) { first_page(c.pipeline_analyses("5.0")); }}},
      {"pipelines/{ver}/tools", {"GET", "pipeline_release_tools", [](LegacyClient& c) { first_page(c.pipeline_release_tools("5.0")); }}},
      {"pipeline-tools/{tool_name}/{version}",
       {"GET", "pipeline_tool", [](LegacyClient& c) { c.pipeline_tool("InterProScan", "5.36-75.0"); }}},
      // Publications.
      {"publications/{pubmed_id}", {"GET", "publication", [](LegacyClient& c) { c.publication(25000000); }}},
      {"publications/{pubmed_id}/studies",
       {"GET", "publication_studies", [](LegacyClient& c) { first_page(c.publication_studies(25000000)); }}},
      {"publications/{pubmed_id}/samples",
       {"GET", "publication_samples", [](LegacyClient& c) { first_page(c.publication_samples(25000000)); }}},
      {"publications/{pubmed_id}/europe_pmc_annotations",
       {"GET", "publication_europe_pmc_annotations", [](LegacyClient& c) { c.publication_europe_pmc_annotations(25000000); }}},
      // Annotation vocabularies: detail and the analyses that have it (one kind
      // per form; every kind is the same resource()/related() code).
      {"annotations/go-terms/{acc}", {"GET", "go_term", [](LegacyClient& c) { c.go_term(first_id(c.go_terms())); }}},
      {"annotations/antismash-gene-clusters/{acc}",
       {"GET", "antismash_gene_cluster",
        [](LegacyClient& c) { c.antismash_gene_cluster(first_id(c.antismash_gene_clusters())); }}},
      {"annotations/antismash-gene-clusters/{acc}/analyses",
       {"GET", "related",
        [](LegacyClient& c) {
          walk(c.related("annotations/antismash-gene-clusters", first_id(c.antismash_gene_clusters()), "analyses"));
        }}},
      {"annotations/organisms/{lineage}",
       {"GET", "organism_subtree", [](LegacyClient& c) { first_page(c.organism_subtree(first_id(c.organisms()))); }}},
      {"annotations/organisms/{lineage}/analyses",
       {"GET", "organism_analyses", [](LegacyClient& c) { first_page(c.organism_analyses(first_id(c.organisms()))); }}},
      // Genomes and their catalogues and sets.
      {"genomes/{acc}", {"GET", "genome", [](LegacyClient& c) { c.genome(genome); }}},
      {"genomes/{acc}/downloads", {"GET", "genome_downloads", [](LegacyClient& c) { first_page(c.genome_downloads(genome)); }}},
      {"genomes/{acc}/cogs", {"GET", "genome_cog_counts", [](LegacyClient& c) { first_page(c.genome_cog_counts(genome)); }}},
      {"genomes/{acc}/kegg-class", {"GET", "genome_kegg_class_counts", [](LegacyClient& c) { first_page(c.genome_kegg_class_counts(genome)); }}},
      {"genomes/{acc}/kegg-module",
       {"GET", "genome_kegg_module_counts", [](LegacyClient& c) { first_page(c.genome_kegg_module_counts(genome)); }}},
      {"genomes/{acc}/antismash-genecluster",
       {"GET", "genome_antismash_cluster_counts", [](LegacyClient& c) { first_page(c.genome_antismash_cluster_counts(genome)); }}},
      {"genome-catalogues/{id}", {"GET", "genome_catalogue", [](LegacyClient& c) { c.genome_catalogue("marine-v2-0"); }}},
      {"genome-catalogues/{id}/genomes", {"GET", "catalogue_genomes", [](LegacyClient& c) { first_page(c.catalogue_genomes("marine-v2-0")); }}},
      {"genome-catalogues/{id}/downloads",
       {"GET", "catalogue_downloads", [](LegacyClient& c) { first_page(c.catalogue_downloads("marine-v2-0")); }}},
      {"genomeset/{name}", {"GET", "genome_set", [](LegacyClient& c) { c.genome_set("NCBI"); }}},
      {"genomeset/{name}/genomes", {"GET", "genome_set_genomes", [](LegacyClient& c) { first_page(c.genome_set_genomes("NCBI")); }}},
      // Authentication.
      {"utils/token/obtain",
       {"POST", "login", [](LegacyClient& c) { c.login(mgnify::mock::v1data::kTestUser, mgnify::mock::v1data::kTestPassword); }}},
      // Genome search: COBS, and the sourmash gather job.
      {"genome-search",
       {"POST", "genome_search",
        [](LegacyClient& c) { c.genome_search(mgnify::test::genome_search_calls::cobs_query()); }}},
      {"genomes-search/gather",
       {"POST", "submit_gather", [](LegacyClient& c) { mgnify::test::genome_search_calls::submit(c, "marine-v2-0"); }}},
      {"genomes-search/status/{job}",
       {"GET", "gather_status", [](LegacyClient& c) { mgnify::test::genome_search_calls::status(c, "marine-v2-0"); }}},
      {"genomes-search/results/{job}",
       {"GET", "gather_results", [](LegacyClient& c) { mgnify::test::genome_search_calls::results(c, "marine-v2-0"); }}},
      {"utils/token/verify", {"POST", "verify", [](LegacyClient& c) { c.verify(); }}},
  };
  return table;
}

// Routes without a LegacyClient method, each with the reason.
const std::map<std::string, std::string>& v1_excluded_routes() {
  static const std::map<std::string, std::string> excluded = {
      // Files: each is a listed record's links.self, fetched whole with
      // download(), read_text() or stream_text() (tests/v1/downloads_test.cpp,
      // endpoints_test.cpp), never built from parts.
      {"studies/{acc}/pipelines/{ver}/file/{alias}", "file URL from a listing's links.self"},
      {"analyses/{acc}/file/{alias}", "file URL from a listing's links.self"},
      {"runs/{acc}/extra-annotations/{alias}", "file URL from a listing's links.self"},
      {"assemblies/{acc}/extra-annotations/{alias}", "file URL from a listing's links.self"},
      {"genomes/{acc}/downloads/{alias}", "file URL from a listing's links.self"},
      {"genome-catalogues/{id}/downloads/{alias}", "file URL from a listing's links.self"},
      // HTML pages (Krona charts) for browsers: no data a client decodes.
      {"analyses/{acc}/krona", "HTML Krona chart for browsers"},
      {"analyses/{acc}/krona/lsu", "HTML Krona chart for browsers"},
      {"analyses/{acc}/krona/ssu", "HTML Krona chart for browsers"},
      {"analyses/{acc}/krona/unite", "HTML Krona chart for browsers"},
      {"analyses/{acc}/krona/itsonedb", "HTML Krona chart for browsers"},
      // Plain dicts the MGnify website draws its pages from; their keys are
      // not documented, so there is nothing to type yet (reachable with read_text).
      {"analyses/{acc}/taxonomy/overview", "website chart data, keys undocumented"},
      {"samples/{acc}/studies_publications_annotations_existence", "website helper"},
      {"samples/{acc}/contextual_data_clearing_house_metadata", "website helper"},
      // Site helpers of the web client (CSRF, contact forms, banners, EBI Search
      // export), not part of the data API.
      {"utils/csrf_token", "website helper"},
      {"utils/resources", "website helper"},
      {"utils/myaccounts", "website helper"},
      {"utils/notify", "website helper"},
      {"utils/sendemail", "website helper"},
      {"banner-message", "website helper"},
      {"ebi-search-download/{domain}", "website helper"},
  };
  return excluded;
}

// ---- reading the routes out of the reference notes --------------------------

/// `{a|b|c}` alternatives expanded; `{name}` parameters kept.
std::vector<std::string> expand_alternatives(const std::string& route) {
  const std::regex alternatives(R"(\{([^}|]*\|[^}]*)\})");
  std::smatch m;
  if (!std::regex_search(route, m, alternatives)) return {route};
  std::vector<std::string> out;
  std::stringstream options(m[1].str());
  std::string option;
  while (std::getline(options, option, '|')) {
    for (auto& r : expand_alternatives(m.prefix().str() + option + m.suffix().str()))
      out.push_back(r);
  }
  return out;
}

/// The routes of one first cell of the endpoint table. The cells abbreviate:
/// "`a/{x}/b`, `/c`" is a/{x}/b and a/{x}/c; "`a`, `a/{x}` + `/b`, `/c`" hangs
/// b and c below a/{x}; "(+`/{alias}` ...)" hangs below the route just before;
/// other parenthesised text describes and is skipped.
std::vector<std::string> routes_of_cell(const std::string& cell) {
  std::vector<std::string> out;
  std::string last_full, anchor;
  std::vector<std::string> previous, paren_base;
  bool plus = false, paren_plus = false;
  int description = 0;
  std::size_t pos = 0;
  while (true) {
    const auto open = cell.find('`', pos);
    if (open == std::string::npos) break;
    const auto close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    const std::string gap = cell.substr(pos, open - pos);
    pos = close + 1;
    for (std::size_t i = 0; i < gap.size(); ++i) {
      if (gap[i] == '(') {
        const auto next = gap.find_first_not_of(' ', i + 1);
        if (next != std::string::npos && gap[next] == '+') {
          paren_plus = true;
          paren_base = previous;
        } else {
          ++description;
        }
      } else if (gap[i] == ')') {
        if (description > 0) {
          --description;
        } else {
          paren_plus = false;
        }
      } else if (gap[i] == '+' && !paren_plus) {
        plus = true;
      }
    }
    if (description > 0) continue;
    const auto tokens = expand_alternatives(cell.substr(open + 1, close - open - 1));
    std::vector<std::string> made;
    if (tokens.front().front() != '/') {
      made = tokens;
      last_full = anchor = tokens.back();
      plus = false;
    } else {
      const std::string parent = last_full.substr(0, last_full.rfind('/'));
      for (const auto& t : tokens) {
        if (paren_plus) {
          for (const auto& base : paren_base) made.push_back(base + t);
        } else {
          made.push_back((plus ? anchor : parent) + t);
        }
      }
    }
    out.insert(out.end(), made.begin(), made.end());
    previous = made;
  }
  return out;
}

/// Every route of reference/v1-api.md: the root's category list (section 3)
/// and the endpoint catalogue (section 4).
std::set<std::string> reference_routes(const std::string& text) {
  std::set<std::string> routes;
  const auto s3 = text.find("\n## 3.");
  const auto s4 = text.find("\n## 4.");
  const auto s5 = text.find("\n## 5.");
  REQUIRE(s3 != std::string::npos);
  REQUIRE(s4 != std::string::npos);
  REQUIRE(s5 != std::string::npos);
  const std::string root = text.substr(s3, s4 - s3);
  const auto list = root.find("`biomes, ");
  REQUIRE(list != std::string::npos);
  std::stringstream names(root.substr(list + 1, root.find('`', list + 1) - list - 1));
  std::string name;
  while (std::getline(names, name, ',')) {
    const auto start = name.find_first_not_of(' ');
    routes.insert(name.substr(start));
  }
  std::stringstream table(text.substr(s4, s5 - s4));
  std::string line;
  while (std::getline(table, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    // The first cell ends at the first '|' that is not escaped as "\|".
    std::string cell;
    for (std::size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
        cell.push_back('|');
        ++i;
      } else if (line[i] == '|') {
        break;
      } else {
        cell.push_back(line[i]);
      }
    }
    for (const auto& r : routes_of_cell(cell)) routes.insert(r);
  }
  return routes;
}

}  // namespace

TEST_CASE("the reference-notes reader expands the table's abbreviations", "[v1][coverage]") {
  using R = std::vector<std::string>;
  CHECK(routes_of_cell(" `samples/{acc}/runs`, `/studies`, `/metadata` ") ==
        R{"samples/{acc}/runs", "samples/{acc}/studies", "samples/{acc}/metadata"});
  CHECK(routes_of_cell(" `genomes`, `genomes/{acc}` + `/downloads` (+`/{alias}`), `/cogs` ") ==
        R{"genomes", "genomes/{acc}", "genomes/{acc}/downloads", "genomes/{acc}/downloads/{alias}",
          "genomes/{acc}/cogs"});
  CHECK(routes_of_cell(" `analyses/{acc}/krona/{lsu|ssu}` ") ==
        R{"analyses/{acc}/krona/lsu", "analyses/{acc}/krona/ssu"});
  CHECK(routes_of_cell(
            " `genome-search` (POST form: `seq`, `threshold`), `genomes-search/gather` ") ==
        R{"genome-search", "genomes-search/gather"});
}

TEST_CASE("every route of the v1 reference notes has a method or a stated exclusion",
          "[v1][coverage]") {
  const std::string fixtures = MGNIFY_FIXTURES_DIR;
  if (fixtures.empty())
    MGNIFY_SKIP_TEST("MGNIFY_FIXTURES_DIR is empty: v1 route coverage not checked");
  const auto notes = std::filesystem::path(fixtures).parent_path() / "reference" / "v1-api.md";
  if (!std::filesystem::exists(notes))
    MGNIFY_SKIP_TEST("no reference/v1-api.md beside the fixtures");
  std::ifstream in(notes);
  std::stringstream text;
  text << in.rdbuf();
  const auto routes = reference_routes(text.str());
  CHECK(routes.size() >= 120);
  for (const auto& route : routes) {
    INFO("v1 route " << route);
    CHECK(v1_coverage_table().count(route) + v1_excluded_routes().count(route) == 1);
  }
  for (const auto& [route, reason] : v1_excluded_routes()) {
    INFO(route << ": " << reason);
    CHECK_FALSE(reason.empty());
    CHECK(v1_coverage_table().count(route) == 0);
    CHECK(routes.count(route) == 1);  // an exclusion names a route the notes have
  }
}

TEST_CASE("each method of the v1 coverage table requests exactly its route",
          "[v1][coverage][integration]") {
  mgnify::test::V1Rig rig;
  auto options = rig.options();
  options.read_ahead = false;  // each entry's requests are exactly its own
  LegacyClient client(options);
  client.session().set_token(std::string(mgnify::mock::v1data::kTestToken));  // mydata, verify
  for (const auto& [route, entry] : v1_coverage_table()) {
    INFO(entry.verb << " " << route << " -> LegacyClient::" << entry.method);
    // Entries that first look an id up in a list make that request first.
    mgnify::test::route_check::expect_route(
        rig.server, mgnify::mock::kV1Prefix, entry.verb, route,
        [&call = entry.call, &client] { call(client); }, false);
  }
}
