// Genome search on the v2 API: a COBS fragment search (one call), then a
// sourmash gather job (submit, wait with backoff and a deadline, print rows).
//   v2_genome_search [--base-url URL] [--catalogue ID] [--sequence SEQ] [SIGNATURE_FILE...]

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "example_args.hpp"
#include "mgnify/v2.hpp"

namespace {
const example::Usage kUsage{
    "v2_genome_search",
    "[--base-url URL] [--catalogue ID] [--sequence SEQ] [SIGNATURE_FILE...]",
    "Searches the genomes of catalogue ID (default human-gut-v2-0-2) for SEQ with COBS and\n"
    "prints the best hits, then submits each sourmash SIGNATURE_FILE (default: a small\n"
    "built-in signature) to a gather search, waits for the job (at most 10 minutes) and\n"
    "prints its result rows. The base URL defaults to $MGNIFY_API_V2_URL, then the public\n"
    "service.",
    {},
    {"--catalogue", "--sequence"}};

// A sourmash signature file as `sourmash sketch dna` writes it, cut down to a few hashes.
const char* const kExampleSignature =
    R"([{"class": "sourmash_signature", "email": "", "hash_function": "0.murmur64",)"
    R"( "filename": "example.fa", "name": "example", "license": "CC0", "signatures":)"
    R"( [{"num": 0, "ksize": 31, "seed": 42, "max_hash": 18446744073709552,)"
    R"( "mins": [1234, 5678, 91011], "md5sum": "5e1a6b2f", "molecule": "DNA"}],)"
    R"( "version": 0.4}])";

const char* const kExampleSequence =
    "ATGAAACGCATTAGCACCACCATTACCACCACCATCACCACCACCGGTAACGGTGCGGGCTGACGCGTACAGGAAACACAGAAAAAAGC"
    "CCGCACCTGACAGTGCGGGCTTTTTTTTTCGACCAAAGGTAACGAGGTAACAACCATGCGAGTGTTGAAGTTCGGCGGTACATCAGTGGC";
}  // namespace

int main(int argc, char** argv) {
  const auto args = example::parse_args(argc, argv, "MGNIFY_API_V2_URL", kUsage);
  const std::string catalogue = args.text("--catalogue").value_or("human-gut-v2-0-2");
  const std::string sequence = args.text("--sequence").value_or(kExampleSequence);
  const std::vector<std::string>& signature_files = args.words;
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    mgnify::v2::V2Client client(options);

    // COBS: synchronous, hits best first.
    mgnify::CobsQuery query;
    query.sequence = sequence;
    query.threshold = 0.5;
    query.max_results = 5;
    query.catalogues_filter = {catalogue};
    const auto found = client.genome_search(query);
    std::cout << "COBS hits for a " << sequence.size() << " bp fragment in " << catalogue << ":\n";
    for (const auto& hit : found.results) {
      std::cout << "  " << hit.mgnify.accession << "  "
                << hit.cobs.percent_kmers_found.value_or(0.0) << "% of k-mers  "
                << hit.mgnify.taxon_lineage.value_or("") << "\n";
    }

    // sourmash gather: a job with a handle, polled until it ends.
    mgnify::GatherRequest request;
    request.mag_catalogues = {catalogue};
    for (const auto& path : signature_files) {
      request.signatures.push_back(mgnify::SignatureFile::from_path(path));
    }
    if (request.signatures.empty()) {
      request.signatures.push_back(
          mgnify::SignatureFile::from_text("example.sig", kExampleSignature));
    }
    const auto job = client.submit_gather(request);
    std::cout << "gather job " << job.job_id << " submitted\n";

    mgnify::JobWaitOptions wait;
    wait.first_interval = std::chrono::milliseconds(500);
    wait.on_status = [](const mgnify::GatherStatus& s) {
      std::cout << "  status " << s.status.text << "\n";
    };
    const auto status = client.wait_for_gather(
        job.job_id, wait, mgnify::CallOptions().timeout(std::chrono::minutes(10)));
    for (const auto& signature : status.signatures) {
      std::cout << signature.filename.value_or(signature.job_id) << " against "
                << signature.catalogue.value_or("?") << ": " << signature.status.text << "\n";
      if (!signature.status.has_results()) continue;
      for (const auto& row : client.gather_results(signature.job_id).rows) {
        std::cout << "  " << row.name << "  f_match " << row.f_match.value_or(0.0) << "\n";
      }
    }
  } catch (const mgnify::DeadlineExceededError& e) {
    std::cerr << "gave up waiting: " << e.what() << " (poll job " << e.job_id() << " later)\n";
    return 1;
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
