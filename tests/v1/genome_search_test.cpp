// LegacyClient genome search through libcurl against the v1 mock: COBS as a
// form POST, the sourmash gather job with the same handle, poll and results
// as v2, and the service's error bodies.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "genome_search_mock.hpp"
#include "mgnify/http/form.hpp"
#include "support/genome_search_cases.hpp"
#include "support/v1_rig.hpp"

namespace cases = mgnify::test::genome_search_cases;

namespace {

struct V1Api {
  using Rig = mgnify::test::V1Rig;
  static constexpr const char* kCobsPath = "genome-search";
  static constexpr const char* kGatherPath = "genomes-search/gather";
  static std::string status_path(const std::string& job_id) {
    return "genomes-search/status/" + job_id;
  }
  static std::vector<std::string> catalogues() { return {"marine-v2-0", "soil-v1-0"}; }
  // A threshold that is not a number: v1's COBS search is the website's form.
  static void post_rejected_cobs_query(mgnify::http::Session& session) {
    session.post_form(session.url(kCobsPath),
                      {mgnify::http::FormPart::text("seq", std::string(64, 'A')),
                       mgnify::http::FormPart::text("threshold", "most")});
  }
};

}  // namespace

TEST_CASE("v1 genome_search posts the website's form and types the hits", "[v1][genome-search]") {
  mgnify::test::V1Rig rig;
  auto client = rig.client();
  mgnify::CobsQuery query;
  query.sequence = std::string(120, 'A') + std::string(120, 'C') + "GATTACA";
  query.threshold = 0.4;
  query.catalogues_filter = {"soil-v1-0"};
  const auto result = client.genome_search(query);
  // The service read threshold and catalogues_filter from the form.
  cases::check_cobs_hits(result, 0.4, 10);
  for (const auto& hit : result.results) {
    // The genome record is kept as sent: here the v1 genome resource.
    CHECK(hit.mgnify.at("id") == hit.cobs.genome);
    CHECK(hit.mgnify.at("type") == "genomes");
  }
  CHECK(rig.hits("genome-search") == 1);

  // v1's form has no k-mer size or result limit: refused rather than dropped.
  query.kmer_size = 21;
  CHECK_THROWS_AS(client.genome_search(query), mgnify::InvalidArgument);
  query.kmer_size.reset();
  query.max_results = 3;
  CHECK_THROWS_AS(client.genome_search(query), mgnify::InvalidArgument);
  CHECK(rig.hits("genome-search") == 1);
}

TEST_CASE("v1 gather: submit, wait, rows, file", "[v1][genome-search][gather]") {
  cases::check_gather_round_trip<V1Api>("mgnify-v1-gather-disk");
}

TEST_CASE("v1 gather errors: missing catalogues, bad upload, unknown job, backend down",
          "[v1][genome-search][errors]") {
  cases::check_error_bodies<V1Api>();
}
