#pragma once

// Protein sequence search: phmmer (HMMER 3) with one protein sequence against
// MGnify's protein database, through MGnify's sequence-search service (a
// deployment of the HMMER web server at
// https://www.ebi.ac.uk/metagenomics/sequence-search/search/phmmer), as
// mg-toolkit's `sequence_search` calls it.
//
// The request is a form: `seq`, `seqdb` and the HMMER cut-offs (incE, incdomE,
// E, domE or incT, incdomT, T, domT). The answer is HMMER's result object,
// {"results": {"uuid", "algo", "stats", "hits": [...]}}, whose numbers the
// server writes sometimes as JSON numbers and sometimes as text ("score":
// "253.2"); every such field is an OpenNumber or OpenInteger, so both read and
// both encode back as sent. Fields this SDK does not name (the "mgnify" sample
// and run lists, "uniprot_link", the alignment strings) stay in `raw`.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "mgnify/config.hpp"
#include "mgnify/detail/fields.hpp"
#include "mgnify/enum_table.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/url.hpp"
#include "mgnify/open_integer.hpp"
#include "mgnify/open_number.hpp"
#include "mgnify/proteins/models.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/result.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace proteins {

// ---- the request ----------------------------------------------------------------

/// The peptide databases the service offers (mg-toolkit's `--database`
/// choices; the service's `seqdb`): every sequence, full-length ones only, or
/// fragments only.
enum class SequenceDatabase { full, all, partial };

/// The `seqdb` value sent for each database.
constexpr auto enum_names(SequenceDatabase) {
  return enum_table<SequenceDatabase>({
      {SequenceDatabase::full, "full"},
      {SequenceDatabase::all, "all"},
      {SequenceDatabase::partial, "partial"},
  });
}

/// "full", "all", "partial": the `seqdb` value sent.
inline const char* database_name(SequenceDatabase db) {
  const char* name = enum_text(db);
  if (*name == '\0') {
    // A cast outside the set must not search another database than asked.
    throw InvalidArgument("unknown SequenceDatabase " + std::to_string(static_cast<int>(db)));
  }
  return name;
}

/// The database a name means, exactly as database_name() spells it.
inline std::optional<SequenceDatabase> parse_sequence_database(std::string_view name) {
  return enum_value<SequenceDatabase>(name);
}

/// E-value cut-offs, HMMER's names in brackets. "Sequence" thresholds apply
/// to a whole target, "hit" thresholds to each of its domains; inclusion
/// (significance) thresholds may not be looser than reporting ones. Each is
/// 0 < x <= 10; an unset one keeps the service's default.
struct EvalueCutoffs {
  std::optional<double> sequence;         // incE
  std::optional<double> hit;              // incdomE
  std::optional<double> report_sequence;  // E
  std::optional<double> report_hit;       // domE
};

/// Bit-score cut-offs, HMMER's names in brackets; each x > 0, and inclusion
/// thresholds at least as high as reporting ones.
struct BitscoreCutoffs {
  std::optional<double> sequence;         // incT
  std::optional<double> hit;              // incdomT
  std::optional<double> report_sequence;  // T
  std::optional<double> report_hit;       // domT
};

/// What to search for. HMMER takes E-value or bit-score cut-offs, never both:
/// setting one kind replaces the other, so a query cannot hold a mix.
/// Everything is checked here, before any request (InvalidArgument).
class SequenceSearchQuery {
 public:
  /// Longest sequence accepted, in residues (the SDK's guard against sending
  /// a whole file by mistake; the longest known protein has about 35,000).
  static constexpr std::size_t kMaxResidues = 100000;
  /// Largest E-value cut-off HMMER's web form accepts.
  static constexpr double kMaxEvalue = 10.0;

  /// One protein sequence: plain residues or one FASTA record ("> name" line,
  /// then residue lines). Whitespace and line breaks between residues are
  /// ignored; residues are the letters A-Z in either case (the 20 amino acids
  /// and HMMER's B, J, O, U, X, Z), with one optional '*' at the end. Refused:
  /// no residues, a second record, any other character, more than
  /// kMaxResidues, and a sequence of 10 or more residues made only of A, C,
  /// G, T, U and N (nucleotides: phmmer needs a protein).
  explicit SequenceSearchQuery(std::string_view sequence_or_fasta);

  SequenceSearchQuery& database(SequenceDatabase db) & {
    database_ = db;
    return *this;
  }
  SequenceSearchQuery&& database(SequenceDatabase db) && { return std::move(database(db)); }

  SequenceSearchQuery& cutoffs(const EvalueCutoffs& c) &;
  SequenceSearchQuery&& cutoffs(const EvalueCutoffs& c) && { return std::move(cutoffs(c)); }
  SequenceSearchQuery& cutoffs(const BitscoreCutoffs& c) &;
  SequenceSearchQuery&& cutoffs(const BitscoreCutoffs& c) && { return std::move(cutoffs(c)); }

  /// The residues as given, whitespace removed.
  const std::string& residues() const noexcept { return residues_; }
  /// The FASTA header without '>', empty when plain residues were given.
  const std::string& header() const noexcept { return header_; }
  SequenceDatabase database() const noexcept { return database_; }
  /// Unset (the service's defaults), E-value or bit-score cut-offs.
  const std::variant<std::monostate, EvalueCutoffs, BitscoreCutoffs>& cutoffs() const noexcept {
    return cutoffs_;
  }

  /// The form fields sent: seqdb, seq (the FASTA record when a header was
  /// given, else the residues) and each cut-off that is set, numbers written
  /// so that they read back as the same double.
  http::Query to_form() const;

  /// "seqdb=full residues=120 incE=0.01", for logs and messages.
  std::string describe() const;

 private:
  std::string residues_;
  std::string header_;
  SequenceDatabase database_ = SequenceDatabase::full;
  std::variant<std::monostate, EvalueCutoffs, BitscoreCutoffs> cutoffs_;
};

// ---- the answer -------------------------------------------------------------------

/// One domain (aligned region) of a hit, as HMMER's "domains" array has it.
struct SequenceSearchDomain {
  OpenInteger ienv;        // envelope start on the target
  OpenInteger jenv;        // envelope end
  OpenInteger iali;        // alignment start on the target
  OpenInteger jali;        // alignment end
  OpenInteger alihmmfrom;  // alignment start on the query
  OpenInteger alihmmto;    // alignment end on the query
  OpenInteger alisqfrom;
  OpenInteger alisqto;
  OpenNumber bitscore;
  OpenNumber ievalue;  // independent E-value
  OpenNumber cevalue;  // conditional E-value
  OpenInteger is_included;
  OpenInteger is_reported;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("ienv", self.ienv);
    v.defaulted("jenv", self.jenv);
    v.defaulted("iali", self.iali);
    v.defaulted("jali", self.jali);
    v.defaulted("alihmmfrom", self.alihmmfrom);
    v.defaulted("alihmmto", self.alihmmto);
    v.defaulted("alisqfrom", self.alisqfrom);
    v.defaulted("alisqto", self.alisqto);
    v.defaulted("bitscore", self.bitscore);
    v.defaulted("ievalue", self.ievalue);
    v.defaulted("cevalue", self.cevalue);
    v.defaulted("is_included", self.is_included);
    v.defaulted("is_reported", self.is_reported);
  }
};

/// One target sequence that matched (HMMER's "sequence hash").
struct SequenceSearchHit {
  std::string name;  // the target's name: an MGYP accession in MGnify's database
  std::string acc;   // its accession, when the server sends one apart from name
  std::string desc;  // description
  OpenNumber score;  // bit score of the whole sequence
  OpenNumber evalue;
  OpenNumber pvalue;  // HMMER sends the natural log of the P-value
  OpenNumber bias;
  OpenInteger ndom;       // domains found
  OpenInteger nincluded;  // domains above the inclusion thresholds
  OpenInteger nreported;  // domains above the reporting thresholds
  /// 1 when the whole sequence passes the inclusion threshold (incE or
  /// incT), 0 when it was reported only; unset when the server does not say.
  OpenInteger is_included;
  OpenInteger is_reported;
  std::vector<SequenceSearchDomain> domains;
  RawJson raw{};

  /// The accession to look the hit up by: `acc`, else `name`.
  const std::string& accession() const noexcept { return acc.empty() ? name : acc; }

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("name", self.name);
    v.defaulted("acc", self.acc);
    v.defaulted("desc", self.desc);
    v.defaulted("score", self.score);
    v.defaulted("evalue", self.evalue);
    v.defaulted("pvalue", self.pvalue);
    v.defaulted("bias", self.bias);
    v.defaulted("ndom", self.ndom);
    v.defaulted("nincluded", self.nincluded);
    v.defaulted("nreported", self.nreported);
    v.defaulted("is_included", self.is_included);
    v.defaulted("is_reported", self.is_reported);
    v.defaulted("domains", self.domains);
  }
};

/// HMMER's "stats" hash.
struct SequenceSearchStats {
  OpenInteger nhits;      // hits above the reporting thresholds
  OpenInteger nincluded;  // hits above the inclusion thresholds
  OpenInteger nreported;
  OpenNumber Z;     // sequences in the target database
  OpenNumber domZ;  // HMMER's domain search space
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("nhits", self.nhits);
    v.defaulted("nincluded", self.nincluded);
    v.defaulted("nreported", self.nreported);
    v.defaulted("Z", self.Z);
    v.defaulted("domZ", self.domZ);
  }
};

/// HMMER's "results" hash.
struct SequenceSearchResults {
  std::string uuid;  // the job, as in the results page's URL
  std::string algo;  // "phmmer"
  SequenceSearchStats stats;
  std::vector<SequenceSearchHit> hits;  // best first, as the server ordered them
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("uuid", self.uuid);
    v.defaulted("algo", self.algo);
    v.defaulted("stats", self.stats);
    v.defaulted("hits", self.hits);
  }
};

/// The whole answer: {"results": {...}}.
struct SequenceSearchResponse {
  SequenceSearchResults results;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("results", self.results);
  }
};

MGNIFY_JSON_FIELDS(SequenceSearchDomain, "sequence search domain")
MGNIFY_JSON_FIELDS(SequenceSearchHit, "sequence search hit")
MGNIFY_JSON_FIELDS(SequenceSearchStats, "sequence search stats")
MGNIFY_JSON_FIELDS(SequenceSearchResults, "sequence search results")
MGNIFY_JSON_FIELDS(SequenceSearchResponse, "sequence search response")

/// A hit with the Protein service's record for its accession.
struct SequenceSearchMatch {
  SequenceSearchHit hit;
  /// The record, or why there is none: NotFoundError when the Protein service
  /// has no representative of that accession (record_missing()),
  /// InvalidArgument when the hit names no MGYP accession, any other error
  /// of the lookup otherwise.
  Result<Protein> record;

  bool record_missing() const noexcept { return record.error_as<NotFoundError>() != nullptr; }
};

/// ProteinClient::sequence_search_with_records: the search, and one match per
/// hit, in hit order; no hit is left out, whatever happened to its record.
struct SequenceSearchWithRecords {
  SequenceSearchResponse search;
  std::vector<SequenceSearchMatch> matches;
};

}  // namespace proteins
MGNIFY_NAMESPACE_END

#if MGNIFY_HEADER_ONLY
#include "mgnify/proteins/impl/sequence_search.ipp"
#endif
