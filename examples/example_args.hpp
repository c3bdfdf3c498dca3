#pragma once

// The command-line convention every example follows: `--base-url URL` wins,
// then the service's environment variable, then the public service.
// `--help` and `-h` print the example's usage on stdout and exit 0; any other
// word starting with '-' that the example does not name is a usage error
// (exit 2), so that a mistyped option is never taken for an accession.

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace example {

struct Usage {
  std::string name;                  // the program, e.g. "protein_lookup"
  std::string synopsis;              // its arguments, after the name
  std::string description;           // one paragraph, for --help
  std::vector<std::string> flags;    // its own options without a value
  std::vector<std::string> options;  // its own options that take a value
};

/// "usage: NAME SYNOPSIS" on stderr; returns the exit code for bad usage.
inline int usage_error(const Usage& usage) {
  std::cerr << "usage: " << usage.name << " " << usage.synopsis << "\n";
  return 2;
}

/// A count given on the command line: digits only, so that "-3" is refused
/// rather than wrapped around to a huge number as std::stoul would.
inline std::size_t count_value(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("not a count: " + text);
  }
  return static_cast<std::size_t>(std::stoull(text));
}

struct Args {
  std::string base_url;  // empty: the client's default
  // The words left for the example, its own options (with their values) included.
  std::vector<std::string> positional;
};

/// Exits on --help/-h (0) and on an option the example does not know (2).
inline Args parse_args(int argc, char** argv, const char* env_var, const Usage& usage) {
  auto named = [](const std::vector<std::string>& list, const std::string& word) {
    return std::find(list.begin(), list.end(), word) != list.end();
  };
  Args args;
  if (const char* env = std::getenv(env_var); env && *env) args.base_url = env;
  bool options_done = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (options_done || arg.empty() || arg[0] != '-') {
      args.positional.push_back(arg);
    } else if (arg == "--") {
      options_done = true;
    } else if (arg == "--help" || arg == "-h") {
      std::cout << "usage: " << usage.name << " " << usage.synopsis << "\n\n"
                << usage.description << "\n";
      std::exit(0);
    } else if (arg == "--base-url" && i + 1 < argc) {
      args.base_url = argv[++i];
    } else if (arg.rfind("--base-url=", 0) == 0) {
      args.base_url = arg.substr(11);
    } else if (named(usage.flags, arg)) {
      args.positional.push_back(arg);
    } else if (named(usage.options, arg)) {
      if (i + 1 == argc) {
        std::cerr << usage.name << ": option '" << arg << "' needs a value\n";
        std::exit(usage_error(usage));
      }
      // The value is taken as it is, even when it starts with '-' (a number).
      args.positional.push_back(arg);
      args.positional.push_back(argv[++i]);
    } else {
      std::cerr << usage.name << ": unknown option '" << arg << "'\n";
      std::exit(usage_error(usage));
    }
  }
  return args;
}

}  // namespace example
