#pragma once

// The command-line convention every example follows: `--base-url URL` wins,
// then the service's environment variable, then the public service.
// `--help` and `-h` print the example's usage on stdout and exit 0; any other
// word starting with '-' that the example does not name is a usage error
// (exit 2), so that a mistyped option is never taken for an accession. A value
// that does not parse as its option's kind (a negative count, "10x" for a
// number) is a usage error that names the option, also exit 2.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
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

/// Prints "NAME: MESSAGE" and the usage line on stderr, then exits 2.
[[noreturn]] inline void fail_usage(const Usage& usage, const std::string& message) {
  std::cerr << usage.name << ": " << message << "\n";
  std::exit(usage_error(usage));
}

/// A count given on the command line: digits only, so that "-3" is refused
/// rather than wrapped around to a huge number as std::stoul would.
inline std::size_t count_value(const std::string& text) {
  if (text.empty() || text.size() > 18 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    throw std::invalid_argument("not a count: " + text);
  }
  return static_cast<std::size_t>(std::stoull(text));
}

/// The command line once the example's own options are sorted out: the values
/// are checked by the accessors, which exit 2 naming the option when a value
/// does not parse, so that no example aborts on, or silently wraps, a bad number.
struct Args {
  std::string base_url;                       // empty: the client's default
  std::vector<std::string> words;             // the positional words, in order
  std::map<std::string, std::string> values;  // each option's last value
  std::vector<std::string> flags;             // the flags given
  Usage usage;

  bool has(const std::string& flag) const {
    return std::find(flags.begin(), flags.end(), flag) != flags.end();
  }
  std::optional<std::string> text(const std::string& option) const {
    const auto found = values.find(option);
    if (found == values.end()) return std::nullopt;
    return found->second;
  }
  /// A whole number from 0 (digits only).
  std::optional<std::size_t> count(const std::string& option) const {
    const auto value = text(option);
    if (!value) return std::nullopt;
    try {
      return count_value(*value);
    } catch (const std::exception&) {
      fail_usage(usage,
                 "option '" + option + "' takes a whole number from 0, got '" + *value + "'");
    }
  }
  /// A whole number from 1 up to `max`.
  std::optional<std::size_t> positive(const std::string& option, std::size_t max) const {
    const auto value = count(option);
    if (value && (*value == 0 || *value > max)) {
      fail_usage(usage, "option '" + option + "' must be from 1 to " + std::to_string(max) +
                            ", got " + std::to_string(*value));
    }
    return value;
  }
  /// A finite decimal number, sign allowed.
  std::optional<double> number(const std::string& option) const {
    const auto value = text(option);
    if (!value) return std::nullopt;
    std::size_t used = 0;
    double parsed = 0;
    try {
      parsed = std::stod(*value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != value->size() || !std::isfinite(parsed)) {
      fail_usage(usage, "option '" + option + "' takes a number, got '" + *value + "'");
    }
    return parsed;
  }
};

/// Exits on --help/-h (0) and on an option the example does not know (2).
inline Args parse_args(int argc, char** argv, const char* env_var, const Usage& usage) {
  auto named = [](const std::vector<std::string>& list, const std::string& word) {
    return std::find(list.begin(), list.end(), word) != list.end();
  };
  Args args;
  args.usage = usage;
  if (const char* env = std::getenv(env_var); env && *env) args.base_url = env;
  bool options_done = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (options_done || arg.empty() || arg[0] != '-') {
      args.words.push_back(arg);
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
      args.flags.push_back(arg);
    } else if (named(usage.options, arg)) {
      if (i + 1 == argc) fail_usage(usage, "option '" + arg + "' needs a value");
      // The value is taken as it is, even when it starts with '-': the
      // accessors then refuse a negative count by name.
      args.values[arg] = argv[++i];
    } else {
      fail_usage(usage, "unknown option '" + arg + "'");
    }
  }
  return args;
}

}  // namespace example
