// Decoding any bytes as mgnify::proteins::Protein yields a value or a DecodeError, nothing else.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "mgnify/proteins/models.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_support::decode_as<mgnify::proteins::Protein>(data, size);
  return 0;
}
