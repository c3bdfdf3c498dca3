#pragma once

// A running mock Protein service and a client pointed at it, configured so
// tests are fast: no client-side rate limit, a fake clock for retry waits.

#include <memory>
#include <string>

#include "mgnify/options.hpp"
#include "mgnify/proteins/client.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "mock/proteins/protein_data.hpp"
#include "mock_server.hpp"

namespace protein_test {

namespace data = mgnify::mock::proteins_data;

inline std::string path_of(const std::string& accession) {
  return std::string(mgnify::mock::kProteinsPrefix) + "/protein/" + accession;
}
inline const std::string& search_path() {
  static const std::string p = std::string(mgnify::mock::kProteinsPrefix) + "/protein/search";
  return p;
}

struct MockRig {
  mgnify::mock::MockServer server;
  std::shared_ptr<mgnify::testing::FakeClock> clock =
      std::make_shared<mgnify::testing::FakeClock>();

  MockRig() {
    mgnify::mock::register_proteins_routes(server);
    server.start();
  }

  mgnify::ClientOptions options() const {
    mgnify::ClientOptions o;
    o.base_url = server.proteins_url();
    o.rate_limit = mgnify::http::RateLimitOptions::unlimited();
    o.clock = clock;  // retry backoff sleeps on the fake clock: no real waiting
    o.request_timeout = std::chrono::milliseconds(5000);
    return o;
  }

  mgnify::proteins::ProteinClient client() const { return mgnify::proteins::ProteinClient(options()); }

  /// Requests the mock received for one path (query excluded).
  std::size_t hits(const std::string& path) const { return server.hits(path); }
};

}  // namespace protein_test
