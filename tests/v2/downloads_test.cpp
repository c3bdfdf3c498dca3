// Listing v2 files and downloading them through V2Client, checked against the
// listed file_size_bytes, end to end against the mock (which serves every
// listed URL under its own origin).

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "downloads/download_support.hpp"
#include "support/v2_rig.hpp"

namespace fs = std::filesystem;
namespace http = mgnify::http;
namespace files = mgnify::files;
using namespace mgnify::v2;
namespace data = mgnify::mock::v2data;

TEST_CASE("an analysis's listed files download through V2Client, sizes verified",
          "[v2][downloads]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  const auto analysis = client.analysis("MGYA00000002");
  REQUIRE(analysis.downloads.size() == 7);

  mgnify::test::dl::TempDir dir;
  std::vector<files::DownloadJob> jobs;
  std::vector<const DownloadFile*> listed;
  std::size_t sized = 0;
  for (const auto& f : analysis.downloads) {
    REQUIRE(f.has_url());
    // Production paths under the mock's origin: no file URL leaves the machine.
    CHECK(f.url->rfind(rig.server.origin() + "/pub/databases/metagenomics/mgnify_results/", 0) ==
          0);
    if (f.index_files) {
      for (const auto& index : *f.index_files)
        CHECK(index.url->rfind(rig.server.origin() + "/", 0) == 0);
    }
    if (f.file_size_bytes) ++sized;
    CHECK(f.file_size_bytes.has_value() == (f.file_type != FileType::html));
    jobs.push_back(download_job(f, dir / f.alias));
    listed.push_back(&f);
  }
  REQUIRE(sized == 5);
  REQUIRE(analysis.results_dir);
  CHECK(analysis.results_dir->rfind(rig.server.origin() + "/", 0) == 0);

  const auto results = client.download_many(jobs);
  REQUIRE(results.size() == jobs.size());
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    CAPTURE(jobs[i].url);
    REQUIRE(results[i]);
    const auto bytes = data::file_bytes(data::url_path(jobs[i].url));
    CHECK(mgnify::test::dl::read_file(jobs[i].path) == bytes);
    CHECK(results[i]->size_verified == listed[i]->file_size_bytes.has_value());
    if (listed[i]->file_size_bytes) {
      CHECK(results[i]->bytes == static_cast<std::uint64_t>(*listed[i]->file_size_bytes));
    }
    CHECK_FALSE(results[i]->verified_checksum);  // v2 publishes no digests
  }

  // The gzip tables are real gzip streams.
  const auto ssu = analysis.downloads_in_group("taxonomies.closed_reference.ssu");
  REQUIRE_FALSE(ssu.empty());
  const std::string gz = mgnify::test::dl::read_file(dir / ssu[0].alias);
  REQUIRE(gz.size() > 18);
  CHECK(static_cast<unsigned char>(gz[0]) == 0x1f);
  CHECK(static_cast<unsigned char>(gz[1]) == 0x8b);

  // A sized file is re-verified by size: kept when it matches, fetched again when it does not.
  const DownloadFile& table = *listed[1];
  REQUIRE(table.file_size_bytes);
  const auto target = dir / table.alias;
  rig.server.clear_requests();
  CHECK(client.download(table, target).already_present);
  CHECK(rig.server.hits(data::url_path(*table.url)) == 0);
  const std::string whole = mgnify::test::dl::read_file(target);
  mgnify::test::dl::write_file(target, whole.substr(0, whole.size() - 10));
  const auto refetched = client.download(table, target);
  CHECK_FALSE(refetched.already_present);
  CHECK(refetched.size_verified);
  CHECK(mgnify::test::dl::read_file(target) == whole);
  // An unsized file cannot be checked, so it is fetched again.
  const DownloadFile& report = *listed[0];
  REQUIRE_FALSE(report.file_size_bytes);
  CHECK_FALSE(client.download(report, dir / report.alias).already_present);
}

TEST_CASE("a v2 file cut mid-transfer resumes; an unlisted path is a 404", "[v2][downloads]") {
  mgnify::test::V2Rig rig;
  const auto client = rig.client();
  const auto analysis = client.analysis("MGYA00000002");
  const auto pfam = analysis.downloads_in_group("functional_annotation.pfams");
  REQUIRE(pfam.size() == 1);
  REQUIRE(pfam[0].file_size_bytes);
  const std::string path = data::url_path(*pfam[0].url);
  const std::string bytes = data::file_bytes(path);
  REQUIRE(bytes.size() == static_cast<std::size_t>(*pfam[0].file_size_bytes));

  mgnify::mock::Fault cut = mgnify::mock::Fault::truncated();
  cut.body = bytes;
  cut.content_type = "application/gzip";
  rig.server.push_fault(path, cut);
  mgnify::test::dl::TempDir dir;
  const auto r = client.download(pfam[0], dir / pfam[0].alias);
  CHECK(r.resumed);
  CHECK(r.attempts == 2);
  CHECK(r.size_verified);
  CHECK(mgnify::test::dl::read_file(dir / pfam[0].alias) == bytes);

  CHECK_THROWS_AS(client.download(rig.server.origin() + path + ".missing", dir / "missing"),
                  mgnify::NotFoundError);

  // A pre-V6 file has no URL to fetch.
  const auto legacy = client.study("MGYS00000003");
  REQUIRE_FALSE(legacy.downloads.empty());
  REQUIRE_FALSE(legacy.downloads[0].has_url());
  CHECK_THROWS_AS(client.download(legacy.downloads[0], dir / "legacy.tsv"),
                  mgnify::InvalidArgument);
}

TEST_CASE("study summaries, genome files and private links are served at their listed URLs",
          "[v2][downloads]") {
  mgnify::test::V2Rig rig;
  auto client = rig.client();
  mgnify::test::dl::TempDir dir;
  std::vector<DownloadFile> files;
  for (const auto& f : client.study("MGYS00000002").downloads) files.push_back(f);
  for (const auto& f : client.genome("MGYG000000001").downloads) files.push_back(f);
  REQUIRE(files.size() == 5);

  std::vector<files::DownloadJob> jobs;
  for (const auto& f : files) {
    REQUIRE(f.file_size_bytes);
    jobs.push_back(download_job(f, dir / f.alias));
  }
  mgnify::BatchOptions batch;
  batch.concurrency = 3;
  const auto results = client.download_many(jobs, batch);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    CAPTURE(jobs[i].url);
    REQUIRE(results[i]);
    CHECK(results[i]->size_verified);
    CHECK(fs::file_size(jobs[i].path) == static_cast<std::uint64_t>(*files[i].file_size_bytes));
  }

  // Private results are signed links on the API host; the owner's listing gives them.
  client.set_token(std::string(data::kValidToken));
  const auto priv = client.study_analyses(data::kPrivateStudies[0]).collect();
  REQUIRE_FALSE(priv.empty());
  const auto detail = client.analysis(priv.front().accession);
  const auto tables = detail.downloads_in_group("taxonomies.closed_reference.ssu");
  REQUIRE_FALSE(tables.empty());
  REQUIRE(tables[0].has_url());
  CHECK(tables[0].url->rfind(rig.server.v2_url() + "/private-data/", 0) == 0);
  const auto r = client.download(tables[0], dir / "private" / tables[0].alias);
  CHECK(r.size_verified);
  // Without the link's signature the file is refused.
  const std::string unsigned_url = tables[0].url->substr(0, tables[0].url->find('?'));
  CHECK_THROWS_AS(client.download(unsigned_url, dir / "unsigned.tsv.gz"), mgnify::ApiError);
}
