#pragma once

// Genome search, shared by the v1 and v2 clients (both services speak the same
// wire format for it):
// - COBS fragment search, synchronous: a CobsQuery in, typed hits out;
// - sourmash gather, a job: submit signatures (GatherRequest) -> GatherJob
//   handle -> poll GatherStatus until a final state (wait_for_job: backoff,
//   deadline, cancel) -> results as CSV rows (GatherResults) or a file.
// Every model lists its fields once; unknown members and unknown status texts
// survive decoding and encode back as received.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <locale>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mgnify/cancel.hpp"
#include "mgnify/detail/fields.hpp"
#include "mgnify/detail/json.hpp"
#include "mgnify/error.hpp"
#include "mgnify/http/clock.hpp"
#include "mgnify/http/form.hpp"
#include "mgnify/raw_json.hpp"
#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {

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

/// A job's status as the service spelled it. A text this SDK does not know is
/// kept (state() is JobState::unknown) rather than rejected.
struct JobStatus {
  std::string text;

  JobStatus() = default;
  explicit JobStatus(std::string t) : text(std::move(t)) {}

  JobState state() const noexcept {
    if (text == "QUEUED") return JobState::queued;
    if (text == "RUNNING") return JobState::running;
    if (text == "SUCCESS") return JobState::success;
    if (text == "NO_RESULTS") return JobState::no_results;
    if (text == "PARTIAL_SUCCESS") return JobState::partial_success;
    if (text == "FAILED") return JobState::failed;
    return JobState::unknown;
  }
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

/// How long and how often to poll a job.
struct JobWaitOptions {
  /// The first wait between polls; each later one grows by `multiplier` up to `max_interval`.
  std::chrono::milliseconds first_interval{1000};
  std::chrono::milliseconds max_interval{15'000};
  double multiplier = 1.5;
  /// Total time budget; past it the wait throws DeadlineExceededError.
  std::chrono::milliseconds deadline{std::chrono::minutes(30)};
  /// Ends the wait (a poll in flight or a pause between polls) with CancelledError.
  CancelToken cancel = CancelToken::never();
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
    if (deadline.count() <= 0) throw InvalidArgument("deadline must be positive");
  }
};

// ---- gather results (CSV) ------------------------------------------------------

namespace detail {

/// A CSV cell as a number, read in the C locale; nullopt when it is not one.
inline std::optional<double> csv_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double value = 0;
  in >> value;
  if (in.fail() || !in.eof() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace detail

/// One row of a gather result CSV (sourmash's gather columns). Every cell,
/// known column or not, is also in `cells`, in the file's column order; the
/// column names are held once for all rows (`column_names`) and `cell(name)`
/// finds a cell by its column's name.
struct GatherResultRow {
  std::string name;
  std::string md5;
  std::string filename;
  std::string query_name;
  std::string query_filename;
  std::string query_md5;
  std::optional<double> intersect_bp;
  std::optional<double> f_orig_query;
  std::optional<double> f_match;
  std::optional<double> f_unique_to_query;
  std::optional<double> f_unique_weighted;
  std::optional<double> average_abund;
  std::optional<double> median_abund;
  std::optional<double> std_abund;
  std::optional<double> unique_intersect_bp;
  std::optional<double> remaining_bp;
  std::optional<double> query_bp;
  std::optional<std::int64_t> gather_result_rank;
  /// The text of every cell, in the file's column order.
  std::vector<std::string> cells;
  /// The header row, shared by every row of one result rather than copied into each.
  std::shared_ptr<const std::vector<std::string>> column_names;

  /// The cell of `column`, or nullptr when the file has no such column.
  const std::string* cell(std::string_view column) const {
    if (!column_names) return nullptr;
    const auto& names = *column_names;
    for (std::size_t i = 0; i < names.size() && i < cells.size(); ++i) {
      if (names[i] == column) return &cells[i];
    }
    return nullptr;
  }

  /// Reads the typed fields from `cells` (CSV columns by name).
  void read_cells() {
    ColumnReader reader{*this};
    columns(*this, reader);
  }

  template <class Self, class Visitor>
  static void columns(Self& self, Visitor& v) {
    v.column("name", self.name);
    v.column("md5", self.md5);
    v.column("filename", self.filename);
    v.column("query_name", self.query_name);
    v.column("query_filename", self.query_filename);
    v.column("query_md5", self.query_md5);
    v.column("intersect_bp", self.intersect_bp);
    v.column("f_orig_query", self.f_orig_query);
    v.column("f_match", self.f_match);
    v.column("f_unique_to_query", self.f_unique_to_query);
    v.column("f_unique_weighted", self.f_unique_weighted);
    v.column("average_abund", self.average_abund);
    v.column("median_abund", self.median_abund);
    v.column("std_abund", self.std_abund);
    v.column("unique_intersect_bp", self.unique_intersect_bp);
    v.column("remaining_bp", self.remaining_bp);
    v.column("query_bp", self.query_bp);
    v.column("gather_result_rank", self.gather_result_rank);
  }

 private:
  // A cell that is not a number ("", "nan") leaves its field empty; the text stays in cells.
  struct ColumnReader {
    const GatherResultRow& row;
    void column(const char* name, std::string& out) const {
      if (const auto* v = row.cell(name)) out = *v;
    }
    void column(const char* name, std::optional<double>& out) const {
      if (const auto* v = row.cell(name)) out = detail::csv_number(*v);
    }
    void column(const char* name, std::optional<std::int64_t>& out) const {
      if (const auto* v = row.cell(name)) out = detail::integer_from_text<std::int64_t>(*v);
    }
  };
};

/// Bounds on a gather result CSV parsed into memory (gather_results). A cell
/// costs a string object whatever its length, so a CSV of empty cells or short
/// rows holds many times its size: these bound that. A real result has one row
/// per genome matched and sourmash's 30-odd columns, far below every limit; a
/// larger file can still be saved whole with download_gather_results.
struct GatherCsvLimits {
  /// The CSV's size, which also bounds any one cell.
  std::size_t max_bytes = std::size_t{64} * 1024 * 1024;
  /// Cells in the header row.
  std::size_t max_columns = 1024;
  /// Rows after the header.
  std::size_t max_rows = 100'000;
  /// Cells of all rows together (rows times columns).
  std::size_t max_cells = 2'000'000;
};

struct GatherResults {
  /// The header row, in order.
  std::vector<std::string> columns;
  std::vector<GatherResultRow> rows;
};

namespace detail {

/// RFC 4180 records, one at a time: quoted fields may hold commas, quotes ("")
/// and line breaks. Blank lines are skipped.
class CsvRecords {
 public:
  CsvRecords(std::string_view text, const std::string& url) : text_(text), url_(url) {}

  /// The next record into `record` (false at the end). A record of more than
  /// `max_fields` fields throws `too_many()` before the rest is read.
  template <class TooMany>
  bool next(std::vector<std::string>& record, std::size_t max_fields, TooMany&& too_many) {
    record.clear();
    std::string field;
    bool quoted = false;
    bool field_started = false;
    bool ended = false;
    auto end_field = [&] {
      if (record.size() == max_fields) throw too_many();
      record.push_back(std::move(field));
      field.clear();
      field_started = false;
    };
    while (at_ < text_.size() && !ended) {
      const char c = text_[at_++];
      if (quoted) {
        if (c != '"') {
          field.push_back(c);
        } else if (at_ < text_.size() && text_[at_] == '"') {
          field.push_back('"');
          ++at_;
        } else {
          quoted = false;
        }
      } else if (c == '"' && !field_started) {
        quoted = true;
        field_started = true;
      } else if (c == ',') {
        end_field();
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && at_ < text_.size() && text_[at_] == '\n') ++at_;
        end_field();
        if (record.size() == 1 && record[0].empty()) {
          record.clear();  // a blank line
        } else {
          ended = true;
        }
      } else {
        field.push_back(c);
        field_started = true;
      }
    }
    if (quoted) throw DecodeError("", url_, "CSV ends inside a quoted field");
    if (!ended && (field_started || !record.empty())) {
      end_field();
      ended = !(record.size() == 1 && record[0].empty());
    }
    return ended;
  }

 private:
  std::string_view text_;
  const std::string& url_;
  std::size_t at_ = 0;
};

/// Parses a gather result CSV (header row first) within `limits`; past one,
/// DecodeError names the limit.
inline GatherResults parse_gather_csv(std::string_view text, const std::string& url,
                                      const GatherCsvLimits& limits = {}) {
  auto too_large = [&url](const std::string& json_path, const std::string& what) {
    return DecodeError(json_path, url,
                       what +
                           ", past the gather_results limit: save the file with "
                           "download_gather_results");
  };
  if (text.size() > limits.max_bytes) {
    throw too_large("", "the CSV is " + std::to_string(text.size()) + " bytes, more than " +
                            std::to_string(limits.max_bytes) + " bytes");
  }
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  CsvRecords records(text, url);
  GatherResults out;
  std::vector<std::string> record;
  if (!records.next(record, limits.max_columns, [&] {
        return too_large("/columns", "the CSV header has more than " +
                                         std::to_string(limits.max_columns) + " columns");
      })) {
    return out;
  }
  out.columns = std::move(record);
  const auto names = std::make_shared<const std::vector<std::string>>(out.columns);
  const std::size_t width = out.columns.size();
  record.reserve(width);
  std::size_t cells = 0;
  for (std::size_t r = 0;; ++r) {
    const std::string at = "/rows/" + std::to_string(r);
    if (!records.next(record, width, [&] {
          return DecodeError(at, url,
                             "CSV row has more cells than the header's " + std::to_string(width));
        })) {
      break;
    }
    if (record.size() != width) {
      throw DecodeError(at, url,
                        "CSV row has " + std::to_string(record.size()) + " cells, the header " +
                            std::to_string(width));
    }
    if (r == limits.max_rows) {
      throw too_large(at, "the CSV has more than " + std::to_string(limits.max_rows) + " rows");
    }
    cells += width;
    if (cells > limits.max_cells) {
      throw too_large(at, "the CSV has more than " + std::to_string(limits.max_cells) + " cells");
    }
    GatherResultRow row;
    row.cells = std::move(record);
    row.column_names = names;
    row.read_cells();
    out.rows.push_back(std::move(row));
    record.reserve(width);
  }
  return out;
}

/// Polls `poll()` until the status it returns is final, waiting
/// first_interval, then growing by multiplier up to max_interval, never past
/// the deadline. Waits run on `clock` (a testing::FakeClock makes them instant).
template <class Poll>
GatherStatus wait_for_job(http::Clock& clock, const std::string& job_id,
                          const JobWaitOptions& options, Poll&& poll) {
  options.validate();
  const auto started = clock.now();
  const auto end = started + options.deadline;
  auto interval = std::chrono::duration<double, std::milli>(options.first_interval);
  const auto cap = std::chrono::duration<double, std::milli>(options.max_interval);
  for (int polls = 1;; ++polls) {
    options.cancel.throw_if_cancelled("waiting for job " + job_id);
    GatherStatus status = poll();
    if (options.on_status) options.on_status(status);
    if (status.finished()) return status;
    const auto now = clock.now();
    if (now >= end) {
      throw DeadlineExceededError(
          job_id, status.status.text, polls,
          std::chrono::duration_cast<std::chrono::milliseconds>(now - started));
    }
    const auto pause = std::min(std::chrono::duration_cast<std::chrono::nanoseconds>(interval),
                                std::chrono::duration_cast<std::chrono::nanoseconds>(end - now));
    if (clock.sleep_or_cancel(pause, options.cancel)) {
      throw CancelledError("waiting for job " + job_id);
    }
    interval = std::min(interval * options.multiplier, cap);
  }
}

/// The object under a {"data": ...} envelope (the whole document when there is none).
template <class T>
T decode_data(const std::string& body, const std::string& url) {
  const nlohmann::json doc = parse_body(body, url);
  if (doc.is_object()) {
    const auto it = doc.find("data");
    if (it != doc.end()) {
      try {
        return decode<T>(*it, url);
      } catch (const DecodeError& e) {
        throw DecodeError("/data" + e.json_path(), url, e.detail());
      }
    }
  }
  return decode<T>(doc, url);
}

}  // namespace detail
}  // namespace v0
}  // namespace mgnify
