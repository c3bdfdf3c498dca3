#pragma once

// CLI11 lets a vector option take every following word that does not look
// like an option, so `-g taxonomies. MGYA00000002` read the accession as a
// second group. A list option here takes exactly one argument per use: a
// list is given comma-separated, or by repeating the option.

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace mgnify_cli {

/// `delimiter` splits the one argument ('\0': kept whole, for values that
/// may contain commas themselves).
inline CLI::Option* add_list_option(CLI::App& cmd, const std::string& name,
                                    std::vector<std::string>& values,
                                    const std::string& description, char delimiter = ',') {
  return cmd.add_option(name, values, description)->delimiter(delimiter)->allow_extra_args(false);
}

}  // namespace mgnify_cli
