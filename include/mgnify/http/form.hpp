#pragma once

// The parts of a multipart/form-data body. A Request that carries parts is
// sent as a form (the transport builds the boundary and the Content-Type);
// a file part's content either sits in memory or is read from a path at send
// time, so a large upload never has to be loaded first.

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "mgnify/version.hpp"

namespace mgnify {
inline namespace v0 {
namespace http {

struct FormPart {
  std::string name;
  /// A text field's value, or an in-memory file's content.
  std::string value;
  /// When set, the content is read from this file when the request is sent.
  std::optional<std::filesystem::path> file;
  /// The filename the server sees; non-empty (or `file` set) makes this a file part.
  std::string filename;
  /// Empty: none for a text field; the transport's default for a file.
  std::string content_type;

  bool is_file() const noexcept { return file.has_value() || !filename.empty(); }

  static FormPart text(std::string name, std::string value) {
    FormPart part;
    part.name = std::move(name);
    part.value = std::move(value);
    return part;
  }
  static FormPart file_content(std::string name, std::string filename, std::string content,
                               std::string content_type = "application/octet-stream") {
    FormPart part;
    part.name = std::move(name);
    part.filename = std::move(filename);
    part.value = std::move(content);
    part.content_type = std::move(content_type);
    return part;
  }
  /// `filename` defaults to the path's last component.
  static FormPart file_at(std::string name, std::filesystem::path path,
                          std::string content_type = "application/octet-stream",
                          std::string filename = {}) {
    FormPart part;
    part.name = std::move(name);
    part.filename = filename.empty() ? path.filename().string() : std::move(filename);
    part.file = std::move(path);
    part.content_type = std::move(content_type);
    return part;
  }
};

}  // namespace http
}  // namespace v0
}  // namespace mgnify
