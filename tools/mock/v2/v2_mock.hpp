#pragma once

// The v2 mock's deterministic data set and the facts tests need about it.
// Shapes follow the reference (proteins-v2-api.md Part B) and the fixtures;
// every value is generated here, nothing is read from the fixture files.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mgnify::mock::v2data {

// Sizes of the public lists.
inline constexpr int kPublicStudies = 120;
inline constexpr int kSamples = 2000;
inline constexpr int kRuns = 2000;
inline constexpr int kPublicAnalyses = 10000;
inline constexpr int kPublications = 40;
inline constexpr int kSuperStudies = 7;
inline constexpr int kCatalogues = 3;
inline constexpr int kGenomes = 250;
inline constexpr int kTypedAnnotationRows = 130;  // rows per analyses/{acc}/annotations/{type}

// Auth: one Webin account that logs in, its private studies, and tokens in known states.
inline constexpr const char* kUser = "Webin-12345";
inline constexpr const char* kPassword = "correct-horse-battery";
inline constexpr const char* kOtherUser = "Webin-99999";
/// Valid for kUser.
inline constexpr const char* kValidToken = "mock-valid-token-Webin-12345";
/// Valid for kOtherUser (who owns MGYS00000904 only).
inline constexpr const char* kOtherUserToken = "mock-valid-token-Webin-99999";
/// Expired for kUser, still inside its refresh window: auth/sliding/refresh renews it.
inline constexpr const char* kExpiredToken = "mock-expired-token-Webin-12345";
/// Expired and past its refresh window: every use and every refresh answers 401.
inline constexpr const char* kDeadToken = "mock-dead-token-Webin-12345";
/// kUser's private studies (never listed in studies/, visible to kUser only).
inline const std::vector<std::string> kPrivateStudies = {"MGYS00000901", "MGYS00000902", "MGYS00000903"};
/// kOtherUser's private study.
inline constexpr const char* kOtherPrivateStudy = "MGYS00000904";
/// Public studies owned by kUser (listed by my-data/studies/ along with the private ones).
inline const std::vector<std::string> kUserPublicStudies = {"MGYS00000001", "MGYS00000002"};
inline constexpr int kAnalysesPerPrivateStudy = 4;

struct StudyRec {
  std::string accession;
  std::string title;
  std::string lineage;
  std::string owner;
  bool is_private = false;
  bool legacy = false;  // pre-v6 results: downloads without URLs
  std::vector<std::string> ena_accessions;
  std::string updated_at;
  nlohmann::json list;    // MGnifyStudy
  std::string detail;     // MGnifyStudyDetail, dumped
  std::vector<int> samples;
  std::vector<int> analyses;
  std::vector<int> publications;
};

struct SampleRec {
  std::string accession;
  std::vector<std::string> ena_accessions;
  std::string title;  // empty: null title
  std::string lineage;
  std::string updated_at;
  int study = 0;
  nlohmann::json list;           // MGnifySample
  nlohmann::json with_metadata;  // MGnifySampleWithMetadata
  std::vector<int> runs;
};

struct RunRec {
  std::string accession;
  std::string code;  // experiment type code
  int sample = 0;
  int study = 0;
  nlohmann::json list;  // AnalysedRun
  std::vector<int> analyses;
  std::vector<int> assemblies;
};

struct AssemblyRec {
  std::string accession;
  int run = 0;
  nlohmann::json list;    // Assembly
  nlohmann::json detail;  // AssemblyDetail
  std::vector<int> analyses;
};

// Analyses are rendered on first use (and then kept): building 10,000 detail
// objects up front would cost seconds in an unoptimised test build.
struct AnalysisRec {
  std::string accession;
  int index = 0;
  int study = 0;
  int run = 0;
  bool is_private = false;
};

struct PublicationRec {
  long long pubmed_id = 0;
  int year = 0;
  std::string title;
  nlohmann::json list;
  std::vector<int> studies;
};

struct GenomeRec {
  std::string accession;
  std::string catalogue_id;
  std::string taxon_lineage;
  std::string lineage;  // biome
  nlohmann::json list;
  nlohmann::json detail;
};

struct Dataset {
  std::vector<nlohmann::json> biomes;
  std::vector<StudyRec> studies;  // public first, then private
  std::vector<SampleRec> samples;
  std::vector<RunRec> runs;
  std::vector<AssemblyRec> assemblies;
  std::vector<AnalysisRec> analyses;  // public first, then private
  std::vector<PublicationRec> publications;
  std::vector<nlohmann::json> super_studies;  // detail form; list form is a subset of keys
  std::vector<nlohmann::json> catalogues;
  std::vector<GenomeRec> genomes;
};

/// Built once per process, on first use.
const Dataset& dataset();

/// MGnifyAnalysis (list form) and MGnifyAnalysisDetail of analysis `index`, as JSON text.
const std::string& analysis_list(int index);
const std::string& analysis_detail(int index);

/// The production hosts of the data set's download URLs: public results on
/// the FTP site's HTTPS side, private results as signed links on the API host.
/// The routes point them at the mock itself in every response (routes.cpp).
inline constexpr const char* kFilesHost = "https://ftp.ebi.ac.uk";
inline constexpr const char* kPrivateFilesPrefix = "https://www.ebi.ac.uk/metagenomics/api/v2/private-data/";

/// The path of a URL: no scheme, host or query.
std::string url_path(const std::string& url);
/// The bytes behind a download URL's path. They are a function of the path
/// alone, so every listed file can be served and sized without an index.
std::string file_bytes(const std::string& path);
/// file_bytes(path).size(), without generating the bytes: the listed file_size_bytes.
std::uint64_t file_size(const std::string& path);
/// Whether a study, analysis or genome of the data set lists `url` (with its
/// production host; a private link's query may be left off).
bool lists_file(const std::string& url);

/// JSON text with Python's json.dumps separators (", " and ": "), as the service renders bodies.
std::string py_dump(const nlohmann::json& j);

/// The service's lineage normalisation (ASCII-fold, lower case, ':' -> '.',
/// spaces and "()-" -> '_'), used for biome_lineage matching.
std::string lineage_path(const std::string& lineage);

}  // namespace mgnify::mock::v2data
