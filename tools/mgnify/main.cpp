// mgnify: the MGnify services from the command line.
//
//   mgnify protein get MGYP000261684433
//   mgnify v2 studies list --search "human gut" --max 20 --format tsv
//   mgnify downloads MGYS00005292 -p 5.0 -g taxonomic_analysis_ssu_rrna --manifest files.tsv
//   mgnify download --manifest files.tsv --dir results/
//
// Exit codes are listed by `mgnify --help` (settings.cpp).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstddef>
#include <exception>
#include <iostream>
#include <limits>
#include <mgnify/error.hpp>
#include <mgnify/version.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "generated_docs.hpp"
#include "help_format.hpp"
#include "interrupts.hpp"
#include "list_option.hpp"
#include "nonempty_option.hpp"
#include "number_option.hpp"

namespace {

using namespace mgnify_cli;

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

/// "; did you mean 'get'?" for the closest of `names` within two edits, else "".
std::string suggestion(const std::string& word, const std::vector<std::string>& names) {
  const std::string* best = nullptr;
  std::size_t best_distance = 3;
  for (const auto& name : names) {
    const std::size_t d = edit_distance(word, name);
    if (d < best_distance) {
      best = &name;
      best_distance = d;
    }
  }
  return best ? "; did you mean '" + *best + "'?" : std::string();
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// CLI11 reports a mistyped command as "A subcommand is required" and an
/// unknown option as "arguments were not expected"; this names the word the
/// user typed, and what was probably meant.
std::string parse_error_message(const CLI::App& app, const CLI::ParseError& error) {
  const bool required = dynamic_cast<const CLI::RequiredError*>(&error) != nullptr;
  const bool extras = dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr;
  if (!required && !extras) return error.what();

  const CLI::App* deepest = &app;
  std::string path;
  while (!deepest->get_subcommands().empty()) {
    deepest = deepest->get_subcommands().front();
    path += (path.empty() ? "" : " ") + deepest->get_name();
  }
  std::vector<std::string> commands;
  for (const CLI::App* sub : visible_subcommands(deepest)) commands.push_back(sub->get_name());
  const std::vector<std::string> leftovers = app.remaining(true);
  const auto is_option = [](const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; };

  if (!commands.empty()) {
    for (const auto& arg : leftovers) {
      if (is_option(arg)) continue;
      const std::string hint = suggestion(arg, commands);
      return "unknown command '" + arg + "'" +
             (hint.empty() ? "; expected one of: " + joined(commands) : hint);
    }
  }
  for (const auto& arg : leftovers) {
    if (!is_option(arg)) continue;
    const std::string name = arg.substr(0, arg.find('='));
    std::vector<std::string> options;
    for (const CLI::App* a = deepest; a != nullptr; a = a->get_parent()) {
      for (const CLI::Option* option : a->get_options()) {
        for (const auto& long_name : option->get_lnames()) options.push_back("--" + long_name);
      }
    }
    return "unknown option '" + name + "'" + suggestion(name, options);
  }
  if (!leftovers.empty()) return "unexpected argument '" + leftovers.front() + "'";
  if (required && !commands.empty()) {
    const std::string who = path.empty() ? std::string("the tool") : "'" + path + "'";
    return who + " needs a command: " + joined(commands);
  }
  return error.what();
}

/// A global option given to a command that does not use it is refused by
/// name, before any request, rather than ignored or blamed on another option.
void refuse_inapplicable_options(const CLI::App& app) {
  const CLI::App* command = &app;
  std::string path;
  while (!command->get_subcommands().empty()) {
    command = command->get_subcommands().front();
    path += (path.empty() ? "" : " ") + command->get_name();
  }
  for (const CLI::Option* option : app.get_options()) {
    if (option->count() == 0) continue;
    const std::string refused = help_formatter(app).refusal(command, path, option);
    if (!refused.empty()) throw UsageError(refused);
  }
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
  add_list_option(app, "--columns", settings.columns,
                  "tsv columns (comma-separated or repeated): field names or dotted paths into "
                  "each record, metadata.KEY for a metadata value; --format tsv only; default: "
                  "the identifier, then every scalar field in the service's order");
  add_number_option(app, "--max", settings.max_items, std::size_t{0},
                    std::numeric_limits<std::size_t>::max(), "stop after this many items")
      ->default_str("all");
  add_number_option(app, "--page-size", settings.page_size, 1, std::numeric_limits<int>::max(),
                    "items per request (v1: 1..250, v2: 1..100); default: the largest the "
                    "service allows");
  add_nonempty_option(
      app, "--base-url", settings.base_url,
      "base URL of the service the command talks to (default: its environment variable, "
      "else the public service)");
  add_nonempty_option(app, "--token-env", settings.token_env,
                      "name of an environment variable holding an API token (never printed)");
  add_number_option(app, "--retries", settings.retries, 1, 100,
                    "attempts per request, 1 for no retry")
      ->default_str("4");
  add_number_option(app, "--timeout", settings.timeout_seconds, 0.001, 86400.0,
                    "seconds per request")
      ->default_str("120");
  add_number_option(app, "--rate-limit", settings.rate_limit, 0.0, 10000.0,
                    "requests per second to one service (0: no limit)")
      ->default_str("10");
  add_number_option(app, "--rate-burst", settings.rate_burst, 1.0, 10000.0,
                    "requests sent at once after a pause, within --rate-limit")
      ->default_str("10");
  add_nonempty_option(app, "--cache", settings.cache_dir,
                      "directory of an on-disk response cache that later runs answer from "
                      "without a request (default: MGNIFY_CACHE_DIR, else no cache)")
      ->type_name("DIR");
  add_number_option(app, "--cache-ttl", settings.cache_ttl_seconds, 1LL, 10LL * 365 * 86400,
                    "seconds a cached response stays fresh")
      ->default_str("86400");
  app.add_flag_callback(
      "--no-formula-guard", [&settings] { settings.formula_guard = false; },
      "tsv and csv: write cells that start with = + - @ (and are not numbers) as they are, "
      "without the leading ' that keeps spreadsheets from running them as formulas");
}

}  // namespace

int main(int argc, char** argv) {
  install_interrupt_handling();
  Context ctx;
  CLI::App app("mgnify " MGNIFY_VERSION_STRING
               ": the MGnify Protein database, API v1 and API v2 from the command line",
               "mgnify");
  install_help_formatter(app);
  app.set_version_flag("--version", MGNIFY_VERSION_STRING);
  app.require_subcommand(1);
  // Global options may come after the subcommand too (`mgnify v2 studies list --max 5`).
  app.fallthrough();
  add_global_options(app, ctx.settings);
  add_protein_commands(app, ctx);
  add_v1_commands(app, ctx);
  add_v2_commands(app, ctx);
  add_download_commands(app, ctx);
  add_table_commands(app, ctx);
  add_genome_commands(app, ctx);
  add_generator_command(app, ctx);
  // After the subcommands, which would otherwise copy it into every help screen.
  app.footer(exit_code_help());

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
    print_error(parse_error_message(app, e));
    return kUsage;
  }

  if (!ctx.action) {
    print_error("nothing to do (see --help)");
    return kUsage;
  }
  try {
    refuse_inapplicable_options(app);
    check_output_settings(ctx.settings);
    return ctx.action();
  } catch (const std::exception& e) {
    std::cout.flush();
    // Messages quote what servers sent (a detail, a Location, a body excerpt).
    print_error(error_message(e));
    return exit_code_for(std::current_exception());
  }
}
