// v1_analysis_contigs: the contigs of an assembly analysis (a cursor list).
//
//   v1_analysis_contigs [--base-url URL] [--min-length N] [--limit N] ANALYSIS_ACCESSION
//
// The contig list is the only cursor-paginated v1 list: pages carry an
// opaque links.next and only a total count. The pager follows the links as
// given, exactly as for page-number lists.

#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v1.hpp"

namespace {
const example::Usage kUsage{
    "v1_analysis_contigs",
    "[--base-url URL] [--min-length N] [--limit N] ANALYSIS",
    "Lists the contigs of an assembly analysis (v1 API), optionally only those of at least\n"
    "--min-length bases and at most --limit of them. The contig list is the v1 API's cursor-paged\n"
    "list; the pager follows its links as given. The base URL defaults to $MGNIFY_API_V1_URL,\n"
    "then the public legacy API.",
    {},
    {"--min-length", "--limit"}};
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_API_V1_URL", kUsage);
  if (args.words.size() != 1) return example::usage_error(kUsage);
  const std::string& accession = args.words.front();
  const std::optional<std::size_t> min_length = args.count("--min-length");
  const std::size_t limit = args.count("--limit").value_or(0);
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    const mgnify::v1::LegacyClient client(options);
    mgnify::v1::Query filters;
    if (min_length) filters.contig_length_gte(static_cast<long long>(*min_length));
    mgnify::ListOptions list;
    list.page_size = 100;
    if (limit > 0) list.max_items = limit;
    auto contigs = client.analysis_contigs(accession, filters, list);
    std::cout << "contig_id\tlength\tcoverage\tannotations\n";
    for (const auto& c : contigs) {
      std::string flags;
      auto flag = [&](const std::optional<bool>& v, const char* name) {
        if (v.value_or(false)) flags += flags.empty() ? name : std::string(",") + name;
      };
      flag(c.has_cog, "cog");
      flag(c.has_kegg, "kegg");
      flag(c.has_go, "go");
      flag(c.has_pfam, "pfam");
      flag(c.has_interpro, "interpro");
      flag(c.has_antismash, "antismash");
      std::cout << c.contig_id << "\t" << c.length.value_or(0) << "\t" << c.coverage.value_or(0)
                << "\t" << flags << "\n";
    }
    std::cerr << contigs.items_yielded() << " of " << contigs.total().value_or(0) << " contigs in "
              << contigs.pages_fetched() << " cursor pages\n";
    return 0;
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
