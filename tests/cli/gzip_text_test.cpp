// The CLI's reading of downloaded summary files (tools/mgnify/gzip_text.cpp):
// gzip and bgzip inflate, and neither a gzip bomb nor a huge plain file is
// read past the bound.

#include "gzip_text.hpp"

#include <zlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "mgnify/files/download_errors.hpp"

namespace fs = std::filesystem;

namespace {

/// One gzip member of `zeros` zero bytes followed by `tail`, deflated a MiB at a time.
std::string gzip_of(std::uint64_t zeros, const std::string& tail = {}) {
  z_stream stream{};
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  std::string out;
  const std::string chunk(1 << 20, '\0');
  char buffer[1 << 16];
  auto pump = [&](const std::string& in, std::size_t size, int flush) {
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    stream.avail_in = static_cast<uInt>(size);
    do {
      stream.next_out = reinterpret_cast<Bytef*>(buffer);
      stream.avail_out = sizeof buffer;
      deflate(&stream, flush);
      out.append(buffer, sizeof buffer - stream.avail_out);
    } while (stream.avail_out == 0);
  };
  for (std::uint64_t left = zeros; left > 0;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
    pump(chunk, n, Z_NO_FLUSH);
    left -= n;
  }
  pump(tail, tail.size(), Z_FINISH);
  deflateEnd(&stream);
  return out;
}

fs::path write_file(const std::string& name, const std::string& bytes) {
  const auto path = fs::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

TEST_CASE("summary files read plain, gzip or bgzip within the bound", "[cli][gzip]") {
  const auto plain = write_file("mgnify-gzip-plain.tsv", "a\t1\n");
  CHECK(mgnify_cli::read_maybe_gzip(plain) == "a\t1\n");
  // bgzip: members in a row, each a complete gzip stream.
  const auto bgzip =
      write_file("mgnify-gzip-members.tsv.gz", gzip_of(0, "a\t1\n") + gzip_of(0, "b\t2\n"));
  CHECK(mgnify_cli::read_maybe_gzip(bgzip) == "a\t1\nb\t2\n");
  // The bound counts the text of every member; a file exactly at it is read.
  std::string table;
  for (int i = 0; i < 50'000; ++i) table += "a\t1\n";
  const auto big = write_file("mgnify-gzip-bound.tsv.gz", gzip_of(0, table) + gzip_of(0, table));
  CHECK(mgnify_cli::read_maybe_gzip(big, 2 * table.size()) == table + table);
  CHECK_THROWS_AS(mgnify_cli::read_maybe_gzip(big, 2 * table.size() - 1), mgnify::FileError);
  fs::remove(plain);
  fs::remove(bgzip);
  fs::remove(big);
  CHECK(mgnify_cli::kMaxSummaryBytes == std::uint64_t{1} << 30);
}

TEST_CASE("a gzip bomb stops inflating at the bound, naming the file and the limit",
          "[cli][gzip][limits]") {
  // 64 MiB of zeros in about 64 kB: read with a 1 MiB bound.
  const std::string bomb = gzip_of(std::uint64_t{64} << 20);
  REQUIRE(bomb.size() < 200'000);
  const auto path = write_file("mgnify-gzip-bomb.tsv.gz", bomb);
  try {
    mgnify_cli::read_maybe_gzip(path, 1 << 20);
    FAIL("a 64 MiB gzip bomb was read whole with a 1 MiB bound");
  } catch (const mgnify::FileError& e) {
    CHECK(e.path() == path);
    CHECK_THAT(e.what(),
               Catch::Contains("mgnify-gzip-bomb.tsv.gz") && Catch::Contains("1048576 bytes"));
  }
  // The same bound for a later bgzip member and for a plain file.
  const auto members =
      write_file("mgnify-gzip-bomb-members.tsv.gz", gzip_of(0, "a\t1\n") + gzip_of(2 << 20));
  CHECK_THROWS_AS(mgnify_cli::read_maybe_gzip(members, 1 << 20), mgnify::FileError);
  const auto plain = write_file("mgnify-gzip-big-plain.tsv", std::string(2 << 20, 'a'));
  CHECK_THROWS_AS(mgnify_cli::read_maybe_gzip(plain, 1 << 20), mgnify::FileError);
  fs::remove(path);
  fs::remove(members);
  fs::remove(plain);
}
