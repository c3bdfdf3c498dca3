#include <httplib.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "files.hpp"
#include "mock_server.hpp"

// GET /files/<name> serves a deterministic file with Content-Length, an ETag and
// Last-Modified. Range requests are answered by httplib itself (206 with
// Content-Range, 416 past the end). Query parameters script misbehaviour:
//   cut=N          a transfer whose first byte lies before N stops after byte N-1
//                  and the connection closes (Content-Length promised more), so a
//                  client resuming from N gets the rest: "cut once" without state.
//   ignore_range=1 the whole file with 200, chunked, whatever Range asked for,
//                  like a server or proxy without range support.
// Whole-request faults (5xx, 429, dropped connections) come from MockServer::push_fault.

namespace mgnify::mock {

namespace {

// xorshift64*: the same bytes on every platform and every run.
class Generator {
 public:
  explicit Generator(std::uint64_t seed) : state_(seed ? seed : 0x9E3779B97F4A7C15ULL) {}
  std::uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }

 private:
  std::uint64_t state_;
};

std::string binary_file(std::size_t size, std::uint64_t seed) {
  Generator g(seed);
  std::string out(size, '\0');
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<char>(g.next() >> 56);
  return out;
}

std::string tsv_file(std::size_t size, std::uint64_t seed) {
  Generator g(seed);
  std::string out = "#SampleID\tGO\tterm\tcount\n";
  for (int row = 0; out.size() < size; ++row) {
    out += "ERR" + std::to_string(1000000 + row) + "\tGO:" + std::to_string(g.next() % 10000000) +
           "\tbiological_process\t" + std::to_string(g.next() % 5000) + "\n";
  }
  out.resize(size);
  return out;
}

std::string fasta_file(std::size_t size, std::uint64_t seed) {
  static constexpr char kBases[] = "ACGT";
  Generator g(seed);
  std::string out;
  out.reserve(size + 128);
  for (int contig = 1; out.size() < size; ++contig) {
    out += ">ERZ857107.contig_" + std::to_string(contig) + "\n";
    for (int line = 0; line < 40 && out.size() < size; ++line) {
      for (int i = 0; i < 60; ++i) out.push_back(kBases[g.next() >> 62]);
      out.push_back('\n');
    }
  }
  out.resize(size);
  return out;
}

const std::map<std::string, std::string>& catalogue() {
  static const std::map<std::string, std::string> files = [] {
    std::map<std::string, std::string> m;
    m["empty.txt"] = std::string();
    m["small.tsv"] = tsv_file(1000, 11);
    m["medium.bin"] = binary_file(200 * 1000, 23);
    m["large.fasta"] = fasta_file(std::size_t{3} * 1024 * 1024 + 123, 37);
    return m;
  }();
  return files;
}

std::string content_type_for(const std::string& name) {
  auto ends_with = [&](const std::string& suffix) {
    return name.size() >= suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".tsv")) return "text/tab-separated-values";
  if (ends_with(".fasta")) return "text/x-fasta";
  if (ends_with(".txt")) return "text/plain";
  return "application/octet-stream";
}

std::string etag_for(const std::string& name, const std::string& body) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (char c : name + body) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string tag = "\"";
  for (int shift = 60; shift >= 0; shift -= 4) tag.push_back(kDigits[(h >> shift) & 0xf]);
  return tag + "\"";
}

constexpr std::size_t kChunk = 64 * 1024;

}  // namespace

std::vector<std::string> mock_file_names() {
  std::vector<std::string> names;
  for (const auto& entry : catalogue()) names.push_back(entry.first);
  return names;
}

const std::string& mock_file(const std::string& name) { return catalogue().at(name); }

void register_file_routes(MockServer& server) {
  server.server().Get(
      R"(/files/([A-Za-z0-9._-]+))", [](const httplib::Request& req, httplib::Response& res) {
        const auto& files = catalogue();
        const auto it = files.find(req.matches[1]);
        if (it == files.end()) {
          res.status = 404;
          res.set_content("{\"detail\": \"Not found.\"}", "application/json");
          return;
        }
        const std::string* body = &it->second;
        const std::string type = content_type_for(it->first);
        res.set_header("ETag", etag_for(it->first, *body));
        res.set_header("Last-Modified", "Tue, 03 Jun 2025 10:00:00 GMT");
        res.set_header("Accept-Ranges", "bytes");

        if (req.get_param_value("ignore_range") == "1") {
          res.status = 200;
          res.set_chunked_content_provider(
              type, [body](std::size_t offset, httplib::DataSink& sink) {
                if (offset >= body->size()) {
                  sink.done();
                  return true;
                }
                return sink.write(body->data() + offset, std::min(kChunk, body->size() - offset));
              });
          return;
        }

        if (body->empty()) {
          res.set_content(std::string(), type);
          return;
        }
        std::size_t cut = body->size();
        const std::size_t first =
            req.ranges.size() == 1 && req.ranges[0].first > 0 ? static_cast<std::size_t>(req.ranges[0].first) : 0;
        if (req.has_param("cut")) {
          const auto at = static_cast<std::size_t>(std::stoull(req.get_param_value("cut")));
          if (first < at) cut = at;  // a request that starts at or after the cut is served whole
        }
        // httplib applies the Range itself and calls the provider with offsets
        // into the whole file, so the cut lands on an absolute byte position.
        res.set_content_provider(
            body->size(), type,
            [body, cut](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
              if (offset >= cut) return false;  // close the connection mid-body
              const std::size_t n = std::min({length, kChunk, cut - offset});
              return sink.write(body->data() + offset, n);
            });
      });
}

}  // namespace mgnify::mock
