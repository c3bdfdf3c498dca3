#pragma once

// Reads a table file back the way researchers do, through
// tests/tables/read_table.py (Python's csv or pandas with their defaults) or
// tests/tables/read_table.R (readr, read.delim). Needs MGNIFY_PYTHON3,
// MGNIFY_RSCRIPT and MGNIFY_SOURCE_DIR, which the table and CLI test programs define.

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace mgnify::test::table_readback {

struct ReadBack {
  bool installed = true;
  nlohmann::json table;  // {"columns": [...], "rows": [[...], ...]}
};

inline bool is_r_reader(const std::string& reader) {
  return reader == "readr" || reader == "readr-exact" || reader == "read.delim";
}

/// `file`, written as `format` ("tsv" or "csv"), as tests/tables/read_table.py reads it with
/// `reader` ("csv" or "pandas"), or tests/tables/read_table.R with `reader` ("readr",
/// "readr-exact" or "read.delim"; in a UTF-8 locale, as R users have). `installed` is false
/// when the reader is missing.
inline ReadBack read_back(const std::string& reader, const std::string& format,
                          const std::filesystem::path& file) {
  const std::string separator = format == "tsv" ? "tab" : ",";
  ReadBack result;
  const bool r = is_r_reader(reader);
  const std::string interpreter = r ? MGNIFY_RSCRIPT : MGNIFY_PYTHON3;
  if (interpreter.empty() || !std::filesystem::exists(interpreter)) {
    result.installed = false;
    return result;
  }
  const auto out = file.string() + "." + reader + ".json";
  const std::string command = std::string(r ? "LC_ALL=C.UTF-8 " : "") + "'" + interpreter +
                              "' '" MGNIFY_SOURCE_DIR "/tests/tables/read_table." +
                              (r ? "R" : "py") + "' " + reader + " " + separator + " '" +
                              file.string() + "' > '" + out + "'";
  const int status = std::system(command.c_str());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
    result.installed = false;
    return result;
  }
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  std::ifstream in(out, std::ios::binary);
  result.table = nlohmann::json::parse(in);
  return result;
}

}  // namespace mgnify::test::table_readback
