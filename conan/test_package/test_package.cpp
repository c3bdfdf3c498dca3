// Builds a session over a fake transport and prints the version: no network.
#include <iostream>
#include <mgnify/mgnify.hpp>
#include <mgnify/testing/fake_transport.hpp>

#include "mgnify/default_transport.hpp"

int main() {
  mgnify::ClientOptions options;
  options.transport = std::make_shared<mgnify::testing::FakeTransport>();
  mgnify::http::Session session(mgnify::with_default_transport(options),
                                "https://www.ebi.ac.uk/metagenomics/api/v2");
  std::cout << "mgnify-cpp " << mgnify::version_string() << " -> " << session.base_url() << "\n";
  return 0;
}
