#include "output.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <mgnify/detail/secrets.hpp>
#include <stdexcept>
#include <utility>

namespace mgnify_cli {

namespace {

enum class Escapes {
  terminal,  // diagnostics: every control visible
  tsv,       // terminal rules plus a doubled backslash, so that cells can be read back
  json,      // serialized JSON: only what nlohmann leaves raw inside strings
};

/// Length of the well-formed UTF-8 sequence at s[i] (no overlongs, surrogates
/// or code points past U+10FFFF), or 0 when s[i] does not start one.
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned lead = byte(i);
  std::size_t n = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
  } else {
    return 0;
  }
  static constexpr std::uint32_t lead_bits[] = {0, 0, 0x1F, 0x0F, 0x07};
  static constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  std::uint32_t cp = lead & lead_bits[n];
  if (s.size() - i < n) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  }
  if (cp < smallest[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void append_escape(std::string& out, const char* prefix, unsigned value) {
  static const char hex[] = "0123456789abcdef";
  out += prefix;
  out.push_back(hex[(value >> 4) & 0xFu]);
  out.push_back(hex[value & 0xFu]);
}

// The one place that decides which bytes may reach the output as they are.
std::string escape(std::string_view text, Escapes mode) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (mode == Escapes::json) {
        // nlohmann escapes C0 inside strings; outside them a newline is indentation.
        if (c == 0x7F) {
          out += "\\u007f";
        } else {
          out.push_back(static_cast<char>(c));
        }
      } else if (c == '\\' && mode == Escapes::tsv) {
        out += "\\\\";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c < 0x20 || c == 0x7F) {
        append_escape(out, "\\x", c);
      } else {
        out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      // A stray byte such as 0x9B is CSI to a terminal in an 8-bit locale.
      if (mode == Escapes::json) {
        out += "\\ufffd";
      } else {
        append_escape(out, "\\x", c);
      }
      ++i;
      continue;
    }
    const auto second = static_cast<unsigned char>(text[i + 1]);
    if (n == 2 && c == 0xC2 && second <= 0x9F) {
      // U+0080..U+009F: C1 controls, which many terminals obey like their ESC forms.
      append_escape(out, "\\u00", second);
    } else {
      out.append(text, i, n);
    }
    i += n;
  }
  return out;
}

/// nlohmann's dump, made safe: invalid UTF-8 (which would throw type_error
/// 316 and cut the output short) becomes U+FFFD, and DEL and C1 controls,
/// which nlohmann leaves raw, become \u00HH escapes.
template <class Json>
std::string json_text(const Json& value, int indent, bool& replaced) {
  std::string text;
  try {
    text = value.dump(indent);
  } catch (const nlohmann::json::type_error& e) {
    if (e.id != 316) throw;
    replaced = true;
    text = value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return escape(text, Escapes::json);
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The value of `digits` hex digits at text[pos], or -1.
long hex_at(std::string_view text, std::size_t pos, std::size_t digits) {
  if (text.size() - pos < digits) return -1;
  long value = 0;
  for (std::size_t k = 0; k < digits; ++k) {
    const int h = hex_value(text[pos + k]);
    if (h < 0) return -1;
    value = value * 16 + h;
  }
  return value;
}

}  // namespace

std::string sanitize_for_terminal(std::string_view text) { return escape(text, Escapes::terminal); }

void print_error(std::string_view message) {
  // The tool names URLs of its own (a manifest's file URLs, which may be
  // pre-signed), so its messages get the redaction the SDK's errors have.
  std::cerr << "mgnify: " << sanitize_for_terminal(mgnify::detail::redact_urls_in(message)) << "\n";
}

std::string tsv_cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return {};
  if (!value.is_string()) {
    bool replaced = false;
    return json_text(value, -1, replaced);
  }
  return escape(value.get_ref<const std::string&>(), Escapes::tsv);
}

std::string tsv_unescape(std::string_view cell) {
  std::string out;
  std::size_t i = 0;
  while (i < cell.size()) {
    if (cell[i] != '\\' || i + 1 == cell.size()) {
      out.push_back(cell[i++]);
      continue;
    }
    const char next = cell[i + 1];
    if (next == 'x') {
      const long byte = hex_at(cell, i + 2, 2);
      if (byte >= 0) {
        out.push_back(static_cast<char>(byte));
        i += 4;
        continue;
      }
    } else if (next == 'u') {
      const long cp = hex_at(cell, i + 2, 4);
      // tsv_cell writes \u only for the C1 controls: two UTF-8 bytes.
      if (cp >= 0x80 && cp <= 0x9F) {
        out.push_back(static_cast<char>(0xC2));
        out.push_back(static_cast<char>(cp));
        i += 6;
        continue;
      }
    }
    out.push_back(next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : next);
    i += 2;
  }
  return out;
}

namespace {

/// Adds the scalar leaves of `object` to `view` as "prefix.key" (recursively
/// for nested objects); arrays are added whole, as values to name by path.
void add_leaves(nlohmann::ordered_json& view, const std::string& prefix,
                const nlohmann::json& object) {
  for (const auto& [key, value] : object.items()) {
    const std::string path = prefix + "." + key;
    if (value.is_object()) {
      add_leaves(view, path, value);
    } else if (!view.contains(path)) {
      view[path] = value;
    }
  }
}

/// A v1 `sample-metadata` list ({key, value, unit} objects) as metadata.KEY
/// (and metadata.KEY.unit) entries.
void add_sample_metadata(nlohmann::ordered_json& view, const nlohmann::json& entries) {
  for (const auto& entry : entries) {
    if (!entry.is_object() || !entry.contains("key") || !entry["key"].is_string()) continue;
    const std::string name = "metadata." + entry["key"].get<std::string>();
    view[name] = entry.value("value", nlohmann::json());
    const auto unit = entry.find("unit");
    if (unit != entry.end() && unit->is_string() && !unit->get_ref<const std::string&>().empty()) {
      view[name + ".unit"] = *unit;
    }
  }
}

/// The ids a JSON:API relationship names: one id, a comma-separated list, or null.
nlohmann::json relationship_ids(const nlohmann::json& relationship) {
  if (!relationship.is_object()) return nullptr;
  const auto data = relationship.find("data");
  if (data == relationship.end()) return nullptr;
  if (data->is_object() && data->contains("id")) return (*data)["id"];
  if (!data->is_array() || data->empty()) return nullptr;
  std::string ids;
  for (const auto& item : *data) {
    if (item.is_object() && item.contains("id") && item["id"].is_string()) {
      ids += (ids.empty() ? "" : ",") + item["id"].get<std::string>();
    }
  }
  return ids.empty() ? nlohmann::json() : nlohmann::json(ids);
}

const nlohmann::ordered_json* find_path(const nlohmann::ordered_json& view,
                                        const std::string& dotted_path) {
  if (view.is_object()) {
    const auto whole = view.find(dotted_path);
    if (whole != view.end()) return &*whole;
  }
  const nlohmann::ordered_json* node = &view;
  std::size_t start = 0;
  while (start <= dotted_path.size()) {
    const auto dot = dotted_path.find('.', start);
    const std::string key =
        dotted_path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (node->is_object()) {
      const auto it = node->find(key);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array() && !key.empty() && key.size() < 10 &&
               key.find_first_not_of("0123456789") == std::string::npos) {
      const std::size_t index = std::stoul(key);
      if (index >= node->size()) return nullptr;
      node = &(*node)[index];
    } else {
      return nullptr;
    }
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return node;
}

}  // namespace

nlohmann::ordered_json tsv_view(const nlohmann::json& record,
                                const std::vector<std::string>& order) {
  if (!record.is_object()) return nlohmann::ordered_json{{"value", record}};
  const auto attributes = record.find("attributes");
  const bool json_api = attributes != record.end() && attributes->is_object() &&
                        record.contains("id") && record.contains("type");
  nlohmann::json fields = record;
  if (json_api) {
    fields = *attributes;
    fields["id"] = record["id"];
    fields["type"] = record["type"];
  }
  std::vector<std::string> keys;
  // Without a field table, a JSON:API resource still reads id and type first.
  const std::vector<std::string> resource_order = {"id", "type"};
  for (const auto& key : order.empty() && json_api ? resource_order : order) {
    if (fields.contains(key)) keys.push_back(key);
  }
  for (const auto& [key, value] : fields.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  // The identifier leads, so that a row can be read (and joined) by its first column.
  for (const char* identifier : {"mgyp", "accession"}) {
    const auto it = std::find(keys.begin(), keys.end(), identifier);
    if (it != keys.end()) {
      std::rotate(keys.begin(), it, it + 1);
      break;
    }
  }

  nlohmann::ordered_json view = nlohmann::ordered_json::object();
  for (const auto& key : keys) {
    const nlohmann::json& value = fields[key];
    view[key] = value;
    if (value.is_object()) {
      add_leaves(view, key, value);
    } else if (json_api && key == "sample-metadata" && value.is_array()) {
      add_sample_metadata(view, value);
    }
  }
  const auto relationships = record.find("relationships");
  if (json_api && relationships != record.end() && relationships->is_object()) {
    for (const auto& [name, relationship] : relationships->items()) {
      nlohmann::json ids = relationship_ids(relationship);
      if (!ids.is_null() && !view.contains(name)) view[name] = std::move(ids);
    }
  }
  return view;
}

nlohmann::ordered_json value_at(const nlohmann::ordered_json& view,
                                const std::string& dotted_path) {
  const nlohmann::ordered_json* node = find_path(view, dotted_path);
  return node ? *node : nlohmann::ordered_json();
}

Writer::Writer(std::ostream& out, Format format, std::vector<std::string> columns)
    : out_(out),
      format_(format),
      columns_(std::move(columns)),
      columns_given_(!columns_.empty()),
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

void Writer::begin_list() {
  list_ = true;
  if (format_ == Format::json) out_ << "[";
}

void Writer::write_header() {
  header_done_ = true;
  for (std::size_t i = 0; i < columns_.size(); ++i)
    out_ << (i ? "\t" : "") << escape(columns_[i], Escapes::tsv);
  out_ << "\n";
}

void Writer::write(const nlohmann::json& record) {
  bool replaced = false;
  switch (format_) {
    case Format::json:
      if (list_) {
        out_ << (written_ ? ",\n" : "\n") << json_text(record, -1, replaced);
      } else {
        out_ << json_text(record, 2, replaced) << "\n";
      }
      break;
    case Format::ndjson:
      out_ << json_text(record, -1, replaced) << "\n";
      break;
    case Format::tsv: {
      const nlohmann::ordered_json view = tsv_view(record, order_);
      if (!header_done_) {
        if (columns_.empty() && view.is_object()) {
          for (const auto& [key, value] : view.items()) {
            if (!value.is_structured()) columns_.push_back(key);
          }
          column_seen_.assign(columns_.size(), true);
        }
        write_header();
      }
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        const nlohmann::ordered_json* cell = find_path(view, columns_[i]);
        if (cell) column_seen_[i] = true;
        out_ << (i ? "\t" : "") << tsv_cell(cell ? *cell : nlohmann::ordered_json());
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

void Writer::write(const nlohmann::ordered_json& record) {
  if (format_ == Format::tsv) {
    write(nlohmann::json(record));
    return;
  }
  bool replaced = false;
  const bool pretty = format_ == Format::json && !list_;
  const std::string text = json_text(record, pretty ? 2 : -1, replaced);
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
  if (format_ == Format::tsv && !header_done_ && !columns_.empty()) write_header();
  out_.flush();
  report_replaced();
  report_unknown_columns();
}

}  // namespace mgnify_cli
