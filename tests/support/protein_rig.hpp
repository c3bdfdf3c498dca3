#pragma once

// The Protein service rig: a running mock Protein service and a ProteinClient
// pointed at it, whose retry waits sleep on the rig's fake clock.

#include <chrono>
#include <string>

#include "mgnify/options.hpp"
#include "mgnify/proteins/client.hpp"
#include "mock/proteins/protein_data.hpp"
#include "mock_server.hpp"
#include "support/rig.hpp"

namespace mgnify::test {

struct ProteinService {
  using Client = mgnify::proteins::ProteinClient;
  static constexpr const char* kPrefix = mgnify::mock::kProteinsPrefix;
  static constexpr bool kFakeClock = true;  // retry backoff: no real waiting
  static void register_routes(mgnify::mock::MockServer& server) {
    mgnify::mock::register_proteins_routes(server);
  }
  static std::string base_url(const mgnify::mock::MockServer& server) {
    return server.proteins_url();
  }
  static void tune(mgnify::ClientOptions& o) {
    o.request_timeout = std::chrono::milliseconds(5000);
  }
};

using ProteinRig = ServiceRig<ProteinService>;

/// The mock's path of one protein.
inline std::string protein_path(const std::string& accession) {
  return std::string(mgnify::mock::kProteinsPrefix) + "/protein/" + accession;
}
/// The mock's path of the protein search.
inline const std::string& protein_search_path() {
  static const std::string p = std::string(mgnify::mock::kProteinsPrefix) + "/protein/search";
  return p;
}

}  // namespace mgnify::test
