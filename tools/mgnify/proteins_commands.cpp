// `mgnify protein get|search|fasta|sequence-search`: the Protein lookup service
// and, beside it, MGnify's phmmer sequence search.

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <mgnify/proteins.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "help_format.hpp"
#include "nonempty_option.hpp"
#include "number_option.hpp"
#include "progress.hpp"

namespace mgnify_cli {

namespace proteins = mgnify::proteins;

namespace {

struct SearchArgs {
  std::string pfam;
  std::int64_t biome_id = 0;
  std::string lineage;
};

void add_search_filters(CLI::App& cmd, SearchArgs& args) {
  auto* pfam = add_nonempty_option(cmd, "--pfam", args.pfam, "Pfam family: PF00005, pf00005 or 5");
  auto* biome = add_number_option(cmd, "--biome-id", args.biome_id, std::int64_t{1},
                                  std::numeric_limits<std::int64_t>::max(),
                                  "biome id (as in a record's biomes[].id)");
  auto* lineage = add_nonempty_option(cmd, "--lineage", args.lineage,
                                      "full biome lineage, e.g. root:Engineered:Wastewater");
  pfam->excludes(biome)->excludes(lineage);
  biome->excludes(lineage);
}

/// The search's `limit` when --max is not given: the service's own default.
std::string max_limit_default() {
  return std::to_string(proteins::SearchQuery::kDefaultLimit) + " (1.." +
         std::to_string(proteins::SearchQuery::kMaxLimit) + ")";
}

bool has_filter(const SearchArgs& args) {
  return !args.pfam.empty() || args.biome_id != 0 || !args.lineage.empty();
}

/// The query the filters name, with --max as the service's `limit` (1..1000).
proteins::SearchQuery make_query(const SearchArgs& args, const Settings& settings) {
  std::optional<proteins::SearchQuery> query;
  if (!args.pfam.empty()) {
    query = proteins::SearchQuery::by_pfam(args.pfam);
  } else if (args.biome_id != 0) {
    query = proteins::SearchQuery::by_biome_id(args.biome_id);
  } else if (!args.lineage.empty()) {
    query = proteins::SearchQuery::by_lineage(args.lineage);
  } else {
    throw UsageError("give one of --pfam, --biome-id or --lineage");
  }
  if (settings.max_items) {
    if (*settings.max_items < 1 ||
        *settings.max_items > static_cast<std::size_t>(proteins::SearchQuery::kMaxLimit)) {
      throw UsageError("--max for a protein search must be an integer from 1 to " +
                       std::to_string(proteins::SearchQuery::kMaxLimit) + ", got " +
                       std::to_string(*settings.max_items));
    }
    query->limit(static_cast<int>(*settings.max_items));
  }
  return *query;
}

/// The service answers a search with at most its limit of hits and says
/// nothing of what lies beyond, so a full answer may be a cut one.
void warn_if_cut_at_limit(std::size_t hits, const proteins::SearchQuery& query) {
  const int limit = query.limit().value_or(proteins::SearchQuery::kDefaultLimit);
  if (hits < static_cast<std::size_t>(limit)) return;
  const std::string largest = std::to_string(proteins::SearchQuery::kMaxLimit);
  print_error("warning: the search stopped at its limit of " + std::to_string(limit) +
              " hits, so more may exist; " +
              (limit < proteins::SearchQuery::kMaxLimit
                   ? "raise --max (up to " + largest + ")"
                   : "the service returns at most " + largest + " hits per search"));
}

/// FASTA is read by people as often as by tools: the server's text in it
/// (accessions, residues) gets the terminal escapes, so that no control
/// character, and no newline that would start a forged record, reaches it.
std::string fasta_of(proteins::Protein p, std::size_t width) {
  p.mgyp = sanitize_for_terminal(p.mgyp);
  p.sequence = sanitize_for_terminal(p.sequence);
  if (p.superseded_from) p.superseded_from = sanitize_for_terminal(*p.superseded_from);
  return proteins::to_fasta(p, width);
}

/// The SDK's JSON of a record, plus `superseded_from` when the service
/// answered with another accession (the SDK leaves it out of its JSON, so
/// without it a piped record could not be traced to the accession asked for)
/// and, given `query`, the input as typed, so that each record of a batch can
/// be matched to the input that produced it.
nlohmann::json record_json(const proteins::Protein& p, const std::string* query = nullptr) {
  nlohmann::json j = p;
  if (p.superseded_from) j["superseded_from"] = *p.superseded_from;
  if (query) j["query"] = *query;
  return j;
}

/// The keys of record_json's objects in order: the input, then the record.
std::vector<std::string> record_order() {
  std::vector<std::string> order = {"query"};
  for (auto& key : field_order<proteins::Protein>()) order.push_back(std::move(key));
  order.push_back("superseded_from");
  return order;
}

/// Prints the successes of a batch; returns the exit code of the first failure.
int report_batch(const std::vector<std::string>& accessions,
                 const std::vector<mgnify::Result<proteins::Protein>>& results,
                 const std::function<void(const std::string&, const proteins::Protein&)>& print) {
  int code = kOk;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].ok()) {
      print(accessions[i], *results[i]);
    } else {
      print_error(accessions[i] + ": " + error_message(results[i].error()));
      if (code == kOk) code = exit_code_for(results[i].exception());
    }
  }
  return code;
}

struct SequenceSearchArgs {
  std::string sequence;
  std::string fasta;
  std::string database = "full";
  mgnify::proteins::EvalueCutoffs evalue;
  mgnify::proteins::BitscoreCutoffs bitscore;
  bool no_records = false;
};

/// A FASTA file larger than this is not one protein: refused before it is read.
constexpr std::uintmax_t kMaxFastaBytes = 16u * 1024u * 1024u;

std::string read_fasta_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw UsageError("--fasta " + path + ": not a readable regular file");
  }
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxFastaBytes) {
    throw UsageError("--fasta " + path + ": larger than 16 MiB, which is not one protein sequence");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw UsageError("--fasta " + path + ": cannot be read");
  return text.str();
}

/// The service lists every hit within its reporting thresholds, which are far
/// looser than an inclusion threshold such as --evalue 1e-50; so an inclusion
/// threshold given without its reporting one is sent as both, and the listing
/// holds only what passes it. A reporting threshold given as well widens the
/// listing, and the `included` column tells the two kinds of hit apart.
template <class Cutoffs>
Cutoffs listed_up_to_inclusion(Cutoffs c) {
  if (c.sequence && !c.report_sequence) c.report_sequence = c.sequence;
  if (c.hit && !c.report_hit) c.report_hit = c.hit;
  return c;
}

/// The query the arguments name; every check runs here, before any request.
proteins::SequenceSearchQuery make_sequence_query(const SequenceSearchArgs& args) {
  if (args.sequence.empty() == args.fasta.empty()) {
    throw UsageError(
        "protein sequence-search: give a sequence or --fasta FILE, not both or neither");
  }
  const auto db = proteins::parse_sequence_database(args.database);
  if (!db) {
    throw UsageError("--database must be full, all or partial, got '" + args.database + "'");
  }
  try {
    proteins::SequenceSearchQuery query(args.fasta.empty() ? args.sequence
                                                           : read_fasta_file(args.fasta));
    query.database(*db);
    const auto e = listed_up_to_inclusion(args.evalue);
    const auto t = listed_up_to_inclusion(args.bitscore);
    if (e.sequence || e.hit || e.report_sequence || e.report_hit) query.cutoffs(e);
    if (t.sequence || t.hit || t.report_sequence || t.report_hit) query.cutoffs(t);
    return query;
  } catch (const mgnify::InvalidArgument& e) {
    throw UsageError(e.what());
  }
}

/// A number as a table cell: the value when it reads as one, else the text sent.
nlohmann::ordered_json number_cell(const mgnify::OpenNumber& n) {
  if (n.has_value()) return *n;
  return n.sent();
}

/// One output row: the hit's scalars first, then, when looked up, what the
/// Protein service holds for it; `nested` (JSON, NDJSON) adds the whole hit
/// and record, which a TSV row would flatten into hundreds of columns.
nlohmann::ordered_json sequence_hit_row(const proteins::SequenceSearchHit& hit,
                                        const mgnify::Result<proteins::Protein>* record,
                                        bool nested) {
  nlohmann::ordered_json row;
  row["accession"] = hit.accession();
  row["evalue"] = number_cell(hit.evalue);
  row["score"] = number_cell(hit.score);
  // The service's verdict, as sent: 1 within the inclusion threshold, 0 reported only.
  row["included"] = nlohmann::ordered_json(hit.is_included.sent());
  row["description"] = hit.desc;
  row["domains"] = hit.domains.size();
  if (record) {
    const bool ok = record->ok();
    row["record"] =
        ok ? "found" : (record->error_as<mgnify::NotFoundError>() ? "missing" : "error");
    row["full_length"] = ok && (*record)->full_length
                             ? nlohmann::ordered_json(*(*record)->full_length)
                             : nlohmann::ordered_json();
    row["cluster_size"] = ok && (*record)->cluster_size
                              ? nlohmann::ordered_json(*(*record)->cluster_size)
                              : nlohmann::ordered_json();
    std::string biomes;
    std::string pfams;
    if (ok) {
      for (const auto& b : (*record)->biomes) biomes += (biomes.empty() ? "" : ";") + b.name;
      for (const auto& p : (*record)->pfam_annotations) {
        pfams += (pfams.empty() ? "" : ";") + p.accession;
      }
    }
    row["biomes"] = biomes;
    row["pfam"] = pfams;
    if (nested) {
      row["protein"] =
          ok ? nlohmann::ordered_json(nlohmann::json(**record)) : nlohmann::ordered_json();
    }
  }
  if (nested) row["hit"] = nlohmann::ordered_json(nlohmann::json(hit));
  return row;
}

/// The TSV columns of sequence_hit_row, in its order.
std::vector<std::string> sequence_row_order() {
  return {"accession", "evalue",      "score",        "included", "description", "domains",
          "record",    "full_length", "cluster_size", "biomes",   "pfam"};
}

/// The four options of one kind of cut-off (--KIND, --hit-KIND, --report-KIND,
/// --report-hit-KIND), in the order of HMMER's names in `hmmer`.
template <class Cutoffs>
std::vector<CLI::Option*> add_cutoff_options(CLI::App& cmd, Cutoffs& c, const std::string& kind,
                                             const std::string& label,
                                             const std::array<const char*, 4>& hmmer, double max) {
  const auto help = [&](const char* what, const char* when, const char* name,
                        const std::string& effect) {
    return std::string(what) + " " + label + " " + when + " threshold (HMMER " + name +
           "): " + effect;
  };
  return {add_number_option(
              cmd, "--" + kind, c.sequence, 0.0, max,
              help("sequence", "inclusion", hmmer[0],
                   "only hits within it are listed, unless --report-" + kind + " widens the list")),
          add_number_option(cmd, "--hit-" + kind, c.hit, 0.0, max,
                            help("hit (domain)", "inclusion", hmmer[1],
                                 "only domains within it are listed, unless --report-hit-" + kind +
                                     " widens the list")),
          add_number_option(
              cmd, "--report-" + kind, c.report_sequence, 0.0, max,
              help("sequence", "reporting", hmmer[2],
                   "hits up to it are listed, those beyond --" + kind + " with included=0")),
          add_number_option(
              cmd, "--report-hit-" + kind, c.report_hit, 0.0, max,
              help("hit (domain)", "reporting", hmmer[3], "domains up to it are listed"))};
}

void add_sequence_search_options(CLI::App& cmd, SequenceSearchArgs& args) {
  cmd.add_option("sequence", args.sequence,
                 "protein sequence: residues, or a FASTA record in one quoted argument");
  add_nonempty_option(cmd, "--fasta", args.fasta,
                      "file holding one protein sequence (FASTA or plain)");
  add_nonempty_option(cmd, "--database", args.database,
                      "full (full-length peptides), all, or partial (fragments)")
      ->default_str("full");
  help_formatter(cmd).completes_with(&cmd, "--database", {"full", "all", "partial"});
  const auto by_e =
      add_cutoff_options(cmd, args.evalue, "evalue", "E-value", {"incE", "incdomE", "E", "domE"},
                         proteins::SequenceSearchQuery::kMaxEvalue);
  const auto by_t = add_cutoff_options(cmd, args.bitscore, "bitscore", "bit-score",
                                       {"incT", "incdomT", "T", "domT"}, 1e6);
  for (auto* a : by_e) {
    for (auto* b : by_t) a->excludes(b);
  }
  cmd.add_flag("--no-records", args.no_records,
               "hits only: skip looking each hit up in the Protein service");
}

}  // namespace

void add_protein_commands(CLI::App& app, Context& ctx) {
  auto* protein = app.add_subcommand("protein", "MGnify Protein database: records, search, FASTA");
  protein->require_subcommand(1);

  // get
  auto accessions = std::make_shared<std::vector<std::string>>();
  auto* get =
      protein->add_subcommand("get", "Records of cluster representatives (MGYP accessions)");
  get->add_option("accession", *accessions,
                  "MGYP000261684433 or mgyp261684433 (the digits alone are deprecated)")
      ->required();
  help_formatter(*get).not_applicable(get, {"--page-size", "--max"});
  get->callback([&ctx, accessions] {
    ctx.action = [&ctx, accessions] {
      no_page_size(ctx.settings, "protein get");
      const proteins::ProteinClient client(client_options(ctx.settings, Service::proteins));
      if (accessions->size() == 1) {
        return emit_one(ctx.settings, record_json(client.protein(accessions->front())),
                        record_order());
      }
      ProgressBar bar("proteins");
      mgnify::BatchOptions batch;
      batch.progress = [&bar](std::size_t done, std::size_t total) {
        bar.items(done, total, "records");
      };
      const auto results = client.get_proteins(*accessions, batch);
      bar.finish();
      Writer out = stdout_writer(ctx.settings);
      out.prefer_order(record_order());
      out.begin_list();
      const int code = report_batch(*accessions, results,
                                    [&out](const std::string& query, const proteins::Protein& p) {
                                      out.write(record_json(p, &query));
                                    });
      out.finish();
      return code;
    };
  });

  // search
  auto search_args = std::make_shared<SearchArgs>();
  auto* search = protein->add_subcommand(
      "search", "Representatives by Pfam family or biome (--max is the service's limit)");
  add_search_filters(*search, *search_args);
  help_formatter(*search).not_applicable(search, {"--page-size"});
  help_formatter(*search).default_for(search, "--max", max_limit_default());
  search->callback([&ctx, search_args] {
    ctx.action = [&ctx, search_args] {
      no_page_size(ctx.settings, "protein search");
      const proteins::ProteinClient client(client_options(ctx.settings, Service::proteins));
      const auto query = make_query(*search_args, ctx.settings);
      const auto hits = client.search(query);
      Writer out = stdout_writer(ctx.settings);
      begin_list_of<proteins::SearchHit>(out);
      for (const auto& hit : hits) out.write(nlohmann::json(hit));
      out.finish();
      note_if_empty(out, "proteins");
      warn_if_cut_at_limit(hits.size(), query);
      return kOk;
    };
  });

  // fasta
  auto fasta_args = std::make_shared<SearchArgs>();
  auto fasta_accessions = std::make_shared<std::vector<std::string>>();
  auto width = std::make_shared<std::size_t>(60);
  auto* fasta = protein->add_subcommand(
      "fasta", "FASTA of the given accessions, or of every search hit (--format does not apply)");
  fasta->add_option("accession", *fasta_accessions, "MGYP accessions (or use a search filter)");
  add_search_filters(*fasta, *fasta_args);
  add_number_option(*fasta, "--width", *width, std::size_t{0}, std::size_t{100000},
                    "residues per line, 0 for one line")
      ->default_str("60");
  help_formatter(*fasta).not_applicable(fasta, {"--page-size", "--columns"});
  help_formatter(*fasta).not_applicable(fasta, {"--format"}, ", which always writes FASTA");
  help_formatter(*fasta).default_for(fasta, "--max", max_limit_default());
  fasta->callback([&ctx, fasta_args, fasta_accessions, width] {
    ctx.action = [&ctx, fasta_args, fasta_accessions, width] {
      no_page_size(ctx.settings, "protein fasta");
      if (ctx.settings.format_given) {
        throw UsageError("--format does not apply to 'protein fasta', which always writes FASTA");
      }
      if (has_filter(*fasta_args) == !fasta_accessions->empty()) {
        throw UsageError(
            "protein fasta: give accessions or one search filter, not both or neither");
      }
      const proteins::ProteinClient client(client_options(ctx.settings, Service::proteins));
      ProgressBar bar("proteins");
      mgnify::BatchOptions batch;
      batch.progress = [&bar](std::size_t done, std::size_t total) {
        bar.items(done, total, "records");
      };
      std::vector<std::string> names = *fasta_accessions;
      std::vector<mgnify::Result<proteins::Protein>> results;
      if (fasta_accessions->empty()) {
        const auto query = make_query(*fasta_args, ctx.settings);
        const auto hits = client.search(query);
        for (const auto& hit : hits) names.push_back(hit.mgyp);
        // FASTA has no header line: without this an empty answer is an empty file.
        if (hits.empty()) print_error("note: 0 proteins matched");
        warn_if_cut_at_limit(hits.size(), query);
      }
      results = client.get_proteins(names, batch);
      bar.finish();
      const int code =
          report_batch(names, results, [&width](const std::string&, const proteins::Protein& p) {
            std::cout << fasta_of(p, *width);
          });
      std::cout.flush();
      return code;
    };
  });

  // sequence-search
  auto seq_args = std::make_shared<SequenceSearchArgs>();
  auto* seq = protein->add_subcommand(
      "sequence-search",
      "phmmer search of one protein sequence against MGnify's proteins, hits joined to their "
      "records (E-value or bit-score cut-offs, not both)");
  add_sequence_search_options(*seq, *seq_args);
  help_formatter(*seq).not_applicable(seq, {"--page-size"});
  help_formatter(*seq).not_applicable(seq, {"--max"}, "; the cut-offs decide the hits");
  help_formatter(*seq).default_for(seq, "--format", "tsv");
  seq->callback([&ctx, seq_args] {
    ctx.action = [&ctx, seq_args] {
      no_page_size(ctx.settings, "protein sequence-search");
      if (ctx.settings.max_items) {
        throw UsageError(
            "--max does not apply to 'protein sequence-search'; the cut-offs decide the hits");
      }
      const auto query = make_sequence_query(*seq_args);
      const proteins::ProteinClient client(client_options(ctx.settings, Service::proteins));
      // A hit table, as mg-toolkit writes one: TSV unless --format says otherwise.
      Settings settings = ctx.settings;
      if (!settings.format_given) settings.format = Format::tsv;
      const bool nested = settings.format != Format::tsv;
      Writer out = stdout_writer(settings);
      out.prefer_order(sequence_row_order());
      out.begin_list();
      int code = kOk;
      if (seq_args->no_records) {
        for (const auto& hit : client.sequence_search(query).results.hits) {
          out.write(sequence_hit_row(hit, nullptr, nested));
        }
        out.finish();
        return code;
      }
      ProgressBar bar("records");
      mgnify::BatchOptions batch;
      batch.progress = [&bar](std::size_t done, std::size_t total) {
        bar.items(done, total, "records");
      };
      const auto joined = client.sequence_search_with_records(query, batch);
      bar.finish();
      std::size_t missing = 0;
      for (const auto& m : joined.matches) {
        out.write(sequence_hit_row(m.hit, &m.record, nested));
        if (m.record_missing()) {
          ++missing;
        } else if (!m.record.ok()) {
          print_error(m.hit.accession() + ": " + error_message(m.record.error()));
          if (code == kOk) code = exit_code_for(m.record.exception());
        }
      }
      out.finish();
      if (missing > 0) {
        print_error(
            std::to_string(missing) + " of " + std::to_string(joined.matches.size()) +
            " hits have no record in the Protein service (record=missing); they are listed");
      }
      return code;
    };
  });
}

}  // namespace mgnify_cli
