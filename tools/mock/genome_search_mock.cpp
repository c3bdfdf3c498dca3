#include "genome_search_mock.hpp"

#include <httplib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/bytes.hpp"

namespace mgnify::mock {

namespace {

using nlohmann::json;
using Req = httplib::Request;
using Res = httplib::Response;

void send_data(Res& res, const json& data) {
  res.status = 200;
  res.set_content(json{{"data", data}}.dump(), "application/json");
}

void send_detail(Res& res, int status, const json& detail) {
  res.status = status;
  res.set_content(json{{"detail", detail}}.dump(), "application/json");
}

Fault detail_fault(int status, const char* detail) {
  return Fault::status_only(status, json{{"detail", detail}}.dump());
}

// Form fields arrive as multipart text parts or as urlencoded parameters.
std::vector<std::string> form_values(const Req& req, const std::string& name) {
  std::vector<std::string> out;
  const auto range = req.files.equal_range(name);
  for (auto it = range.first; it != range.second; ++it) {
    if (it->second.filename.empty()) out.push_back(it->second.content);
  }
  const auto params = req.params.equal_range(name);
  for (auto it = params.first; it != params.second; ++it) out.push_back(it->second);
  return out;
}

std::optional<std::string> form_value(const Req& req, const std::string& name) {
  auto values = form_values(req, name);
  if (values.empty()) return std::nullopt;
  return values.back();
}

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// ---- POSIX ustar (the group result is a tarball of the children's CSVs) -------

void put_octal(std::string& block, std::size_t offset, std::size_t width, std::uint64_t value) {
  std::string digits(width - 1, '0');
  for (std::size_t i = width - 1; i-- > 0 && value != 0; value >>= 3) {
    digits[i] = static_cast<char>('0' + (value & 7u));
  }
  block.replace(offset, width - 1, digits);
  block[offset + width - 1] = '\0';
}

std::string ustar(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out;
  for (const auto& [name, data] : members) {
    std::string header(512, '\0');
    header.replace(0, std::min<std::size_t>(name.size(), 100), name, 0, 100);
    put_octal(header, 100, 8, 0644);
    put_octal(header, 108, 8, 0);
    put_octal(header, 116, 8, 0);
    put_octal(header, 124, 12, data.size());
    put_octal(header, 136, 12, 0);  // mtime: fixed, so results are reproducible
    header[156] = '0';              // a regular file
    header.replace(257, 6, std::string("ustar\0", 6));
    header.replace(263, 2, "00");
    // The checksum is computed with its own field read as eight spaces.
    header.replace(148, 8, std::string(8, ' '));
    std::uint32_t sum = 0;
    for (unsigned char c : header) sum += c;
    put_octal(header, 148, 7, sum);
    header[155] = ' ';
    out += header;
    out += data;
    out.append((512 - data.size() % 512) % 512, '\0');
  }
  out.append(1024, '\0');
  return out;
}

// ---- COBS --------------------------------------------------------------------

struct CobsInput {
  std::string sequence;
  int kmer_size = 31;
  int max_results = 10;
  double threshold = 0.8;
  std::vector<std::string> catalogues;
};

json cobs_answer(const CobsInput& in, const std::vector<SearchableGenome>& genomes) {
  const std::size_t k = static_cast<std::size_t>(in.kmer_size);
  const std::int64_t num_kmers =
      in.sequence.size() >= k ? static_cast<std::int64_t>(in.sequence.size() - k + 1) : 0;
  struct Hit {
    const SearchableGenome* genome;
    std::int64_t found;
    double percent;
  };
  std::vector<Hit> hits;
  for (const auto& g : genomes) {
    if (!in.catalogues.empty() && std::find(in.catalogues.begin(), in.catalogues.end(),
                                            g.catalogue_id) == in.catalogues.end()) {
      continue;
    }
    if (num_kmers == 0) continue;
    const auto found = static_cast<std::int64_t>(fnv1a(in.sequence + "|" + g.accession) %
                                                 static_cast<std::uint64_t>(num_kmers + 1));
    const double percent =
        std::round(10000.0 * static_cast<double>(found) / static_cast<double>(num_kmers)) / 100.0;
    if (percent >= in.threshold * 100.0) hits.push_back({&g, found, percent});
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    if (a.percent != b.percent) return a.percent > b.percent;
    return a.genome->accession < b.genome->accession;
  });
  if (hits.size() > static_cast<std::size_t>(in.max_results)) {
    hits.resize(static_cast<std::size_t>(in.max_results));
  }
  json results = json::array();
  for (const auto& h : hits) {
    results.push_back({{"mgnify", h.genome->record},
                       {"cobs",
                        {{"genome", h.genome->accession},
                         {"percent_kmers_found", h.percent},
                         {"num_kmers", num_kmers},
                         {"num_kmers_found", h.found}}}});
  }
  return {{"query", in.sequence}, {"threshold", in.threshold}, {"results", results}};
}

// Reads the query from a JSON body (v2) or form fields; nullopt after answering an error.
std::optional<CobsInput> cobs_input(const Req& req, Res& res, bool accepts_json) {
  CobsInput in;
  const bool is_json = req.get_header_value("Content-Type").find("application/json") == 0;
  if (is_json && accepts_json) {
    json body = json::parse(req.body, nullptr, false);
    if (!body.is_object() || !body.contains("sequence") || !body["sequence"].is_string()) {
      send_detail(res, 422,
                  json::array({{{"type", "missing"},
                                {"loc", {"body", "payload", "sequence"}},
                                {"msg", "Field required"}}}));
      return std::nullopt;
    }
    in.sequence = body["sequence"].get<std::string>();
    if (body.contains("kmer_size")) in.kmer_size = body["kmer_size"].get<int>();
    if (body.contains("max_results")) in.max_results = body["max_results"].get<int>();
    if (body.contains("threshold")) in.threshold = body["threshold"].get<double>();
    if (body.contains("catalogues_filter")) {
      in.catalogues = body["catalogues_filter"].get<std::vector<std::string>>();
    }
  } else {
    auto seq = form_value(req, "sequence");
    if (!seq) seq = form_value(req, "seq");
    if (!seq && accepts_json && req.has_file("sequence_file")) {
      // A FASTA upload: the header lines name the record, the rest is the sequence.
      seq = std::string();
      std::istringstream lines(req.get_file_value("sequence_file").content);
      for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line.front() != '>') *seq += line;
      }
    }
    in.sequence = seq.value_or("");
    try {
      if (auto v = form_value(req, "kmer_size")) in.kmer_size = std::stoi(*v);
      if (auto v = form_value(req, "max_results")) in.max_results = std::stoi(*v);
      if (auto v = form_value(req, "threshold")) in.threshold = std::stod(*v);
    } catch (const std::exception&) {
      send_detail(res, 400, kCobsRejectedDetail);
      return std::nullopt;
    }
    in.catalogues = form_values(req, "catalogues_filter");
  }
  // The backend refuses what it cannot search; the proxy relays that as a 400.
  if (in.sequence.empty() || in.kmer_size < 1 || in.max_results < 1 || in.threshold < 0 ||
      in.threshold > 1) {
    send_detail(res, 400, kCobsRejectedDetail);
    return std::nullopt;
  }
  return in;
}

// ---- sourmash gather jobs -------------------------------------------------------

enum class Fate { success, never_finishes, fails, no_match, unknown_status };

struct Child {
  std::string job_id;
  std::string filename;
  std::string catalogue;
  Fate fate = Fate::success;
  int rows = kGatherRows;  // result rows when it succeeds (kSignatureRowsPrefix)
};

struct Job {
  std::string job_id;
  std::vector<Child> children;
  int polls = 0;
};

struct JobStore {
  std::mutex mutex;
  int next = 1;
  std::map<std::string, Job> jobs;
  std::map<std::string, std::pair<std::string, std::size_t>>
      child_of;  // child id -> (group, index)
};

// The status a child shows after `polls` status polls of its group.
std::string child_status(const Child& child, int polls) {
  if (polls <= 1) return "QUEUED";
  if (polls == 2) return "RUNNING";
  switch (child.fate) {
    case Fate::success:
      return "SUCCESS";
    case Fate::never_finishes:
      return "RUNNING";
    case Fate::fails:
      return "FAILED";
    case Fate::no_match:
      return "NO_RESULTS";
    case Fate::unknown_status:
      return kUnknownJobStatus;
  }
  return "FAILED";
}

std::string group_status(const Job& job) {
  int success = 0, failed = 0, no_results = 0, queued = 0, running = 0;
  std::string other;
  for (const auto& c : job.children) {
    const std::string s = child_status(c, job.polls);
    if (s == "SUCCESS")
      ++success;
    else if (s == "FAILED")
      ++failed;
    else if (s == "NO_RESULTS")
      ++no_results;
    else if (s == "QUEUED")
      ++queued;
    else if (s == "RUNNING")
      ++running;
    else
      other = s;
  }
  if (running > 0) return "RUNNING";
  if (queued > 0) return "QUEUED";
  if (!other.empty()) return other;
  if (failed > 0) return success > 0 ? "PARTIAL_SUCCESS" : "FAILED";
  if (success > 0) return "SUCCESS";
  return no_results > 0 ? "NO_RESULTS" : "FAILED";
}

std::vector<SearchableGenome> catalogue_genomes(const std::vector<SearchableGenome>& all,
                                                const std::string& catalogue) {
  std::vector<SearchableGenome> out;
  for (const auto& g : all) {
    if (g.catalogue_id == catalogue) out.push_back(g);
    if (out.size() == static_cast<std::size_t>(kGatherRows)) break;
  }
  return out;
}

std::string csv_quote(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"')
      out += "\"\"";
    else
      out.push_back(c);
  }
  return out + "\"";
}

// sourmash gather's columns, plus one the SDK does not know (mgnify_catalogue).
std::string child_csv(const Child& child, const std::vector<SearchableGenome>& genomes) {
  std::string csv =
      "intersect_bp,f_orig_query,f_match,f_unique_to_query,f_unique_weighted,average_abund,"
      "median_abund,std_abund,filename,name,md5,f_match_orig,unique_intersect_bp,"
      "gather_result_rank,remaining_bp,query_filename,query_name,query_md5,query_bp,"
      "mgnify_catalogue\n";
  const auto top = catalogue_genomes(genomes, child.catalogue);
  if (top.empty()) return csv;
  // Past kGatherRows the rows repeat the catalogue's genomes.
  const int count =
      child.rows > kGatherRows ? child.rows : std::min(child.rows, static_cast<int>(top.size()));
  for (int rank = 0; rank < count; ++rank) {
    const auto& g = top[static_cast<std::size_t>(rank) % top.size()];
    const long long r = rank;  // 100000 * rank passes INT_MAX for a large mock-rows-N
    const double f = 0.9 - 0.2 * rank;
    const std::string bp = std::to_string(1000000 - 100000 * r);
    const std::string fs = std::to_string(f);
    csv += bp + "," + fs + "," + fs + "," + fs + "," + fs + ",,,," + child.catalogue + ".sbt.zip," +
           csv_quote(g.accession + " " + g.catalogue_id + ", mock species") + "," +
           std::to_string(fnv1a(g.accession)) + "," + fs + "," + bp + "," + std::to_string(rank) +
           "," + std::to_string(2000000 - 100000 * r) + "," + csv_quote(child.filename) + "," +
           csv_quote(child.filename) + "," + std::to_string(fnv1a(child.filename)) + ",3000000," +
           child.catalogue + "\n";
  }
  return csv;
}

json child_json(const Child& child, int polls, const std::string& results_base,
                const std::vector<SearchableGenome>& genomes, std::size_t index) {
  const std::string status = child_status(child, polls);
  json out = {{"job_id", child.job_id},
              {"status", status},
              {"filename", child.filename},
              {"catalogue", child.catalogue}};
  if (status == "QUEUED") out["position_in_queue"] = static_cast<int>(index) + 1;
  if (status == "FAILED") out["reason"] = "sourmash gather exited with status 1";
  if (status == "SUCCESS") {
    const auto top = catalogue_genomes(genomes, child.catalogue);
    out["results_url"] = results_base + child.job_id;
    out["result"] = {{"overlap", "1.0 Mbp"},
                     {"p_query", "33.3%"},
                     {"p_match", "90.0%"},
                     {"match", top.empty() ? "" : top.front().accession},
                     {"catalog", child.catalogue},
                     {"query_filename", child.filename},
                     {"md5_name", std::to_string(fnv1a(child.filename))},
                     {"matches", top.size()},
                     {"status", "SUCCESS"}};
  }
  return out;
}

// The signature's sourmash "name": a file is a list of signature records (or one record).
std::optional<std::string> signature_name(const std::string& content) {
  json doc = json::parse(content, nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  if (doc.is_array() && !doc.empty()) doc = doc.front();
  if (!doc.is_object() || !doc.contains("signatures")) return std::nullopt;
  return doc.value("name", std::string());
}

// kSignatureRowsPrefix + N: N result rows per catalogue; any other name kGatherRows.
int rows_of(const std::string& name) {
  const std::string prefix = kSignatureRowsPrefix;
  if (name.rfind(prefix, 0) != 0) return kGatherRows;
  const std::string digits = name.substr(prefix.size());
  if (digits.empty() || digits.size() > 7 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return kGatherRows;
  }
  return std::stoi(digits);
}

Fate fate_of(const std::string& name) {
  if (name == kSignatureNeverFinishes) return Fate::never_finishes;
  if (name == kSignatureFails) return Fate::fails;
  if (name == kSignatureNoMatch) return Fate::no_match;
  if (name == kSignatureUnknownStatus) return Fate::unknown_status;
  return Fate::success;
}

std::string origin_of(const Req& req) {
  return "http://" + (req.has_header("Host") ? req.get_header_value("Host") : "127.0.0.1");
}

}  // namespace

std::string sourmash_signature(const std::string& name) {
  return json::array({{{"class", "sourmash_signature"},
                       {"email", ""},
                       {"hash_function", "0.murmur64"},
                       {"filename", name + ".fa"},
                       {"name", name},
                       {"license", "CC0"},
                       {"signatures", json::array({{{"num", 0},
                                                    {"ksize", 31},
                                                    {"seed", 42},
                                                    {"max_hash", 18446744073709552},
                                                    {"mins", {11, 22, 33}},
                                                    {"md5sum", "0123456789abcdef"},
                                                    {"molecule", "DNA"}}})},
                       {"version", 0.4}}})
      .dump();
}

Fault cobs_backend_down() { return detail_fault(502, kCobsBackendDownDetail); }
Fault cobs_unavailable() { return detail_fault(503, kCobsUnavailableDetail); }
Fault sourmash_unavailable() { return detail_fault(503, kSourmashDownDetail); }

void register_genome_search_routes(MockServer& server, GenomeSearchRoutes routes) {
  auto config = std::make_shared<const GenomeSearchRoutes>(std::move(routes));
  auto store = std::make_shared<JobStore>();
  const std::string& p = config->prefix;
  const std::string& slash = config->slash;

  server.server().Post(p + "/genome-search" + slash, [config](const Req& req, Res& res) {
    const auto in = cobs_input(req, res, config->accepts_json);
    if (!in) return;
    send_data(res, cobs_answer(*in, config->genomes(req)));
  });

  server.server().Post(p + "/genomes-search/gather" + slash, [config, store](const Req& req,
                                                                             Res& res) {
    const auto catalogues = form_values(req, "mag_catalogues");
    if (catalogues.empty()) return send_detail(res, 400, kMissingCataloguesDetail);
    struct Upload {
      std::string filename;
      Fate fate;
      int rows;
    };
    std::vector<Upload> uploads;
    const auto files = req.files.equal_range("file_uploaded");
    for (auto it = files.first; it != files.second; ++it) {
      const auto name = signature_name(it->second.content);
      if (!name) return send_detail(res, 400, kBadUploadDetail);
      uploads.push_back({it->second.filename, fate_of(*name), rows_of(*name)});
    }
    if (uploads.empty()) return send_detail(res, 400, kBadUploadDetail);

    const auto genomes = config->genomes(req);
    std::lock_guard<std::mutex> lock(store->mutex);
    Job job;
    job.job_id = "mock-gather-" + std::to_string(store->next++);
    json received = json::array();
    for (const auto& upload : uploads) {
      received.push_back(upload.filename);
      for (const auto& catalogue : catalogues) {
        Child child;
        child.job_id = job.job_id + "-" + std::to_string(job.children.size() + 1);
        child.filename = upload.filename;
        child.catalogue = catalogue;
        // A catalogue without genomes has nothing to match.
        child.fate = catalogue_genomes(genomes, catalogue).empty() ? Fate::no_match : upload.fate;
        child.rows = upload.rows;
        store->child_of[child.job_id] = {job.job_id, job.children.size()};
        job.children.push_back(std::move(child));
      }
    }
    const std::string status_url =
        origin_of(req) + config->prefix + "/genomes-search/status/" + job.job_id + config->slash;
    send_data(res, {{"message", "Your search has been submitted."},
                    {"job_id", job.job_id},
                    {"status", "QUEUED"},
                    {"children_ids", json::object()},
                    {"signatures_received", received},
                    {"requested_catalogues", catalogues},
                    {"status_url", status_url}});
    store->jobs.emplace(job.job_id, std::move(job));
  });

  server.server().Get(p + "/genomes-search/status/([^/]+)" + slash, [config, store](const Req& req,
                                                                                    Res& res) {
    std::lock_guard<std::mutex> lock(store->mutex);
    auto it = store->jobs.find(req.matches[1]);
    if (it == store->jobs.end()) return send_detail(res, 404, "Not Found");
    Job& job = it->second;
    ++job.polls;
    const std::string results_base = origin_of(req) + config->prefix + "/genomes-search/results/";
    const auto genomes = config->genomes(req);
    json signatures = json::array();
    for (std::size_t i = 0; i < job.children.size(); ++i) {
      signatures.push_back(child_json(job.children[i], job.polls, results_base, genomes, i));
    }
    const std::string status = group_status(job);
    json data = {{"group_id", job.job_id},
                 {"status", status},
                 {"signatures", signatures},
                 {"worker_status", {{"available", true}, {"workers", 1}}}};
    if (status == "SUCCESS" || status == "PARTIAL_SUCCESS") {
      data["results_url"] = results_base + job.job_id + config->slash;
    }
    send_data(res, data);
  });

  server.server().Get(
      p + "/genomes-search/results/([^/]+)" + slash, [config, store](const Req& req, Res& res) {
        std::lock_guard<std::mutex> lock(store->mutex);
        const std::string id = req.matches[1];
        const auto genomes = config->genomes(req);
        if (auto child = store->child_of.find(id); child != store->child_of.end()) {
          const Job& job = store->jobs.at(child->second.first);
          const Child& c = job.children[child->second.second];
          // Results exist once the job succeeded; before that the id is unknown to the file store.
          if (child_status(c, job.polls) != "SUCCESS") return send_detail(res, 404, "Not Found");
          res.set_content(child_csv(c, genomes), "text/csv");
          return;
        }
        auto it = store->jobs.find(id);
        if (it == store->jobs.end()) return send_detail(res, 404, "Not Found");
        const std::string status = group_status(it->second);
        if (status != "SUCCESS" && status != "PARTIAL_SUCCESS") {
          return send_detail(res, 404, "Not Found");
        }
        std::vector<std::pair<std::string, std::string>> members;
        for (const auto& c : it->second.children) {
          if (child_status(c, it->second.polls) == "SUCCESS") {
            members.emplace_back(c.job_id + ".csv", child_csv(c, genomes));
          }
        }
        res.set_header("Content-Disposition", "attachment; filename=\"" + id + ".tar.gz\"");
        res.set_content(gzip_stored(ustar(members)), "application/gzip");
      });
}

}  // namespace mgnify::mock
