#pragma once

// The genome search endpoints of the mock, shared by its v1 and v2 services
// (the reference gives both the same bodies):
//   POST genome-search            COBS: hits drawn from the service's own genomes
//   POST genomes-search/gather    sourmash: multipart, checked as the real server does
//   GET  genomes-search/status/{job_id}
//   GET  genomes-search/results/{job_id}
// A job moves QUEUED -> RUNNING -> its final state over successive status
// polls. What a signature's job ends in is chosen by its sourmash "name" (see
// the kSignature* constants), so tests can ask for each outcome. The backend
// being down is a scripted Fault (the *_unavailable helpers) on the route's path.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mock_server.hpp"

namespace httplib {
struct Request;
}

namespace mgnify::mock {

/// A genome the COBS search can hit.
struct SearchableGenome {
  std::string accession;
  std::string catalogue_id;
  /// What the service puts under "mgnify" for this genome.
  nlohmann::json record;
};

struct GenomeSearchRoutes {
  /// e.g. kV2Prefix
  std::string prefix;
  /// Ends every path: "/" for v2, "" for v1.
  std::string slash;
  /// v2 takes a JSON body or a form (sequence/seq); v1 only the form.
  bool accepts_json = false;
  std::function<std::vector<SearchableGenome>(const httplib::Request&)> genomes;
};

void register_genome_search_routes(MockServer& server, GenomeSearchRoutes routes);

// Signature names (the "name" of a sourmash signature) that pick a job's fate;
// any other name succeeds with result rows.
inline constexpr const char* kSignatureNeverFinishes = "mock-never-finishes";
inline constexpr const char* kSignatureFails = "mock-fails";
inline constexpr const char* kSignatureNoMatch = "mock-no-match";
/// Ends in a status text clients do not know ("ARCHIVED").
inline constexpr const char* kSignatureUnknownStatus = "mock-unknown-status";
inline constexpr const char* kUnknownJobStatus = "ARCHIVED";
/// Rows in each successful signature's CSV.
inline constexpr int kGatherRows = 3;
/// A signature named this prefix and a number N (up to 7 digits), e.g.
/// "mock-rows-20000", succeeds with N rows in each catalogue's CSV (the
/// catalogue's genomes over again) instead of kGatherRows: with K such files
/// and C catalogues a job has K x C searches of N rows each, for measuring
/// `genome gather` at scale.
inline constexpr const char* kSignatureRowsPrefix = "mock-rows-";

/// A minimal sourmash signature file with the given name.
std::string sourmash_signature(const std::string& name);

// The service's exact bodies (proteins-v2-api.md B10).
inline constexpr const char* kMissingCataloguesDetail =
    "A list of mag_catalogues to search against must be provided.";
inline constexpr const char* kBadUploadDetail = "Unable to parse the uploaded file.";
/// 400 from the COBS proxy when the backend refuses the query.
inline constexpr const char* kCobsRejectedDetail =
    "Genome search request was rejected by the backend.";
inline constexpr const char* kCobsBackendDownDetail =
    "Genome search backend is unavailable. Please try later.";
inline constexpr const char* kCobsUnavailableDetail =
    "Genome search is temporarily unavailable. Please try later.";
inline constexpr const char* kSourmashDownDetail =
    "Sourmash task backend is unavailable. Check Django Tasks configuration and worker "
    "availability.";

/// 502 from the COBS proxy when its backend cannot be reached.
Fault cobs_backend_down();
/// 503 from the COBS proxy.
Fault cobs_unavailable();
/// 503 from the sourmash endpoints when the task backend is down.
Fault sourmash_unavailable();

}  // namespace mgnify::mock
