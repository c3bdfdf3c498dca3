// `mgnify samples-table` (a study's samples by metadata key, like mg-toolkit
// original_metadata and MGnifyR getMetadata) and `mgnify abundance-table`
// (the analyses' summary files of one or more studies merged into one
// feature-by-analysis or feature-by-sample matrix with the samples' metadata,
// like MGnifyR getResult). The tables themselves are built by the library
// (mgnify/tables/); this file fetches and prints.

#include <chrono>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <mgnify/accession.hpp>
#include <mgnify/tables/abundance.hpp>
#include <mgnify/tables/biom.hpp>
#include <mgnify/tables/sample_columns.hpp>
#include <mgnify/tables/sample_metadata.hpp>
#include <mgnify/tables/table.hpp>
#include <mgnify/v1/client.hpp>
#include <mgnify/v2/client.hpp>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "file_download.hpp"
#include "file_listing.hpp"
#include "gzip_text.hpp"
#include "help_format.hpp"
#include "nonempty_option.hpp"
#include "number_option.hpp"

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

/// The one line that says a TSV or CSV table is not byte for byte what the service sent.
void report_written(const tables::WriteReport& report) {
  if (report.replaced_cells == 0) return;
  print_error("warning: " + std::to_string(report.replaced_cells) +
              (report.replaced_cells == 1 ? " cell" : " cells") +
              " held invalid UTF-8, written as U+FFFD (TSV and CSV carry UTF-8 only)");
}

void write_delimited(const tables::Table& table, TableFormat format, const Settings& settings) {
  tables::WriteOptions options;
  options.formula_guard = settings.formula_guard;
  // A file or pipe gets the cells' own bytes, which pandas and readr read
  // back; a terminal must not receive the control sequences they may hold.
  const auto write = [&](const tables::Table& shown) {
    return format == TableFormat::csv ? tables::write_csv(std::cout, shown, options)
                                      : tables::write_tsv(std::cout, shown, options);
  };
  // A terminal's copy shows invalid bytes as visible escapes: nothing is replaced there.
  if (stdout_is_terminal()) {
    write(sanitized(table));
  } else {
    report_written(write(table));
  }
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("cannot write the output (closed pipe or full disk)");
}

/// A sample table row by row; a terminal gets the dense, escaped form
/// (check_cells has bounded it), a file or pipe the rows as they are made.
void write_delimited(const tables::SampleMetadataTable& table, TableFormat format,
                     const Settings& settings) {
  if (stdout_is_terminal()) {
    write_delimited(table.table(), format, settings);
    return;
  }
  tables::WriteOptions options;
  options.formula_guard = settings.formula_guard;
  report_written(format == TableFormat::csv ? table.write_csv(std::cout, options)
                                            : table.write_tsv(std::cout, options));
  std::cout.flush();
  if (!std::cout) throw std::runtime_error("cannot write the output (closed pipe or full disk)");
}

/// --max-columns and --max-cells, for the commands whose tables take their
/// columns from the samples' metadata.
void add_table_limits(CLI::App& cmd, tables::TableLimits& limits, const std::string& table) {
  add_number_option(cmd, "--max-columns", limits.max_columns, std::size_t{1},
                    std::numeric_limits<std::size_t>::max(),
                    "refuse " + table +
                        " of more columns than this (the samples' metadata "
                        "keys make them)")
      ->default_str(std::to_string(limits.max_columns));
  add_number_option(cmd, "--max-cells", limits.max_cells, std::size_t{1},
                    std::numeric_limits<std::size_t>::max(),
                    "refuse " + table + " of more cells (rows x columns) than this")
      ->default_str(std::to_string(limits.max_cells));
}

/// The tables choose their own columns; a --columns selection would be dropped.
void no_columns(const Settings& settings, const std::string& command) {
  if (!settings.columns.empty()) throw UsageError("--columns does not apply to '" + command + "'");
}

// ---- samples-table ----------------------------------------------------------

struct SamplesArgs {
  std::vector<std::string> studies;        // the positional ones
  std::vector<std::string> study_options;  // --study: CLI11 assigns each option's values anew
  std::string studies_file;
  bool listed = false;  // --study or --studies-file given: the study column is added
  std::string api = "v2";
  std::string format;
  tables::TableLimits limits;
};

/// `resolved`, when given, receives the MGYS accession of an INSDC one.
tables::SampleMetadataTable fetch_sample_table(const std::string& study, Api api,
                                               const Settings& settings,
                                               const tables::TableLimits& limits,
                                               std::string* resolved = nullptr) {
  if (resolved) *resolved = study;
  // A short walk (fewer samples than the study's count promised) throws here,
  // before anything is printed, and main() maps it to a failing exit code.
  if (api == Api::v1) {
    const mgnify::v1::LegacyClient client(client_options(settings, Service::v1));
    mgnify::ListOptions list;
    list.page_size = settings.page_size.value_or(mgnify::v1::kMaxPageSize);
    list.max_items = settings.max_items;
    return tables::sample_metadata(client.study_samples(study, list).collect(), limits);
  }
  const mgnify::v2::V2Client client(client_options(settings, Service::v2));
  mgnify::ListOptions list;
  if (settings.page_size) list.page_size = *settings.page_size;
  list.max_items = settings.max_items;
  const std::string accession = mgnify::is_insdc_study_accession(study)
                                    ? client.study_by_insdc_accession(study).accession
                                    : study;
  if (resolved) *resolved = accession;
  return tables::sample_metadata(client.study_samples(accession, list).collect(), limits);
}

std::vector<std::string> studies_of(const std::vector<std::string>& studies,
                                    const std::vector<std::string>& study_options,
                                    const std::string& studies_file, bool analyses);

int run_samples_table(const SamplesArgs& args, const Settings& settings) {
  no_columns(settings, "samples-table");
  const TableFormat format = table_format(args.format, settings);
  const std::vector<std::string> studies =
      studies_of(args.studies, args.study_options, args.studies_file, false);
  const Api api = args.api == "v1" ? Api::v1 : Api::v2;
  const tables::SampleMetadataTable table = [&] {
    if (studies.size() == 1 && !args.listed)
      return fetch_sample_table(studies.front(), api, settings, args.limits);
    // Every study is fetched before anything is printed: a study that fails
    // fails the command rather than leave its rows out.
    std::vector<tables::StudySamples> each;
    for (const auto& study : studies) {
      std::string accession;
      auto samples = fetch_sample_table(study, api, settings, args.limits, &accession);
      each.push_back({std::move(accession), std::move(samples)});
    }
    return tables::studies_sample_metadata(each, args.limits);
  }();
  // Checked before the first line, so that a table past the bound leaves no partial output.
  table.check_cells();
  if (format == TableFormat::tsv || format == TableFormat::csv) {
    write_delimited(table, format, settings);
    return kOk;
  }
  Writer out(std::cout, format == TableFormat::json ? Format::json : Format::ndjson);
  out.begin_list();
  for (std::size_t r = 0; r < table.size(); ++r)
    out.write(table.row_json(r), table.row_number_texts(r));
  out.finish();
  return kOk;
}

// ---- abundance-table --------------------------------------------------------

struct AbundanceArgs {
  std::vector<std::string> studies;        // the positional ones
  std::vector<std::string> study_options;  // --study: CLI11 assigns each option's values anew
  std::string studies_file;
  std::string api = "v2";
  std::string by = "analysis";
  std::string per_sample = "pool";
  bool per_sample_given = false;
  std::string pipeline;
  std::string group;
  std::string match;
  std::string dir = ".";
  std::string format;
  bool skip_failed = false;
  bool no_resume = false;
  std::size_t concurrency = 4;
  tables::TableLimits limits;  // of the BIOM's column metadata
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
std::string v1_command(const AbundanceArgs& args, const std::string& study) {
  std::string command = "mgnify abundance-table " + shell_word(study) + " --api v1 -p " +
                        shell_word(args.pipeline) + " -g " + shell_word(v1_group_of(args.group));
  if (!args.match.empty()) command += " --match " + shell_word(args.match);
  command += " --dir " + shell_word(args.dir);
  if (args.skip_failed) command += " --skip-failed";
  return command;
}

/// Picks each analysis's file in the group (exactly one tabular file, after
/// --match); `owners` are the analyses of the pipeline, `rows` their files in the group.
std::vector<AnalysisFile> pick_files(const AbundanceArgs& args, const std::string& study,
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
                                  a.accession + "); try: " + v1_command(args, study)
                            : std::string())));
    } else if (!safe_component(a.row->accession) || !safe_component(a.row->alias)) {
      a.failure = std::make_exception_ptr(mgnify::Error("unsafe file name " + a.row->alias));
    }
  }
  return analyses;
}

/// Downloads (or finds, already verified) each picked file and parses it;
/// once `transfers` is interrupted, parses nothing.
void fetch_and_parse(std::vector<AnalysisFile>& analyses, const AbundanceArgs& args, Api api,
                     const Settings& settings, InterruptibleDownloads& transfers) {
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
  auto results = transfers.run(*download_session(settings, api), jobs);
  if (!v1_jobs.empty() && !transfers.interrupted()) {
    print_error("note: " + std::to_string(v1_jobs.size()) +
                (v1_jobs.size() == 1 ? " file" : " files") +
                " without a URL on API v2 (pre-V6 results) fetched from API v1");
    auto v1_results =
        transfers.run(*download_session(legacy_v1_settings(settings), Api::v1), v1_jobs);
    for (auto& r : v1_results) results.push_back(std::move(r));
    for (auto& j : v1_jobs) jobs.push_back(std::move(j));
    owners.insert(owners.end(), v1_owners.begin(), v1_owners.end());
  }
  if (transfers.interrupted()) return;
  for (std::size_t j = 0; j < results.size(); ++j) {
    AnalysisFile& a = *owners[j];
    if (!results[j]) {
      a.failure = results[j].exception();
      continue;
    }
    try {
      a.summary =
          tables::parse_summary(read_maybe_gzip(jobs[j].path), a.accession + " " + a.row->alias);
      const auto& differing = a.summary.differing_attributes;
      if (!differing.empty()) {
        print_error("note: " + a.accession + " " + a.row->alias + " lists " +
                    std::to_string(differing.size()) +
                    (differing.size() == 1 ? " feature" : " features") +
                    " on several lines with different attributes (" + differing.front() +
                    (differing.size() > 1 ? ", ..." : "") +
                    "): counts summed, the first line's attributes kept");
      }
    } catch (const std::exception&) {
      a.failure = std::current_exception();
    }
  }
}

/// Now in UTC as "YYYY-MM-DDThh:mm:ss", the form `biom validate-table` accepts.
std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
  return buffer;
}

std::string message_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& e) {
    return error_message(e);
  }
}

/// The studies named as arguments, with --study and in --studies-file (one
/// accession a line; blank lines and '#' comments skipped), in that order,
/// each once; MGYA analyses too when `analyses`. All are checked before any
/// request.
std::vector<std::string> studies_of(const std::vector<std::string>& studies,
                                    const std::vector<std::string>& study_options,
                                    const std::string& studies_file, bool analyses) {
  std::vector<std::string> named = studies;
  named.insert(named.end(), study_options.begin(), study_options.end());
  if (!studies_file.empty()) {
    std::ifstream in(studies_file);
    if (!in) throw UsageError("cannot read --studies-file " + studies_file);
    std::string line;
    while (std::getline(in, line)) {
      const auto hash = line.find('#');
      if (hash != std::string::npos) line.erase(hash);
      const auto first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos) continue;
      named.push_back(line.substr(first, line.find_last_not_of(" \t\r") + 1 - first));
    }
    if (in.bad()) throw UsageError("cannot read --studies-file " + studies_file);
  }
  if (named.empty()) throw UsageError("name a study (STUDY, --study or --studies-file)");
  std::vector<std::string> out;
  for (const auto& study : named) {
    // A typo in a list of studies fails here, not after the others are fetched.
    const std::optional<mgnify::AccessionKind> kind = mgnify::accession_kind(study);
    std::optional<std::string> accession;
    if (kind == mgnify::AccessionKind::study ||
        (analyses && kind == mgnify::AccessionKind::analysis)) {
      accession = mgnify::canonical_accession(study, *kind);
    }
    if (!accession) {
      throw UsageError("'" + study + "' is not a study (MGYS..., ERP, SRP, DRP, PRJ...)" +
                       (analyses ? " or analysis (MGYA...)" : ""));
    }
    if (std::find(out.begin(), out.end(), *accession) == out.end()) out.push_back(*accession);
  }
  return out;
}

/// Which sample and run each analysis of a study (or the one analysis, for
/// an MGYA accession) belongs to, from the study's analysis list; `study_of`
/// receives the study whose samples' metadata apply.
std::vector<tables::AnalysisOrigin> analysis_origins(const std::string& accession, Api api,
                                                     const Settings& settings,
                                                     std::string& study_of) {
  const bool one = accession.rfind("MGYA", 0) == 0;
  std::vector<tables::AnalysisOrigin> origins;
  study_of = accession;
  if (api == Api::v1) {
    const mgnify::v1::LegacyClient client(client_options(settings, Service::v1));
    mgnify::ListOptions list;
    list.page_size = mgnify::v1::kMaxPageSize;
    const auto related = [](const mgnify::v1::Analysis& a, const char* name) {
      const auto* relationship = a.relationship(name);
      const auto id = relationship ? relationship->one() : std::nullopt;
      return id ? id->id : std::string();
    };
    const auto add = [&](const mgnify::v1::Analysis& a, const std::string& study) {
      origins.push_back({a.accession.empty() ? a.id() : a.accession, study, related(a, "sample"),
                         related(a, "run"), a.experiment_type.value_or(""),
                         a.pipeline_version.value_or("")});
    };
    if (one) {
      const auto a = client.analysis(accession);
      study_of = related(a, "study");
      add(a, study_of);
    } else {
      for (const auto& a : client.study_analyses(accession, list)) add(a, accession);
    }
    return origins;
  }
  const mgnify::v2::V2Client client(client_options(settings, Service::v2));
  const auto add = [&](const mgnify::v2::Analysis& a, const std::string& study) {
    origins.push_back({a.accession, a.study_accession.empty() ? study : a.study_accession,
                       a.sample ? a.sample->accession : std::string(),
                       a.run && a.run->accession ? *a.run->accession : std::string(),
                       a.experiment_type.text,
                       a.pipeline_version ? a.pipeline_version->text : std::string()});
  };
  if (one) {
    const auto a = client.analysis(accession);
    study_of = a.study_accession;
    add(a, study_of);
    return origins;
  }
  study_of = mgnify::is_insdc_study_accession(accession)
                 ? client.study_by_insdc_accession(accession).accession
                 : accession;
  for (const auto& a : client.study_analyses(study_of)) add(a, study_of);
  return origins;
}

/// Adds one study's analyses to the matrix; returns the first failure (each
/// is named on stderr). Once `transfers` is interrupted, adds nothing.
std::exception_ptr add_study(tables::AbundanceMatrix& matrix, const std::string& study,
                             const AbundanceArgs& args, Api api, const Settings& settings,
                             InterruptibleDownloads& transfers) {
  Selection selection;
  selection.api = api;
  selection.accession = study;
  selection.pipeline = args.pipeline;
  selection.concurrency = args.concurrency;
  // The group is matched as `downloads -g` matches it, in the listing, so a
  // group no analysis has is refused before any of the study's files is fetched.
  selection.groups = {args.group};
  std::exception_ptr listing_failure;
  Available available;
  auto rows = list_files(selection, settings, listing_failure, &available);
  // list_files has named the analyses it could not list on stderr.
  if (listing_failure && !args.skip_failed) std::rethrow_exception(listing_failure);
  const std::string no_match = no_match_message(selection, rows, available);
  if (!no_match.empty()) {
    if (listing_failure) std::rethrow_exception(listing_failure);
    throw NothingMatched(no_match);
  }
  // Pre-V6 results on API v2 have no URL; API v1 serves them, as for `download`.
  LegacyRouting routing;
  routing.from_v1.assign(rows.size(), false);
  if (api == Api::v2) routing = route_legacy_files(rows, settings, args.concurrency);

  auto analyses = pick_files(args, study, available.owners, rows, routing);
  if (analyses.empty()) {
    throw UsageError("no analyses of " + study + " with pipeline " + args.pipeline +
                     " (`mgnify downloads " + study + "` lists them)");
  }
  fetch_and_parse(analyses, args, api, settings, transfers);
  if (transfers.interrupted()) return nullptr;

  std::exception_ptr first_failure = listing_failure;
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
  return first_failure;
}

/// The groups of known_groups() whose files are count tables, which -g offers
/// to complete: quality control, sequences, reports and parent groups make
/// no matrix.
std::vector<std::string> table_groups() {
  static const std::set<std::string> no_table = {"quality_control",
                                                 "taxonomies",
                                                 "taxonomies.closed_reference",
                                                 "functional_annotation",
                                                 "annotation_summary",
                                                 "mobilome_annotation_pipeline",
                                                 "virify",
                                                 "primer_identification",
                                                 "study_summary",
                                                 "coding_sequences",
                                                 "sequence_data",
                                                 "statistics",
                                                 "non_coding_rnas",
                                                 "genome_analysis"};
  std::vector<std::string> groups;
  for (auto& group : known_groups()) {
    if (no_table.count(group) == 0) groups.push_back(std::move(group));
  }
  return groups;
}

std::string comma_joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

/// One stderr line per column that is not exactly one analysis of a known
/// sample: the several-analyses rule is never applied silently.
void report_columns(const std::vector<tables::MatrixColumn>& columns, const std::string& rule) {
  for (const auto& c : columns) {
    if (c.sample.empty()) {
      print_error("note: " + c.id + " names no sample; its column is the analysis");
      continue;
    }
    if (c.analyses.size() < 2 && c.experiment_type.empty()) continue;
    std::string line = "note: sample " + c.sample;
    if (!c.experiment_type.empty()) {
      line += " has runs of several experiment types, never summed: column " + c.id + " has its " +
              c.experiment_type + " analyses (" + comma_joined(c.analyses) + ")";
    } else {
      line += " has " + std::to_string(c.analyses.size()) + " analyses (" +
              comma_joined(c.analyses) + ")";
    }
    line += ": " + std::string(c.used.size() > 1 ? "counts of " : "used ") + comma_joined(c.used) +
            (c.used.size() > 1 ? " summed (distinct runs)" : "");
    for (const auto& l : c.left_out) {
      using Reason = tables::LeftOut::Reason;
      line += "; left out " + l.analysis + " (" +
              (l.reason == Reason::same_run           ? "same run as " + l.kept + ", which is newer"
               : l.reason == Reason::identical_counts ? "counts identical to " + l.kept
                                                      : rule + " is " + l.kept) +
              ")";
    }
    print_error(line + " (--per-sample " + rule + ")");
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
  if (args.per_sample_given && args.by != "sample")
    throw UsageError("--per-sample applies with --by sample only");
  const std::vector<std::string> studies =
      studies_of(args.studies, args.study_options, args.studies_file, true);
  const Api api = args.api == "v1" ? Api::v1 : Api::v2;
  const bool by_sample = args.by == "sample";
  const bool biom = format == TableFormat::json;

  for (const auto& study : studies) {
    Selection probe;
    probe.api = api;
    probe.accession = study;
    probe.pipeline = args.pipeline;
    probe.groups = {args.group};
    check_groups_first(probe, settings);
  }
  tables::AbundanceMatrix matrix;
  std::exception_ptr first_failure;
  // Ctrl-C (or a scheduler's SIGTERM) during the downloads stops them as in
  // `download`, keeping their .part files for a rerun; no table is written.
  InterruptibleDownloads transfers(args.concurrency);
  for (const auto& study : studies) {
    auto failure = add_study(matrix, study, args, api, settings, transfers);
    if (transfers.interrupted()) return transfers.report_interrupted();
    if (failure && !first_failure) first_failure = failure;
  }
  // Without --skip-failed a partial matrix is never printed: a missing column
  // would look like an analysis that found nothing.
  if (first_failure && !args.skip_failed) return exit_code_for(first_failure);

  // Samples and runs come from the studies' analysis lists, the column
  // metadata of BIOM from their samples' tables.
  std::vector<tables::AnalysisOrigin> origins;
  std::vector<tables::SampleMetadataTable> sample_tables;
  if (by_sample || biom) {
    for (const auto& study : studies) {
      std::string samples_of;
      for (auto& o : analysis_origins(study, api, settings, samples_of))
        origins.push_back(std::move(o));
      if (biom && !samples_of.empty())
        sample_tables.push_back(fetch_sample_table(samples_of, api, settings, args.limits));
    }
  }
  tables::SampleMatrix shaped;
  if (by_sample) {
    const auto merge = args.per_sample == "first"  ? tables::SampleMerge::first
                       : args.per_sample == "last" ? tables::SampleMerge::last
                                                   : tables::SampleMerge::pool_runs;
    shaped = tables::by_sample(matrix, origins, merge);
    report_columns(shaped.columns, args.per_sample == "sum" ? "pool" : args.per_sample);
  } else {
    shaped.columns = tables::analysis_columns(matrix, origins);
    shaped.matrix = std::move(matrix);
  }

  if (biom) {
    tables::BiomOptions options;
    std::string ids;
    for (const auto& study : studies) ids += (ids.empty() ? "" : ",") + study;
    options.id = ids + " " + args.group + " pipeline " + args.pipeline;
    options.date = utc_now();
    options.column_metadata =
        tables::column_metadata(shaped.columns, origins, sample_tables, args.limits);
    Writer out(std::cout, Format::json);
    out.write(tables::to_biom(shaped.matrix, options));
    out.finish();
  } else {
    write_delimited(tables::to_table(shaped.matrix), format, settings);
  }
  return first_failure ? exit_code_for(first_failure) : kOk;
}

/// The studies and --api, as both table commands take them: positional
/// studies, --study (repeatable), --studies-file. Returns the --study and
/// --studies-file options, to tell whether a list was given.
std::pair<CLI::Option*, CLI::Option*> add_studies(CLI::App& cmd, std::vector<std::string>& studies,
                                                  std::vector<std::string>& study_options,
                                                  std::string& studies_file, std::string& api,
                                                  const std::string& positional_help) {
  cmd.add_option("study", studies, positional_help)->type_name("STUDY");
  auto* study = cmd.add_option("--study", study_options,
                               "a study, as the positional argument; repeat for more")
                    ->type_name("STUDY");
  auto* file = add_nonempty_option(cmd, "--studies-file", studies_file,
                                   "a file of studies, one accession a line ('#' starts a "
                                   "comment), added to those named");
  cmd.add_option("--api", api, "which API to ask")
      ->check(CLI::IsMember({"v1", "v2"}))
      ->capture_default_str();
  return {study, file};
}

}  // namespace

void add_table_commands(CLI::App& app, Context& ctx) {
  auto samples = std::make_shared<SamplesArgs>();
  auto* samples_cmd = app.add_subcommand(
      "samples-table",
      "A study's samples as a table: one row per sample, its own attributes (biome, "
      "location, date) first, then one column per metadata key, with units in the header "
      "(like mg-toolkit original_metadata or MGnifyR getMetadata). Several studies: one "
      "table, a study_accession column first, the union of their columns");
  const auto samples_listed = add_studies(
      *samples_cmd, samples->studies, samples->study_options, samples->studies_file, samples->api,
      "MGYS studies (or their ERP/SRP/DRP/PRJ accessions); any case, zero padding optional "
      "(mgys1). Several: one table of all their samples");
  add_table_format(*samples_cmd, samples->format, {"tsv", "csv", "json", "ndjson"},
                   "tsv, csv, json (an array of one object per sample) or ndjson (one object "
                   "per line)");
  add_table_limits(*samples_cmd, samples->limits, "a table");
  help_formatter(*samples_cmd).not_applicable(samples_cmd, {"--columns"});
  samples_cmd->callback([&ctx, samples, samples_listed] {
    samples->listed = samples_listed.first->count() > 0 || samples_listed.second->count() > 0;
    ctx.action = [&ctx, samples] { return run_samples_table(*samples, ctx.settings); };
  });

  auto abundance = std::make_shared<AbundanceArgs>();
  auto* abundance_cmd = app.add_subcommand(
      "abundance-table",
      "Merge the summary file of every analysis of one or more studies (one pipeline version, "
      "one result group) into a count matrix with a column per analysis or per sample, and "
      "in BIOM the samples' metadata and the taxonomy (like MGnifyR getResult; phyloseq "
      "import_biom and mia importBIOM read it); files are downloaded as `mgnify download` "
      "does: resumed, verified, kept in DIR");
  add_studies(*abundance_cmd, abundance->studies, abundance->study_options, abundance->studies_file,
              abundance->api,
              "MGYS studies (or their ERP/SRP/DRP/PRJ accessions); any case, zero padding "
              "optional (mgys1). Several: one matrix of all their analyses");
  abundance_cmd
      ->add_option("--by", abundance->by,
                   "columns: one per analysis, or one per sample (what phyloseq and mia "
                   "expect; see --per-sample)")
      ->check(CLI::IsMember({"analysis", "sample"}))
      ->capture_default_str();
  auto* per_sample =
      abundance_cmd
          ->add_option("--per-sample", abundance->per_sample,
                       "with --by sample, a sample with several analyses: pool its runs (one "
                       "analysis per run: the newest pipeline, then the newest analysis; identical "
                       "counts once; runs of one experiment type summed, of several types a "
                       "column SAMPLE_TYPE each), or keep only the first (lowest accession, "
                       "oldest) or last (highest, newest) analysis; each such sample is named on "
                       "stderr. 'sum' is the former name of pool")
          ->check(CLI::IsMember({"pool", "first", "last", "sum"}))
          ->capture_default_str();
  help_formatter(*abundance_cmd).not_applicable(abundance_cmd, {"--columns", "--page-size"});
  help_formatter(*abundance_cmd)
      .not_applicable(abundance_cmd, {"--max"}, ": the matrix has every analysis");
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
  help_formatter(*abundance_cmd).completes_with(abundance_cmd, "--group", table_groups());
  add_nonempty_option(*abundance_cmd, "--match", abundance->match,
                      "only the group's tables whose file name or description contains this "
                      "(for groups with several tables per analysis)");
  add_nonempty_option(*abundance_cmd, "--dir", abundance->dir,
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
                   "tsv, csv, or json (a BIOM 1.0 table: OTU table for taxonomy, Function table "
                   "otherwise, with "
                   "the taxonomy as a list of ranks and the study, sample and run accessions "
                   "and the samples-table fields as column metadata");
  add_table_limits(*abundance_cmd, abundance->limits, "BIOM column metadata (--format json)");
  abundance_cmd->callback([&ctx, abundance, per_sample] {
    abundance->per_sample_given = per_sample->count() > 0;
    ctx.action = [&ctx, abundance] { return run_abundance_table(*abundance, ctx.settings); };
  });
}

}  // namespace mgnify_cli
