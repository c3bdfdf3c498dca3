// `mgnify genome search` (COBS: which genomes contain a DNA sequence) and
// `mgnify genome gather` (sourmash: which genomes make up a sample's
// signature), over MGnify's genome catalogues through API v2. The v2 client
// is the one whose COBS hits are typed genomes and which takes a result
// limit; both searches need no login.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mgnify/genome_search.hpp>
#include <mgnify/v2/client.hpp>
#include <mgnify/v2/genome_search.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "file_listing.hpp"
#include "help_format.hpp"
#include "interrupts.hpp"
#include "list_option.hpp"
#include "nonempty_option.hpp"
#include "number_option.hpp"
#include "progress.hpp"

namespace mgnify_cli {

namespace fs = std::filesystem;
namespace v2 = mgnify::v2;
using nlohmann::ordered_json;

namespace {

/// Where to list the catalogue ids that --catalogue takes.
constexpr const char* kCatalogueHelp =
    "(repeatable or comma-separated), as `mgnify v2 genome-catalogues list` prints them "
    "(catalogue_id)";

/// --catalogue '' is refused by name rather than as the SDK's field name.
void check_catalogues(const std::vector<std::string>& catalogues) {
  for (const auto& id : catalogues) {
    if (id.empty()) throw UsageError("--catalogue must not be empty");
  }
}

/// The service searches an unknown catalogue id as one with no genomes, so a
/// typo would end as "no genome matched"; the ids are checked against the
/// service's list first (one listing, before any search), and an unknown one
/// ends the command with exit 3 naming the ids there are.
void check_catalogues_exist(const v2::V2Client& client, const std::vector<std::string>& ids,
                            const mgnify::CancelToken& interrupt) {
  if (ids.empty()) return;
  std::vector<std::string> known;
  for (const auto& catalogue : client.genome_catalogues({}, interrupt)) {
    known.push_back(catalogue.catalogue_id);
  }
  std::string unknown;
  for (const auto& id : ids) {
    if (std::find(known.begin(), known.end(), id) == known.end()) {
      unknown += (unknown.empty() ? "'" : ", '") + id + "'";
    }
  }
  if (unknown.empty()) return;
  std::string listed;
  for (const auto& id : known) listed += (listed.empty() ? "" : ", ") + id;
  throw NothingMatched(
      sanitize_for_terminal("no genome catalogue " + unknown + "; catalogues: " + listed));
}

/// Past this a query is no genome fragment, and a FIFO or /dev/zero would be read forever.
constexpr std::size_t kMaxQueryFileBytes = std::size_t{64} * 1024 * 1024;

// ---- COBS queries ---------------------------------------------------------------

struct CobsArgs {
  std::string sequence;
  std::string fasta;
  std::vector<std::string> catalogues;
  std::optional<double> threshold;
  bool progress = false;
};

struct SequenceQuery {
  std::string name;
  std::string sequence;
};

/// The IUPAC nucleotide codes, in either case.
bool is_nucleotide(char c) {
  static constexpr std::string_view kCodes = "ACGTURYSWKMBDHVNacgturyswkmbdhvn";
  return kCodes.find(c) != std::string_view::npos;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/// Appends `text` without its blanks to `query`'s sequence, refusing any
/// character that is not a nucleotide code.
void append_sequence(SequenceQuery& query, std::string_view text) {
  for (char c : text) {
    if (is_blank(c)) continue;
    if (!is_nucleotide(c)) {
      throw UsageError(query.name + ": '" + std::string(1, c) + "' at position " +
                       std::to_string(query.sequence.size() + 1) +
                       " is not a nucleotide (IUPAC codes ACGTU RYSWKM BDHV N, any case)" +
                       (c == '>' ? "; give a FASTA file with --fasta" : ""));
    }
    query.sequence.push_back(c);
  }
}

std::string read_query_file(const std::string& path) {
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw UsageError("--fasta: " + path + " is a directory");
    errno = 0;
    file.open(path, std::ios::binary);
    if (!file) {
      throw UsageError("--fasta: cannot read " + path + ": " +
                       (errno ? std::strerror(errno) : "open failed"));
    }
    in = &file;
  }
  std::string text;
  char buffer[65536];
  while (in->read(buffer, sizeof buffer) || in->gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in->gcount()));
    if (text.size() > kMaxQueryFileBytes) {
      throw UsageError("--fasta: " + path + " is larger than " +
                       std::to_string(kMaxQueryFileBytes >> 20) +
                       " MiB; COBS searches genome fragments");
    }
  }
  if (in->bad()) throw UsageError("--fasta: cannot read " + path);
  return text;
}

/// The records of a FASTA file, or its whole text as one sequence when it has
/// no header line.
std::vector<SequenceQuery> parse_queries(const std::string& text, const std::string& path) {
  const std::string shown = path == "-" ? "stdin" : path;
  std::vector<SequenceQuery> queries;
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) throw UsageError("--fasta: " + shown + " holds no sequence");
  if (text[first] != '>') {
    queries.push_back({shown, ""});
    append_sequence(queries.back(), text);
  } else {
    std::size_t at = first;
    while (at < text.size()) {
      auto end = text.find('\n', at);
      if (end == std::string::npos) end = text.size();
      std::string_view line(text.data() + at, end - at);
      if (!line.empty() && line.front() == '>') {
        std::string_view header = line.substr(1);
        const auto id_end = header.find_first_of(" \t\r");
        std::string id(header.substr(0, id_end));
        if (id.empty()) id = "record " + std::to_string(queries.size() + 1);
        queries.push_back({id, ""});
      } else {
        append_sequence(queries.back(), line);
      }
      at = end + 1;
    }
  }
  for (const auto& q : queries) {
    if (q.sequence.empty()) throw UsageError("--fasta: " + q.name + " has no sequence");
  }
  return queries;
}

std::vector<SequenceQuery> queries_of(const CobsArgs& args) {
  if (args.sequence.empty() == args.fasta.empty()) {
    throw UsageError("genome search: give a sequence or --fasta FILE, not both or neither");
  }
  if (!args.fasta.empty()) return parse_queries(read_query_file(args.fasta), args.fasta);
  SequenceQuery query{"sequence", ""};
  append_sequence(query, args.sequence);
  if (query.sequence.empty()) throw UsageError("genome search: the sequence is empty");
  return {query};
}

/// --max as the service's max_results (per query).
std::optional<int> max_results(const Settings& settings) {
  if (!settings.max_items) return std::nullopt;
  if (*settings.max_items < 1 || *settings.max_items > static_cast<std::size_t>(INT_MAX)) {
    throw UsageError("--max for a genome search must be an integer from 1 to " +
                     std::to_string(INT_MAX) + ", got " + std::to_string(*settings.max_items));
  }
  return static_cast<int>(*settings.max_items);
}

/// The TSV columns unless --columns names others.
const std::vector<std::string>& search_columns() {
  static const std::vector<std::string> columns = {"query",
                                                   "cobs.genome",
                                                   "mgnify.catalogue_id",
                                                   "mgnify.type",
                                                   "mgnify.taxon_lineage",
                                                   "cobs.percent_kmers_found",
                                                   "cobs.num_kmers_found",
                                                   "cobs.num_kmers",
                                                   "mgnify.completeness",
                                                   "mgnify.contamination"};
  return columns;
}

int run_search(const Settings& settings, const CobsArgs& args) {
  no_page_size(settings, "genome search");
  check_catalogues(args.catalogues);
  const auto queries = queries_of(args);
  mgnify::CobsQuery base;
  base.threshold = args.threshold;
  base.max_results = max_results(settings);
  base.catalogues_filter = args.catalogues;
  base.sequence = queries.front().sequence;
  base.validate();

  const v2::V2Client client(client_options(settings, Service::v2));
  const mgnify::CancelToken interrupt;
  const InterruptScope interrupt_scope(interrupt);
  check_catalogues_exist(client, args.catalogues, interrupt);
  const bool several = queries.size() > 1;
  ProgressBar bar("genome search", several, several && args.progress);
  Writer out = stdout_writer(settings);
  out.default_columns(search_columns());
  out.begin_list();
  std::size_t searched = 0;
  std::size_t hits = 0;
  std::size_t cut = 0;
  try {
    for (const auto& q : queries) {
      mgnify::CobsQuery query = base;
      query.sequence = q.sequence;
      const v2::GenomeSearchResult result = client.genome_search(query, interrupt);
      for (const auto& hit : result.results) {
        const nlohmann::json fields = hit;
        ordered_json record;
        record["query"] = q.name;
        for (const auto& [key, value] : fields.items()) record[key] = value;
        out.write(record);
      }
      hits += result.results.size();
      if (query.max_results &&
          result.results.size() >= static_cast<std::size_t>(*query.max_results)) {
        ++cut;
      }
      bar.items(++searched, queries.size(), "sequences");
    }
  } catch (const mgnify::CancelledError&) {
    if (!interrupt.cancelled()) throw;
    bar.finish();
    out.finish();
    print_error("interrupted: " + std::to_string(searched) + " of " +
                std::to_string(queries.size()) + " sequences searched, their hits printed");
    return interrupted_exit_code();
  }
  bar.finish();
  out.finish();
  if (cut > 0) {
    print_error("warning: " + std::to_string(cut) + (cut == 1 ? " query" : " queries") +
                " stopped at --max " + std::to_string(*base.max_results) +
                " hits, so more genomes may match; raise --max");
  }
  if (hits == 0) {
    print_error("no genome matched" +
                std::string(args.threshold ? "" : " at the service's default threshold") +
                (args.catalogues.empty() ? std::string() : " in the catalogues given") +
                "; a lower --threshold matches more");
  }
  return kOk;
}

// ---- sourmash gather ------------------------------------------------------------

struct GatherArgs {
  std::vector<std::string> signatures;
  std::vector<std::string> catalogues;
  std::string job;
  double wait_seconds = 1800;
  std::size_t max_searches = 1000;
  bool progress = false;
};

/// A job's searches (one per signature and catalogue) beyond --max-searches
/// are refused: each adds a request and up to a whole result CSV of output.
std::string too_many_searches(std::size_t searches, std::size_t limit, const std::string& what) {
  return what + " has " + std::to_string(searches) + " searches (signatures x catalogues), more " +
         "than --max-searches " + std::to_string(limit) + "; raise --max-searches to collect them";
}

/// A signature file the service would refuse ("Unable to parse the uploaded
/// file") is refused here, before anything is sent.
void check_signature(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw UsageError(path + ": cannot read: " + (errno ? std::strerror(errno) : "open failed"));
  }
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  const nlohmann::json* record = &doc;
  if (doc.is_array() && !doc.empty()) record = &doc.front();
  if (doc.is_discarded() || !record->is_object() || !record->contains("signatures")) {
    throw UsageError(path +
                     ": not a sourmash signature (JSON with a \"signatures\" list, as "
                     "`sourmash sketch dna` writes)");
  }
}

/// The known gather columns, and which of them hold numbers.
struct GatherColumns {
  std::vector<std::string> names;
  std::set<std::string> numeric;
  void column(const char* name, std::string&) { names.emplace_back(name); }
  template <class T>
  void column(const char* name, std::optional<T>&) {
    names.emplace_back(name);
    numeric.emplace(name);
  }
};

const GatherColumns& gather_columns() {
  static const GatherColumns columns = [] {
    GatherColumns c;
    mgnify::GatherResultRow row;
    mgnify::GatherResultRow::columns(row, c);
    // sourmash's other numeric gather columns, which the SDK keeps as text only.
    for (const char* name :
         {"f_match_orig", "sum_weighted_found", "total_weighted_hashes", "n_unique_weighted_found",
          "query_n_hashes", "query_containment_ani", "match_containment_ani",
          "average_containment_ani", "max_containment_ani", "ksize", "scaled"}) {
      c.numeric.emplace(name);
    }
    return c;
  }();
  return columns;
}

/// A cell of a numeric column as a number when it is one, and null when it is
/// empty (sourmash leaves the abundance columns empty for unweighted
/// signatures); any other cell as its text.
nlohmann::json cell_value(const std::string& column, const std::string& text) {
  if (gather_columns().numeric.count(column)) {
    if (text.empty()) return nullptr;
    if (const auto integer = mgnify::detail::integer_from_text<std::int64_t>(text)) return *integer;
    if (const auto number = mgnify::detail::csv_number(text)) return *number;
  }
  return text;
}

constexpr const char* kSignatureColumn = "signature_file";
constexpr const char* kCatalogueColumn = "catalogue";

/// "RUNNING, 1/2 searches done, 12 s", with the service's texts made safe for a terminal.
std::string status_line(const mgnify::GatherStatus& status, std::size_t finished,
                        std::chrono::steady_clock::time_point started) {
  std::string text = "job " + status.group_id + ": " + status.status.text;
  if (status.status == mgnify::JobState::queued) {
    for (const auto& s : status.signatures) {
      if (s.position_in_queue) {
        text += " (position " + std::to_string(*s.position_in_queue) + ")";
        break;
      }
    }
  }
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - started)
          .count();
  text += ", " + std::to_string(finished) + "/" + std::to_string(status.signatures.size()) +
          " searches done, " + std::to_string(seconds) + " s";
  return sanitize_for_terminal(text);
}

/// A job id a pasted command may carry as it is printed: what the service
/// issues (a UUID) and the mock's ids are letters, digits, '-', '_' and '.'.
bool pasteable_job_id(const std::string& id) {
  return !id.empty() && id.size() <= 128 && id.front() != '-' &&
         id.find_first_not_of(
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") ==
             std::string::npos;
}

std::string collect_hint(const std::string& job_id) {
  if (!pasteable_job_id(job_id)) {
    return "the service's job id '" + job_id +
           "' is not of the form a job id takes (letters, digits, '-', '_', '.'), so no "
           "command to collect it is suggested";
  }
  return "`mgnify genome gather --job " + shell_word(job_id) + "` collects its results later";
}

/// Thrown from the status callback to stop waiting for a job with too many searches.
struct TooManySearches {
  std::size_t searches;
};

int run_gather(const Settings& settings, const GatherArgs& args) {
  no_page_size(settings, "genome gather");
  if (settings.max_items) throw UsageError("--max does not apply to 'genome gather'");
  check_catalogues(args.catalogues);
  mgnify::GatherRequest request;
  if (args.job.empty()) {
    if (args.signatures.empty()) {
      throw UsageError("genome gather: give signature files, or --job ID of an earlier search");
    }
    if (args.catalogues.empty()) {
      throw UsageError("genome gather: name the catalogues to search with --catalogue");
    }
    const std::size_t searches = args.signatures.size() * args.catalogues.size();
    if (searches > args.max_searches) {
      throw UsageError(too_many_searches(searches, args.max_searches, "genome gather"));
    }
    request.mag_catalogues = args.catalogues;
    for (const auto& path : args.signatures) {
      request.signatures.push_back(mgnify::SignatureFile::from_path(path));
    }
    request.validate();
    for (const auto& path : args.signatures) check_signature(path);
  } else if (!args.signatures.empty() || !args.catalogues.empty()) {
    throw UsageError(
        "genome gather: --job collects an earlier search; give no signatures or "
        "--catalogue with it");
  }

  const v2::V2Client client(client_options(settings, Service::v2));
  const mgnify::CancelToken interrupt;
  const InterruptScope interrupt_scope(interrupt);
  ProgressBar bar("gather", true, args.progress);
  std::string job_id = args.job;
  mgnify::GatherStatus final_status;
  try {
    if (job_id.empty()) {
      check_catalogues_exist(client, args.catalogues, interrupt);
      job_id = client.submit_gather(request, interrupt).job_id;
    }
    const auto started = std::chrono::steady_clock::now();
    mgnify::JobWaitOptions wait;
    mgnify::CallOptions wait_call(interrupt);
    wait_call.timeout(std::chrono::milliseconds(static_cast<long long>(args.wait_seconds * 1000)));
    wait.on_status = [&bar, &args, started](const mgnify::GatherStatus& status) {
      if (status.signatures.size() > args.max_searches) {
        throw TooManySearches{status.signatures.size()};
      }
      std::size_t finished = 0;
      for (const auto& s : status.signatures) finished += s.status.finished() ? 1 : 0;
      const std::size_t total = status.signatures.size();
      bar.text(
          status_line(status, finished, started),
          total ? std::optional<double>(static_cast<double>(finished) / static_cast<double>(total))
                : std::nullopt);
    };
    final_status = client.wait_for_gather(job_id, wait, wait_call);
    bar.finish();
  } catch (const TooManySearches& e) {
    bar.finish();
    throw UsageError(too_many_searches(e.searches, args.max_searches, "gather job " + job_id));
  } catch (const mgnify::CancelledError&) {
    if (!interrupt.cancelled()) throw;
    bar.finish();
    print_error(job_id.empty() ? "interrupted before the search was submitted"
                               : "interrupted: stopped waiting for gather job " + job_id +
                                     ", which runs on at the service; " + collect_hint(job_id));
    return interrupted_exit_code();
  } catch (const mgnify::DeadlineExceededError& e) {
    bar.finish();
    print_error(std::string(e.what()) + " (--wait); " + collect_hint(job_id));
    return kUnavailable;
  }
  int failed = 0;
  if (final_status.signatures.empty() && !final_status.status.has_results()) {
    print_error("gather job " + job_id + " ended " + final_status.status.text);
    ++failed;
  }

  // Each search's results are fetched, written and dropped before the next
  // one's, so memory holds one result CSV whatever the number of searches.
  // The columns: the two that say which search a row is from, then every CSV
  // column in the order first seen up to the first row written (a TSV header
  // is fixed there); the known gather columns when no search has results.
  std::vector<std::string> columns = {kSignatureColumn, kCatalogueColumn};
  std::set<std::string> seen(columns.begin(), columns.end());
  std::vector<std::string> left_out;  // columns first seen after the header was fixed
  auto column_key = [](const std::string& name) {
    return name == kSignatureColumn || name == kCatalogueColumn ? "csv." + name : name;
  };
  Writer out = stdout_writer(settings);
  bool columns_fixed = false;
  auto fix_columns = [&] {
    if (!columns_fixed) out.default_columns(columns);
    columns_fixed = true;
  };
  out.begin_list();
  std::size_t rows = 0;
  std::size_t collected = 0;
  std::size_t with_results = 0;
  for (const auto& child : final_status.signatures) {
    if (child.status.has_results()) ++with_results;
  }
  try {
    for (const auto& child : final_status.signatures) {
      const std::string what = "signature " + child.filename.value_or(child.job_id) + " against " +
                               child.catalogue.value_or("its catalogue");
      if (!child.status.has_results()) {
        if (child.status != mgnify::JobState::no_results) {
          ++failed;
          print_error(what + ": " + child.status.text +
                      (child.reason ? " (" + *child.reason + ")" : std::string()));
        }
        continue;
      }
      const mgnify::GatherResults results = client.gather_results(child.job_id, interrupt);
      for (const auto& name : results.columns) {
        if (!seen.insert(column_key(name)).second) continue;
        (columns_fixed ? left_out : columns).push_back(column_key(name));
      }
      if (!results.rows.empty()) fix_columns();
      for (const auto& row : results.rows) {
        ordered_json record;
        record[kSignatureColumn] = child.filename.value_or("");
        record[kCatalogueColumn] = child.catalogue.value_or("");
        for (std::size_t i = 0; i < results.columns.size() && i < row.cells.size(); ++i) {
          record[column_key(results.columns[i])] = cell_value(results.columns[i], row.cells[i]);
        }
        out.write(record);
      }
      rows += results.rows.size();
      ++collected;
    }
  } catch (const mgnify::CancelledError&) {
    if (!interrupt.cancelled()) throw;
    out.finish();
    print_error("interrupted: the results of " + std::to_string(collected) + " of " +
                std::to_string(with_results) + " searches written; " + collect_hint(job_id));
    return interrupted_exit_code();
  }
  if (with_results == 0) {
    for (const auto& name : gather_columns().names) columns.push_back(column_key(name));
  }
  fix_columns();
  out.finish();
  if (!left_out.empty() && settings.format == Format::tsv && settings.columns.empty()) {
    std::string names;
    for (const auto& name : left_out) names += (names.empty() ? "" : ", ") + name;
    print_error(
        "warning: later searches' results have columns the TSV header, fixed at the "
        "first row, lacks (" +
        names + "); they are not in the output: --format ndjson keeps every column");
  }
  if (rows == 0 && failed == 0) {
    print_error("no genome matched: every search of gather job " + job_id +
                " ended without results");
  }
  return failed ? kOther : kOk;
}

}  // namespace

void add_genome_commands(CLI::App& app, Context& ctx) {
  auto* genome = app.add_subcommand(
      "genome",
      "Search MGnify's genome catalogues (API v2): COBS by DNA sequence, sourmash gather by "
      "signature");
  genome->require_subcommand(1);

  auto search_args = std::make_shared<CobsArgs>();
  auto* search = genome->add_subcommand(
      "search",
      "Genomes containing a DNA sequence (COBS k-mer search): every public catalogue, or those "
      "--catalogue names; one search per FASTA record; --max is the hits per sequence");
  search->add_option("sequence", search_args->sequence,
                     "nucleotides (IUPAC codes, any case; blanks and line breaks are ignored)");
  add_nonempty_option(*search, "-f,--fasta", search_args->fasta,
                      "read the sequence from this file instead: FASTA (one search per record) or "
                      "bare sequence; - for stdin")
      ->type_name("FILE");
  add_list_option(*search, "--catalogue", search_args->catalogues,
                  std::string("only these catalogues ") + kCatalogueHelp);
  add_number_option(*search, "--threshold", search_args->threshold, 0.0, 1.0,
                    "fraction of the sequence's k-mers a genome must contain, 0..1 (default: the "
                    "service's)");
  search->add_flag("--progress", search_args->progress,
                   "show progress over FASTA records on stderr even when it is not a terminal");
  help_formatter(*search).not_applicable(search, {"--page-size"});
  help_formatter(*search).default_for(search, "--max", "the service's");
  search->callback([&ctx, search_args] {
    ctx.action = [&ctx, search_args] { return run_search(ctx.settings, *search_args); };
  });

  auto gather_args = std::make_shared<GatherArgs>();
  auto* gather = genome->add_subcommand(
      "gather",
      "Genomes making up sourmash signatures (sourmash gather, a job the service runs): "
      "searches the catalogues --catalogue names, waits with progress, prints each match");
  gather->add_option("signature", gather_args->signatures,
                     "sourmash signature files (JSON, from `sourmash sketch dna`)");
  add_list_option(*gather, "--catalogue", gather_args->catalogues,
                  std::string("catalogues to search, at least one ") + kCatalogueHelp);
  add_nonempty_option(*gather, "--job", gather_args->job,
                      "collect the results of a search submitted earlier (its job id) instead "
                      "of submitting one")
      ->type_name("ID");
  add_number_option(*gather, "--wait", gather_args->wait_seconds, 1.0, 7.0 * 86400,
                    "seconds to wait for the job before giving up (exit 5; the job runs on)")
      ->default_str("1800");
  add_number_option(*gather, "--max-searches", gather_args->max_searches, std::size_t{1},
                    std::size_t{1000000},
                    "refuse a job of more searches (signatures x catalogues) than this; each "
                    "adds a request and its result rows")
      ->default_str("1000");
  gather->add_flag("--progress", gather_args->progress,
                   "show the job's progress on stderr even when it is not a terminal (a line "
                   "per status poll)");
  help_formatter(*gather).not_applicable(gather, {"--page-size", "--max"});
  gather->callback([&ctx, gather_args] {
    ctx.action = [&ctx, gather_args] { return run_gather(ctx.settings, *gather_args); };
  });
}

}  // namespace mgnify_cli
