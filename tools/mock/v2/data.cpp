#include <algorithm>
#include <cctype>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "files/files.hpp"
#include "files/summaries.hpp"
#include "v2_mock.hpp"

namespace mgnify::mock::v2data {

namespace {

using nlohmann::json;

std::string fmt(const char* pattern, long long n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, pattern, n);
  return buf;
}

// Django drops the fraction when the microseconds are zero, so one in four
// timestamps has none: clients must parse both forms.
std::string timestamp(long long i) {
  const int month = static_cast<int>(1 + i % 12);
  const int day = static_cast<int>(1 + i % 28);
  const int hour = static_cast<int>(i % 24);
  const int minute = static_cast<int>((i * 7) % 60);
  const int second = static_cast<int>((i * 13) % 60);
  const int millis = i % 4 == 0 ? 0 : static_cast<int>((i * 37) % 1000);
  char buf[64];
  if (millis == 0) {
    std::snprintf(buf, sizeof buf, "2025-%02d-%02dT%02d:%02d:%02dZ", month, day, hour, minute,
                  second);
  } else {
    std::snprintf(buf, sizeof buf, "2025-%02d-%02dT%02d:%02d:%02d.%03dZ", month, day, hour, minute,
                  second, millis);
  }
  return buf;
}

struct Subject {
  const char* name;
  const char* lineage;
};

const std::vector<Subject>& subjects() {
  static const std::vector<Subject> s = {
      {"Human gut", "root:Host-associated:Human:Digestive system"},
      {"Tomato", "root:Host-associated:Plants:Rhizosphere"},
      {"Ocean water", "root:Environmental:Aquatic:Marine"},
      {"Soil", "root:Environmental:Terrestrial:Soil"},
      {"Wastewater", "root:Engineered:Wastewater"},
      {"Coral reef", "root:Environmental:Aquatic:Marine:Oceanic"},
      {"Permafrost", "root:Environmental:Terrestrial:Soil:Permafrost"},
      {"Mouse gut", "root:Host-associated:Mammals:Digestive system"},
      {"Hot spring", "root:Environmental:Aquatic:Thermal springs"},
      {"Space station dust", "root:Engineered:Built environment"},
  };
  return s;
}

const char* const kForms[] = {"metagenome", "microbiome survey", "amplicon study",
                              "metatranscriptome"};
const char* const kExperimentLabels[] = {"Metagenomic", "Amplicon", "Metatranscriptomic",
                                         "Assembly", "Long-read assembly"};
const char* const kExperimentCodes[] = {"METAG", "AMPLI", "METAT", "ASSEM", "LRASS"};

json biome_json(const std::string& lineage) {
  const auto colon = lineage.rfind(':');
  return {{"biome_name", colon == std::string::npos ? lineage : lineage.substr(colon + 1)},
          {"lineage", lineage}};
}

json download(const std::string& alias, const char* download_type, const char* file_type,
              const std::string& short_description, const std::string& group,
              const std::string& url, bool with_index) {
  json d = {{"alias", alias},
            {"download_type", download_type},
            {"file_type", file_type},
            {"long_description", short_description + " (full description)"},
            {"short_description", short_description},
            {"download_group", group},
            {"file_size_bytes", nullptr},
            {"index_files", nullptr},
            {"url", url.empty() ? json(nullptr) : json(url)}};
  // The mock serves every listed file; HTML reports go unsized, as many
  // production records are, so clients meet both cases.
  if (!url.empty() && std::string(file_type) != "html")
    d["file_size_bytes"] = file_size(url_path(url));
  if (with_index && !url.empty()) {
    d["index_files"] = json::array({{{"index_type", "gzi"}, {"url", url + ".gzi"}}});
  }
  return d;
}

std::vector<std::string> split_lineage(const std::string& lineage) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const auto colon = lineage.find(':', start);
    parts.push_back(
        lineage.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return parts;
}

const char* pipeline_of(const Dataset& d, const AnalysisRec& a) {
  const auto& study = d.studies[static_cast<std::size_t>(a.study)];
  return study.legacy ? (a.index % 2 ? "V5" : "V4.1") : (a.index % 4 == 0 ? "V6.1" : "V6");
}

/// An analysis as list pages show it; the detail adds to it.
json analysis_list_json(const Dataset& d, const AnalysisRec& a) {
  const auto& study = d.studies[static_cast<std::size_t>(a.study)];
  const auto& run = d.runs[static_cast<std::size_t>(a.run)];
  const auto& sample = d.samples[static_cast<std::size_t>(run.sample)];
  const bool assembly_based = !run.assemblies.empty();
  return {{"study_accession", study.accession},
          {"accession", a.accession},
          {"experiment_type", run.list.at("experiment_type")},
          {"run", run.list},
          {"sample", sample.list},
          {"assembly", assembly_based
                           ? d.assemblies[static_cast<std::size_t>(run.assemblies.front())].list
                           : json(nullptr)},
          {"pipeline_version", pipeline_of(d, a)}};
}

std::string render_analysis_detail(const Dataset& d, const AnalysisRec& a) {
  const int index = a.index;
  const bool is_private = a.is_private;
  const auto& study = d.studies[static_cast<std::size_t>(a.study)];
  const auto& run = d.runs[static_cast<std::size_t>(a.run)];
  const std::string pipeline = pipeline_of(d, a);
  json detail = analysis_list_json(d, a);
  const std::string dir = study.legacy ? std::string()
                          : is_private
                              ? "https://www.ebi.ac.uk/metagenomics/api/v2/private-data/" +
                                    study.ena_accessions[0] + "/" + run.accession
                              : "https://ftp.ebi.ac.uk/pub/databases/metagenomics/mgnify_results/" +
                                    study.ena_accessions[0] + "/" + run.accession + "/" + pipeline;
  auto url = [&](const std::string& path) {
    if (dir.empty()) return std::string();
    return dir + "/" + path + (is_private ? "?expires=1767225600&token=0123abcd" : "");
  };
  json downloads = json::array();
  downloads.push_back(download(run.accession + "_multiqc_report.html", "Quality control", "html",
                               "MultiQC quality control report", "quality_control",
                               url("qc/multiqc_report.html"), false));
  downloads.push_back(
      download(run.accession + "_SILVA-SSU.tsv.gz", "Taxonomic analysis", "tsv",
               "SILVA-SSU taxonomic assignments", "taxonomies.closed_reference.ssu",
               url("taxonomy-summary/SILVA-SSU/" + run.accession + "_SILVA-SSU.tsv.gz"), true));
  downloads.push_back(
      download(run.accession + "_SILVA-LSU.tsv.gz", "Taxonomic analysis", "tsv",
               "SILVA-LSU taxonomic assignments", "taxonomies.closed_reference.lsu",
               url("taxonomy-summary/SILVA-LSU/" + run.accession + "_SILVA-LSU.tsv.gz"), true));
  downloads.push_back(download(run.accession + "_krona.html", "Taxonomic analysis", "html",
                               "Krona chart of SSU taxonomies", "taxonomies.closed_reference.ssu",
                               url("taxonomy-summary/SILVA-SSU/krona.html"), false));
  if (run.code == "AMPLI") {
    downloads.push_back(download(run.accession + "_DADA2-SILVA.tsv", "Taxonomic analysis", "tsv",
                                 "ASV taxonomies (DADA2, SILVA)", "taxonomies.asv.dada2_silva",
                                 url("asv/" + run.accession + "_DADA2-SILVA.tsv"), false));
  }
  downloads.push_back(
      download(run.accession + "_pfam_summary.tsv.gz", "Functional analysis", "tsv",
               "Pfam accession counts", "functional_annotation.pfams",
               url("functional-annotation/pfam/" + run.accession + "_pfam_summary.tsv.gz"), true));
  // Some current analyses also carry a file that was never published: its url is null.
  downloads.push_back(download(run.accession + "_ro-crate.zip", "Analysis RO Crate", "other",
                               "Analysis RO-Crate", "all",
                               index % 10 == 0 ? std::string() : url("ro-crate.zip"), false));
  detail["downloads"] = downloads;
  detail["read_run"] = json::array({run.list});
  detail["quality_control_summary"] = {{"before_filtering", {{"total_reads", 100000 + index}}},
                                       {"after_filtering", {{"total_reads", 90000 + index}}}};
  detail["results_dir"] = dir.empty() ? json(nullptr) : json(dir);
  detail["metadata"] = {
      {"marker_gene_summary", {{"ssu", {{"total_read_count", 5000 + index % 700}}}}}};
  return py_dump(detail);
}

Dataset build() {
  Dataset d;

  // Biomes: every prefix of the subjects' lineages plus a few leaves of our own.
  std::set<std::vector<std::string>> tree;
  std::vector<std::string> lineages;
  for (const auto& s : subjects()) lineages.push_back(s.lineage);
  for (const char* extra :
       {"root:Host-associated:Human:Skin", "root:Host-associated:Human:Oral",
        "root:Host-associated:Plants:Phylloplane", "root:Host-associated:Insecta",
        "root:Environmental:Aquatic:Freshwater:Lake", "root:Environmental:Aquatic:Freshwater:River",
        "root:Environmental:Air", "root:Engineered:Bioreactor", "root:Engineered:Food production",
        "root:Mixed"}) {
    lineages.push_back(extra);
  }
  for (const auto& l : lineages) {
    auto parts = split_lineage(l);
    for (std::size_t n = 1; n <= parts.size(); ++n) tree.insert({parts.begin(), parts.begin() + n});
  }
  for (const auto& parts : tree) {
    std::string l;
    for (const auto& p : parts) l += (l.empty() ? "" : ":") + p;
    d.biomes.push_back(biome_json(l));
  }

  // Studies: public ones, then kUser's private ones and one of kOtherUser.
  const int total_studies = kPublicStudies + 4;
  for (int i = 0; i < total_studies; ++i) {
    StudyRec s;
    const bool is_private = i >= kPublicStudies;
    const int number = is_private ? 901 + (i - kPublicStudies) : i + 1;
    s.accession = fmt("MGYS%08lld", number);
    const auto& subject = subjects()[static_cast<std::size_t>(i) % subjects().size()];
    s.title = std::string(subject.name) + " " + kForms[(i / 10) % 4] + " " + fmt("%03lld", number);
    if (is_private) s.title = "Private " + s.title;
    s.lineage = subject.lineage;
    s.is_private = is_private;
    s.owner = (i == kPublicStudies + 3) ? kOtherUser
              : (is_private || i < 2)   ? kUser
                                        : fmt("Webin-%lld", 50000 + i);
    s.legacy = !is_private && i % 3 == 2;
    s.ena_accessions = {fmt("PRJEB%05lld", 10000 + number), fmt("ERP%06lld", 100000 + number)};
    s.updated_at = timestamp(number);
    s.list = {{"accession", s.accession},
              {"ena_accessions", s.ena_accessions},
              {"title", s.title},
              {"biome", biome_json(s.lineage)},
              {"updated_at", s.updated_at}};
    d.studies.push_back(std::move(s));
  }

  // Samples and runs: one run per sample; sample i belongs to public study i % kPublicStudies.
  for (int i = 0; i < kSamples; ++i) {
    SampleRec s;
    s.study = i % kPublicStudies;
    s.accession = fmt("SAMEA%07lld", 1000000 + i);
    s.ena_accessions = {s.accession, fmt("ERS%07lld", 2000000 + i)};
    const auto& study = d.studies[static_cast<std::size_t>(s.study)];
    s.title = i % 5 == 4 ? std::string()
                         : study.title.substr(0, study.title.find(' ', study.title.find(' ') + 1)) +
                               " sample " + std::to_string(i + 1);
    if (i % 5 != 4 && i % 7 == 0)
      s.title = "Dust from the space station, swab " + std::to_string(i + 1);
    s.lineage = study.lineage;
    s.updated_at = timestamp(i + 500);
    s.list = {{"accession", s.accession},
              {"ena_accessions", s.ena_accessions},
              {"sample_title", s.title.empty() ? json(nullptr) : json(s.title)},
              {"biome", i % 11 == 10 ? json(nullptr) : biome_json(s.lineage)},
              {"updated_at", s.updated_at}};
    s.with_metadata = s.list;
    s.with_metadata["metadata"] = {
        {"sample_title", s.list["sample_title"]},
        {"temperature", std::to_string(4 + i % 30) + ".5"},
        {"lat", std::to_string(-60 + i % 120)},
        {"lon", std::to_string(-170 + (i * 7) % 340)},
        {"collection_date", "2019-" + fmt("%02lld", 1 + i % 12) + "-15"}};
    d.studies[static_cast<std::size_t>(s.study)].samples.push_back(i);
    d.samples.push_back(std::move(s));
  }
  for (int i = 0; i < kRuns; ++i) {
    RunRec r;
    r.sample = i;
    r.study = d.samples[static_cast<std::size_t>(i)].study;
    r.accession = fmt("ERR%07lld", 3000000 + i);
    r.code = kExperimentCodes[i % 5];
    r.list = {{"experiment_type", kExperimentLabels[i % 5]},
              {"accession", r.accession},
              {"sample_accession", d.samples[static_cast<std::size_t>(i)].ena_accessions[1]},
              {"study_accession", d.studies[static_cast<std::size_t>(r.study)].accession},
              {"instrument_model", i % 5 == 4 ? json("MinION") : json("Illumina NovaSeq 6000")},
              {"instrument_platform", i % 5 == 4 ? json("OXFORD_NANOPORE") : json("ILLUMINA")}};
    if (i % 13 == 0) r.list["instrument_model"] = nullptr;
    d.samples[static_cast<std::size_t>(i)].runs.push_back(i);
    d.runs.push_back(std::move(r));
  }
  // Assemblies: one for every run whose experiment is an assembly.
  for (int i = 0; i < kRuns; ++i) {
    if (i % 5 != 3 && i % 5 != 4) continue;
    AssemblyRec a;
    a.run = i;
    const int n = static_cast<int>(d.assemblies.size());
    a.accession = fmt("ERZ%07lld", 4000000 + n);
    a.list = {{"accession", a.accession}, {"updated_at", timestamp(n + 900)}};
    const auto& run = d.runs[static_cast<std::size_t>(i)];
    const auto& study = d.studies[static_cast<std::size_t>(run.study)];
    a.detail = a.list;
    a.detail["run_accession"] = run.accession;
    a.detail["sample_accession"] =
        d.samples[static_cast<std::size_t>(run.sample)].ena_accessions[1];
    a.detail["reads_study_accession"] = study.accession;
    a.detail["assembly_study_accession"] = study.accession;
    a.detail["assembler_name"] = i % 5 == 4 ? "flye" : "metaspades";
    a.detail["assembler_version"] = i % 5 == 4 ? "2.9" : "3.15.3";
    a.detail["metadata"] = {
        {"coverage", 40 + n % 60}, {"coverage_depth", 12.5}, {"n_contigs", 1000 + n}};
    a.detail["status"] = {{"assembly_completed", true}};
    d.runs[static_cast<std::size_t>(i)].assemblies.push_back(n);
    d.assemblies.push_back(std::move(a));
  }

  // Analyses: public ones cycle over the runs; then 4 per private study.
  auto make_analysis = [](int index, const std::string& accession, int study_index, int run_index,
                          bool is_private) {
    AnalysisRec a;
    a.accession = accession;
    a.index = index;
    a.study = study_index;
    a.run = run_index;
    a.is_private = is_private;
    return a;
  };
  for (int i = 0; i < kPublicAnalyses; ++i) {
    const int run_index = i % kRuns;
    const int study_index = d.runs[static_cast<std::size_t>(run_index)].study;
    auto a = make_analysis(i, fmt("MGYA%08lld", i + 1), study_index, run_index, false);
    d.studies[static_cast<std::size_t>(study_index)].analyses.push_back(i);
    d.runs[static_cast<std::size_t>(run_index)].analyses.push_back(i);
    for (int asm_index : d.runs[static_cast<std::size_t>(run_index)].assemblies) {
      d.assemblies[static_cast<std::size_t>(asm_index)].analyses.push_back(i);
    }
    d.analyses.push_back(std::move(a));
  }
  for (int p = 0; p < 4; ++p) {
    const int study_index = kPublicStudies + p;
    for (int k = 0; k < kAnalysesPerPrivateStudy; ++k) {
      const int index = static_cast<int>(d.analyses.size());
      // Private analyses reuse public runs' shapes; they are reachable only through their study.
      auto a = make_analysis(index, fmt("MGYA%08lld", 90001 + p * 10 + k), study_index,
                             (p * 4 + k) % kRuns, true);
      d.studies[static_cast<std::size_t>(study_index)].analyses.push_back(index);
      d.analyses.push_back(std::move(a));
    }
    // Private studies have their samples listed too (the same public sample records).
    d.studies[static_cast<std::size_t>(study_index)].samples = {p * 3, p * 3 + 1};
  }

  // Publications.
  for (int i = 0; i < kPublications; ++i) {
    PublicationRec p;
    p.pubmed_id = 30000001 + i;
    p.year = 1995 + (i * 7) % 31;
    p.title = std::string("Metagenomic insights into ") +
              subjects()[static_cast<std::size_t>(i) % subjects().size()].name +
              " communities, part " + std::to_string(i + 1);
    p.list = {{"pubmed_id", p.pubmed_id},
              {"title", p.title},
              {"published_year", i % 9 == 8 ? json(nullptr) : json(p.year)},
              {"metadata",
               {{"authors", "Doe J, Roe R, Poe P"},
                {"doi", "10.1000/mgnify." + std::to_string(p.pubmed_id)},
                {"isbn", nullptr},
                {"iso_journal", "Microbiome"},
                {"pubmed_central_id", 7000000 + i},
                {"volume", std::to_string(1 + i % 12)},
                {"pub_type", "Journal article"}}}};
    if (i % 9 == 8) p.year = 0;
    d.publications.push_back(std::move(p));
  }
  for (int s = 0; s < 80; ++s) {
    const int pub = s % kPublications;
    d.studies[static_cast<std::size_t>(s)].publications.push_back(pub);
    d.publications[static_cast<std::size_t>(pub)].studies.push_back(s);
  }

  // Genome catalogues and genomes.
  const char* const cat_ids[] = {"human-gut-v2-0", "marine-v1-0", "human-gut-eukaryotes-v1-0"};
  const char* const cat_names[] = {"Human Gut", "Marine", "Human Gut Eukaryotes"};
  const char* const cat_types[] = {"prokaryotes", "prokaryotes", "eukaryotes"};
  const char* const cat_biomes[] = {"root:Host-associated:Human:Digestive system",
                                    "root:Environmental:Aquatic:Marine",
                                    "root:Host-associated:Human:Digestive system"};
  for (int c = 0; c < kCatalogues; ++c) {
    const std::string dir =
        std::string("https://ftp.ebi.ac.uk/pub/databases/metagenomics/mgnify_genomes/") +
        cat_ids[c];
    json cat = {{"catalogue_id", cat_ids[c]},
                {"version", c == 0 ? "2.0" : "1.0"},
                {"name", std::string(cat_names[c]) + " v" + (c == 0 ? "2.0" : "1.0")},
                {"status", "published"},
                {"description", std::string("Genomes from ") + cat_names[c] + " samples"},
                {"protein_catalogue_name", nullptr},
                {"protein_catalogue_description", nullptr},
                {"updated_at", timestamp(1200 + c)},
                {"result_directory", dir},
                {"genome_count", 0},
                {"unclustered_genome_count", nullptr},
                {"ftp_url", "https://ftp.ebi.ac.uk/pub/databases/metagenomics/mgnify_genomes/"},
                {"pipeline_version_tag", "v1.2.1"},
                {"catalogue_biome_label", cat_names[c]},
                {"catalogue_type", cat_types[c]},
                {"other_stats", {{"Total proteins", "12,345,678"}}},
                {"biome", biome_json(cat_biomes[c])}};
    d.catalogues.push_back(std::move(cat));
  }
  const char* const taxa[] = {
      "d__Bacteria;p__Bacillota;c__Bacilli;o__Lactobacillales;f__Streptococcaceae;g__Streptococcus;"
      "s__Streptococcus salivarius",
      "d__Bacteria;p__Bacteroidota;c__Bacteroidia;o__Bacteroidales;f__Bacteroidaceae;g__"
      "Bacteroides;s__Bacteroides fragilis",
      "d__Bacteria;p__Pseudomonadota;c__Gammaproteobacteria;o__Enterobacterales;f__"
      "Enterobacteriaceae;g__Escherichia;s__Escherichia coli",
      "d__Archaea;p__Methanobacteriota;c__Methanobacteria;o__Methanobacteriales;f__"
      "Methanobacteriaceae;g__Methanobrevibacter;s__",
      "d__Bacteria;p__Cyanobacteriota;c__Cyanobacteriia;o__PCC-6307;f__Cyanobiaceae;g__"
      "Prochlorococcus;s__"};
  for (int i = 0; i < kGenomes; ++i) {
    GenomeRec g;
    g.accession = fmt("MGYG%09lld", i + 1);
    const int c = i % kCatalogues;
    g.catalogue_id = cat_ids[c];
    g.taxon_lineage = taxa[i % 5];
    g.lineage = cat_biomes[c];
    g.list = {
        {"accession", g.accession},
        {"ena_genome_accession",
         i % 3 == 0 ? json(fmt("GCA_%09lld", 900000000 + i)) : json(nullptr)},
        {"ena_sample_accession", fmt("ERS%07lld", 2000000 + i)},
        {"ena_study_accession", "ERP108418"},
        {"ncbi_genome_accession", nullptr},
        {"ncbi_study_accession", nullptr},
        {"img_genome_accession", nullptr},
        {"patric_genome_accession", nullptr},
        {"length", 2000000 + i * 1013},
        {"num_contigs", 10 + i % 90},
        {"num_genomes_total", 1 + i % 17},
        {"n_50", 50000 + i * 11},
        {"gc_content", 0.35 + (i % 30) / 100.0},
        {"type", i % 4 == 0 ? "Isolate" : "MAG"},
        {"completeness", 90.0 + (i % 10)},
        {"contamination", (i % 5) / 10.0},
        {"catalogue_id", g.catalogue_id},
        {"taxon_lineage", g.taxon_lineage},
        {"updated_at", timestamp(1300 + i)},
        {"geographic_origin", i % 2 ? "Europe" : "Asia"},
        {"geographic_range", i % 2 ? json::array({"Europe", "North America"}) : json::array()},
        {"biome", biome_json(g.lineage)}};
    g.detail = g.list;
    for (const char* key : {"rna_5s", "rna_5_8s", "rna_16s", "rna_18s", "rna_23s", "rna_28s",
                            "trnas", "nc_rnas", "eggnog_coverage", "ipr_coverage"}) {
      g.detail[key] = std::string(key) == "rna_18s" ? json(nullptr) : json(88.5 + i % 10);
    }
    g.detail["num_proteins"] = 2000 + i;
    g.detail["pangenome_size"] = i % 4 == 0 ? json(nullptr) : json(3000 + i);
    g.detail["pangenome_core_size"] = i % 4 == 0 ? json(nullptr) : json(1500 + i);
    g.detail["pangenome_accessory_size"] = i % 4 == 0 ? json(nullptr) : json(1500);
    const std::string gdir =
        d.catalogues[static_cast<std::size_t>(c)]["result_directory"].get<std::string>() +
        "/species_catalogue/" + g.accession.substr(0, 11) + "/" + g.accession;
    json dls = json::array();
    for (auto [alias, dtype, ftype, desc] :
         std::vector<std::tuple<std::string, const char*, const char*, const char*>>{
             {g.accession + ".fna", "Sequence data", "fasta", "Genome sequence"},
             {g.accession + ".faa", "Coding Sequences", "fasta", "Protein sequence"},
             {g.accession + ".gff", "Genome analysis", "gff",
              "Genome GFF file with various sequence annotations"},
             {g.accession + "_eggNOG.tsv", "Functional analysis", "tsv", "EggNOG annotation"}}) {
      json dl = download(alias, dtype, ftype, desc, "genome", gdir + "/genome/" + alias, false);
      dl.erase("index_files");
      dls.push_back(dl);
    }
    g.detail["downloads"] = dls;
    g.detail["catalogue"] = d.catalogues[static_cast<std::size_t>(c)];
    d.catalogues[static_cast<std::size_t>(c)]["genome_count"] =
        d.catalogues[static_cast<std::size_t>(c)]["genome_count"].get<int>() + 1;
    d.genomes.push_back(std::move(g));
  }
  // The embedded catalogues must show the final genome counts.
  for (std::size_t i = 0; i < d.genomes.size(); ++i)
    d.genomes[i].detail["catalogue"] = d.catalogues[i % kCatalogues];

  // Super studies.
  const char* const slugs[] = {"excellent-adventure",    "human-gut-atlas",   "ocean-sampling-day",
                               "soil-microbiome",        "built-environment", "permafrost-thaw",
                               "wastewater-surveillance"};
  for (int i = 0; i < kSuperStudies; ++i) {
    json s = {
        {"slug", slugs[i]},
        {"title", std::string("Super study ") + slugs[i]},
        {"description",
         i % 3 == 2 ? json(nullptr) : json(std::string("A **curated** group: ") + slugs[i])},
        {"logo_url",
         i % 2
             ? json(nullptr)
             : json(std::string("/fieldfiles/download/"
                                "?name=analyses.SuperStudyImage%2Fbytes%2Ffilename%2Fmimetype%2F") +
                    slugs[i] + ".png")}};
    json flagship = json::array();
    json related = json::array();
    for (int k = 0; k < 3; ++k)
      flagship.push_back(d.studies[static_cast<std::size_t>((i * 3 + k) % kPublicStudies)].list);
    for (int k = 0; k < 2; ++k)
      related.push_back(
          d.studies[static_cast<std::size_t>((i * 5 + 50 + k) % kPublicStudies)].list);
    s["flagship_studies"] = flagship;
    s["related_studies"] = related;
    s["genome_catalogues"] = json::array({d.catalogues[static_cast<std::size_t>(i % kCatalogues)]});
    d.super_studies.push_back(std::move(s));
  }

  // Study details (now that every link is known).
  for (auto& s : d.studies) {
    json detail = s.list;
    detail["first_accession"] = s.ena_accessions[1];
    const std::string base = "https://ftp.ebi.ac.uk/pub/databases/metagenomics/mgnify_results/" +
                             s.ena_accessions[0] + "/study-summaries/";
    json dls = json::array();
    if (s.legacy) {
      // Production v5 study downloads: no URL, no index, no size.
      dls.push_back(download(s.ena_accessions[1] + "_taxonomy_abundances_SSU_v5.0.tsv",
                             "Taxonomic analysis", "tsv", "Taxonomic assignments SSU",
                             "study_summary.v5.0.taxonomic_analysis_ssu_rrna", "", false));
      dls.push_back(download(s.ena_accessions[1] + "_IPR_abundances_v5.0.tsv",
                             "Functional analysis", "tsv", "InterPro matches",
                             "study_summary.v5.0.functional_analysis_interpro", "", false));
    } else {
      dls.push_back(download(s.ena_accessions[0] + "_SILVA-SSU_study_summary.tsv",
                             "Taxonomic analysis", "tsv", "Summary of SILVA-SSU taxonomies",
                             "study_summary.v6.amplicon",
                             base + "amplicon_SILVA-SSU_study_summary.tsv", false));
    }
    detail["downloads"] = dls;
    detail["metadata"] = {{"study_name", s.title},
                          {"center_name", "Mock Sequencing Centre"},
                          {"study_title", s.title},
                          {"study_description", "Deterministic mock study " + s.accession},
                          {"secondary_study_accession", s.ena_accessions[1]}};
    s.detail = detail.dump();
  }
  return d;
}

}  // namespace

// Built by the first request that needs it and never destroyed: a test process that
// starts the mock would otherwise spend more time freeing its tens of thousands of
// documents at exit than most tests take. The pointer keeps it reachable for LeakSanitizer.
const Dataset& dataset() {
  static const Dataset* const d = new Dataset(build());
  return *d;
}

namespace {
// List items and details are rendered apart: list pages (most requests) never need the
// detail, which costs several times more.
struct RenderCache {
  std::mutex mutex;
  std::vector<std::unique_ptr<std::string>> lists;
  std::vector<std::unique_ptr<std::string>> details;
};
RenderCache& cache() {
  static RenderCache* const c = new RenderCache;  // kept to the end, as dataset() is
  return *c;
}
const std::string& rendered(int index, bool detail) {
  const Dataset& d = dataset();
  auto& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  auto& slots = detail ? c.details : c.lists;
  if (slots.empty()) slots.resize(d.analyses.size());
  auto& slot = slots.at(static_cast<std::size_t>(index));
  if (!slot) {
    const auto& a = d.analyses[static_cast<std::size_t>(index)];
    slot = std::make_unique<std::string>(detail ? render_analysis_detail(d, a)
                                                : py_dump(analysis_list_json(d, a)));
  }
  return *slot;
}
}  // namespace

const std::string& analysis_list(int index) { return rendered(index, false); }
const std::string& analysis_detail(int index) { return rendered(index, true); }

std::string py_dump(const json& j) {
  const std::string compact = j.dump();
  std::string out;
  out.reserve(compact.size() + compact.size() / 8);
  bool in_string = false;
  bool escaped = false;
  for (char c : compact) {
    out.push_back(c);
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == ',' || c == ':') {
      out.push_back(' ');
    }
  }
  return out;
}

std::string lineage_path(const std::string& lineage) {
  std::string out;
  for (char ch : lineage) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == ':') {
      out.push_back('.');
    } else if (c == ' ' || c == '(' || c == ')' || c == '-') {
      out.push_back('_');
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(std::tolower(c)));
    }
  }
  return out;
}

namespace {

std::vector<std::string> path_segments(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < path.size()) {
    auto slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    if (slash > start) out.push_back(path.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

// Listed somewhere in `text` as a JSON string, whole or with a query after it.
bool names(const std::string& text, const std::string& url) {
  return text.find("\"" + url + "\"") != std::string::npos ||
         text.find("\"" + url + "?") != std::string::npos;
}

std::size_t raw_size_of(const std::string& name, std::uint64_t seed) {
  const bool sequence = name.find(".fna") != std::string::npos ||
                        name.find(".faa") != std::string::npos ||
                        name.find(".fasta") != std::string::npos;
  return sequence ? 20000 + seed % 40000 : 800 + seed % 12000;
}

}  // namespace

std::string url_path(const std::string& url) {
  const auto scheme = url.find("://");
  const auto start = scheme == std::string::npos ? 0 : url.find('/', scheme + 3);
  if (start == std::string::npos) return "/";
  return url.substr(start, url.find('?', start) - start);
}

std::string file_bytes(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  const std::uint64_t seed = seed_of("v2" + path);
  if (summary_layout(name)) return summary_file(name, seed);
  return generated_file(name, raw_size_of(name, seed), seed);
}

std::uint64_t file_size(const std::string& path) {
  const std::string name = path.substr(path.rfind('/') + 1);
  if (summary_layout(name)) return summary_file(name, seed_of("v2" + path)).size();
  return generated_file_size(name, raw_size_of(name, seed_of("v2" + path)));
}

bool lists_file(const std::string& url) {
  const Dataset& d = dataset();
  const auto seg = path_segments(url_path(url));
  auto at = [&](const std::string& name) {
    const auto it = std::find(seg.begin(), seg.end(), name);
    return it == seg.end() ? seg.size() : static_cast<std::size_t>(it - seg.begin());
  };
  if (const auto g = at("mgnify_genomes"); g < seg.size()) {
    for (const auto& genome : d.genomes) {
      if (std::find(seg.begin() + static_cast<std::ptrdiff_t>(g), seg.end(), genome.accession) ==
          seg.end())
        continue;
      for (const auto& dl : genome.detail.at("downloads")) {
        if (dl.at("url").is_string() && dl.at("url").get<std::string>() == url) return true;
      }
    }
    return false;
  }
  // mgnify_results/{study}/{run}/{pipeline}/..., private-data/{study}/{run}/...,
  // mgnify_results/{study}/study-summaries/...
  std::size_t base = at("mgnify_results");
  if (base == seg.size()) base = at("private-data");
  if (base + 2 >= seg.size()) return false;
  const std::string& ena = seg[base + 1];
  const std::string& below = seg[base + 2];
  for (const auto& study : d.studies) {
    if (study.ena_accessions.empty() || study.ena_accessions[0] != ena) continue;
    if (below == "study-summaries") {
      if (names(study.detail, url)) return true;
      continue;
    }
    for (int a : study.analyses) {
      const auto& rec = d.analyses[static_cast<std::size_t>(a)];
      if (d.runs[static_cast<std::size_t>(rec.run)].accession != below) continue;
      if (names(analysis_detail(a), url)) return true;
    }
  }
  return false;
}

}  // namespace mgnify::mock::v2data
