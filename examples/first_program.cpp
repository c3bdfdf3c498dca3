// Five API v2 studies about the human gut. BASE_URL, if given, is a mirror or the mock.
#include <iostream>
#include <mgnify/v2/client.hpp>

int main(int argc, char** argv) {
  mgnify::ClientOptions options;             // the public service, with retries and a rate limit
  if (argc > 1) options.base_url = argv[1];  // e.g. the mock: ./scripts/demo.sh passes its URL
  try {
    const mgnify::v2::V2Client client(options);
    mgnify::ListOptions list;
    list.max_items = 5;  // the walk fetches pages lazily and stops after five studies
    for (const auto& study : client.studies(mgnify::v2::StudyQuery().search("human gut"), list))
      std::cout << study.accession << "  " << study.title << "\n";
  } catch (const mgnify::Error& e) {  // every failure is a typed mgnify::Error (see Errors)
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
