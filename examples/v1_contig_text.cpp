// v1_contig_text: the text bodies of an assembly analysis: a contig's FASTA
// (read whole), its GFF (streamed chunk by chunk, with a byte cap) and the
// QC summary (TSV).
//
//   v1_contig_text [--base-url URL] [--max-bytes N] ANALYSIS_ACCESSION [CONTIG_ID]
//
// Without CONTIG_ID the analysis's first contig is used. A GFF longer than
// --max-bytes stops with a typed error instead of filling memory or the screen.

#include <cstdint>
#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v1.hpp"

namespace {
const example::Usage kUsage{
    "v1_contig_text",
    "[--base-url URL] [--max-bytes N] ANALYSIS [CONTIG_ID]",
    "Prints a contig's FASTA (read whole), streams its GFF annotations chunk by chunk (stopping\n"
    "with an error past --max-bytes bytes) and prints the analysis's QC summary TSV (v1 API).\n"
    "Without CONTIG_ID the analysis's first contig is used. The base URL defaults to\n"
    "$MGNIFY_API_V1_URL, then the public legacy API.",
    {},
    {"--max-bytes"}};
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_API_V1_URL", kUsage);
  if (args.words.empty() || args.words.size() > 2) return example::usage_error(kUsage);
  const std::string& accession = args.words[0];
  std::string contig_id = args.words.size() > 1 ? args.words[1] : "";
  const std::uint64_t max_bytes = args.count("--max-bytes").value_or(0);
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    const mgnify::v1::LegacyClient client(options);
    if (contig_id.empty()) {
      mgnify::ListOptions first;
      first.max_items = 1;
      auto contigs = client.analysis_contigs(accession, first);
      for (const auto& contig : contigs) contig_id = contig.contig_id;
      if (contig_id.empty()) {
        std::cerr << "error: " << accession << " has no contigs\n";
        return 1;
      }
    }

    // Small bodies: read whole, bounded by ClientOptions::max_body_bytes.
    std::cout << client.analysis_contig_fasta(accession, contig_id);

    // Large ones: each chunk goes on as it arrives.
    mgnify::http::StreamOptions stream;
    stream.max_bytes = max_bytes;
    std::size_t chunks = 0;
    const auto gff = client.stream_analysis_contig_gff(
        accession, contig_id,
        [&chunks](const mgnify::http::Response&, const char* data, std::size_t size) {
          std::cout.write(data, static_cast<std::streamsize>(size));
          ++chunks;
          return static_cast<bool>(std::cout);
        },
        stream);
    std::cerr << "GFF: " << gff.bytes << " bytes in " << chunks << " chunks (" << gff.content_type
              << ")\n";

    std::cout << client.analysis_qc_chart(accession, mgnify::v1::QcChart::summary);
    return 0;
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
