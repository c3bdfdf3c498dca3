// v2_openapi: the OpenAPI document the v2 service describes itself with
// (GET openapi.json), read as JSON: its version, title and operations.
//
//   v2_openapi [--base-url URL] [--max N]
//
// --max N prints at most N operations (default 20); the count is always of all.

#include <iostream>
#include <string>

#include "example_args.hpp"
#include "mgnify/v2.hpp"

namespace {
const example::Usage kUsage{
    "v2_openapi",
    "[--base-url URL] [--max N]",
    "Reads the v2 service's OpenAPI document (GET openapi.json) and prints its OpenAPI version,\n"
    "title and API version, then its operations (method and path), at most N of them (--max,\n"
    "default 20). The base URL defaults to $MGNIFY_API_V2_URL, then the public service.",
    {},
    {"--max"}};
}  // namespace

int main(int argc, char** argv) {
  const example::Args args = example::parse_args(argc, argv, "MGNIFY_API_V2_URL", kUsage);
  if (!args.words.empty()) return example::usage_error(kUsage);
  const std::size_t max = args.count("--max").value_or(20);
  try {
    mgnify::ClientOptions options;
    options.base_url = args.base_url;
    const mgnify::v2::V2Client client(options);

    const nlohmann::json doc = client.openapi();
    const nlohmann::json info = doc.value("info", nlohmann::json::object());
    std::cout << "OpenAPI " << doc.value("openapi", "?") << ": " << info.value("title", "?") << " "
              << info.value("version", "?") << "\n";
    const nlohmann::json paths = doc.value("paths", nlohmann::json::object());
    std::size_t operations = 0;
    for (const auto& path : paths.items()) {
      if (!path.value().is_object()) continue;
      for (const auto& operation : path.value().items()) {
        if (!operation.value().is_object()) continue;  // a path-level "parameters" list
        if (operations++ < max) std::cout << "  " << operation.key() << " " << path.key() << "\n";
      }
    }
    std::cout << operations << " operations\n";
  } catch (const mgnify::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
