// pfam_to_fasta: every representative of a Pfam family, as FASTA.
//
//   pfam_to_fasta [--base-url URL] [--limit N] [--concurrency N] [--rate R] [--output FILE] PFAM
//
// Searches the family (up to --limit hits, default and maximum 1000), then
// fetches the records concurrently under the client's rate limit (default 10
// requests per second, polite for the public service; --rate raises it for
// a local mirror or the mock), with a progress line on stderr. Records that cannot be fetched are
// listed on stderr and the exit status is 3; the others are still written.

#include <algorithm>
#include <fstream>
#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/proteins.hpp"

namespace {
const example::Usage kUsage{
    "pfam_to_fasta",
    "[--base-url URL] [--limit N] [--concurrency N] [--rate R] [--output FILE] PFAM",
    "Writes every representative of a Pfam family as FASTA (to --output FILE, else stdout):\n"
    "searches the family (up to --limit hits, default and maximum 1000), then fetches the\n"
    "records --concurrency at a time under the client's rate limit (--rate requests per second,\n"
    "default 10). Records that cannot be fetched are listed on stderr and the exit status is 3.\n"
    "The base URL defaults to $MGNIFY_PROTEINS_URL, then the public service.",
    {},
    {"--limit", "--concurrency", "--rate", "--output"}};

int usage() { return example::usage_error(kUsage); }
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_PROTEINS_URL", kUsage);
  if (args.words.size() != 1) return usage();
  const std::string& family = args.words.front();
  const std::string output = args.text("--output").value_or("");
  const auto limit =
      static_cast<int>(args.positive("--limit", mgnify::proteins::SearchQuery::kMaxLimit)
                           .value_or(mgnify::proteins::SearchQuery::kMaxLimit));
  const std::size_t concurrency = args.positive("--concurrency", 64).value_or(8);
  const double rate = args.number("--rate").value_or(0);  // 0: the client's default
  if (rate < 0) example::fail_usage(kUsage, "option '--rate' must not be negative");

  try {
    const auto query = mgnify::proteins::SearchQuery::by_pfam(family).limit(limit);

    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    if (rate > 0) {
      options.rate_limit.requests_per_second = rate;
      options.rate_limit.burst = std::max(1.0, rate / 10);
    }
    const mgnify::proteins::ProteinClient client(options);

    // Redrawn only when the percentage changes, so a log file gets ~100 lines, not 1000.
    std::size_t shown = 101;
    mgnify::BatchOptions batch;
    batch.concurrency = concurrency;
    batch.progress = [&shown](std::size_t done, std::size_t total) {
      const std::size_t percent = done * 100 / total;
      if (percent == shown) return;
      shown = percent;
      std::cerr << "\rfetched " << done << "/" << total << " (" << percent << "%)" << std::flush;
    };
    const auto records = client.search_and_fetch(query, batch);
    std::cerr << "\n";

    std::ofstream file;
    if (!output.empty()) {
      file.open(output, std::ios::binary | std::ios::trunc);
      if (!file) {
        std::cerr << "cannot write " << output << "\n";
        return 1;
      }
    }
    std::ostream& out = output.empty() ? std::cout : file;
    std::size_t written = 0;
    std::size_t failed = 0;
    for (const auto& record : records) {
      if (record.ok()) {
        out << mgnify::proteins::to_fasta(*record);
        ++written;
      } else {
        std::cerr << "skipped: " << record.error().what() << "\n";
        ++failed;
      }
    }
    out.flush();
    std::cerr << "wrote " << written << " sequences of " << query.value()
              << (output.empty() ? std::string() : " to " + output) << "\n";
    return failed == 0 ? 0 : 3;
  } catch (const mgnify::InvalidArgument& e) {
    std::cerr << "invalid input: " << e.what() << "\n";
    return 2;
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
