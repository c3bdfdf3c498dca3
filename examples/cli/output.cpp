#include "output.hpp"

#include <stdexcept>
#include <utility>

namespace mgnify_cli {

std::string tsv_cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return {};
  if (!value.is_string()) return value.dump();
  std::string out;
  for (char c : value.get_ref<const std::string&>()) {
    switch (c) {
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

nlohmann::ordered_json tsv_view(const nlohmann::json& record) {
  if (!record.is_object()) return nlohmann::ordered_json{{"value", record}};
  const auto attributes = record.find("attributes");
  const auto id = record.find("id");
  const auto type = record.find("type");
  if (attributes == record.end() || !attributes->is_object() || id == record.end() ||
      type == record.end()) {
    return nlohmann::ordered_json(record);
  }
  nlohmann::ordered_json view = nlohmann::ordered_json::object();
  view["id"] = *id;
  view["type"] = *type;
  for (const auto& [key, value] : attributes->items()) {
    if (key != "id" && key != "type") view[key] = value;
  }
  return view;
}

nlohmann::ordered_json value_at(const nlohmann::ordered_json& view,
                                const std::string& dotted_path) {
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
    } else if (node->is_array() && !key.empty() &&
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
  return *node;
}

Writer::Writer(std::ostream& out, Format format, std::vector<std::string> columns)
    : out_(out), format_(format), columns_(std::move(columns)) {}

void Writer::begin_list() {
  list_ = true;
  if (format_ == Format::json) out_ << "[";
}

void Writer::write_header() {
  header_done_ = true;
  for (std::size_t i = 0; i < columns_.size(); ++i) out_ << (i ? "\t" : "") << columns_[i];
  out_ << "\n";
}

void Writer::write(const nlohmann::json& record) {
  switch (format_) {
    case Format::json:
      if (list_) {
        out_ << (written_ ? ",\n" : "\n") << record.dump();
      } else {
        out_ << record.dump(2) << "\n";
      }
      break;
    case Format::ndjson:
      out_ << record.dump() << "\n";
      break;
    case Format::tsv: {
      const nlohmann::ordered_json view = tsv_view(record);
      if (!header_done_) {
        if (columns_.empty() && view.is_object()) {
          for (const auto& [key, value] : view.items()) {
            if (!value.is_structured()) columns_.push_back(key);
          }
        }
        write_header();
      }
      for (std::size_t i = 0; i < columns_.size(); ++i) {
        out_ << (i ? "\t" : "") << tsv_cell(value_at(view, columns_[i]));
      }
      out_ << "\n";
      break;
    }
  }
  ++written_;
  // Each record reaches a reading pipeline as soon as it is complete.
  out_.flush();
  // A closed reader (`| head`) must stop the walk, not let it fetch every page.
  if (!out_) throw std::runtime_error("cannot write the output (closed pipe or full disk)");
}

void Writer::finish() {
  if (format_ == Format::json && list_) out_ << (written_ ? "\n]\n" : "]\n");
  if (format_ == Format::tsv && !header_done_ && !columns_.empty()) write_header();
  out_.flush();
}

}  // namespace mgnify_cli
