#pragma once

// The models of genome search (mgnify/genome_search.hpp): a COBS query and its hits, a sourmash
// gather submission, its job and statuses, and how long to wait for one. Every model lists its
// fields once; unknown members and unknown status texts survive decoding and encode back as
// received.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/enum_table.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/form.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

// ---- COBS fragment search ------------------------------------------------------

/// What to search for. Unset numbers leave the service's defaults.
struct CobsQuery {
  /// Nucleotide sequence (a genome fragment); must not be empty unless sequence_file is set.
  std::string sequence;
  /// A regular file holding the sequence (FASTA or plain), uploaded as the multipart part
  /// `sequence_file` and read while sending; v2 only, and not together with `sequence`.
  /// Its name goes into the upload as a signature's does (http::check_form_name).
  std::optional<std::filesystem::path> sequence_file;
  std::optional<int> kmer_size;
  std::optional<int> max_results;
  /// Fraction of the query's k-mers a genome must contain, 0 to 1.
  std::optional<double> threshold;
  /// Catalogue ids to restrict the search to; empty searches all.
  std::vector<std::string> catalogues_filter;

  /// InvalidArgument for what the service would reject, before any request.
  void validate() const {
    const bool has_text = sequence.find_first_not_of(" \t\r\n") != std::string::npos;
    if (sequence_file) {
      if (has_text)
        throw InvalidArgument("genome search takes a sequence or a sequence_file, not both");
      http::check_upload_file("sequence_file", *sequence_file);
      http::check_form_name("the name of sequence_file", sequence_file->filename().string());
    } else if (!has_text) {
      throw InvalidArgument("genome search needs a non-empty sequence");
    }
    if (kmer_size && *kmer_size < 1) {
      throw InvalidArgument("kmer_size must be at least 1, got " + std::to_string(*kmer_size));
    }
    if (max_results && *max_results < 1) {
      throw InvalidArgument("max_results must be at least 1, got " + std::to_string(*max_results));
    }
    if (threshold && !(*threshold >= 0.0 && *threshold <= 1.0)) {
      throw InvalidArgument("threshold must be between 0 and 1, got " + std::to_string(*threshold));
    }
    for (const auto& id : catalogues_filter) {
      if (id.empty()) throw InvalidArgument("catalogues_filter holds an empty catalogue id");
    }
  }
};

/// The COBS side of a hit.
struct CobsMatch {
  std::string genome;
  std::optional<double> percent_kmers_found;
  std::optional<std::int64_t> num_kmers;
  std::optional<std::int64_t> num_kmers_found;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("genome", self.genome);
    v.optional("percent_kmers_found", self.percent_kmers_found);
    v.optional("num_kmers", self.num_kmers);
    v.optional("num_kmers_found", self.num_kmers_found);
  }
};
MGNIFY_JSON_FIELDS(CobsMatch, "COBS match")

/// One hit: the service's record of the genome (`Genome` is each client's own
/// genome model) and the COBS figures.
template <class Genome>
struct BasicGenomeSearchHit {
  Genome mgnify{};
  CobsMatch cobs;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("mgnify", self.mgnify);
    v.required("cobs", self.cobs);
  }
};

/// The answer of a COBS search: hits sorted by percent_kmers_found, highest first.
template <class Genome>
struct BasicGenomeSearchResult {
  std::optional<std::string> query;
  std::optional<double> threshold;
  std::vector<BasicGenomeSearchHit<Genome>> results;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.optional("query", self.query);
    v.optional("threshold", self.threshold);
    v.defaulted("results", self.results);
  }
};

template <class Genome>
void from_json(const nlohmann::json& j, BasicGenomeSearchHit<Genome>& out) {
  detail::read_fields(j, out, "genome search hit");
}
template <class Genome>
void to_json(nlohmann::json& j, const BasicGenomeSearchHit<Genome>& model) {
  detail::write_fields(j, model);
}
template <class Genome>
void from_json(const nlohmann::json& j, BasicGenomeSearchResult<Genome>& out) {
  detail::read_fields(j, out, "genome search result");
}
template <class Genome>
void to_json(nlohmann::json& j, const BasicGenomeSearchResult<Genome>& model) {
  detail::write_fields(j, model);
}

// ---- sourmash gather jobs ------------------------------------------------------

enum class JobState { queued, running, success, no_results, partial_success, failed, unknown };

/// How the service spells each state (every one but `unknown`).
constexpr auto enum_names(JobState) {
  return enum_table<JobState>({
      {JobState::queued, "QUEUED"},
      {JobState::running, "RUNNING"},
      {JobState::success, "SUCCESS"},
      {JobState::no_results, "NO_RESULTS"},
      {JobState::partial_success, "PARTIAL_SUCCESS"},
      {JobState::failed, "FAILED"},
  });
}

/// A job's status as the service spelled it. A text this SDK does not know is
/// kept (state() is JobState::unknown) rather than rejected.
struct JobStatus {
  std::string text;

  JobStatus() = default;
  explicit JobStatus(std::string t) : text(std::move(t)) {}

  JobState state() const noexcept { return enum_value<JobState>(text).value_or(JobState::unknown); }
  /// A final state: polling again will not change it. Unknown texts are not
  /// final, so a wait keeps polling (up to its deadline) through them.
  bool finished() const noexcept {
    const JobState s = state();
    return s == JobState::success || s == JobState::no_results || s == JobState::partial_success ||
           s == JobState::failed;
  }
  /// Results exist to fetch (some may be missing after PARTIAL_SUCCESS).
  bool has_results() const noexcept {
    return state() == JobState::success || state() == JobState::partial_success;
  }

  friend bool operator==(const JobStatus& a, JobState b) { return a.state() == b; }
  friend bool operator!=(const JobStatus& a, JobState b) { return a.state() != b; }
  friend bool operator==(const JobStatus& a, const JobStatus& b) { return a.text == b.text; }
  friend bool operator!=(const JobStatus& a, const JobStatus& b) { return a.text != b.text; }
};

inline void from_json(const nlohmann::json& j, JobStatus& out) {
  if (!j.is_string()) {
    throw DecodeError("", "", std::string("expected a job status string, got ") + j.type_name());
  }
  out.text = j.get<std::string>();
}
inline void to_json(nlohmann::json& j, const JobStatus& status) { j = status.text; }

/// The best match of one signature. The service formats these figures itself
/// (numbers or text such as "1.2 Mbp"), so each keeps the JSON value's text.
struct GatherMatch {
  std::string overlap;
  std::string p_query;
  std::string p_match;
  std::string match;
  std::string catalog;
  std::string query_filename;
  std::string md5_name;
  /// The number of matches, or their list: kept as sent.
  nlohmann::json matches;
  std::string status;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.scalar_text("overlap", self.overlap);
    v.scalar_text("p_query", self.p_query);
    v.scalar_text("p_match", self.p_match);
    v.scalar_text("match", self.match);
    v.scalar_text("catalog", self.catalog);
    v.scalar_text("query_filename", self.query_filename);
    v.scalar_text("md5_name", self.md5_name);
    v.defaulted("matches", self.matches);
    v.scalar_text("status", self.status);
  }
};
MGNIFY_JSON_FIELDS(GatherMatch, "gather match")

/// The job of one uploaded signature (against one catalogue).
struct GatherSignatureStatus {
  std::string job_id;
  JobStatus status;
  std::optional<std::string> filename;
  std::optional<GatherMatch> result;
  /// Where this signature's results are (genomes-search/results/{job_id}/).
  std::optional<std::string> results_url;
  std::optional<std::string> catalogue;
  /// Why it failed, when it did.
  std::optional<std::string> reason;
  std::optional<std::int64_t> position_in_queue;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.required("job_id", self.job_id);
    v.defaulted("status", self.status);
    v.optional("filename", self.filename);
    v.optional("result", self.result);
    v.optional("results_url", self.results_url);
    v.optional("catalogue", self.catalogue);
    v.optional("reason", self.reason);
    v.optional("position_in_queue", self.position_in_queue);
  }
};
MGNIFY_JSON_FIELDS(GatherSignatureStatus, "gather signature status")

/// genomes-search/status/{job_id}/: the group and each signature's job.
struct GatherStatus {
  std::string group_id;
  JobStatus status;
  std::vector<GatherSignatureStatus> signatures;
  /// The group's results (a gzip tarball of every signature's CSV).
  std::optional<std::string> results_url;
  /// The task backend's health as the service reports it (shape not fixed).
  nlohmann::json worker_status;
  RawJson raw{};

  bool finished() const noexcept { return status.finished(); }

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("group_id", self.group_id);
    v.defaulted("status", self.status);
    v.defaulted("signatures", self.signatures);
    v.optional("results_url", self.results_url);
    v.defaulted("worker_status", self.worker_status);
  }
};
MGNIFY_JSON_FIELDS(GatherStatus, "gather status")

/// The handle a submission returns; job_id is what status and results take.
struct GatherJob {
  std::string job_id;
  std::string message;
  JobStatus status;
  /// Signature file -> child job id, once the service assigned them.
  nlohmann::json children_ids;
  nlohmann::json signatures_received;
  std::vector<std::string> requested_catalogues;
  std::optional<std::string> status_url;
  RawJson raw{};

  template <class Self, class Visitor>
  static void fields(Self& self, Visitor& v) {
    v.defaulted("message", self.message);
    v.required("job_id", self.job_id);
    v.defaulted("status", self.status);
    v.defaulted("children_ids", self.children_ids);
    v.defaulted("signatures_received", self.signatures_received);
    v.defaulted("requested_catalogues", self.requested_catalogues);
    v.optional("status_url", self.status_url);
  }
};
MGNIFY_JSON_FIELDS(GatherJob, "gather job")

/// One sourmash signature to upload: a file read at send time, or JSON text in memory.
struct SignatureFile {
  std::optional<std::filesystem::path> path;
  std::string filename;
  std::string content;

  static SignatureFile from_path(std::filesystem::path path) {
    SignatureFile out;
    out.filename = path.filename().string();
    out.path = std::move(path);
    return out;
  }
  static SignatureFile from_text(std::string filename, std::string json_text) {
    SignatureFile out;
    out.filename = std::move(filename);
    out.content = std::move(json_text);
    return out;
  }
};

/// A gather submission: signatures searched against each catalogue.
struct GatherRequest {
  /// Catalogue ids (e.g. "human-gut-v2-0-2"); the service requires at least one.
  std::vector<std::string> mag_catalogues;
  std::vector<SignatureFile> signatures;

  void validate() const {
    if (mag_catalogues.empty()) {
      throw InvalidArgument("a gather search needs at least one catalogue in mag_catalogues");
    }
    for (const auto& c : mag_catalogues) {
      if (c.empty()) throw InvalidArgument("mag_catalogues holds an empty catalogue id");
    }
    if (signatures.empty()) throw InvalidArgument("a gather search needs at least one signature");
    for (const auto& s : signatures) {
      if (s.filename.empty()) throw InvalidArgument("a signature needs a filename");
      http::check_form_name("signature filename", s.filename);
      if (s.path) {
        http::check_upload_file("signature file", *s.path);
      } else if (s.content.empty()) {
        throw InvalidArgument("signature '" + s.filename + "' has no content");
      }
    }
  }

  /// The multipart body: repeated `mag_catalogues`, one `file_uploaded` per signature.
  std::vector<http::FormPart> to_form() const {
    std::vector<http::FormPart> form;
    for (const auto& c : mag_catalogues) form.push_back(http::FormPart::text("mag_catalogues", c));
    for (const auto& s : signatures) {
      form.push_back(
          s.path ? http::FormPart::file_at("file_uploaded", *s.path, "application/json", s.filename)
                 : http::FormPart::file_content("file_uploaded", s.filename, s.content,
                                                "application/json"));
    }
    return form;
  }
};

/// A job wait whose CallOptions carry no deadline ends after this long.
inline constexpr std::chrono::minutes kDefaultJobWaitBudget{30};

namespace detail {

/// JobWaitOptions::deadline: a time budget, kept for one release so that code
/// setting it still compiles (with a deprecation warning) and is still obeyed.
class JobWaitBudget {
 public:
#define MGNIFY_JOB_WAIT_BUDGET_DEPRECATED \
  [[deprecated("set the wait's deadline in its CallOptions: CallOptions().timeout(budget)")]]
  JobWaitBudget() = default;
  // Implicit, so that `wait.deadline = std::chrono::minutes(10)` still compiles.
  MGNIFY_JOB_WAIT_BUDGET_DEPRECATED JobWaitBudget(std::chrono::milliseconds budget)  // NOLINT
      : budget_(budget) {}
  MGNIFY_JOB_WAIT_BUDGET_DEPRECATED JobWaitBudget& operator=(std::chrono::milliseconds budget) {
    budget_ = budget;
    return *this;
  }
#undef MGNIFY_JOB_WAIT_BUDGET_DEPRECATED
  const std::optional<std::chrono::milliseconds>& value() const noexcept { return budget_; }

 private:
  std::optional<std::chrono::milliseconds> budget_;
};

}  // namespace detail

/// How often to poll a job. How long to wait is the call's deadline, as for
/// every call (CallOptions::deadline; kDefaultJobWaitBudget when it has none).
struct JobWaitOptions {
  /// The first wait between polls; each later one grows by `multiplier` up to `max_interval`.
  std::chrono::milliseconds first_interval{1000};
  std::chrono::milliseconds max_interval{15'000};
  double multiplier = 1.5;
  /// Deprecated: a time budget of its own. Set the call's deadline instead
  /// (CallOptions().timeout(budget)); when both are set the earlier one ends the wait.
  detail::JobWaitBudget deadline;
  /// Called with every status polled, the final one included.
  std::function<void(const GatherStatus&)> on_status;

  void validate() const {
    if (first_interval.count() <= 0) throw InvalidArgument("first_interval must be positive");
    if (max_interval < first_interval) {
      throw InvalidArgument("max_interval must not be shorter than first_interval");
    }
    if (!(multiplier >= 1.0) || !std::isfinite(multiplier)) {
      throw InvalidArgument("multiplier must be a finite number >= 1");
    }
    if (deadline.value() && deadline.value()->count() <= 0) {
      throw InvalidArgument("deadline must be positive");
    }
  }
};

MGNIFY_NAMESPACE_END
