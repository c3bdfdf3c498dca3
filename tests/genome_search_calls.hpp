#pragma once

// One call per genome-search route, for the v1 and v2 coverage tests: each
// call's last request is the route it stands for. The gather routes need a
// job, so their calls submit one first (and poll it to the end for results).

#include <string>

#include "genome_search_mock.hpp"
#include "mgnify/genome_search.hpp"

namespace mgnify::test::genome_search_calls {

inline mgnify::CobsQuery cobs_query() {
  mgnify::CobsQuery query;
  query.sequence = std::string(120, 'A') + std::string(120, 'C') + "GATTACA";
  query.threshold = 0.4;
  return query;
}

template <class Client>
mgnify::GatherJob submit(const Client& client, const std::string& catalogue) {
  mgnify::GatherRequest request;
  request.mag_catalogues = {catalogue};
  request.signatures = {mgnify::SignatureFile::from_text(
      "coverage.sig", mgnify::mock::sourmash_signature("coverage"))};
  return client.submit_gather(request);
}

template <class Client>
void status(const Client& client, const std::string& catalogue) {
  client.gather_status(submit(client, catalogue).job_id);
}

/// The mock finishes a job after three status polls.
template <class Client>
void results(const Client& client, const std::string& catalogue) {
  const auto job = submit(client, catalogue);
  mgnify::GatherStatus last;
  for (int poll = 0; poll < 3; ++poll) last = client.gather_status(job.job_id);
  if (last.signatures.empty()) throw std::runtime_error("the finished job lists no signature");
  client.gather_results(last.signatures.front().job_id);
}

}  // namespace mgnify::test::genome_search_calls
