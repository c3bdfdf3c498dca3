// Manifest sharding (mgnify/files/shard.hpp): every row in exactly one shard,
// the assignment unchanged by reordering and by adding rows, bytes balanced
// within a stated tolerance, and the CLI's I/N form parsed strictly.

#include "mgnify/files/shard.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "mgnify/error.hpp"
#include "mgnify/files/manifest.hpp"

namespace files = mgnify::files;

namespace {

/// `n` rows over 50 analyses, sizes uniform in [1 kB, 100 kB] from a fixed seed.
std::vector<files::FileRow> rows_of(std::size_t n, std::uint32_t seed,
                                    const std::string& tag = "") {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::uint64_t> size(1000, 100000);
  std::vector<files::FileRow> rows;
  for (std::size_t i = 0; i < n; ++i) {
    files::FileRow row;
    row.accession = "MGYA" + std::to_string(10000000 + i % 50);
    row.alias = "ERR" + tag + std::to_string(i) + "_SILVA-SSU.tsv.gz";
    row.url = "http://127.0.0.1/files/" + row.alias;
    row.size_bytes = size(random);
    rows.push_back(row);
  }
  return rows;
}

std::map<std::string, std::size_t> assignment(const std::vector<files::FileRow>& rows,
                                              std::size_t count) {
  std::map<std::string, std::size_t> out;
  for (const auto& row : rows) out[files::shard_key(row)] = files::shard_of(row, count);
  return out;
}

}  // namespace

TEST_CASE("shard hash is FNV-1a 64 and the mixer SplitMix64, as published", "[shard]") {
  // Reference vectors of the two definitions, so a build that changed either
  // (and with it every assignment) fails here.
  CHECK(files::fnv1a_64("") == 0xcbf29ce484222325ULL);
  CHECK(files::fnv1a_64("a") == 0xaf63dc4c8601ec8cULL);
  CHECK(files::fnv1a_64("foobar") == 0x85944171f73967e8ULL);
  CHECK(files::detail::mix64(0) == 0xe220a8397b1dcdafULL);
}

TEST_CASE("every row lands in exactly one shard", "[shard]") {
  const auto rows = rows_of(1000, 1);
  for (const std::size_t count : {1u, 2u, 3u, 4u, 7u, 16u}) {
    std::map<std::string, int> seen;
    std::size_t total = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const auto shard = files::select_shard(rows, {i, count});
      total += shard.size();
      for (const auto& row : shard) ++seen[files::shard_key(row)];
    }
    CHECK(total == rows.size());
    CHECK(seen.size() == rows.size());
    CHECK(std::all_of(seen.begin(), seen.end(), [](const auto& kv) { return kv.second == 1; }));
  }
}

TEST_CASE("a shard keeps the manifest's order of its rows", "[shard]") {
  const auto rows = rows_of(200, 2);
  const auto shard = files::select_shard(rows, {1, 3});
  REQUIRE(shard.size() > 1);
  std::vector<std::size_t> positions;
  for (const auto& row : shard) {
    const auto it = std::find_if(rows.begin(), rows.end(),
                                 [&](const files::FileRow& r) { return r.alias == row.alias; });
    positions.push_back(static_cast<std::size_t>(it - rows.begin()));
  }
  CHECK(std::is_sorted(positions.begin(), positions.end()));
}

TEST_CASE("reordering a manifest moves no row to another shard", "[shard]") {
  auto rows = rows_of(1000, 3);
  const auto before = assignment(rows, 5);
  std::mt19937 random(99);
  std::shuffle(rows.begin(), rows.end(), random);
  CHECK(assignment(rows, 5) == before);
}

TEST_CASE("adding rows moves no existing row; only the new rows land anywhere", "[shard]") {
  const auto rows = rows_of(1000, 4);
  auto grown = rows;
  const auto added = rows_of(300, 5, "new");
  grown.insert(grown.begin() + 400, added.begin(), added.end());
  for (const std::size_t count : {2u, 4u, 8u}) {
    const auto before = assignment(rows, count);
    const auto after = assignment(grown, count);
    CHECK(after.size() == before.size() + added.size());
    for (const auto& [key, shard] : before) CHECK(after.at(key) == shard);
  }
}

TEST_CASE("one more shard takes rows only for itself", "[shard]") {
  const auto rows = rows_of(2000, 6);
  const auto four = assignment(rows, 4);
  const auto five = assignment(rows, 5);
  std::size_t moved = 0;
  for (const auto& [key, shard] : four) {
    if (five.at(key) != shard) {
      ++moved;
      CHECK(five.at(key) == 4);
    }
  }
  // About a fifth of the rows; far from the 4/5 a modulo would move.
  CHECK(moved > rows.size() / 10);
  CHECK(moved < rows.size() * 3 / 10);
}

TEST_CASE("bytes are balanced within 10% of the mean for 4,000 similar files", "[shard]") {
  // The expected deviation is about 3% (shard.hpp); 10% is over three times that.
  const auto rows = rows_of(4000, 7);
  for (const std::size_t count : {2u, 4u, 8u}) {
    const auto bytes = files::shard_bytes(rows, count);
    std::uint64_t total = 0;
    for (const auto& row : rows) total += *row.size_bytes;
    std::uint64_t sum = 0;
    for (const auto b : bytes) sum += b;
    CHECK(sum == total);
    const double mean = static_cast<double>(total) / static_cast<double>(count);
    for (const auto b : bytes) {
      INFO("count " << count << " shard bytes " << b << " mean " << mean);
      CHECK(static_cast<double>(b) > 0.9 * mean);
      CHECK(static_cast<double>(b) < 1.1 * mean);
    }
  }
}

TEST_CASE("shard I/N is parsed 1-based and bad forms are refused", "[shard]") {
  const auto one = files::parse_shard("1/4");
  CHECK(one.index == 0);
  CHECK(one.count == 4);
  const auto last = files::parse_shard("4/4");
  CHECK(last.index == 3);
  CHECK(files::parse_shard("1/1").count == 1);
  for (const char* bad : {"0/4", "5/4", "1/0", "4", "/4", "1/", "-1/4", "1/4/2", " 1/4", "a/b",
                          "1/100001", "", "1.0/4"}) {
    INFO(bad);
    CHECK_THROWS_AS(files::parse_shard(bad), mgnify::InvalidArgument);
  }
  CHECK_THROWS_AS(files::select_shard({}, {4, 4}), mgnify::InvalidArgument);
  CHECK_THROWS_AS(files::shard_of_key("a/b", 0), mgnify::InvalidArgument);
}
