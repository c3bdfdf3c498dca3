#pragma once

// Each service's subcommands register themselves on the CLI11 app. Parsing
// only records what to do (Context::action); main() runs it, so every
// failure, parse-time or run-time, goes through the same exit-code mapping.

#include <CLI/CLI.hpp>
#include <functional>
#include <iostream>
#include <mgnify/paged.hpp>
#include <mgnify/tables/flatten.hpp>
#include <mgnify/v1/model_base.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>

#include "output.hpp"
#include "settings.hpp"

namespace mgnify_cli {

using mgnify::tables::field_order;

struct Context {
  Settings settings;
  std::function<int()> action;
};

void add_protein_commands(CLI::App& app, Context& ctx);
void add_v1_commands(CLI::App& app, Context& ctx);
void add_v2_commands(CLI::App& app, Context& ctx);
void add_download_commands(CLI::App& app, Context& ctx);
void add_table_commands(CLI::App& app, Context& ctx);
void add_genome_commands(CLI::App& app, Context& ctx);

/// A Writer on stdout with the global --format, --columns and --no-formula-guard.
inline Writer stdout_writer(const Settings& settings) {
  mgnify::tables::WriteOptions options;
  options.formula_guard = settings.formula_guard;
  return Writer(std::cout, settings.format, settings.columns, options, stdout_is_terminal());
}

/// Prints one record; `order` is its fields' order for TSV (mgnify::tables::field_order).
inline int emit_one(const Settings& settings, const nlohmann::json& record,
                    std::vector<std::string> order = {}) {
  Writer out = stdout_writer(settings);
  out.prefer_order(std::move(order));
  out.write(record);
  out.finish();
  return kOk;
}

/// The JSON text a model was decoded from, when it kept it (v1 models keep
/// their resource's), so that its numbers can be written as they were sent.
template <class T>
std::string_view sent_text_of(const T& model) {
  if constexpr (std::is_base_of<mgnify::v1::ResourceModel, T>::value) {
    return model.resource.raw.text();
  } else {
    return model.raw.text();
  }
}

/// Prints one model, its TSV columns in the model's field order.
template <class T>
int emit_model(const Settings& settings, const T& model) {
  Writer out = stdout_writer(settings);
  out.prefer_order(field_order<T>());
  out.write(nlohmann::json(model), sent_text_of(model));
  out.finish();
  return kOk;
}

/// Says on stderr that a list came back empty, so that an empty table (a
/// header line, or "[]") is not taken for a failed or unfinished command.
inline void note_if_empty(const Writer& out, const std::string& what) {
  if (out.written() == 0) print_error("note: 0 " + what + " matched");
}

/// Starts `out` on a list of T: TSV columns in T's field order, and T's
/// columns as the header of an empty list.
template <class T>
void begin_list_of(Writer& out) {
  out.prefer_order(field_order<T>());
  out.schema(mgnify::tables::schema_example<T>());
  out.begin_list();
}

/// Prints a lazy list as it is walked; a failure on a later page is thrown
/// after the earlier items were printed.
template <class T>
int emit_paged(const Settings& settings, mgnify::Paged<T> paged) {
  Writer out = stdout_writer(settings);
  begin_list_of<T>(out);
  for (const T& item : paged) out.write(nlohmann::json(item), sent_text_of(item));
  out.finish();
  note_if_empty(out, "records");
  return kOk;
}

/// Rejects --page-size for commands whose service has no paging.
inline void no_page_size(const Settings& settings, const std::string& command) {
  if (settings.page_size) throw UsageError("--page-size does not apply to '" + command + "'");
}

}  // namespace mgnify_cli
