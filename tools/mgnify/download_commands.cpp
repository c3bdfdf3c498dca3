// `mgnify downloads` (list a study's or analysis's files as a manifest) and
// `mgnify download` (fetch them: resumable, verified, several at a time).

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mgnify/files/checksum.hpp>
#include <mgnify/files/download.hpp>
#include <mgnify/files/manifest.hpp>
#include <mgnify/files/shard.hpp>
#include <mgnify/http/session.hpp>
#include <mgnify/v1/client.hpp>
#include <mgnify/v2/client.hpp>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "accession_forms.hpp"
#include "commands.hpp"
#include "file_download.hpp"
#include "file_listing.hpp"
#include "help_format.hpp"
#include "list_option.hpp"
#include "mgnify/default_transport.hpp"
#include "nonempty_option.hpp"
#include "number_option.hpp"
#include "replace_file.hpp"

namespace mgnify_cli {

namespace fs = std::filesystem;
namespace http = mgnify::http;
namespace files = mgnify::files;

namespace {

bool is_cancelled(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const mgnify::CancelledError&) {
    return true;
  } catch (...) {
    return false;
  }
}

/// The file's SHA-256 as it now is on disk, whatever the service published
/// (an MD5, a size, nothing): the one digest a later check can always use.
std::string local_sha256(const files::DownloadResult& result) {
  if (result.verified_checksum &&
      result.verified_checksum->algorithm == files::HashAlgorithm::sha256) {
    return result.verified_checksum->hex;
  }
  return files::hash_file(files::HashAlgorithm::sha256, result.path);
}

/// "md5", "sha1", "sha256": a digest's name as the `checked` columns spell it.
std::string checked_name(files::HashAlgorithm algorithm) {
  std::string name = files::hash_algorithm_name(algorithm);
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

/// What vouched for a file the download kept or fetched: the listing's
/// checksum and size when it gave them, else only the transfer's own length.
std::string checked_by(const files::DownloadResult& d) {
  std::string how;
  if (d.verified_checksum) how = checked_name(d.verified_checksum->algorithm);
  if (d.size_verified) how += how.empty() ? "size" : "+size";
  return how.empty() ? "content-length" : how;
}

struct SelectionArgs {
  std::string api = "v2";
  Selection selection;
};

void add_selection(CLI::App& cmd, SelectionArgs& args, bool accession_required) {
  auto* accession =
      cmd.add_option("accession", args.selection.accession,
                     "MGYS study (or its ERP/SRP/DRP/PRJ accession), MGYA analysis or MGYG "
                     "genome; any case, zero padding optional (mgys1)");
  if (accession_required) accession->required();
  cmd.add_option("--api", args.api, "which API to ask")
      ->check(CLI::IsMember({"v1", "v2"}))
      ->capture_default_str();
  add_nonempty_option(cmd, "-p,--pipeline", args.selection.pipeline,
                      "only this pipeline version (4.1, 5.0, V6, 6.1, ...)");
  add_list_option(
      cmd, "-g,--group", args.selection.groups,
      "only these result groups (repeatable or comma-separated): v1 group types such as "
      "taxonomic_analysis_ssu_rrna, v2 download groups such as taxonomies.closed_reference "
      "(prefix) or download types such as functional_analysis");
  help_formatter(cmd).completes_with(&cmd, "--group", known_groups());
  cmd.add_flag("--study-summaries", args.selection.study_summaries,
               "for a study: its own summary files instead of its analyses' files");
  add_number_option(cmd, "--concurrency", args.selection.concurrency, std::size_t{1},
                    std::size_t{64}, "requests in flight")
      ->default_str(std::to_string(args.selection.concurrency));
}

Selection selection_of(const SelectionArgs& args) {
  Selection s = args.selection;
  s.api = args.api == "v1" ? Api::v1 : Api::v2;
  s.accession = canonical_or_as_typed(s.accession);
  return s;
}

void write_manifest(const std::vector<FileRow>& rows, const std::string& path) {
  std::ostringstream text;
  files::write_manifest(text, rows);
  replace_file(path, text.str(), "manifest");
}

void settings_columns_or_default(Settings& settings, const std::vector<std::string>& columns) {
  if (settings.columns.empty()) settings.columns = columns;
}

/// A Slurm array variable as a whole number, or a usage error naming it.
std::optional<long long> slurm_number(const char* name) {
  const char* text = std::getenv(name);
  if (!text || !*text) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text, &end, 10);
  if (errno || *end || value < 0) {
    throw UsageError(std::string("--shard slurm: ") + name + " is not a whole number: '" + text +
                     "'");
  }
  return value;
}

/// This task's shard of a Slurm job array. With `told` (from `--shard
/// slurm:N`) N is that and the task ID is the shard number, 1..N, so one
/// failed task can be resubmitted alone (`--array=3`). Without it N comes from
/// the array only when the array is the whole of the shards, `--array=1-N` or
/// `--array=0-(N-1)`: any other array (a resubmitted part, a list, a step) says
/// nothing about N, and a guess would silently reshard the manifest.
files::ShardSpec slurm_shard(std::optional<std::size_t> told) {
  const auto id = slurm_number("SLURM_ARRAY_TASK_ID");
  if (!id) {
    throw UsageError(
        "--shard slurm: SLURM_ARRAY_TASK_ID is not set; run it as a task of sbatch --array, or "
        "give --shard I/N");
  }
  if (told) {
    if (*id < 1 || *id > static_cast<long long>(*told)) {
      throw UsageError("--shard slurm:" + std::to_string(*told) + ": task " + std::to_string(*id) +
                       " is not a shard number 1.." + std::to_string(*told) +
                       " (submit --array with IDs in 1-" + std::to_string(*told) + ")");
    }
    return files::ShardSpec{static_cast<std::size_t>(*id - 1), *told};
  }
  const auto min = slurm_number("SLURM_ARRAY_TASK_MIN");
  const auto max = slurm_number("SLURM_ARRAY_TASK_MAX");
  const auto count = slurm_number("SLURM_ARRAY_TASK_COUNT");
  const long long step = slurm_number("SLURM_ARRAY_TASK_STEP").value_or(1);
  if (!min || !max || !count) {
    throw UsageError(
        "--shard slurm: the array's size is unknown (SLURM_ARRAY_TASK_MIN, _MAX and _COUNT are "
        "not all set); give --shard slurm:N");
  }
  const bool whole = step == 1 && (*min == 0 || *min == 1) && *count >= 1 &&
                     *max - *min + 1 == *count &&
                     *count <= static_cast<long long>(files::kMaxShards);
  if (!whole) {
    throw UsageError("--shard slurm: the array (IDs " + std::to_string(*min) + "-" +
                     std::to_string(*max) + ", " + std::to_string(*count) +
                     " tasks) is not --array=1-N or 0-(N-1), so it does not tell the number of "
                     "shards; give --shard slurm:N (task IDs 1..N)");
  }
  if (*id < *min || *id > *max) {
    throw UsageError("--shard slurm: task " + std::to_string(*id) + " is outside the array " +
                     std::to_string(*min) + "-" + std::to_string(*max));
  }
  return files::ShardSpec{static_cast<std::size_t>(*id - *min), static_cast<std::size_t>(*count)};
}

struct ShardChoice {
  files::ShardSpec spec;
  /// N came from the Slurm array's size, not from the command line.
  bool derived = false;
};

ShardChoice shard_spec(const std::string& text) {
  if (text == "slurm") return {slurm_shard(std::nullopt), true};
  if (text.rfind("slurm:", 0) == 0) {
    const std::string n = text.substr(6);
    const bool digits = !n.empty() && n.size() <= 6 && std::all_of(n.begin(), n.end(), [](char c) {
      return c >= '0' && c <= '9';
    });
    const long long value = digits ? std::stoll(n) : 0;
    if (value < 1 || value > static_cast<long long>(files::kMaxShards)) {
      throw UsageError("--shard: '" + text +
                       "' is not slurm:N with 1 <= N <= " + std::to_string(files::kMaxShards));
    }
    return {slurm_shard(static_cast<std::size_t>(value)), false};
  }
  try {
    return {files::parse_shard(text), false};
  } catch (const mgnify::InvalidArgument& e) {
    throw UsageError(std::string("--shard: ") + e.what() + " (or 'slurm', 'slurm:N')");
  }
}

/// "shard-2-of-4": the CLI's 1-based numbering.
std::string shard_name(const files::ShardSpec& spec) {
  return "shard-" + std::to_string(spec.index + 1) + "-of-" + std::to_string(spec.count);
}

const std::vector<std::string>& result_columns() {
  static const std::vector<std::string> columns = {
      "accession", "alias", "path", "status", "bytes", "checksum", "sha256", "error", "checked"};
  return columns;
}

/// One record of the download report as a line of the result manifest.
std::string results_line(const nlohmann::json& r) {
  const auto& columns = result_columns();
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    const auto& cell = r.at(columns[i]);
    const std::string text = cell.is_null()     ? std::string()
                             : cell.is_string() ? cell.get<std::string>()
                                                : cell.dump();
    line += (i ? "\t" : "") + mgnify::tables::tsv_escape(text);
  }
  return line + '\n';
}

/// The download report as a TSV file: the result manifest a shard leaves for
/// `mgnify verify --results`.
void write_results(const std::vector<nlohmann::json>& report, const fs::path& path) {
  std::string text;
  const auto& columns = result_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) text += (i ? "\t" : "") + columns[i];
  text += '\n';
  for (const auto& r : report) text += results_line(r);
  replace_file(path, text, "results");
}

/// The result manifest kept while a shard runs, so that a shard killed
/// outright (SIGKILL, a node lost) still vouches for the files it finished:
/// it starts as the header and the rows already decided, and each finished
/// file's row is appended in one write(2), which a kill leaves whole or
/// absent. At the end write_results replaces it with the whole report.
class ResultsLog {
 public:
  ResultsLog(const fs::path& path, const std::vector<nlohmann::json>& decided) : path_(path) {
    write_results(decided, path);
    // Not through a link planted at `path` since write_results renamed it there.
    fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
    if (fd_ < 0) fail(errno);
  }
  ResultsLog(const ResultsLog&) = delete;
  ResultsLog& operator=(const ResultsLog&) = delete;
  ~ResultsLog() { close(); }

  void append(const nlohmann::json& row) {
    const std::string line = results_line(row);
    std::size_t written = 0;
    while (written < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail(n < 0 ? errno : EIO);
      written += static_cast<std::size_t>(n);
    }
  }

  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  [[noreturn]] void fail(int reason) const {
    throw mgnify::FileError(path_.string(), std::error_code(reason, std::generic_category()),
                            "cannot write results");
  }

  fs::path path_;
  int fd_ = -1;
};

/// The folder of DIR/.mgnify-results where the runs of one manifest (or of
/// one selection, for a download by accession) keep their result logs and
/// shard locks: the manifest's name and a hash of its absolute path, so that
/// two manifests downloading into one DIR never share a log or a lock.
fs::path results_folder(const fs::path& dir, const std::string& name, const std::string& identity) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx",
                static_cast<unsigned long long>(files::fnv1a_64(identity)));
  std::string readable;
  for (const char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '.' || c == '_' || c == '-';
    readable += plain ? c : '_';
  }
  if (readable.size() > 64) readable.resize(64);
  return dir / ".mgnify-results" / (readable + "-" + std::string(hash, 8));
}

fs::path manifest_results_folder(const fs::path& dir, const std::string& manifest) {
  std::error_code error;
  fs::path absolute = fs::weakly_canonical(fs::absolute(manifest, error), error);
  if (absolute.empty()) absolute = fs::absolute(manifest);
  return results_folder(dir, fs::path(manifest).stem().string(), absolute.string());
}

fs::path selection_results_folder(const fs::path& dir, const Selection& s) {
  std::string identity = std::string(s.api == Api::v1 ? "v1" : "v2") + '\n' + s.accession + '\n' +
                         s.pipeline + '\n' + (s.study_summaries ? "summaries" : "analyses");
  std::vector<std::string> groups = s.groups;
  std::sort(groups.begin(), groups.end());
  for (const auto& g : groups) identity += '\n' + g;
  return results_folder(dir, s.accession, identity);
}

/// One row of a result manifest that puts a file on disk.
struct Recorded {
  std::string results;  // the result manifest's path
  std::string group;    // result manifests of one sharding share a group
  std::size_t order;    // newer result manifests have higher orders
  bool fetched;         // downloaded or resumed, not kept as present
  std::string sha256;
};

/// What result manifests say about each `accession/alias`.
struct RecordedResults {
  std::map<std::string, std::vector<Recorded>> rows;
};

/// Result logs of one sharding of one manifest (`shard-I-of-N.tsv` in one
/// folder) form a group: each row may be fetched by one of them only; a run
/// without --shard (`all.tsv` of a folder in DIR/.mgnify-results) is a group
/// of its own. Any other file (a `--results FILE`) is in the one group of such
/// files.
std::string results_group(const fs::path& path) {
  const std::string name = path.filename().string();
  const auto of = name.rfind("-of-");
  if (name.rfind("shard-", 0) == 0 && of != std::string::npos) {
    return path.parent_path().string() + "/" + name.substr(of);
  }
  if (name == "all.tsv" && path.parent_path().parent_path().filename() == ".mgnify-results") {
    return path.parent_path().string() + "/all";
  }
  return {};
}

RecordedResults read_results(std::vector<std::string> paths) {
  // Oldest first, so that a later record of a file outranks an earlier one.
  std::vector<std::pair<fs::file_time_type, std::string>> dated;
  for (auto& path : paths) {
    std::error_code error;
    dated.emplace_back(fs::last_write_time(path, error), std::move(path));
  }
  std::stable_sort(dated.begin(), dated.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  RecordedResults out;
  std::size_t order = 0;
  for (const auto& entry : dated) {
    const std::string& path = entry.second;
    std::ifstream in(path, std::ios::binary);
    if (!in)
      throw mgnify::FileError(path, std::make_error_code(std::errc::io_error),
                              "cannot read results");
    ++order;
    std::string line;
    if (!std::getline(in, line)) continue;
    const auto header = files::detail::manifest_cells(line);
    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < header.size(); ++i) column[header[i]] = i;
    for (const char* required : {"accession", "alias", "status", "sha256"}) {
      if (!column.count(required))
        throw UsageError("--results " + path + " has no '" + required + "' column");
    }
    const std::string group = results_group(path);
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      const auto cells = files::detail::manifest_cells(line);
      auto cell = [&](const char* name) {
        const auto i = column.at(name);
        return i < cells.size() ? cells[i] : std::string();
      };
      const std::string status = cell("status");
      if (status != "downloaded" && status != "resumed" && status != "present") continue;
      out.rows[cell("accession") + "/" + cell("alias")].push_back(
          Recorded{path, group, order, status != "present", cell("sha256")});
    }
  }
  return out;
}

/// Every result log under DIR/.mgnify-results (each manifest's folder, and
/// the top level), in name order.
std::vector<std::string> default_results(const fs::path& dir) {
  std::vector<std::string> paths;
  std::error_code error;
  const fs::path folder = dir / ".mgnify-results";
  if (!fs::is_directory(folder, error)) return paths;
  for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end;
       it.increment(error)) {
    if (it.depth() > 1) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().extension() == ".tsv" && it->is_regular_file(error)) {
      paths.push_back(it->path().string());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

/// The newest record of `key` that carries a SHA-256, or nullptr.
const Recorded* newest_digest(const RecordedResults& recorded, const std::string& key) {
  const auto it = recorded.rows.find(key);
  if (it == recorded.rows.end()) return nullptr;
  const Recorded* best = nullptr;
  for (const auto& r : it->second) {
    if (!r.sha256.empty() && (!best || r.order >= best->order)) best = &r;
  }
  return best;
}

/// The SHA-256 of a finished file that the service gives no checksum or size
/// for, when a result log recorded that digest for it and the file on disk
/// still has it; empty otherwise (the file is fetched again).
std::string recorded_copy(const FileRow& row, const fs::path& path,
                          const RecordedResults& recorded) {
  const auto it = recorded.rows.find(files::shard_key(row));
  std::error_code error;
  if (it == recorded.rows.end() || !fs::is_regular_file(path, error)) return {};
  const std::string local = files::hash_file(files::HashAlgorithm::sha256, path);
  for (const auto& entry : it->second) {
    if (!entry.sha256.empty() && entry.sha256 == local) return local;
  }
  return {};
}

/// How a row of verify ended: what was checked, or what is wrong.
struct Verdict {
  std::string problem;  // empty when the file is there and passed every check made
  std::string checked;  // "md5", "size+recorded sha256", ...; empty: nothing could be checked
};

/// One manifest row checked on disk.
Verdict verify_row(const FileRow& row, const fs::path& path, const RecordedResults& results) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) {
    const auto part = files::partial_path(path);
    if (fs::is_regular_file(part, error)) {
      return {"incomplete: only " + std::to_string(fs::file_size(part, error)) + " bytes in .part",
              {}};
    }
    return {"missing", {}};
  }
  std::vector<std::string> checked;
  const std::uint64_t size = fs::file_size(path, error);
  if (row.size_bytes) {
    if (size != *row.size_bytes) {
      return {"wrong size: " + std::to_string(size) + " bytes, manifest says " +
                  std::to_string(*row.size_bytes),
              {}};
    }
    checked.emplace_back("size");
  }
  std::string sha256;
  const auto checksum = files::Checksum::from_record(row.checksum_algorithm, row.checksum);
  if (checksum) {
    const std::string local = files::hash_file(checksum->algorithm, path);
    if (!checksum->matches(local)) {
      return {std::string("wrong checksum: ") + files::hash_algorithm_name(checksum->algorithm) +
                  " " + local + ", manifest says " + checksum->hex,
              {}};
    }
    if (checksum->algorithm == files::HashAlgorithm::sha256) sha256 = local;
    checked.insert(checked.begin(), checked_name(checksum->algorithm));
  }
  const std::string key = files::shard_key(row);
  const auto it = results.rows.find(key);
  if (it != results.rows.end()) {
    // A file fetched twice within one sharding means two processes ran the
    // same rows; across shardings (N changed) a file is only kept, not fetched.
    std::map<std::string, const Recorded*> fetcher;
    for (const auto& r : it->second) {
      if (!r.fetched) continue;
      auto [at, fresh] = fetcher.emplace(r.group, &r);
      if (!fresh && at->second->results != r.results) {
        return {"fetched by more than one shard: " + at->second->results + " and " + r.results, {}};
      }
    }
  }
  if (const Recorded* recorded = newest_digest(results, key)) {
    if (sha256.empty()) sha256 = files::hash_file(files::HashAlgorithm::sha256, path);
    if (!files::Checksum::of(files::HashAlgorithm::sha256, sha256).matches(recorded->sha256)) {
      return {"changed since download: sha256 " + sha256 + ", " + recorded->results + " says " +
                  recorded->sha256,
              {}};
    }
    checked.emplace_back("recorded sha256");
  }
  std::string how;
  for (const auto& c : checked) how += (how.empty() ? "" : "+") + c;
  return {{}, how};
}

/// An exclusive flock(2) on one shard of one manifest, held while the shard
/// runs: a second process given the same shard (a duplicate job, an orphan of
/// a killed workflow) stops before its first request instead of fetching the
/// same files. The kernel releases it when the holder exits, however it ends.
class ShardLock {
 public:
  ShardLock(const fs::path& path, const std::string& what) {
    std::error_code error;
    fs::create_directories(path.parent_path(), error);
    if (error) throw mgnify::FileError(path.parent_path().string(), error, "cannot create");
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd_ < 0) {
      throw mgnify::FileError(path.string(), std::error_code(errno, std::generic_category()),
                              "cannot open lock");
    }
    int rc = 0;
    do {
      rc = ::flock(fd_, LOCK_EX | LOCK_NB);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
      const int reason = errno;
      ::close(fd_);
      fd_ = -1;
      if (reason == EWOULDBLOCK) {
        throw mgnify::Error("another process is downloading " + what + " (" + path.string() +
                            " is locked); wait for it to end or stop it, then rerun");
      }
      throw mgnify::FileError(path.string(), std::error_code(reason, std::generic_category()),
                              "cannot lock");
    }
  }
  ShardLock(const ShardLock&) = delete;
  ShardLock& operator=(const ShardLock&) = delete;
  ~ShardLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  int fd_ = -1;
};

/// The N of the result logs earlier shards of this manifest left in
/// `folder`, other than `count`; 0 when there are none.
std::size_t other_recorded_count(const fs::path& folder, std::size_t count) {
  std::error_code error;
  if (!fs::is_directory(folder, error)) return 0;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    const auto of = name.rfind("-of-");
    if (name.rfind("shard-", 0) != 0 || of == std::string::npos ||
        entry.path().extension() != ".tsv")
      continue;
    const std::string n = entry.path().stem().string().substr(of + 4);
    if (n.empty() || n.size() > 6 ||
        !std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; }))
      continue;
    const auto value = static_cast<std::size_t>(std::stoul(n));
    if (value != count) return value;
  }
  return 0;
}

}  // namespace

void add_download_commands(CLI::App& app, Context& ctx) {
  // downloads: the listing.
  auto list_args = std::make_shared<SelectionArgs>();
  auto manifest_out = std::make_shared<std::string>();
  auto* downloads = app.add_subcommand(
      "downloads",
      "List the files of a study, analysis or genome (like mg-toolkit bulk_download -p -g)");
  add_selection(*downloads, *list_args, true);
  help_formatter(*downloads).not_applicable(downloads, {"--page-size"});
  add_nonempty_option(*downloads, "--manifest", *manifest_out,
                      "also write the list as a manifest TSV to this file");
  downloads->callback([&ctx, list_args, manifest_out] {
    ctx.action = [&ctx, list_args, manifest_out] {
      no_page_size(ctx.settings, "downloads");
      std::exception_ptr failure;
      Available available;
      const Selection selection = selection_of(*list_args);
      check_groups_first(selection, ctx.settings);
      const auto rows = list_files(selection, ctx.settings, failure, &available);
      const std::string no_match = no_match_message(selection, rows, available);
      // A failed listing writes no manifest: a part of the list would pass for all of it.
      if (!manifest_out->empty() && !failure && no_match.empty()) {
        write_manifest(rows, *manifest_out);
      }
      Settings settings = ctx.settings;
      settings_columns_or_default(settings, manifest_columns());
      // This TSV is the manifest `download --manifest` reads back, cell for cell.
      settings.formula_guard = false;
      Writer out = stdout_writer(settings);
      out.escape_cells();
      out.begin_list();
      for (const auto& row : rows) out.write(to_json(row));
      out.finish();
      const int code = failure ? exit_code_for(failure) : kOk;
      if (!no_match.empty()) {
        print_error(no_match);
        return code == kOk ? kNotFound : code;
      }
      return code;
    };
  });

  // download: the transfer.
  auto get_args = std::make_shared<SelectionArgs>();
  auto manifest_in = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>(".");
  auto no_resume = std::make_shared<bool>(false);
  auto* download =
      app.add_subcommand("download",
                         "Download the selected files (or a manifest's) to "
                         "DIR/<accession>/<alias>: resumed from .part "
                         "files, verified against checksums and sizes, several at a time");
  add_selection(*download, *get_args, false);
  help_formatter(*download).not_applicable(download, {"--page-size"});
  auto* manifest_option =
      add_nonempty_option(*download, "--manifest", *manifest_in,
                          "read the files from this manifest (from `mgnify downloads`)");
  add_nonempty_option(*download, "--dir", *dir, "destination directory")->default_str(".");
  download->add_flag("--no-resume", *no_resume, "discard .part files of earlier runs");
  auto shard = std::make_shared<std::string>();
  auto results_out = std::make_shared<std::string>();
  auto total_rate = std::make_shared<std::optional<double>>();
  add_nonempty_option(*download, "--shard", *shard,
                      "with --manifest: download only shard I of N (1-based, I/N); 'slurm' for "
                      "this task's shard of a Slurm job array --array=1-N, 'slurm:N' for task "
                      "ID I of N shards (to resubmit some tasks)")
      ->type_name("I/N|slurm|slurm:N");
  add_number_option(*download, "--total-rate", *total_rate, 0.001, 10000.0,
                    "with --shard: requests per second that all N shards share; each takes "
                    "1/N of it")
      ->default_str("10");
  add_nonempty_option(*download, "--results", *results_out,
                      "also write the report as a TSV result manifest (status, bytes, sha256, "
                      "checked) to this file; every run keeps one in DIR/.mgnify-results/ too")
      ->type_name("FILE");
  download->callback([&ctx, get_args, manifest_in, dir, no_resume, manifest_option, shard,
                      results_out, total_rate] {
    ctx.action = [&ctx, get_args, manifest_in, dir, no_resume, manifest_option, shard, results_out,
                  total_rate] {
      no_page_size(ctx.settings, "download");
      const bool from_manifest = manifest_option->count() > 0;
      if (from_manifest == !get_args->selection.accession.empty()) {
        throw UsageError("download: give an accession or --manifest FILE, not both or neither");
      }
      const Selection selection = selection_of(*get_args);
      if (selection.concurrency == 0) throw UsageError("--concurrency must be at least 1");
      Settings net = ctx.settings;
      std::optional<files::ShardSpec> spec;
      if (!shard->empty()) {
        if (!from_manifest) throw UsageError("--shard applies to --manifest only");
        const ShardChoice choice = shard_spec(*shard);
        spec = choice.spec;
        if (choice.derived) {
          const std::size_t earlier = other_recorded_count(
              manifest_results_folder(fs::path(*dir), *manifest_in), spec->count);
          if (earlier) {
            throw UsageError(
                "--shard slurm: the array makes " + std::to_string(spec->count) +
                " shards, but earlier runs split " + *manifest_in + " into " +
                std::to_string(earlier) +
                " (DIR/.mgnify-results); give --shard slurm:" + std::to_string(earlier) +
                " to resubmit some of its tasks, or --shard "
                "slurm:" +
                std::to_string(spec->count) + " to reshard");
          }
        }
        if (net.rate_limit && total_rate->has_value()) {
          throw UsageError(
              "give --total-rate (shared by the shards) or --rate-limit (per "
              "process), not both");
        }
        if (!net.rate_limit) {
          // The service's budget is the cluster's, not each process's: N shards
          // at 1/N each. A burst of one keeps N processes starting together
          // from sending N bursts at once.
          net.rate_limit = total_rate->value_or(http::RateLimitOptions{}.requests_per_second) /
                           static_cast<double>(spec->count);
          if (!net.rate_burst) net.rate_burst = 1.0;
        }
      } else if (*total_rate) {
        throw UsageError("--total-rate applies with --shard only (else use --rate-limit)");
      }

      std::exception_ptr failure;
      std::vector<FileRow> rows;
      std::string no_match;
      if (from_manifest) {
        errno = 0;
        std::ifstream in(*manifest_in, std::ios::binary);
        if (!in) {
          // A local file error (exit 1), like a manifest that cannot be written.
          const int reason = errno;
          throw mgnify::FileError(*manifest_in,
                                  reason ? std::error_code(reason, std::generic_category())
                                         : std::make_error_code(std::errc::io_error),
                                  "cannot read manifest");
        }
        rows = read_manifest(in, *manifest_in);
        if (ctx.settings.max_items && rows.size() > *ctx.settings.max_items)
          rows.resize(*ctx.settings.max_items);
        if (spec) rows = files::select_shard(rows, *spec);
      } else {
        Available available;
        try {
          check_groups_first(selection, net);
          rows = list_files(selection, net, failure, &available);
          no_match = no_match_message(selection, rows, available);
        } catch (const NothingMatched& e) {
          no_match = e.what();  // a mistyped -g, caught before the whole listing
        }
        if (!no_match.empty() && rows.empty()) {
          // Nothing to fetch: no results file is started, and the report is empty.
          Settings settings = ctx.settings;
          settings_columns_or_default(settings, result_columns());
          Writer out = stdout_writer(settings);
          out.begin_list();
          out.finish();
          print_error(no_match);
          return failure ? exit_code_for(failure) : kNotFound;
        }
      }
      // Every run keeps its result log in DIR (a rerun reads it back), and
      // holds its shard's lock while it runs.
      const fs::path log_folder = from_manifest
                                      ? manifest_results_folder(fs::path(*dir), *manifest_in)
                                      : selection_results_folder(fs::path(*dir), selection);
      const std::string run_name = spec ? shard_name(*spec) : std::string("all");
      // A run with nothing to fetch (a filter that matched nothing, an empty
      // shard) leaves DIR as it was.
      std::optional<ShardLock> shard_lock;
      if (!rows.empty()) {
        shard_lock.emplace(
            log_folder / (run_name + ".lock"),
            spec ? "shard " + std::to_string(spec->index + 1) + "/" + std::to_string(spec->count) +
                       " of " + *manifest_in
                 : (from_manifest ? *manifest_in : selection.accession) + " into " + *dir);
      }
      const std::string results_path = (log_folder / (run_name + ".tsv")).string();

      LegacyRouting routing;
      routing.from_v1.assign(rows.size(), false);
      if (selection.api == Api::v2) {
        routing = route_legacy_files(rows, net, selection.concurrency);
      }

      auto session = download_session(net, selection.api);
      auto v1_session = download_session(legacy_v1_settings(net), Api::v1);

      // What earlier runs recorded: the only way to know that a file without
      // a checksum or size in the manifest was finished (docs/cluster.md, Resuming).
      std::vector<std::string> recorded_paths = default_results(fs::path(*dir));
      std::error_code exists_error;
      if (!results_out->empty() && fs::is_regular_file(*results_out, exists_error) &&
          std::find(recorded_paths.begin(), recorded_paths.end(), *results_out) ==
              recorded_paths.end()) {
        recorded_paths.push_back(*results_out);
      }
      const RecordedResults recorded = read_results(recorded_paths);

      // One output record per row; `index` maps jobs back to rows. Jobs for
      // files routed to API v1 go in a batch of their own, on v1's session.
      std::vector<nlohmann::json> report(rows.size());
      std::vector<files::DownloadJob> jobs;
      std::vector<std::size_t> index;
      std::vector<files::DownloadJob> v1_jobs;
      std::vector<std::size_t> v1_index;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const FileRow& row = rows[i];
        report[i] = {{"accession", row.accession}, {"alias", row.alias}, {"path", nullptr},
                     {"status", "failed"},         {"bytes", nullptr},   {"checksum", nullptr},
                     {"sha256", nullptr},          {"error", nullptr},   {"checked", nullptr}};
        if (row.url.empty()) {
          // Said once for all such files, below.
          report[i]["status"] = "skipped";
          report[i]["error"] = "no API publishes a URL for this file";
          continue;
        }
        if (!safe_component(row.accession) || !safe_component(row.alias)) {
          report[i]["error"] = "unsafe file name";
          print_error(row.accession + "/" + row.alias +
                      ": unsafe file name (it would leave DIR or carries control characters); "
                      "not downloaded");
          if (!failure)
            failure = std::make_exception_ptr(mgnify::Error("unsafe file name " + row.alias));
          continue;
        }
        files::DownloadJob job = download_job(row, fs::path(*dir), !*no_resume);
        report[i]["path"] = job.path.string();
        if (!job.options.checksum && !job.options.expected_size) {
          const std::string sha256 = recorded_copy(row, job.path, recorded);
          if (!sha256.empty()) {
            std::error_code size_error;
            report[i]["status"] = "present";
            report[i]["bytes"] = fs::file_size(job.path, size_error);
            report[i]["sha256"] = sha256;
            report[i]["checked"] = "recorded sha256";
            continue;
          }
        }
        if (routing.from_v1[i]) {
          v1_jobs.push_back(std::move(job));
          v1_index.push_back(i);
        } else {
          jobs.push_back(std::move(job));
          index.push_back(i);
        }
      }

      // The rows decided so far (files kept by a recorded digest, failures)
      // are on disk before the first transfer starts.
      std::optional<ResultsLog> log;
      if (!rows.empty()) {
        std::vector<nlohmann::json> decided;
        for (const auto& r : report) {
          if (r.at("status") != "failed" || !r.at("error").is_null()) decided.push_back(r);
        }
        log.emplace(results_path, decided);
      }

      // Ctrl-C (or a scheduler's SIGTERM) stops the transfers, keeping their
      // .part files, and the report below says what is done and what is left.
      InterruptibleDownloads transfers(selection.concurrency);
      std::mutex log_mutex;
      auto run_batch = [&transfers, &report, &log, &log_mutex](
                           http::Session& batch_session,
                           const std::vector<files::DownloadJob>& batch,
                           const std::vector<std::size_t>& rows_of) {
        // On the downloading threads, each on its own row of the report.
        return transfers.run(
            batch_session, batch, [&](std::size_t job, const files::DownloadResult& d) {
              nlohmann::json& r = report[rows_of[job]];
              r["status"] = d.already_present ? "present" : d.resumed ? "resumed" : "downloaded";
              r["bytes"] = d.bytes;
              if (d.verified_checksum) r["checksum"] = d.verified_checksum->to_string();
              r["checked"] = checked_by(d);
              r["sha256"] = local_sha256(d);
              const std::lock_guard<std::mutex> lock(log_mutex);
              if (log) log->append(r);
            });
      };
      auto results = run_batch(*session, jobs, index);
      if (!v1_jobs.empty()) {
        print_error("note: " + std::to_string(v1_jobs.size()) +
                    (v1_jobs.size() == 1 ? " file" : " files") +
                    " without a URL on API v2 (pre-V6 results) fetched from API v1");
        auto v1_results = run_batch(*v1_session, v1_jobs, v1_index);
        for (auto& r : v1_results) results.push_back(std::move(r));
        for (auto& j : v1_jobs) jobs.push_back(std::move(j));
        index.insert(index.end(), v1_index.begin(), v1_index.end());
      }

      const bool interrupted = transfers.interrupted();
      for (std::size_t j = 0; j < results.size(); ++j) {
        nlohmann::json& r = report[index[j]];
        if (!results[j]) {
          r["error"] = results[j].error().what();
          if (interrupted && is_cancelled(results[j].exception())) {
            // One summary line below instead of a line per file.
            r["status"] = "interrupted";
            continue;
          }
          print_error(jobs[j].url + ": " + results[j].error().what());
          if (!failure) failure = results[j].exception();
          continue;
        }
        // Its row was filled in when it finished (run_batch).
      }

      // Before the report on stdout, so that a reader of stdout that stops
      // early cannot keep the file from being written.
      if (log) {
        log->close();
        write_results(report, results_path);
      }
      if (!results_out->empty()) write_results(report, *results_out);
      Settings settings = ctx.settings;
      settings_columns_or_default(settings, result_columns());
      Writer out = stdout_writer(settings);
      out.begin_list();
      for (const auto& r : report) out.write(r);
      out.finish();
      if (interrupted) {
        std::cout.flush();
        return transfers.report_interrupted();
      }
      int code = failure ? exit_code_for(failure) : kOk;
      // Files that were promised and not fetched never end in success.
      const std::string unrouted = unrouted_message(rows, routing, selection, from_manifest, *dir);
      if (!unrouted.empty()) {
        print_error(unrouted);
        if (code == kOk)
          code = routing.lookup_error ? exit_code_for(routing.lookup_error) : kNotFound;
      }
      if (!no_match.empty()) {
        print_error(no_match);
        if (code == kOk) code = kNotFound;
      }
      return code;
    };
  });
  // verify: the gather step after sharded downloads.
  auto verify_manifest = std::make_shared<std::string>();
  auto verify_dir = std::make_shared<std::string>(".");
  auto verify_results = std::make_shared<std::vector<std::string>>();
  auto* verify = app.add_subcommand(
      "verify",
      "Check that every file of a manifest is in DIR/<accession>/<alias> once and intact "
      "(checksum, size, and the sha256 of result logs), saying what each was checked by; exit 1 "
      "listing what is missing, wrong or could not be checked");
  help_formatter(*verify).not_applicable(verify, {"--page-size"});
  help_formatter(*verify).not_applicable(verify, {"--max"},
                                         ": it checks every row of the manifest");
  add_nonempty_option(*verify, "--manifest", *verify_manifest, "the manifest that was downloaded")
      ->required();
  add_nonempty_option(*verify, "--dir", *verify_dir, "download directory")->default_str(".");
  verify
      ->add_option("--results", *verify_results,
                   "result manifests of `download --results` (repeatable; default: the result "
                   "logs every download keeps in DIR/.mgnify-results/)")
      ->type_name("FILE");
  verify->callback([&ctx, verify_manifest, verify_dir, verify_results] {
    ctx.action = [&ctx, verify_manifest, verify_dir, verify_results] {
      no_page_size(ctx.settings, "verify");
      std::ifstream in(*verify_manifest, std::ios::binary);
      if (!in)
        throw mgnify::FileError(*verify_manifest, std::make_error_code(std::errc::io_error),
                                "cannot read manifest");
      const auto rows = read_manifest(in, *verify_manifest);
      const fs::path dir(*verify_dir);
      const auto results =
          read_results(verify_results->empty() ? default_results(dir) : *verify_results);
      std::map<std::string, std::size_t> listed;
      for (const auto& row : rows) ++listed[files::shard_key(row)];
      std::set<std::string> reported;
      Settings settings = ctx.settings;
      settings_columns_or_default(settings, {"accession", "alias", "path", "status", "detail"});
      Writer out = stdout_writer(settings);
      out.begin_list();
      std::size_t good = 0;
      std::size_t by_checksum = 0;
      std::size_t by_size = 0;
      std::size_t by_record = 0;
      std::size_t unchecked = 0;
      std::size_t bad = 0;
      for (const auto& row : rows) {
        const std::string key = files::shard_key(row);
        if (!reported.insert(key).second) continue;  // a repeated row is one problem, below
        nlohmann::json record = {{"accession", row.accession},
                                 {"alias", row.alias},
                                 {"path", nullptr},
                                 {"status", "ok"},
                                 {"detail", nullptr}};
        Verdict verdict;
        if (!safe_component(row.accession) || !safe_component(row.alias)) {
          verdict.problem = "unsafe file name";
        } else {
          const fs::path path = dir / row.accession / row.alias;
          record["path"] = path.string();
          if (listed[key] > 1) {
            verdict.problem = "listed " + std::to_string(listed[key]) + " times in the manifest";
          } else if (row.url.empty()) {
            verdict.problem = "missing: no API publishes a URL for this file";
          } else {
            verdict = verify_row(row, path, results);
          }
        }
        if (!verdict.problem.empty()) {
          ++bad;
          record["status"] = "bad";
          record["detail"] = verdict.problem;
          print_error(key + ": " + verdict.problem);
        } else if (verdict.checked.empty()) {
          ++unchecked;
          record["status"] = "unchecked";
          record["detail"] =
              "present, but nothing to check it by: no checksum or size in the "
              "manifest, no sha256 in a result log";
          print_error(key + ": unchecked: no checksum, size or recorded sha256");
        } else {
          ++good;
          record["detail"] = verdict.checked;
          // The strongest check names the kind: a checksum, else the size.
          if (verdict.checked.rfind("size", 0) == 0) {
            ++by_size;
          } else if (verdict.checked.rfind("recorded", 0) == 0) {
            ++by_record;
          } else {
            ++by_checksum;
          }
        }
        out.write(record);
      }
      out.finish();
      std::cout.flush();
      std::string summary = "verify: " + std::to_string(good) + " of " +
                            std::to_string(reported.size()) + " files verified (" +
                            std::to_string(by_checksum) + " by checksum, " +
                            std::to_string(by_size) + " by size, " + std::to_string(by_record) +
                            " by a result log's sha256 only)";
      if (unchecked) {
        summary += ", " + std::to_string(unchecked) +
                   " present but unchecked (no checksum, size or recorded sha256)";
      }
      if (bad) summary += ", " + std::to_string(bad) + " missing or wrong";
      print_error(summary);
      return bad || unchecked ? kOther : kOk;
    };
  });
}

}  // namespace mgnify_cli
