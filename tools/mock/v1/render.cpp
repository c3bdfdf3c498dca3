#include "render.hpp"

namespace mgnify::mock::v1routes {

std::string iso_minus_minutes(std::size_t minutes) {
  // 2023-06-30T23:59:00 minus `minutes`, kept within 2023 for simplicity of the arithmetic.
  const long total = 181L * 24 * 60 + 23 * 60 + 59 - static_cast<long>(minutes % (180L * 24 * 60));
  const long day_of_year = total / (24 * 60);
  const long hh = (total / 60) % 24;
  const long mm = total % 60;
  static const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  long month = 0, day = day_of_year;
  while (day >= month_days[month]) day -= month_days[month++];
  char buf[64];
  std::snprintf(buf, sizeof buf, "2023-%02ld-%02ldT%02ld:%02ld:%02ld", month + 1, day + 1, hh, mm,
                static_cast<long>(minutes % 60));
  return buf;
}
std::string date_of(std::size_t n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04zu-%02zu-%02zu", 2012 + n % 10, 1 + n % 12, 1 + n % 28);
  return buf;
}

std::size_t biome_samples_count(std::size_t b) {
  static const std::vector<std::size_t> counts = [] {
    std::vector<std::size_t> c(d::biomes().size(), 0);
    std::vector<std::size_t> per_leaf(d::biomes().size(), 0);
    for (std::size_t s = 0; s < d::kSamples; ++s) ++per_leaf[d::sample_biome(s)];
    for (std::size_t b2 = 0; b2 < c.size(); ++b2) {
      for (std::size_t leaf = 0; leaf < c.size(); ++leaf) {
        if (d::in_subtree(d::biomes()[leaf].lineage, d::biomes()[b2].lineage))
          c[b2] += per_leaf[leaf];
      }
    }
    return c;
  }();
  return counts[b];
}

J biome_json(const Ctx& ctx, std::size_t b) {
  const std::string lineage = d::biomes()[b].lineage;
  const std::string base = ctx.url(lineage_path(lineage));
  J attrs{{"samples-count", biome_samples_count(b)},
          {"biome-name", d::biomes()[b].name},
          {"lineage", lineage}};
  J rels{{"samples", rel_link(base + "/samples")},
         {"children", rel_link(base + "/children")},
         {"genomes", rel_link(base + "/genomes")},
         {"studies", rel_link(base + "/studies")}};
  return J{{"type", "biomes"},
           {"id", lineage},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

// Private studies (mydata) use indexes kStudies.. kStudies + kPrivateStudies.
std::string any_study_accession(std::size_t i) {
  return i < d::kStudies ? d::study_accession(i)
                         : d::fmt("MGYS%08llu", 90000001 + (i - d::kStudies));
}

J study_json(const Ctx& ctx, std::size_t i, bool detail, Includes* inc) {
  const std::string acc = any_study_accession(i);
  const std::string base = ctx.url("studies/" + acc);
  const std::size_t b = d::study_biome(i);
  const bool is_private = i >= d::kStudies;
  J attrs;
  attrs["samples-count"] = is_private ? 0 : d::study_sample_end(i) - d::study_sample_begin(i);
  attrs["accession"] = acc;
  attrs["bioproject"] = i % 10 == 9 ? J(nullptr) : J(d::fmt("PRJEB%llu", 40000 + i));
  attrs["is-private"] = is_private;
  attrs["secondary-accession"] = d::fmt("ERP%06llu", 100000 + i);
  attrs["centre-name"] = d::study_centre(i);
  attrs["public-release-date"] = nullptr;
  attrs["study-abstract"] = "Deterministic mock study " + std::to_string(i + 1) + " of " +
                            d::biomes()[b].lineage + " samples.";
  attrs["study-name"] =
      std::string("Mock ") + d::biomes()[b].name + " study " + std::to_string(i + 1);
  attrs["data-origination"] = i % 2 == 0 ? "SUBMITTED" : "HARVESTED";
  attrs["last-update"] = iso_minus_minutes(i);

  J rels;
  {
    J biomes = J::array(
        {ident(ctx, "biomes", d::biomes()[b].lineage, lineage_path(d::biomes()[b].lineage))});
    rels["biomes"] = rel_many(base + "/biomes", biomes);
    if (inc && inc->has("biomes")) inc->add(biome_json(ctx, b));
  }
  auto many = [&](const char* name, const std::function<void(J&)>& fill) {
    if (inc && inc->has(name)) {
      J data = J::array();
      fill(data);
      rels[name] = rel_many(base + "/" + name, data);
    } else {
      rels[name] = rel_link(base + "/" + name);
    }
  };
  many("publications", [&](J& data) {
    if (auto p = d::study_publication(i); p >= 0 && !is_private) {
      const auto pi = static_cast<std::size_t>(p);
      data.push_back(ident(ctx, "publications", std::to_string(25000000 + pi * 137),
                           "publications/" + std::to_string(25000000 + pi * 137)));
      inc->add(publication_json(ctx, pi));
    }
  });
  rels["geocoordinates"] = rel_link(base + "/geocoordinates");
  many("downloads", [&](J& data) {
    for (std::size_t k = 0; k < d::download_count(d::DownloadOwner::study) && !is_private; ++k) {
      J dl = download_json(ctx, "study", i, k);
      data.push_back(J{{"type", dl["type"]}, {"id", dl["id"]}, {"links", dl["links"]}});
      inc->add(std::move(dl));
    }
  });
  many("analyses", [&](J& data) {
    if (is_private) return;
    for (std::size_t s = d::study_sample_begin(i); s < d::study_sample_end(i); ++s) {
      data.push_back(ident(ctx, "analysis-jobs", d::analysis_accession(s),
                           "analyses/" + d::analysis_accession(s)));
      inc->add(analysis_json(ctx, s, nullptr));
    }
  });
  many("samples", [&](J& data) {
    if (is_private) return;
    for (std::size_t s = d::study_sample_begin(i); s < d::study_sample_end(i); ++s) {
      data.push_back(
          ident(ctx, "samples", d::sample_accession(s), "samples/" + d::sample_accession(s)));
      inc->add(sample_json(ctx, s, nullptr));
    }
  });
  if (detail) rels["studies"] = rel_many(base + "/studies", J::array());
  return J{{"type", "studies"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J sample_json(const Ctx& ctx, std::size_t s, Includes* inc) {
  const std::string acc = d::sample_accession(s);
  const std::string base = ctx.url("samples/" + acc);
  const std::size_t b = d::sample_biome(s);
  const std::string lineage = d::biomes()[b].lineage;
  const bool host = lineage.rfind("root:Host-associated", 0) == 0;
  char temp[32];
  std::snprintf(temp, sizeof temp, "%g", d::sample_temperature(s));
  char depth[32];
  std::snprintf(depth, sizeof depth, "%.2f", static_cast<double>(s % 50) / 4.0);
  J metadata = J::array({
      J{{"key", "investigation type"}, {"value", "metagenome"}, {"unit", nullptr}},
      J{{"key", "temperature"}, {"value", temp}, {"unit", "°C"}},
      J{{"key", "depth"}, {"value", depth}, {"unit", "m"}},
      J{{"key", "geographic location (country and/or sea,region)"},
        {"value", s % 3 == 0 ? "Atlantic Ocean" : "United Kingdom"},
        {"unit", nullptr}},
      J{{"key", "instrument model"}, {"value", "Illumina HiSeq 2500"}, {"unit", nullptr}},
  });
  // As real submitters do, some samples carry a key the others lack.
  if (s % 7 == 3)
    metadata.push_back(J{{"key", "host body site"}, {"value", "gut"}, {"unit", nullptr}});
  J attrs;
  attrs["sample-metadata"] = metadata;
  attrs["longitude"] =
      std::round((-170.0 + static_cast<double>((s * 53) % 3400) / 10.0) * 1e4) / 1e4;
  attrs["biosample"] = d::fmt("SAMEA%07llu", 2000000 + s);
  attrs["latitude"] = std::round((-60.0 + static_cast<double>((s * 37) % 1200) / 10.0) * 1e4) / 1e4;
  attrs["accession"] = acc;
  attrs["analysis-completed"] = date_of(s + 3);
  attrs["collection-date"] = date_of(s);
  attrs["geo-loc-name"] =
      s % 5 == 4 ? J(nullptr) : J(s % 3 == 0 ? "Atlantic Ocean" : "United Kingdom");
  attrs["sample-desc"] = "Mock sample " + std::to_string(s + 1);
  attrs["environment-biome"] = d::biomes()[b].name;
  attrs["environment-feature"] = s % 2 ? "sea water" : "sediment";
  attrs["environment-material"] = s % 2 ? "water" : "soil";
  attrs["sample-name"] = "S" + std::to_string(s + 1);
  attrs["sample-alias"] = "alias-" + std::to_string(s + 1);
  attrs["host-tax-id"] = host ? J(9606) : J(nullptr);
  attrs["species"] = host ? J("human gut metagenome") : J(nullptr);
  attrs["last-update"] = iso_minus_minutes(s);

  const std::size_t st = d::sample_study(s);
  J rels;
  rels["studies"] =
      rel_many(base + "/studies", J::array({ident(ctx, "studies", d::study_accession(st),
                                                  "studies/" + d::study_accession(st))}));
  if (inc && inc->has("runs")) {
    rels["runs"] = rel_many(
        base + "/runs",
        J::array({ident(ctx, "runs", d::run_accession(s), "runs/" + d::run_accession(s))}));
    inc->add(run_json(ctx, s, nullptr));
  } else {
    rels["runs"] = rel_link(base + "/runs");
  }
  rels["biome"] = rel_one("biomes", lineage, ctx.url(lineage_path(lineage)));
  if (inc && inc->has("biome")) inc->add(biome_json(ctx, b));
  return J{{"type", "samples"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J run_json(const Ctx& ctx, std::size_t s, Includes* inc) {
  const std::string acc = d::run_accession(s);
  const std::string base = ctx.url("runs/" + acc);
  J attrs{{"experiment-type", d::experiment_type_of(s)},
          {"accession", acc},
          {"secondary-accession", d::fmt("SRR%07llu", 5000000 + s)},
          {"instrument-platform", "ILLUMINA"},
          {"instrument-model", "Illumina HiSeq 2500"},
          {"ena-study-accession", d::fmt("PRJEB%llu", 40000 + d::sample_study(s))},
          {"is-private", false}};
  J rels;
  const std::size_t st = d::sample_study(s);
  rels["study"] =
      rel_one("studies", d::study_accession(st), ctx.url("studies/" + d::study_accession(st)));
  rels["sample"] =
      rel_one("samples", d::sample_accession(s), ctx.url("samples/" + d::sample_accession(s)));
  if (inc && inc->has("sample")) inc->add(sample_json(ctx, s, nullptr));
  J assemblies = J::array();
  if (d::has_assembly(s)) {
    assemblies.push_back(ident(ctx, "assemblies", d::assembly_accession(s),
                               "assemblies/" + d::assembly_accession(s)));
    if (inc && inc->has("assemblies")) inc->add(assembly_json(ctx, s, nullptr));
  }
  rels["assemblies"] = rel_many(base + "/assemblies", assemblies);
  rels["pipelines"] =
      J{{"data", J::array({ident(ctx, "pipelines", d::analysis_pipeline(s),
                                 std::string("pipelines/") + d::analysis_pipeline(s))})}};
  rels["analyses"] = rel_link(base + "/analyses");
  rels["extra-annotations"] = rel_link(base + "/extra-annotations");
  return J{{"type", "runs"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J assembly_json(const Ctx& ctx, std::size_t s, Includes* inc) {
  const std::string acc = d::assembly_accession(s);
  const std::string base = ctx.url("assemblies/" + acc);
  J attrs{{"experiment-type", "assembly"},
          {"accession", acc},
          {"wgs-accession", d::fmt("OBJK%02llu", s % 100)},
          {"legacy-accession", s % 8 == 3 ? J(d::fmt("GCA_%09llu", 900000000 + s)) : J(nullptr)},
          {"coverage", static_cast<double>(s % 90) + 0.5},
          {"min-gap-length", s % 3 == 0 ? J(nullptr) : J(10 + s % 5)},
          {"is-private", false}};
  J rels;
  J runs = J::array({ident(ctx, "runs", d::run_accession(s), "runs/" + d::run_accession(s))});
  if (inc && inc->has("runs")) inc->add(run_json(ctx, s, nullptr));
  rels["runs"] = rel_many(base + "/runs", runs);
  rels["samples"] =
      rel_many(base + "/samples", J::array({ident(ctx, "samples", d::sample_accession(s),
                                                  "samples/" + d::sample_accession(s))}));
  rels["analyses"] = rel_link(base + "/analyses");
  rels["pipelines"] =
      J{{"data", J::array({ident(ctx, "pipelines", d::analysis_pipeline(s),
                                 std::string("pipelines/") + d::analysis_pipeline(s))})}};
  rels["extra-annotations"] = rel_link(base + "/extra-annotations");
  return J{{"type", "assemblies"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J analysis_json(const Ctx& ctx, std::size_t s, Includes* inc) {
  const std::string acc = d::analysis_accession(s);
  const std::string base = ctx.url("analyses/" + acc);
  J summary = J::array(
      {J{{"key", "Submitted nucleotide sequences"}, {"value", std::to_string(100000 + s * 7)}},
       J{{"key", "Predicted CDS"}, {"value", std::to_string(50000 + s * 3)}},
       J{{"key", "Contigs"}, {"value", std::to_string(d::analysis_contigs(s))}}});
  J attrs{{"analysis-summary", summary},
          {"pipeline-version", d::analysis_pipeline(s)},
          {"analysis-status", s % 50 == 49 ? "QC not passed" : "completed"},
          {"accession", acc},
          {"experiment-type", d::experiment_type_of(s)},
          {"complete-time", iso_minus_minutes(s * 3)},
          {"instrument-platform", "ILLUMINA"},
          {"instrument-model", "Illumina HiSeq 2500"},
          {"is-private", false},
          {"last-update", iso_minus_minutes(s * 2)},
          {"mgx-accession", s % 7 == 0 ? J(d::fmt("MGX%07llu", s + 1)) : J(nullptr)}};
  J rels;
  const std::size_t st = d::sample_study(s);
  rels["sample"] =
      rel_one("samples", d::sample_accession(s), ctx.url("samples/" + d::sample_accession(s)));
  if (inc && inc->has("sample")) inc->add(sample_json(ctx, s, nullptr));
  rels["study"] =
      rel_one("studies", d::study_accession(st), ctx.url("studies/" + d::study_accession(st)));
  if (d::has_assembly(s)) {
    rels["run"] = rel_null();
    rels["assembly"] = rel_one("assemblies", d::assembly_accession(s),
                               ctx.url("assemblies/" + d::assembly_accession(s)));
    if (inc && inc->has("assembly")) inc->add(assembly_json(ctx, s, nullptr));
  } else {
    rels["run"] = rel_one("runs", d::run_accession(s), ctx.url("runs/" + d::run_accession(s)));
    rels["assembly"] = rel_null();
  }
  if (inc && inc->has("downloads")) {
    J data = J::array();
    for (std::size_t k = 0; k < d::download_count(d::DownloadOwner::analysis); ++k) {
      J dl = download_json(ctx, "analysis", s, k);
      data.push_back(J{{"type", dl["type"]}, {"id", dl["id"]}, {"links", dl["links"]}});
      inc->add(std::move(dl));
    }
    rels["downloads"] = rel_many(base + "/downloads", data);
  } else {
    rels["downloads"] = rel_link(base + "/downloads");
  }
  for (const char* name : {"taxonomy", "taxonomy-lsu", "taxonomy-ssu", "taxonomy-itsonedb",
                           "taxonomy-itsunite", "go-terms", "go-slim", "interpro-identifiers",
                           "antismash-gene-clusters", "genome-properties"}) {
    std::string path = name;
    if (path.rfind("taxonomy-", 0) == 0) path = "taxonomy/" + path.substr(9);
    if (path == "taxonomy/itsunite") path = "taxonomy/unite";
    rels[name] = rel_link(base + "/" + path);
  }
  return J{{"type", "analysis-jobs"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J download_json(const Ctx& ctx, const std::string& owner_kind, std::size_t owner, std::size_t k) {
  // The file itself (alias, digest) comes from downloads.cpp, which also serves it at `self`.
  std::string type, self;
  d::DownloadFile f;
  if (owner_kind == "study") {
    type = "study-downloads";
    f = d::download_file(d::DownloadOwner::study, owner, k);
    self = ctx.url("studies/" + d::study_accession(owner) + "/pipelines/" + f.pipeline + "/file/" +
                   f.alias);
  } else if (owner_kind == "analysis") {
    type = "analysis-job-downloads";
    f = d::download_file(d::DownloadOwner::analysis, owner, k);
    self = ctx.url("analyses/" + d::analysis_accession(owner) + "/file/" + f.alias);
  } else if (owner_kind == "genome") {
    type = "genome-downloads";
    f = d::download_file(d::DownloadOwner::genome, owner, k);
    self = ctx.url("genomes/" + d::genome_accession(owner) + "/downloads/" + f.alias);
  } else {
    type = "genome-catalogue-downloads";
    f = d::download_file(d::DownloadOwner::catalogue, owner, k);
    self = ctx.url(std::string("genome-catalogues/") + d::catalogues()[owner].id + "/downloads/" +
                   f.alias);
  }
  J attrs{
      {"alias", f.alias},
      {"file-format",
       {{"name", f.format},
        {"extension", f.extension},
        {"compression", std::string(f.extension).find(".gz") != std::string::npos}}},
      {"description",
       {{"label", f.label}, {"description", std::string(f.label) + " (" + f.format + ")"}}},
      {"group-type", f.group},
      {"file-checksum", {{"checksum", f.checksum}, {"checksum-algorithm", f.checksum_algorithm}}}};
  J out{{"type", type}, {"id", f.alias}, {"attributes", attrs}};
  if (!f.pipeline.empty()) {
    out["relationships"] = {
        {"pipeline", rel_one("pipelines", f.pipeline, ctx.url("pipelines/" + f.pipeline))}};
  }
  out["links"] = {{"self", self}};
  return out;
}

J publication_json(const Ctx& ctx, std::size_t p) {
  const std::string id = std::to_string(25000000 + p * 137);
  const std::string base = ctx.url("publications/" + id);
  std::size_t studies = 0;
  for (std::size_t i = 0; i < d::kStudies; ++i)
    studies += d::study_publication(i) == static_cast<std::int64_t>(p);
  J attrs{{"pubmed-id", 25000000 + p * 137},
          {"pubmed-central-id", p % 3 == 0 ? J(nullptr) : J(d::fmt("PMC%07llu", 4000000 + p))},
          {"pub-title", "Mock publication " + std::to_string(p + 1)},
          {"pub-abstract", "An abstract about mock metagenomes."},
          {"authors", "Doe J, Roe R"},
          {"doi", d::fmt("10.1000/mock.%llu", p + 1)},
          {"isbn", nullptr},
          {"published-year", 2010 + p % 14},
          {"pub-type", "journal article"},
          {"issue", std::to_string(1 + p % 12)},
          {"volume", std::to_string(10 + p % 30)},
          {"raw-pages", "1-10"},
          {"iso-journal", "Mock J"},
          {"medline-journal", "Mock journal"},
          {"pub-url", nullptr},
          {"studies-count", studies},
          {"samples-count", 0}};
  J rels{{"studies", rel_link(base + "/studies")}, {"samples", rel_link(base + "/samples")}};
  return J{{"type", "publications"},
           {"id", id},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J experiment_type_json(const Ctx& ctx, std::size_t e) {
  const std::string name = d::experiment_types()[e];
  const std::string base = ctx.url("experiment-types/" + name);
  std::size_t count = 0;
  for (std::size_t s = 0; s < 4; ++s) count += name == d::experiment_type_of(s);
  count *= d::kSamples / 4;
  J attrs{{"experiment-type", name}, {"samples-count", count}, {"runs-count", count}};
  J rels{{"samples", rel_link(base + "/samples")},
         {"runs", rel_link(base + "/runs")},
         {"analyses", rel_link(base + "/analyses")}};
  return J{{"type", "experiment-types"},
           {"id", name},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J pipeline_json(const Ctx& ctx, std::size_t p) {
  const std::string v = d::pipelines()[p];
  const std::string base = ctx.url("pipelines/" + v);
  const bool used = v == "4.1" || v == "5.0";
  J attrs{{"description", "MGnify analysis pipeline " + v},
          {"changes", "Mock changes for " + v},
          {"release-version", v},
          {"release-date", date_of(p * 5)},
          {"samples-count", used ? d::kSamples / 2 : 0},
          {"analyses-count", used ? d::kSamples / 2 : 0}};
  J rels{{"samples", rel_link(base + "/samples")},
         {"analyses", rel_link(base + "/analyses")},
         {"tools", J{{"data", J::array()}}}};
  return J{{"type", "pipelines"},
           {"id", v},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J catalogue_json(const Ctx& ctx, std::size_t c) {
  const auto& cat = d::catalogues()[c];
  const std::string base = ctx.url(std::string("genome-catalogues/") + cat.id);
  J attrs{{"catalogue-id", cat.id},
          {"version", "v2.0"},
          {"name", cat.name},
          {"description", std::string("Mock catalogue of ") + cat.name + " genomes"},
          {"protein-catalogue-name", nullptr},
          {"protein-catalogue-description", nullptr},
          {"catalogue-biome-label", d::biomes()[cat.biome].name},
          {"catalogue-type", "prokaryotes"},
          {"genome-count", d::kGenomesPerCatalogue},
          {"unclustered-genome-count", d::kGenomesPerCatalogue * 3},
          {"last-update", iso_minus_minutes(c * 1000)}};
  J rels{{"genomes", rel_link(base + "/genomes")},
         {"downloads", rel_link(base + "/downloads")},
         {"biome", rel_one("biomes", d::biomes()[cat.biome].lineage,
                           ctx.url(lineage_path(d::biomes()[cat.biome].lineage)))}};
  return J{{"type", "genome-catalogues"},
           {"id", cat.id},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J genome_json(const Ctx& ctx, std::size_t g) {
  const std::string acc = d::genome_accession(g);
  const std::string base = ctx.url("genomes/" + acc);
  const std::size_t c = g / d::kGenomesPerCatalogue;
  J attrs{{"accession", acc},
          {"ena-genome-accession", d::fmt("ERZ%07llu", 6000000 + g)},
          {"ena-sample-accession", d::fmt("ERS%07llu", 7000000 + g)},
          {"ena-study-accession", "ERP108418"},
          {"ncbi-genome-accession", nullptr},
          {"ncbi-sample-accession", nullptr},
          {"ncbi-study-accession", nullptr},
          {"img-genome-accession", nullptr},
          {"patric-genome-accession", nullptr},
          {"length", 2000000 + g * 1013},
          {"num-contigs", 20 + g % 300},
          {"n-50", 10000 + g * 17},
          {"gc-content", 30.0 + static_cast<double>(g % 400) / 10.0},
          {"type", g % 5 == 0 ? "Isolate" : "MAG"},
          {"completeness", 90.0 + static_cast<double>(g % 100) / 10.0},
          {"contamination", static_cast<double>(g % 50) / 10.0},
          {"rna-5s", 88.2},
          {"rna-16s", g % 3 == 0 ? 0.0 : 99.5},
          {"rna-23s", 97.1},
          {"rna-5-8s", 0.0},
          {"rna-18s", 0.0},
          {"rna-28s", 0.0},
          {"trnas", 18 + g % 3},
          {"nc-rnas", 40 + g % 20},
          {"num-proteins", 1800 + g * 3},
          {"eggnog-coverage", 92.5},
          {"ipr-coverage", 85.25},
          {"taxon-lineage",
           "d__Bacteria;p__Firmicutes_A;c__Clostridia;o__Lachnospirales;f__Lachnospiraceae"},
          {"num-genomes-total", 1 + g % 40},
          {"num-genomes-non-redundant", 1 + g % 20},
          {"pangenome-size", g % 4 == 0 ? J(nullptr) : J(3000 + g)},
          {"pangenome-core-size", g % 4 == 0 ? J(nullptr) : J(1500 + g)},
          {"pangenome-accessory-size", g % 4 == 0 ? J(nullptr) : J(1500)},
          {"geographic-origin", g % 2 ? "Europe" : "Asia"},
          {"geographic-range", J::array({"Europe", "Asia"})},
          {"last-update", iso_minus_minutes(g * 11)},
          {"first-created", iso_minus_minutes(g * 13 + 5000)}};
  J rels{{"downloads", rel_link(base + "/downloads")},
         {"catalogue", rel_one("genome-catalogues", d::catalogues()[c].id,
                               ctx.url(std::string("genome-catalogues/") + d::catalogues()[c].id))},
         {"biome", rel_one("biomes", d::biomes()[d::catalogues()[c].biome].lineage,
                           ctx.url(lineage_path(d::biomes()[d::catalogues()[c].biome].lineage)))}};
  return J{{"type", "genomes"},
           {"id", acc},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}
const std::vector<SuperStudyDef>& super_studies() {
  static const std::vector<SuperStudyDef> all = {
      {"atlanteco", "AtlantECO", 0, 10, 10, 40},
      {"human-gut", "Human gut microbiome", 40, 45, 45, 60},
  };
  return all;
}

J super_study_json(const Ctx& ctx, std::size_t k) {
  const auto& def = super_studies()[k];
  const std::string base = ctx.url(std::string("super-studies/") + def.slug);
  J attrs{{"super-study-id", k + 1},
          {"title", def.title},
          {"url-slug", def.slug},
          {"description", std::string("Mock super study ") + def.title},
          {"image-url", nullptr}};
  J rels{{"flagship-studies", rel_link(base + "/flagship-studies")},
         {"related-studies", rel_link(base + "/related-studies")},
         {"biomes", rel_link(base + "/biomes")}};
  return J{{"type", "super-studies"},
           {"id", def.slug},
           {"attributes", attrs},
           {"relationships", rels},
           {"links", {{"self", base}}}};
}

J annotation_json(const Ctx& ctx, const d::AnnDef& def, std::size_t k,
                  std::optional<std::size_t> analysis) {
  const std::string acc = d::annotation_accession(def.kind, k);
  J attrs{{"accession", acc},
          {"description", std::string("Mock ") + def.type + " entry " + std::to_string(k + 1)}};
  if (def.kind == d::AnnKind::go) {
    static const char* const ns[] = {"biological_process", "molecular_function",
                                     "cellular_component"};
    attrs["lineage"] = ns[k % 3];
  }
  if (def.kind == d::AnnKind::kegg_module) attrs["name"] = "Module " + std::to_string(k + 1);
  if (analysis) {
    if (def.kind == d::AnnKind::kegg_module) {
      attrs["completeness"] = static_cast<double>((*analysis + k) % 5) * 25.0;
      attrs["matching-kos"] = J::array({d::annotation_accession(d::AnnKind::kegg_ortholog, k)});
      attrs["missing-kos"] =
          (*analysis + k) % 5 == 4
              ? J::array()
              : J::array({d::annotation_accession(d::AnnKind::kegg_ortholog, k + 1)});
    } else if (def.kind == d::AnnKind::genome_property) {
      static const char* const presence[] = {"Yes", "Partial", "No"};
      attrs["presence"] = presence[(*analysis + k) % 3];
    } else {
      attrs["count"] = (*analysis * 31 + k * 17) % 1000 + 1;
    }
  }
  return J{{"type", def.type},
           {"id", acc},
           {"attributes", attrs},
           {"links", {{"self", ctx.url(std::string("annotations/") + def.path + "/" + acc)}}}};
}

J organism_json(const Ctx& ctx, std::size_t o, std::optional<std::size_t> analysis,
                const char* pipeline) {
  const std::string lineage = d::organisms()[o];
  J hierarchy = J::object();
  static const char* const ranks[] = {"kingdom", "phylum", "class", "order"};
  std::size_t start = 0, level = 0;
  std::string parent;
  std::string name;
  while (true) {
    const auto colon = lineage.find(':', start);
    name = lineage.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    hierarchy[ranks[std::min<std::size_t>(level, 3)]] = name;
    if (colon == std::string::npos) break;
    parent = name;
    start = colon + 1;
    ++level;
  }
  J attrs{{"lineage", lineage},
          {"hierarchy", hierarchy},
          {"domain", lineage.substr(0, lineage.find(':'))},
          {"name", name},
          {"parent", parent.empty() ? J(nullptr) : J(parent)},
          {"rank", ranks[std::min<std::size_t>(level, 3)]},
          {"pipeline-version", pipeline}};
  if (analysis) attrs["count"] = (*analysis * 13 + o * 29) % 500 + 1;
  // The real service double-encodes these links (':' -> %253A); following them still works.
  std::string encoded;
  for (char c : lineage) encoded += c == ':' ? std::string("%253A") : std::string(1, c);
  return J{{"type", "organisms"},
           {"id", lineage},
           {"attributes", attrs},
           {"links", {{"self", ctx.url("annotations/organisms/" + encoded)}}}};
}

// Contigs: a 24-hex-digit position (like a Mongo ObjectId) orders them.
std::string contig_position(std::size_t analysis, std::size_t c) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "6152054c%08zx%08zx", analysis, c);
  return buf;
}
J contig_json(std::size_t s, std::size_t c) {
  const std::string contig_id = d::run_accession(s) + ".1-contig-" + std::to_string(c + 1);
  J attrs{{"contig-id", contig_id},
          {"length", 500 + (c * 7919) % 40000},
          {"coverage", static_cast<double>((c * 31) % 200) / 4.0},
          {"analysis-id", std::to_string(s + 1)},
          {"accession", d::analysis_accession(s)},
          {"pipeline-version", d::analysis_pipeline(s)},
          {"job-id", s + 1},
          {"has-cog", c % 2 == 0},
          {"has-kegg", c % 3 == 0},
          {"has-go", c % 2 == 1},
          {"has-pfam", c % 5 != 0},
          {"has-interpro", c % 4 != 1},
          {"has-antismash", c % 11 == 0},
          {"has-kegg-module", c % 13 == 0}};
  return J{{"type", "analysis-job-contigs"}, {"id", contig_id}, {"attributes", attrs}};
}

}  // namespace mgnify::mock::v1routes
