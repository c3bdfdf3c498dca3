// Listing a v1 object's files and downloading them through LegacyClient,
// verified against the listed `file-checksum`, end to end against the mock.

#include "mock/v1/downloads.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "downloads/download_support.hpp"
#include "mgnify/files/checksum.hpp"
#include "mock/files/files.hpp"
#include "support/v1_rig.hpp"

namespace fs = std::filesystem;
namespace http = mgnify::http;
namespace files = mgnify::files;
namespace v1 = mgnify::v1;
namespace data = mgnify::mock::v1data;

namespace {

// Computed with sha256sum, md5sum and sha1sum over the files as the mock
// serves them (curl), not with the SDK's hashing or the mock's own.
constexpr const char* kAnalysisGoSha256 =
    "3d3fadef631201e99366dea448874a3752eddb5c566e85a407dcccf5c813c1b1";
constexpr std::uint64_t kAnalysisGoSize = 1631;
constexpr const char* kStudyCdsMd5 = "0a75308373941c95f3aa3f8836517dca";
constexpr const char* kGenomeFaaSha1 = "29e00823a9bb1c9b7b7996701f054e203bb05bbc";

std::string path_of(const std::string& url) {
  const auto host = url.find('/', url.find("://") + 3);
  return url.substr(host,
                    url.find('?') == std::string::npos ? std::string::npos : url.find('?') - host);
}

}  // namespace

TEST_CASE("an analysis's listed files download through LegacyClient, verified by SHA256",
          "[v1][downloads]") {
  mgnify::test::V1Rig rig;
  const auto client = rig.client();
  const auto files = client.analysis_downloads("MGYA00000002").collect();
  REQUIRE(files.size() == 3);
  REQUIRE(files[0].alias == "ERR3000001_MERGED_FASTQ_GO_abundances.tsv");
  // The listed digest is the real one, as an independent tool computes it.
  CHECK(files[0].file_checksum->checksum_algorithm == "SHA256");
  CHECK(files[0].file_checksum->checksum == kAnalysisGoSha256);

  mgnify::test::dl::TempDir dir;
  std::vector<files::DownloadJob> jobs;
  for (const auto& f : files) {
    REQUIRE(f.self_link());
    // Served at the listed URL itself, on the API's own origin.
    CHECK(f.self_link()->rfind(rig.server.v1_url() + "/analyses/MGYA00000002/file/", 0) == 0);
    jobs.push_back(v1::download_job(f, dir / "MGYA00000002" / f.alias));
  }
  std::size_t calls = 0;
  files::BatchProgress last;
  mgnify::BatchOptions batch;
  batch.concurrency = 3;
  const auto results = client.download_many(jobs, batch, [&](const files::BatchProgress& p) {
    ++calls;
    last = p;
  });
  REQUIRE(results.size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(files[k].alias);
    REQUIRE(results[k]);
    const auto bytes = data::download_bytes(data::DownloadOwner::analysis, 1, k);
    CHECK(results[k]->bytes == bytes->size());
    REQUIRE(results[k]->verified_checksum);
    CHECK(results[k]->verified_checksum->algorithm == files::HashAlgorithm::sha256);
    CHECK(results[k]->verified_checksum->hex == files[k].file_checksum->checksum);
    CHECK(mgnify::test::dl::read_file(jobs[k].path) == *bytes);
  }
  CHECK(fs::file_size(jobs[0].path) == kAnalysisGoSize);
  CHECK(calls > 0);
  CHECK(last.files_done == 3);
  CHECK(last.files_failed == 0);

  // Present and valid: re-verified locally, no request.
  rig.server.clear_requests();
  const auto again = client.download(files[2], jobs[2].path);
  CHECK(again.already_present);
  CHECK(rig.server.hits(path_of(*files[2].self_link())) == 0);

  // Corrupt on disk (same size): detected and fetched again.
  std::string corrupt = mgnify::test::dl::read_file(jobs[0].path);
  corrupt[100] = static_cast<char>(corrupt[100] ^ 0x20);
  mgnify::test::dl::write_file(jobs[0].path, corrupt);
  const auto fixed = client.download(files[0], jobs[0].path);
  CHECK_FALSE(fixed.already_present);
  CHECK(rig.server.hits(path_of(*files[0].self_link())) == 1);
  CHECK(mgnify::test::dl::read_file(jobs[0].path) ==
        *data::download_bytes(data::DownloadOwner::analysis, 1, 0));
}

TEST_CASE("a v1 file cut mid-transfer resumes with a Range request", "[v1][downloads]") {
  mgnify::test::V1Rig rig;
  const auto client = rig.client();
  const auto files = client.analysis_downloads("MGYA00000002").collect();
  REQUIRE(files.size() == 3);
  const auto& cds = files[2];
  REQUIRE(cds.alias == "ERR3000001_MERGED_FASTQ_CDS.fasta.gz");
  const auto bytes = data::download_bytes(data::DownloadOwner::analysis, 1, 2);

  // Headers promise the whole file; half of it arrives, then the connection closes.
  mgnify::mock::Fault cut = mgnify::mock::Fault::truncated();
  cut.body = *bytes;
  cut.content_type = "application/octet-stream";
  rig.server.push_fault(path_of(*cds.self_link()), cut);

  mgnify::test::dl::TempDir dir;
  const auto target = dir / cds.alias;
  const auto r = client.download(cds, target);
  CHECK(r.resumed);
  CHECK(r.attempts == 2);
  CHECK(r.bytes == bytes->size());
  CHECK(r.bytes_transferred == bytes->size());  // both halves went over the network
  CHECK(mgnify::test::dl::read_file(target) == *bytes);
  const auto sent = rig.server.requests();
  REQUIRE(sent.size() >= 2);
  const auto range = sent.back().headers.find("range");
  REQUIRE(range != sent.back().headers.end());
  CHECK(range->second == "bytes=" + std::to_string(bytes->size() / 2) + "-");
}

TEST_CASE("study, genome and catalogue files are served with real MD5 and SHA1 digests, or none",
          "[v1][downloads]") {
  mgnify::test::V1Rig rig;
  const auto client = rig.client();
  mgnify::test::dl::TempDir dir;

  const auto study = client.study_downloads("MGYS00000002").collect();
  REQUIRE(study.size() == 3);
  // Files of the 4.1 era carry no digest, as on the real service.
  CHECK(study[0].file_checksum->checksum.empty());
  CHECK(study[0].file_checksum->checksum_algorithm.empty());
  CHECK(study[2].file_checksum->checksum_algorithm == "MD5");
  CHECK(study[2].file_checksum->checksum == kStudyCdsMd5);

  const auto genome = client.genome_downloads("MGYG000000001").collect();
  REQUIRE(genome.size() == 2);
  CHECK(genome[1].file_checksum->checksum_algorithm == "SHA1");
  CHECK(genome[1].file_checksum->checksum == kGenomeFaaSha1);

  const auto catalogue = client.catalogue_downloads("soil-v1-0").collect();
  REQUIRE(catalogue.size() == 1);

  std::vector<files::DownloadJob> jobs;
  std::vector<std::string> expected;
  for (std::size_t k = 0; k < study.size(); ++k) {
    jobs.push_back(v1::download_job(study[k], dir / "study" / study[k].alias));
    expected.push_back(*data::download_bytes(data::DownloadOwner::study, 1, k));
  }
  for (std::size_t k = 0; k < genome.size(); ++k) {
    jobs.push_back(v1::download_job(genome[k], dir / "genome" / genome[k].alias));
    expected.push_back(*data::download_bytes(data::DownloadOwner::genome, 0, k));
  }
  jobs.push_back(v1::download_job(catalogue[0], dir / "catalogue" / catalogue[0].alias));
  expected.push_back(*data::download_bytes(data::DownloadOwner::catalogue, 2, 0));

  const auto results = client.download_many(jobs);
  REQUIRE(results.size() == jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    CAPTURE(jobs[i].url);
    REQUIRE(results[i]);
    CHECK(mgnify::test::dl::read_file(jobs[i].path) == expected[i]);
    CHECK(results[i]->verified_checksum.has_value() == jobs[i].options.checksum.has_value());
  }
  CHECK_FALSE(results[0]->verified_checksum);  // nothing published to verify against
  CHECK(results[2]->verified_checksum->algorithm == files::HashAlgorithm::md5);
  CHECK(results[4]->verified_checksum->algorithm == files::HashAlgorithm::sha1);
  CHECK_FALSE(results[5]->verified_checksum);

  // The listed digests are the files' own, whatever tool computes them.
  CHECK(mgnify::mock::hex_digest("MD5", expected[1]) == study[1].file_checksum->checksum);
  CHECK(mgnify::mock::hex_digest("SHA1", expected[3]) == genome[0].file_checksum->checksum);

  // A file the listing does not name is a JSON:API 404.
  try {
    client.download(rig.server.v1_url() + "/analyses/MGYA00000002/file/nope.tsv", dir / "nope.tsv");
    FAIL("expected NotFoundError");
  } catch (const mgnify::NotFoundError& e) {
    CHECK(e.status() == 404);
  }
  CHECK_FALSE(fs::exists(dir / "nope.tsv"));
}

TEST_CASE("download_job refuses a record without a URL or with an unknown algorithm",
          "[v1][downloads]") {
  v1::Download nolink;
  nolink.alias = "x.tsv";
  CHECK_THROWS_AS(v1::download_job(nolink, "x.tsv"), mgnify::InvalidArgument);

  v1::Download odd;
  odd.alias = "y.tsv";
  odd.resource.self = "https://www.ebi.ac.uk/metagenomics/api/v1/analyses/MGYA1/file/y.tsv";
  odd.file_checksum = v1::FileChecksum{"00", "CRC32"};
  CHECK_THROWS_AS(v1::download_job(odd, "y.tsv"), mgnify::InvalidArgument);

  // A checksum the caller sets wins over the record's.
  odd.file_checksum = v1::FileChecksum{std::string(64, 'a'), "SHA256"};
  files::DownloadOptions mine;
  mine.checksum = files::Checksum::of(files::HashAlgorithm::md5, std::string(32, 'b'));
  const auto job = v1::download_job(odd, "y.tsv", mine);
  CHECK(job.url == *odd.resource.self);
  CHECK(job.options.checksum->algorithm == files::HashAlgorithm::md5);
}
