// `mgnify downloads` (list a study's or analysis's files as a manifest) and
// `mgnify download` (fetch them: resumable, verified, several at a time).

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mgnify/files/checksum.hpp>
#include <mgnify/files/download.hpp>
#include <mgnify/files/manifest.hpp>
#include <mgnify/files/shard.hpp>
#include <mgnify/http/session.hpp>
#include <mgnify/v1/client.hpp>
#include <mgnify/v2/client.hpp>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "accession_forms.hpp"
#include "commands.hpp"
#include "file_download.hpp"
#include "file_listing.hpp"
#include "help_format.hpp"
#include "interrupts.hpp"
#include "list_option.hpp"
#include "mgnify/default_transport.hpp"
#include "nonempty_option.hpp"
#include "number_option.hpp"
#include "progress.hpp"
#include "replace_file.hpp"

namespace mgnify_cli {

namespace fs = std::filesystem;
namespace http = mgnify::http;
namespace files = mgnify::files;

namespace {

bool is_cancelled(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const mgnify::CancelledError&) {
    return true;
  } catch (...) {
    return false;
  }
}

/// The file's SHA-256 as it now is on disk, whatever the service published
/// (an MD5, a size, nothing): the one digest a later check can always use.
std::string local_sha256(const files::DownloadResult& result) {
  if (result.verified_checksum &&
      result.verified_checksum->algorithm == files::HashAlgorithm::sha256) {
    return result.verified_checksum->hex;
  }
  return files::hash_file(files::HashAlgorithm::sha256, result.path);
}

struct SelectionArgs {
  std::string api = "v2";
  Selection selection;
};

void add_selection(CLI::App& cmd, SelectionArgs& args, bool accession_required) {
  auto* accession =
      cmd.add_option("accession", args.selection.accession,
                     "MGYS study (or its ERP/SRP/DRP/PRJ accession), MGYA analysis or MGYG "
                     "genome; any case, zero padding optional (mgys1)");
  if (accession_required) accession->required();
  cmd.add_option("--api", args.api, "which API to ask")
      ->check(CLI::IsMember({"v1", "v2"}))
      ->capture_default_str();
  add_nonempty_option(cmd, "-p,--pipeline", args.selection.pipeline,
                      "only this pipeline version (4.1, 5.0, V6, 6.1, ...)");
  add_list_option(
      cmd, "-g,--group", args.selection.groups,
      "only these result groups (repeatable or comma-separated): v1 group types such as "
      "taxonomic_analysis_ssu_rrna, v2 download groups such as taxonomies.closed_reference "
      "(prefix) or download types such as functional_analysis");
  help_formatter(cmd).completes_with(&cmd, "--group", known_groups());
  cmd.add_flag("--study-summaries", args.selection.study_summaries,
               "for a study: its own summary files instead of its analyses' files");
  add_number_option(cmd, "--concurrency", args.selection.concurrency, std::size_t{1},
                    std::size_t{64}, "requests in flight")
      ->default_str(std::to_string(args.selection.concurrency));
}

Selection selection_of(const SelectionArgs& args) {
  Selection s = args.selection;
  s.api = args.api == "v1" ? Api::v1 : Api::v2;
  s.accession = mgnify_accession(s.accession);
  return s;
}

void write_manifest(const std::vector<FileRow>& rows, const std::string& path) {
  std::ostringstream text;
  files::write_manifest(text, rows);
  replace_file(path, text.str(), "manifest");
}

void settings_columns_or_default(Settings& settings, const std::vector<std::string>& columns) {
  if (settings.columns.empty()) settings.columns = columns;
}

/// A Slurm array variable as a whole number, or a usage error naming it.
std::optional<long long> slurm_number(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno || *end || value < 0) {
    throw UsageError(std::string("--shard slurm: ") + name + " is not a whole number: '" + text +
                     "'");
  }
  return value;
}

/// This task's shard of a Slurm job array (`sbatch --array=A-B[:S]`): the
/// task's position in the array, whatever the first ID and step.
files::ShardSpec slurm_shard() {
  const auto id = slurm_number("SLURM_ARRAY_TASK_ID");
  if (!id) {
    throw UsageError(
        "--shard slurm: SLURM_ARRAY_TASK_ID is not set; run it as a task of sbatch --array, or "
        "give --shard I/N");
  }
  const auto min = slurm_number("SLURM_ARRAY_TASK_MIN");
  const auto max = slurm_number("SLURM_ARRAY_TASK_MAX");
  const auto count = slurm_number("SLURM_ARRAY_TASK_COUNT");
  const long long step = slurm_number("SLURM_ARRAY_TASK_STEP").value_or(1);
  if (!min || (!max && !count)) {
    throw UsageError(
        "--shard slurm: the array's size is unknown (SLURM_ARRAY_TASK_MIN and "
        "SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX are not set)");
  }
  if (step < 1 || *id < *min || (*id - *min) % step) {
    throw UsageError("--shard slurm: task " + std::to_string(*id) +
                     " is not in the array starting at " + std::to_string(*min) + " with step " +
                     std::to_string(step));
  }
  // An array given as a list (--array=1,5,9) has a count but no regular
  // step; its IDs cannot be mapped to shards without gaps, so it is refused.
  const long long n = count ? *count : (*max - *min) / step + 1;
  const long long index = (*id - *min) / step;
  if (max && count && (*max - *min) / step + 1 != *count) {
    throw UsageError(
        "--shard slurm: the array's IDs are not one range A-B[:S] (SLURM_ARRAY_TASK_COUNT "
        "disagrees with MIN, MAX and STEP); submit it as --array=A-B");
  }
  if (n < 1 || index >= n || n > static_cast<long long>(files::kMaxShards)) {
    throw UsageError("--shard slurm: task " + std::to_string(*id) + " is outside an array of " +
                     std::to_string(n));
  }
  return files::ShardSpec{static_cast<std::size_t>(index), static_cast<std::size_t>(n)};
}

files::ShardSpec shard_spec(const std::string& text) {
  if (text == "slurm") return slurm_shard();
  try {
    return files::parse_shard(text);
  } catch (const mgnify::InvalidArgument& e) {
    throw UsageError(std::string("--shard: ") + e.what() + " (or 'slurm')");
  }
}

/// "shard-2-of-4": the CLI's 1-based numbering.
std::string shard_name(const files::ShardSpec& spec) {
  return "shard-" + std::to_string(spec.index + 1) + "-of-" + std::to_string(spec.count);
}

const std::vector<std::string>& result_columns() {
  static const std::vector<std::string> columns = {"accession", "alias",    "path",   "status",
                                                   "bytes",     "checksum", "sha256", "error"};
  return columns;
}

/// One record of the download report as a line of the result manifest.
std::string results_line(const nlohmann::json& r) {
  const auto& columns = result_columns();
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const auto& cell = r.at(columns[i]);
    const std::string text = cell.is_null()     ? std::string()
                             : cell.is_string() ? cell.get<std::string>()
                                                : cell.dump();
    line += (i ? "\t" : "") + mgnify::tables::tsv_escape(text);
  }
  return line + '\n';
}

/// The download report as a TSV file: the result manifest a shard leaves for
/// `mgnify verify --results`.
void write_results(const std::vector<nlohmann::json>& report, const fs::path& path) {
  std::string text;
  const auto& columns = result_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) text += (i ? "\t" : "") + columns[i];
  text += '\n';
  for (const auto& r : report) text += results_line(r);
  replace_file(path, text, "results");
}

/// The result manifest kept while a shard runs, so that a shard killed
/// outright (SIGKILL, a node lost) still vouches for the files it finished:
/// it starts as the header and the rows already decided, and each finished
/// file's row is appended in one write(2), which a kill leaves whole or
/// absent. At the end write_results replaces it with the whole report.
class ResultsLog {
 public:
  ResultsLog(const fs::path& path, const std::vector<nlohmann::json>& decided) : path_(path) {
    write_results(decided, path);
    // Not through a link planted at `path` since write_results renamed it there.
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd_ < 0) fail(errno);
  }
  ResultsLog(const ResultsLog&) = delete;
  ResultsLog& operator=(const ResultsLog&) = delete;
  ~ResultsLog() { close(); }

  void append(const nlohmann::json& row) {
    const std::string line = results_line(row);
    std::size_t written = 0;
    while (written < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail(n < 0 ? errno : EIO);
      written += static_cast<std::size_t>(n);
    }
  }

  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  [[noreturn]] void fail(int reason) const {
    throw mgnify::FileError(path_.string(), std::error_code(reason, std::generic_category()),
                            "cannot write results");
  }

  fs::path path_;
  int fd_ = -1;
};

/// What result manifests say about each `accession/alias`: the files that
/// list it as on disk and the SHA-256 each recorded.
struct RecordedResults {
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> fetched;
};

RecordedResults read_results(const std::vector<std::string>& paths) {
  RecordedResults out;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
      throw mgnify::FileError(path, std::make_error_code(std::errc::io_error),
                              "cannot read results");
    std::string line;
    if (!std::getline(in, line)) continue;
    const auto header = files::detail::manifest_cells(line);
    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
    for (const char* required : {"accession", "alias", "status", "sha256"}) {
      if (!column.count(required))
        throw UsageError("--results " + path + " has no '" + required + "' column");
    }
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const auto cells = files::detail::manifest_cells(line);
      auto cell = [&](const char* name) {
        const auto i = column.at(name);
        return i < cells.size() ? cells[i] : std::string();
      };
      const std::string status = cell("status");
      if (status != "downloaded" && status != "resumed" && status != "present") continue;
      out.fetched[cell("accession") + "/" + cell("alias")].emplace_back(path, cell("sha256"));
    }
  }
  return out;
}

/// The result manifests shards leave by default, in name order.
std::vector<std::string> default_results(const fs::path& dir) {
  std::vector<std::string> paths;
  std::error_code error;
  const fs::path folder = dir / ".mgnify-results";
  if (!fs::is_directory(folder, error)) return paths;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (entry.path().extension() == ".tsv") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

/// The SHA-256 of a finished file that the service gives no checksum or size
/// for, when a result manifest recorded that digest for it and the file on
/// disk still has it; empty otherwise (the file is fetched again).
std::string recorded_copy(const FileRow& row, const fs::path& path,
                          const RecordedResults& recorded) {
  const auto it = recorded.fetched.find(files::shard_key(row));
  std::error_code error;
  if (it == recorded.fetched.end() || !fs::is_regular_file(path, error)) return {};
  const std::string local = files::hash_file(files::HashAlgorithm::sha256, path);
  for (const auto& entry : it->second) {
    if (!entry.second.empty() && entry.second == local) return local;
  }
  return {};
}

/// One manifest row checked on disk: "" when verified, else what is wrong.
std::string verify_row(const FileRow& row, const fs::path& path, const RecordedResults& results,
                       std::string& how) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) {
    const auto part = files::partial_path(path);
    if (fs::is_regular_file(part, error)) {
      return "incomplete: only " + std::to_string(fs::file_size(part, error)) + " bytes in .part";
    }
    return "missing";
  }
  const std::uint64_t size = fs::file_size(path, error);
  if (row.size_bytes && size != *row.size_bytes) {
    return "wrong size: " + std::to_string(size) + " bytes, manifest says " +
           std::to_string(*row.size_bytes);
  }
  std::string sha256;
  const auto checksum = files::Checksum::from_record(row.checksum_algorithm, row.checksum);
  if (checksum) {
    const std::string local = files::hash_file(checksum->algorithm, path);
    if (!checksum->matches(local)) {
      return std::string("wrong checksum: ") + files::hash_algorithm_name(checksum->algorithm) +
             " " + local + ", manifest says " + checksum->hex;
    }
    if (checksum->algorithm == files::HashAlgorithm::sha256) sha256 = local;
    how = "checksum";
  } else if (row.size_bytes) {
    how = "size";
  }
  const auto it = results.fetched.find(files::shard_key(row));
  if (it != results.fetched.end()) {
    if (it->second.size() > 1) {
      return "fetched by more than one shard: " + it->second[0].first + " and " +
             it->second[1].first;
    }
    if (!it->second[0].second.empty()) {
      if (sha256.empty()) sha256 = files::hash_file(files::HashAlgorithm::sha256, path);
      if (!files::Checksum::of(files::HashAlgorithm::sha256, sha256)
               .matches(it->second[0].second)) {
        return "changed since download: sha256 " + sha256 + ", " + it->second[0].first + " says " +
               it->second[0].second;
      }
      how = how.empty() ? "sha256" : how + "+sha256";
    }
  }
  if (how.empty()) how = "present";
  return "";
}

}  // namespace

void add_download_commands(CLI::App& app, Context& ctx) {
  // downloads: the listing.
  auto list_args = std::make_shared<SelectionArgs>();
  auto manifest_out = std::make_shared<std::string>();
  auto* downloads = app.add_subcommand(
      "downloads",
      "List the files of a study, analysis or genome (like mg-toolkit bulk_download -p -g)");
  add_selection(*downloads, *list_args, true);
  help_formatter(*downloads).not_applicable(downloads, {"--page-size"});
  add_nonempty_option(*downloads, "--manifest", *manifest_out,
                      "also write the list as a manifest TSV to this file");
  downloads->callback([&ctx, list_args, manifest_out] {
    ctx.action = [&ctx, list_args, manifest_out] {
      no_page_size(ctx.settings, "downloads");
      std::exception_ptr failure;
      Available available;
      const Selection selection = selection_of(*list_args);
      const auto rows = list_files(selection, ctx.settings, failure, &available);
      const std::string no_match = no_match_message(selection, rows, available);
      // A failed listing writes no manifest: a part of the list would pass for all of it.
      if (!manifest_out->empty() && !failure && no_match.empty()) {
        write_manifest(rows, *manifest_out);
      }
      Settings settings = ctx.settings;
      settings_columns_or_default(settings, manifest_columns());
      // This TSV is the manifest `download --manifest` reads back, cell for cell.
      settings.formula_guard = false;
      Writer out = stdout_writer(settings);
      out.escape_cells();
      out.begin_list();
      for (const auto& row : rows) out.write(to_json(row));
      out.finish();
      const int code = failure ? exit_code_for(failure) : kOk;
      if (!no_match.empty()) {
        print_error(no_match);
        return code == kOk ? kNotFound : code;
      }
      return code;
    };
  });

  // download: the transfer.
  auto get_args = std::make_shared<SelectionArgs>();
  auto manifest_in = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>(".");
  auto no_resume = std::make_shared<bool>(false);
  auto* download =
      app.add_subcommand("download",
                         "Download the selected files (or a manifest's) to "
                         "DIR/<accession>/<alias>: resumed from .part "
                         "files, verified against checksums and sizes, several at a time");
  add_selection(*download, *get_args, false);
  help_formatter(*download).not_applicable(download, {"--page-size"});
  auto* manifest_option =
      add_nonempty_option(*download, "--manifest", *manifest_in,
                          "read the files from this manifest (from `mgnify downloads`)");
  add_nonempty_option(*download, "--dir", *dir, "destination directory")->default_str(".");
  download->add_flag("--no-resume", *no_resume, "discard .part files of earlier runs");
  auto shard = std::make_shared<std::string>();
  auto results_out = std::make_shared<std::string>();
  auto total_rate = std::make_shared<std::optional<double>>();
  add_nonempty_option(*download, "--shard", *shard,
                      "with --manifest: download only shard I of N (1-based, I/N), or 'slurm' "
                      "for this task's shard of a Slurm job array")
      ->type_name("I/N|slurm");
  add_number_option(*download, "--total-rate", *total_rate, 0.001, 10000.0,
                    "with --shard: requests per second that all N shards share; each takes "
                    "1/N of it")
      ->default_str("10");
  add_nonempty_option(*download, "--results", *results_out,
                      "also write the report as a TSV result manifest (status, bytes, sha256) to "
                      "this file; with --shard the default is DIR/.mgnify-results/shard-I-of-N.tsv")
      ->type_name("FILE");
  download->callback([&ctx, get_args, manifest_in, dir, no_resume, manifest_option, shard,
                      results_out, total_rate] {
    ctx.action = [&ctx, get_args, manifest_in, dir, no_resume, manifest_option, shard, results_out,
                  total_rate] {
      no_page_size(ctx.settings, "download");
      const bool from_manifest = manifest_option->count() > 0;
      if (from_manifest == !get_args->selection.accession.empty()) {
        throw UsageError("download: give an accession or --manifest FILE, not both or neither");
      }
      const Selection selection = selection_of(*get_args);
      if (selection.concurrency == 0) throw UsageError("--concurrency must be at least 1");
      Settings net = ctx.settings;
      std::optional<files::ShardSpec> spec;
      if (!shard->empty()) {
        if (!from_manifest) throw UsageError("--shard applies to --manifest only");
        spec = shard_spec(*shard);
        if (net.rate_limit && total_rate->has_value()) {
          throw UsageError(
              "give --total-rate (shared by the shards) or --rate-limit (per "
              "process), not both");
        }
        if (!net.rate_limit) {
          // The service's budget is the cluster's, not each process's: N shards
          // at 1/N each. A burst of one keeps N processes starting together
          // from sending N bursts at once.
          net.rate_limit = total_rate->value_or(http::RateLimitOptions{}.requests_per_second) /
                           static_cast<double>(spec->count);
          if (!net.rate_burst) net.rate_burst = 1.0;
        }
      } else if (*total_rate) {
        throw UsageError("--total-rate applies with --shard only (else use --rate-limit)");
      }

      std::exception_ptr failure;
      std::vector<FileRow> rows;
      std::string no_match;
      if (from_manifest) {
        errno = 0;
        std::ifstream in(*manifest_in, std::ios::binary);
        if (!in) {
          // A local file error (exit 1), like a manifest that cannot be written.
          const int reason = errno;
          throw mgnify::FileError(*manifest_in,
                                  reason ? std::error_code(reason, std::generic_category())
                                         : std::make_error_code(std::errc::io_error),
                                  "cannot read manifest");
        }
        rows = read_manifest(in, *manifest_in);
        if (ctx.settings.max_items && rows.size() > *ctx.settings.max_items)
          rows.resize(*ctx.settings.max_items);
        if (spec) rows = files::select_shard(rows, *spec);
      } else {
        Available available;
        rows = list_files(selection, net, failure, &available);
        no_match = no_match_message(selection, rows, available);
        if (!no_match.empty() && rows.empty()) {
          // Nothing to fetch: no results file is started, and the report is empty.
          Settings settings = ctx.settings;
          settings_columns_or_default(settings, result_columns());
          Writer out = stdout_writer(settings);
          out.begin_list();
          out.finish();
          print_error(no_match);
          return failure ? exit_code_for(failure) : kNotFound;
        }
      }
      LegacyRouting routing;
      routing.from_v1.assign(rows.size(), false);
      if (selection.api == Api::v2) {
        routing = route_legacy_files(rows, net, selection.concurrency);
      }

      auto session = download_session(net, selection.api);
      auto v1_session = download_session(legacy_v1_settings(net), Api::v1);

      std::string results_path = *results_out;
      if (results_path.empty() && spec) {
        results_path = (fs::path(*dir) / ".mgnify-results" / (shard_name(*spec) + ".tsv")).string();
      }
      // What earlier runs recorded: the only way to know that a file without
      // a checksum or size in the manifest was finished (docs/cluster.md, Resuming).
      std::vector<std::string> recorded_paths = default_results(fs::path(*dir));
      std::error_code exists_error;
      if (!results_path.empty() && fs::is_regular_file(results_path, exists_error) &&
          std::find(recorded_paths.begin(), recorded_paths.end(), results_path) ==
              recorded_paths.end()) {
        recorded_paths.push_back(results_path);
      }
      const RecordedResults recorded = read_results(recorded_paths);

      // One output record per row; `index` maps jobs back to rows. Jobs for
      // files routed to API v1 go in a batch of their own, on v1's session.
      std::vector<nlohmann::json> report(rows.size());
      std::vector<files::DownloadJob> jobs;
      std::vector<std::size_t> index;
      std::vector<files::DownloadJob> v1_jobs;
      std::vector<std::size_t> v1_index;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const FileRow& row = rows[i];
        report[i] = {{"accession", row.accession}, {"alias", row.alias}, {"path", nullptr},
                     {"status", "failed"},         {"bytes", nullptr},   {"checksum", nullptr},
                     {"sha256", nullptr},          {"error", nullptr}};
        if (row.url.empty()) {
          // Said once for all such files, below.
          report[i]["status"] = "skipped";
          report[i]["error"] = "no API publishes a URL for this file";
          continue;
        }
        if (!safe_component(row.accession) || !safe_component(row.alias)) {
          report[i]["error"] = "unsafe file name";
          if (!failure)
            failure = std::make_exception_ptr(mgnify::Error("unsafe file name " + row.alias));
          continue;
        }
        files::DownloadJob job = download_job(row, fs::path(*dir), !*no_resume);
        report[i]["path"] = job.path.string();
        if (!job.options.checksum && !job.options.expected_size) {
          const std::string sha256 = recorded_copy(row, job.path, recorded);
          if (!sha256.empty()) {
            std::error_code size_error;
            report[i]["status"] = "present";
            report[i]["bytes"] = fs::file_size(job.path, size_error);
            report[i]["sha256"] = sha256;
            continue;
          }
        }
        if (routing.from_v1[i]) {
          v1_jobs.push_back(std::move(job));
          v1_index.push_back(i);
        } else {
          jobs.push_back(std::move(job));
          index.push_back(i);
        }
      }

      // The rows decided so far (files kept by a recorded digest, failures)
      // are on disk before the first transfer starts.
      std::optional<ResultsLog> log;
      if (!results_path.empty()) {
        std::vector<nlohmann::json> decided;
        for (const auto& r : report) {
          if (r.at("status") != "failed" || !r.at("error").is_null()) decided.push_back(r);
        }
        log.emplace(results_path, decided);
      }

      // Ctrl-C (or a scheduler's SIGTERM) stops the transfers, keeping their
      // .part files, and the report below says what is done and what is left.
      const mgnify::CancelToken interrupt;
      const InterruptScope interrupt_scope(interrupt);
      std::mutex log_mutex;
      auto run_batch = [&selection, &interrupt, &report, &log, &log_mutex](
                           http::Session& batch_session,
                           const std::vector<files::DownloadJob>& batch,
                           const std::vector<std::size_t>& rows_of) {
        ProgressBar bar("download");
        mgnify::BatchOptions options;
        options.concurrency = selection.concurrency;
        auto results = files::download_many(
            batch_session, batch, options,
            [&bar, &interrupt](const files::BatchProgress& p) {
              // Once stopped, the batch counts the files it gave up as settled too:
              // the line keeps showing what was done.
              if (interrupt.cancelled()) return;
              bar.bytes(p.bytes_done, p.bytes_total, p.files_done, p.files_total);
            },
            // On the downloading threads, each on its own row of the report.
            [&](std::size_t job, const files::DownloadResult& d) {
              nlohmann::json& r = report[rows_of[job]];
              r["status"] = d.already_present ? "present" : d.resumed ? "resumed" : "downloaded";
              r["bytes"] = d.bytes;
              if (d.verified_checksum) r["checksum"] = d.verified_checksum->to_string();
              r["sha256"] = local_sha256(d);
              const std::lock_guard<std::mutex> lock(log_mutex);
              if (log) log->append(r);
            },
            interrupt);
        bar.finish();
        return results;
      };
      auto results = run_batch(*session, jobs, index);
      if (!v1_jobs.empty()) {
        print_error("note: " + std::to_string(v1_jobs.size()) +
                    (v1_jobs.size() == 1 ? " file" : " files") +
                    " without a URL on API v2 (pre-V6 results) fetched from API v1");
        auto v1_results = run_batch(*v1_session, v1_jobs, v1_index);
        for (auto& r : v1_results) results.push_back(std::move(r));
        for (auto& j : v1_jobs) jobs.push_back(std::move(j));
        index.insert(index.end(), v1_index.begin(), v1_index.end());
      }

      const bool interrupted = interrupt.cancelled();
      std::size_t done = 0;
      std::size_t left = 0;
      for (std::size_t j = 0; j < results.size(); ++j) {
        nlohmann::json& r = report[index[j]];
        if (!results[j]) {
          ++left;
          r["error"] = results[j].error().what();
          if (interrupted && is_cancelled(results[j].exception())) {
            // One summary line below instead of a line per file.
            r["status"] = "interrupted";
            continue;
          }
          print_error(jobs[j].url + ": " + results[j].error().what());
          if (!failure) failure = results[j].exception();
          continue;
        }
        // Its row was filled in when it finished (run_batch).
        ++done;
      }

      // Before the report on stdout, so that a reader of stdout that stops
      // early cannot keep the file from being written.
      if (log) {
        log->close();
        write_results(report, results_path);
      }
      Settings settings = ctx.settings;
      settings_columns_or_default(settings, result_columns());
      Writer out = stdout_writer(settings);
      out.begin_list();
      for (const auto& r : report) out.write(r);
      out.finish();
      if (interrupted) {
        std::cout.flush();
        print_error("interrupted: " + std::to_string(done) + " done, " + std::to_string(left) +
                    " left; rerun the same command to resume");
        return interrupted_exit_code();
      }
      int code = failure ? exit_code_for(failure) : kOk;
      // Files that were promised and not fetched never end in success.
      const std::string unrouted = unrouted_message(rows, routing, selection, from_manifest, *dir);
      if (!unrouted.empty()) {
        print_error(unrouted);
        if (code == kOk)
          code = routing.lookup_error ? exit_code_for(routing.lookup_error) : kNotFound;
      }
      if (!no_match.empty()) {
        print_error(no_match);
        if (code == kOk) code = kNotFound;
      }
      return code;
    };
  });
  // verify: the gather step after sharded downloads.
  auto verify_manifest = std::make_shared<std::string>();
  auto verify_dir = std::make_shared<std::string>(".");
  auto verify_results = std::make_shared<std::vector<std::string>>();
  auto* verify = app.add_subcommand(
      "verify",
      "Check that every file of a manifest is in DIR/<accession>/<alias> once and intact "
      "(checksum, else size, and the sha256 of result manifests); exit 1 listing what is "
      "missing or wrong");
  help_formatter(*verify).not_applicable(verify, {"--page-size"});
  help_formatter(*verify).not_applicable(verify, {"--max"},
                                         ": it checks every row of the manifest");
  add_nonempty_option(*verify, "--manifest", *verify_manifest, "the manifest that was downloaded")
      ->required();
  add_nonempty_option(*verify, "--dir", *verify_dir, "download directory")->default_str(".");
  verify
      ->add_option("--results", *verify_results,
                   "result manifests of `download --results` (repeatable; default: "
                   "DIR/.mgnify-results/*.tsv, the shards' own)")
      ->type_name("FILE");
  verify->callback([&ctx, verify_manifest, verify_dir, verify_results] {
    ctx.action = [&ctx, verify_manifest, verify_dir, verify_results] {
      no_page_size(ctx.settings, "verify");
      std::ifstream in(*verify_manifest, std::ios::binary);
      if (!in)
        throw mgnify::FileError(*verify_manifest, std::make_error_code(std::errc::io_error),
                                "cannot read manifest");
      const auto rows = read_manifest(in, *verify_manifest);
      const fs::path dir(*verify_dir);
      const auto results =
          read_results(verify_results->empty() ? default_results(dir) : *verify_results);
      std::map<std::string, std::size_t> listed;
      for (const auto& row : rows) ++listed[files::shard_key(row)];
      std::set<std::string> reported;
      Settings settings = ctx.settings;
      settings_columns_or_default(settings, {"accession", "alias", "path", "status", "detail"});
      Writer out = stdout_writer(settings);
      out.begin_list();
      std::size_t good = 0;
      std::size_t bad = 0;
      for (const auto& row : rows) {
        const std::string key = files::shard_key(row);
        if (!reported.insert(key).second) continue;  // a repeated row is one problem, below
        nlohmann::json record = {{"accession", row.accession},
                                 {"alias", row.alias},
                                 {"path", nullptr},
                                 {"status", "ok"},
                                 {"detail", nullptr}};
        std::string problem;
        std::string how;
        if (!safe_component(row.accession) || !safe_component(row.alias)) {
          problem = "unsafe file name";
        } else {
          const fs::path path = dir / row.accession / row.alias;
          record["path"] = path.string();
          if (listed[key] > 1) {
            problem = "listed " + std::to_string(listed[key]) + " times in the manifest";
          } else if (row.url.empty()) {
            problem = "missing: no API publishes a URL for this file";
          } else {
            problem = verify_row(row, path, results, how);
          }
        }
        if (problem.empty()) {
          ++good;
          record["detail"] = how;
        } else {
          ++bad;
          record["status"] = "bad";
          record["detail"] = problem;
          print_error(key + ": " + problem);
        }
        out.write(record);
      }
      out.finish();
      std::cout.flush();
      print_error("verify: " + std::to_string(good) + " of " + std::to_string(reported.size()) +
                  " files verified" +
                  (bad ? ", " + std::to_string(bad) + " missing or wrong" : std::string()));
      return bad ? kOther : kOk;
    };
  });
}

}  // namespace mgnify_cli
