#include "small_endpoints.hpp"

namespace mgnify::mock::v1routes {

const std::vector<NamedEntry>& cog_categories() {
  static const std::vector<NamedEntry> all = {
      {"C", "Energy production and conversion"},
      {"D", "Cell cycle control, cell division, chromosome partitioning"},
      {"E", "Amino acid transport and metabolism"},
      {"G", "Carbohydrate transport and metabolism"},
      {"J", "Translation, ribosomal structure and biogenesis"},
      {"K", "Transcription"},
      {"L", "Replication, recombination and repair"},
      {"S", "Function unknown"}};
  return all;
}
const std::vector<NamedEntry>& genome_kegg_module_defs() {
  static const std::vector<NamedEntry> all = {
      {"M00001", "Glycolysis (Embden-Meyerhof pathway), glucose => pyruvate"},
      {"M00002", "Glycolysis, core module involving three-carbon compounds"},
      {"M00009", "Citrate cycle (TCA cycle, Krebs cycle)"},
      {"M00120", "Coenzyme A biosynthesis, pantothenate => CoA"}};
  return all;
}
const std::vector<NamedEntry>& antismash_cluster_defs() {
  static const std::vector<NamedEntry> all = {
      {"NRPS", "Non-ribosomal peptide synthetase"},
      {"T1PKS", "Type I polyketide synthase"},
      {"terpene", "Terpene"},
      {"bacteriocin", "Bacteriocin or other unspecified RiPP"}};
  return all;
}
const std::vector<KeggClassDef>& kegg_class_defs() {
  static const std::vector<KeggClassDef> all = {
      {"09100", "Metabolism", nullptr},
      {"09101", "Carbohydrate metabolism", "09100"},
      {"09102", "Energy metabolism", "09100"},
      {"09120", "Genetic Information Processing", nullptr},
      {"09121", "Transcription", "09120"}};
  return all;
}
const std::vector<const char*>& genome_set_names() {
  static const std::vector<const char*> all = {"EBI", "NCBI", "IMG", "PATRIC"};
  return all;
}
const std::vector<ToolDef>& tool_defs() {
  static const std::vector<ToolDef> all = {
      {"Trimmomatic", "0.35", "A flexible read trimming tool for Illumina NGS data.",
       "http://www.usadellab.org/cms/?page=trimmomatic", "4.1"},
      {"InterProScan", "5.25-64.0", "Protein sequence analysis and classification.",
       "https://www.ebi.ac.uk/interpro/", "4.1"},
      {"MAPseq", "1.2.3", "Highly efficient k-mer search with confidence estimates.",
       "https://github.com/jfmrod/MAPseq", "5.0"},
      {"InterProScan", "5.36-75.0", "Protein sequence analysis and classification.",
       "https://www.ebi.ac.uk/interpro/", "5.0"},
      {"antiSMASH", "4.1.0", "Secondary metabolite biosynthesis gene cluster detection.",
       "https://antismash.secondarymetabolites.org/", "5.0"}};
  return all;
}

// Per-genome counts: a pure function of genome and entry, zero for some.
std::int64_t genome_count_of(std::size_t g, std::size_t k) {
  return static_cast<std::int64_t>((g * 7 + k * 13) % 40);
}

J counted_json(const Ctx& ctx, const std::string& type, const std::string& id,
               const std::string& self_path, J attrs, std::optional<std::size_t> genome,
               std::size_t k) {
  if (genome) {
    attrs["genome-count"] = genome_count_of(*genome, k);
    attrs["pangenome-count"] = genome_count_of(*genome, k) + static_cast<std::int64_t>(k);
  }
  return J{{"type", type},
           {"id", id},
           {"attributes", std::move(attrs)},
           {"links", {{"self", ctx.url(self_path)}}}};
}
const std::vector<Vocabulary>& vocabularies() {
  static const std::vector<Vocabulary> all = {
      {&cog_categories, "cogs", "cog-cats", "cogs", "genome-cog-counts"},
      {&genome_kegg_module_defs, "kegg-modules", "kegg-modules", "kegg-module",
       "genome-kegg-module-counts"},
      {&antismash_cluster_defs, "antismash-geneclusters", "antismash-geneclusters",
       "antismash-genecluster", "genome-antismash-gene-cluster-counts"}};
  return all;
}
J named_json(const Ctx& ctx, const Vocabulary& v, std::size_t k,
             std::optional<std::size_t> genome) {
  const auto& e = v.entries()[k];
  return counted_json(ctx, genome ? v.genome_type : v.type, e.name,
                      std::string(v.path) + "/" + e.name,
                      J{{"name", e.name}, {"description", e.description}}, genome, k);
}
J kegg_class_json(const Ctx& ctx, std::size_t k, std::optional<std::size_t> genome) {
  const auto& c = kegg_class_defs()[k];
  return counted_json(
      ctx, genome ? "genome-kegg-class-counts" : "kegg-classes", c.id,
      std::string("kegg-classes/") + c.id,
      J{{"class-id", c.id}, {"name", c.name}, {"parent", c.parent ? J(c.parent) : J(nullptr)}},
      genome, k);
}
J genome_set_json(const Ctx& ctx, std::size_t k) {
  const std::string name = genome_set_names()[k];
  return J{{"type", "genome-sets"},
           {"id", name},
           {"attributes", {{"name", name}}},
           {"relationships", {{"genomes", rel_link(ctx.url("genomeset/" + name + "/genomes"))}}},
           {"links", {{"self", ctx.url("genomeset/" + name)}}}};
}
J pipeline_tool_json(const Ctx& ctx, std::size_t k) {
  const auto& t = tool_defs()[k];
  const std::string self = std::string("pipeline-tools/") + t.name + "/" + t.version;
  return J{{"type", "pipeline-tools"},
           {"id", std::string(t.name) + "/" + t.version},
           {"attributes",
            {{"tool-name", t.name},
             {"description", t.description},
             {"web-link", t.web_link},
             {"version", t.version},
             {"exe-command", std::string(t.name) + " --threads 8"},
             {"installation-dir", std::string("/opt/") + t.name},
             {"configuration-file", nullptr},
             {"notes", nullptr}}},
           {"relationships",
            {{"pipelines", rel_many(ctx.url(std::string("pipelines/") + t.pipeline),
                                    J::array({J{{"type", "pipelines"}, {"id", t.pipeline}}}))}}},
           {"links", {{"self", ctx.url(self)}}}};
}
std::string extra_annotation_alias(const std::string& owner_acc, std::size_t k) {
  return owner_acc + (k == 0 ? "_virify.gff" : "_mobilome.fasta");
}
std::string extra_annotation_text(const std::string& owner_acc, std::size_t k) {
  if (k == 0) {
    return "##gff-version 3\n" + owner_acc +
           "_1\tVIRify\tviral_sequence\t1\t5400\t.\t+\t.\tID=v1\n";
  }
  return ">" + owner_acc + "_mge_1\nACGTACGTTTGACCAGTACGGATCCA\n";
}
J extra_annotation_json(const Ctx& ctx, const std::string& owner_path, const std::string& owner_acc,
                        const std::string& type, std::size_t k) {
  const std::string alias = extra_annotation_alias(owner_acc, k);
  const std::string body = extra_annotation_text(owner_acc, k);
  J attrs{{"alias", alias},
          {"file-format",
           {{"name", k == 0 ? "GFF" : "FASTA"},
            {"extension", k == 0 ? "gff" : "fasta"},
            {"compression", false}}},
          {"description",
           {{"label", k == 0 ? "Viral annotation" : "Mobilome"},
            {"description", k == 0 ? "VIRify viral annotation" : "Mobile genetic elements"}}},
          {"group-type", "Functional analysis"},
          {"file-checksum", {{"checksum", ""}, {"checksum-algorithm", ""}}}};
  return J{{"type", type},
           {"id", alias},
           {"attributes", attrs},
           {"links", {{"self", ctx.url(owner_path + "/extra-annotations/" + alias)}}}};
}

// The shape of MGnify's Europe PMC helper: annotation groups under
// sample_processing and other, each with the mentions found in the text.
J europe_pmc_annotations_json(std::size_t p) {
  auto mention = [p](const std::string& exact, const std::string& type, const std::string& uri) {
    std::string lower = exact;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return J{{"exact", exact},
             {"icase_text", lower},
             {"id", nullptr},
             {"postfix", nullptr},
             {"prefix", nullptr},
             {"provider", "Metagenomics"},
             {"section", p % 2 == 0 ? J("METHODS") : J(nullptr)},
             {"tags", J::array({J{{"name", exact}, {"uri", uri}}})},
             {"type", type}};
  };
  auto group = [](const std::string& type, const std::string& title, const std::string& description,
                  J annotations) {
    return J{{"annotation_type", type},
             {"annotations", std::move(annotations)},
             {"description", description},
             {"title", title}};
  };
  J sample = group(
      "LS", "Library strategy", "Sequencing library strategy",
      J::array({J{
          {"annotation_text", "rna-seq"},
          {"mentions", J::array({mention("RNA-seq", "LS", "http://www.efo.org/EFO_0002770")})}}}));
  J other = group(
      "Gene", "Gene", "Target gene(s) (e.g. hypervariable regions of 16s/18s rRNA gene)",
      J::array(
          {J{{"annotation_text", "16s rrna"},
             {"mentions", J::array({mention("16S rRNA", "Gene",
                                            "http://purl.obolibrary.org/obo/SO_0001000")})}}}));
  return J{{"sample_processing", J::array({sample})}, {"other", J::array({other})}};
}

// The endpoints above, or nullopt for a path they do not serve (the other
// routers then answer it).
std::optional<J> smaller_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  const std::string& top = seg[0];
  const std::size_t n = seg.size();
  if (top == "studies" && n == 2 && seg[1] == "recent") {
    auto inc = parse_includes(ctx, {"biomes", "downloads", "samples"});
    const std::size_t count = 25;
    return page_envelope(
        ctx, count,
        [&](std::size_t k) { return study_json(ctx, d::kStudies - 1 - k, false, &inc); }, {}, &inc);
  }
  if (top == "biomes" && n == 2 && seg[1] == "top10") {
    no_include(ctx);
    std::vector<std::size_t> ids = iota(1, d::biomes().size());
    std::stable_sort(ids.begin(), ids.end(), [](std::size_t a, std::size_t b) {
      return biome_samples_count(a) > biome_samples_count(b);
    });
    ids.resize(std::min<std::size_t>(ids.size(), 10));
    J data = J::array();
    for (auto b : ids) data.push_back(biome_json(ctx, b));
    return J{{"data", data}};
  }
  if (top == "samples" && n == 3 && seg[2] == "metadata") {
    no_include(ctx);
    const std::size_t s = need(find_sample(seg[1]));
    const J metadata = sample_json(ctx, s, nullptr)["attributes"]["sample-metadata"];
    return page_envelope(ctx, metadata.size(), [&](std::size_t k) {
      const J& m = metadata[k];
      const std::string value =
          m["value"].is_string() ? m["value"].get<std::string>() : m["value"].dump();
      return J{{"type", "sample-anns"},
               {"id", m["key"].get<std::string>() + "/" + value},
               {"attributes", {{"key", m["key"]}, {"value", m["value"]}, {"unit", m["unit"]}}},
               {"relationships",
                {{"sample", rel_one("samples", d::sample_accession(s),
                                    ctx.url("samples/" + d::sample_accession(s)))}}}};
    });
  }
  if (top == "pipeline-tools") {
    no_include(ctx);
    if (n == 1) {
      return page_envelope(ctx, tool_defs().size(),
                           [&](std::size_t k) { return pipeline_tool_json(ctx, k); });
    }
    if (n == 3) {
      for (std::size_t k = 0; k < tool_defs().size(); ++k) {
        if (seg[1] == tool_defs()[k].name && seg[2] == tool_defs()[k].version) {
          return single(pipeline_tool_json(ctx, k), Includes{});
        }
      }
      not_found();
    }
    html_not_found();
  }
  if (top == "pipelines" && n == 3 && seg[2] == "tools") {
    no_include(ctx);
    need(find_name(d::pipelines(), seg[1]));
    std::vector<std::size_t> ids;
    for (std::size_t k = 0; k < tool_defs().size(); ++k) {
      if (seg[1] == tool_defs()[k].pipeline) ids.push_back(k);
    }
    return page_envelope(ctx, ids.size(),
                         [&](std::size_t k) { return pipeline_tool_json(ctx, ids[k]); });
  }
  if (top == "genomeset") {
    no_include(ctx);
    if (n == 1) {
      return page_envelope(ctx, genome_set_names().size(),
                           [&](std::size_t k) { return genome_set_json(ctx, k); });
    }
    const std::size_t set = need(find_name(genome_set_names(), seg[1]));
    if (n == 2) return single(genome_set_json(ctx, set), Includes{});
    if (n == 3 && seg[2] == "genomes") {
      std::vector<std::size_t> ids;
      for (std::size_t g = 0; g < d::kGenomes; ++g) {
        if (g % genome_set_names().size() == set) ids.push_back(g);
      }
      return page_envelope(ctx, ids.size(),
                           [&](std::size_t k) { return genome_json(ctx, ids[k]); });
    }
    html_not_found();
  }
  if (n == 1 && top == "kegg-classes") {
    return fixed_list(ctx, kegg_class_defs().size(),
                      [&](std::size_t k) { return kegg_class_json(ctx, k, std::nullopt); });
  }
  if (top == "genomes" && n == 3 && seg[2] == "kegg-class") {
    const std::size_t g = need(find_genome(seg[1]));
    return fixed_list(ctx, kegg_class_defs().size(),
                      [&](std::size_t k) { return kegg_class_json(ctx, k, g); });
  }
  for (const auto& v : vocabularies()) {
    std::optional<std::size_t> genome;
    if (top == "genomes" && n == 3 && seg[2] == v.genome_relation) {
      genome = need(find_genome(seg[1]));
    } else if (!(n == 1 && top == v.path)) {
      continue;
    }
    return fixed_list(ctx, v.entries().size(),
                      [&](std::size_t k) { return named_json(ctx, v, k, genome); });
  }
  if ((top == "runs" || top == "assemblies") && n == 3 && seg[2] == "extra-annotations") {
    const bool run = top == "runs";
    const std::size_t s = need(run ? find_run(seg[1]) : find_assembly(seg[1]));
    const std::string acc = run ? d::run_accession(s) : d::assembly_accession(s);
    return fixed_list(ctx, kExtraAnnotations, [&](std::size_t k) {
      return extra_annotation_json(ctx, top + "/" + acc, acc,
                                   run ? "run-extra-annotations" : "assembly-extra-annotations", k);
    });
  }
  if (top == "biomes" && n == 3 && seg[2] == "genome-catalogues") {
    const std::string lineage = d::biomes()[need(find_biome(seg[1]))].lineage;
    std::vector<std::size_t> ids;
    for (std::size_t c = 0; c < d::catalogues().size(); ++c) {
      if (d::in_subtree(d::biomes()[d::catalogues()[c].biome].lineage, lineage)) ids.push_back(c);
    }
    return fixed_list(ctx, ids.size(), [&](std::size_t k) { return catalogue_json(ctx, ids[k]); });
  }
  if (top == "super-studies" && n == 3 &&
      (seg[2] == "related-genome-catalogues" || seg[2] == "biomes")) {
    const std::size_t k = need(find_super_study(seg[1]));
    if (seg[2] == "biomes") {
      // The biomes of its flagship studies, each once.
      const auto& def = super_studies()[k];
      std::set<std::size_t> biomes;
      for (std::size_t i = def.flagship_begin; i < def.flagship_end; ++i)
        biomes.insert(d::study_biome(i));
      const std::vector<std::size_t> ids(biomes.begin(), biomes.end());
      return fixed_list(ctx, ids.size(), [&](std::size_t b) { return biome_json(ctx, ids[b]); });
    }
    return fixed_list(ctx, 1,
                      [&](std::size_t) { return catalogue_json(ctx, k % d::catalogues().size()); });
  }
  if (top == "annotations" && n == 4 && seg[1] == "organisms" && seg[3] == "analyses") {
    const std::size_t o = need(find_name(d::organisms(), seg[2]));
    std::vector<std::size_t> ids;
    for (std::size_t s = 0; s < d::kSamples && ids.size() < 40; ++s) {
      if ((o + s) % 3 != 0) ids.push_back(s);
    }
    return fixed_list(ctx, ids.size(),
                      [&](std::size_t k) { return analysis_json(ctx, ids[k], nullptr); });
  }
  if (top == "publications" && n == 3 && seg[2] == "europe_pmc_annotations") {
    no_include(ctx);
    return J{{"data", europe_pmc_annotations_json(need(find_publication(seg[1])))}};
  }
  return std::nullopt;
}

}  // namespace mgnify::mock::v1routes
