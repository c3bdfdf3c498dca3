#pragma once

// A BIOM file as the programs researchers open it with read it: the BIOM
// format's validator (`biom validate-table`), its Python reader
// (biom.load_table) and phyloseq::import_biom in R, through
// tests/tables/read_biom.py and read_biom.R. Each reports "not installed"
// rather than failing when its program is missing, so that the test can skip.

#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace mgnify::test::biom_readers {

struct Result {
  bool installed = true;
  int exit_code = 0;
  std::string output;  // stdout and stderr
};

inline Result run(const std::string& program, const std::string& arguments,
                  const std::filesystem::path& out) {
  Result result;
  if (program.empty() || !std::filesystem::exists(program)) {
    result.installed = false;
    return result;
  }
  const std::string command = "LC_ALL=C.UTF-8 '" + program + "' " + arguments + " > '" +
                              out.string() + "' 2> '" + out.string() + ".err'";
  const int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  result.exit_code = WEXITSTATUS(status);
  if (result.exit_code == 77) result.installed = false;
  std::ifstream in(out, std::ios::binary);
  result.output.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::ifstream err(out.string() + ".err", std::ios::binary);
  result.output.append(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  return result;
}

/// `biom validate-table -i FILE`: exit 0 and "is a valid" when it accepts the file.
inline Result validate(const std::filesystem::path& file) {
  return run(MGNIFY_BIOM_TOOL, "validate-table -i '" + file.string() + "'",
             file.string() + ".validate");
}

/// What biom.load_table (reader "python") or phyloseq::import_biom (reader
/// "r") read, as read_biom.py prints it, keys in the reader's order.
struct Read {
  bool installed = true;
  nlohmann::ordered_json table;
};

inline Read read(const std::string& reader, const std::filesystem::path& file) {
  const bool r = reader == "r";
  const std::string script =
      std::string("'" MGNIFY_SOURCE_DIR "/tests/tables/read_biom.") + (r ? "R" : "py") + "'";
  const Result result =
      run(r ? MGNIFY_RSCRIPT : MGNIFY_PYTHON3, script + " '" + file.string() + "'",
          file.string() + "." + reader + ".json");
  Read out;
  if (!result.installed) {
    out.installed = false;
    return out;
  }
  INFO(result.output);
  REQUIRE(result.exit_code == 0);
  out.table = nlohmann::ordered_json::parse(result.output.substr(0, result.output.find('\n')));
  return out;
}

/// The reader read what `biom` (the document as written) holds: the same
/// row and column ids in order, every count, each row's taxonomy ranks and
/// each column's metadata (keys and values, in order).
inline void check(const nlohmann::ordered_json& got, const nlohmann::ordered_json& biom,
                  const std::string& reader) {
  const auto& rows = biom.at("rows");
  const auto& columns = biom.at("columns");
  REQUIRE(got.at("rows").size() == rows.size());
  REQUIRE(got.at("columns").size() == columns.size());
  for (std::size_t r = 0; r < rows.size(); ++r) CHECK(got["rows"][r] == rows[r].at("id"));
  for (std::size_t c = 0; c < columns.size(); ++c) CHECK(got["columns"][c] == columns[c].at("id"));
  std::vector<std::vector<double>> dense(rows.size(), std::vector<double>(columns.size(), 0.0));
  for (const auto& cell : biom.at("data"))
    dense[cell[0].get<std::size_t>()][cell[1].get<std::size_t>()] = cell[2].get<double>();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      INFO(reader << " count of row " << r << " column " << c);
      CHECK(got["counts"][r][c].get<double>() == dense[r][c]);
    }
  }
  for (const auto& row : rows) {
    if (!row.at("metadata").is_object() || !row["metadata"].contains("taxonomy")) continue;
    INFO(reader << " taxonomy of " << row.at("id"));
    REQUIRE(got.at("taxonomy").contains(row["id"].get<std::string>()));
    CHECK(got["taxonomy"][row["id"].get<std::string>()] == row["metadata"]["taxonomy"]);
  }
  for (const auto& column : columns) {
    if (!column.at("metadata").is_object()) continue;
    const std::string id = column.at("id");
    INFO(reader << " metadata of " << id);
    REQUIRE(got.at("sample_metadata").contains(id));
    const auto& read_back = got["sample_metadata"][id];
    const auto& written = column["metadata"];
    REQUIRE(read_back.size() == written.size());
    auto r_it = read_back.begin();
    for (auto w = written.begin(); w != written.end(); ++w, ++r_it) {
      CHECK(r_it.key() == w.key());
      CHECK(r_it.value() == w.value());
    }
  }
}

}  // namespace mgnify::test::biom_readers
