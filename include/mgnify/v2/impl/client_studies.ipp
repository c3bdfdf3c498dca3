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

template <class D>
Paged<Study> BasicV2Client<D>::studies(const StudyQuery& query, const ListOptions& list,
                                       const CallOptions& call) const {
  return paged<Study>("studies/", query.to_query(), list, call);
}
template <class D>
StudyDetail BasicV2Client<D>::study(const AccessionArg<StudyAccession>& accession,
                                    const CallOptions& call) const {
  return get<StudyDetail>("studies/" + segment(checked_accession(accession.str(), kStudyAccession)),
                          {}, call);
}
template <class D>
StudyIdentifier BasicV2Client<D>::study_by_insdc_accession(
    const AccessionArg<StudyAccession>& insdc_accession, const CallOptions& call) const {
  return get<StudyIdentifier>(
      "studies/insdc/" + segment(checked_insdc_study_accession(insdc_accession.str())), {}, call);
}
template <class D>
Paged<Analysis> BasicV2Client<D>::study_analyses(const AccessionArg<StudyAccession>& accession,
                                                 const ListOptions& list,
                                                 const CallOptions& call) const {
  return paged<Analysis>(
      sub("studies/", checked_accession(accession.str(), kStudyAccession), "/analyses/"), {}, list,
      call);
}
template <class D>
Paged<SampleWithMetadata> BasicV2Client<D>::study_samples(
    const AccessionArg<StudyAccession>& accession, const ListOptions& list,
    const CallOptions& call) const {
  return paged<SampleWithMetadata>(
      sub("studies/", checked_accession(accession.str(), kStudyAccession), "/samples/"), {}, list,
      call);
}
template <class D>
Paged<Publication> BasicV2Client<D>::study_publications(
    const AccessionArg<StudyAccession>& accession, const ListOptions& list,
    const CallOptions& call) const {
  return paged<Publication>(
      sub("studies/", checked_accession(accession.str(), kStudyAccession), "/publications/"), {},
      list, call);
}
template <class D>
Paged<Study> BasicV2Client<D>::my_studies(const ListOptions& list, const CallOptions& call) const {
  if (!logged_in())
    throw InvalidArgument("my_studies() needs a token: call login() or set_token() first");
  return paged<Study>("my-data/studies/", {}, list, call);
}

// ---- samples -------------------------------------------------------------------

template <class D>
Paged<Sample> BasicV2Client<D>::samples(const SampleQuery& query, const ListOptions& list,
                                        const CallOptions& call) const {
  return paged<Sample>("samples/", query.to_query(), list, call);
}
template <class D>
SampleDetail BasicV2Client<D>::sample(const AccessionArg<SampleAccession>& accession,
                                      const CallOptions& call) const {
  return get<SampleDetail>(
      "samples/" + segment(checked_accession(accession.str(), AccessionKind::sample)), {}, call);
}
template <class D>
Paged<AnalysedRun> BasicV2Client<D>::sample_runs(const AccessionArg<SampleAccession>& accession,
                                                 const ListOptions& list,
                                                 const CallOptions& call) const {
  return paged<AnalysedRun>(
      sub("samples/", checked_accession(accession.str(), AccessionKind::sample), "/runs/"), {},
      list, call);
}
template <class D>
Paged<AssemblyDetail> BasicV2Client<D>::sample_assemblies(
    const AccessionArg<SampleAccession>& accession, const ListOptions& list,
    const CallOptions& call) const {
  return paged<AssemblyDetail>(
      sub("samples/", checked_accession(accession.str(), AccessionKind::sample), "/assemblies/"),
      {}, list, call);
}

// ---- runs ----------------------------------------------------------------------

template <class D>
Paged<AnalysedRun> BasicV2Client<D>::runs(const RunQuery& query, const ListOptions& list,
                                          const CallOptions& call) const {
  return paged<AnalysedRun>("runs/", query.to_query(), list, call);
}
template <class D>
AnalysedRunDetail BasicV2Client<D>::run(const AccessionArg<RunAccession>& accession,
                                        const CallOptions& call) const {
  return get<AnalysedRunDetail>(
      "runs/" + segment(checked_accession(accession.str(), AccessionKind::run)), {}, call);
}
template <class D>
Paged<Analysis> BasicV2Client<D>::run_analyses(const AccessionArg<RunAccession>& accession,
                                               const ListOptions& list,
                                               const CallOptions& call) const {
  return paged<Analysis>(
      sub("runs/", checked_accession(accession.str(), AccessionKind::run), "/analyses/"), {}, list,
      call);
}
template <class D>
Paged<AssemblyDetail> BasicV2Client<D>::run_assemblies(const AccessionArg<RunAccession>& accession,
                                                       const ListOptions& list,
                                                       const CallOptions& call) const {
  return paged<AssemblyDetail>(
      sub("runs/", checked_accession(accession.str(), AccessionKind::run), "/assemblies/"), {},
      list, call);
}

// ---- batches -------------------------------------------------------------------

template <class D>
std::vector<Result<StudyDetail>> BasicV2Client<D>::get_studies(
    const AccessionList<StudyAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<StudyDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return study(a, item); });
}
template <class D>
std::vector<Result<SampleDetail>> BasicV2Client<D>::get_samples(
    const AccessionList<SampleAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<SampleDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return sample(a, item); });
}
template <class D>
std::vector<Result<AnalysedRunDetail>> BasicV2Client<D>::get_runs(
    const AccessionList<RunAccession>& accessions, const BatchOptions& batch,
    const CallOptions& call) const {
  return many<AnalysedRunDetail>(
      accessions, batch, call,
      [this](const std::string& a, const CallOptions& item) { return run(a, item); });
}

}  // namespace v2
MGNIFY_NAMESPACE_END
