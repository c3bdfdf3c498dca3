#pragma once

// The files behind the v1 mock's download listings. Every listed file is
// served at its links.self URL, and its bytes are a pure function of the
// owner and the position in the list, so the listed `file-checksum` is the
// real digest of what the mock sends. Tests read the same bytes from here.

#include <cstddef>
#include <memory>
#include <string>

namespace mgnify::mock::v1data {

enum class DownloadOwner { study, analysis, genome, catalogue };

/// Number of files listed under an owner (the same for every owner of a kind;
/// private studies list none).
std::size_t download_count(DownloadOwner kind);

struct DownloadFile {
  std::string alias;
  std::string pipeline;  // "" for genome and catalogue files
  const char* format;    // file-format.name
  const char* extension;
  const char* label;
  const char* group;
  std::string checksum_algorithm;  // "" where the service publishes none (old data)
  std::string checksum;
  std::size_t size = 0;
};

/// The k-th file of owner `owner` (an index into the v1 data set: study,
/// sample/analysis, genome or catalogue index). Digests are cached.
DownloadFile download_file(DownloadOwner kind, std::size_t owner, std::size_t k);
/// Its exact bytes. The GO and SSU taxonomy tables of the analyses outside
/// MGYS00000001 are summary files in the pipeline's layout (files/summaries.hpp).
std::shared_ptr<const std::string> download_bytes(DownloadOwner kind, std::size_t owner,
                                                  std::size_t k);

}  // namespace mgnify::mock::v1data
