// Decoding any bytes as mgnify::v1::Document<mgnify::v1::Study> yields a value or a DecodeError,
// nothing else.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "mgnify/v1/resource.hpp"
#include "mgnify/v1/studies.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_support::decode_as<mgnify::v1::Document<mgnify::v1::Study>>(data, size);
  return 0;
}
