// Decoding any bytes as mgnify::v2::SampleDetail yields a value or a DecodeError, nothing else.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "mgnify/v2/samples.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_support::decode_as<mgnify::v2::SampleDetail>(data, size);
  return 0;
}
