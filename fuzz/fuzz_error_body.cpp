// parse_error_body must accept any bytes without throwing.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mgnify/error_body.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const mgnify::ErrorBody parsed = mgnify::parse_error_body(body);
  (void)parsed.message.size();
  return 0;
}
