#include "file_download.hpp"

#include <algorithm>
#include <mgnify/default_transport.hpp>
#include <mgnify/detail/text_escape.hpp>
#include <mgnify/files/checksum.hpp>
#include <mgnify/v1/client.hpp>
#include <mgnify/v2/client.hpp>

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

}  // namespace mgnify_cli
