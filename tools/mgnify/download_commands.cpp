// `mgnify downloads` (list a study's or analysis's files as a manifest) and
// `mgnify download` (fetch them: resumable, verified, several at a time).

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mgnify/files/checksum.hpp>
#include <mgnify/files/download.hpp>
#include <mgnify/files/manifest.hpp>
#include <mgnify/http/session.hpp>
#include <mgnify/v1/client.hpp>
#include <mgnify/v2/client.hpp>
#include <string>
#include <system_error>
#include <vector>

#include "accession.hpp"
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
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file)
    throw mgnify::FileError(path, std::make_error_code(std::errc::io_error),
                            "cannot write manifest");
  files::write_manifest(file, rows);
  file.flush();
  if (!file)
    throw mgnify::FileError(path, std::make_error_code(std::errc::io_error),
                            "cannot write manifest");
}

void settings_columns_or_default(Settings& settings, const std::vector<std::string>& columns) {
  if (settings.columns.empty()) settings.columns = columns;
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
      if (!manifest_out->empty()) write_manifest(rows, *manifest_out);
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
      const std::string no_match = no_match_message(selection, rows, available);
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
  add_nonempty_option(*download, "-o,--dir", *dir, "destination directory")->default_str(".");
  download->add_flag("--no-resume", *no_resume, "discard .part files of earlier runs");
  download->callback([&ctx, get_args, manifest_in, dir, no_resume, manifest_option] {
    ctx.action = [&ctx, get_args, manifest_in, dir, no_resume, manifest_option] {
      no_page_size(ctx.settings, "download");
      const bool from_manifest = manifest_option->count() > 0;
      if (from_manifest == !get_args->selection.accession.empty()) {
        throw UsageError("download: give an accession or --manifest FILE, not both or neither");
      }
      const Selection selection = selection_of(*get_args);
      if (selection.concurrency == 0) throw UsageError("--concurrency must be at least 1");

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
      } else {
        Available available;
        rows = list_files(selection, ctx.settings, failure, &available);
        no_match = no_match_message(selection, rows, available);
      }
      LegacyRouting routing;
      routing.from_v1.assign(rows.size(), false);
      if (selection.api == Api::v2) {
        routing = route_legacy_files(rows, ctx.settings, selection.concurrency);
      }

      auto session = download_session(ctx.settings, selection.api);
      auto v1_session = download_session(legacy_v1_settings(ctx.settings), Api::v1);

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
        if (routing.from_v1[i]) {
          v1_jobs.push_back(std::move(job));
          v1_index.push_back(i);
        } else {
          jobs.push_back(std::move(job));
          index.push_back(i);
        }
      }

      // Ctrl-C (or a scheduler's SIGTERM) stops the transfers, keeping their
      // .part files, and the report below says what is done and what is left.
      const mgnify::CancelToken interrupt;
      const InterruptScope interrupt_scope(interrupt);
      auto run_batch = [&selection, &interrupt](http::Session& batch_session,
                                                const std::vector<files::DownloadJob>& batch) {
        ProgressBar bar("download");
        mgnify::BatchOptions options;
        options.concurrency = selection.concurrency;
        options.cancel = interrupt;
        auto results = files::download_many(
            batch_session, batch, options, [&bar](const files::BatchProgress& p) {
              bar.bytes(p.bytes_done, p.bytes_total, p.files_done, p.files_total);
            });
        bar.finish();
        return results;
      };
      auto results = run_batch(*session, jobs);
      if (!v1_jobs.empty()) {
        print_error("note: " + std::to_string(v1_jobs.size()) +
                    (v1_jobs.size() == 1 ? " file" : " files") +
                    " without a URL on API v2 (pre-V6 results) fetched from API v1");
        auto v1_results = run_batch(*v1_session, v1_jobs);
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
        ++done;
        const files::DownloadResult& d = *results[j];
        r["status"] = d.already_present ? "present" : d.resumed ? "resumed" : "downloaded";
        r["bytes"] = d.bytes;
        if (d.verified_checksum) r["checksum"] = d.verified_checksum->to_string();
        r["sha256"] = local_sha256(d);
      }

      Settings settings = ctx.settings;
      settings_columns_or_default(settings, {"accession", "alias", "path", "status", "bytes",
                                             "checksum", "sha256", "error"});
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
}

}  // namespace mgnify_cli
