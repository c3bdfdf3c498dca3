// mgnify-live-check: a short read-only tour of the public MGnify services that
// reports every way their answers differ from what the SDK expects.
//
//   mgnify-live-check [--service proteins|v1|v2]... [--rate PER_SECOND] [--budget SECONDS]
//
// One call per endpoint family, each list walked for its first page only, each
// detail fetched for the first item of its list (so no accession is assumed to
// exist). Reported: every decode failure (with its JSON path), every member
// the models do not know (a field MGnify added), and every HTTP status other
// than the one expected (success, except for the status of a genome search
// job that does not exist, which must be 404). The base URLs default to the
// public services; MGNIFY_PROTEINS_URL, MGNIFY_API_V1_URL and MGNIFY_API_V2_URL
// override them, as for the CLI.
//
// Exit status: 0 every service answered as expected; 1 at least one finding
// (even when another service was unreachable: a finding names a concrete
// change to act on, so it outranks an outage); 3 a service could not be
// reached and nothing else was found; 2 bad usage.

#include <chrono>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "mgnify/detail/text_escape.hpp"
#include "mgnify/detail/unknown_members.hpp"
#include "mgnify/proteins.hpp"
#include "mgnify/v1.hpp"
#include "mgnify/v2.hpp"

namespace {

constexpr int kExitClean = 0;
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;
constexpr int kExitUnreachable = 3;

struct Settings {
  std::set<std::string> services{"proteins", "v1", "v2"};
  double rate = 2.0;
  std::chrono::seconds budget{300};
};

const char* kUsage =
    "usage: mgnify-live-check [--service proteins|v1|v2]... [--rate PER_SECOND] [--budget "
    "SECONDS]\n"
    "A read-only tour of the MGnify services: one call per endpoint family. Reports decode\n"
    "failures, members the SDK does not know and unexpected HTTP statuses.\n"
    "Exit: 0 clean, 1 findings, 2 usage, 3 a service unreachable.\n"
    "Base URLs: $MGNIFY_PROTEINS_URL, $MGNIFY_API_V1_URL, $MGNIFY_API_V2_URL, else the public "
    "services.\n";

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "mgnify-live-check: " << message << "\n" << kUsage;
  std::exit(kExitUsage);
}

double parse_positive(const std::string& option, const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(value > 0) || value > 1e6) {
    usage_error(option + " needs a positive number, got '" + text + "'");
  }
  return value;
}

Settings parse_args(int argc, char** argv) {
  Settings settings;
  std::set<std::string> chosen;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(kExitClean);
    }
    if (i + 1 >= argc) usage_error("unknown option or missing value: '" + arg + "'");
    const std::string value = argv[++i];
    if (arg == "--service") {
      if (value != "proteins" && value != "v1" && value != "v2") {
        usage_error("--service is proteins, v1 or v2, got '" + value + "'");
      }
      chosen.insert(value);
    } else if (arg == "--rate") {
      settings.rate = parse_positive(arg, value);
    } else if (arg == "--budget") {
      settings.budget = std::chrono::seconds(static_cast<long>(parse_positive(arg, value)));
    } else {
      usage_error("unknown option '" + arg + "'");
    }
  }
  if (!chosen.empty()) settings.services = chosen;
  return settings;
}

// Findings quote the server's words (member names, error details), which must
// not drive the maintainer's terminal.
std::string for_terminal(std::string_view server_text) {
  return mgnify::detail::escape_text(server_text, mgnify::detail::Escapes::terminal);
}

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

/// Runs the checks of one service in order and records what they found. The
/// first call is the reachability probe: if it cannot connect, the service is
/// unreachable and the rest of its tour is skipped.
class Tour {
 public:
  Tour(std::string service, std::chrono::steady_clock::time_point deadline)
      : service_(std::move(service)), deadline_(deadline) {}

  /// `check` returns the unknown members of what it decoded.
  void run(const std::string& family, const std::function<std::vector<std::string>()>& check) {
    if (unreachable_) return;
    if (std::chrono::steady_clock::now() > deadline_) {
      finding(family, "not checked: the time budget ran out");
      return;
    }
    ++calls_;
    try {
      for (const auto& member : check()) {
        if (reported_.insert(family + member).second) {
          finding(family, "member the SDK does not know: " + member);
        }
      }
      std::cout << "ok       " << service_ << " " << family << "\n";
    } catch (const mgnify::TransportError& e) {
      if (calls_ == 1 && (e.kind() == mgnify::TransportError::Kind::connect ||
                          e.kind() == mgnify::TransportError::Kind::timeout)) {
        unreachable_ = true;
        std::cout << "UNREACHABLE " << service_ << ": " << for_terminal(e.what()) << "\n";
        return;
      }
      finding(family, std::string("transport failure: ") + e.what());
    } catch (const mgnify::DecodeError& e) {
      finding(family, "decode failure at '" + e.json_path() + "': " + e.what());
    } catch (const mgnify::ApiError& e) {
      finding(family, "unexpected HTTP status " + std::to_string(e.status()) + ": " + e.what());
    } catch (const mgnify::Error& e) {
      finding(family, std::string("failure: ") + e.what());
    }
  }

  bool unreachable() const noexcept { return unreachable_; }
  std::size_t findings() const noexcept { return findings_; }

 private:
  void finding(const std::string& family, const std::string& what) {
    ++findings_;
    std::cout << "FINDING  " << service_ << " " << family << ": " << for_terminal(what) << "\n";
  }

  std::string service_;
  std::chrono::steady_clock::time_point deadline_;
  std::size_t calls_ = 0;
  std::size_t findings_ = 0;
  bool unreachable_ = false;
  std::set<std::string> reported_;
};

template <class M>
void add_unknown(std::vector<std::string>& out, const M& model) {
  for (auto& member : mgnify::detail::unknown_members(model)) out.push_back(std::move(member));
}

/// The items of a walk's first page, and their unknown members.
template <class T>
std::vector<T> first_page(mgnify::Paged<T> walk, std::vector<std::string>& unknown) {
  std::vector<T> items = walk.current_page().items;
  for (const auto& item : items) add_unknown(unknown, item);
  return items;
}

mgnify::ClientOptions client_options(const std::string& base_url, const Settings& settings) {
  mgnify::ClientOptions options;
  options.base_url = base_url;
  options.rate_limit.requests_per_second = settings.rate;
  options.rate_limit.burst = 1;
  options.read_ahead = false;
  options.connect_timeout = std::chrono::seconds(10);
  options.request_timeout = std::chrono::seconds(60);
  options.retry.max_attempts = 2;
  options.user_agent_suffix = "live-check";
  return options;
}

void tour_proteins(Tour& tour, const Settings& settings) {
  const mgnify::proteins::ProteinClient client(
      client_options(env_or_empty("MGNIFY_PROTEINS_URL"), settings));
  std::string mgyp;
  tour.run("search by Pfam", [&] {
    std::vector<std::string> unknown;
    const auto hits = client.search(mgnify::proteins::SearchQuery::by_pfam("PF00005").limit(5));
    for (const auto& hit : hits) add_unknown(unknown, hit);
    if (!hits.empty()) mgyp = hits.front().mgyp;
    return unknown;
  });
  if (mgyp.empty()) return;
  tour.run("protein", [&] {
    std::vector<std::string> unknown;
    add_unknown(unknown, client.protein(mgyp));
    return unknown;
  });
}

/// The first page of a tour's lists.
mgnify::ListOptions first_five() {
  mgnify::ListOptions list;
  list.page_size = 5;
  list.max_items = 5;
  return list;
}

/// A v1 top-level collection (`path`, e.g. "annotations/go-terms"): its first
/// page, then the first item by id. Returns that id (empty when the list was).
template <class T>
std::string v1_collection(Tour& tour, const mgnify::v1::LegacyClient& client,
                          const std::string& path) {
  const std::string family = path.substr(path.rfind('/') + 1);
  std::string first_id;
  tour.run(family + " list", [&] {
    std::vector<std::string> unknown;
    const auto items = first_page(client.resources<T>(path, {}, first_five()), unknown);
    if (!items.empty()) first_id = items.front().id();
    return unknown;
  });
  if (first_id.empty()) return first_id;
  tour.run(family + " detail", [&] {
    std::vector<std::string> unknown;
    add_unknown(unknown, client.resource<T>(path, first_id));
    return unknown;
  });
  return first_id;
}

/// A list checked by its first page only; returns that page.
template <class T>
std::vector<T> list_only(Tour& tour, const std::string& family,
                         const std::function<mgnify::Paged<T>()>& list) {
  std::vector<T> items;
  tour.run(family, [&] {
    std::vector<std::string> unknown;
    items = first_page(list(), unknown);
    return unknown;
  });
  return items;
}

/// A text body must at least start the way its format does.
void require_prefix(const std::string& what, const std::string& text, const std::string& prefix) {
  if (text.compare(0, prefix.size(), prefix) != 0) {
    throw mgnify::Error(what + " does not start with '" + prefix + "': '" + text.substr(0, 40) +
                        "'");
  }
}

/// The status of a job id no service issued must be 404: any other answer
/// means the status route changed.
template <class Client>
void unknown_job_status(Tour& tour, const Client& client) {
  tour.run("genome search status of an unknown job (404 expected)", [&] {
    try {
      client.gather_status("00000000-0000-0000-0000-000000000000");
    } catch (const mgnify::ApiError& e) {
      if (e.status() == 404) return std::vector<std::string>{};
      throw;
    }
    throw mgnify::Error("a job that does not exist has a status instead of a 404");
  });
}

void tour_v1(Tour& tour, const Settings& settings) {
  const mgnify::v1::LegacyClient client(
      client_options(env_or_empty("MGNIFY_API_V1_URL"), settings));
  tour.run("root", [&] {
    if (client.root().empty()) throw mgnify::Error("the API root lists no categories");
    return std::vector<std::string>{};
  });
  namespace v1 = mgnify::v1;
  v1_collection<v1::Study>(tour, client, "studies");
  v1_collection<v1::Sample>(tour, client, "samples");
  v1_collection<v1::Run>(tour, client, "runs");
  v1_collection<v1::Biome>(tour, client, "biomes");
  tour.run("biomes/top10", [&] {
    std::vector<std::string> unknown;
    for (const auto& biome : client.top10_biomes()) add_unknown(unknown, biome);
    return unknown;
  });
  list_only<v1::Study>(tour, "studies/recent",
                       [&] { return client.recent_studies({}, first_five()); });
  const std::string pubmed_id = v1_collection<v1::Publication>(tour, client, "publications");
  if (!pubmed_id.empty()) {
    tour.run("publication europe_pmc_annotations", [&] {
      std::vector<std::string> unknown;
      add_unknown(unknown, client.publication_europe_pmc_annotations(std::stoll(pubmed_id)));
      return unknown;
    });
  }
  v1_collection<v1::SuperStudy>(tour, client, "super-studies");
  v1_collection<v1::GenomeCatalogue>(tour, client, "genome-catalogues");
  v1_collection<v1::Genome>(tour, client, "genomes");
  v1_collection<v1::ExperimentType>(tour, client, "experiment-types");
  v1_collection<v1::Pipeline>(tour, client, "pipelines");
  tour.run("pipelines as CSV", [&] {
    const std::string csv = client.list_csv("pipelines");
    if (csv.find('\n') == std::string::npos) {
      throw mgnify::Error("the pipelines list as CSV has no complete line: '" + csv.substr(0, 40) +
                          "'");
    }
    return std::vector<std::string>{};
  });
  const auto tools = list_only<v1::PipelineTool>(
      tour, "pipeline-tools list", [&] { return client.pipeline_tools({}, first_five()); });
  if (!tools.empty() && tools.front().version) {
    tour.run("pipeline-tools detail", [&] {
      std::vector<std::string> unknown;
      add_unknown(unknown, client.pipeline_tool(tools.front().tool_name, *tools.front().version));
      return unknown;
    });
  }
  v1_collection<v1::GoTerm>(tour, client, "annotations/go-terms");
  v1_collection<v1::GenomeSet>(tour, client, "genomeset");
  list_only<v1::CogCategory>(tour, "cogs list", [&] { return client.cogs({}, first_five()); });
  list_only<v1::KeggClass>(tour, "kegg-classes list",
                           [&] { return client.kegg_classes({}, first_five()); });
  std::string analysis;
  tour.run("analyses list", [&] {
    std::vector<std::string> unknown;
    const auto items = first_page(client.analyses({}, first_five()), unknown);
    if (!items.empty()) analysis = items.front().id();
    return unknown;
  });
  if (analysis.empty()) return;
  tour.run("analysis downloads", [&] {
    std::vector<std::string> unknown;
    first_page(client.analysis_downloads(analysis, {}, first_five()), unknown);
    return unknown;
  });
  tour.run("analysis go-slim", [&] {
    std::vector<std::string> unknown;
    first_page(client.analysis_go_slim(analysis, {}, first_five()), unknown);
    return unknown;
  });
  // Only assembly analyses have contigs; an empty list skips the FASTA.
  const auto contigs = list_only<v1::AnalysisContig>(tour, "analysis contigs", [&] {
    return client.analysis_contigs(analysis, {}, first_five());
  });
  if (contigs.empty()) return;
  tour.run("contig FASTA", [&] {
    require_prefix("the contig's FASTA",
                   client.analysis_contig_fasta(analysis, contigs.front().contig_id), ">");
    return std::vector<std::string>{};
  });
}

/// A v2 list: its first page; `detail` fetches the first item.
template <class T>
void v2_list(Tour& tour, const std::string& family, const std::function<mgnify::Paged<T>()>& list,
             const std::function<std::vector<std::string>(const T&)>& detail) {
  std::vector<T> items;
  tour.run(family + " list", [&] {
    std::vector<std::string> unknown;
    items = first_page(list(), unknown);
    return unknown;
  });
  if (items.empty() || !detail) return;
  tour.run(family + " detail", [&] { return detail(items.front()); });
}

void tour_v2(Tour& tour, const Settings& settings) {
  using namespace mgnify::v2;
  const V2Client client(client_options(env_or_empty("MGNIFY_API_V2_URL"), settings));
  const mgnify::ListOptions small = first_five();
  auto unknown_of = [](const auto& model) {
    std::vector<std::string> unknown;
    add_unknown(unknown, model);
    return unknown;
  };
  v2_list<Study>(
      tour, "studies", [&] { return client.studies(small); },
      [&](const Study& s) { return unknown_of(client.study(s.accession)); });
  v2_list<Sample>(
      tour, "samples", [&] { return client.samples(small); },
      [&](const Sample& s) { return unknown_of(client.sample(s.accession)); });
  v2_list<AnalysedRun>(
      tour, "runs", [&] { return client.runs(small); },
      [&](const AnalysedRun& r) {
        return r.accession ? unknown_of(client.run(*r.accession)) : std::vector<std::string>{};
      });
  v2_list<Assembly>(
      tour, "assemblies", [&] { return client.assemblies(small); },
      [&](const Assembly& a) {
        return a.accession ? unknown_of(client.assembly(*a.accession)) : std::vector<std::string>{};
      });
  v2_list<AnalysisDetail>(
      tour, "analyses", [&] { return client.analyses(small); },
      [&](const AnalysisDetail& a) {
        auto unknown = unknown_of(client.analysis(a.accession));
        const auto more = unknown_of(client.analysis_annotations(a.accession));
        unknown.insert(unknown.end(), more.begin(), more.end());
        return unknown;
      });
  v2_list<Biome>(
      tour, "biomes", [&] { return client.biomes(small); }, nullptr);
  v2_list<Publication>(
      tour, "publications", [&] { return client.publications(small); },
      [&](const Publication& p) { return unknown_of(client.publication(p.pubmed_id)); });
  v2_list<SuperStudy>(
      tour, "super-studies", [&] { return client.super_studies(small); },
      [&](const SuperStudy& s) { return unknown_of(client.super_study(s.slug)); });
  v2_list<GenomeCatalogue>(
      tour, "genome catalogues", [&] { return client.genome_catalogues(small); },
      [&](const GenomeCatalogue& c) {
        return unknown_of(client.genome_catalogue(c.catalogue_id));
      });
  v2_list<Genome>(
      tour, "genomes", [&] { return client.genomes(small); },
      [&](const Genome& g) { return unknown_of(client.genome(g.accession)); });
  tour.run("openapi.json", [&] {
    const nlohmann::json doc = client.openapi();
    if (!doc.is_object() || !doc.contains("openapi") || !doc.contains("paths") ||
        !doc["paths"].is_object() || doc["paths"].empty()) {
      throw mgnify::Error("openapi.json is not an OpenAPI document with paths");
    }
    return std::vector<std::string>{};
  });
  unknown_job_status(tour, client);
}

}  // namespace

int main(int argc, char** argv) {
  const Settings settings = parse_args(argc, argv);
  const auto deadline = std::chrono::steady_clock::now() + settings.budget;
  std::size_t findings = 0;
  std::vector<std::string> unreachable;
  const std::map<std::string, std::function<void(Tour&, const Settings&)>> tours{
      {"proteins", tour_proteins}, {"v1", tour_v1}, {"v2", tour_v2}};
  for (const auto& [service, run_tour] : tours) {
    if (settings.services.count(service) == 0) continue;
    Tour tour(service, deadline);
    try {
      run_tour(tour, settings);
    } catch (const mgnify::Error& e) {
      std::cout << "FINDING  " << service << ": client setup failed: " << for_terminal(e.what())
                << "\n";
      ++findings;
    }
    findings += tour.findings();
    if (tour.unreachable()) unreachable.push_back(service);
  }
  std::cout << "\n" << findings << " finding(s)";
  if (!unreachable.empty()) {
    std::cout << "; unreachable:";
    for (const auto& s : unreachable) std::cout << " " << s;
  }
  std::cout << "\n";
  if (findings > 0) return kExitFindings;
  return unreachable.empty() ? kExitClean : kExitUnreachable;
}
