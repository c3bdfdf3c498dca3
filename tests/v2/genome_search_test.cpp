// V2Client genome search through libcurl against the mock: COBS hits, the
// sourmash gather job (submit -> poll -> results), the service's error bodies,
// the wait's deadline and cancellation.

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "genome_search_mock.hpp"
#include "mgnify/testing/fake_clock.hpp"
#include "support/allow_deprecated.hpp"
#include "support/genome_search_cases.hpp"
#include "support/v2_rig.hpp"

using namespace std::chrono_literals;
namespace mock = mgnify::mock;
namespace cases = mgnify::test::genome_search_cases;
using cases::gather_request;
using cases::quick_wait;

namespace {

using SearchRig = mgnify::test::V2Rig;

struct V2Api {
  using Rig = mgnify::test::V2Rig;
  static constexpr const char* kCobsPath = "genome-search/";
  static constexpr const char* kGatherPath = "genomes-search/gather/";
  static std::string status_path(const std::string& job_id) {
    return "genomes-search/status/" + job_id + "/";
  }
  static std::vector<std::string> catalogues() { return {"human-gut-v2-0", "marine-v1-0"}; }
  // The client refuses an empty sequence itself; the raw post shows the server's answer.
  static void post_rejected_cobs_query(mgnify::http::Session& session) {
    session.post_json(session.url(kCobsPath), nlohmann::json{{"sequence", ""}});
  }
};

// A deterministic nucleotide sequence.
std::string sequence_of(std::size_t length) {
  static const char bases[] = "ACGT";
  std::string out;
  std::uint32_t x = 12345;
  for (std::size_t i = 0; i < length; ++i) {
    x = x * 1103515245u + 12345u;
    out.push_back(bases[(x >> 16) & 3]);
  }
  return out;
}

std::uint32_t gather_tar_crc32(const std::string& data) {
  std::uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

std::uint32_t gather_tar_le32(const std::string& bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 4; i-- > 0;)
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

// Inflates a gzip member made of stored (uncompressed) deflate blocks, the form the
// mock writes; any other block type, a bad trailer or trailing bytes throw.
std::string gather_tar_gunzip(const std::string& gz) {
  if (gz.size() < 18 || gz.compare(0, 3, "\x1f\x8b\x08") != 0 || gz[3] != 0) {
    throw std::runtime_error("not a plain gzip member");
  }
  std::string out;
  std::size_t at = 10;
  for (bool last = false; !last;) {
    if (at + 5 > gz.size()) throw std::runtime_error("truncated deflate block");
    const auto head = static_cast<unsigned char>(gz[at]);
    if ((head >> 1) != 0) throw std::runtime_error("not a stored deflate block");
    last = (head & 1u) != 0;
    const std::size_t len = static_cast<unsigned char>(gz[at + 1]) |
                            (static_cast<std::size_t>(static_cast<unsigned char>(gz[at + 2])) << 8);
    const std::size_t nlen =
        static_cast<unsigned char>(gz[at + 3]) |
        (static_cast<std::size_t>(static_cast<unsigned char>(gz[at + 4])) << 8);
    if ((len ^ 0xFFFFu) != nlen || at + 5 + len > gz.size()) {
      throw std::runtime_error("bad stored block length");
    }
    out.append(gz, at + 5, len);
    at += 5 + len;
  }
  if (at + 8 != gz.size()) throw std::runtime_error("bad gzip trailer");
  if (gather_tar_le32(gz, at) != gather_tar_crc32(out)) throw std::runtime_error("CRC mismatch");
  if (gather_tar_le32(gz, at + 4) != static_cast<std::uint32_t>(out.size())) {
    throw std::runtime_error("ISIZE mismatch");
  }
  return out;
}

std::uint64_t gather_tar_octal(const std::string& field) {
  std::uint64_t value = 0;
  for (char c : field) {
    if (c == '\0' || c == ' ') break;
    if (c < '0' || c > '7') throw std::runtime_error("bad octal field");
    value = value * 8 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

// A POSIX ustar archive's members (name -> content); headers are checked (magic,
// checksum, regular file) and the archive must end with two zero blocks.
std::map<std::string, std::string> gather_tar_members(const std::string& tar) {
  if (tar.size() % 512 != 0) throw std::runtime_error("tar size is not a multiple of 512");
  std::map<std::string, std::string> members;
  std::size_t at = 0;
  while (true) {
    if (at + 1024 > tar.size()) throw std::runtime_error("no end-of-archive blocks");
    const std::string header = tar.substr(at, 512);
    if (header == std::string(512, '\0')) {
      if (tar.compare(at + 512, 512, std::string(512, '\0')) != 0) {
        throw std::runtime_error("one zero block only");
      }
      return members;
    }
    if (header.compare(257, 6, std::string("ustar\0", 6)) != 0) {
      throw std::runtime_error("not a ustar header");
    }
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < 512; ++i) {
      sum += (i >= 148 && i < 156) ? static_cast<unsigned char>(' ')
                                   : static_cast<unsigned char>(header[i]);
    }
    if (gather_tar_octal(header.substr(148, 8)) != sum) throw std::runtime_error("bad checksum");
    if (header[156] != '0' && header[156] != '\0') throw std::runtime_error("not a regular file");
    const std::string name = header.substr(0, header.find('\0'));
    const auto size = static_cast<std::size_t>(gather_tar_octal(header.substr(124, 12)));
    at += 512;
    if (at + size > tar.size()) throw std::runtime_error("member runs past the archive");
    members[name] = tar.substr(at, size);
    at += (size + 511) / 512 * 512;
  }
}

}  // namespace

TEST_CASE("genome_search returns typed COBS hits from the service's genomes",
          "[v2][genome-search]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::CobsQuery query;
  query.sequence = sequence_of(400);
  query.threshold = 0.5;
  query.max_results = 5;
  query.catalogues_filter = {mgnify::mock::v2data::dataset().genomes.front().catalogue_id};

  const auto result = client.genome_search(query);
  cases::check_cobs_hits(result, 0.5, 5);

  std::map<std::string, nlohmann::json> genomes;
  for (const auto& g : mgnify::mock::v2data::dataset().genomes) genomes[g.accession] = g.list;
  for (const auto& hit : result.results) {
    CHECK(hit.mgnify.accession == hit.cobs.genome);
    CHECK(hit.mgnify.catalogue_id == query.catalogues_filter[0]);
    REQUIRE(hit.cobs.num_kmers);
    CHECK(*hit.cobs.num_kmers == 400 - 31 + 1);
    REQUIRE(hit.cobs.num_kmers_found);
    CHECK(*hit.cobs.num_kmers_found <= *hit.cobs.num_kmers);
    // The genome record is the one the genomes endpoints serve, and re-encodes exactly.
    REQUIRE(genomes.count(hit.mgnify.accession) == 1);
    CHECK(nlohmann::json(hit.mgnify) == genomes[hit.mgnify.accession]);
  }
  CHECK(nlohmann::json(result) == result.raw.json());

  // The query went out as the JSON body the service documents.
  const auto requests = rig.server.requests();
  REQUIRE_FALSE(requests.empty());
  const auto body = nlohmann::json::parse(requests.back().body);
  CHECK(body.at("sequence") == query.sequence);
  CHECK(body.at("threshold") == 0.5);
  CHECK(body.at("max_results") == 5);
  CHECK(body.at("catalogues_filter") == nlohmann::json::array({query.catalogues_filter[0]}));
  CHECK_FALSE(body.contains("kmer_size"));
}

TEST_CASE("genome_search uploads a sequence file as the multipart part sequence_file",
          "[v2][genome-search]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const std::string sequence = sequence_of(300);
  const auto fasta = std::filesystem::temp_directory_path() / "mgnify-v2-cobs-upload.fa";
  {
    std::ofstream out(fasta, std::ios::binary);
    out << ">fragment one\n" << sequence.substr(0, 80) << "\n" << sequence.substr(80) << "\n";
  }
  mgnify::CobsQuery from_file;
  from_file.sequence_file = fasta;
  from_file.kmer_size = 21;
  from_file.threshold = 0.5;
  from_file.catalogues_filter = {mgnify::mock::v2data::dataset().genomes.front().catalogue_id};
  rig.server.clear_requests();
  const auto uploaded = client.genome_search(from_file);
  std::filesystem::remove(fasta);

  const auto requests = rig.server.requests();
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].method == "POST");
  const auto type = requests[0].headers.find("content-type");
  REQUIRE(type != requests[0].headers.end());
  CHECK(type->second.rfind("multipart/form-data", 0) == 0);

  // The service searched the file's sequence: the same answer as the sequence sent inline.
  mgnify::CobsQuery inline_query = from_file;
  inline_query.sequence_file.reset();
  inline_query.sequence = sequence;
  const auto sent_inline = client.genome_search(inline_query);
  REQUIRE_FALSE(uploaded.results.empty());
  REQUIRE(uploaded.results.size() == sent_inline.results.size());
  for (std::size_t i = 0; i < uploaded.results.size(); ++i) {
    CHECK(uploaded.results[i].cobs.genome == sent_inline.results[i].cobs.genome);
    REQUIRE(uploaded.results[i].cobs.num_kmers);
    CHECK(*uploaded.results[i].cobs.num_kmers == 300 - 21 + 1);
  }

  mgnify::CobsQuery both = from_file;
  both.sequence = sequence;
  CHECK_THROWS_AS(client.genome_search(both), mgnify::InvalidArgument);
  mgnify::CobsQuery empty_path;
  empty_path.sequence_file = std::filesystem::path();
  CHECK_THROWS_AS(client.genome_search(empty_path), mgnify::InvalidArgument);
  CHECK(rig.server.requests().size() == 2);
}

TEST_CASE("genome search models keep members they do not know", "[v2][genome-search][models]") {
  const nlohmann::json hit = {
      {"mgnify", {{"accession", "MGYG000000001"}, {"catalogue_id", "c"}, {"future", 1}}},
      {"cobs", {{"genome", "MGYG000000001"}, {"percent_kmers_found", 97.5}, {"extra", "x"}}},
      {"rank", 1}};
  const auto decoded = hit.get<mgnify::v2::GenomeSearchHit>();
  CHECK(decoded.cobs.percent_kmers_found == 97.5);
  CHECK_FALSE(decoded.cobs.num_kmers);
  CHECK(nlohmann::json(decoded) == hit);

  const nlohmann::json status = {
      {"group_id", "g"},
      {"status", "PAUSED_BY_ADMIN"},
      {"signatures",
       {{{"job_id", "c1"},
         {"status", "SUCCESS"},
         {"result", {{"overlap", 1200000}, {"p_query", "12.5%"}, {"matches", 3}, {"new", true}}},
         {"position_in_queue", nullptr}}}},
      {"worker_status", "ok"},
      {"added_later", {1, 2}}};
  const auto typed = status.get<mgnify::GatherStatus>();
  CHECK(typed.status.text == "PAUSED_BY_ADMIN");
  CHECK(typed.status.state() == mgnify::JobState::unknown);
  CHECK_FALSE(typed.finished());
  REQUIRE(typed.signatures.size() == 1);
  REQUIRE(typed.signatures[0].result);
  CHECK(typed.signatures[0].result->overlap == "1200000");
  CHECK(typed.signatures[0].result->p_query == "12.5%");
  CHECK(nlohmann::json(typed) == status);
}

TEST_CASE("genome search input is checked before any request", "[v2][genome-search][validation]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  auto cobs = [&](auto tweak) {
    mgnify::CobsQuery q;
    q.sequence = "ACGTACGT";
    tweak(q);
    return q;
  };
  CHECK_THROWS_AS(client.genome_search(cobs([](auto& q) { q.sequence = " \n"; })),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.genome_search(cobs([](auto& q) { q.kmer_size = 0; })),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.genome_search(cobs([](auto& q) { q.max_results = -3; })),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.genome_search(cobs([](auto& q) { q.threshold = 1.5; })),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.genome_search(cobs([](auto& q) { q.threshold = std::nan(""); })),
                  mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.genome_search(cobs([](auto& q) { q.catalogues_filter = {""}; })),
                  mgnify::InvalidArgument);

  auto no_catalogues = gather_request("sig");
  no_catalogues.mag_catalogues.clear();
  CHECK_THROWS_AS(client.submit_gather(no_catalogues), mgnify::InvalidArgument);
  auto no_signatures = gather_request("sig");
  no_signatures.signatures.clear();
  CHECK_THROWS_AS(client.submit_gather(no_signatures), mgnify::InvalidArgument);
  mgnify::GatherRequest missing_file = gather_request("sig");
  missing_file.signatures = {mgnify::SignatureFile::from_path("/nonexistent/dir/x.sig")};
  CHECK_THROWS_AS(client.submit_gather(missing_file), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.gather_status(""), mgnify::InvalidArgument);
  CHECK_THROWS_AS(client.gather_results(".."), mgnify::InvalidArgument);
  mgnify::JobWaitOptions bad_wait;
  bad_wait.multiplier = 0.5;
  CHECK_THROWS_AS(client.wait_for_gather("mock-gather-1", bad_wait), mgnify::InvalidArgument);

  CHECK(rig.server.requests().empty());
}

TEST_CASE("a sequence file is a regular file whose name needs no escaping",
          "[v2][genome-search][validation][hostile]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const auto dir = std::filesystem::temp_directory_path();
  auto query_of = [](const std::filesystem::path& path) {
    mgnify::CobsQuery q;
    q.sequence_file = path;
    return q;
  };
  // Missing or a directory; a character device such as /dev/zero would upload forever.
  REQUIRE_THROWS_AS(client.genome_search(query_of(dir / "mgnify-no-such-sequence.fa")),
                    mgnify::InvalidArgument);
  REQUIRE_THROWS_AS(client.genome_search(query_of(dir)), mgnify::InvalidArgument);
  REQUIRE_THROWS_AS(client.genome_search(query_of("/dev/zero")), mgnify::InvalidArgument);
  // The file name goes into the part's Content-Disposition, as a signature's does.
  for (const char* const name : {"a\"b.fa", "a\\b.fa", "a\rb.fa", "a\nb.fa",
                                 "a\x01"
                                 "b.fa"}) {
    const auto path = dir / (std::string("mgnify-cobs-") + name);
    std::ofstream(path, std::ios::binary) << ">x\nACGTACGT\n";
    CAPTURE(name);
    CHECK_THROWS_AS(client.genome_search(query_of(path)), mgnify::InvalidArgument);
    mgnify::GatherRequest signature = gather_request("sig");
    signature.signatures = {mgnify::SignatureFile::from_path(path)};
    CHECK_THROWS_AS(client.submit_gather(signature), mgnify::InvalidArgument);
    std::filesystem::remove(path);
  }
  CHECK(rig.server.requests().empty());
}

namespace {

// The heap bytes a value holds, read from the capacities of its strings and vectors.
std::size_t held_bytes(const std::string& s) {
  return s.capacity() > std::string().capacity() ? s.capacity() + 1 : 0;
}
template <class A, class B>
std::size_t held_bytes(const std::pair<A, B>& p) {
  return held_bytes(p.first) + held_bytes(p.second);
}
template <class T>
std::size_t held_bytes(const std::vector<T>& v) {
  std::size_t total = v.capacity() * sizeof(T);
  for (const auto& item : v) total += held_bytes(item);
  return total;
}
std::size_t held_bytes(const mgnify::GatherResults& results) {
  std::size_t total =
      held_bytes(results.columns) + results.rows.capacity() * sizeof(results.rows[0]);
  for (const auto& row : results.rows) {
    total += held_bytes(row.cells) + held_bytes(row.name) + held_bytes(row.md5) +
             held_bytes(row.filename) + held_bytes(row.query_name) +
             held_bytes(row.query_filename) + held_bytes(row.query_md5);
  }
  return total;
}

// A gather CSV whose header is long column names and whose rows are empty cells:
// the shape of a hostile result, 400 times its size in memory when each row copies the names.
std::string wide_empty_csv(std::size_t columns, std::size_t name_length, std::size_t rows) {
  std::string csv;
  for (std::size_t c = 0; c < columns; ++c) {
    csv += (c ? "," : "") + std::string("name") + std::to_string(c) + std::string(name_length, 'x');
  }
  csv += "\n";
  for (std::size_t r = 0; r < rows; ++r) csv += "x" + std::string(columns - 1, ',') + "\n";
  return csv;
}

}  // namespace

TEST_CASE("gather CSV rows hold each column name once, not once per row",
          "[v2][genome-search][gather][limits]") {
  const std::string csv = wide_empty_csv(64, 1000, 1000);  // 130 kB
  const auto results = mgnify::detail::parse_gather_csv(csv, "https://x.test/results/1/");
  REQUIRE(results.rows.size() == 1000);
  REQUIRE(results.rows[7].cell("name63" + std::string(1000, 'x')));
  CHECK(*results.rows[7].cell("name0" + std::string(1000, 'x')) == "x");
  CHECK(results.rows[7].cell("name64") == nullptr);
  // An empty cell costs a string object (32 bytes), a row its typed fields; the
  // names are not copied per row (which would hold 500 times the CSV).
  CHECK(held_bytes(results) < 40 * csv.size());
}

TEST_CASE("gather CSV past its limits is a DecodeError that names the limit",
          "[v2][genome-search][gather][limits]") {
  const std::string url = "https://x.test/results/1/";
  auto refused = [&](const std::string& csv, const mgnify::GatherCsvLimits& limits,
                     const std::string& says) {
    CHECK_THROWS_WITH(mgnify::detail::parse_gather_csv(csv, url, limits),
                      Catch::Contains(says) && Catch::Contains(url) &&
                          Catch::Contains("download_gather_results"));
  };
  mgnify::GatherCsvLimits limits;
  limits.max_bytes = 1000;
  refused(wide_empty_csv(4, 10, 300), limits, "1000 bytes");
  limits = {};
  limits.max_columns = 8;
  refused(wide_empty_csv(9, 1, 1), limits, "8 columns");
  limits = {};
  limits.max_rows = 10;
  refused(wide_empty_csv(2, 1, 11), limits, "10 rows");
  CHECK(mgnify::detail::parse_gather_csv(wide_empty_csv(2, 1, 10), url, limits).rows.size() == 10);
  limits = {};
  limits.max_cells = 100;
  refused(wide_empty_csv(10, 1, 11), limits, "100 cells");
  // A row longer than the header is refused before its cells pile up.
  CHECK_THROWS_WITH(
      mgnify::detail::parse_gather_csv("a,b\n" + std::string(1'000'000, ',') + "\n", url),
      Catch::Contains("/rows/0") && Catch::Contains("more cells than the header's 2"));

  // The defaults, which gather_results uses: a result far larger than any real one.
  const mgnify::GatherCsvLimits defaults;
  CHECK(defaults.max_bytes == std::size_t{64} * 1024 * 1024);
  CHECK(defaults.max_rows == 100'000);
  CHECK(defaults.max_columns == 1024);
  CHECK(defaults.max_cells == 2'000'000);
  refused(wide_empty_csv(1025, 1, 1), {}, "1024 columns");
}

TEST_CASE("live: gather_results refuses a hostile CSV before building its rows",
          "[v2][genome-search][gather][limits]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  const std::string route = "genomes-search/results/hostile-job/";
  mock::Fault hostile = mock::Fault::status_only(200, wide_empty_csv(3, 1, 100'001));
  hostile.content_type = "text/csv";
  rig.server.push_fault(rig.path(route), hostile);
  CHECK_THROWS_AS(client.gather_results("hostile-job"), mgnify::DecodeError);
}

TEST_CASE("gather: submit, poll through QUEUED and RUNNING, read the CSV rows",
          "[v2][genome-search][gather]") {
  cases::check_gather_round_trip<V2Api>("mgnify-v2-gather-disk");
}

TEST_CASE("gather: the group's tarball is saved to a file, not parsed",
          "[v2][genome-search][gather][downloads]") {
  SearchRig rig;
  auto client = rig.fake_time_client();
  const auto job =
      client.submit_gather(gather_request("tarball", {"human-gut-v2-0", "marine-v1-0"}));
  const auto status = client.wait_for_gather(job.job_id, quick_wait());
  REQUIRE(status.results_url);
  REQUIRE(status.signatures.size() == 2);
  CHECK_THROWS_AS(client.gather_results(job.job_id), mgnify::DecodeError);

  const auto dir = std::filesystem::temp_directory_path() / "mgnify-v2-gather-download";
  std::filesystem::remove_all(dir);
  const auto path = dir / "results.tar.gz";
  mgnify::files::DownloadOptions options;
  options.create_directories = true;
  const auto saved = client.download_gather_results(job.job_id, path, options);
  CHECK(saved.bytes == std::filesystem::file_size(path));
  std::string gz;
  {
    std::ifstream in(path, std::ios::binary);
    gz.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::filesystem::remove_all(dir);
  REQUIRE(gz.size() == saved.bytes);

  const auto members = gather_tar_members(gather_tar_gunzip(gz));
  REQUIRE(members.size() == status.signatures.size());
  for (const auto& signature : status.signatures) {
    CAPTURE(signature.job_id);
    const auto member = members.find(signature.job_id + ".csv");
    REQUIRE(member != members.end());
    // Each member is that child's CSV, the same text its own results URL serves.
    const auto child = client.gather_results(signature.job_id);
    REQUIRE_FALSE(child.rows.empty());
    CHECK(member->second.rfind("intersect_bp,", 0) == 0);
    CHECK(member->second.find(*signature.catalogue) != std::string::npos);
    const auto lines = std::count(member->second.begin(), member->second.end(), '\n');
    CHECK(static_cast<std::size_t>(lines) == child.rows.size() + 1);
  }
}

TEST_CASE("gather: failed, empty and unknown outcomes are statuses, not errors",
          "[v2][genome-search][gather]") {
  SearchRig rig;
  auto client = rig.fake_time_client();
  const auto failed = client.wait_for_gather(
      client.submit_gather(gather_request(mock::kSignatureFails)).job_id, quick_wait());
  CHECK(failed.status == mgnify::JobState::failed);
  REQUIRE(failed.signatures.size() == 1);
  CHECK(failed.signatures[0].reason);
  CHECK_FALSE(failed.status.has_results());

  const auto empty = client.wait_for_gather(
      client.submit_gather(gather_request(mock::kSignatureNoMatch)).job_id, quick_wait());
  CHECK(empty.status == mgnify::JobState::no_results);

  // A status text from a newer service is kept; the wait keeps polling until its deadline.
  const auto job = client.submit_gather(gather_request(mock::kSignatureUnknownStatus));
  client.gather_status(job.job_id);
  client.gather_status(job.job_id);
  const auto unknown = client.gather_status(job.job_id);
  CHECK(unknown.status.text == mock::kUnknownJobStatus);
  CHECK(unknown.status.state() == mgnify::JobState::unknown);
  CHECK(unknown.signatures.at(0).status.text == mock::kUnknownJobStatus);
  CHECK_THROWS_AS(
      client.wait_for_gather(job.job_id, quick_wait(), mgnify::CallOptions().timeout(60s)),
      mgnify::DeadlineExceededError);
}

TEST_CASE("gather: a job that never finishes ends the wait at the call's deadline",
          "[v2][genome-search][gather][deadline]") {
  SearchRig rig;
  auto client = rig.fake_time_client();
  const auto job = client.submit_gather(gather_request(mock::kSignatureNeverFinishes));
  try {
    client.wait_for_gather(job.job_id, quick_wait(), mgnify::CallOptions().timeout(20s));
    FAIL("the wait returned");
  } catch (const mgnify::DeadlineExceededError& e) {
    CHECK(e.job_id() == job.job_id);
    CHECK(e.last_status() == "RUNNING");
    // Waits 1+2+4+4+4+4 s and the rest of the 20 s: never past the deadline, and polled at it.
    CHECK(e.polls() == 8);
    CHECK(e.waited() > 19s);
    CHECK(e.waited() <= 20s);
    CHECK(e.kind() == mgnify::TransportError::Kind::timeout);
    CHECK(std::string(e.what()).find(job.job_id) != std::string::npos);
  }
  CHECK(rig.clock->total_slept() <= std::chrono::nanoseconds(20s));
  CHECK(rig.hits("genomes-search/status/" + job.job_id + "/") == 8);
}

TEST_CASE("gather: the deprecated JobWaitOptions::deadline still bounds the wait",
          "[v2][genome-search][gather][deadline][deprecated]") {
  SearchRig rig;
  auto client = rig.fake_time_client();
  const auto job = client.submit_gather(gather_request(mock::kSignatureNeverFinishes));
  auto wait = quick_wait();
  MGNIFY_TEST_ALLOW_DEPRECATED_BEGIN
  wait.deadline = 20s;
  MGNIFY_TEST_ALLOW_DEPRECATED_END
  try {
    client.wait_for_gather(job.job_id, wait);
    FAIL("the wait returned");
  } catch (const mgnify::DeadlineExceededError& e) {
    CHECK(e.job_id() == job.job_id);
    CHECK(e.polls() == 8);
    CHECK(e.waited() == 20s);
  }
  CHECK(rig.clock->total_slept() == std::chrono::nanoseconds(20s));
}

TEST_CASE("gather: cancelling a wait returns promptly, between polls or during one",
          "[v2][genome-search][gather][cancel]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();  // real time
  const auto job = client.submit_gather(gather_request(mock::kSignatureNeverFinishes));

  SECTION("between polls") {
    mgnify::JobWaitOptions wait;
    wait.first_interval = 30s;
    wait.max_interval = 30s;
    const mgnify::CancelToken cancel;
    std::promise<void> polled;
    std::atomic<bool> first{true};
    wait.on_status = [&](const mgnify::GatherStatus&) {
      if (first.exchange(false)) polled.set_value();
    };
    auto done =
        std::async(std::launch::async, [&] { client.wait_for_gather(job.job_id, wait, cancel); });
    REQUIRE(polled.get_future().wait_for(10s) == std::future_status::ready);
    const auto cancelled_at = std::chrono::steady_clock::now();
    cancel.cancel();
    REQUIRE(done.wait_for(5s) == std::future_status::ready);
    CHECK(std::chrono::steady_clock::now() - cancelled_at < 1s);
    CHECK_THROWS_AS(done.get(), mgnify::CancelledError);
  }
  SECTION("while the status request is in flight") {
    rig.server.push_fault(rig.path("genomes-search/status/" + job.job_id + "/"),
                          mock::Fault::slow(5s));
    const mgnify::CancelToken cancel;
    auto done =
        std::async(std::launch::async, [&] { client.wait_for_gather(job.job_id, {}, cancel); });
    std::this_thread::sleep_for(200ms);
    const auto cancelled_at = std::chrono::steady_clock::now();
    cancel.cancel();
    REQUIRE(done.wait_for(5s) == std::future_status::ready);
    CHECK(std::chrono::steady_clock::now() - cancelled_at < 1s);
    CHECK_THROWS_AS(done.get(), mgnify::CancelledError);
  }
}

TEST_CASE("genome search errors carry the service's bodies", "[v2][genome-search][errors]") {
  cases::check_error_bodies<V2Api>();
}
