// `mgnify v2 <resource> list|get|related`: every GET endpoint of the MGnify API v2.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mgnify/v2.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accession_forms.hpp"
#include "commands.hpp"
#include "file_listing.hpp"
#include "help_format.hpp"
#include "nonempty_option.hpp"
#include "number_option.hpp"

namespace mgnify_cli {

namespace v2 = mgnify::v2;

namespace {

/// Every filter any v2 list takes; each resource registers the ones it has.
struct Filters {
  std::string search;
  std::string lineage;
  std::string pipeline;
  std::string experiment_type;
  std::optional<int> max_depth;
  std::string title;
  std::optional<int> published_after;
  std::optional<int> published_before;
  std::string catalogue;
  bool mine = false;
};

using ListFn = std::function<int(const v2::V2Client&, const Filters&, const mgnify::ListOptions&,
                                 const Settings&)>;
using GetFn =
    std::function<int(const v2::V2Client&, const std::string&, const Filters&, const Settings&)>;
using RelatedFn = std::function<int(const v2::V2Client&, const std::string&,
                                    const mgnify::ListOptions&, const Settings&)>;

struct ResourceSpec {
  std::string name;
  std::string help;
  std::function<void(CLI::App&, Filters&)> list_filters;
  ListFn list;
  std::function<void(CLI::App&, Filters&)> get_filters;
  GetFn get;  // empty: the resource has no detail endpoint
  std::map<std::string, RelatedFn> related;
};

mgnify::ListOptions list_options(const Settings& settings) {
  mgnify::ListOptions options;
  if (settings.page_size) options.page_size = *settings.page_size;
  options.max_items = settings.max_items;
  return options;
}

/// Read as `downloads -p` reads it, so "5.0", "v5" and "5" all name V5.
v2::PipelineVersion parse_pipeline(const std::string& text) {
  const auto value = v2::enum_from_string<v2::PipelineVersion>("V" + normalise_version(text));
  if (value == v2::PipelineVersion::unknown) {
    throw UsageError("unknown pipeline version '" + text + "' (4.1, 5.0, V6, 6.1, ...)");
  }
  return value;
}

constexpr v2::ExperimentType kExperimentTypes[] = {
    v2::ExperimentType::metatranscriptomic, v2::ExperimentType::metagenomic,
    v2::ExperimentType::amplicon,           v2::ExperimentType::assembly,
    v2::ExperimentType::hybrid_assembly,    v2::ExperimentType::long_read_assembly,
    v2::ExperimentType::metabarcoding,      v2::ExperimentType::unknown_type};

/// The codes --experiment-type takes, for the completion scripts.
std::vector<std::string> experiment_type_words() {
  std::vector<std::string> codes;
  for (auto type : kExperimentTypes) codes.emplace_back(v2::experiment_type_code(type));
  return codes;
}

v2::ExperimentType parse_experiment_type(const std::string& text) {
  // Any case, and the name the output prints ("Metagenomic") as well as the code.
  const std::string wanted = normalise_group(text);
  for (auto type : kExperimentTypes) {
    if (wanted == normalise_group(v2::experiment_type_code(type)) ||
        wanted == normalise_group(v2::to_string(type))) {
      return type;
    }
  }
  throw UsageError("unknown experiment type '" + text +
                   "' (use a code such as METAG, AMPLI, ASSEM, or a name such as Metagenomic)");
}

std::int64_t parse_pubmed(const std::string& id) {
  std::size_t used = 0;
  std::int64_t value = 0;
  try {
    value = std::stoll(id, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != id.size() || id.empty()) throw UsageError("not a PubMed id: '" + id + "'");
  return value;
}

/// v2 names a study by MGYS only: an INSDC study or project accession is
/// resolved first, as `downloads` does (a 404 when MGnify has none).
std::string v2_study_accession(const v2::V2Client& client, const std::string& id) {
  return mgnify::is_insdc_study_accession(id) ? client.study_by_insdc_accession(id).accession : id;
}

/// Whether the study has an analysis of exactly this pipeline version, in
/// the form `downloads -p` compares (so "6" is V6 and not V6.1). Stops at the
/// first one.
bool has_analysis_of(const v2::V2Client& client, const std::string& study,
                     const std::string& pipeline, const mgnify::ListOptions& options) {
  // Only the page size carries over: --page/resume apply to the studies list.
  mgnify::ListOptions walk;
  walk.page_size = options.page_size;
  for (const auto& a : client.study_analyses(study, walk)) {
    if (a.pipeline_version && normalise_version(a.pipeline_version->text) == pipeline) return true;
  }
  return false;
}

/// `studies list --pipeline P`: the studies with an analysis of version P.
/// The service's own filter is coarse (V6 and V6.1 both select studies with
/// any v6 analysis, V5 those with any older one, and it ignores other
/// versions), so it only narrows the candidates, and each candidate's
/// analyses are checked; --max counts the studies that pass.
int emit_studies_of_pipeline(const v2::V2Client& client, v2::StudyQuery query,
                             const std::string& pipeline, const mgnify::ListOptions& options,
                             const Settings& settings) {
  query.has_analyses_from_pipeline(parse_pipeline(pipeline));
  mgnify::ListOptions candidates = options;
  candidates.max_items.reset();
  const std::string wanted = normalise_version(pipeline);
  Writer out = stdout_writer(settings);
  begin_list_of<v2::Study>(out);
  for (const auto& study : client.studies(query, candidates)) {
    if (options.max_items && out.written() >= *options.max_items) break;
    if (!has_analysis_of(client, study.accession, wanted, options)) continue;
    out.write(nlohmann::json(study));
    // Stopping here, not at the next candidate, saves that candidate's page.
    if (options.max_items && out.written() >= *options.max_items) break;
  }
  out.finish();
  note_if_empty(out, "records");
  return kOk;
}

// The related list `method` of V2Client as the callable the two below take.
#define RELATED_LIST(method)                                                       \
  [](const v2::V2Client& c, const std::string& id, const mgnify::ListOptions& o) { \
    return c.method(id, o);                                                        \
  }

// `list(client, accession, options)` walks one related list of an accession; a lambda
// rather than a member pointer, as each list is an overload set (its shorter forms).
template <class List>
RelatedFn study_relation(List list) {
  return [list](const v2::V2Client& c, const std::string& id, const mgnify::ListOptions& o,
                const Settings& s) { return emit_paged(s, list(c, v2_study_accession(c, id), o)); };
}

template <class List>
RelatedFn paged_relation(List list) {
  return [list](const v2::V2Client& c, const std::string& id, const mgnify::ListOptions& o,
                const Settings& s) { return emit_paged(s, list(c, id, o)); };
}

std::vector<ResourceSpec> resources() {
  using C = v2::V2Client;
  std::vector<ResourceSpec> specs;

  specs.push_back(ResourceSpec{
      "studies",
      "Studies (MGYS)",
      [](CLI::App& cmd, Filters& f) {
        add_nonempty_option(cmd, "--search", f.search, "title, MGYS or ENA accession");
        add_nonempty_option(cmd, "--lineage", f.lineage,
                            "biome lineage; matches it and every biome below");
        add_nonempty_option(cmd, "--pipeline", f.pipeline,
                            "studies with analyses of exactly this pipeline version (5.0, V5, "
                            "6, V6.1, ...; V6 is not V6.1), checked on each study's analyses");
        cmd.add_flag("--mine", f.mine,
                     "the token owner's studies, private ones included (needs --token-env)");
      },
      [](const C& c, const Filters& f, const mgnify::ListOptions& o, const Settings& s) {
        if (f.mine) return emit_paged(s, c.my_studies(o));
        v2::StudyQuery q;
        if (!f.search.empty()) q.search(f.search);
        if (!f.lineage.empty()) q.biome_lineage(f.lineage);
        if (!f.pipeline.empty()) return emit_studies_of_pipeline(c, q, f.pipeline, o, s);
        return emit_paged(s, c.studies(q, o));
      },
      nullptr,
      [](const C& c, const std::string& id, const Filters&, const Settings& s) {
        return emit_model(s, c.study(v2_study_accession(c, id)));
      },
      {{"analyses", study_relation(RELATED_LIST(study_analyses))},
       {"samples", study_relation(RELATED_LIST(study_samples))},
       {"publications", study_relation(RELATED_LIST(study_publications))}}});

  specs.push_back(ResourceSpec{
      "samples",
      "Samples",
      [](CLI::App& cmd, Filters& f) {
        add_nonempty_option(cmd, "--search", f.search, "title or ENA accession (contains)");
        add_nonempty_option(cmd, "--lineage", f.lineage, "biome lineage");
      },
      [](const C& c, const Filters& f, const mgnify::ListOptions& o, const Settings& s) {
        v2::SampleQuery q;
        if (!f.search.empty()) q.search(f.search);
        if (!f.lineage.empty()) q.biome_lineage(f.lineage);
        return emit_paged(s, c.samples(q, o));
      },
      nullptr,
      [](const C& c, const std::string& id, const Filters&, const Settings& s) {
        return emit_model(s, c.sample(id));
      },
      {{"runs", paged_relation(RELATED_LIST(sample_runs))},
       {"assemblies", paged_relation(RELATED_LIST(sample_assemblies))}}});

  specs.push_back(ResourceSpec{
      "runs",
      "Runs",
      [](CLI::App& cmd, Filters& f) {
        add_nonempty_option(
            cmd, "--experiment-type", f.experiment_type,
            "METAG, METAT, AMPLI, ASSEM, HYASS, LRASS, METAB, or the name the output "
            "prints (Metagenomic); any case");
        help_formatter(cmd).completes_with(&cmd, "--experiment-type", experiment_type_words());
      },
      [](const C& c, const Filters& f, const mgnify::ListOptions& o, const Settings& s) {
        v2::RunQuery q;
        if (!f.experiment_type.empty())
          q.has_experiment_type(parse_experiment_type(f.experiment_type));
        return emit_paged(s, c.runs(q, o));
      },
      nullptr,
      [](const C& c, const std::string& id, const Filters&, const Settings& s) {
        return emit_model(s, c.run(id));
      },
      {{"analyses", paged_relation(RELATED_LIST(run_analyses))},
       {"assemblies", paged_relation(RELATED_LIST(run_assemblies))}}});

  specs.push_back(
      ResourceSpec{"assemblies",
                   "Assemblies",
                   nullptr,
                   [](const C& c, const Filters&, const mgnify::ListOptions& o, const Settings& s) {
                     return emit_paged(s, c.assemblies(o));
                   },
                   nullptr,
                   [](const C& c, const std::string& id, const Filters&, const Settings& s) {
                     return emit_model(s, c.assembly(id));
                   },
                   {{"analyses", paged_relation(RELATED_LIST(assembly_analyses))},
                    {"genome-links", paged_relation(RELATED_LIST(assembly_genome_links))},
                    {"additional-contained-genomes",
                     paged_relation(RELATED_LIST(assembly_additional_contained_genomes))}}});

  ResourceSpec analyses{"analyses",
                        "Analyses (MGYA), with their downloads",
                        nullptr,
                        [](const C& c, const Filters&, const mgnify::ListOptions& o,
                           const Settings& s) { return emit_paged(s, c.analyses(o)); },
                        nullptr,
                        [](const C& c, const std::string& id, const Filters&, const Settings& s) {
                          return emit_model(s, c.analysis(id));
                        },
                        {{"annotations", [](const C& c, const std::string& id,
                                            const mgnify::ListOptions&, const Settings& s) {
                            return emit_model(s, c.analysis_annotations(id));
                          }}}};
  for (auto type : {v2::AnnotationType::taxonomies_ssu, v2::AnnotationType::taxonomies_lsu,
                    v2::AnnotationType::taxonomies_its_one_db, v2::AnnotationType::taxonomies_unite,
                    v2::AnnotationType::taxonomies_pr2, v2::AnnotationType::taxonomies_dada2_pr2,
                    v2::AnnotationType::taxonomies_dada2_silva, v2::AnnotationType::pfams}) {
    analyses.related[std::string("annotations/") + v2::to_string(type)] =
        [type](const C& c, const std::string& id, const mgnify::ListOptions& o, const Settings& s) {
          return emit_paged(s, c.analysis_annotations_of_type(id, type, o));
        };
  }
  specs.push_back(std::move(analyses));

  specs.push_back(ResourceSpec{
      "biomes",
      "The biome tree",
      [](CLI::App& cmd, Filters& f) {
        add_nonempty_option(cmd, "--lineage", f.lineage, "subtree root");
        add_number_option(cmd, "--max-depth", f.max_depth, 1, 100, "deepest level (root is 1)");
      },
      [](const C& c, const Filters& f, const mgnify::ListOptions& o, const Settings& s) {
        v2::BiomeQuery q;
        if (!f.lineage.empty()) q.biome_lineage(f.lineage);
        if (f.max_depth) q.max_depth(*f.max_depth);
        return emit_paged(s, c.biomes(q, o));
      },
      nullptr,
      nullptr,
      {}});

  specs.push_back(ResourceSpec{
      "publications",
      "Publications (id: PubMed id)",
      [](CLI::App& cmd, Filters& f) {
        add_nonempty_option(cmd, "--title", f.title, "title contains");
        add_number_option(cmd, "--published-after", f.published_after, 0, 9999,
                          "first year (inclusive)");
        add_number_option(cmd, "--published-before", f.published_before, 0, 9999,
                          "last year (inclusive)");
      },
      [](const C& c, const Filters& f, const mgnify::ListOptions& o, const Settings& s) {
        v2::PublicationQuery q;
        if (!f.title.empty()) q.title(f.title);
        if (f.published_after) q.published_after(*f.published_after);
        if (f.published_before) q.published_before(*f.published_before);
        return emit_paged(s, c.publications(q, o));
      },
      nullptr,
      [](const C& c, const std::string& id, const Filters&, const Settings& s) {
        return emit_model(s, c.publication(parse_pubmed(id)));
      },
      {{"annotations",
        [](const C& c, const std::string& id, const mgnify::ListOptions&, const Settings& s) {
          return emit_model(s, c.publication_annotations(parse_pubmed(id)));
        }}}});

  specs.push_back(ResourceSpec{"super-studies",
                               "Super studies (id: slug)",
                               nullptr,
                               [](const C& c, const Filters&, const mgnify::ListOptions& o,
                                  const Settings& s) { return emit_paged(s, c.super_studies(o)); },
                               nullptr,
                               [](const C& c, const std::string& id, const Filters&,
                                  const Settings& s) { return emit_model(s, c.super_study(id)); },
                               {}});

  specs.push_back(ResourceSpec{
      "genomes",
      "Genomes (MGYG)",
      [](CLI::App& cmd, Filters& f) {
        add_nonempty_option(cmd, "--search", f.search, "accession, taxon lineage or catalogue id");
        add_nonempty_option(cmd, "--lineage", f.lineage, "biome lineage");
        add_nonempty_option(cmd, "--catalogue", f.catalogue, "only this catalogue's genomes");
      },
      [](const C& c, const Filters& f, const mgnify::ListOptions& o, const Settings& s) {
        v2::GenomeQuery q;
        if (!f.search.empty()) q.search(f.search);
        if (!f.lineage.empty()) q.biome_lineage(f.lineage);
        if (!f.catalogue.empty()) return emit_paged(s, c.catalogue_genomes(f.catalogue, q, o));
        return emit_paged(s, c.genomes(q, o));
      },
      [](CLI::App& cmd, Filters& f) {
        add_nonempty_option(cmd, "--catalogue", f.catalogue, "catalogue to look the genome up in");
      },
      [](const C& c, const std::string& id, const Filters& f, const Settings& s) {
        return emit_model(s, c.genome(id, v2::GenomeLookup{f.catalogue}));
      },
      {{"annotations",
        [](const C& c, const std::string& id, const mgnify::ListOptions&, const Settings& s) {
          return emit_model(s, c.genome_annotations(id));
        }}}});

  specs.push_back(ResourceSpec{
      "genome-catalogues",
      "Genome catalogues",
      nullptr,
      [](const C& c, const Filters&, const mgnify::ListOptions& o, const Settings& s) {
        return emit_paged(s, c.genome_catalogues(o));
      },
      nullptr,
      [](const C& c, const std::string& id, const Filters&, const Settings& s) {
        return emit_model(s, c.genome_catalogue(id));
      },
      {{"genomes", [](const C& c, const std::string& id, const mgnify::ListOptions& o,
                      const Settings& s) { return emit_paged(s, c.catalogue_genomes(id, o)); }}}});
  return specs;
}
#undef RELATED_LIST

void add_resource(CLI::App& parent, Context& ctx, ResourceSpec spec_value) {
  auto spec = std::make_shared<ResourceSpec>(std::move(spec_value));
  auto* resource = parent.add_subcommand(spec->name, spec->help);
  resource->require_subcommand(1);

  auto list_filters = std::make_shared<Filters>();
  auto* list = resource->add_subcommand("list", "List " + spec->name);
  if (spec->list_filters) spec->list_filters(*list, *list_filters);
  help_formatter(*list).default_for(list, "--page-size", std::to_string(v2::kMaxPageSize));
  list->callback([&ctx, spec, list_filters] {
    ctx.action = [&ctx, spec, list_filters] {
      const v2::V2Client client(client_options(ctx.settings, Service::v2));
      return spec->list(client, *list_filters, list_options(ctx.settings), ctx.settings);
    };
  });

  if (spec->get) {
    auto id = std::make_shared<std::string>();
    auto get_filters = std::make_shared<Filters>();
    auto* get = resource->add_subcommand("get", "One of the " + spec->name + " by id");
    get->add_option("id", *id, "accession or id")->required();
    if (spec->get_filters) spec->get_filters(*get, *get_filters);
    help_formatter(*get).not_applicable(get, {"--page-size", "--max"});
    get->callback([&ctx, spec, id, get_filters] {
      ctx.action = [&ctx, spec, id, get_filters] {
        no_page_size(ctx.settings, "get");
        const v2::V2Client client(client_options(ctx.settings, Service::v2));
        return spec->get(client, canonical_or_as_typed(*id), *get_filters, ctx.settings);
      };
    });
  }

  if (!spec->related.empty()) {
    std::vector<std::string> names;
    for (const auto& entry : spec->related) names.push_back(entry.first);
    std::string joined;
    for (const auto& n : names) joined += (joined.empty() ? "" : ", ") + n;
    auto id = std::make_shared<std::string>();
    auto relation = std::make_shared<std::string>();
    auto* related =
        resource->add_subcommand("related", "Lists and sub-resources of one object: " + joined);
    related->add_option("id", *id, "the object's accession or id")->required();
    related->add_option("relation", *relation, "one of: " + joined)
        ->required()
        ->check(CLI::IsMember(names));
    help_formatter(*related).default_for(related, "--page-size", std::to_string(v2::kMaxPageSize));
    related->callback([&ctx, spec, id, relation] {
      ctx.action = [&ctx, spec, id, relation] {
        const v2::V2Client client(client_options(ctx.settings, Service::v2));
        return spec->related.at(*relation)(client, canonical_or_as_typed(*id),
                                           list_options(ctx.settings), ctx.settings);
      };
    });
  }
}

}  // namespace

void add_v2_commands(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("v2", "MGnify API v2");
  cmd->require_subcommand(1);
  for (auto& spec : resources()) add_resource(*cmd, ctx, std::move(spec));
}

}  // namespace mgnify_cli
