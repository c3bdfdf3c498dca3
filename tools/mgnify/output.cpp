#include "output.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <mgnify/detail/secrets.hpp>
#include <mgnify/detail/text_escape.hpp>
#include <mgnify/tables/flatten.hpp>
#include <stdexcept>
#include <utility>

namespace mgnify_cli {

using mgnify::detail::Escapes;
using mgnify::detail::json_text;
using mgnify::detail::json_text_keeping_numbers;
namespace tables = mgnify::tables;

std::string sanitize_for_terminal(std::string_view text) {
  return mgnify::detail::escape_text(text, Escapes::terminal);
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }

void print_error(std::string_view message) {
  // The tool names URLs of its own (a manifest's file URLs, which may be
  // pre-signed), so its messages get the redaction the SDK's errors have.
  std::cerr << "mgnify: " << sanitize_for_terminal(mgnify::detail::redact_urls_in(message)) << "\n";
}

Writer::Writer(std::ostream& out, Format format, std::vector<std::string> columns,
               tables::WriteOptions options, bool terminal)
    : out_(out),
      format_(format),
      columns_(std::move(columns)),
      options_(options),
      terminal_(terminal),
      columns_given_(!columns_.empty()),
      columns_fixed_(columns_given_),
      column_seen_(columns_.size(), false) {}

Writer::~Writer() {
  if (!finished_ && format_ == Format::json && list_) {
    out_ << (written_ ? "\n]\n" : "]\n");
    out_.flush();
  }
  report_replaced();
}

void Writer::report_unknown_columns() {
  // A misspelt column would otherwise be an empty cell on every line.
  if (format_ != Format::tsv || !columns_given_ || written_ == 0) return;
  for (std::size_t i = 0; i < columns_.size(); ++i) {
    if (!column_seen_[i]) {
      print_error("warning: no record has a field '" + columns_[i] +
                  "' (--columns); its cells are empty");
    }
  }
  columns_given_ = false;
}

void Writer::report_replaced() {
  if (reported_ || replaced_ == 0) return;
  reported_ = true;
  print_error("warning: " + std::to_string(replaced_) + (replaced_ == 1 ? " record" : " records") +
              " held invalid UTF-8, written as U+FFFD (JSON cannot carry it)");
}

std::string Writer::guarded(const std::string& text) const {
  return options_.formula_guard ? tables::neutralise_formula(text) : text;
}

std::string Writer::tsv_field(const nlohmann::ordered_json& value) const {
  if (value.is_null()) return {};
  if (!value.is_string()) {
    // Compact JSON: C0 controls, DEL and C1 already escaped, invalid UTF-8 replaced.
    bool replaced = false;
    const std::string text = json_text(value, -1, replaced);
    return escape_cells_ ? text : tables::quote_field(text, '\t');
  }
  const std::string text = guarded(value.get_ref<const std::string&>());
  if (escape_cells_) return tables::tsv_escape(text);
  return tables::quote_field(
      terminal_ ? sanitize_for_terminal(text) : mgnify::detail::valid_utf8(text), '\t');
}

void Writer::begin_list() {
  list_ = true;
  if (format_ == Format::json) out_ << "[";
}

void Writer::write_header() {
  header_done_ = true;
  for (std::size_t i = 0; i < columns_.size(); ++i)
    out_ << (i ? "\t" : "") << tsv_field(nlohmann::ordered_json(columns_[i]));
  out_ << "\n";
}

void Writer::take_columns(const nlohmann::ordered_json& view, bool schema) {
  if (!view.is_object()) return;
  for (const auto& [key, value] : view.items()) {
    // A record's null where the schema has an object (`biome: null`) holds
    // nothing to show: only the schema's own nulls name columns.
    if (value.is_structured() || (!schema && value.is_null())) continue;
    if (column_names_.insert(key).second) columns_.push_back(key);
  }
  column_seen_.assign(columns_.size(), true);
}

void Writer::note_unlisted(const nlohmann::ordered_json& view) {
  if (!view.is_object()) return;
  for (const auto& [key, value] : view.items()) {
    if (value.is_structured() || value.is_null() || column_names_.count(key) != 0) continue;
    // Each name once; a handful is enough to tell what they are.
    if (column_names_.insert(key).second) {
      ++unlisted_count_;
      if (unlisted_.size() < 5) unlisted_.push_back(key);
    }
  }
}

void Writer::report_unlisted() {
  if (unlisted_count_ == 0) return;
  std::string names;
  for (const auto& name : unlisted_) names += (names.empty() ? "" : ", ") + name;
  if (unlisted_count_ > unlisted_.size()) names += ", ...";
  print_error("warning: " + std::to_string(unlisted_count_) +
              (unlisted_count_ == 1 ? " field" : " fields") +
              " that only later records have got no column (" + names +
              "): name them with --columns" +
              (names.find("metadata.") != std::string::npos ? ", or use samples-table" : ""));
  unlisted_count_ = 0;
}

void Writer::write(const nlohmann::json& record) { write_record(record, {}); }

void Writer::write(const nlohmann::json& record, std::string_view sent_text) {
  const mgnify::detail::NumberTexts texts = mgnify::detail::changed_number_texts(sent_text);
  if (format_ != Format::tsv || texts.empty()) {
    write_record(record, texts);
    return;
  }
  // tsv_view places values by column, not by their place in the record: a
  // TSV cell is text, so each such number becomes the text it was sent as.
  nlohmann::json spelled = record;
  for (const auto& [pointer, text] : texts) {
    const nlohmann::json::json_pointer at(pointer);
    if (!spelled.contains(at)) continue;
    nlohmann::json& value = spelled[at];
    if (value.is_number() && mgnify::detail::sent_number_text(texts, pointer, value)) value = text;
  }
  write_record(spelled, {});
}

void Writer::write_record(const nlohmann::json& record,
                          const mgnify::detail::NumberTexts& sent_numbers) {
  bool replaced = false;
  switch (format_) {
    case Format::json:
      if (list_) {
        out_ << (written_ ? ",\n" : "\n")
             << json_text_keeping_numbers(record, -1, replaced, sent_numbers);
      } else {
        out_ << json_text_keeping_numbers(record, 2, replaced, sent_numbers) << "\n";
      }
      break;
    case Format::ndjson:
      out_ << json_text_keeping_numbers(record, -1, replaced, sent_numbers) << "\n";
      break;
    case Format::tsv: {
      const nlohmann::ordered_json view = tables::tsv_view(record, order_);
      if (!header_done_) {
        if (!columns_fixed_) {
          if (!schema_.is_null()) take_columns(tables::tsv_view(schema_, order_), true);
          take_columns(view, schema_.is_null());
          tables::identifier_first(columns_);
        }
        write_header();
      } else if (!columns_fixed_) {
        note_unlisted(view);
      }
      const tables::ViewIndex index(view);
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        const nlohmann::ordered_json* cell = index.find(columns_[i]);
        if (cell) column_seen_[i] = true;
        out_ << (i ? "\t" : "") << tsv_field(cell ? *cell : nlohmann::ordered_json());
      }
      out_ << "\n";
      break;
    }
  }
  ++written_;
  if (replaced) ++replaced_;
  // Each record reaches a reading pipeline as soon as it is complete.
  out_.flush();
  // A closed reader (`| head`) must stop the walk, not let it fetch every page.
  if (!out_) throw std::runtime_error("cannot write the output (closed pipe or full disk)");
}

void Writer::write(const nlohmann::ordered_json& record,
                   const mgnify::detail::NumberTexts& sent_numbers) {
  if (format_ == Format::tsv) {
    write(nlohmann::json(record));
    return;
  }
  bool replaced = false;
  const bool pretty = format_ == Format::json && !list_;
  const std::string text =
      json_text_keeping_numbers(record, pretty ? 2 : -1, replaced, sent_numbers);
  if (format_ == Format::json && list_) {
    out_ << (written_ ? ",\n" : "\n") << text;
  } else {
    out_ << text << "\n";
  }
  ++written_;
  if (replaced) ++replaced_;
  out_.flush();
  if (!out_) throw std::runtime_error("cannot write the output (closed pipe or full disk)");
}

void Writer::finish() {
  finished_ = true;
  if (format_ == Format::json && list_) out_ << (written_ ? "\n]\n" : "]\n");
  if (format_ == Format::tsv && !header_done_) {
    if (!columns_fixed_ && !schema_.is_null())
      take_columns(tables::tsv_view(schema_, order_), true);
    if (!columns_.empty()) write_header();
  }
  out_.flush();
  report_replaced();
  report_unknown_columns();
  report_unlisted();
}

}  // namespace mgnify_cli
