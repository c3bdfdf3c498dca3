#pragma once

// The lines of a program's text output, for tests that compare it line by line.

#include <sstream>
#include <string>
#include <vector>

namespace mgnify::test::text_lines {

/// `text` split at LF, without the LFs; no empty last line for a trailing LF.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

}  // namespace mgnify::test::text_lines
