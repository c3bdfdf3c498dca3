// mgnify: the MGnify services from the command line.
//
//   mgnify protein get MGYP000261684433
//   mgnify v2 studies list --search "human gut" --max 20 --format tsv
//   mgnify downloads MGYS00005292 -p 5.0 -g taxonomic_analysis_ssu_rrna --manifest files.tsv
//   mgnify download --manifest files.tsv --dir results/
//
// Exit codes are listed by `mgnify --help` (settings.cpp).

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <limits>
#include <mgnify/error.hpp>
#include <mgnify/version.hpp>
#include <string>

#include "commands.hpp"
#include "number_option.hpp"

namespace {

using namespace mgnify_cli;

/// A text option whose empty value would otherwise read as "not given" and
/// fall back to a default the user did not ask for.
CLI::Option* add_nonempty_option(CLI::App& app, const std::string& name, std::string& target,
                                 const std::string& help) {
  return app.add_option_function<std::string>(
      name,
      [&target, name](const std::string& text) {
        if (text.empty()) {
          throw CLI::ValidationError(name + " must not be empty", CLI::ExitCodes::ValidationError);
        }
        target = text;
      },
      help);
}

void add_global_options(CLI::App& app, Settings& settings) {
  app.add_option_function<std::string>(
         "--format",
         [&settings](const std::string& text) {
           settings.format_given = true;
           settings.format = text == "tsv"      ? Format::tsv
                             : text == "ndjson" ? Format::ndjson
                                                : Format::json;
         },
         "output: json (an object, or an array for lists), ndjson (one object per line), tsv")
      ->check(CLI::IsMember({"json", "ndjson", "tsv"}))
      ->type_name("FORMAT")
      ->default_str("json");
  app.add_option("--columns", settings.columns,
                 "tsv columns (comma-separated, dotted paths into each record; --format tsv only); "
                 "default: every scalar field of the first record")
      ->delimiter(',');
  add_number_option(app, "--max", settings.max_items, std::size_t{0},
                    std::numeric_limits<std::size_t>::max(), "stop after this many items");
  add_number_option(app, "--page-size", settings.page_size, 1, std::numeric_limits<int>::max(),
                    "items per request (v1: 1..250, v2: 1..100)");
  add_nonempty_option(
      app, "--base-url", settings.base_url,
      "base URL of the service the command talks to (default: its environment variable, "
      "else the public service)");
  add_nonempty_option(app, "--token-env", settings.token_env,
                      "name of an environment variable holding an API token (never printed)");
  add_number_option(app, "--retries", settings.retries, 1, 100,
                    "attempts per request, 1 for no retry (default: the SDK's 4)");
  add_number_option(app, "--timeout", settings.timeout_seconds, 0.001, 86400.0,
                    "seconds per request (default: the SDK's 120)");
  add_number_option(app, "--rate-limit", settings.rate_limit, 0.0, 10000.0,
                    "requests per second to one service (default: the SDK's 10; 0: no limit)");
}

}  // namespace

int main(int argc, char** argv) {
  Context ctx;
  CLI::App app("mgnify " MGNIFY_VERSION_STRING
               ": the MGnify Protein database, API v1 and API v2 from the command line",
               "mgnify");
  app.footer(exit_code_help());
  app.set_version_flag("--version", MGNIFY_VERSION_STRING);
  app.require_subcommand(1);
  // Global options may come after the subcommand too (`mgnify v2 studies list --max 5`).
  app.fallthrough();
  add_global_options(app, ctx.settings);
  add_protein_commands(app, ctx);
  add_v1_commands(app, ctx);
  add_v2_commands(app, ctx);
  add_download_commands(app, ctx);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, like every other error, so that scripts can log or grep it.
    print_error(e.what());
    return kUsage;
  }

  if (!ctx.action) {
    print_error("nothing to do (see --help)");
    return kUsage;
  }
  try {
    check_output_settings(ctx.settings);
    return ctx.action();
  } catch (const std::exception& e) {
    std::cout.flush();
    // Messages quote what servers sent (a detail, a Location, a body excerpt).
    print_error(e.what());
    return exit_code_for(std::current_exception());
  }
}
