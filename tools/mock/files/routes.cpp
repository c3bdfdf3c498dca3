#include <httplib.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/bytes.hpp"
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
// serve_file() is the same answer for any bytes: the v1 and v2 mocks serve the
// files their download listings name through it.

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
    // One draw per statement: within one expression their order is unspecified, and it
    // must not depend on the compiler (the tests know the files by their checksums, which
    // are of the files drawn in this order).
    const std::uint64_t count = g.next() % 5000;
    const std::uint64_t go_term = g.next() % 10000000;
    out += "ERR" + std::to_string(1000000 + row) + "\tGO:" + std::to_string(go_term) +
           "\tbiological_process\t" + std::to_string(count) + "\n";
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

bool ends_with(const std::string& name, std::string_view suffix) {
  return name.size() >= suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string content_type_for(const std::string& name) {
  if (ends_with(name, ".gz")) return "application/gzip";
  if (ends_with(name, ".zip")) return "application/zip";
  if (ends_with(name, ".tsv")) return "text/tab-separated-values";
  if (ends_with(name, ".csv")) return "text/csv";
  if (ends_with(name, ".fasta") || ends_with(name, ".fna") || ends_with(name, ".faa") ||
      ends_with(name, ".fa")) {
    return "text/x-fasta";
  }
  if (ends_with(name, ".html")) return "text/html";
  if (ends_with(name, ".json")) return "application/json";
  if (ends_with(name, ".txt") || ends_with(name, ".gff")) return "text/plain";
  return "application/octet-stream";
}

std::string etag_for(const std::string& name, const std::string& body) {
  const std::uint64_t h = seed_of(name + body);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string tag = "\"";
  for (int shift = 60; shift >= 0; shift -= 4) tag.push_back(kDigits[(h >> shift) & 0xf]);
  return tag + "\"";
}

constexpr std::size_t kChunk = 64 * 1024;

// ---- generated content ------------------------------------------------------

std::string protein_fasta(std::size_t size, std::uint64_t seed) {
  static constexpr char kResidues[] = "ACDEFGHIKLMNPQRSTVWY";
  Generator g(seed);
  std::string out;
  out.reserve(size + 128);
  for (int n = 1; out.size() < size; ++n) {
    out += ">MGYP" + std::to_string(100000000 + g.next() % 900000000) + " protein_" +
           std::to_string(n) + "\nM";
    const std::size_t length = 60 + g.next() % 400;
    for (std::size_t i = 1; i < length && out.size() < size; ++i) {
      out.push_back(kResidues[g.next() % 20]);
      if (i % 60 == 59) out.push_back('\n');
    }
    out.push_back('\n');
  }
  out.resize(size);
  return out;
}

std::string gff_file(std::size_t size, std::uint64_t seed) {
  Generator g(seed);
  std::string out = "##gff-version 3\n";
  for (int n = 1; out.size() < size; ++n) {
    // One draw per statement, as in tsv_file.
    const std::uint64_t start = 1 + g.next() % 2000000;
    const char* strand = g.next() % 2 ? "+" : "-";
    const std::uint64_t end = start + 90 + g.next() % 3000;
    const std::uint64_t contig = 1 + g.next() % 300;
    out += "contig_" + std::to_string(contig) + "\tProdigal:002006\tCDS\t" + std::to_string(start) +
           "\t" + std::to_string(end) + "\t.\t" + strand + "\t0\tID=gene_" + std::to_string(n) +
           "\n";
  }
  out.resize(size);
  return out;
}

// Prefix + filler + suffix, the filler sized so that the total is `size`
// (a size below the fixed parts cuts the suffix: a truncated but honest file).
std::string framed(const std::string& prefix, const std::string& suffix, std::size_t size,
                   std::uint64_t seed, const char* unit) {
  Generator g(seed);
  std::string out = prefix;
  while (out.size() + suffix.size() < size) {
    out += unit;
    out += std::to_string(g.next() % 1000000);
  }
  out.resize(size > suffix.size() ? size - suffix.size() : 0);
  out += suffix;
  out.resize(size);
  return out;
}

std::string plain_file(const std::string& name, std::size_t size, std::uint64_t seed) {
  if (ends_with(name, ".tsv") || ends_with(name, ".csv")) return tsv_file(size, seed);
  if (ends_with(name, ".fasta") || ends_with(name, ".fna") || ends_with(name, ".fa")) {
    return fasta_file(size, seed);
  }
  if (ends_with(name, ".faa")) return protein_fasta(size, seed);
  if (ends_with(name, ".gff")) return gff_file(size, seed);
  if (ends_with(name, ".html")) {
    return framed("<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>" + name +
                      "</title></head>\n<body>\n<pre>\n",
                  "\n</pre>\n</body>\n</html>\n", size, seed, "\nreads passing filter: ");
  }
  if (ends_with(name, ".json")) {
    return framed("{\"@context\": \"https://w3id.org/ro/crate/1.1/context\", \"@graph\": [\"",
                  "\"]}\n", size, seed, "-");
  }
  return binary_file(size, seed);
}

constexpr std::size_t kStoredBlock = 65535;  // the largest stored deflate block

std::size_t stored_blocks(std::size_t size) {
  return size == 0 ? 1 : (size + kStoredBlock - 1) / kStoredBlock;
}

constexpr const char* kZipMember = "ro-crate-metadata.json";

// A ZIP archive with one stored member (APPNOTE 4.3: local header, data,
// central directory, end record), dated 2025-06-03.
std::string zip_stored(const std::string& member, const std::string& data) {
  const std::uint32_t crc = crc32_of(data);
  const std::uint16_t time = 10 << 11, date = ((2025 - 1980) << 9) | (6 << 5) | 3;
  std::string out;
  put_le(out, 0x04034b50, 4);
  put_le(out, 20, 2);  // version needed
  put_le(out, 0, 2);   // flags
  put_le(out, 0, 2);   // stored
  put_le(out, time, 2);
  put_le(out, date, 2);
  put_le(out, crc, 4);
  put_le(out, data.size(), 4);
  put_le(out, data.size(), 4);
  put_le(out, member.size(), 2);
  put_le(out, 0, 2);
  out += member;
  out += data;
  const std::size_t directory = out.size();
  put_le(out, 0x02014b50, 4);
  put_le(out, 20, 2);  // made by
  put_le(out, 20, 2);  // needed
  put_le(out, 0, 2);
  put_le(out, 0, 2);
  put_le(out, time, 2);
  put_le(out, date, 2);
  put_le(out, crc, 4);
  put_le(out, data.size(), 4);
  put_le(out, data.size(), 4);
  put_le(out, member.size(), 2);
  put_le(out, 0, 2);  // extra
  put_le(out, 0, 2);  // comment
  put_le(out, 0, 2);  // disk
  put_le(out, 0, 2);  // internal attributes
  put_le(out, 0, 4);  // external attributes
  put_le(out, 0, 4);  // local header offset
  out += member;
  const std::size_t directory_size = out.size() - directory;
  put_le(out, 0x06054b50, 4);
  put_le(out, 0, 2);
  put_le(out, 0, 2);
  put_le(out, 1, 2);
  put_le(out, 1, 2);
  put_le(out, directory_size, 4);
  put_le(out, directory, 4);
  put_le(out, 0, 2);
  return out;
}

}  // namespace

std::uint64_t seed_of(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return h;
}

std::string generated_file(const std::string& name, std::size_t size, std::uint64_t seed) {
  if (ends_with(name, ".gz"))
    return gzip_stored(generated_file(name.substr(0, name.size() - 3), size, seed));
  if (ends_with(name, ".zip")) return zip_stored(kZipMember, plain_file(kZipMember, size, seed));
  return plain_file(name, size, seed);
}

std::uint64_t generated_file_size(const std::string& name, std::size_t size) {
  if (ends_with(name, ".gz")) {
    return generated_file_size(name.substr(0, name.size() - 3), size) + 18 +
           5 * stored_blocks(size);
  }
  if (ends_with(name, ".zip")) return size + 30 + 46 + 22 + 2 * std::string(kZipMember).size();
  return size;
}

std::string hex_digest(const std::string& algorithm, const std::string& bytes) {
  const EVP_MD* md = algorithm == "MD5"    ? EVP_md5()
                     : algorithm == "SHA1" ? EVP_sha1()
                     : algorithm == "SHA256"
                         ? EVP_sha256()
                         : throw std::invalid_argument("mock: no digest " + algorithm);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, md, nullptr) != 1) {
    throw std::runtime_error("mock: EVP_Digest failed");
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kDigits[digest[i] >> 4]);
    hex.push_back(kDigits[digest[i] & 0xf]);
  }
  return hex;
}

std::vector<std::string> mock_file_names() {
  std::vector<std::string> names;
  for (const auto& entry : catalogue()) names.push_back(entry.first);
  return names;
}

const std::string& mock_file(const std::string& name) { return catalogue().at(name); }

void serve_file(const httplib::Request& req, httplib::Response& res, const std::string& name,
                std::shared_ptr<const std::string> body, const ServeOptions& options) {
  const std::string type =
      options.content_type.empty() ? content_type_for(name) : options.content_type;
  res.set_header("ETag", etag_for(name, *body));
  res.set_header("Last-Modified", "Tue, 03 Jun 2025 10:00:00 GMT");
  res.set_header("Accept-Ranges", "bytes");
  if (!options.attachment_name.empty()) {
    res.set_header("Content-Disposition", "attachment; filename=" + options.attachment_name);
  }

  if (req.get_param_value("ignore_range") == "1") {
    res.status = 200;
    res.set_chunked_content_provider(type, [body](std::size_t offset, httplib::DataSink& sink) {
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
  const std::size_t first = req.ranges.size() == 1 && req.ranges[0].first > 0
                                ? static_cast<std::size_t>(req.ranges[0].first)
                                : 0;
  if (req.has_param("cut")) {
    const auto at = static_cast<std::size_t>(std::stoull(req.get_param_value("cut")));
    if (first < at) cut = at;  // a request that starts at or after the cut is served whole
  }
  // httplib applies the Range itself and calls the provider with offsets
  // into the whole file, so the cut lands on an absolute byte position.
  const std::size_t rate = options.bytes_per_second;
  // Throttled: a tenth of a second's bytes per write, so that a partial file
  // grows steadily on the client's disk.
  const std::size_t chunk = rate ? std::max<std::size_t>(1, std::min(kChunk, rate / 10)) : kChunk;
  res.set_content_provider(
      body->size(), type,
      [body, cut, rate, chunk](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
        if (offset >= cut) return false;  // close the connection mid-body
        const std::size_t n = std::min({length, chunk, cut - offset});
        if (rate) std::this_thread::sleep_for(std::chrono::microseconds(n * 1000000 / rate));
        return sink.write(body->data() + offset, n);
      });
}

void register_file_routes(MockServer& server) {
  server.server().Get(R"(/files/([A-Za-z0-9._-]+))", [&server](const httplib::Request& req,
                                                               httplib::Response& res) {
    const auto& files = catalogue();
    const auto it = files.find(req.matches[1]);
    if (it == files.end()) {
      res.status = 404;
      res.set_content("{\"detail\": \"Not found.\"}", "application/json");
      return;
    }
    // The catalogue lives as long as the process, so the pointer needs no owner.
    ServeOptions options;
    options.bytes_per_second = server.file_bytes_per_second();
    serve_file(req, res, it->first,
               std::shared_ptr<const std::string>(&it->second, [](const std::string*) {}), options);
  });
}

}  // namespace mgnify::mock
