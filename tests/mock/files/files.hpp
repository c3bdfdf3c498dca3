#pragma once

// The files the mock serves under /files/<name>, exposed so that tests can
// compare downloads byte for byte. Their digests are pinned in the tests.

#include <string>
#include <vector>

namespace mgnify::mock {

inline constexpr const char* kFilesPrefix = "/files";

/// Every served file name.
std::vector<std::string> mock_file_names();
/// The exact bytes of a served file; throws std::out_of_range for an unknown name.
const std::string& mock_file(const std::string& name);

}  // namespace mgnify::mock
