// `mgnify samples-table` (a study's samples by metadata key, like mg-toolkit
// original_metadata and MGnifyR getMetadata) and `mgnify abundance-table`
// (the analyses' summary files of a study merged into one feature-by-analysis
// matrix, like MGnifyR getResult). The tables themselves are built by the
// library (mgnify/tables/); this file fetches and prints.

#include <chrono>
#include <ctime>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mgnify/tables/abundance.hpp>
#include <mgnify/tables/biom.hpp>
#include <mgnify/tables/sample_metadata.hpp>
#include <mgnify/tables/table.hpp>
#include <mgnify/v1/client.hpp>
#include <mgnify/v2/client.hpp>
#include <string>
#include <vector>

#include "accession.hpp"
#include "commands.hpp"
#include "file_download.hpp"
#include "file_listing.hpp"
#include "gzip_text.hpp"
#include "help_format.hpp"
#include "nonempty_option.hpp"
#include "number_option.hpp"
#include "progress.hpp"

namespace mgnify_cli {

namespace fs = std::filesystem;
namespace tables = mgnify::tables;

namespace {

enum class TableFormat { json, ndjson, tsv, csv };

/// The table commands' own --format (the global one has no csv); when it is
/// not given, the global --format applies.
void add_table_format(CLI::App& cmd, std::string& format, const std::vector<std::string>& accepted,
                      const std::string& meanings) {
  cmd.add_option("--format", format, "output: " + meanings + "; default: the global --format")
      ->check(CLI::IsMember(accepted))
      ->type_name("FORMAT");
}

TableFormat table_format(const std::string& local, const Settings& settings) {
  if (local == "csv") return TableFormat::csv;
  if (local == "tsv") return TableFormat::tsv;
  if (local == "ndjson") return TableFormat::ndjson;
  if (local == "json") return TableFormat::json;
  switch (settings.format) {
    case Format::tsv:
      return TableFormat::tsv;
    case Format::ndjson:
      return TableFormat::ndjson;
    case Format::json:
      break;
  }
  return TableFormat::json;
}

/// Every cell and column name passed through the CLI's terminal escaping:
/// they are text the server chose.
tables::Table sanitized(tables::Table table) {
  for (auto& column : table.columns) column = sanitize_for_terminal(column);
  for (auto& row : table.rows) {
    for (auto& cell : row) {
      if (cell) cell = sanitize_for_terminal(*cell);
    }
  }
  return table;
}

void write_delimited(const tables::Table& table, TableFormat format, const Settings& settings) {
  tables::WriteOptions options;
  options.formula_guard = settings.formula_guard;
  // A file or pipe gets the cells' own bytes, which pandas and readr read
  // back; a terminal must not receive the control sequences they may hold.
  const auto write = [&](const tables::Table& shown) {
    if (format == TableFormat::csv) {
      tables::write_csv(std::cout, shown, options);
    } else {
      tables::write_tsv(std::cout, shown, options);
    }
  };
  if (stdout_is_terminal()) {
    write(sanitized(table));
  } else {
    write(table);
  }
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("cannot write the output (closed pipe or full disk)");
}

/// The tables choose their own columns; a --columns selection would be dropped.
void no_columns(const Settings& settings, const std::string& command) {
  if (!settings.columns.empty()) throw UsageError("--columns does not apply to '" + command + "'");
}

// ---- samples-table ----------------------------------------------------------

struct SamplesArgs {
  std::string study;
  std::string api = "v2";
  std::string format;
};

tables::SampleMetadataTable fetch_sample_table(const SamplesArgs& args, const Settings& settings) {
  const std::string study = mgnify_accession(args.study);
  // A short walk (fewer samples than the study's count promised) throws here,
  // before anything is printed, and main() maps it to a failing exit code.
  if (args.api == "v1") {
    const mgnify::v1::LegacyClient client(client_options(settings, Service::v1));
    mgnify::ListOptions list;
    list.page_size = settings.page_size.value_or(mgnify::v1::kMaxPageSize);
    list.max_items = settings.max_items;
    return tables::sample_metadata(client.study_samples(study, {}, list).collect());
  }
  const mgnify::v2::V2Client client(client_options(settings, Service::v2));
  mgnify::ListOptions list;
  if (settings.page_size) list.page_size = *settings.page_size;
  list.max_items = settings.max_items;
  const std::string accession =
      is_insdc_study(study) ? client.study_by_insdc_accession(insdc_accession(study)).accession
                            : study;
  return tables::sample_metadata(client.study_samples(accession, list).collect());
}

int run_samples_table(const SamplesArgs& args, const Settings& settings) {
  no_columns(settings, "samples-table");
  const TableFormat format = table_format(args.format, settings);
  const tables::SampleMetadataTable table = fetch_sample_table(args, settings);
  if (format == TableFormat::tsv || format == TableFormat::csv) {
    write_delimited(table.table(), format, settings);
    return kOk;
  }
  Writer out(std::cout, format == TableFormat::json ? Format::json : Format::ndjson);
  out.begin_list();
  for (const auto& row : table.to_json()) out.write(row);
  out.finish();
  return kOk;
}

// ---- abundance-table --------------------------------------------------------

struct AbundanceArgs {
  std::string study;
  std::string api = "v2";
  std::string pipeline;
  std::string group;
  std::string match;
  std::string dir = ".";
  std::string format;
  bool skip_failed = false;
  bool no_resume = false;
  std::size_t concurrency = 4;
};

bool contains_ci(const std::string& text, const std::string& part) {
  return normalise_group(text).find(normalise_group(part)) != std::string::npos;
}

/// One analysis of the study and what became of its summary file.
struct AnalysisFile {
  std::string accession;
  const FileRow* row = nullptr;
  bool from_v1 = false;  // a pre-V6 file API v2 lists without a URL, found on API v1
  std::exception_ptr failure;
  tables::SummaryFile summary;
};

std::string joined_aliases(const std::vector<const FileRow*>& rows) {
  std::string out;
  for (const FileRow* r : rows) out += (out.empty() ? "" : ", ") + r->alias;
  return out;
}

/// The same table asked of API v1, which serves the results of pipelines
/// before V6 under its own group names (`mgnify downloads --api v1` lists them).
std::string v1_command(const AbundanceArgs& args) {
  std::string command = "mgnify abundance-table " + shell_word(args.study) + " --api v1 -p " +
                        shell_word(args.pipeline) + " -g " + shell_word(v1_group_of(args.group));
  if (!args.match.empty()) command += " --match " + shell_word(args.match);
  command += " --dir " + shell_word(args.dir);
  if (args.skip_failed) command += " --skip-failed";
  return command;
}

/// Picks each analysis's file in the group (exactly one tabular file, after
/// --match); `owners` are the analyses of the pipeline, `rows` their files in the group.
std::vector<AnalysisFile> pick_files(const AbundanceArgs& args,
                                     const std::vector<std::string>& owners,
                                     const std::vector<FileRow>& rows,
                                     const LegacyRouting& routing) {
  std::vector<AnalysisFile> analyses;
  std::map<std::string, std::vector<const FileRow*>> candidates;
  for (const auto& owner : owners) {
    if (candidates.emplace(owner, std::vector<const FileRow*>()).second)
      analyses.push_back({owner, nullptr, false, nullptr, {}});
  }
  for (const auto& row : rows) {
    const std::string type = normalise_group(row.file_type);
    if (type != "tsv" && type != "csv") continue;
    if (!args.match.empty() && !contains_ci(row.alias, args.match) &&
        !contains_ci(row.description, args.match)) {
      continue;
    }
    candidates[row.accession].push_back(&row);
  }
  for (auto& a : analyses) {
    const auto& found = candidates[a.accession];
    if (found.size() > 1) {
      throw UsageError(a.accession + " has " + std::to_string(found.size()) + " tables in group '" +
                       args.group + "' (" + joined_aliases(found) +
                       "); pick one with --match TEXT (part of its name or description)");
    }
    if (found.empty()) {
      a.failure = std::make_exception_ptr(
          mgnify::Error("no table in group '" + args.group + "'" +
                        (args.match.empty() ? std::string() : " matching '" + args.match + "'") +
                        " (`mgnify downloads " + a.accession + "` lists its files)"));
      continue;
    }
    a.row = found.front();
    const auto index = static_cast<std::size_t>(a.row - rows.data());
    a.from_v1 = index < routing.from_v1.size() && routing.from_v1[index];
    const auto lookup_failure = routing.lookup_error_of.find(a.accession);
    if (a.row->url.empty() && lookup_failure != routing.lookup_error_of.end()) {
      // API v1 could not be asked for the file: its error, and exit code, say why.
      a.failure = lookup_failure->second;
    } else if (a.row->url.empty()) {
      a.failure = std::make_exception_ptr(mgnify::Error(
          "the service publishes no URL for " + a.row->alias +
          (args.api == "v2" ? " (a pre-V6 result, and API v1 lists no file of that name for " +
                                  a.accession + "); try: " + v1_command(args)
                            : std::string())));
    } else if (!safe_component(a.row->accession) || !safe_component(a.row->alias)) {
      a.failure = std::make_exception_ptr(mgnify::Error("unsafe file name " + a.row->alias));
    }
  }
  return analyses;
}

/// Downloads (or finds, already verified) each picked file and parses it.
void fetch_and_parse(std::vector<AnalysisFile>& analyses, const AbundanceArgs& args, Api api,
                     const Settings& settings) {
  // Files routed to API v1 go in a batch of their own, on v1's session.
  std::vector<downloads::DownloadJob> jobs;
  std::vector<AnalysisFile*> owners;
  std::vector<downloads::DownloadJob> v1_jobs;
  std::vector<AnalysisFile*> v1_owners;
  for (auto& a : analyses) {
    if (a.failure) continue;
    (a.from_v1 ? v1_jobs : jobs)
        .push_back(download_job(*a.row, fs::path(args.dir), !args.no_resume));
    (a.from_v1 ? v1_owners : owners).push_back(&a);
  }
  auto run_batch = [&args](mgnify::http::Session& session,
                           const std::vector<downloads::DownloadJob>& batch) {
    ProgressBar bar("download");
    mgnify::BatchOptions options;
    options.concurrency = args.concurrency;
    auto batch_results = downloads::download_many(
        session, batch, options, [&bar](const downloads::BatchProgress& p) {
          bar.bytes(p.bytes_done, p.bytes_total, p.files_done, p.files_total);
        });
    bar.finish();
    return batch_results;
  };
  auto results = run_batch(*download_session(settings, api), jobs);
  if (!v1_jobs.empty()) {
    print_error("note: " + std::to_string(v1_jobs.size()) +
                (v1_jobs.size() == 1 ? " file" : " files") +
                " without a URL on API v2 (pre-V6 results) fetched from API v1");
    auto v1_results = run_batch(*download_session(legacy_v1_settings(settings), Api::v1), v1_jobs);
    for (auto& r : v1_results) results.push_back(std::move(r));
    for (auto& j : v1_jobs) jobs.push_back(std::move(j));
    owners.insert(owners.end(), v1_owners.begin(), v1_owners.end());
  }
  for (std::size_t j = 0; j < results.size(); ++j) {
    AnalysisFile& a = *owners[j];
    if (!results[j]) {
      a.failure = results[j].exception();
      continue;
    }
    try {
      a.summary =
          tables::parse_summary(read_maybe_gzip(jobs[j].path), a.accession + " " + a.row->alias);
    } catch (const std::exception&) {
      a.failure = std::current_exception();
    }
  }
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buffer;
}

std::string message_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    return error_message(e);
  }
}

int run_abundance_table(const AbundanceArgs& args, const Settings& settings) {
  no_page_size(settings, "abundance-table");
  no_columns(settings, "abundance-table");
  if (settings.max_items) {
    throw UsageError("--max does not apply to 'abundance-table': the matrix has every analysis");
  }
  const TableFormat format = table_format(args.format, settings);
  if (format == TableFormat::ndjson) {
    throw UsageError("abundance-table writes tsv, csv or json (BIOM), not ndjson");
  }

  Selection selection;
  selection.api = args.api == "v1" ? Api::v1 : Api::v2;
  selection.accession = mgnify_accession(args.study);
  selection.pipeline = args.pipeline;
  selection.concurrency = args.concurrency;
  // The group is matched as `downloads -g` matches it, in the listing, so a
  // group no analysis has is refused before any file is fetched.
  selection.groups = {args.group};
  std::exception_ptr listing_failure;
  Available available;
  auto rows = list_files(selection, settings, listing_failure, &available);
  // list_files has named the analyses it could not list on stderr.
  if (listing_failure && !args.skip_failed) std::rethrow_exception(listing_failure);
  const std::string no_match = no_match_message(selection, rows, available);
  if (!no_match.empty()) {
    print_error(no_match);
    return listing_failure ? exit_code_for(listing_failure) : kNotFound;
  }
  // Pre-V6 results on API v2 have no URL; API v1 serves them, as for `download`.
  LegacyRouting routing;
  routing.from_v1.assign(rows.size(), false);
  if (selection.api == Api::v2) routing = route_legacy_files(rows, settings, args.concurrency);

  auto analyses = pick_files(args, available.owners, rows, routing);
  if (analyses.empty()) {
    throw UsageError("no analyses of " + selection.accession + " with pipeline " + args.pipeline +
                     " (`mgnify downloads " + selection.accession + "` lists them)");
  }
  fetch_and_parse(analyses, args, selection.api, settings);

  std::exception_ptr first_failure = listing_failure;
  tables::AbundanceMatrix matrix;
  for (auto& a : analyses) {
    if (!a.failure) {
      try {
        matrix.add(a.accession, a.summary);
      } catch (const std::exception&) {
        a.failure = std::current_exception();
      }
    }
    if (!a.failure) continue;
    print_error((args.skip_failed ? "skipped " : "") + a.accession + ": " + message_of(a.failure));
    if (!first_failure) first_failure = a.failure;
  }
  // Without --skip-failed a partial matrix is never printed: a missing column
  // would look like an analysis that found nothing.
  if (first_failure && !args.skip_failed) return exit_code_for(first_failure);

  if (format == TableFormat::json) {
    tables::BiomOptions biom;
    biom.id = selection.accession + " " + args.group + " pipeline " + args.pipeline;
    biom.date = utc_now();
    Writer out(std::cout, Format::json);
    out.write(tables::to_biom(matrix, biom));
    out.finish();
  } else {
    write_delimited(tables::to_table(matrix), format, settings);
  }
  return first_failure ? exit_code_for(first_failure) : kOk;
}

/// The study argument and --api, as both table commands take them.
void add_study_and_api(CLI::App& cmd, std::string& study, std::string& api) {
  cmd.add_option("study", study,
                 "MGYS study (or its ERP/SRP/DRP/PRJ accession); any case, zero padding "
                 "optional (mgys1)")
      ->required();
  cmd.add_option("--api", api, "which API to ask")
      ->check(CLI::IsMember({"v1", "v2"}))
      ->capture_default_str();
}

}  // namespace

void add_table_commands(CLI::App& app, Context& ctx) {
  auto samples = std::make_shared<SamplesArgs>();
  auto* samples_cmd = app.add_subcommand(
      "samples-table",
      "A study's samples as a table: one row per sample, its own attributes (biome, "
      "location, date) first, then one column per metadata key, with units in the header "
      "(like mg-toolkit original_metadata or MGnifyR getMetadata)");
  add_study_and_api(*samples_cmd, samples->study, samples->api);
  add_table_format(*samples_cmd, samples->format, {"tsv", "csv", "json", "ndjson"},
                   "tsv, csv, json (an array of one object per sample) or ndjson (one object "
                   "per line)");
  help_formatter(*samples_cmd).not_applicable(samples_cmd, {"--columns"});
  samples_cmd->callback([&ctx, samples] {
    ctx.action = [&ctx, samples] { return run_samples_table(*samples, ctx.settings); };
  });

  auto abundance = std::make_shared<AbundanceArgs>();
  auto* abundance_cmd = app.add_subcommand(
      "abundance-table",
      "Merge the summary file of every analysis of a study (one pipeline version, one result "
      "group) into a feature-by-analysis count matrix (like MGnifyR getResult); files are "
      "downloaded as `mgnify download` does: resumed, verified, kept in DIR");
  add_study_and_api(*abundance_cmd, abundance->study, abundance->api);
  help_formatter(*abundance_cmd).not_applicable(abundance_cmd, {"--columns", "--page-size"});
  add_nonempty_option(*abundance_cmd, "-p,--pipeline", abundance->pipeline,
                      "pipeline version of the analyses (v1: 4.1, 5.0; v2: V6, 6.1)")
      ->required();
  add_nonempty_option(
      *abundance_cmd, "-g,--group", abundance->group,
      "result group: v2 download groups such as taxonomies.closed_reference.ssu, "
      "taxonomies.closed_reference.lsu, functional_annotation.go_slims, "
      "functional_annotation.interpro_identifiers, functional_annotation.pfams; v1 group types "
      "such as 'Taxonomic analysis SSU rRNA' or 'Functional analysis' (with --match)")
      ->required();
  help_formatter(*abundance_cmd).completes_with(abundance_cmd, "--group", known_groups());
  add_nonempty_option(*abundance_cmd, "--match", abundance->match,
                      "only the group's tables whose file name or description contains this "
                      "(for groups with several tables per analysis)");
  add_nonempty_option(*abundance_cmd, "-o,--dir", abundance->dir,
                      "where the summary files are downloaded to (DIR/<analysis>/<file>) and "
                      "found again by later runs")
      ->default_str(".");
  abundance_cmd->add_flag("--skip-failed", abundance->skip_failed,
                          "leave out analyses whose file is missing or unreadable, name them on "
                          "stderr and still exit non-zero (default: no matrix at all)");
  abundance_cmd->add_flag("--no-resume", abundance->no_resume,
                          "discard .part files of earlier runs");
  add_number_option(*abundance_cmd, "--concurrency", abundance->concurrency, std::size_t{1},
                    std::size_t{64}, "requests in flight")
      ->default_str(std::to_string(abundance->concurrency));
  add_table_format(*abundance_cmd, abundance->format, {"tsv", "csv", "json"},
                   "tsv, csv, or json (a BIOM 1.0 table: OTU table for taxonomy, Function "
                   "table otherwise)");
  abundance_cmd->callback([&ctx, abundance] {
    ctx.action = [&ctx, abundance] { return run_abundance_table(*abundance, ctx.settings); };
  });
}

}  // namespace mgnify_cli
