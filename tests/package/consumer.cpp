// A user's program: includes the umbrella header and talks to nothing but the
// API surface, proving the package carries its dependencies.
#include <iostream>
#include <mgnify/mgnify.hpp>
#include <mgnify/testing/fake_transport.hpp>

#include "mgnify/default_transport.hpp"

int main() {
  mgnify::http::Query q;
  q.add("biome_lineage", "root:Engineered:Wastewater water");
  mgnify::ClientOptions options;
  options.transport = std::make_shared<mgnify::testing::FakeTransport>();
  mgnify::http::Session session(mgnify::with_default_transport(options),
                                "https://www.ebi.ac.uk/metagenomics/api/v2");
  std::cout << "mgnify-cpp " << mgnify::version_string() << " " << session.url("studies/", q)
            << "\n";
  return session.url("studies/", q) ==
                 "https://www.ebi.ac.uk/metagenomics/api/v2/studies/"
                 "?biome_lineage=root:Engineered:Wastewater%20water"
             ? 0
             : 1;
}
