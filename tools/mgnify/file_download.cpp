#include "file_download.hpp"

#include <algorithm>
#include <mgnify/default_transport.hpp>
#include <mgnify/detail/text_escape.hpp>
#include <mgnify/files/checksum.hpp>
#include <mgnify/v1/client.hpp>
#include <mgnify/v2/client.hpp>
#include <optional>

#include "interrupts.hpp"
#include "output.hpp"
#include "progress.hpp"

namespace mgnify_cli {

namespace http = mgnify::http;

bool safe_component(const std::string& name) {
  // Any byte the terminal escaping would rewrite (C0, DEL, C1, invalid UTF-8)
  // makes a name that `ls` or a shell shows as something else, or not at all.
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos &&
         mgnify::detail::escape_text(name, mgnify::detail::Escapes::terminal) == name;
}

downloads::DownloadJob download_job(const FileRow& row, const std::filesystem::path& dir,
                                    bool resume) {
  downloads::DownloadJob job;
  job.url = row.url;
  job.path = dir / row.accession / row.alias;
  job.options.checksum = downloads::Checksum::from_record(row.checksum_algorithm, row.checksum);
  job.options.expected_size = row.size_bytes;
  job.options.resume = resume;
  return job;
}

std::shared_ptr<http::Session> download_session(const Settings& settings, Api api) {
  const Service service = api == Api::v1 ? Service::v1 : Service::v2;
  return std::make_shared<http::Session>(
      mgnify::with_default_transport(client_options(settings, service)),
      api == Api::v1 ? mgnify::v1::defaults::kBaseUrl : mgnify::v2::defaults::kBaseUrl);
}

InterruptibleDownloads::InterruptibleDownloads(std::size_t concurrency)
    : concurrency_(concurrency) {}

std::vector<mgnify::Result<downloads::DownloadResult>> InterruptibleDownloads::run(
    http::Session& session, const std::vector<downloads::DownloadJob>& jobs,
    const downloads::JobFinishedCallback& job_finished) {
  mgnify::BatchOptions options;
  options.concurrency = concurrency_;
  std::vector<mgnify::Result<downloads::DownloadResult>> results;
  if (interrupt_.cancelled()) {
    // Stopped in an earlier batch: this one starts nothing, and draws no line.
    results = downloads::download_many(session, jobs, options, {}, job_finished, interrupt_);
  } else {
    const InterruptScope interrupt_scope(interrupt_);
    ProgressBar bar("download");
    std::uint64_t bytes_seen = 0;
    std::optional<std::uint64_t> bytes_total;
    results = downloads::download_many(
        session, jobs, options,
        [&](const downloads::BatchProgress& p) {
          // Once stopped, the batch counts the files it gave up as settled
          // too; the line is redrawn below with the files that were done.
          if (interrupt_.cancelled()) return;
          bytes_seen = p.bytes_done;
          bytes_total = p.bytes_total;
          bar.bytes(p.bytes_done, p.bytes_total, p.files_done, p.files_total);
        },
        job_finished, interrupt_);
    if (interrupt_.cancelled()) {
      std::size_t finished = 0;
      for (const auto& r : results) finished += r ? 1 : 0;
      bar.bytes(bytes_seen, bytes_total, finished, jobs.size());
    }
    bar.finish();
  }
  for (const auto& r : results) ++(r ? done_ : left_);
  return results;
}

int InterruptibleDownloads::report_interrupted() const {
  print_error("interrupted: " + std::to_string(done_) + " done, " + std::to_string(left_) +
              " left; rerun the same command to resume");
  return interrupted_exit_code();
}

}  // namespace mgnify_cli
