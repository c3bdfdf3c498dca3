#pragma once

// The parts of a multipart/form-data body. A Request that carries parts is
// sent as a form (the transport builds the boundary and the Content-Type);
// a file part's content either sits in memory or is read from a path at send
// time, so a large upload never has to be loaded first.
// A part's name, file name and content type become header lines of the body,
// so they are checked (FormPart::validate) before anything is sent; the
// session and the transport both do.

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "mgnify/error.hpp"
#include "mgnify/http/headers.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN
namespace http {

/// A part's name or file name: written between quotes in its
/// Content-Disposition line, and escaped there differently by libcurl before
/// 7.81 (backslashes before `"` and `\`) and since (`"`, CR and LF as %22,
/// %0D, %0A). Only names that need no escaping are sent, so the server sees
/// the same name whichever libcurl sends it: no control characters (the
/// header-value rule's CR, LF and NUL among them), quotes or backslashes.
inline void check_form_name(const std::string& what, const std::string& name) {
  check_header_value(what, name);
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || c == '"' || c == '\\') {
      throw InvalidArgument(what + " must not contain control characters, quotes or backslashes");
    }
  }
}

/// A file uploaded from disk is read while sending, to its end: only a regular
/// file (symbolic links followed) has one; a FIFO or a device such as
/// /dev/zero would upload forever.
inline void check_upload_file(const std::string& what, const std::filesystem::path& path) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(path, ec)) {
    throw InvalidArgument(what + " '" + path.string() + "' is missing or not a regular file");
  }
}

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

  /// InvalidArgument for what would change the body's header lines or never
  /// end: an empty or escapable name or file name, a content type with a line
  /// break, a file that is not a regular file.
  void validate() const {
    if (name.empty()) throw InvalidArgument("every form part needs a name");
    check_form_name("a form part name", name);
    // libcurl names a file part after its path when no filename is given.
    check_form_name("the file name of form part '" + name + "'",
                    file && filename.empty() ? file->filename().string() : filename);
    check_header_value("the content type of form part '" + name + "'", content_type);
    if (file) check_upload_file("the file of form part '" + name + "'", *file);
  }

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
MGNIFY_NAMESPACE_END
