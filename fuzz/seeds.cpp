// Writes the seed corpora for the fuzz targets from the mock service's own
// responses (and the error shapes the three services send), so fuzzing starts
// from realistic documents instead of empty input.
//   mgnify_fuzz_seeds OUTPUT_DIR

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "mgnify/http/curl_transport.hpp"
#include "mgnify/http/session.hpp"
#include "mock_server.hpp"

namespace {

// Fetches a URL and returns the body whatever the status (error bodies are seeds too).
std::string fetch(mgnify::http::Transport& transport, const std::string& url) {
  mgnify::http::Request request;
  request.url = url;
  request.headers.set("Accept", "application/json");
  return transport.send(request).body;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mgnify_fuzz_seeds OUTPUT_DIR\n";
    return 2;
  }
  const std::filesystem::path out = argv[1];
  mgnify::mock::MockServer server;
  mgnify::mock::register_proteins_routes(server);
  mgnify::mock::register_v1_routes(server);
  mgnify::mock::register_v2_routes(server);
  server.start();
  mgnify::http::CurlTransport transport;

  const std::string p = server.proteins_url();
  const std::string v1 = server.v1_url();
  const std::string v2 = server.v2_url();
  const std::map<std::string, std::vector<std::string>> urls = {
      {"fuzz_protein_record",
       {p + "/protein/MGYP000000000010", p + "/protein/MGYP000261684433",
        p + "/protein/MGYP000000000013"}},
      {"fuzz_protein_search_hits",
       {p + "/protein/search?pfam_accession=PF00005&limit=5",
        p + "/protein/search?biome_lineage=root:Engineered&limit=3"}},
      {"fuzz_v1_resource", {v1 + "/studies/MGYS00000001", v1 + "/samples?page_size=1"}},
      {"fuzz_v1_study_document",
       {v1 + "/studies/MGYS00000001", v1 + "/studies/MGYS00000001?include=biomes"}},
      {"fuzz_v1_studies_page", {v1 + "/studies?page_size=3", v1 + "/studies?page=2&page_size=2"}},
      {"fuzz_v1_samples_page", {v1 + "/samples?page_size=3"}},
      {"fuzz_v2_analyses_page",
       {v2 + "/analyses/?page_size=2", v2 + "/studies/MGYS00000001/analyses/"}},
      {"fuzz_v2_analysis_detail", {v2 + "/analyses/MGYA00000001", v2 + "/analyses/MGYA00000002"}},
      {"fuzz_v2_study_detail", {v2 + "/studies/MGYS00000001"}},
      {"fuzz_v2_sample_detail", {v2 + "/samples/SAMEA1000000"}},
      {"fuzz_v2_genome_detail", {v2 + "/genomes/MGYG000000001"}},
      {"fuzz_error_body",
       {p + "/protein/search", p + "/protein/search?biome_lineage=Wastewater",
        p + "/protein/MGYP999999999999", v1 + "/studies/MGYS99999999", v1 + "/nope",
        v2 + "/studies/MGYS99999999"}},
  };
  // Shapes no route produces on request: JSON:API field errors and a proxy page.
  const std::vector<std::string> extra_error_bodies = {
      R"({"errors": {"non_field_errors": ["Unable to log in with provided credentials."]}})",
      R"({"errors": [{"detail": "Error decoding signature.", "source": {"pointer": "/data"}, "status": "401", "code": "authentication_failed"}]})",
      R"({"detail": "Given token not valid for any token type", "code": "token_not_valid", "messages": [{"token_class": "SlidingToken"}]})",
      "<html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>",
  };

  std::size_t written = 0;
  for (const auto& [target, list] : urls) {
    const auto dir = out / target;
    std::filesystem::create_directories(dir);
    std::size_t n = 0;
    auto write = [&](const std::string& body) {
      std::ofstream(dir / ("seed_" + std::to_string(n++))) << body;
      ++written;
    };
    for (const auto& url : list) write(fetch(transport, url));
    // Nesting past the parsers' depth limit (kMaxJsonDepth), which a hostile
    // server can send to any endpoint.
    write(std::string(5000, '[') + std::string(5000, ']'));
    std::string deep_objects;
    for (int i = 0; i < 3000; ++i) deep_objects += "{\"a\":";
    deep_objects += "1" + std::string(3000, '}');
    write(deep_objects);
    if (target == "fuzz_error_body") {
      for (const auto& body : extra_error_bodies) write(body);
    }
  }
  server.stop();
  std::cout << "wrote " << written << " seeds under " << out << "\n";
  return 0;
}
