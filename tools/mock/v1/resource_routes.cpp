#include "resource_routes.hpp"

namespace mgnify::mock::v1routes {

J root_doc(const Ctx& ctx) {
  J data = J::object();
  for (const char* name : {"biomes",
                           "studies",
                           "super-studies",
                           "samples",
                           "runs",
                           "analyses",
                           "assemblies",
                           "pipelines",
                           "experiment-types",
                           "publications",
                           "pipeline-tools",
                           "genome-search",
                           "genomes-search/gather",
                           "annotations/go-terms",
                           "annotations/interpro-identifiers",
                           "annotations/antismash-gene-clusters",
                           "annotations/genome-properties",
                           "annotations/kegg-modules",
                           "annotations/kegg-orthologs",
                           "annotations/pfam-entries",
                           "annotations/organisms",
                           "antismash-geneclusters",
                           "mydata",
                           "genomes",
                           "cogs",
                           "genomeset",
                           "kegg-classes",
                           "kegg-modules",
                           "genome-catalogues"}) {
    data[name] = ctx.url(name);
  }
  return J{{"data", data}};
}

J studies_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"biomes", "downloads", "samples"});
    auto ids = filter_studies(ctx, iota(0, d::kStudies));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return study_json(ctx, ids[k], false, &inc); }, {},
        &inc);
  }
  const std::size_t i = need(find_study(seg[1], ctx.authenticated));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"publications", "samples", "analyses", "biomes", "downloads"});
    return single(study_json(ctx, i, true, &inc), inc);
  }
  if (seg.size() != 3) html_not_found();
  const std::string& rel = seg[2];
  const bool priv = i >= d::kStudies;
  if (rel == "samples") {
    auto inc = parse_includes(ctx, {"biome", "runs"});
    auto ids = filter_samples(ctx, priv ? std::vector<std::size_t>{}
                                        : iota(d::study_sample_begin(i), d::study_sample_end(i)));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return sample_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  if (rel == "analyses") {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    auto ids = filter_runs_like(
        ctx,
        priv ? std::vector<std::size_t>{} : iota(d::study_sample_begin(i), d::study_sample_end(i)),
        true);
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return analysis_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  no_include(ctx);
  if (rel == "downloads") {
    return page_envelope(ctx, priv ? 0 : d::download_count(d::DownloadOwner::study),
                         [&](std::size_t k) { return download_json(ctx, "study", i, k); });
  }
  if (rel == "biomes") {
    return page_envelope(ctx, 1, [&](std::size_t) { return biome_json(ctx, d::study_biome(i)); });
  }
  if (rel == "studies") return page_envelope(ctx, 0, [&](std::size_t) { return J(); });
  if (rel == "publications") {
    const auto p = d::study_publication(i);
    return page_envelope(ctx, p >= 0 && !priv ? 1 : 0, [&](std::size_t) {
      return publication_json(ctx, static_cast<std::size_t>(p));
    });
  }
  if (rel == "geocoordinates") {
    const std::size_t b = priv ? 0 : d::study_sample_begin(i);
    const std::size_t n = priv ? 0 : std::min<std::size_t>(d::study_sample_end(i) - b, 5);
    return page_envelope(ctx, n, [&](std::size_t k) {
      J s = sample_json(ctx, b + k, nullptr);
      const std::string id =
          s["attributes"]["latitude"].dump() + "," + s["attributes"]["longitude"].dump();
      return J{{"type", "sample-geographies"},
               {"id", id},
               {"attributes",
                {{"longitude", s["attributes"]["longitude"]},
                 {"latitude", s["attributes"]["latitude"]},
                 {"samples-count", 1}}}};
    });
  }
  html_not_found();
}

J samples_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"biome", "runs"});
    auto ids = filter_samples(ctx, iota(0, d::kSamples));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return sample_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  const std::size_t s = need(find_sample(seg[1]));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"biome", "runs"});
    return single(sample_json(ctx, s, &inc), inc);
  }
  if (seg.size() != 3) html_not_found();
  if (seg[2] == "runs") {
    auto inc = parse_includes(ctx, {"sample", "assemblies"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return run_json(ctx, s, &inc); }, {}, &inc);
  }
  if (seg[2] == "studies") {
    auto inc = parse_includes(ctx, {"biomes", "downloads", "samples"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return study_json(ctx, d::sample_study(s), false, &inc); }, {},
        &inc);
  }
  html_not_found();
}

J runs_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"sample", "assemblies"});
    auto ids = filter_runs_like(ctx, iota(0, d::kSamples), false);
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return run_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  const std::size_t s = need(find_run(seg[1]));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"sample", "assemblies"});
    return single(run_json(ctx, s, &inc), inc);
  }
  if (seg.size() != 3) html_not_found();
  if (seg[2] == "analyses") {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return analysis_json(ctx, s, &inc); }, {}, &inc);
  }
  if (seg[2] == "assemblies") {
    auto inc = parse_includes(ctx, {"runs"});
    return page_envelope(
        ctx, d::has_assembly(s) ? 1 : 0, [&](std::size_t) { return assembly_json(ctx, s, &inc); },
        {}, &inc);
  }
  html_not_found();
}

J assemblies_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"runs"});
    std::vector<std::size_t> base;
    for (std::size_t s = 3; s < d::kSamples; s += 4) base.push_back(s);
    auto ids = filter_runs_like(ctx, base, false);
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return assembly_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  const std::size_t s = need(find_assembly(seg[1]));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"runs"});
    return single(assembly_json(ctx, s, &inc), inc);
  }
  if (seg.size() != 3) html_not_found();
  if (seg[2] == "analyses") {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return analysis_json(ctx, s, &inc); }, {}, &inc);
  }
  if (seg[2] == "runs") {
    auto inc = parse_includes(ctx, {"sample", "assemblies"});
    return page_envelope(
        ctx, 1, [&](std::size_t) { return run_json(ctx, s, &inc); }, {}, &inc);
  }
  html_not_found();
}

J analyses_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    auto ids = filter_runs_like(ctx, iota(0, d::kSamples), true);
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return analysis_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  const std::size_t s = need(find_analysis(seg[1]));
  if (seg.size() == 2) {
    auto inc = parse_includes(ctx, {"sample", "downloads", "assembly"});
    return single(analysis_json(ctx, s, &inc), inc);
  }
  const std::string& rel = seg[2];
  if (seg.size() == 3 && rel == "contigs") {
    no_include(ctx);
    std::vector<std::string> positions;
    std::vector<std::size_t> contigs;
    auto gt = ctx.param("gt");
    auto lt = ctx.param("lt");
    for (std::size_t c = 0; c < d::analysis_contigs(s); ++c) {
      const long length = static_cast<long>(500 + (c * 7919) % 40000);
      if (gt && length < std::atol(gt->c_str())) continue;
      if (lt && length > std::atol(lt->c_str())) continue;
      positions.push_back(contig_position(s, c));
      contigs.push_back(c);
    }
    return cursor_envelope(ctx, positions,
                           [&](std::size_t k) { return contig_json(s, contigs[k]); });
  }
  if (seg.size() == 3 && rel == "downloads") {
    no_include(ctx);
    return page_envelope(ctx, d::download_count(d::DownloadOwner::analysis),
                         [&](std::size_t k) { return download_json(ctx, "analysis", s, k); });
  }
  const PageRules max_set{1000, 1000};
  if (rel == "taxonomy") {
    no_include(ctx);
    std::string kind = seg.size() == 4 ? seg[3] : "";
    if (seg.size() > 4 || (seg.size() == 4 && kind != "ssu" && kind != "lsu" &&
                           kind != "itsonedb" && kind != "unite")) {
      html_not_found();
    }
    std::vector<std::size_t> ids;
    // Pipeline 4+ analyses have an empty legacy list, as on the real service.
    if (!kind.empty()) {
      for (std::size_t o = 0; o < d::organisms().size(); ++o) {
        if ((o + s + kind.size()) % 3 != 0) ids.push_back(o);
      }
    }
    return page_envelope(
        ctx, ids.size(),
        [&](std::size_t k) { return organism_json(ctx, ids[k], s, d::analysis_pipeline(s)); },
        max_set);
  }
  if (seg.size() != 3) html_not_found();
  const d::AnnDef* def = rel == "go-slim" ? &d::annotation_kinds()[0] : find_ann_kind(rel);
  if (!def) html_not_found();
  no_include(ctx);
  std::vector<std::size_t> ids;
  for (std::size_t k = 0; k < def->count; ++k) {
    if (rel == "go-slim" ? k % 4 == s % 4 : d::analysis_has_annotation(s, k)) ids.push_back(k);
  }
  return page_envelope(
      ctx, ids.size(), [&](std::size_t k) { return annotation_json(ctx, *def, ids[k], s); },
      max_set);
}

J biomes_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  if (seg.size() == 1) {
    // /biomes validates its parameters strictly, unlike every other list.
    static const std::set<std::string> allowed = {"format",   "sort", "include",  "search",
                                                  "ordering", "page", "page_size"};
    for (const auto& [k, v] : ctx.query) {
      if (!allowed.count(k) && k.rfind("filter[", 0) != 0 && k.rfind("fields[", 0) != 0 &&
          k.rfind("page[", 0) != 0) {
        bad_request("invalid query parameter: " + k, "invalid");
      }
    }
    no_include(ctx);
    std::vector<std::size_t> ids;
    auto depth = ctx.param("filter[depth]");
    auto lineage = ctx.param("filter[lineage]");
    for (std::size_t b = 1; b < d::biomes().size(); ++b) {
      if (depth && std::to_string(d::biome_depth(d::biomes()[b].lineage)) != *depth) continue;
      if (lineage && *lineage != d::biomes()[b].lineage) continue;
      ids.push_back(b);
    }
    return page_envelope(ctx, ids.size(), [&](std::size_t k) { return biome_json(ctx, ids[k]); });
  }
  const std::size_t b = need(find_biome(seg[1]));
  const std::string lineage = d::biomes()[b].lineage;
  if (seg.size() == 2) {
    no_include(ctx);
    return single(biome_json(ctx, b), Includes{});
  }
  if (seg.size() != 3) html_not_found();
  const std::string& rel = seg[2];
  if (rel == "children") {
    no_include(ctx);
    std::vector<std::size_t> ids;
    for (std::size_t c = 0; c < d::biomes().size(); ++c) {
      if (d::in_subtree(d::biomes()[c].lineage, lineage)) ids.push_back(c);
    }
    return page_envelope(ctx, ids.size(), [&](std::size_t k) { return biome_json(ctx, ids[k]); });
  }
  if (rel == "samples") {
    auto inc = parse_includes(ctx, {"biome", "runs"});
    std::vector<std::size_t> base;
    for (std::size_t s = 0; s < d::kSamples; ++s) {
      if (d::in_subtree(d::biomes()[d::sample_biome(s)].lineage, lineage)) base.push_back(s);
    }
    auto ids = filter_samples(ctx, std::move(base));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return sample_json(ctx, ids[k], &inc); }, {}, &inc);
  }
  if (rel == "studies") {
    auto inc = parse_includes(ctx, {"biomes", "downloads", "samples"});
    std::vector<std::size_t> base;
    for (std::size_t i = 0; i < d::kStudies; ++i) {
      if (d::in_subtree(d::biomes()[d::study_biome(i)].lineage, lineage)) base.push_back(i);
    }
    auto ids = filter_studies(ctx, std::move(base));
    return page_envelope(
        ctx, ids.size(), [&](std::size_t k) { return study_json(ctx, ids[k], false, &inc); }, {},
        &inc);
  }
  if (rel == "genomes") {
    no_include(ctx);
    std::vector<std::size_t> ids;
    for (std::size_t g = 0; g < d::kGenomes; ++g) {
      if (d::in_subtree(d::biomes()[d::catalogues()[g / d::kGenomesPerCatalogue].biome].lineage,
                        lineage))
        ids.push_back(g);
    }
    return page_envelope(ctx, ids.size(), [&](std::size_t k) { return genome_json(ctx, ids[k]); });
  }
  html_not_found();
}

J misc_routes(const Ctx& ctx, const std::vector<std::string>& seg) {
  const std::string& top = seg[0];
  if (top == "publications") {
    no_include(ctx);
    if (seg.size() == 1)
      return page_envelope(ctx, d::kPublications,
                           [&](std::size_t p) { return publication_json(ctx, p); });
    const std::size_t p = need(find_publication(seg[1]));
    if (seg.size() == 2) return single(publication_json(ctx, p), Includes{});
    if (seg.size() == 3 && seg[2] == "studies") {
      std::vector<std::size_t> ids;
      for (std::size_t i = 0; i < d::kStudies; ++i) {
        if (d::study_publication(i) == static_cast<std::int64_t>(p)) ids.push_back(i);
      }
      return page_envelope(ctx, ids.size(),
                           [&](std::size_t k) { return study_json(ctx, ids[k], false, nullptr); });
    }
    if (seg.size() == 3 && seg[2] == "samples")
      return page_envelope(ctx, 0, [&](std::size_t) { return J(); });
    html_not_found();
  }
  if (top == "experiment-types") {
    no_include(ctx);
    if (seg.size() == 1) {
      return page_envelope(ctx, d::experiment_types().size(),
                           [&](std::size_t e) { return experiment_type_json(ctx, e); });
    }
    const std::size_t e = need(find_name(d::experiment_types(), seg[1]));
    if (seg.size() == 2) return single(experiment_type_json(ctx, e), Includes{});
    std::vector<std::size_t> base;
    for (std::size_t s = 0; s < d::kSamples; ++s) {
      if (seg[1] == d::experiment_type_of(s)) base.push_back(s);
    }
    if (seg.size() == 3 && seg[2] == "samples") {
      auto ids = filter_samples(ctx, base);
      return page_envelope(ctx, ids.size(),
                           [&](std::size_t k) { return sample_json(ctx, ids[k], nullptr); });
    }
    if (seg.size() == 3 && seg[2] == "runs") {
      return page_envelope(ctx, base.size(),
                           [&](std::size_t k) { return run_json(ctx, base[k], nullptr); });
    }
    if (seg.size() == 3 && seg[2] == "analyses") {
      return page_envelope(ctx, base.size(),
                           [&](std::size_t k) { return analysis_json(ctx, base[k], nullptr); });
    }
    html_not_found();
  }
  if (top == "pipelines") {
    no_include(ctx);
    if (seg.size() == 1)
      return page_envelope(ctx, d::pipelines().size(),
                           [&](std::size_t p) { return pipeline_json(ctx, p); });
    const std::size_t p = need(find_name(d::pipelines(), seg[1]));
    if (seg.size() == 2) return single(pipeline_json(ctx, p), Includes{});
    std::vector<std::size_t> base;
    for (std::size_t s = 0; s < d::kSamples; ++s) {
      if (seg[1] == d::analysis_pipeline(s)) base.push_back(s);
    }
    if (seg.size() == 3 && seg[2] == "analyses") {
      return page_envelope(ctx, base.size(),
                           [&](std::size_t k) { return analysis_json(ctx, base[k], nullptr); });
    }
    if (seg.size() == 3 && seg[2] == "samples") {
      return page_envelope(ctx, base.size(),
                           [&](std::size_t k) { return sample_json(ctx, base[k], nullptr); });
    }
    html_not_found();
  }
  if (top == "genomes") {
    no_include(ctx);
    if (seg.size() == 1)
      return page_envelope(ctx, d::kGenomes, [&](std::size_t g) { return genome_json(ctx, g); });
    const std::size_t g = need(find_genome(seg[1]));
    if (seg.size() == 2) return single(genome_json(ctx, g), Includes{});
    if (seg.size() == 3 && seg[2] == "downloads") {
      return page_envelope(ctx, d::download_count(d::DownloadOwner::genome),
                           [&](std::size_t k) { return download_json(ctx, "genome", g, k); });
    }
    html_not_found();
  }
  if (top == "genome-catalogues") {
    no_include(ctx);
    if (seg.size() == 1) {
      return page_envelope(ctx, d::catalogues().size(),
                           [&](std::size_t c) { return catalogue_json(ctx, c); });
    }
    const std::size_t c = need(find_catalogue(seg[1]));
    if (seg.size() == 2) return single(catalogue_json(ctx, c), Includes{});
    if (seg.size() == 3 && seg[2] == "genomes") {
      return page_envelope(ctx, d::kGenomesPerCatalogue, [&](std::size_t k) {
        return genome_json(ctx, c * d::kGenomesPerCatalogue + k);
      });
    }
    if (seg.size() == 3 && seg[2] == "downloads") {
      return page_envelope(ctx, d::download_count(d::DownloadOwner::catalogue),
                           [&](std::size_t k) { return download_json(ctx, "catalogue", c, k); });
    }
    html_not_found();
  }
  if (top == "super-studies") {
    no_include(ctx);
    if (seg.size() == 1) {
      return page_envelope(ctx, super_studies().size(),
                           [&](std::size_t k) { return super_study_json(ctx, k); });
    }
    const std::size_t k = need(find_super_study(seg[1]));
    const auto& def = super_studies()[k];
    if (seg.size() == 2) return single(super_study_json(ctx, k), Includes{});
    if (seg.size() == 3 && seg[2] == "flagship-studies") {
      return page_envelope(ctx, def.flagship_end - def.flagship_begin, [&](std::size_t n) {
        return study_json(ctx, def.flagship_begin + n, false, nullptr);
      });
    }
    if (seg.size() == 3 && seg[2] == "related-studies") {
      return page_envelope(ctx, def.related_end - def.related_begin, [&](std::size_t n) {
        return study_json(ctx, def.related_begin + n, false, nullptr);
      });
    }
    html_not_found();
  }
  if (top == "annotations" && seg.size() >= 2) {
    no_include(ctx);
    if (seg[1] == "organisms") {
      if (seg.size() == 2) {
        return page_envelope(ctx, d::organisms().size(), [&](std::size_t o) {
          return organism_json(ctx, o, std::nullopt, "5.0");
        });
      }
      const std::size_t o = need(find_name(d::organisms(), seg[2]));
      std::vector<std::size_t> ids;
      for (std::size_t c = 0; c < d::organisms().size(); ++c) {
        if (d::in_subtree(d::organisms()[c], d::organisms()[o])) ids.push_back(c);
      }
      if (seg.size() == 3) {
        return page_envelope(ctx, ids.size(), [&](std::size_t k) {
          return organism_json(ctx, ids[k], std::nullopt, "5.0");
        });
      }
      html_not_found();
    }
    const d::AnnDef* def = find_ann_kind(seg[1]);
    if (!def) html_not_found();
    if (seg.size() == 2) {
      return page_envelope(ctx, def->count, [&](std::size_t k) {
        return annotation_json(ctx, *def, k, std::nullopt);
      });
    }
    const std::size_t k = need(find_annotation(*def, seg[2]));
    if (seg.size() == 3) return single(annotation_json(ctx, *def, k, std::nullopt), Includes{});
    if (seg.size() == 4 && seg[3] == "analyses") {
      std::vector<std::size_t> ids;
      for (std::size_t s = 0; s < d::kSamples; ++s) {
        if (d::analysis_has_annotation(s, k)) ids.push_back(s);
      }
      return page_envelope(ctx, ids.size(),
                           [&](std::size_t n) { return analysis_json(ctx, ids[n], nullptr); });
    }
    html_not_found();
  }
  html_not_found();
}

J mydata(const Ctx& ctx) {
  no_include(ctx);
  return page_envelope(ctx, d::kPrivateStudies, [&](std::size_t k) {
    return study_json(ctx, d::kStudies + k, false, nullptr);
  });
}

}  // namespace mgnify::mock::v1routes
