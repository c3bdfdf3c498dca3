// Decoding any bytes as mgnify::v2::StudyDetail yields a value or a DecodeError, nothing else.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "mgnify/v2/studies.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_support::decode_as<mgnify::v2::StudyDetail>(data, size);
  return 0;
}
