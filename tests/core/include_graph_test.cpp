// The layering of include/mgnify, read from the headers themselves: the HTTP
// layer never reaches up into clients, models or files; curl is known to the
// transport's bodies alone and OpenSSL to the checksums alone; models need neither.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

bool is_directive(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  return first != std::string::npos && line[first] == '#';
}

struct IncludeGraph {
  // "mgnify/http/session.hpp" -> the project headers and system headers it names.
  std::map<std::string, std::set<std::string>> project;
  std::map<std::string, std::set<std::string>> system;
  // The same, less what a header includes only header-only (inside
  // `#if MGNIFY_HEADER_ONLY`): what a program built against the compiled library parses.
  std::map<std::string, std::set<std::string>> separate_project;
  std::map<std::string, std::set<std::string>> separate_system;

  static IncludeGraph read(const fs::path& include_root) {
    IncludeGraph graph;
    const std::regex directive(R"(^\s*#\s*include\s*([<"])([^>"]+)[>"])");
    const std::regex header_only_if(R"(^\s*#\s*if\s+MGNIFY_HEADER_ONLY\s*$)");
    const std::regex conditional_if(R"(^\s*#\s*if)");
    const std::regex conditional_end(R"(^\s*#\s*endif)");
    for (const auto& entry : fs::recursive_directory_iterator(include_root)) {
      if (entry.path().extension() != ".hpp" && entry.path().extension() != ".ipp") continue;
      const std::string name = fs::relative(entry.path(), include_root).generic_string();
      std::ifstream in(entry.path());
      std::string line;
      auto& mine = graph.project[name];
      auto& theirs = graph.system[name];
      auto& mine_separate = graph.separate_project[name];
      auto& theirs_separate = graph.separate_system[name];
      // Depth of the #if blocks open since the last `#if MGNIFY_HEADER_ONLY` (0: outside one).
      int header_only_depth = 0;
      while (std::getline(in, line)) {
        // std::regex is slow under the sanitizers' -O0 builds: only directives need it.
        if (!is_directive(line)) continue;
        if (header_only_depth > 0) {
          if (std::regex_search(line, conditional_if)) ++header_only_depth;
          if (std::regex_search(line, conditional_end)) --header_only_depth;
        } else if (std::regex_search(line, header_only_if)) {
          header_only_depth = 1;
        }
        std::smatch m;
        if (!std::regex_search(line, m, directive)) continue;
        const std::string target = m[2];
        const bool project_header = target.rfind("mgnify/", 0) == 0;
        (project_header ? mine : theirs).insert(target);
        if (header_only_depth == 0)
          (project_header ? mine_separate : theirs_separate).insert(target);
      }
    }
    return graph;
  }

  /// Every project header `name` reaches, itself included (with `separate`, in a program
  /// built against the compiled library).
  std::set<std::string> reach(const std::string& name, bool separate = false) const {
    const auto& edges = separate ? separate_project : project;
    std::set<std::string> seen{name};
    std::vector<std::string> todo{name};
    while (!todo.empty()) {
      const std::string next = todo.back();
      todo.pop_back();
      const auto it = edges.find(next);
      if (it == edges.end()) continue;
      for (const auto& target : it->second) {
        if (seen.insert(target).second) todo.push_back(target);
      }
    }
    return seen;
  }

  /// The headers through which `name` reaches a system header starting with `prefix`.
  std::vector<std::string> reaches_system(const std::string& name, const std::string& prefix,
                                          bool separate = false) const {
    const auto& edges = separate ? separate_system : system;
    std::vector<std::string> via;
    for (const auto& header : reach(name, separate)) {
      const auto it = edges.find(header);
      if (it == edges.end()) continue;
      for (const auto& target : it->second) {
        if (target.rfind(prefix, 0) == 0) via.push_back(header + " includes <" + target + ">");
      }
    }
    return via;
  }
};

const IncludeGraph& graph() {
  static const IncludeGraph g = IncludeGraph::read(fs::path(MGNIFY_SOURCE_DIR) / "include");
  return g;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

TEST_CASE("the include graph is read from the headers", "[layout]") {
  REQUIRE(graph().project.count("mgnify/http/session.hpp") == 1);
  CHECK(graph().reach("mgnify/v2/client.hpp").count("mgnify/http/session.hpp") == 1);
  CHECK_FALSE(graph().reaches_system("mgnify/http/curl_transport.hpp", "curl/").empty());
}

TEST_CASE("only the transport includes curl, and only checksums include OpenSSL", "[layout]") {
  for (const auto& [header, targets] : graph().system) {
    for (const auto& target : targets) {
      CAPTURE(header, target);
      if (starts_with(target, "curl/")) CHECK(header == "mgnify/http/impl/curl_transport.ipp");
      if (starts_with(target, "openssl/")) CHECK(header == "mgnify/files/impl/checksum.ipp");
    }
  }
}

TEST_CASE("built against the compiled library, no public header parses curl or OpenSSL",
          "[layout]") {
  std::size_t public_headers = 0;
  for (const auto& [header, targets] : graph().project) {
    if (header.find("impl/") != std::string::npos) continue;
    ++public_headers;
    CAPTURE(header);
    CHECK(graph().reaches_system(header, "openssl/", true) == std::vector<std::string>{});
    CHECK(graph().reaches_system(header, "curl/", true) == std::vector<std::string>{});
  }
  CHECK(public_headers > 100);
  // Header-only, the bodies come with the headers, OpenSSL's included.
  CHECK_FALSE(graph().reaches_system("mgnify/files/checksum.hpp", "openssl/").empty());
}

TEST_CASE("the HTTP layer includes nothing above it", "[layout]") {
  // What http/ may build on: itself and the foundations every layer shares.
  const std::set<std::string> foundations = {
      "mgnify/version.hpp",
      "mgnify/error.hpp",
      "mgnify/error_body.hpp",
      "mgnify/cancel.hpp",
      "mgnify/enum_table.hpp",
      "mgnify/call_options.hpp",
      "mgnify/detail/secrets.hpp",
      "mgnify/detail/civil_time.hpp",
      "mgnify/config.hpp",
      "mgnify/impl/error_body.ipp",
      "mgnify/detail/json_text.hpp",
      "mgnify/detail/impl/json_text.ipp",
      "mgnify/detail/text_excerpt.hpp",
      "mgnify/detail/impl/text_excerpt.ipp",
  };
  for (const auto& [header, targets] : graph().project) {
    if (!starts_with(header, "mgnify/http/")) continue;
    for (const auto& target : graph().reach(header)) {
      CAPTURE(header, target);
      CHECK((starts_with(target, "mgnify/http/") || foundations.count(target) == 1));
    }
  }
}

TEST_CASE("the session and every model header build without curl or OpenSSL", "[layout]") {
  std::vector<std::string> light = {"mgnify/http/session.hpp", "mgnify/detail/json.hpp",
                                    "mgnify/options.hpp"};
  for (const auto& [header, targets] : graph().project) {
    const bool model = (starts_with(header, "mgnify/v1/") || starts_with(header, "mgnify/v2/") ||
                        starts_with(header, "mgnify/proteins/")) &&
                       // a client's header and its bodies (impl/client.ipp, and v1's
                       // impl/client_<family>.ipp for the compiled library's other units)
                       header.find("client.") == std::string::npos &&
                       header.find("impl/client_") == std::string::npos &&
                       header.find("genome_search.hpp") == std::string::npos;
    if (model) light.push_back(header);
  }
  REQUIRE(light.size() > 20);
  for (const auto& header : light) {
    CAPTURE(header);
    CHECK(graph().reaches_system(header, "curl/") == std::vector<std::string>{});
    CHECK(graph().reaches_system(header, "openssl/") == std::vector<std::string>{});
  }
}

TEST_CASE("every header opens the SDK's namespace through the one macro", "[layout]") {
  const fs::path root = fs::path(MGNIFY_SOURCE_DIR) / "include";
  const std::regex by_hand(R"(^\s*(inline\s+)?namespace\s+(mgnify\b|v0\b|abi_))");
  std::size_t users = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const auto extension = entry.path().extension();
    if (extension != ".hpp" && extension != ".ipp") continue;
    const std::string name = fs::relative(entry.path(), root).generic_string();
    if (name == "mgnify/version.hpp") continue;  // defines the macros
    std::ifstream in(entry.path());
    std::string line;
    bool opens = false;
    while (std::getline(in, line)) {
      if (line.find("namespace") != std::string::npos) {
        CAPTURE(name, line);
        CHECK_FALSE(std::regex_search(line, by_hand));
      }
      if (line.rfind("MGNIFY_NAMESPACE_BEGIN", 0) == 0) opens = true;
    }
    if (!opens) continue;
    ++users;
    // An .ipp is read only through its header, which brings the macro.
    if (extension == ".hpp") {
      CAPTURE(name);
      CHECK(graph().reach(name).count("mgnify/version.hpp") == 1);
    }
  }
  CHECK(users > 100);
}
