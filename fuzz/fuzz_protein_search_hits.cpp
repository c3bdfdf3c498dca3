// Decoding any bytes as std::vector<mgnify::proteins::SearchHit> yields a value or a DecodeError, nothing else.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"
#include "mgnify/proteins/models.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz_support::decode_as<std::vector<mgnify::proteins::SearchHit>>(data, size);
  return 0;
}
