#pragma once

// The files the mock serves: the fixed set under /files/<name>, exposed so that
// tests can compare downloads byte for byte (their digests are pinned in the
// tests), and the generated content and the serving code that the v1 and v2
// mocks use for the files their download listings point at.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace mgnify::mock {

inline constexpr const char* kFilesPrefix = "/files";

/// Every served file name.
std::vector<std::string> mock_file_names();
/// The exact bytes of a served file; throws std::out_of_range for an unknown name.
const std::string& mock_file(const std::string& name);

/// Deterministic bytes shaped like a file called `name`, chosen by its
/// extension: a TSV table (.tsv, .csv), nucleotide FASTA (.fasta, .fna, .fa),
/// protein FASTA (.faa), an HTML report, GFF3, JSON, or else binary noise,
/// `size` bytes long. A ".gz" name holds its inner file in a valid gzip stream
/// and a ".zip" name holds a one-member ZIP archive, both with stored
/// (uncompressed) blocks so that their size is known without generating them.
std::string generated_file(const std::string& name, std::size_t size, std::uint64_t seed);
/// generated_file(name, size, seed).size(), computed without generating the bytes.
std::uint64_t generated_file_size(const std::string& name, std::size_t size);
/// A stable 64-bit seed for generated_file from any text (FNV-1a).
std::uint64_t seed_of(const std::string& text);
/// Lower-case hex digest, computed with libcrypto directly (not with the SDK's
/// hashing, which is what the download tests check): "MD5", "SHA1" or "SHA256".
std::string hex_digest(const std::string& algorithm, const std::string& bytes);

struct ServeOptions {
  /// Empty: from the name's extension.
  std::string content_type;
  /// Non-empty: sent as `Content-Disposition: attachment; filename=...`, as
  /// the v1 service's file views do.
  std::string attachment_name;
  /// Non-zero: the body is sent at most this fast (bytes per second).
  std::size_t bytes_per_second = 0;
};

/// Answers `req` with `body` exactly as GET /files/<name> does: Content-Length,
/// ETag, Last-Modified, Range (206, 416) and HEAD, and the `cut=N` and
/// `ignore_range=1` query parameters (see routes.cpp).
void serve_file(const httplib::Request& req, httplib::Response& res, const std::string& name,
                std::shared_ptr<const std::string> body, const ServeOptions& options = {});

}  // namespace mgnify::mock
