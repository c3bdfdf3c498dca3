// The manifest: what write_manifest writes read_manifest reads back unchanged
// (escaped tabs, line breaks and backslashes included); columns found by
// name; a bad row named by its line; a missing required column refused.

#include "mgnify/files/manifest.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "mgnify/error.hpp"

namespace files = mgnify::files;

namespace {

files::FileRow full_row() {
  files::FileRow row;
  row.accession = "MGYA00000001";
  row.alias = "ERR1_MERGED_FASTQ_SSU.fasta.mseq.gz";
  row.pipeline_version = "5.0";
  row.group = "Taxonomic analysis SSU rRNA";
  row.description = "Reads encoding SSU rRNA";
  row.file_type = "Compressed FASTA";
  row.experiment_type = "metagenomic";
  row.url = "https://www.ebi.ac.uk/metagenomics/api/v1/analyses/MGYA00000001/file/x.gz";
  row.checksum_algorithm = "SHA1";
  row.checksum = "a9993e364706816aba3e25717850c26c9cd0d89d";
  row.size_bytes = 18446744073709551615ull;
  return row;
}

void check_same(const files::FileRow& a, const files::FileRow& b) {
  CHECK(a.accession == b.accession);
  CHECK(a.alias == b.alias);
  CHECK(a.pipeline_version == b.pipeline_version);
  CHECK(a.group == b.group);
  CHECK(a.description == b.description);
  CHECK(a.file_type == b.file_type);
  CHECK(a.experiment_type == b.experiment_type);
  CHECK(a.url == b.url);
  CHECK(a.checksum_algorithm == b.checksum_algorithm);
  CHECK(a.checksum == b.checksum);
  CHECK(a.size_bytes == b.size_bytes);
}

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    files::read_manifest(in, "m.tsv");
  } catch (const mgnify::InvalidArgument& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("write_manifest and read_manifest round-trip every field", "[manifest]") {
  files::FileRow awkward;
  awkward.accession = "MGYS00000002";
  awkward.alias = "a\tb.tsv";  // a tab in a name must not shift the columns
  awkward.description = "line one\nline two\r\nC:\\dir\\t and \x1b[31m";
  awkward.url = "";  // a legacy v2 file: no location
  const std::vector<files::FileRow> rows = {full_row(), awkward};

  std::ostringstream out;
  files::write_manifest(out, rows);
  const std::string text = out.str();
  // A header and one line per row, however many line breaks the fields held.
  CHECK(std::count(text.begin(), text.end(), '\n') == 3);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.rfind("accession\talias\tpipeline_version\tgroup\tdescription\tfile_type\t"
                   "experiment_type\turl\tchecksum_algorithm\tchecksum\tsize_bytes\n",
                   0) == 0);

  std::istringstream in(text);
  const auto back = files::read_manifest(in, "m.tsv");
  REQUIRE(back.size() == 2);
  check_same(back[0], rows[0]);
  check_same(back[1], rows[1]);
  CHECK_FALSE(back[1].size_bytes.has_value());
}

TEST_CASE("manifest_columns match to_json's keys", "[manifest]") {
  const auto object = files::to_json(full_row());
  CHECK(object.size() == files::manifest_columns().size());
  for (const auto& column : files::manifest_columns()) CHECK(object.contains(column));
  CHECK(object["size_bytes"] == 18446744073709551615ull);
  CHECK(files::to_json(files::FileRow{})["size_bytes"].is_null());
}

TEST_CASE("read_manifest finds columns by name, in any order, and skips blank lines",
          "[manifest]") {
  const std::string text =
      "url\tnotes\talias\taccession\r\n"
      "https://example.org/f.gz\tignored\tf.gz\tMGYA1\r\n"
      "\n"
      "https://example.org/g.gz\t\tg.gz\tMGYA2\n";
  std::istringstream in(text);
  const auto rows = files::read_manifest(in, "m.tsv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].accession == "MGYA1");
  CHECK(rows[0].alias == "f.gz");
  CHECK(rows[0].url == "https://example.org/f.gz");
  CHECK(rows[0].checksum.empty());
  CHECK_FALSE(rows[0].size_bytes.has_value());
  CHECK(rows[1].accession == "MGYA2");
}

TEST_CASE("read_manifest names the line of a bad row and the missing column", "[manifest]") {
  const std::string header = "accession\talias\turl\tchecksum_algorithm\tchecksum\tsize_bytes\n";
  const std::string good =
      "MGYA1\ta\thttps://example.org/a\tMD5\t900150983cd24fb0d6963f7d28e17f72\t3\n";

  const std::string bad_size =
      error_of(header + good + "MGYA1\tb\thttps://example.org/b\t\t\t-1\n");
  CHECK(bad_size.find("manifest m.tsv line 3:") != std::string::npos);
  CHECK(bad_size.find("size_bytes is not a number: '-1'") != std::string::npos);

  // Blank lines still count, so the number is the line an editor shows.
  const std::string bad_algorithm =
      error_of(header + "\n" + good + "MGYA1\tc\thttps://example.org/c\tCRC32\tabcd\t\n");
  CHECK(bad_algorithm.find("manifest m.tsv line 4:") != std::string::npos);
  CHECK(bad_algorithm.find("CRC32") != std::string::npos);

  // 2^64 does not fit.
  CHECK(error_of(header + "MGYA1\td\thttps://example.org/d\t\t\t18446744073709551616\n")
            .find("line 2: size_bytes is not a number") != std::string::npos);

  // A truncated row (its url would read as empty, a file without a URL) and
  // a row with one cell too many are refused, naming the line.
  CHECK(error_of(header + good + "MGYA1\te\thttps://example.org/e\tMD5\n") ==
        "manifest m.tsv line 3: 4 cells, the header has 6 (a truncated or merged row)");
  CHECK(error_of(header + "MGYA1\tf\n") ==
        "manifest m.tsv line 2: 2 cells, the header has 6 (a truncated or merged row)");
  CHECK(error_of(header + "MGYA1\tg\thttps://example.org/g\t\t\t\t\n")
            .find("line 2: 7 cells, the header has 6") != std::string::npos);

  CHECK(error_of("accession\talias\n") == "manifest m.tsv has no 'url' column");
  CHECK(error_of("") == "manifest m.tsv is empty");
  CHECK(error_of(header + good) == "(no error)");
}
