#pragma once

// CLI11 stores `--search ''` as an empty string, which every command reads as
// "not given": the filter, base URL or file would silently fall back to a
// default the user did not ask for. These options refuse an empty value with
// a usage error naming the option.

#include <CLI/CLI.hpp>
#include <string>

namespace mgnify_cli {

inline CLI::Option* add_nonempty_option(CLI::App& app, const std::string& name, std::string& target,
                                        const std::string& help) {
  const std::string shown = name.substr(name.rfind(',') + 1);
  return app
      .add_option_function<std::string>(
          name,
          [&target, shown](const std::string& text) {
            if (text.empty()) {
              throw CLI::ValidationError(shown + " must not be empty",
                                         CLI::ExitCodes::ValidationError);
            }
            target = text;
          },
          help)
      ->type_name("TEXT");
}

}  // namespace mgnify_cli
