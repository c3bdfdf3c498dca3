#pragma once

// What every subcommand shares: the global options, how they become
// ClientOptions, and how failures become exit codes a pipeline can test.

#include <cstddef>
#include <exception>
#include <mgnify/options.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "output.hpp"

namespace mgnify_cli {

/// Exit codes (also in `mgnify --help` and docs/cli.md).
enum ExitCode : int {
  kOk = 0,
  kOther = 1,
  kUsage = 2,
  kNotFound = 3,
  kAuth = 4,
  kUnavailable = 5,
  /// 128 + SIGINT, as a shell reports a process that Ctrl-C ended; a download
  /// ends with it after its report. SIGTERM gives 128 + 15.
  kInterrupted = 130,
};

/// The three services and their environment variables.
enum class Service { proteins, v1, v2 };
const char* service_env_var(Service service);

struct Settings {
  Format format = Format::json;
  bool format_given = false;                   // --format was on the command line
  std::vector<std::string> columns;            // --columns, for tsv
  std::optional<std::size_t> max_items;        // --max
  std::optional<int> page_size;                // --page-size
  std::string base_url;                        // --base-url: the service the command talks to
  std::string token_env;                       // --token-env NAME
  std::optional<int> retries;                  // --retries: attempts per request
  std::optional<double> timeout_seconds;       // --timeout
  std::optional<double> rate_limit;            // --rate-limit requests per second (0: off)
  std::optional<double> rate_burst;            // requests sent at once after a pause (--shard: 1)
  std::string cache_dir;                       // --cache DIR
  std::optional<long long> cache_ttl_seconds;  // --cache-ttl
  bool formula_guard = true;                   // off with --no-formula-guard
};

/// Bad command-line input found after parsing (exit code 2).
/// A -p or -g filter that left nothing to work on: exit 3 (kNotFound), the
/// message naming what the object does have.
class NothingMatched : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class UsageError : public std::exception {
 public:
  explicit UsageError(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

/// The environment variable naming a response cache directory when --cache is not given.
inline constexpr const char* kCacheDirEnvVar = "MGNIFY_CACHE_DIR";

/// ClientOptions for one service: base URL from --base-url, else the
/// service's environment variable, else the client's default; token from the
/// variable --token-env names; a response cache in --cache, else
/// MGNIFY_CACHE_DIR, else none.
/// A POSIX portable environment variable name of at most 64 characters.
bool is_environment_variable_name(std::string_view text);

mgnify::ClientOptions client_options(const Settings& settings, Service service);

/// Throws UsageError for output options that cannot apply together.
void check_output_settings(const Settings& settings);

/// The exit code for an exception (see ExitCode).
int exit_code_for(const std::exception_ptr& error);

/// The message for an exception: its what(), except that a TLS failure is
/// named as such, with the URL and a hint at the base URL.
std::string error_message(const std::exception& error);

/// One exit code and what it means (for `mgnify --help` and the man page).
struct ExitCodeMeaning {
  int code;
  const char* meaning;
};
const std::vector<ExitCodeMeaning>& exit_code_table();

/// Where settings come from besides the command line (for `mgnify --help` and the man page).
const std::vector<std::string>& environment_notes();

/// The footer of `mgnify --help`: the exit codes and the environment notes.
std::string exit_code_help();

}  // namespace mgnify_cli
