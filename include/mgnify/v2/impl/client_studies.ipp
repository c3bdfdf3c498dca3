#pragma once

// Bodies of V2Client (mgnify/v2/client.hpp) for studies, samples and runs (see impl/client.ipp).

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/batch.hpp"
#include "mgnify/config.hpp"
#include "mgnify/default_transport.hpp"
#include "mgnify/detail/counted_pages.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/detail/make_walk.hpp"
#include "mgnify/error.hpp"
#include "mgnify/files/download.hpp"
#include "mgnify/http/session.hpp"
#include "mgnify/http/text.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/v2/client.hpp"
#include "mgnify/v2/fast_decode.hpp"
#include "mgnify/v2/impl/client_walks.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace v2 {

// ---- studies -------------------------------------------------------------------

MGNIFY_DECL Paged<Study> V2Client::studies(const StudyQuery& query, const ListOptions& list) const {
  return paged<Study>("studies/", query.to_query(), list);
}
MGNIFY_DECL StudyDetail V2Client::study(const std::string& accession,
                                        const CallOptions& call) const {
  return get<StudyDetail>("studies/" + segment(checked_accession(accession, kStudyAccession)), {},
                          call);
}
MGNIFY_DECL StudyIdentifier V2Client::study_by_insdc_accession(const std::string& insdc_accession,
                                                               const CallOptions& call) const {
  return get<StudyIdentifier>("studies/insdc/" + segment(insdc_accession), {}, call);
}
MGNIFY_DECL Paged<Analysis> V2Client::study_analyses(const std::string& accession,
                                                     const ListOptions& list) const {
  return paged<Analysis>(sub("studies/", checked_accession(accession, kStudyAccession), "/analyses/"), {},
                         list);
}
MGNIFY_DECL Paged<SampleWithMetadata> V2Client::study_samples(const std::string& accession,
                                                              const ListOptions& list) const {
  return paged<SampleWithMetadata>(
      sub("studies/", checked_accession(accession, kStudyAccession), "/samples/"), {}, list);
}
MGNIFY_DECL Paged<Publication> V2Client::study_publications(const std::string& accession,
                                                            const ListOptions& list) const {
  return paged<Publication>(sub("studies/", checked_accession(accession, kStudyAccession), "/publications/"),
                            {}, list);
}
MGNIFY_DECL Paged<Study> V2Client::my_studies(const ListOptions& list) const {
  if (!logged_in())
    throw InvalidArgument("my_studies() needs a token: call login() or set_token() first");
  return paged<Study>("my-data/studies/", {}, list);
}

// ---- samples -------------------------------------------------------------------

MGNIFY_DECL Paged<Sample> V2Client::samples(const SampleQuery& query,
                                            const ListOptions& list) const {
  return paged<Sample>("samples/", query.to_query(), list);
}
MGNIFY_DECL SampleDetail V2Client::sample(const std::string& accession,
                                          const CallOptions& call) const {
  return get<SampleDetail>("samples/" + segment(accession), {}, call);
}
MGNIFY_DECL Paged<AnalysedRun> V2Client::sample_runs(const std::string& accession,
                                                     const ListOptions& list) const {
  return paged<AnalysedRun>(sub("samples/", accession, "/runs/"), {}, list);
}
MGNIFY_DECL Paged<AssemblyDetail> V2Client::sample_assemblies(const std::string& accession,
                                                              const ListOptions& list) const {
  return paged<AssemblyDetail>(sub("samples/", accession, "/assemblies/"), {}, list);
}

// ---- runs ----------------------------------------------------------------------

MGNIFY_DECL Paged<AnalysedRun> V2Client::runs(const RunQuery& query,
                                              const ListOptions& list) const {
  return paged<AnalysedRun>("runs/", query.to_query(), list);
}
MGNIFY_DECL AnalysedRunDetail V2Client::run(const std::string& accession,
                                            const CallOptions& call) const {
  return get<AnalysedRunDetail>("runs/" + segment(accession), {}, call);
}
MGNIFY_DECL Paged<Analysis> V2Client::run_analyses(const std::string& accession,
                                                   const ListOptions& list) const {
  return paged<Analysis>(sub("runs/", accession, "/analyses/"), {}, list);
}
MGNIFY_DECL Paged<AssemblyDetail> V2Client::run_assemblies(const std::string& accession,
                                                           const ListOptions& list) const {
  return paged<AssemblyDetail>(sub("runs/", accession, "/assemblies/"), {}, list);
}

// ---- batches -------------------------------------------------------------------

MGNIFY_DECL std::vector<Result<StudyDetail>> V2Client::get_studies(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<StudyDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return study(a, item); });
}
MGNIFY_DECL std::vector<Result<SampleDetail>> V2Client::get_samples(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<SampleDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return sample(a, item); });
}
MGNIFY_DECL std::vector<Result<AnalysedRunDetail>> V2Client::get_runs(
    const std::vector<std::string>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<AnalysedRunDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return run(a, item); });
}

}  // namespace v2
MGNIFY_NAMESPACE_END
