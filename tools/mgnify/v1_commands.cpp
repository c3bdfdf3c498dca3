// `mgnify v1 <resource> list|get|related`: every collection of the legacy v1 API.

#include <memory>
#include <mgnify/v1.hpp>
#include <string>
#include <vector>

#include "accession_forms.hpp"
#include "commands.hpp"
#include "help_format.hpp"
#include "list_option.hpp"
#include "nonempty_option.hpp"

namespace mgnify_cli {

namespace v1 = mgnify::v1;

namespace {

struct ListArgs {
  std::string search;
  std::string ordering;
  std::vector<std::string> params;  // key=value
};

struct GetArgs {
  std::string id;
  std::vector<std::string> include;
};

struct RelatedArgs {
  std::string id;
  std::string relation;
  ListArgs list;
};

void add_list_filters(CLI::App& cmd, ListArgs& args) {
  add_nonempty_option(cmd, "--search", args.search,
                      "free-text search (the service's `search` parameter)");
  add_nonempty_option(cmd, "--ordering", args.ordering,
                      "sort field, '-' prefix for descending (e.g. -last_update)");
  add_list_option(cmd, "--param", args.params,
                  "any other query parameter as key=value (repeatable). The v1 service silently "
                  "ignores names it does not know",
                  '\0');
}

mgnify::ListOptions make_list(const Settings& settings) {
  mgnify::ListOptions list;
  // The server's own default is 25; the largest page makes a full walk about ten times faster.
  list.page_size = settings.page_size.value_or(v1::kMaxPageSize);
  list.max_items = settings.max_items;
  return list;
}

v1::Query make_query(const ListArgs& args) {
  v1::Query query;
  if (!args.search.empty()) query.search(args.search);
  if (!args.ordering.empty()) {
    const bool descending = args.ordering.front() == '-';
    query.ordering(descending ? args.ordering.substr(1) : args.ordering, descending);
  }
  for (const auto& p : args.params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--param wants key=value, got '" + p + "'");
    query.param(p.substr(0, eq), p.substr(eq + 1));
  }
  return query;
}

/// `collection` is the resource's path, as "studies" or "annotations/go-terms".
template <class T>
void add_resource(CLI::App& parent, Context& ctx, const std::string& name, const std::string& help,
                  const std::string& collection) {
  auto* resource = parent.add_subcommand(name, help);
  resource->require_subcommand(1);

  auto list_args = std::make_shared<ListArgs>();
  auto* list = resource->add_subcommand("list", "List " + name);
  add_list_filters(*list, *list_args);
  help_formatter(*list).default_for(list, "--page-size", std::to_string(v1::kMaxPageSize));
  list->callback([&ctx, list_args, collection] {
    ctx.action = [&ctx, list_args, collection] {
      const v1::LegacyClient client(client_options(ctx.settings, Service::v1));
      return emit_paged(ctx.settings, client.resources<T>(collection, make_query(*list_args),
                                                          make_list(ctx.settings)));
    };
  });

  auto get_args = std::make_shared<GetArgs>();
  auto* get = resource->add_subcommand("get", "One of the " + name + " by id");
  get->add_option("id", get_args->id, "accession, lineage or other id")->required();
  add_list_option(
      *get, "--include", get_args->include,
      "related objects to embed (comma-separated or repeated); prints {data, included}");
  help_formatter(*get).not_applicable(get, {"--page-size", "--max"});
  get->callback([&ctx, get_args, collection] {
    ctx.action = [&ctx, get_args, collection] {
      no_page_size(ctx.settings, "get");
      const v1::LegacyClient client(client_options(ctx.settings, Service::v1));
      const std::string id = canonical_or_as_typed(get_args->id);
      if (get_args->include.empty()) {
        return emit_model(ctx.settings, client.resource<T>(collection, id));
      }
      v1::Query query;
      query.include(get_args->include);
      const auto document = client.document<T>(collection, id, query);
      return emit_one(ctx.settings,
                      nlohmann::json{{"data", document.data}, {"included", document.included}});
    };
  });

  auto related_args = std::make_shared<RelatedArgs>();
  auto* related = resource->add_subcommand(
      "related", "A related list of one object, e.g. `v1 studies related MGYS00000001 samples`");
  related->add_option("id", related_args->id, "the object's id")->required();
  related
      ->add_option("relation", related_args->relation,
                   "relationship name as in the object's relationships (samples, downloads, "
                   "taxonomy/ssu, ...)")
      ->required();
  add_list_filters(*related, related_args->list);
  help_formatter(*related).default_for(related, "--page-size", std::to_string(v1::kMaxPageSize));
  related->callback([&ctx, related_args, collection] {
    ctx.action = [&ctx, related_args, collection] {
      const v1::LegacyClient client(client_options(ctx.settings, Service::v1));
      return emit_paged(ctx.settings,
                        client.related(collection, canonical_or_as_typed(related_args->id),
                                       related_args->relation, make_query(related_args->list),
                                       make_list(ctx.settings)));
    };
  });
}

}  // namespace

void add_v1_commands(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("v1", "Legacy MGnify API v1 (deprecated by MGnify in June 2026)");
  cmd->require_subcommand(1);
  add_resource<v1::Study>(*cmd, ctx, "studies", "Studies (MGYS, ERP/SRP/DRP)", "studies");
  add_resource<v1::Sample>(*cmd, ctx, "samples", "Samples", "samples");
  add_resource<v1::Run>(*cmd, ctx, "runs", "Runs", "runs");
  add_resource<v1::Assembly>(*cmd, ctx, "assemblies", "Assemblies", "assemblies");
  add_resource<v1::Analysis>(*cmd, ctx, "analyses", "Analyses (MGYA)", "analyses");
  add_resource<v1::Biome>(*cmd, ctx, "biomes", "Biomes (id: lineage)", "biomes");
  add_resource<v1::Publication>(*cmd, ctx, "publications", "Publications (id: PubMed id)",
                                "publications");
  add_resource<v1::ExperimentType>(*cmd, ctx, "experiment-types", "Experiment types",
                                   "experiment-types");
  add_resource<v1::Pipeline>(*cmd, ctx, "pipelines", "Pipeline versions", "pipelines");
  add_resource<v1::Genome>(*cmd, ctx, "genomes", "Genomes (MGYG)", "genomes");
  add_resource<v1::GenomeCatalogue>(*cmd, ctx, "genome-catalogues", "Genome catalogues",
                                    "genome-catalogues");
  add_resource<v1::SuperStudy>(*cmd, ctx, "super-studies", "Super studies", "super-studies");
  add_resource<v1::GoTerm>(*cmd, ctx, "go-terms", "GO terms", "annotations/go-terms");
  add_resource<v1::InterproIdentifier>(*cmd, ctx, "interpro-identifiers", "InterPro identifiers",
                                       "annotations/interpro-identifiers");
  add_resource<v1::PfamEntry>(*cmd, ctx, "pfam-entries", "Pfam entries",
                              "annotations/pfam-entries");
  add_resource<v1::KeggOrtholog>(*cmd, ctx, "kegg-orthologs", "KEGG orthologs",
                                 "annotations/kegg-orthologs");
  add_resource<v1::KeggModule>(*cmd, ctx, "kegg-modules", "KEGG modules",
                               "annotations/kegg-modules");
  add_resource<v1::GenomeProperty>(*cmd, ctx, "genome-properties", "Genome properties",
                                   "annotations/genome-properties");
  add_resource<v1::AntismashGeneCluster>(*cmd, ctx, "antismash-gene-clusters",
                                         "antiSMASH gene clusters",
                                         "annotations/antismash-gene-clusters");
  add_resource<v1::Organism>(*cmd, ctx, "organisms", "Organisms", "annotations/organisms");
}

}  // namespace mgnify_cli
